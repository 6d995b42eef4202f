package agentfmt

import (
	"strings"
)

// Badge is the line CodeRabbit leads a review comment with since 2026:
// category, severity and effort, each in emphasis, joined by pipes
// ("_🎯 Functional Correctness_ | _🟠 Major_ | _⚡ Quick win_"), sometimes
// after a "Supported by static analysis" <details> block. Its older
// comments led with the category alone ("_⚠️ Potential issue_").
type Badge struct {
	// Text is the badge line as written; Segments its parts without the
	// emphasis marks.
	Text     string
	Segments []string
	// Severity is blocker, major, minor or nit; "unknown" when no part of
	// the badge is a severity vetter knows. SeverityLabel is as written.
	Severity      string
	SeverityLabel string
	// Category and Effort are the parts that say so; Tags are every part
	// that is not the severity, as written.
	Category string
	Effort   string
	Tags     []string
	// Claim is the comment after the badge line; Support the <details>
	// blocks before it (the static analysis that supports it).
	Claim   string
	Support string
	Line    int
}

// CodeRabbitShape documents the badge line; it is read from review threads,
// not from the agent's comments, so it is not among Shapes.
var CodeRabbitShape = Shape{
	ID:         "coderabbit-badge",
	Kind:       KindNone,
	ModelledOn: "ai-dynamo/dynamo#14363",
	Describe:   "a review comment led by \"_category_ | _severity_ | _effort_\", perhaps after a \"Supported by static analysis\" <details> block",
	recognise: func(body string) (Result, bool) {
		_, ok := ReadBadge(body)
		return Result{}, ok
	},
}

var (
	badgeLineRe = lazyRegexp(`^\s*([_*])[^_*|\n]+([_*])\s*(\|\s*[_*][^_*|\n]+[_*]\s*)*$`)
	segmentRe   = lazyRegexp(`[_*]([^_*|\n]+)[_*]`)
	// severityWords are the severities CodeRabbit has shown, as vetter's
	// words; the emoji beside them varies and is not what is read.
	severityWords = map[string]string{
		"critical": "blocker", "blocker": "blocker",
		"major":   "major",
		"minor":   "minor",
		"trivial": "nit", "nit": "nit",
	}
	effortWords = []string{"quick win", "heavy lift", "effort", "moderate", "small lift"}
)

// ReadBadge reads the badge of a CodeRabbit comment; ok is false when the
// comment does not lead with one.
func ReadBadge(body string) (Badge, bool) {
	body = normalise(body)
	ls := lines(body)
	var support []string
	i := 0
	for i < len(ls) {
		t := strings.TrimSpace(ls[i])
		if t == "" {
			i++
			continue
		}
		if detailsOpenRe().MatchString(t) {
			// Skip the block, nested ones included.
			depth, j := 0, i
			for ; j < len(ls); j++ {
				depth += strings.Count(strings.ToLower(ls[j]), "<details")
				depth -= strings.Count(strings.ToLower(ls[j]), "</details>")
				if depth <= 0 {
					break
				}
			}
			end := min(j+1, len(ls))
			support = append(support, ls[i:end]...)
			i = end
			continue
		}
		break
	}
	if i >= len(ls) || !badgeLineRe().MatchString(ls[i]) {
		return Badge{}, false
	}
	b := Badge{Text: strings.TrimSpace(ls[i]), Severity: "unknown", Line: i + 1,
		Support: strings.TrimSpace(strings.Join(support, "\n"))}
	for _, m := range segmentRe().FindAllStringSubmatch(ls[i], -1) {
		seg := strings.TrimSpace(m[1])
		b.Segments = append(b.Segments, seg)
		word := strings.ToLower(strings.TrimSpace(strings.TrimLeftFunc(seg, notLetter)))
		word = strings.TrimSpace(strings.Split(word, "(")[0])
		if sev, ok := severityWords[word]; ok && b.SeverityLabel == "" {
			b.Severity, b.SeverityLabel = sev, seg
			continue
		}
		b.Tags = append(b.Tags, seg)
		switch {
		case isEffort(word) && b.Effort == "":
			b.Effort = seg
		case b.Category == "":
			b.Category = seg
			// "🧹 Nitpick" was CodeRabbit's older category and severity in one.
			if strings.HasPrefix(word, "nitpick") && b.SeverityLabel == "" {
				b.Severity, b.SeverityLabel = "nit", seg
			}
		}
	}
	b.Claim = strings.TrimSpace(strings.Join(ls[i+1:], "\n"))
	return b, true
}

func isEffort(word string) bool {
	for _, e := range effortWords {
		if strings.Contains(word, e) {
			return true
		}
	}
	return false
}

func notLetter(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }
