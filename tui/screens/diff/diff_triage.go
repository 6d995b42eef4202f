package diff

import "github.com/vetter-dev/vetter/packet"

// findingAtCursor is the finding shown on the cursor's row, or under the
// line the cursor is on; nil when there is none.
func (d *Diff) findingAtCursor() *packet.Finding {
	r := d.list.Cursor
	if r < 0 || r >= len(d.rows) {
		return nil
	}
	if d.rows[r].kind == rowLine && r+1 < len(d.rows) && d.rows[r+1].kind == rowFinding {
		r++
	}
	if d.rows[r].kind != rowFinding {
		return nil
	}
	return d.marks[d.rows[r].b].f
}

// PickedFindings is the finding at the cursor, so it can be triaged without
// leaving the diff.
func (d *Diff) PickedFindings() []string {
	d.ensureBuilt()
	if f := d.findingAtCursor(); f != nil {
		return []string{f.ID}
	}
	return nil
}
