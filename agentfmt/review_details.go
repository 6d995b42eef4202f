package agentfmt

// review.md as posted from September 2026: inside a <details> block with a
// summary of its own wording; what makes it the review is the assessment
// heading inside ("## Assessment: sound"), unchanged since August.
var reviewDetailsShape = Shape{
	ID:         "review-details",
	Kind:       KindDocument,
	ModelledOn: "ai-dynamo/dynamo#14363",
	Describe:   "review.md inside a <details> block: an \"Assessment:\" heading within, whatever the summary says",
	recognise: func(body string) (Result, bool) {
		d, ok := unwrapDetails(body)
		if !ok || !hasAssessmentHeading(d.inner) {
			return Result{}, false
		}
		return Result{Doc: trimmedDoc("review.md", d.inner, d.offset)}, true
	},
}
