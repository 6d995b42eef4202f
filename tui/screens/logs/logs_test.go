package logs

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/packet/source"
	"github.com/vetter-dev/vetter/tui/common"
)

const logsD24a = "validation/logs/2026-10-14T10-27-13.951Z-bash-d24a.log"

func logsKey(r rune) tea.KeyPressMsg {
	if r >= 'A' && r <= 'Z' {
		return tea.KeyPressMsg{Code: r, Text: string(r), Mod: tea.ModShift}
	}
	return tea.KeyPressMsg{Code: r, Text: string(r)}
}

func newLogsSample(t testing.TB, w, h int) *Logs {
	t.Helper()
	s, _ := screentest.SampleScreen(w, h, New)
	return s
}

func TestLogsGolden(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			s := newLogsSample(t, size.w, size.h)
			screentest.RunScreen(s, s.Open(common.Target{Screen: common.ScreenLogs, Path: logsD24a, Line: 36, EndLine: 36}))
			if got, want := s.Status(), "log 5/5 · line 36/45 · exit 1"; got != want {
				t.Errorf("status %q, want %q", got, want)
			}
			v := s.View()
			screentest.CheckSize(t, v, size.w, size.h)
			screentest.Golden(t, fmt.Sprintf("TestLogsGolden_%dx%d", size.w, size.h), v)
			// The log's colours arrive translated: the text is there, and
			// nothing but SGR sequences reaches the terminal.
			if !strings.Contains(ansi.Strip(v), "acme-upload: upload: giving up on smoke") {
				t.Errorf("line 36's text is not shown")
			}
			screentest.OnlySGR(t, v)
		})
	}
}

func TestLogsOpenRangeHighlighted(t *testing.T) {
	s := newLogsSample(t, 80, 24)
	screentest.RunScreen(s, s.Open(common.Target{Screen: common.ScreenLogs, Path: logsD24a, Line: 32, EndLine: 38}))
	v := s.view()
	if v.log.Path != logsD24a || v.pane.Cursor() != 31 {
		t.Fatalf("on %s line %d", v.log.Path, v.pane.Cursor()+1)
	}
	top, h := v.pane.Offset(), v.pane.Height()
	if top > 31 || 37 >= top+h {
		t.Fatalf("range 32-38 not on screen: top %d height %d", top, h)
	}
	// The gutter shows the cursor on 32 and the highlight bar on 33-38.
	rows := strings.Split(ansi.Strip(s.View()), "\n")
	marked := map[int]string{}
	for _, r := range rows[1:] {
		cells := []rune(r)
		if len(cells) < 30 {
			continue
		}
		pane := strings.TrimLeft(string(cells[25:]), " ")
		var n int
		var mark string
		if _, err := fmt.Sscanf(strings.TrimLeft(pane[len(string([]rune(pane)[0])):], " "), "%d", &n); err == nil {
			mark = string([]rune(pane)[0])
			marked[n] = mark
		}
	}
	if marked[32] != "▸" {
		t.Errorf("line 32 marked %q, want the cursor", marked[32])
	}
	for n := 33; n <= 38; n++ {
		if marked[n] != "┃" {
			t.Errorf("line %d marked %q, want the highlight", n, marked[n])
		}
	}
	// A suffix names the log too.
	s2 := newLogsSample(t, 80, 24)
	s2.Open(common.Target{Path: "2026-10-14T10-27-13.951Z-bash-d24a.log", Line: 40, EndLine: 40})
	if s2.view().log.Path != logsD24a || s2.view().pane.Cursor() != 39 {
		t.Errorf("suffix open landed on %s:%d", s2.view().log.Path, s2.view().pane.Cursor()+1)
	}
}

