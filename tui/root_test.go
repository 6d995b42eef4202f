package tui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/compare"
	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/tui/screens/findings"
)

// newTestRoot builds the workbench on the sample at a fixed size, dark,
// without background detection.
func newTestRoot(t *testing.T, w, h int) *Workbench {
	t.Helper()
	p := packet.LoadSample(packet.Options{})
	r := NewWorkbench(common.NewContext(p, true, false), Options{ForceTheme: "dark"})
	drive(r, r.Init())
	r.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return r
}

// pressOn presses keys on the workbench and stops the test unless it then
// shows the screen want; step names the step in the failure.
func pressOn(t *testing.T, r *Workbench, want common.ScreenID, step string, keys ...string) {
	t.Helper()
	pressKeys(r, keys...)
	if got := r.Active(); got != want {
		t.Fatalf("%s: on %v, want %v", step, got, want)
	}
}

func TestRootTabsAndSize(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		for _, sz := range [][2]int{{80, 24}, {160, 48}, {200, 60}} {
			r := newTestRoot(t, sz[0], sz[1])
			for i := 0; i < int(common.ScreenSince); i++ { // 8 is shown only with --since
				key := string(rune('1' + i))
				pressOn(t, r, common.ScreenID(i), "key "+key, key)
				screentest.CheckSize(t, r.Render(), sz[0], sz[1])
			}
			pressOn(t, r, common.ScreenOverview, "tab from the last screen", "tab")
			pressOn(t, r, common.ScreenDecision, "shift+tab from the first screen", "shift+tab")
		}
	})
}

func TestRootClickTab(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r := newTestRoot(t, 120, 40)
		x := ansi.StringWidth(tabLabel(0)) + ansi.StringWidth(tabLabel(1)) + 1
		r.Update(tea.MouseClickMsg{X: x, Y: 0, Button: tea.MouseLeft})
		if r.Active() != common.ScreenDiff {
			t.Errorf("clicking the third tab: active %v", r.Active())
		}
	})
}

func TestRootHelpAndPalette(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r := newTestRoot(t, 120, 40)
		pressKeys(r, "?")
		if s := ansi.Strip(r.Render()); !strings.Contains(s, "Keys — Overview") || !strings.Contains(s, "next screen") {
			t.Errorf("help overlay:\n%s", s)
		}
		pressKeys(r, "esc") // help scrolls and searches now: esc closes it
		pressKeys(r, "ctrl+p")
		for _, c := range "backoff.go" {
			pressKeys(r, string(c))
		}
		if s := ansi.Strip(r.Render()); !strings.Contains(s, "internal/upload/backoff.go") {
			t.Fatalf("palette did not find the file:\n%s", s)
		}
		pressOn(t, r, common.ScreenDiff, "palette enter", "enter")
		pressOn(t, r, common.ScreenOverview, "backspace after the palette jump", "backspace")
	})
}

func TestRootOverviewFollowAndBack(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r := newTestRoot(t, 120, 40)
		// The first selectable row is the verdict: enter opens the validation document.
		pressKeys(r, "enter")
		if r.Active() != common.ScreenDocs || r.History() != 1 {
			t.Fatalf("enter on the verdict: active %v, history %d", r.Active(), r.History())
		}
		pressKeys(r, "ctrl+o")
		if r.Active() != common.ScreenOverview || r.History() != 0 {
			t.Errorf("ctrl+o: active %v, history %d", r.Active(), r.History())
		}
	})
}

func TestRootSearchCounts(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r := newTestRoot(t, 120, 40)
		pressKeys(r, "/")
		for _, c := range "validated" {
			pressKeys(r, string(c))
		}
		pressKeys(r, "enter")
		if s := ansi.Strip(r.Render()); !strings.Contains(s, "matches for \"validated\"") {
			t.Errorf("no match count on the status line:\n%s", s)
		}
	})
}

// One end-to-end run of the real program: start, switch through every
// screen, quit cleanly.
func TestRootEndToEnd(t *testing.T) {
	p := packet.LoadSample(packet.Options{})
	r := NewWorkbench(common.NewContext(p, true, false), Options{ForceTheme: "dark"})
	tm := teatest.NewTestModel(t, r, teatest.WithInitialTermSize(120, 40))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("ACME-4812")) },
		teatest.WithDuration(5*time.Second))
	for i := 1; i <= int(common.ScreenCount); i++ {
		tm.Send(screentest.KeyMsg(string(rune('0' + i))))
	}
	tm.Send(screentest.KeyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	final := tm.FinalModel(t).(*Workbench)
	if final.Active() != common.ScreenDecision {
		t.Errorf("after 1-7 the active screen is %v", final.Active())
	}
}

// The flow: a finding, enter, the diff with the cursor on the cited
// line, backspace back to the same finding.
func TestRootFindingToDiffAndBack(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r := newTestRoot(t, 160, 48)
		pressKeys(r, "4", "j") // the second finding
		f := r.Screen(common.ScreenFindings).(*findings.Findings).Selected()
		if f == nil || f.ID != "review.md#2" {
			t.Fatalf("selected %v, want review.md#2", f)
		}
		pressOn(t, r, common.ScreenDiff, "enter on a finding", "enter")
		here := r.Screen(common.ScreenDiff).Here()
		if dl := r.ctx.Packet.Diff.LineAt(here.File, here.Hunk, here.DiffLine); dl == nil || dl.New != 91 {
			t.Fatalf("diff cursor on %+v, want new line 91 (client.go:91)", dl)
		}
		if s := ansi.Strip(r.Render()); !strings.Contains(s, "client.go") {
			t.Errorf("the diff screen does not show client.go:\n%s", s)
		}
		pressOn(t, r, common.ScreenFindings, "backspace", "backspace")
		if f := r.Screen(common.ScreenFindings).(*findings.Findings).Selected(); f == nil || f.ID != "review.md#2" {
			t.Errorf("back on %v, want review.md#2", f)
		}
	})
}

