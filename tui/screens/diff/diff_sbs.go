package diff

import (
	"strings"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

// splitLine draws a side-by-side row: the old line on the left and the new
// one on the right, a blank side where a run of removals or additions has
// no counterpart. Wrapped, the row is as tall as its taller side.
func (d *Diff) splitLine(i int, r diffRow, mark string, w int) []string {
	lw := d.halfWidth()
	rw := max(w-2-lw, 1)
	div := d.sgr().divider
	num := d.numberPaint(i, r)
	lines := d.files[r.file].Hunks[r.hunk].Lines

	// The pair for intra-line emphasis: a removed line beside an added one.
	lp, rp := int32(-1), int32(-1)
	if r.a >= 0 && r.b >= 0 && r.a != r.b && lines[r.a].Kind == packet.LineRemoved && lines[r.b].Kind == packet.LineAdded {
		lp, rp = r.b, r.a
	}
	left := d.side(r, r.a, lp, lw, true, num)
	right := d.side(r, r.b, rp, rw, false, num)
	n := max(len(left), len(right))
	out := make([]string, n)
	for k := range n {
		m := mark
		if k > 0 {
			m = " "
		}
		l, rr := strings.Repeat(" ", lw), strings.Repeat(" ", rw)
		if k < len(left) {
			l = left[k]
		}
		if k < len(right) {
			rr = right[k]
		}
		out[k] = m + l + div + rr
	}
	return out
}

// side draws one side of a split row, w cells wide: the line number of that
// side, the sign and the text (several pieces when wrapped).
func (d *Diff) side(r diffRow, li, partner int32, w int, old bool, num paint) []string {
	if li < 0 {
		return []string{strings.Repeat(" ", w)}
	}
	dl := &d.files[r.file].Hunks[r.hunk].Lines[li]
	n := dl.New
	if old {
		n = dl.Old
	}
	kind := dl.Kind
	if kind == packet.LineContext || (old && kind == packet.LineAdded) || (!old && kind == packet.LineRemoved) {
		kind = packet.LineContext
	}
	tw := w - d.digits - 3
	if tw < 1 {
		return []string{common.Fit("", w)}
	}
	gutter := num.on(lineNo(n, d.digits)) + " " + d.signOf(kind) + " "
	pieces := d.textPieces(lineKey{r.file, r.hunk, li}, kind, partner, tw)
	cont := strings.Repeat(" ", d.digits+3)
	for k := range pieces {
		if k == 0 {
			pieces[k] = gutter + pieces[k]
		} else {
			pieces[k] = cont + pieces[k]
		}
	}
	return pieces
}
