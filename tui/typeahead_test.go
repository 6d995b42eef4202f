package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/internal/screentest"
)

// burst delivers every key before any command they leave has run, as a
// burst read in one go does, then everything they lead to.
func burst(r *Workbench, keys ...string) {
	d := newDriver(func(msg tea.Msg) tea.Cmd {
		_, next := r.Update(msg)
		return next
	})
	for _, k := range keys {
		_, cmd := r.Update(screentest.KeyMsg(k))
		d.run(cmd)
	}
	d.settle()
}

// Keys typed ahead on the walk land on the finding they were typed against:
// "space a a" accepts #1 and #2, "f a" defers the next and accepts the one
// after.
func TestWalkTypeAhead(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r, dir := newWalkRoot(t, false)
		burst(r, "space", "a", "a", "f", "a")
		p := reload(t, dir)
		want := map[string]string{"review.md#1": packet.TriageAccepted, "review.md#2": packet.TriageAccepted,
			"review.md#3": packet.TriageDeferred, "review.md#4": packet.TriageAccepted, "review.md#5": packet.TriageOpen}
		for _, f := range p.Findings {
			if state, _, _ := review.TriageOf(p, f); state != want[f.ID] {
				t.Errorf("%s is %s, want %s", f.ID, state, want[f.ID])
			}
		}
	})
}
