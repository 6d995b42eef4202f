package ui

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// countingSource is a huge synthetic source that records which lines were
// asked for.
type countingSource struct {
	n      int
	line   func(i int) string
	called map[int]int
}

func newCounting(n int, line func(i int) string) *countingSource {
	return &countingSource{n: n, line: line, called: map[int]int{}}
}

func (c *countingSource) Len() int { return c.n }
func (c *countingSource) Line(i int) string {
	if i < 0 || i >= c.n {
		panic(fmt.Sprintf("line %d out of range", i))
	}
	c.called[i]++
	return c.line(i)
}

// touchedOutside returns the lines asked for outside [lo, hi).
func (c *countingSource) touchedOutside(lo, hi int) []int {
	var out []int
	for i := range c.called {
		if i < lo || i >= hi {
			out = append(out, i)
		}
	}
	return out
}

func newTestPane(src LineSource, w, h int) Pane {
	p := NewPane(NewStyles(true, false))
	p.SetSource(src)
	p.SetSize(w, h)
	return p
}

func rowsOf(view string) []string { return strings.Split(ansi.Strip(view), "\n") }

func TestPaneTenMillionLinesBottom(t *testing.T) {
	const n = 10_000_000
	for _, wrap := range []bool{false, true} {
		t.Run(fmt.Sprintf("wrap=%v", wrap), func(t *testing.T) {
			src := newCounting(n, func(i int) string { return fmt.Sprintf("line %d", i) })
			p := newTestPane(src, 40, 10)
			p.SetGutter(true)
			p.SetWrap(wrap)
			clear(src.called) // the first page, measured when wrap went on
			p.Bottom()
			view := p.View()
			if bad := src.touchedOutside(n-10, n); len(bad) > 0 {
				t.Fatalf("touched %d lines outside the last page, e.g. %v", len(bad), bad[:min(5, len(bad))])
			}
			rows := rowsOf(view)
			if len(rows) != 10 || !strings.Contains(rows[9], "line 9999999") || !strings.Contains(rows[0], "line 9999990") {
				t.Fatalf("last page wrong:\n%s", strings.Join(rows, "\n"))
			}
			if !strings.HasPrefix(rows[9], "▸10000000 ") {
				t.Errorf("gutter of the last line = %q", rows[9])
			}
			// Moving around near the end touches only what is shown.
			clear(src.called)
			p.PageUp()
			p.View()
			if bad := src.touchedOutside(n-20, n); len(bad) > 0 {
				t.Fatalf("PageUp touched lines %v", bad)
			}
			clear(src.called)
			p.Top()
			p.View()
			if bad := src.touchedOutside(0, 10); len(bad) > 0 {
				t.Fatalf("Top touched lines %v", bad)
			}
			clear(src.called)
			p.CenterOn(5_000_000)
			p.View()
			if bad := src.touchedOutside(5_000_000-10, 5_000_000+10); len(bad) > 0 {
				t.Fatalf("CenterOn touched lines %v", bad)
			}
		})
	}
}

func TestPaneTenMillionWrappedLinesBottom(t *testing.T) {
	const n = 10_000_000
	// Every line wraps to two rows, so the last page holds five lines.
	src := newCounting(n, func(i int) string { return fmt.Sprintf("%-30d|%s", i, strings.Repeat("x", 20)) })
	p := newTestPane(src, 40, 10)
	p.SetShowCursor(false)
	p.SetWrap(true)
	clear(src.called)
	p.Bottom()
	rows := rowsOf(p.View())
	if bad := src.touchedOutside(n-5, n); len(bad) > 0 {
		t.Fatalf("touched lines outside the last page: %v", bad)
	}
	if !strings.HasPrefix(rows[8], "9999999") || !strings.HasPrefix(rows[0], "9999995") {
		t.Fatalf("last page wrong:\n%s", strings.Join(rows, "\n"))
	}
	if !p.AtBottom() {
		t.Errorf("AtBottom false at the bottom")
	}
}

