package views

// PickedFindings is the finding shown under the cursor (on its row, or on
// the line it sits under), so it can be triaged without leaving the diff.
func (d *Diff) PickedFindings() []string {
	r := d.cursor
	if r < 0 || r >= len(d.rows) {
		return nil
	}
	if d.rows[r].kind == rowLine && r+1 < len(d.rows) && d.rows[r+1].kind == rowFinding {
		r++
	}
	if d.rows[r].kind != rowFinding {
		return nil
	}
	return []string{d.marks[d.rows[r].b].f.ID}
}