func TestLogsErrorLines(t *testing.T) {
	s := newLogsSample(t, 160, 48)
	s.Open(common.Target{Path: logsD24a, Line: 1, EndLine: 1})
	var got []int
	for range 12 {
		screentest.RunScreen(s, s.Update(logsKey('e')))
		got = append(got, s.view().pane.Cursor()+1)
	}
	// Error outcomes only, since a word alone marks passing lines too: 7-9 and 15 merely name tests with
	// "error" and "failure" in them, and 33-35 are retries that failed.
	// Line 10's test id says "exited with status 3", which reads as an
	// exit; then the failure report: FAILURES, the AssertionError, the
	// wrapper's exit, where it was raised, FAILED, "1 failed", the exit line.
	want := []int{10, 20, 32, 37, 41, 43, 44, 45, 45, 45, 45, 45}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("e visited %v, want %v", got, want)
	}
	for range 3 {
		screentest.RunScreen(s, s.Update(logsKey('e')))
	}
	if c := s.view().pane.Cursor() + 1; c != 45 {
		t.Errorf("e ended on line %d, want the exit line 45", c)
	}
	screentest.RunScreen(s, s.Update(logsKey('e')))
	if !strings.Contains(s.Status(), "no error line below") {
		t.Errorf("status after the last error: %q", s.Status())
	}
	screentest.RunScreen(s, s.Update(logsKey('E')))
	if c := s.view().pane.Cursor() + 1; c != 44 {
		t.Errorf("E went to %d, want 44", c)
	}
	// The same in a command, as on a large log.
	defer func(old int64) { logsSyncLimit = old }(logsSyncLimit)
	logsSyncLimit = 0
	screentest.RunScreen(s, s.Update(logsKey('E')))
	if c := s.view().pane.Cursor() + 1; c != 43 {
		t.Errorf("async E went to %d, want 43", c)
	}
	if s.busy() || s.ticking {
		t.Errorf("still ticking after the scan ended")
	}
}

func TestLogsGotoLine(t *testing.T) {
	s := newLogsSample(t, 80, 24)
	s.Open(common.Target{Path: logsD24a})
	s.Update(logsKey(':'))
	if !s.Capturing() {
		t.Fatal(": did not open the prompt")
	}
	s.Update(logsKey('2'))
	s.Update(logsKey('q')) // ignored: the prompt takes digits only, and keeps keys from the root
	s.Update(logsKey('0'))
	if !strings.Contains(ansi.Strip(s.View()), ":20") {
		t.Errorf("prompt not drawn")
	}
	screentest.CheckSize(t, s.View(), 80, 24)
	s.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if s.Capturing() || s.view().pane.Cursor() != 19 {
		t.Fatalf("after :20 enter: capturing %v, line %d", s.Capturing(), s.view().pane.Cursor()+1)
	}
	s.Update(logsKey(':'))
	s.Update(logsKey('9'))
	s.Update(logsKey('9'))
	s.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if s.view().pane.Cursor() != 44 {
		t.Errorf(":99 went to line %d, want the last (45)", s.view().pane.Cursor()+1)
	}
	s.Update(logsKey(':'))
	s.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	if s.Capturing() {
		t.Errorf("esc did not close the prompt")
	}
	s.Update(logsKey('g'))
	if s.view().pane.Cursor() != 0 {
		t.Errorf("g left the cursor on %d", s.view().pane.Cursor()+1)
	}
	s.Update(logsKey('G'))
	if s.view().pane.Cursor() != 44 {
		t.Errorf("G left the cursor on %d", s.view().pane.Cursor()+1)
	}
}