func TestPaneWideCharsAlign(t *testing.T) {
	lines := Lines{
		"abcd|ef",
		"漢字|ef",
		"🙂🙂|ef",
		"a漢b|ef",
		"\x1b[31m漢\x1b[m字|ef",
		"\tx|",
	}
	for _, x := range []int{0, 1, 2, 3} {
		p := newTestPane(lines, 12, len(lines))
		p.SetGutter(true)
		p.SetXOffset(x)
		for i, row := range rowsOf(p.View()) {
			if w := ansi.StringWidth(row); w != 12 {
				t.Errorf("x=%d row %d %q is %d cells, want 12", x, i, row, w)
			}
			if i < 5 {
				bar := strings.Index(row, "|")
				if bar < 0 {
					if x < 4 {
						t.Errorf("x=%d row %d lost its bar: %q", x, i, row)
					}
					continue
				}
				if col := ansi.StringWidth(row[:bar]); col != 3+4-x {
					t.Errorf("x=%d row %d: bar at column %d, want %d: %q", x, i, col, 3+4-x, row)
				}
			}
		}
	}
}

func TestPaneTruncatesWithEllipsis(t *testing.T) {
	p := newTestPane(Lines{"abcdefghijkl", "漢字漢字漢字"}, 8, 2)
	p.SetShowCursor(false)
	rows := rowsOf(p.View())
	if rows[0] != "abcdefg…" {
		t.Errorf("row 0 = %q", rows[0])
	}
	if rows[1] != "漢字漢… " {
		t.Errorf("row 1 = %q", rows[1])
	}
}

func TestPaneWrap(t *testing.T) {
	p := newTestPane(Lines{"abcdefghij", "漢字漢字漢", "short", "\x1b[31mredredred\x1b[m"}, 5, 10)
	p.SetShowCursor(false)
	p.SetWrap(true)
	got := rowsOf(p.View())
	want := []string{"abcde", "fghij", "漢字 ", "漢字 ", "漢   ", "short", "redre", "dred ", "     ", "     "}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("wrapped view:\n%q\nwant\n%q", got, want)
	}
	// Styles are closed at each row end and reopened on the next.
	raw := strings.Split(p.View(), "\n")
	if !strings.HasSuffix(raw[6], "\x1b[m") || !strings.Contains(raw[7], "\x1b[31m") {
		t.Errorf("style not carried across the wrap: %q / %q", raw[6], raw[7])
	}
}

func TestPaneWrapScrollsByRows(t *testing.T) {
	lines := make(Lines, 50)
	for i := range lines {
		lines[i] = fmt.Sprintf("%02d%s", i, strings.Repeat(".", 8)) // two rows each at width 5
	}
	p := newTestPane(lines, 6, 4) // 1 marker column + 5 text
	p.SetWrap(true)
	p.HalfPageDown() // two rows: one line
	if p.Offset() != 1 {
		t.Errorf("half page down: offset %d, want 1", p.Offset())
	}
	p.PageDown() // four rows: two lines
	if p.Offset() != 3 || p.Cursor() != 3 {
		t.Errorf("page down: offset %d cursor %d, want 3 3", p.Offset(), p.Cursor())
	}
	p.Bottom()
	if p.Offset() != 48 || p.Cursor() != 49 {
		t.Errorf("bottom: offset %d cursor %d", p.Offset(), p.Cursor())
	}
	p.PageDown()
	if p.Offset() != 48 || p.Cursor() != 49 {
		t.Errorf("page down at bottom moved: offset %d cursor %d", p.Offset(), p.Cursor())
	}
	p.CursorUp()
	p.CursorUp()
	if p.Cursor() != 47 || p.Offset() != 47 {
		t.Errorf("cursor up out of view: offset %d cursor %d", p.Offset(), p.Cursor())
	}
}

func TestPaneTallLine(t *testing.T) {
	// One line taller than the screen can still be scrolled through.
	p := newTestPane(Lines{"a", strings.Repeat("x", 50), "b"}, 6, 3)
	p.SetWrap(true)
	p.CursorDown()
	rows := rowsOf(p.View())
	if !strings.HasPrefix(rows[0], "▸xxxxx") {
		t.Errorf("tall line not shown from its start: %q", rows)
	}
	p.PageDown()
	p.PageDown()
	p.PageDown()
	rows = rowsOf(p.View())
	if !strings.Contains(rows[2], "b") {
		t.Errorf("could not scroll to the end of a tall line: %q", rows)
	}
}

