package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/packet"
)

// writeInbox writes n copies of the sample, each with its own id.
func writeInbox(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("wi-%04d", i))
		if err := packet.WriteSample(p); err != nil {
			b.Fatal(err)
		}
		edit(b, filepath.Join(p, "plan.md"), "ACME-4812", fmt.Sprintf("ACME-%d", i+1))
	}
	return dir
}

// BenchmarkInbox500 measures an inbox of 500 packets: the first screen
// (building the app and drawing it, before any packet is read; target
// ≤ 100 ms) and the time until every row is filled (target ≤ 2 s).
func BenchmarkInbox500(b *testing.B) {
	dir := writeInbox(b, 500)
	var first, all time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		a := NewInboxApp(dir, AppOptions{Theme: "dark", StateDir: b.TempDir()})
		a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		_ = a.View()
		first += time.Since(start)
		l := newLoop(b, a)
		l.run(a.Init())
		l.until("every row", a.Inbox().Done)
		all += time.Since(start)
		if n := len(a.Inbox().Rows()); n != 500 {
			b.Fatalf("%d rows", n)
		}
	}
	b.ReportMetric(float64(first.Microseconds())/1000/float64(b.N), "ms/first-screen")
	b.ReportMetric(float64(all.Microseconds())/1000/float64(b.N), "ms/all-rows")
}

// TestInboxFirstScreenReadsNothing checks the first frame of a large inbox
// waits for no packet: none is read before Init's commands run.
func TestInboxFirstScreenReadsNothing(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		dir := t.TempDir()
		for i := range 40 {
			os.MkdirAll(filepath.Join(dir, fmt.Sprintf("p%02d", i)), 0o755)
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%02d", i), "plan.md"), []byte("# Plan — ACME-1: x\n"), 0o644)
		}
		a := NewInboxApp(dir, testAppOpts(t))
		a.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
		_ = a.View()
		for _, r := range a.Inbox().AllRows() {
			if r.Loaded {
				t.Fatalf("%s was read before the first frame", r.Name)
			}
		}
	})
}
