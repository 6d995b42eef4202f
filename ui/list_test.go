package ui

import (
	"strings"
	"testing"
)

func TestListMoves(t *testing.T) {
	var l List
	l.SetLen(20)
	l.SetHeight(5)
	steps := []struct {
		do             func()
		cursor, offset int
	}{
		{func() { l.Move(1) }, 1, 0},
		{func() { l.Move(4) }, 5, 1}, // just into view
		{func() { l.PageDown() }, 10, 6},
		{func() { l.HalfPageUp() }, 8, 6},
		{func() { l.Bottom() }, 19, 15},
		{func() { l.Move(5) }, 19, 15}, // clamped
		{func() { l.Scroll(-3) }, 19, 12},
		{func() { l.Scroll(-30) }, 19, 0},
		{func() { l.Scroll(30) }, 19, 15}, // never past the last item
		{func() { l.Top() }, 0, 0},
		{func() { l.PageUp() }, 0, 0},
		{func() { l.SetLen(3) }, 0, 0},
		{func() { l.Bottom() }, 2, 0}, // fewer items than rows: no scroll
	}
	for i, s := range steps {
		s.do()
		if l.Cursor != s.cursor || l.Offset != s.offset {
			t.Fatalf("step %d: cursor %d offset %d, want %d %d", i, l.Cursor, l.Offset, s.cursor, s.offset)
		}
	}
}

// A row of the screen maps to the item drawn on it, with two rows an item
// too, and nothing past the items or the list.
func TestListItemAt(t *testing.T) {
	var l List
	l.SetLen(10)
	l.SetHeight(4)
	l.SetCursor(6) // offset 3
	for row, want := range []int{3, 4, 5, 6} {
		if i, ok := l.ItemAt(row); !ok || i != want {
			t.Errorf("row %d: item %d %v, want %d", row, i, ok, want)
		}
	}
	if _, ok := l.ItemAt(4); ok {
		t.Error("a row below the list maps to an item")
	}
	if _, ok := l.ItemAt(-1); ok {
		t.Error("a row above the list maps to an item")
	}
	l.SetRowsPerItem(2)
	l.Top()
	for row, want := range []int{0, 0, 1, 1} {
		if i, ok := l.ItemAt(row); !ok || i != want {
			t.Errorf("two rows an item, row %d: item %d %v, want %d", row, i, ok, want)
		}
	}
	l.SetLen(1)
	if _, ok := l.ItemAt(2); ok {
		t.Error("a row past the last item maps to one")
	}
	var empty List
	empty.SetHeight(3)
	if _, ok := empty.ItemAt(0); ok || empty.Cursor != 0 || empty.Offset != 0 {
		t.Error("an empty list has an item")
	}
}

// rowsList is a list scrolled by row over items of the given heights.
func rowsList(height int, heights ...int) *List {
	l := &List{}
	l.SetScrollByRow(true)
	l.SetLen(len(heights))
	l.SetHeight(height)
	l.SetRowHeight(func(i int) int { return heights[i] })
	return l
}

// A list scrolled by row pages by rows, so the view may start inside a
// tall item, and the cursor follows the view as far as it moved.
func TestListScrollByRowPages(t *testing.T) {
	l := rowsList(4, 3, 3, 3, 1, 1, 1) // 12 rows
	steps := []struct {
		name                string
		do                  func()
		cursor, offset, row int
	}{
		{"half page down", l.HalfPageDown, 0, 0, 2},   // item 0's first two rows above the view
		{"half page down", l.HalfPageDown, 1, 1, 1},   // one item further down
		{"page down", l.PageDown, 2, 2, 2},            // item 2's last row on top
		{"page down at the end", l.PageDown, 5, 2, 2}, // the view stops at the last row: cursor to the end
		{"page up", l.PageUp, 2, 1, 1},                // the cursor stays on screen
		{"half page up", l.HalfPageUp, 1, 0, 2},
		{"page up at the top", func() { l.PageUp(); l.PageUp() }, 0, 0, 0},
		{"bottom", l.Bottom, 5, 2, 2},
		{"top", l.Top, 0, 0, 0},
	}
	for _, s := range steps {
		s.do()
		if l.Cursor != s.cursor || l.Offset != s.offset || l.OffsetRow != s.row {
			t.Fatalf("%s: cursor %d offset %d row %d, want %d %d %d", s.name, l.Cursor, l.Offset, l.OffsetRow, s.cursor, s.offset, s.row)
		}
	}
}

