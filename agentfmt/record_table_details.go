package agentfmt

// The August record as later posted: the same table record, folded inside a
// <details> block whose summary names it ("Automated evidence record —
// validation complete"). The summary's wording is not what is recognised:
// the table inside is.
var recordTableDetailsShape = Shape{
	ID:         "record-table-details",
	Kind:       KindRecord,
	ModelledOn: "ai-dynamo/dynamo#13036",
	Describe:   "the table evidence record inside a <details> block whose summary names it",
	recognise: func(body string) (Result, bool) {
		d, ok := unwrapDetails(body)
		if !ok {
			return Result{}, false
		}
		r, ok := readTableRecord(d.inner, d.offset)
		if !ok {
			return Result{}, false
		}
		r.Summary = d.summary
		return Result{Record: r}, true
	},
}
