package views

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