// A citation with a line range opens the document with that range on screen.
func TestRootOpenDocumentRange(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		p := packet.LoadSample(packet.Options{})
		c := p.ResolveText("change-validation.md:58-61")
		tg, ok := common.TargetForCitation(c)
		if !ok {
			t.Fatalf("not followable: %+v", c)
		}
		r := NewWorkbench(common.NewContext(p, true, false), Options{ForceTheme: "dark", Start: &tg})
		drive(r, r.Init())
		r.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		if r.Active() != common.ScreenDocs {
			t.Fatalf("active %v", r.Active())
		}
		d := p.Doc("change-validation.md")
		s := ansi.Strip(r.Render())
		for _, want := range []string{d.Lines[57], d.Lines[60]} {
			if w := strings.TrimSpace(want); w != "" && !strings.Contains(s, common.ClipTo(w, 40)[:10]) {
				t.Errorf("line %q not on screen:\n%s", w, s)
			}
		}
	})
}

// An evidence row leads to its log, and a citation with a line range to the
// log with that range on screen.
func TestRootEvidenceToLogAndLogRange(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r := newTestRoot(t, 160, 48)
		pressOn(t, r, common.ScreenLogs, "enter on a recipe", "5", "enter")
		if st := r.Screen(common.ScreenLogs).Status(); !strings.Contains(st, "log ") {
			t.Errorf("logs status %q", st)
		}
		pressOn(t, r, common.ScreenEvidence, "back", "backspace")

		p := r.ctx.Packet
		c := p.ResolveText("…T10-22-07.114Z-bash-7c1e.log:14-16")
		tg, ok := common.TargetForCitation(c)
		if !ok || c.Kind != packet.CiteLog {
			t.Fatalf("citation %+v", c)
		}
		drive(r, common.Follow(tg))
		if r.Active() != common.ScreenLogs {
			t.Fatalf("follow: active %v", r.Active())
		}
		lines, _ := p.Log(c.Target).ReadLines(14, 3)
		s := ansi.Strip(r.Render())
		for _, l := range lines {
			if w := strings.TrimSpace(ansi.Strip(l)); len(w) > 8 && !strings.Contains(s, w[:8]) {
				t.Errorf("cited line %q not on screen", w)
			}
		}
	})
}

// The log's go-to-line prompt captures keys, so ":2" does not switch screens.
func TestRootLogGotoCaptures(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r := newTestRoot(t, 120, 40)
		pressOn(t, r, common.ScreenLogs, "typing :20", "6", ":", "2", "0", "enter")
		if st := r.Screen(common.ScreenLogs).Status(); !strings.Contains(st, "line 20/") {
			t.Errorf("after :20 the status is %q", st)
		}
	})
}

// With an earlier round, screen 8 lists what changed and leads to it.
func TestRootSinceScreen(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		p, err := packet.Load("../packet/testdata/rounds/round2", packet.Options{})
		if err != nil {
			t.Fatal(err)
		}
		c := compare.Compare(packet.LoadSample(packet.Options{}), p)
		ctx := common.NewContext(p, true, false)
		ctx.Since = &c
		r := NewWorkbench(ctx, Options{ForceTheme: "dark"})
		drive(r, r.Init())
		r.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		pressOn(t, r, common.ScreenSince, "8", "8")
		s := ansi.Strip(r.Render())
		for _, want := range []string{"Since the last round", "1bb1c70f4285 → 5e2f0c7a9d14", "altered  internal/upload/client.go", "resolved"} {
			if !strings.Contains(s, want) {
				t.Errorf("since screen lacks %q:\n%s", want, s)
			}
		}
		// The first row that leads somewhere is the new finding #6.
		pressKeys(r, "enter")
		if f := r.Screen(common.ScreenFindings).(*findings.Findings).Selected(); r.Active() != common.ScreenFindings || f == nil || f.Number != 6 {
			t.Fatalf("enter: active %v, finding %v", r.Active(), f)
		}
		// Back, down past the changed #2, the unchanged #3-#5 and the two runs
		// of the evidence to the altered client.go: the diff.
		pressOn(t, r, common.ScreenDiff, "enter on a file", "backspace", "j", "j", "j", "j", "j", "j", "j", "enter")
		if st := r.Screen(common.ScreenDiff).Status(); !strings.Contains(st, "internal/upload/client.go") {
			t.Errorf("diff status %q", st)
		}
		// Without an earlier round, 8 does nothing and the tab is hidden.
		r2 := newTestRoot(t, 120, 40)
		pressKeys(r2, "8")
		if r2.Active() == common.ScreenSince || strings.Contains(ansi.Strip(r2.Render()), "8 Since") {
			t.Error("screen 8 shown without an earlier round")
		}
	})
}