func TestPaneNavigation(t *testing.T) {
	lines := make(Lines, 100)
	for i := range lines {
		lines[i] = fmt.Sprintf("line %d", i)
	}
	p := newTestPane(lines, 20, 10)
	km := DefaultKeyMap()
	steps := []struct {
		key            tea.KeyPressMsg
		cursor, offset int
	}{
		{tea.KeyPressMsg{Code: 'j', Text: "j"}, 1, 0},
		{tea.KeyPressMsg{Code: tea.KeyDown}, 2, 0},
		{tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}, 7, 5},
		{tea.KeyPressMsg{Code: tea.KeyPgDown}, 17, 15},
		{tea.KeyPressMsg{Code: 'G', Text: "G", Mod: tea.ModShift}, 99, 90},
		{tea.KeyPressMsg{Code: tea.KeyPgDown}, 99, 90},
		{tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}, 94, 85},
		{tea.KeyPressMsg{Code: tea.KeyPgUp}, 84, 75},
		{tea.KeyPressMsg{Code: 'k', Text: "k"}, 83, 75},
		{tea.KeyPressMsg{Code: 'g', Text: "g"}, 0, 0},
		{tea.KeyPressMsg{Code: tea.KeyPgUp}, 0, 0},
		{tea.KeyPressMsg{Code: tea.KeyEnd}, 99, 90},
		{tea.KeyPressMsg{Code: tea.KeyHome}, 0, 0},
		{tea.KeyPressMsg{Code: 'k', Text: "k"}, 0, 0},
	}
	for i, s := range steps {
		if !p.HandleKey(s.key, km) {
			t.Fatalf("step %d: %q not handled", i, s.key.String())
		}
		if p.Cursor() != s.cursor || p.Offset() != s.offset {
			t.Errorf("step %d %q: cursor %d offset %d, want %d %d", i, s.key.String(), p.Cursor(), p.Offset(), s.cursor, s.offset)
		}
	}
	if p.HandleKey(tea.KeyPressMsg{Code: 'q', Text: "q"}, km) {
		t.Errorf("q should not be a pane key")
	}
	for i := 0; i < 12; i++ {
		p.CursorDown()
	}
	if p.Cursor() != 12 || p.Offset() != 3 {
		t.Errorf("cursor down past the screen: cursor %d offset %d", p.Cursor(), p.Offset())
	}
	p.ScrollTo(95)
	if p.Cursor() != 95 || p.Offset() != 90 {
		t.Errorf("ScrollTo near the end: cursor %d offset %d", p.Cursor(), p.Offset())
	}
	p.CenterOn(50)
	if p.Cursor() != 50 || p.Offset() != 46 {
		t.Errorf("CenterOn: cursor %d offset %d", p.Cursor(), p.Offset())
	}
	p.SetCursor(1000)
	if p.Cursor() != 99 {
		t.Errorf("SetCursor past the end: %d", p.Cursor())
	}
}

func TestPaneSearch(t *testing.T) {
	lines := Lines{"alpha", "beta", "gamma", "beta two", "delta"}
	p := newTestPane(lines, 20, 3)
	p.SetMatch(func(i int) bool { return strings.Contains(lines[i], "beta") })
	if i, ok := p.FindMatch(1, 0); !ok || i != 1 {
		t.Fatalf("first match = %d %v", i, ok)
	}
	if i, ok := p.FindMatch(1, 0); !ok || i != 3 {
		t.Fatalf("second match = %d %v", i, ok)
	}
	if i, ok := p.FindMatch(1, 0); !ok || i != 1 {
		t.Fatalf("wrapped match = %d %v", i, ok)
	}
	if i, ok := p.FindMatch(-1, 0); !ok || i != 3 {
		t.Fatalf("previous match = %d %v", i, ok)
	}
	if _, ok := p.FindMatch(1, 1); ok {
		t.Fatalf("a limit of one line should not reach the next match")
	}
}

