package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/tui/internal/screentest"
	"github.com/vetter-dev/vetter/tui/screens/walk"
)

// newDriftRoot opens the workbench on the walk, at 80×24, on a copy of
// testdata/drift: the sample with three findings written to test anchoring
// (a line number two lines off its quote, a log named by a shortened name
// and a marker with no line, a registry line).
func newDriftRoot(t *testing.T) *Workbench {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "drift")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "drift"))); err != nil {
		t.Fatal(err)
	}
	p := loadCopy(t, dir)
	ctx := storeContext(t, p, time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	start := walk.Target()
	r := NewWorkbench(ctx, Options{ForceTheme: "dark", Start: &start})
	r.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	drive(r, r.Init())
	return r
}

// screenHas fails unless every want is on the screen.
func screenHas(t *testing.T, step, screen string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(screen, want) {
			t.Errorf("%s: the screen lacks %q:\n%s", step, want, screen)
		}
	}
}

// Each finding of the drift packet is one 80×24 screen with the quoted
// lines marked: the drifted line shows where the quote really is (▌ 61)
// and the line cited (› 63) under a line saying so; the log named without
// a line opens at its marker; the registry line shows the run's status,
// exit code, whole command and log.
func TestWalkAnchorsTheDriftPacket(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r := newDriftRoot(t)
		w := &walker{t: t, r: r}
		w.press("space")
		screen := ansi.Strip(r.Render())
		screentest.CheckSize(t, r.Render(), 80, 24)
		screenHas(t, "#1", screen, "quoted text is on line 61; the finding cites 63", "▌   61 + Between attempts it waits 1 s", "›   63 ")
		screentest.Golden(t, "TestWalkDrift80x24-1", r.Render())

		w.press("a")
		screen = ansi.Strip(r.Render())
		screenHas(t, "#2", screen, "--acme-upload-staging-endpoint-override,", "CLAIM D, line 19", "▌   19 == CLAIM D: staging DNS ==", "  20 depot-staging.acme.internal: no such host")
		screentest.Golden(t, "TestWalkDrift80x24-2", r.Render())

		w.press("a")
		screen = ansi.Strip(r.Render())
		screenHas(t, "#3", screen, "seq 5 · 03-python-unit-tests · dispositioned · exit 1", "2026-10-14T10-27-13.951Z-bash-d24a.log", "o opens it")
		// The whole command is on screen, wrapped, never cut.
		p := r.ctx.Packet
		var cmd string
		for _, run := range p.Registry.Runs {
			if run.Line == 5 {
				cmd = run.Command
			}
		}
		flat := strings.Join(strings.Fields(screen), " ")
		for _, word := range strings.Fields(cmd) {
			if !strings.Contains(flat, word) && !strings.Contains(strings.ReplaceAll(flat, " ", ""), word) {
				t.Errorf("#3: the command's %q is not on screen:\n%s", word, screen)
			}
		}
		if strings.Contains(screen, "…") && strings.Contains(screen, "$ bash") {
			for _, l := range strings.Split(screen, "\n") {
				if strings.Contains(l, "$ bash") && strings.HasSuffix(strings.TrimSpace(l), "…") {
					t.Errorf("#3: the command is cut: %q", l)
				}
			}
		}
		screentest.Golden(t, "TestWalkDrift80x24-3", r.Render())
	})
}

// The sample's findings, each as the walk shows it at 80×24.
func TestWalkSampleFindingsGolden(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r, _ := newWalkRoot(t, false)
		w := &walker{t: t, r: r}
		w.press("space")
		for i, k := range []string{"a", "a", "f", "f", "f"} {
			screentest.Golden(t, "TestWalkSample80x24-"+string(rune('1'+i)), r.Render())
			w.onFinding(packet.ReviewFile + "#" + string(rune('1'+i)))
			w.press(k)
		}
		if r.Active() != common.ScreenDecision {
			t.Fatalf("after the last finding the walk is on %v, not the decision", r.Active())
		}
	})
}

// A finding whose claim and excerpts do not fit at 80×24 scrolls within its
// step: the sample's #1 (a long claim, a diff hunk and a log line). The head
// (the finding, its place) and the key row stay put; the row above the keys
// says which lines are shown and which keys scroll; pgdown brings the cited
// log line on screen, k and g go back, and the next step starts at its top.
func TestWalkScrollsWithinTheStep(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r, _ := newWalkRoot(t, false)
		pressKeys(r, "space")
		wk := r.Screen(common.ScreenWalk).(*walk.Walk)
		lc := wk.LogCitation()
		logMark := fmt.Sprintf("▌ %4d ", lc.Line)
		rows := func() []string { return strings.Split(ansi.Strip(r.Render()), "\n") }
		before := rows()
		screentest.Golden(t, "TestWalkScroll80x24-before", r.Render())
		if at, last := wk.Scrolled(); at != 0 || last == 0 {
			t.Fatalf("#1 at 80×24: scrolled %d of %d; want a step that scrolls, at its top", at, last)
		}
		screenHas(t, "before", strings.Join(before, "\n"), "A `Retry-After` longer than `Policy.Max`", "lines 1–18 of", "↓/j more", "pgdn/pgup page")
		if strings.Contains(strings.Join(before, "\n"), logMark) {
			t.Fatalf("the cited log line is on the first screen; the test needs a step that does not fit:\n%s", strings.Join(before, "\n"))
		}

		pressKeys(r, "pgdown")
		after := rows()
		screentest.Golden(t, "TestWalkScroll80x24-after", r.Render())
		screenHas(t, "after pgdown", strings.Join(after, "\n"), logMark, "↑/k back")
		// The tab row, the step's head, its key row and the status line
		// are where they were.
		for _, i := range []int{0, 1, 2, len(before) - 2, len(before) - 1} {
			if before[i] != after[i] && i != len(before)-1 {
				t.Errorf("row %d moved when the step scrolled:\n%q\n%q", i, before[i], after[i])
			}
		}

		pressKeys(r, "k")
		if at, _ := wk.Scrolled(); at == 0 {
			t.Errorf("k went to the top from a page down")
		}
		pressKeys(r, "G")
		if at, last := wk.Scrolled(); at != last {
			t.Errorf("G: scrolled %d of %d", at, last)
		}
		pressKeys(r, "j", "j")
		if at, last := wk.Scrolled(); at != last {
			t.Errorf("j past the end: scrolled %d of %d", at, last)
		}
		pressKeys(r, "g")
		if at, _ := wk.Scrolled(); at != 0 {
			t.Errorf("g: scrolled %d", at)
		}
		pressKeys(r, "G", "a") // the next finding starts at its top
		if at, _ := wk.Scrolled(); wk.Current() != "review.md#2" || at != 0 {
			t.Errorf("after a: on %q scrolled %d; want #2 at its top", wk.Current(), at)
		}
	})
}