func TestLogsSearch(t *testing.T) {
	s := newLogsSample(t, 80, 24)
	s.Open(common.Target{Path: logsD24a, Line: 1, EndLine: 1})
	// "no such host" is on lines 32-36 of the d24a log.
	if n := s.Search("no such host"); n != 5 {
		t.Fatalf("Search counted %d, want 5", n)
	}
	cur := func() int { return s.view().pane.Cursor() + 1 }
	if cur() != 32 || !strings.Contains(s.Status(), "match 1/5") {
		t.Fatalf("first match on %d, status %q", cur(), s.Status())
	}
	s.NextMatch(1)
	s.NextMatch(1)
	if cur() != 34 || !strings.Contains(s.Status(), "match 3/5") {
		t.Errorf("n n went to %d (%q)", cur(), s.Status())
	}
	s.NextMatch(-1)
	if cur() != 33 {
		t.Errorf("N went to %d", cur())
	}
	s.NextMatch(-1)
	s.NextMatch(-1) // wraps to the last
	if cur() != 36 {
		t.Errorf("N wrapped to %d, want 36", cur())
	}
	if n := s.Search("nowhere in this log"); n != 0 || !strings.Contains(s.Status(), "no match") {
		t.Errorf("absent query: %d, %q", n, s.Status())
	}
}

func TestLogsSearchLargeInCommand(t *testing.T) {
	defer func(old int64) { logsSyncLimit = old }(logsSyncLimit)
	logsSyncLimit = 0
	s := newLogsSample(t, 80, 24)
	s.Open(common.Target{Path: logsD24a, Line: 1, EndLine: 1})
	if n := s.Search("no such host"); n != -1 {
		t.Fatalf("Search on a large log returned %d, want -1 (searching)", n)
	}
	cmd := s.PendingCmd()
	if cmd == nil || s.PendingCmd() != nil {
		t.Fatal("PendingCmd should hand the search over once")
	}
	screentest.RunScreen(s, cmd)
	if c := s.view().pane.Cursor() + 1; c != 32 {
		t.Fatalf("search landed on %d", c)
	}
	s.NextMatch(1)
	screentest.RunScreen(s, s.PendingCmd())
	if c := s.view().pane.Cursor() + 1; c != 33 {
		t.Errorf("n landed on %d", c)
	}
	// esc stops a running search; its late result is dropped.
	s.NextMatch(1)
	cmd = s.PendingCmd()
	s.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	screentest.RunScreen(s, cmd)
	if c := s.view().pane.Cursor() + 1; c != 33 {
		t.Errorf("a cancelled search still moved to %d", c)
	}
}

func TestLogsDeferredIndex(t *testing.T) {
	ctx := common.NewContext(packet.LoadSample(packet.Options{DeferLogIndex: true}), true, false)
	s := New(ctx)
	s.SetSize(80, 24)
	if ctx.Packet.Log(logsD24a).Indexed() {
		t.Fatal("the log is already indexed")
	}
	init := s.Init()
	if init == nil {
		t.Fatal("Init did not start indexing")
	}
	// Before the index runs, a cited line is still reachable; opening the
	// log moves indexing to it.
	open := s.Open(common.Target{Path: logsD24a, Line: 36, EndLine: 36})
	if c := s.view().pane.Cursor() + 1; c != 36 {
		t.Fatalf("unindexed open landed on %d", c)
	}
	if !strings.Contains(s.Status(), "indexing") {
		t.Errorf("status %q does not say indexing", s.Status())
	}
	screentest.CheckSize(t, s.View(), 80, 24)
	msgs := screentest.RunScreen(s, tea.Batch(init, open))
	for _, l := range ctx.Packet.Logs {
		if !l.Indexed() {
			t.Errorf("%s not indexed", l.Path)
		}
	}
	if s.busy() {
		t.Errorf("still busy")
	}
	if got := s.Status(); got != "log 5/5 · line 36/45 · exit 1" {
		t.Errorf("status after indexing %q", got)
	}
	if !strings.Contains(ansi.Strip(s.View()), "[exit 1 after 12.9 s]") {
		t.Errorf("exit line not drawn:\n%s", ansi.Strip(s.View()))
	}
	if len(msgs) == 0 {
		t.Errorf("no word that the logs are indexed")
	}
}

