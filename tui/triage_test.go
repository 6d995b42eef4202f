package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

// newTriageRoot loads a writable copy of the sample with a store in it.
func newTriageRoot(t *testing.T) (*Workbench, string) {
	t.Helper()
	dir := sampleCopy(t, "p")
	ctx := storeContext(t, loadCopy(t, dir), time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	r := NewWorkbench(ctx, Options{ForceTheme: "dark"})
	drive(r, r.Init())
	r.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
	return r, dir
}

// typeText types into the open prompt; what typing returns (a blinking
// cursor) is not run.
func typeText(r *Workbench, s string) {
	for _, c := range s {
		k := string(c)
		if c == ' ' {
			k = "space"
		}
		r.Update(screentest.KeyMsg(k))
	}
}

// reload loads the packet again with the reviewer's state saved so far.
func reload(t *testing.T, dir string) *packet.Packet {
	t.Helper()
	p, err := packet.Load(dir, packet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := review.ReadReviewerState(p, ""); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTriageKeysSaveAtOnce(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r, dir := newTriageRoot(t)
		pressKeys(r, "4", "a") // accept #1
		if !strings.Contains(ansi.Strip(r.Render()), "review.md#1 → accepted") {
			t.Errorf("status does not confirm the save:\n%s", ansi.Strip(r.Render()))
		}
		pressKeys(r, "j", "x") // dismiss #2: asks why
		if r.prompt == nil {
			t.Fatal("dismiss did not ask for a reason")
		}
		pressKeys(r, "enter") // an empty reason is refused
		if r.prompt == nil || r.prompt.err == "" {
			t.Fatal("an empty dismissal reason was accepted")
		}
		typeText(r, "counts retries as documented")
		pressKeys(r, "enter")
		if r.prompt != nil {
			t.Fatal("the prompt stayed open after enter")
		}
		pressKeys(r, "j", "f") // defer #3
		pressKeys(r, "j", "c") // a note on #4
		typeText(r, "wording only")
		pressKeys(r, "enter")

		p := reload(t, dir)
		want := map[string]string{"review.md#1": "accepted", "review.md#2": "dismissed", "review.md#3": "deferred", "review.md#4": "open"}
		for id, state := range want {
			got, stale, d := review.TriageOf(p, p.Finding(id))
			if got != state || stale {
				t.Errorf("%s = %s (stale %v), want %s", id, got, stale, state)
			}
			if id == "review.md#2" && (d == nil || d.Note != "counts retries as documented" || d.User != "tester") {
				t.Errorf("#2 decision = %+v", d)
			}
			if id == "review.md#4" && (d == nil || d.Note != "wording only") {
				t.Errorf("#4 note = %+v", d)
			}
		}
		// The overview shows the progress.
		pressKeys(r, "1")
		if s := ansi.Strip(r.Render()); !strings.Contains(s, "3 of 5 triaged") {
			t.Errorf("overview progress:\n%s", s)
		}
	})
}

func TestTriageMarkedBulk(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r, dir := newTriageRoot(t)
		pressKeys(r, "4", "j", "j", "j", "space", "space") // mark #4 and #5
		pressKeys(r, "f")
		p := reload(t, dir)
		for _, id := range []string{"review.md#4", "review.md#5"} {
			if s, _, _ := review.TriageOf(p, p.Finding(id)); s != packet.TriageDeferred {
				t.Errorf("%s = %s, want deferred", id, s)
			}
		}
		if s, _, _ := review.TriageOf(p, p.Finding("review.md#1")); s != packet.TriageOpen {
			t.Errorf("an unmarked finding changed: %s", s)
		}
	})
}

func TestTriageFromDiff(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r, dir := newTriageRoot(t)
		pressKeys(r, "4", "enter") // to the diff line #1 cites
		if r.Active() != common.ScreenDiff {
			t.Fatalf("active %v", r.Active())
		}
		pressKeys(r, "a")
		p := reload(t, dir)
		if s, _, _ := review.TriageOf(p, p.Finding("review.md#1")); s != packet.TriageAccepted {
			t.Errorf("#1 from the diff = %s", s)
		}
	})
}

func TestDecisionOkToTestRefusedThenOverridden(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r, dir := newTriageRoot(t)
		pressKeys(r, "7", "O")
		if r.prompt == nil || !strings.Contains(r.prompt.title, "not ready") {
			t.Fatalf("ok-to-test on a gate not ready did not ask for an override: %+v", r.prompt)
		}
		pressKeys(r, "esc")
		if len(r.ExitLines()) != 0 {
			t.Fatal("cancelled ok-to-test left an exit line")
		}
		pressKeys(r, "O")
		typeText(r, "the major is fixed upstream")
		_, cmd := r.Update(screentest.KeyMsg("enter"))
		drive(r, cmd)
		lines := r.ExitLines()
		if len(lines) == 0 || lines[0] != "/ok to test 1bb1c70f4285cf39d8ebaf61573f0095423d52b1" {
			t.Fatalf("exit lines %q", lines)
		}
		if len(lines) < 2 || !strings.HasPrefix(lines[1], "gh pr comment https://github.com/acme/depot/pull/2318") {
			t.Errorf("no gh line: %q", lines)
		}
		p := reload(t, dir)
		_ = p
		if g := r.ctx.Packet.Triage.Gate; g == nil || g.Decision != review.DecisionOkToTest || g.Override == "" {
			t.Errorf("gate decision %+v", g)
		}
		if s := ansi.Strip(r.Render()); !strings.Contains(s, "ok-to-test for 1bb1c70 by tester stands") || !strings.Contains(s, "recorded by tester at") {
			t.Errorf("decision screen does not show the decision:\n%s", s)
		}
	})
}

func TestDecisionHoldWithNote(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r, _ := newTriageRoot(t)
		pressKeys(r, "7", "H")
		typeText(r, "waiting for the clamp")
		pressKeys(r, "enter")
		g := r.ctx.Packet.Triage.Gate
		if g == nil || g.Decision != review.DecisionHold || g.Note != "waiting for the clamp" || g.SHA != r.ctx.Packet.Change.HeadSHA {
			t.Errorf("hold = %+v", g)
		}
		if len(r.ExitLines()) != 0 {
			t.Error("hold printed an ok-to-test line")
		}
	})
}

func TestDecisionGoldenAndAttention(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		for _, sz := range [][2]int{{80, 24}, {160, 48}} {
			r := newTestRoot(t, sz[0], sz[1])
			pressKeys(r, "7")
			v := r.Render()
			screentest.CheckSize(t, v, sz[0], sz[1])
			screentest.Golden(t, "TestDecision"+map[int]string{80: "80x24", 160: "160x48"}[sz[0]], v)
		}
	})
}

// A note shows on the finding inline in the diff too, not only on the
// Findings screen.
func TestTriageNoteShownInDiff(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r, _ := newTriageRoot(t)
		pressKeys(r, "4", "c")
		typeText(r, "clamp agreed")
		pressKeys(r, "enter", "enter") // save the note, then follow #1 into the diff
		if r.Active() != common.ScreenDiff {
			t.Fatalf("active %v", r.Active())
		}
		if s := ansi.Strip(r.Render()); !strings.Contains(s, "#1") || !strings.Contains(s, "open: clamp agreed") {
			t.Errorf("the diff does not show the note:\n%s", s)
		}
	})
}
