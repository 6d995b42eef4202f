package agentfmt

import "strings"

// A document whose first line is its own title ("# Plan — DYN-3726: …",
// "# Review of …"): the whole comment is the document, title included.
var titledDocumentShape = Shape{
	ID:         "titled-document",
	Kind:       KindDocument,
	ModelledOn: "ai-dynamo/dynamo#12568",
	Describe:   "a document whose first line is its title heading: # Plan, # Change, # Validation, # Review",
	recognise: func(body string) (Result, bool) {
		ls := lines(body)
		i := firstNonBlank(ls, 0)
		if i < 0 {
			return Result{}, false
		}
		lvl, text := heading(ls[i])
		if lvl != 1 {
			return Result{}, false
		}
		low := strings.ToLower(text)
		for _, t := range titledDocs {
			if low == t.word || strings.HasPrefix(low, t.word+" ") || strings.HasPrefix(low, t.word+":") {
				return Result{Doc: trimmedDoc(t.doc, body, 0)}, true
			}
		}
		return Result{}, false
	},
}

var titledDocs = []struct{ word, doc string }{
	{"plan", "plan.md"},
	{"change", "change.md"},
	{"validation", "change-validation.md"},
	{"review", "review.md"},
}