func TestLogsHereRoundTrip(t *testing.T) {
	s := newLogsSample(t, 80, 24)
	s.Open(common.Target{Path: logsD24a, Line: 30, EndLine: 34})
	s.Update(logsKey('j'))
	s.Update(tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl})
	here := s.Here()
	s.Open(common.Target{Path: "validation/logs/2026-10-14T10-16-31.402Z-bash-a91f.log", Line: 3, EndLine: 3})
	if s.Here().Path == here.Path {
		t.Fatal("did not move to another log")
	}
	s.Open(here)
	if got := s.Here(); got != here {
		t.Errorf("round trip %+v → %+v", here, got)
	}
	s2 := newLogsSample(t, 80, 24)
	s2.Open(here)
	if got := s2.Here(); got != here {
		t.Errorf("round trip on a fresh screen %+v → %+v", here, got)
	}
}

func TestLogsSwitchAndSizes(t *testing.T) {
	s := newLogsSample(t, 80, 24)
	for i := range len(s.ctx.Packet.Logs) + 1 {
		s.Update(logsKey('}'))
		_ = i
	}
	if s.list.Cursor != len(s.ctx.Packet.Logs)-1 {
		t.Errorf("} stopped at %d", s.list.Cursor)
	}
	s.Update(logsKey('{'))
	if s.list.Cursor != len(s.ctx.Packet.Logs)-2 {
		t.Errorf("{ went to %d", s.list.Cursor)
	}
	s.Update(logsKey('w'))
	s.Update(logsKey('l'))
	for _, sz := range [][2]int{{1, 1}, {20, 4}, {59, 10}, {60, 10}, {80, 24}, {99, 30}, {100, 30}, {200, 60}} {
		s.SetSize(sz[0], sz[1])
		v := s.View()
		screentest.CheckSize(t, v, sz[0], sz[1])
		screentest.OnlySGR(t, v)
	}
	s.SetSize(80, 24)
	s.Update(tea.MouseClickMsg{X: 3, Y: 2, Button: tea.MouseLeft})
	if s.list.Cursor != 0 {
		t.Errorf("click on the first entry selected %d", s.list.Cursor)
	}
	s.Update(tea.MouseWheelMsg{X: 40, Y: 5, Button: tea.MouseWheelDown})
	if s.view().pane.Offset() == 0 && s.view().pane.Len() > s.view().pane.Height() {
		t.Errorf("wheel did not scroll")
	}
}

