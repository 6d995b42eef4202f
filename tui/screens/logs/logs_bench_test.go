package logs

import (
	"strings"
	"sync"
	"testing"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/bench"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

// logsBig generates a packet with a log of size bytes under a temporary
// folder and opens the logs screen on that log.
func logsBig(tb testing.TB, size int64, opts packet.Options) *Logs {
	tb.Helper()
	p := screentest.Generated(tb, bench.Spec{Files: 1, LinesPerFile: 4, Findings: 1, LogBytes: size}, opts)
	s := New(common.NewContext(p, true, false))
	s.SetSize(160, 48)
	return s
}

// logsBenchScreens are the sizes compared: the frame must cost the same.
func logsBenchScreens(b *testing.B) map[string]*Logs {
	small := New(screentest.Sample(b))
	small.SetSize(160, 48)
	small.Open(common.Target{Path: logsD24a})
	big := logsBig(b, 64<<20, packet.Options{})
	big.Open(common.Target{Path: bench.BigLogName})
	return map[string]*Logs{"sample-4KiB": small, "generated-64MiB": big}
}

func BenchmarkLogsView(b *testing.B) {
	for _, name := range []string{"sample-4KiB", "generated-64MiB"} {
		s := logsBenchScreens(b)[name]
		v := s.view()
		mid := v.src.Len() / 2
		s.Open(common.Target{Path: v.log.Path, Line: mid, EndLine: mid})
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = s.View()
			}
		})
	}
}

func BenchmarkLogsScroll(b *testing.B) {
	down := tea.KeyPressMsg{Code: 'j', Text: "j"}
	page := tea.KeyPressMsg{Code: tea.KeyPgDown}
	top := tea.KeyPressMsg{Code: 'g', Text: "g"}
	for _, name := range []string{"sample-4KiB", "generated-64MiB"} {
		s := logsBenchScreens(b)[name]
		for _, step := range []struct {
			name string
			key  tea.KeyPressMsg
		}{{"line", down}, {"page", page}} {
			b.Run(name+"/"+step.name, func(b *testing.B) {
				b.ReportAllocs()
				s.Update(top)
				for b.Loop() {
					v := s.view()
					if v.pane.AtBottom() && v.pane.Cursor() == v.src.Len()-1 {
						s.Update(top)
					}
					s.Update(step.key)
					_ = s.View()
				}
			})
		}
	}
}

// TestLogsBigLogWindowed checks, on a generated log of 16 MiB
// opened unindexed, that the screen reads only a window of lines, that
// jumping far and back works while the index runs beside it, and that the
// frame stays put.
func TestLogsBigLogWindowed(t *testing.T) {
	if testing.Short() {
		t.Skip("generates an 16 MiB log")
	}
	s := logsBig(t, 16<<20, packet.Options{DeferLogIndex: true})
	l := s.ctx.Packet.Log(bench.BigLogName)
	if l.Indexed() {
		t.Fatal("indexed already")
	}
	open := s.Open(common.Target{Path: bench.BigLogName, Line: 60_000, EndLine: 60_002})
	v := s.view()
	if v.pane.Cursor() != 59_999 {
		t.Fatalf("cursor on %d", v.pane.Cursor()+1)
	}
	// Index in the background as the program would, drawing meanwhile.
	var wg sync.WaitGroup
	var msgs []tea.Msg
	init := tea.Batch(s.Init(), open)
	wg.Go(func() { msgs = logsRunAll(init) })
	for range 50 {
		view := s.View()
		screentest.CheckSize(t, view, 160, 48)
		_ = s.Status()
	}
	wg.Wait()
	for _, m := range msgs {
		screentest.RunScreen(s, func() tea.Msg { return m })
	}
	if !l.Indexed() || s.busy() {
		t.Fatalf("indexed %v, busy %v", l.Indexed(), s.busy())
	}
	if len(v.src.raw) > logsWindow {
		t.Errorf("window holds %d lines", len(v.src.raw))
	}
	if !strings.Contains(s.View(), "test case 60000 ") {
		t.Errorf("line 60000 not on screen")
	}
	// e finds the generated ERROR line 100000 in a command (the log is over
	// the synchronous limit).
	screentest.RunScreen(s, s.Update(logsKey('e')))
	if c := v.pane.Cursor() + 1; c != 100_000 {
		t.Errorf("e went to %d, want 100000", c)
	}
	s.Update(logsKey('G'))
	if c, n := v.pane.Cursor()+1, l.LineCount(); c != n {
		t.Errorf("G on %d of %d", c, n)
	}
	if !strings.Contains(s.View(), "[exit 0 after 12.3 s]") {
		t.Errorf("the exit line is not at the bottom")
	}
}

