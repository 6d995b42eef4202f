package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// List is the one scrolling arithmetic of a list drawn a fixed number of
// rows per item: where the cursor is, which item is the first on screen,
// how a page, half a page, the top and the bottom move them, how little to
// scroll to keep the cursor in view, and which item a row of the screen
// shows. The screens' lists (the overview's and decision's rows, the
// findings and their citations, the evidence table, the inbox, the logs
// list, the documents' panels) keep one each, so a click maps to the item
// drawn under it everywhere the same way.
//
// Items may also take a varying number of rows (SetRowHeight: the diff's
// soft-wrapped lines); the view then ends with the last item that fits.
// A list scrolled by row (SetScrollByRow: a text pane's soft-wrapped
// lines) may instead start part-way through its first item.
//
// The zero List is empty, one row per item, zero rows high.
type List struct {
	// Cursor is the selected item; Offset the first item on screen.
	Cursor, Offset int
	// OffsetRow is how many rows of item Offset are above the view; only
	// a list scrolled by row has any.
	OffsetRow int

	n, height, rowsPer int
	rowHeight          func(i int) int
	byRow              bool
}

// SetRowHeight makes item i take rowHeight(i) rows, at least one; nil
// goes back to SetRowsPerItem's fixed number.
func (l *List) SetRowHeight(rowHeight func(i int) int) {
	l.rowHeight = rowHeight
	l.clamp()
}

// rows is how many rows item i takes.
func (l *List) rows(i int) int {
	if l.rowHeight != nil {
		return max(l.rowHeight(i), 1)
	}
	return max(l.rowsPer, 1)
}

// WalkBack is the first item of a view h rows high whose last item is i.
func (l *List) WalkBack(i, h int) int {
	if l.rowHeight == nil {
		return max(i-max(h/max(l.rowsPer, 1), 1)+1, 0)
	}
	// The first item drawn whole: past the one whose top rows would be cut.
	top, cut := l.walkBackRows(i, h)
	if cut > 0 {
		top = min(top+1, i)
	}
	return top
}

// LastVisible is the last item with a row on screen.
func (l *List) LastVisible() int {
	if l.byRow {
		return l.lastVisibleByRow()
	}
	return l.lastOnScreen(false)
}

// LastFull is the last item drawn whole.
func (l *List) LastFull() int { return l.lastOnScreen(true) }

func (l *List) lastOnScreen(whole bool) int {
	if l.rowHeight == nil {
		return l.End() - 1
	}
	used := 0
	for i := l.Offset; i < l.n; i++ {
		used += l.rows(i)
		switch {
		case whole && used > l.height:
			return max(i-1, l.Offset)
		case !whole && used >= l.height:
			return i
		}
	}
	return l.n - 1
}

// maxOffset is the furthest the view goes: the screen full at the end.
func (l *List) maxOffset() int {
	if l.rowHeight == nil {
		return l.n - l.Visible()
	}
	return l.WalkBack(l.n-1, l.height)
}

// ScrollWithCursor moves the view by d items and the cursor as far as the
// view moved (a page, half a page); when the view cannot move, the cursor
// goes to the first or the last item. A list scrolled by row moves d rows.
func (l *List) ScrollWithCursor(d int) {
	if l.byRow {
		l.scrollWithCursorByRow(d)
		return
	}
	if l.n == 0 {
		return
	}
	old := l.Offset
	l.Offset = clampInt(l.Offset+d, 0, l.maxOffset())
	moved := l.Offset - old
	switch {
	case moved == 0 && d > 0:
		l.Cursor = l.n - 1
	case moved == 0 && d < 0:
		l.Cursor = 0
	default:
		l.Cursor = min(max(l.Cursor+moved, l.Offset), l.LastVisible())
	}
	l.KeepInView()
}

// SetLen sets how many items there are, keeping the cursor and the view
// within them.
func (l *List) SetLen(n int) {
	l.n = max(n, 0)
	l.clamp()
}

// SetHeight sets how many rows the list has on screen.
func (l *List) SetHeight(h int) {
	l.height = max(h, 0)
	l.clamp()
}

// SetRowsPerItem sets how many rows each item takes (1 when unset).
func (l *List) SetRowsPerItem(r int) {
	l.rowsPer = max(r, 1)
	l.clamp()
}

// Len is the number of items.
func (l *List) Len() int { return l.n }

// Height is the number of rows on screen.
func (l *List) Height() int { return l.height }

// Visible is how many items fit on screen, at least one.
func (l *List) Visible() int { return max(l.height/max(l.rowsPer, 1), 1) }

