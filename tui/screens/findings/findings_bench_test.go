package findings

import (
	"testing"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

// benchFindings loads a generated packet with 2,000 findings and puts the
// findings screen on it at 160x48, the detail rendered.
func benchFindings(b *testing.B) *Findings {
	b.Helper()
	p := screentest.Generated(b, screentest.ManyFindings, packet.Options{})
	if len(p.Findings) != 2000 {
		b.Fatalf("generated %d findings, want 2000", len(p.Findings))
	}
	f := New(common.NewContext(p, true, false))
	f.SetSize(160, 48)
	screentest.RunScreen(f, f.Init())
	screentest.RunScreen(f, f.Open(common.Target{Screen: common.ScreenFindings, Finding: p.Findings[1000].ID}))
	return f
}

// BenchmarkFindingsView draws a frame of the screen: the cost must not
// grow with the number of findings.
func BenchmarkFindingsView(b *testing.B) {
	f := benchFindings(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_ = f.View()
	}
}

// BenchmarkFindingsMove moves the selection one row and draws the frame,
// as holding j does; the render command it returns is not run, so this is
// what the user waits for before the plain detail shows.
func BenchmarkFindingsMove(b *testing.B) {
	f := benchFindings(b)
	down, up := screentest.KeyMsg("j"), screentest.KeyMsg("k")
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		k := down
		if i/500%2 == 1 {
			k = up
		}
		i++
		_ = f.Update(k)
		_ = f.View()
	}
}
