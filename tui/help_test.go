package tui

import (
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/tui/common"
)

// Help at 80×24 on the findings and the decision screens: the screen's own
// keys first (the triage keys on findings, O/H/R on the decision), each
// screen's main keys on the bottom line.
func TestHelpGolden80x24(t *testing.T) { screentest.InBubble(t, testHelpGolden80x24) }

func testHelpGolden80x24(t *testing.T) {
	for _, c := range []struct {
		screen string
		name   string
		want   []string
		bottom []string
	}{
		{"4", "TestHelpFindings80x24", []string{"a     accept", "x     dismiss", "f     defer", "u     reopen", "c     note", "space mark", "O ok to test"}, []string{"a accept", "x dismiss", "f defer"}},
		{"7", "TestHelpDecision80x24", []string{"O     ok to test", "H     hold", "R     request changes", "a accept", "x dismiss"}, []string{"O ok to test", "H hold", "R request changes"}},
	} {
		r := newTestRoot(t, 80, 24)
		pressKeys(r, c.screen, "?")
		view := r.Render()
		screentest.CheckSize(t, view, 80, 24)
		screentest.Golden(t, c.name, view)
		plain := ansi.Strip(view)
		lines := strings.Split(plain, "\n")
		for _, w := range c.want {
			if !strings.Contains(plain, w) {
				t.Errorf("%s: help lacks %q", c.name, w)
			}
		}
		for _, w := range c.bottom {
			if !strings.Contains(lines[len(lines)-1], w) {
				t.Errorf("%s: the bottom line lacks %q: %q", c.name, w, lines[len(lines)-1])
			}
		}
	}
}

// Help scrolls, searches with / and closes with esc; a key other than those
// does not close it.
func TestHelpScrollSearchClose(t *testing.T) { screentest.InBubble(t, testHelpScrollSearchClose) }

func testHelpScrollSearchClose(t *testing.T) {
	r := newTestRoot(t, 80, 24)
	pressKeys(r, "4", "?")
	if !strings.Contains(ansi.Strip(r.Render()), "more below") {
		t.Fatalf("help at 80×24 does not say there is more:\n%s", ansi.Strip(r.Render()))
	}
	top := r.helpm.View()
	pressKeys(r, "pgdown")
	if r.helpm.View() == top {
		t.Fatalf("pgdn does not scroll help")
	}
	if !strings.Contains(ansi.Strip(r.Render()), "On a log") {
		t.Errorf("the end of help is not reachable:\n%s", ansi.Strip(r.Render()))
	}
	pressKeys(r, "g", "/", "w", "r", "a", "p", "enter")
	got := ansi.Strip(r.helpm.View())
	if !strings.Contains(got, "w wrap") || strings.Contains(got, "accept") {
		t.Errorf("/wrap keeps other keys or loses wrap:\n%s", got)
	}
	pressKeys(r, "j")
	if !r.showHelp {
		t.Fatal("j closed help")
	}
	pressKeys(r, "esc") // clears the search
	if !r.showHelp || !strings.Contains(ansi.Strip(r.Render()), "accept") {
		t.Fatalf("esc with a search does not clear it first")
	}
	pressKeys(r, "esc")
	if r.showHelp {
		t.Fatal("esc does not close help")
	}
	if r.Active() != common.ScreenFindings {
		t.Errorf("closing help left %v", r.Active())
	}
}

// The status line keeps the news at 80 columns: a long status is shown,
// cut, rather than dropped.
func TestStatusLineNewsAt80(t *testing.T) { screentest.InBubble(t, testStatusLineNewsAt80) }

func testStatusLineNewsAt80(t *testing.T) {
	r := newTestRoot(t, 80, 24)
	r.SetStatus("reloaded: change.diff and review.md changed, 2 findings changed, triage kept")
	lines := strings.Split(ansi.Strip(r.Render()), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, "reloaded: change.diff") {
		t.Errorf("status line at 80: %q", last)
	}
}
