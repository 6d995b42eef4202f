// Package agentfmt recognises what change agents and review bots post on a
// pull request: the evidence record, the packet's documents, the PR
// description the agent wrote, round and status comments, and CodeRabbit's
// badge line. Each known shape of each document is one Shape, in one file,
// recognised by its structure (a details block, a table header, check
// sections, labelled lines) rather than by exact wording, so a reworded
// sentence still reads and a new shape is one more file and one fixture.
//
// Everything here is a pure function of text; the package knows nothing of
// GitHub or of packets, so the forge code and the packet loader both ask it.
package agentfmt

import "strings"

// Kind is what a recognised comment is.
type Kind string

const (
	// KindRecord is the agent's evidence record: its checks, verdict,
	// assessment and its own N/M count.
	KindRecord Kind = "record"
	// KindDocument is one of the packet's documents (plan.md, review.md …).
	KindDocument Kind = "document"
	// KindRound says a round of repairs happened (and which commit it pushed).
	KindRound Kind = "round"
	// KindStatus is another bot's status line ("nursery: …").
	KindStatus Kind = "status"
	// KindNone is any other comment.
	KindNone Kind = ""
)

// Shape is one known way a document has looked.
type Shape struct {
	// ID names the shape in problems and in summary --json.
	ID string
	// Kind is what a comment of this shape is.
	Kind Kind
	// ModelledOn is the public pull request the shape was first seen on.
	ModelledOn string
	// Describe says in a sentence what the shape looks like.
	Describe string
	// recognise reads a comment, or says it is not of this shape.
	recognise func(body string) (Result, bool)
}

// Shapes are every known shape of comment, in the order they are tried:
// the most structured first, so a record that also names a round is read as
// the record. Adding a shape is one file with its Shape and one line here.
func Shapes() []Shape {
	return []Shape{
		recordChecksShape,
		recordTableDetailsShape,
		recordTableShape,
		reviewDetailsShape,
		namedDocumentShape,
		titledDocumentShape,
		reviewPlainShape,
		roundShape,
		addressedShape,
		nurseryShape,
	}
}

// Result is what a comment was recognised as; exactly one of Record, Doc,
// Round and Status is set for a known shape.
type Result struct {
	// Shape is the ID of the shape that matched ("" for none).
	Shape  string
	Kind   Kind
	Record *Record
	Doc    *Document
	Round  *Round
	Status *Status
	// LooksLike, for a comment no shape matched, says why it looks like an
	// agent document all the same ("a <details> block", "a count of
	// validated checks"); "" when it does not.
	LooksLike string
}

// Recognised reports whether a known shape matched.
func (r Result) Recognised() bool { return r.Kind != KindNone }

// Document is a packet document carried by a comment.
type Document struct {
	// Name is the packet file it stands for (review.md, plan.md …).
	Name string
	// Text is the document itself, without what wrapped it.
	Text string
	// Offset is how many lines of the comment come before Text's first
	// line, so a line of Text is line Offset+n of the comment.
	Offset int
}

// Status is another bot's status comment.
type Status struct {
	Source string // "nursery"
	Text   string // the first line, after the prefix
}

// Recognise says what a comment is: the first shape that matches, else
// KindNone with LooksLike saying whether it resembles an agent document.
func Recognise(body string) Result {
	body = normalise(body)
	for _, s := range Shapes() {
		if r, ok := s.recognise(body); ok {
			r.Shape, r.Kind = s.ID, s.Kind
			return r
		}
	}
	return Result{LooksLike: looksLikeAgentDocument(body)}
}

// ShapeByID finds a shape.
func ShapeByID(id string) (Shape, bool) {
	for _, s := range Shapes() {
		if s.ID == id {
			return s, true
		}
	}
	return Shape{}, false
}

// normalise makes line endings one kind, so line numbers agree with the
// comment as GitHub shows it.
func normalise(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// AllShapes are the comment shapes and the two read from elsewhere (the PR
// description, CodeRabbit's badge): every format vetter knows.
func AllShapes() []Shape {
	return append(Shapes(), DescriptionShape, CodeRabbitShape)
}