func TestLogsShortName(t *testing.T) {
	for _, tt := range []struct {
		in   string
		w    int
		want string
	}{
		{logsD24a, 60, "2026-10-14T10-27-13.951Z-bash-d24a.log"},
		{logsD24a, 22, "10:27:13 bash-d24a"},
		{logsD24a, 10, "…bash-d24a"},
		{"validation/logs/a-very-long-handwritten-name.log", 12, "…en-name.log"},
		{"validation/logs/x\x1b[2J.log", 40, "x␛[2J.log"},
	} {
		if got := logsShortName(tt.in, tt.w); got != tt.want {
			t.Errorf("logsShortName(%q, %d) = %q, want %q", tt.in, tt.w, got, tt.want)
		}
	}
	for _, tt := range []struct {
		n    int64
		want string
	}{{0, "0 B"}, {1023, "1023 B"}, {4313, "4.2 KiB"}, {64 << 20, "64.0 MiB"}, {1 << 30, "1.0 GiB"}} {
		if got := logsSize(tt.n); got != tt.want {
			t.Errorf("logsSize(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestLogsIsError(t *testing.T) {
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"ok  \tacme/internal/upload\t1.2s", false},
		{"\x1b[31mFAILED\x1b[0m tools/x.py", true},
		{"panic: runtime error", true},
		{"Traceback (most recent call last):", true},
		{"[exit 0 after 1 s]", false},
		{"[exit 2 after 1 s]", true},
		{"process exited with status 3", true},
		{"it returned a non-zero exit", true},
		{"exit 0", false},
		{"java.lang.IllegalStateException", true},
		// Outcomes, not words: a passing line may name an error type.
		{"agg : PARSED (no ValueError)", false},
		{"    client.go:101: upload app.tar.gz: attempt 1/5 failed: upload: store", false},
		{"Error: cannot find module", true},
		{"error: linker failed", true},
		{"ValueError: bad value", true},
		{"FAIL\tgithub.com/acme/depot/internal/upload\t0.2s", true},
		{"--- FAIL: TestX (0.00s)", true},
		{"=========== 1 failed, 14 passed in 3.2s ===========", true},
		{"0 errors", false},
		{"no errors found", false},
	} {
		if got := logsIsError(tt.line); got != tt.want {
			t.Errorf("logsIsError(%q) = %v", tt.line, got)
		}
	}
}

// TestLogsHostile opens a packet whose log and registry carry escape
// sequences, control characters and hidden characters: only SGR reaches the
// terminal, and the text stays readable.
func TestLogsHostile(t *testing.T) {
	const name = "validation/logs/2026-01-01T00-00-00.000Z-bash-evil.log"
	logText := "plain\n\x1b[2Jcleared\x1b]0;title\x07\n\x1b]8;;http://x.invalid\x1b\\link\x1b]8;;\x1b\\\n" +
		"bell\a back\bspace \u202eevil\u202c\n\x1b[31mred\x1b[0m \x1b[38;2;1;2;3mrgb\x1b[0m\n" +
		"progress 10%\rprogress 100%\n\xff\xfe invalid\n" + strings.Repeat("wide 漢字 ", 50) + "\n[exit 3 after 1 s]\n"
	reg := `{"seq":1,"recipe":"01-\u001b[2Jevil","status":"failing","command":"echo \u001b]0;pwn\u0007 hi\nnext","log":"` + name + `","exit_code":3,"note":"tab\there \u202e"}` + "\n"
	fsys := fstest.MapFS{
		name:                        {Data: []byte(logText)},
		"validation/registry.jsonl": {Data: []byte(reg)},
		"plan.md":                   {Data: []byte("# Plan — EVIL-1: hostile\n\n```validation-recipes\n01-\x1b[2Jevil\n```\n")},
	}
	p := packet.Analyze(source.FromFS(fsys, "dir", "evil"), packet.Options{})
	ctx := common.NewContext(p, true, false)
	s := New(ctx)
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		s.SetSize(sz[0], sz[1])
		s.Open(common.Target{Path: name, Line: 2, EndLine: 3})
		for _, wrap := range []bool{false, true} {
			if wrap != s.wrap {
				s.Update(logsKey('w'))
			}
			v := s.View()
			screentest.CheckSize(t, v, sz[0], sz[1])
			screentest.OnlySGR(t, v)
			if !strings.Contains(ansi.Strip(v), "␛[2Jcleared") && !strings.Contains(ansi.Strip(v), "cleared") {
				t.Errorf("text lost:\n%s", ansi.Strip(v))
			}
		}
	}
	// The exit line is found, and e stops on the error words.
	s.Update(logsKey('G'))
	if c := s.view().pane.Cursor() + 1; c != 9 {
		t.Errorf("G on %d", c)
	}
}

// FuzzLogsShortName: any text, as a log's name or one of its lines, is
// shortened and classified without panicking.
func FuzzLogsShortName(f *testing.F) {
	f.Add("bash -lc 'set -euo pipefail; cd /home/x; go test ./...'", 20)
	f.Add("漢字 emoji 👍🏽 tab\tnew\nline", 3)
	f.Add("\x1b[2J\u202e/a/b/c/d", 1)
	f.Fuzz(func(t *testing.T, text string, w int) {
		w = max(min(w, 200), 1)
		_ = logsShortName(text, w)
		_ = logsIsError(text)
	})
}