// End is one past the last item on screen.
func (l *List) End() int { return min(l.Offset+l.Visible(), l.n) }

// SetCursor moves the cursor to item i (clamped) and scrolls as little as
// needed to show it.
func (l *List) SetCursor(i int) {
	l.Cursor = i
	l.KeepInView()
}

// Move moves the cursor by d items.
func (l *List) Move(d int) { l.SetCursor(l.Cursor + d) }

// PageDown and PageUp move the cursor by a screenful; a list scrolled by
// row moves the view a screenful of rows and the cursor with it.
func (l *List) PageDown() { l.page(max(l.height, 1), l.Visible()) }

// PageUp moves the cursor up a screenful.
func (l *List) PageUp() { l.page(-max(l.height, 1), -l.Visible()) }

// HalfPage is half a screenful of items, at least one.
func (l *List) HalfPage() int { return max(l.Visible()/2, 1) }

// HalfPageDown moves the cursor down half a screenful.
func (l *List) HalfPageDown() { l.page(max(l.height/2, 1), l.HalfPage()) }

// HalfPageUp moves the cursor up half a screenful.
func (l *List) HalfPageUp() { l.page(-max(l.height/2, 1), -l.HalfPage()) }

// page scrolls rows rows when the list scrolls by row, else moves the
// cursor items items.
func (l *List) page(rows, items int) {
	if l.byRow {
		l.ScrollWithCursor(rows)
		return
	}
	l.Move(items)
}

// Top puts the cursor on the first item and the view at the top.
func (l *List) Top() { l.Cursor, l.Offset, l.OffsetRow = 0, 0, 0 }

// Bottom puts the cursor on the last item; a list scrolled by row also
// puts the last row at the bottom.
func (l *List) Bottom() {
	if l.byRow {
		l.bottomByRow()
		return
	}
	l.SetCursor(l.n - 1)
}

// KeepInView clamps the cursor to the items and scrolls as little as
// needed to show it; the view never runs past the last item.
func (l *List) KeepInView() {
	l.Cursor = clampInt(l.Cursor, 0, l.n-1)
	if l.byRow {
		l.keepInViewByRow()
		return
	}
	if l.rowHeight != nil {
		switch {
		case l.Cursor < l.Offset:
			l.Offset = l.Cursor
		case l.Cursor-l.Offset >= l.height || l.LastFull() < l.Cursor:
			l.Offset = l.WalkBack(l.Cursor, l.height)
		}
		l.Offset = clampInt(l.Offset, 0, l.maxOffset())
		return
	}
	vis := l.Visible()
	if l.Cursor < l.Offset {
		l.Offset = l.Cursor
	}
	if l.Cursor >= l.Offset+vis {
		l.Offset = l.Cursor - vis + 1
	}
	l.Offset = clampInt(l.Offset, 0, l.n-vis)
}

// Scroll moves the view by d items, as the mouse wheel does, and leaves
// the cursor where it is; a list scrolled by row moves d rows.
func (l *List) Scroll(d int) {
	if l.byRow {
		l.scrollRows(d)
		return
	}
	l.Offset = clampInt(l.Offset+d, 0, l.maxOffset())
}

// ItemAt is the item drawn at row (0 for the list's first row on screen),
// and whether there is one.
func (l *List) ItemAt(row int) (int, bool) {
	if row < 0 || row >= l.height {
		return 0, false
	}
	if l.byRow {
		row += l.OffsetRow // the rows of the first item above the view
	}
	if l.rowHeight != nil {
		for i := l.Offset; i < l.n; i++ {
			if row -= l.rows(i); row < 0 {
				return i, true
			}
		}
		return 0, false
	}
	i := l.Offset + row/max(l.rowsPer, 1)
	return i, i < l.n
}

// clamp keeps the cursor within the items and the view within the list,
// without scrolling to the cursor.
func (l *List) clamp() {
	if l.byRow {
		l.clampByRow()
		return
	}
	l.Cursor = clampInt(l.Cursor, 0, l.n-1)
	l.Offset = clampInt(l.Offset, 0, l.maxOffset())
}

// MoveKey moves the cursor for the up, down, top and bottom keys and
// reports whether msg was one of them; paging is left to the screen, which
// may page something else beside the list.
func (l *List) MoveKey(msg tea.KeyPressMsg, km KeyMap) bool {
	switch {
	case key.Matches(msg, km.Down):
		l.Move(1)
	case key.Matches(msg, km.Up):
		l.Move(-1)
	case key.Matches(msg, km.Top):
		l.Top()
	case key.Matches(msg, km.Bottom):
		l.Bottom()
	default:
		return false
	}
	return true
}