// logsRunAll runs a command and the batches it returns, collecting the
// messages, without touching the screen (as the program's goroutines do).
func logsRunAll(c tea.Cmd) []tea.Msg {
	if c == nil {
		return nil
	}
	msg := c()
	batch, ok := msg.(tea.BatchMsg)
	if !ok {
		return []tea.Msg{msg}
	}
	var out []tea.Msg
	for _, b := range batch {
		out = append(out, logsRunAll(b)...)
	}
	return out
}

// A line far past what the index has counted is not read up to on the UI
// goroutine: the open waits, says so, keeps its place through Here (a
// reload re-opens there), and lands once indexing gets there.
func TestLogsFarOpenWaitsForIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 32 MiB log")
	}
	s := logsBig(t, 32<<20, packet.Options{DeferLogIndex: true})
	l := s.ctx.Packet.Log(bench.BigLogName)
	target := common.Target{Screen: common.ScreenLogs, Path: bench.BigLogName, Line: 250_000, File: -1, Hunk: -1, DiffLine: -1}
	if !farPastIndex(l, target.Line) {
		t.Fatalf("line %d of an unindexed 32 MiB log (%d bytes a line) should count as far", target.Line, l.LineBytes())
	}
	open := s.Open(target)
	if c := s.view().pane.Cursor() + 1; c != 1 {
		t.Fatalf("the far open read up to line %d at once", c)
	}
	if here := s.Here(); here.Line != target.Line || here.Path != target.Path {
		t.Errorf("Here while waiting: %+v", here)
	}
	if st := s.Status(); !strings.Contains(st, "line 250000 when indexing reaches it") {
		t.Errorf("status while waiting: %q", st)
	}
	msgs := screentest.RunScreen(s, tea.Batch(s.Init(), open))
	if !l.Indexed() {
		t.Fatal("the log was not indexed")
	}
	if c := s.view().pane.Cursor() + 1; c != target.Line {
		t.Fatalf("after indexing the cursor is on %d, want %d", c, target.Line)
	}
	said := false
	for _, m := range msgs {
		if st, ok := m.(common.StatusMsg); ok && strings.Contains(st.Text, "opens when indexing reaches it") {
			said = true
		}
	}
	if !said {
		t.Error("the wait was not said on the status line")
	}
	// Near the top, an open is immediate even unindexed.
	s2 := logsBig(t, 32<<20, packet.Options{DeferLogIndex: true})
	s2.Open(common.Target{Screen: common.ScreenLogs, Path: bench.BigLogName, Line: 5_000, File: -1, Hunk: -1, DiffLine: -1})
	if c := s2.view().pane.Cursor() + 1; c != 5_000 {
		t.Errorf("a near open landed on %d", c)
	}
}

// G on a log still being indexed, or a far open, marks its index as waited
// for: the job then keeps its background slot between blocks.
func TestLogsHurryIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 32 MiB log")
	}
	s := logsBig(t, 32<<20, packet.Options{DeferLogIndex: true})
	l := s.ctx.Packet.Log(bench.BigLogName)
	s.Open(common.Target{Screen: common.ScreenLogs, Path: bench.BigLogName, Line: 1, File: -1, Hunk: -1, DiffLine: -1})
	s.nextIndex()
	if s.index == nil || s.index.log != l {
		t.Fatal("no index job on the log")
	}
	if s.ctx.Hurried(l) || s.index.hurry() {
		t.Fatal("awaited before anyone waits")
	}
	s.Update(screentest.KeyMsg("G"))
	if !s.ctx.Hurried(l) || !s.index.hurry() {
		t.Error("G on an unindexed log did not hurry its index")
	}
	s2 := logsBig(t, 32<<20, packet.Options{DeferLogIndex: true})
	l2 := s2.ctx.Packet.Log(bench.BigLogName)
	s2.Open(common.Target{Screen: common.ScreenLogs, Path: bench.BigLogName, Line: 250_000, File: -1, Hunk: -1, DiffLine: -1})
	if !s2.ctx.Hurried(l2) {
		t.Error("a far open did not hurry the index")
	}
}
