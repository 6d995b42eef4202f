package tui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/tui/internal/screentest"
	"github.com/vetter-dev/vetter/ui"
)

// A key map remapped by the config file (triage.accept: A) is what the
// findings screen answers and what its help lists: A accepts, a no longer
// does, and ? shows A beside accept.
func TestRemappedAcceptKey(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		dir := sampleCopy(t, "p")
		ctx := storeContext(t, loadCopy(t, dir), time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
		km := ui.DefaultKeyMap()
		if err := km.Remap("triage.accept", []string{"A"}); err != nil {
			t.Fatal(err)
		}
		ctx.Keys = km
		r := NewWorkbench(ctx, Options{ForceTheme: "dark"})
		drive(r, r.Init())
		r.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
		pressKeys(r, "4", "a")
		if strings.Contains(ansi.Strip(r.Render()), "→ accepted") {
			t.Fatal("a still accepts after the remap")
		}
		pressKeys(r, "A")
		if !strings.Contains(ansi.Strip(r.Render()), "review.md#1 → accepted") {
			t.Errorf("A does not accept:\n%s", ansi.Strip(r.Render()))
		}
		pressKeys(r, "?")
		help := ansi.Strip(r.Render())
		if !regexp.MustCompile(`\bA\s+accept\b`).MatchString(help) {
			t.Errorf("help does not list A for accept:\n%s", help)
		}
	})
}

// The inbox answers the config file's remapping as the workbench does: with
// move.bottom on B and move.up on K, B goes to the last row and K up one,
// G and k do nothing, and the status line names the remapped filter key.
func TestRemappedInboxKeys(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		dir := t.TempDir()
		makeTestInbox(t, dir)
		km := ui.DefaultKeyMap()
		for action, keys := range map[string][]string{"move.bottom": {"B"}, "move.up": {"K"}, "search.start": {"F"}} {
			if err := km.Remap(action, keys); err != nil {
				t.Fatal(err)
			}
		}
		opts := testAppOpts(t)
		opts.Keys = &km
		a := NewInboxApp(dir, opts)
		a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		in := a.Inbox()
		first := in.Selected().Name
		a.Update(screentest.KeyMsg("G"))
		if in.Selected().Name != first {
			t.Fatalf("G still moves the inbox after the remap: on %s", in.Selected().Name)
		}
		a.Update(screentest.KeyMsg("B"))
		if in.Selected().Name != "notes" {
			t.Fatalf("B selected %s, want the last row", in.Selected().Name)
		}
		a.Update(screentest.KeyMsg("k"))
		if in.Selected().Name != "notes" {
			t.Fatalf("k still moves up after the remap: on %s", in.Selected().Name)
		}
		a.Update(screentest.KeyMsg("K"))
		if in.Selected().Name != "f-ready" {
			t.Errorf("K selected %s, want f-ready", in.Selected().Name)
		}
		if s := ansi.Strip(a.Render()); !strings.Contains(s, "F filter") {
			t.Errorf("the status line does not name F for the filter:\n%s", s)
		}
	})
}
