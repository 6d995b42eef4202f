package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/common"
)

// Reload puts a newly loaded copy of the packet in place of the current one
// and rebuilds every screen on it, keeping where the person is: each screen
// is asked where it is before, and the new one is opened there, so the
// screen, the selection and the scroll stay where they still exist. History
// is kept. note is shown on the status line (what changed).
func (r *Workbench) Reload(p *packet.Packet, store *review.Store, storeErr error, note string) tea.Cmd {
	var here [common.ScreenCount]common.Target
	for i, s := range r.screens {
		here[i] = s.Here()
	}
	r.ctx.Packet = p
	r.ctx.Store, r.ctx.StoreErr = store, storeErr
	r.screens = newScreens(r.ctx)
	cmds := make([]tea.Cmd, 0, 3*len(r.screens))
	for i, s := range r.screens {
		cmds = append(cmds, s.Init())
		if r.width > 0 && r.height > 0 {
			s.SetSize(r.width, r.bodyHeight())
			cmds = append(cmds, s.Update(tea.WindowSizeMsg{Width: r.width, Height: r.height}))
		}
		// What a screen says when it opens ("no finding #6") would hide
		// what changed; its errors still show.
		cmds = append(cmds, dropStatus(s.Open(here[i])))
	}
	r.matches = 0
	r.status = note
	return tea.Batch(cmds...)
}

// dropStatus runs a command but discards the StatusMsg it produces,
// looking inside batches.
func dropStatus(cmd tea.Cmd) tea.Cmd {
	return mapCmd(cmd, func(m tea.Msg) tea.Msg {
		if _, ok := m.(common.StatusMsg); ok {
			return nil
		}
		return m
	})
}

// Idle reports whether no overlay, prompt or text input has the keys, so
// backspace at an empty history may leave the workbench.
func (r *Workbench) Idle() bool {
	if r.searching || r.prompt != nil || r.palette != nil || r.showHelp {
		return false
	}
	if c, ok := r.screens[r.active].(Capturer); ok && c.Capturing() {
		return false
	}
	return true
}

// Context returns the workbench's shared context.
func (r *Workbench) Context() *common.Context { return r.ctx }

// SetStatus shows a transient message on the status line.
func (r *Workbench) SetStatus(s string) { r.status = s }

// ---- what changed ----------------------------------------------------------
