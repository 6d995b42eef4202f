package findings

// Marking findings (space) so triage keys apply to all of them.

// ToggleMark marks or unmarks the selected finding.
func (f *Findings) ToggleMark() {
	fd := f.Selected()
	if fd == nil {
		return
	}
	if f.marked == nil {
		f.marked = map[string]bool{}
	}
	if f.marked[fd.ID] {
		delete(f.marked, fd.ID)
	} else {
		f.marked[fd.ID] = true
	}
}

// ClearMarks unmarks every finding and reports whether any was marked. A
// batch action clears the marks it applied to, so they never capture a
// later key meant for the selected finding alone; esc clears them too.
func (f *Findings) ClearMarks() bool {
	had := len(f.marked) > 0
	f.marked = nil
	return had
}

// Marked reports whether a finding is marked.
func (f *Findings) Marked(id string) bool { return f.marked[id] }

// PickedFindings are the marked findings, in table order, else the selected one.
func (f *Findings) PickedFindings() []string {
	if len(f.marked) > 0 {
		var ids []string
		for _, fd := range f.ctx.Packet.Findings {
			if f.marked[fd.ID] {
				ids = append(ids, fd.ID)
			}
		}
		return ids
	}
	if fd := f.Selected(); fd != nil {
		return []string{fd.ID}
	}
	return nil
}
