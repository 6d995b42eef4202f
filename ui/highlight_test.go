package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestHighlightLine(t *testing.T) {
	h := NewHighlighter(NewStyles(true, false))
	tests := []struct {
		name, file, in, plain string
		coloured              bool
	}{
		{"go", "pkg/main.go", "func main() { return 42 }", "func main() { return 42 }", true},
		{"python by path", "components/src/x/args.py", "def f(a): return a  # note", "def f(a): return a  # note", true},
		{"unknown file is plain", "notes.unknownext", "just words", "just words", false},
		{"tabs expanded", "a.go", "\tx := 1", "    x := 1", true},
		{"control line not coloured", "a.go", "x := \"\x1b[2J\"", "x := \"␛[2J\"", true},
		{"hidden character shown", "a.go", "if admin\u202E {", "if admin⟦U+202E⟧ {", true},
		{"invalid bytes", "a.go", "s := \"\xff\"", "s := \"\uFFFD\"", true},
		{"windows path", `dir\sub\m.py`, "import os", "import os", true},
		{"trailing newline dropped", "a.go", "x := 1\n", "x := 1", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := h.Line(tt.file, tt.in)
			if p := ansi.Strip(got); p != tt.plain {
				t.Errorf("Line(%q) shows %q, want %q", tt.in, p, tt.plain)
			}
			if has := strings.Contains(got, "\x1b["); has != tt.coloured {
				t.Errorf("Line(%q) coloured=%v, want %v: %q", tt.in, has, tt.coloured, got)
			}
			checkOnlySGR(t, got)
			if strings.Contains(got, "\n") {
				t.Errorf("highlighted line has a newline: %q", got)
			}
		})
	}
}

func TestHighlightPlaceholderStyled(t *testing.T) {
	st := NewStyles(true, false)
	h := NewHighlighter(st)
	got := h.Line("a.go", "x\x1b[2J")
	if !strings.Contains(got, st.Placeholder.Render("␛[2J")) {
		t.Errorf("placeholder not drawn in the Placeholder style: %q", got)
	}
}

func TestHighlightNoColor(t *testing.T) {
	h := NewHighlighter(NewStyles(false, true))
	if got := h.Line("a.go", "func main() {}"); got != "func main() {}" {
		t.Errorf("NO_COLOR line = %q", got)
	}
}

func TestHighlightCacheAndLongLines(t *testing.T) {
	h := NewHighlighter(NewStyles(true, false))
	a := h.Line("a.go", "var x = 1")
	if h.cache.len() != 1 {
		t.Fatalf("cache holds %d", h.cache.len())
	}
	if b := h.Line("a.go", "var x = 1"); b != a || h.cache.len() != 1 {
		t.Errorf("repeat was not a cache hit")
	}
	long := strings.Repeat("x", maxHighlightBytes+1)
	if got := h.Line("a.go", long); got != long || h.cache.len() != 1 {
		t.Errorf("a long line should be drawn plain and not cached")
	}
}

func BenchmarkHighlightLine(b *testing.B) {
	h := NewHighlighter(NewStyles(true, false))
	lines := []string{"func (p *Pane) View() string {", "\tif p.width <= 0 || p.height <= 0 {", "\t\treturn \"\"", "\t}"}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		h.cache = newLRU[hlKey, string](1) // measure the uncached cost
		h.Line("pane.go", lines[i%len(lines)])
	}
}
