package agentfmt

import (
	"strings"
)

// The August 2026 documents: a comment whose first line names the packet
// file it carries (plan.md, **review.md**, ### plan.md, `change.md`), or a
// <details> block whose summary does; the rest is the document.
var namedDocumentShape = Shape{
	ID:         "named-document",
	Kind:       KindDocument,
	ModelledOn: "ai-dynamo/dynamo#12568",
	Describe:   "a document whose first line, or whose <details> summary, is its file name (plan.md, review.md …)",
	recognise: func(body string) (Result, bool) {
		if d, ok := unwrapDetails(body); ok {
			name, ok := nameInSummary(d.summary)
			if !ok {
				return Result{}, false
			}
			return Result{Doc: trimmedDoc(name, d.inner, d.offset)}, true
		}
		ls := lines(body)
		i := firstNonBlank(ls, 0)
		if i < 0 {
			return Result{}, false
		}
		name := undecorate(ls[i])
		if !docNameRe().MatchString(name) || strings.Contains(name, "..") {
			return Result{}, false
		}
		return Result{Doc: trimmedDoc(name, strings.Join(ls[i+1:], "\n"), i+1)}, true
	},
}

var (
	docNameRe     = lazyRegexp(`^[A-Za-z0-9][A-Za-z0-9._/-]*\.md$`)
	docNameWordRe = lazyRegexp(`(?:^|[\s(\[` + "`" + `*_])([A-Za-z0-9][A-Za-z0-9._-]*\.md)(?:$|[\s)\]:,` + "`" + `*_])`)
)

// nameInSummary is the one file name a details summary names ("review.md",
// "📝 review.md — advisory review"); two names, or none, name nothing.
func nameInSummary(summary string) (string, bool) {
	if n := undecorate(summary); docNameRe().MatchString(n) && !strings.Contains(n, "..") {
		return n, true
	}
	m := docNameWordRe().FindAllStringSubmatch(summary, -1)
	if len(m) != 1 || strings.Contains(m[0][1], "..") {
		return "", false
	}
	return m[0][1], true
}

// trimmedDoc is a document without its leading and trailing blank lines;
// offset is the comment line before text's first line.
func trimmedDoc(name, text string, offset int) *Document {
	ls := lines(normalise(text))
	i := firstNonBlank(ls, 0)
	if i < 0 {
		return &Document{Name: name, Text: "\n", Offset: offset}
	}
	return &Document{Name: name, Text: strings.TrimRight(strings.Join(ls[i:], "\n"), " \n") + "\n", Offset: offset + i}
}
