package tui

import (
	"testing"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/tui/screens/walk"
)

// BenchmarkWalkStep is the walk's step on a packet of 2,000 findings: what
// a key waits for (settling on the next open finding, drawing it). It
// must stay far under a frame (16 ms).
func BenchmarkWalkStep(b *testing.B) {
	p := screentest.Generated(b, screentest.ManyFindings, packet.Options{})
	start := walk.Target()
	r := NewWorkbench(common.NewContext(p, true, false), Options{ForceTheme: "dark", Start: &start})
	r.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	r.OpenStart()
	w := r.Screen(common.ScreenWalk).(*walk.Walk)
	w.Advance() // past the verdict
	// Opening the walk with no finding named settles it on the next open one.
	here := w.Here()
	here.Finding = ""
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		w.Open(here)
		_ = r.Render()
	}
}
