package diff

// findingsUnder counts the diff's finding rows from anchor k on that sit
// right under the cursor's line: a jump to a finding's line puts the
// cursor on the line, above its finding, and the counter counts that
// finding as reached, as . does when it lands on the finding itself.
func (d *Diff) findingsUnder(k int) int {
	if d.row(d.list.Cursor).kind == rowFinding {
		return 0
	}
	n := 0
	for i := d.list.Cursor + 1; i < len(d.rows) && k+n < len(d.anchorRow) && int(d.anchorRow[k+n]) == i; i++ {
		n++
	}
	return min(n, 1)
}