// Keeping the cursor in view scrolls as little as needed, shows the start
// of an item taller than the screen, and brings a part-hidden first item
// back whole.
func TestListScrollByRowKeepInView(t *testing.T) {
	l := rowsList(4, 1, 1, 2, 6, 1, 1)
	l.SetCursor(2) // rows 2-3: on screen already
	if l.Offset != 0 || l.OffsetRow != 0 {
		t.Fatalf("cursor on screen scrolled to %d/%d", l.Offset, l.OffsetRow)
	}
	l.SetCursor(3) // six rows on a screen of four: its start
	if l.Offset != 3 || l.OffsetRow != 0 {
		t.Fatalf("tall item at %d/%d, want its start 3/0", l.Offset, l.OffsetRow)
	}
	l.SetCursor(4) // item 4 under the tall item's last three rows
	if l.Offset != 3 || l.OffsetRow != 3 {
		t.Fatalf("item after the tall one at %d/%d, want 3/3", l.Offset, l.OffsetRow)
	}
	l.SetCursor(3) // its first rows are above the view: shown from its start
	if l.Offset != 3 || l.OffsetRow != 0 {
		t.Fatalf("part-hidden cursor item at %d/%d, want 3/0", l.Offset, l.OffsetRow)
	}
	l.Scroll(100) // the wheel: the view stops with the last row at the bottom
	if l.Cursor != 3 || l.Offset != 3 || l.OffsetRow != 4 {
		t.Fatalf("scrolled to the end: cursor %d at %d/%d, want 3 at 3/4", l.Cursor, l.Offset, l.OffsetRow)
	}
	if got := l.LastVisible(); got != 5 {
		t.Errorf("last visible %d, want 5", got)
	}
	l.Scroll(-5) // back up into item 2
	if l.Offset != 2 || l.OffsetRow != 1 {
		t.Fatalf("scrolled up five rows to %d/%d, want 2/1", l.Offset, l.OffsetRow)
	}
}

// A row maps to the item drawn on it, counting the rows of the first item
// that are above the view.
func TestListScrollByRowItemAt(t *testing.T) {
	l := rowsList(4, 3, 2, 1, 5)
	l.Scroll(2) // item 0's last row is the view's first
	for row, want := range []int{0, 1, 1, 2} {
		if i, ok := l.ItemAt(row); !ok || i != want {
			t.Errorf("row %d: item %d %v, want %d", row, i, ok, want)
		}
	}
	if _, ok := l.ItemAt(4); ok {
		t.Error("a row below the list maps to an item")
	}
	// One row an item: no measuring, and nothing past the last item.
	l.SetRowHeight(nil)
	l.SetHeight(6)
	if l.Offset != 0 || l.OffsetRow != 0 {
		t.Fatalf("one row an item, offset %d/%d, want 0/0", l.Offset, l.OffsetRow)
	}
	if i, ok := l.ItemAt(3); !ok || i != 3 {
		t.Errorf("row 3: item %d %v", i, ok)
	}
	if _, ok := l.ItemAt(4); ok {
		t.Error("a row past the last item maps to one")
	}
}

// A list scrolled by row measures only the items a screen needs: going to
// the bottom of a million items, and paging there, asks for the heights of
// about a screenful.
func TestListScrollByRowMeasuresLittle(t *testing.T) {
	asked := 0
	l := &List{}
	l.SetScrollByRow(true)
	l.SetHeight(10)
	l.SetRowHeight(func(int) int { asked++; return 2 })
	l.SetLen(1_000_000)
	asked = 0
	l.Bottom()
	l.PageUp()
	l.HalfPageDown()
	if l.Cursor != 999_996 || l.Offset != 999_992 || l.OffsetRow != 1 {
		t.Fatalf("cursor %d offset %d/%d, want 999996 at 999992/1", l.Cursor, l.Offset, l.OffsetRow)
	}
	if asked > 100 {
		t.Errorf("%d heights measured for three moves on a ten-row screen", asked)
	}
}

// A list of whole items (the diff's) walks back to the first item drawn
// whole, never to one whose top rows would be cut.
func TestListWalkBackWholeItems(t *testing.T) {
	heights := []int{2, 3, 1, 2}
	var l List
	l.SetLen(len(heights))
	l.SetRowHeight(func(i int) int { return heights[i] })
	for _, c := range []struct{ i, h, want int }{
		{3, 3, 2}, // items 2-3 fill three rows exactly
		{3, 4, 2}, // item 1 would be cut: start at 2
		{3, 6, 1},
		{3, 1, 3}, // an item taller than the view is still its own start
		{3, 99, 0},
	} {
		if got := l.WalkBack(c.i, c.h); got != c.want {
			t.Errorf("WalkBack(%d, %d) = %d, want %d", c.i, c.h, got, c.want)
		}
	}
}

// A click on a wrapped pane maps to the line drawn under it, counting the
// rows of the first line scrolled off above (Offset+row would be off by
// them).
func TestPaneLineAt(t *testing.T) {
	p := newTestPane(Lines{"one two three four five six", "seven", "eight"}, 11, 3)
	p.SetWrap(true)  // line 0 is three rows of ten cells
	p.HalfPageDown() // one row down: line 0's first row is above the view
	rows := rowsOf(p.View())
	if p.Offset() != 0 || !strings.Contains(rows[2], "seven") {
		t.Fatalf("offset %d, rows %q; the test needs line 0 part-hidden", p.Offset(), rows)
	}
	for row, want := range []int{0, 0, 1} {
		if i, ok := p.LineAt(row); !ok || i != want {
			t.Errorf("row %d (%q): line %d %v, want %d", row, rows[row], i, ok, want)
		}
	}
	if _, ok := p.LineAt(3); ok {
		t.Error("a row below the pane maps to a line")
	}
}
