package findings

import (
	"testing"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"
)

// A notch of the wheel over the findings list moves the cursor as three j
// presses do, and back up as three k presses; the horizontal wheel moves
// nothing.
func TestFindingsWheelMovesThreeRows(t *testing.T) {
	wheel, _ := newSampleFindings(t, 160, 48)
	keys, _ := newSampleFindings(t, 160, 48)
	on := func(f *Findings) string {
		if s := f.Selected(); s != nil {
			return s.ID
		}
		return "nothing"
	}
	start := on(wheel)
	notch := func(b tea.MouseButton) {
		screentest.RunScreen(wheel, wheel.Update(tea.MouseWheelMsg{X: 5, Y: 5, Button: b}))
	}

	notch(tea.MouseWheelRight)
	if on(wheel) != start {
		t.Fatalf("the horizontal wheel moved the cursor to %s", on(wheel))
	}
	notch(tea.MouseWheelDown)
	for range 3 {
		screentest.RunScreen(keys, keys.Update(screentest.KeyMsg("j")))
	}
	if on(wheel) == start || on(wheel) != on(keys) {
		t.Fatalf("wheel down: on %s, three j: on %s (started on %s)", on(wheel), on(keys), start)
	}
	notch(tea.MouseWheelUp)
	if on(wheel) != start {
		t.Errorf("wheel up after down: on %s, want %s", on(wheel), start)
	}
}
