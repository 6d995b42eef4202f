package diff

import (
	"strings"
	"testing"
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