func TestPaneEmptyAndTiny(t *testing.T) {
	p := newTestPane(Lines(nil), 5, 2)
	p.CursorDown()
	p.PageDown()
	p.Bottom()
	if got := rowsOf(p.View()); len(got) != 2 || got[0] != "     " {
		t.Errorf("empty pane = %q", got)
	}
	p = newTestPane(Lines{"漢字"}, 1, 1)
	p.SetShowCursor(false)
	p.SetWrap(true)
	_ = p.View()
	p.SetSize(0, 0)
	if p.View() != "" {
		t.Errorf("zero-size pane draws something")
	}
}

func TestPaneSourceGrows(t *testing.T) {
	n := 9
	src := LineFunc{N: func() int { return n }, At: func(i int) string { return fmt.Sprint(i) }}
	p := newTestPane(src, 8, 3)
	p.SetGutter(true)
	p.Bottom()
	before := rowsOf(p.View())
	n = 12 // the gutter needs another digit
	p.Bottom()
	after := rowsOf(p.View())
	if before[2] != "▸9 8    " || after[2] != "▸12 11  " {
		t.Errorf("gutter did not follow growth: %q then %q", before, after)
	}
}

func TestPaneGolden(t *testing.T) {
	lines := Lines{
		"package main",
		"",
		"func main() {",
		"\tprintln(\"hi\")\t// tab",
		"}",
		"// 漢字 and 🙂 keep columns",
		"// a line long enough to be truncated at the edge of the pane",
	}
	p := newTestPane(lines, 40, 8)
	p.SetGutter(true)
	p.SetHighlight(2, 5)
	p.SetMatch(func(i int) bool { return strings.Contains(lines[i], "main") })
	p.SetCursor(3)
	golden.RequireEqual(t, ansi.Strip(p.View()))
}

// TestPaneRandomOps drives a pane with random operations over lines of
// mixed widths and checks the frame is always exactly the pane's size and
// the cursor is always on screen.
func TestPaneRandomOps(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	pieces := []string{"a", "漢", "🙂", "\t", " ", "\x1b[31mr\x1b[m", "e\u0301", "xyz"}
	lines := make(Lines, 300)
	for i := range lines {
		var b strings.Builder
		for range r.Intn(40) {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		lines[i] = b.String()
	}
	p := newTestPane(lines, 20, 7)
	ops := []func(){
		p.CursorDown, p.CursorUp, p.PageDown, p.PageUp, p.HalfPageDown, p.HalfPageUp, p.Top, p.Bottom,
		p.ToggleWrap, func() { p.SetGutter(r.Intn(2) == 0) }, func() { p.ScrollRight(r.Intn(5)) },
		func() { p.ScrollLeft(r.Intn(5)) }, func() { p.CenterOn(r.Intn(300)) }, func() { p.ScrollTo(r.Intn(300)) },
		func() { p.SetSize(3+r.Intn(30), 1+r.Intn(10)) }, func() { p.SetHighlight(r.Intn(300), r.Intn(300)) },
	}
	for step := range 3000 {
		ops[r.Intn(len(ops))]()
		rows := strings.Split(p.View(), "\n")
		if len(rows) != p.Height() {
			t.Fatalf("step %d: %d rows, want %d", step, len(rows), p.Height())
		}
		cursorShown := false
		for i, row := range rows {
			if w := ansi.StringWidth(row); w != p.Width() {
				t.Fatalf("step %d row %d: width %d, want %d: %q", step, i, w, p.Width(), ansi.Strip(row))
			}
			// A wrapped cursor line scrolled part-way shows only its │ rows.
			if s := ansi.Strip(row); strings.HasPrefix(s, "▸") || strings.HasPrefix(s, "│") {
				cursorShown = true
			}
		}
		if !cursorShown {
			t.Fatalf("step %d: cursor %d off screen (offset %d, wrap %v):\n%s", step, p.Cursor(), p.Offset(), p.Wrap(), ansi.Strip(p.View()))
		}
	}
}
