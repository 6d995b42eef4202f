package agentfmt

import (
	"strings"
)

// Narrative is the pull request's description as the agent writes it from
// September 2026: the change's narrative, in Overview and Details sections,
// where a packet would have had change.md.
type Narrative struct {
	// Text is the description as written.
	Text string
	// Sections are its headings (and lone "Overview:"-style label lines),
	// in order, for the outline.
	Sections []Section
}

// Section is one heading of a narrative.
type Section struct {
	Title string
	Line  int
}

// DescriptionShape is the PR description's shape; it is read from the pull
// request's body, not from a comment, so it is not among Shapes.
var DescriptionShape = Shape{
	ID:         "pr-description",
	Kind:       KindDocument,
	ModelledOn: "ai-dynamo/dynamo#14453",
	Describe:   "the pull request's description with Overview: and Details: sections (headings, bold or bare label lines)",
	recognise: func(body string) (Result, bool) {
		n, ok := Description(body)
		if !ok {
			return Result{}, false
		}
		return Result{Doc: &Document{Name: "change.md", Text: n.Text}}, true
	},
}

// sectionLabelRe is a line that is only a section's name and a colon,
// bold or bare: "Overview:", "**Details:**".
var sectionLabelRe = lazyRegexp(`^\s*(?:\*\*|__)?\s*([A-Z][A-Za-z ?'/-]{1,60}?)\s*:?\s*(?:\*\*|__)?\s*:?\s*$`)

// Description reads a PR description; ok is false unless it has both an
// Overview and a Details section.
func Description(body string) (*Narrative, bool) {
	body = normalise(body)
	ls := lines(body)
	fence := inFence(ls)
	n := &Narrative{Text: strings.TrimRight(body, " \n") + "\n"}
	overview, detail := false, false
	for i, l := range ls {
		if fence[i] {
			continue
		}
		title := ""
		if lvl, text := heading(l); lvl > 0 {
			title = strings.TrimSuffix(strings.TrimSpace(cleanInline(text)), ":")
		} else if m := sectionLabelRe().FindStringSubmatch(l); m != nil && strings.Contains(l, ":") {
			title = strings.TrimSpace(m[1])
		}
		if title == "" {
			continue
		}
		switch strings.ToLower(title) {
		case "overview":
			overview = true
		case "details":
			detail = true
		}
		n.Sections = append(n.Sections, Section{Title: title, Line: i + 1})
	}
	if !overview || !detail {
		return nil, false
	}
	return n, true
}
