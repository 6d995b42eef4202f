package tui

import (
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/tui/screens/findings"
)

// Marks are spent by the batch they applied to: u on the selected finding
// afterwards reopens it alone. esc clears marks without acting.
func TestMarksClearedByBatchAndEsc(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r, dir := newTriageRoot(t)
		f := r.Screen(common.ScreenFindings).(*findings.Findings)
		pressKeys(r, "4", "j", "j", "j", "space", "space") // mark #4 and #5
		pressKeys(r, "f")
		if f.Marked("review.md#4") || f.Marked("review.md#5") {
			t.Fatal("the marks survive the batch")
		}
		pressKeys(r, "u") // the cursor is on #5
		p := reload(t, dir)
		if s, _, _ := review.TriageOf(p, p.Finding("review.md#4")); s != packet.TriageDeferred {
			t.Errorf("u on #5 changed #4 to %s", s)
		}
		if s, _, _ := review.TriageOf(p, p.Finding("review.md#5")); s != packet.TriageOpen {
			t.Errorf("#5 = %s after u", s)
		}
		pressKeys(r, "space", "esc")
		if f.Marked("review.md#5") {
			t.Error("esc does not clear the marks")
		}
		if r.status != "marks cleared" {
			t.Errorf("status after esc: %q", r.status)
		}
	})
}

// Triage on the diff screen says what it saved, at 80 columns.
func TestDiffTriageConfirmed(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r, _ := newTriageRoot(t)
		r.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		pressKeys(r, "4", "enter", "a")
		// Only the status line is drawn: drawing the diff in a bubble would
		// start the highlighter's regexp clock inside it.
		if last := ansi.Strip(r.statusLine()); !strings.Contains(last, "review.md#1 → accepted") {
			t.Errorf("status line after a on the diff: %q", last)
		}
	})
}

// The dismiss prompt sits under the finding: its claim stays on screen.
func TestDismissPromptKeepsTheFinding(t *testing.T) {
	screentest.InBubble(t, testDismissPromptKeepsTheFinding)
}

func testDismissPromptKeepsTheFinding(t *testing.T) {
	for _, start := range [][]string{{"4"}, {"W", "space"}} {
		r := newTestRoot(t, 80, 24)
		pressKeys(r, start...)
		pressKeys(r, "x")
		got := ansi.Strip(r.Render())
		screentest.CheckSize(t, r.Render(), 80, 24)
		for _, want := range []string{"Dismiss review.md#1: why is it not valid?", "A `Retry-After` longer than `Policy.Max`", "internal/upload/client.go:97-98"} {
			if !strings.Contains(got, want) {
				t.Errorf("%v x: %q is not on screen:\n%s", start, want, got)
			}
		}
	}
}
