package ui

import "testing"

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
