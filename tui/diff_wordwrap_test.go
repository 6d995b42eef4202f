package tui

import (
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	"github.com/charmbracelet/x/ansi"
)

func TestWordPieces(t *testing.T) {
	text := "| `--retries N` | retry a failed upload up to N times; default 5 (see below) |"
	pl := plainLine{text: text, width: len(text), ascii: true}
	ws := wordPieces(pl, 30)
	sum, from := 0, 0
	for i, w := range ws {
		if w > 30 {
			t.Errorf("piece %d is %d wide", i, w)
		}
		piece := text[from : from+w]
		if i < len(ws)-1 && !strings.HasSuffix(piece, " ") {
			t.Errorf("piece %q ends inside a word", piece)
		}
		sum += w
		from += w
	}
	if sum != len(text) {
		t.Errorf("pieces cover %d of %d cells", sum, len(text))
	}
	long := strings.Repeat("x", 70)
	if ws := wordPieces(plainLine{text: long, width: 70, ascii: true}, 30); len(ws) != 3 || ws[0] != 30 {
		t.Errorf("a 70-cell word at 30: %v", ws)
	}
}

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
