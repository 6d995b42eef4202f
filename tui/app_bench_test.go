package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/bench"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
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

// BenchmarkFirstScreenPreview is vetter's own part of the big packet's
// first screen (bench/firstscreen.sh times the whole process): the packet
// read but for its diff, the workbench built on it, laid out at 160×48 on
// the walk and drawn. The diff is read behind that screen.
func BenchmarkFirstScreenPreview(b *testing.B) {
	spec := bench.Big
	spec.LogBytes = 1 << 10
	dir := b.TempDir()
	if err := bench.Generate(dir, spec); err != nil {
		b.Fatal(err)
	}
	opts := AppOptions{Theme: "dark", StateDir: b.TempDir(), AsyncHighlight: true,
		Load:  packet.Options{DeferLogIndex: true, DeferAbove: packet.SmallLog},
		Start: &common.Target{Screen: common.ScreenWalk, File: -1, Hunk: -1, DiffLine: -1}}
	b.ReportAllocs()
	for b.Loop() {
		pv, err := packet.OpenPreview(dir, opts.Load)
		if err != nil {
			b.Fatal(err)
		}
		a := NewApp(pv, opts)
		a.Presize(160, 48)
		if v := a.View(); !strings.Contains(v.Content, "Verdict") {
			b.Fatalf("the first screen:\n%s", v.Content)
		}
		a.Close()
	}
}
