package tui

import (
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	"github.com/charmbracelet/x/ansi"
)

// With w the diff wraps between words: every word of a long line shows
// whole at 80 columns.
func TestDiffWrapKeepsWords(t *testing.T) { screentest.InBubble(t, testDiffWrapKeepsWords) }

func testDiffWrapKeepsWords(t *testing.T) {
	r := newTestRoot(t, 80, 24)
	pressKeys(r, "3", "w")
	view := ansi.Strip(r.Render())
	// Line 28's text runs past 80 columns; its second row starts with a
	// whole word.
	for _, w := range []string{"base name is", "\n           appended |", "\n           for experiments |"} {
		if !strings.Contains(view, w) {
			t.Errorf("%q is not on screen:\n%s", w, view)
		}
	}
}
