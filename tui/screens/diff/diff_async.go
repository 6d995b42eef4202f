package diff

import (
	tea "charm.land/bubbletea/v2"
)

// Colouring a line by file type (Chroma) is most of what a new screen of
// the diff costs: ~0.1 ms a line, a few milliseconds a screen, more than a
// key press may take. With Context.AsyncHighlight the screen draws new lines
// uncoloured at once and colours them in a command; the frame with colours
// follows, usually before the terminal has been written to.

// diffColouredMsg says the lines in texts are now in the highlighter's cache.
type diffColouredMsg struct{ texts []hlText }

func (diffColouredMsg) EpochBound() {}

type hlText struct{ file, text string }

// PendingCmd returns a command colouring the lines on screen that are not
// coloured yet, or nil. The root asks after every message, so whatever
// moved the view (a key, a search, a jump from another screen, a resize)
// is followed by its colours.
func (d *Diff) PendingCmd() tea.Cmd {
	d.ensureBuilt()
	if !d.ctx.AsyncHighlight || d.height <= 0 || len(d.rows) == 0 {
		return nil
	}
	hl := d.ctx.Highlighter
	var want []hlText
	add := func(fi, hi, li int32) {
		if li < 0 {
			return
		}
		f := d.files[fi]
		t := hlText{f.Path(), f.Hunks[hi].Lines[li].Text}
		if _, busy := d.colouring[t]; busy || !hl.Pending(t.file, t.text) {
			return
		}
		if d.colouring == nil {
			d.colouring = map[hlText]struct{}{}
		}
		d.colouring[t] = struct{}{}
		want = append(want, t)
	}
	// Rows are at least one screen line each, so the rows from the top to
	// the height cover the screen.
	for i := d.list.Offset; i < len(d.rows) && i < d.list.Offset+d.height; i++ {
		if r := d.rows[i]; r.kind == rowLine {
			add(r.file, r.hunk, r.a)
			if d.sbs {
				add(r.file, r.hunk, r.b)
			}
		}
	}
	if len(want) == 0 {
		return nil
	}
	return d.ctx.Work.Cmd(func() tea.Msg {
		for _, t := range want {
			hl.Line(t.file, t.text)
		}
		return diffColouredMsg{texts: want}
	})
}

// coloured forgets the lines a colouring command has finished.
func (d *Diff) coloured(msg diffColouredMsg) {
	for _, t := range msg.texts {
		delete(d.colouring, t)
	}
}
