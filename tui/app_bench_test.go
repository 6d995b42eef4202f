package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/tui/internal/screentest"
)

// BenchmarkNewApp is what the first frame waits for once the packet is
// loaded: the context, every screen, the triage store, on the big packet.
func BenchmarkNewApp(b *testing.B) {
	p := screentest.BigDiff(b)
	b.ReportAllocs()
	for b.Loop() {
		a := NewApp(p, AppOptions{Theme: "dark", StateDir: b.TempDir(), AsyncHighlight: true})
		a.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
		_ = a.View()
	}
}
