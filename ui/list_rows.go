package ui

// A list scrolled by row (SetScrollByRow) is what a text pane with soft
// wrap needs: a line wrapped into more rows than are left on screen is
// shown from its middle rather than jumping whole, so the view's top is a
// row inside item Offset (OffsetRow rows of it above the view), and a page
// or half a page is a number of rows, not of items. Its arithmetic measures
// only the items it passes, a screenful at most, so a source of millions of
// lines is never walked; without SetRowHeight each item is one row and
// nothing is measured at all.

// SetScrollByRow makes the view scroll by row (on) or by whole item.
func (l *List) SetScrollByRow(on bool) {
	l.byRow = on
	l.OffsetRow = 0
	l.clamp()
}

// walkBackRows is the top (item and row within it) that puts the last row
// of item i on the last of h rows, measuring only the items it passes.
func (l *List) walkBackRows(i, h int) (top, topRow int) {
	if l.rowHeight == nil {
		return max(i-h+1, 0), 0
	}
	total := 0
	for j := i; j >= 0; j-- {
		total += l.rows(j)
		if total >= h {
			return j, total - h
		}
	}
	return 0, 0
}

// lastVisibleByRow is the last item with a row on screen.
func (l *List) lastVisibleByRow() int {
	if l.rowHeight == nil {
		return min(l.Offset+l.height, l.n) - 1
	}
	rows := -l.OffsetRow
	for i := l.Offset; i < l.n; i++ {
		rows += l.rows(i)
		if rows >= l.height {
			return i
		}
	}
	return l.n - 1
}

// clampByRow keeps the position inside the items and stops the view from
// scrolling past its last row.
func (l *List) clampByRow() {
	if l.n == 0 {
		l.Offset, l.OffsetRow, l.Cursor = 0, 0, 0
		return
	}
	l.Cursor = clampInt(l.Cursor, 0, l.n-1)
	l.Offset = clampInt(l.Offset, 0, l.n-1)
	if l.rowHeight == nil {
		l.OffsetRow = 0
		l.Offset = clampInt(l.Offset, 0, max(l.n-l.height, 0))
		return
	}
	l.OffsetRow = clampInt(l.OffsetRow, 0, l.rows(l.Offset)-1)
	// Does the view from here fill the screen? Only items on it are measured.
	rows := -l.OffsetRow
	for i := l.Offset; i < l.n && rows < l.height; i++ {
		rows += l.rows(i)
	}
	if rows < l.height && (l.Offset > 0 || l.OffsetRow > 0) {
		l.Offset, l.OffsetRow = l.walkBackRows(l.n-1, l.height)
	}
}

// keepInViewByRow scrolls as little as needed to show the cursor's item,
// its start when it is taller than the screen.
func (l *List) keepInViewByRow() {
	if l.n == 0 || l.height <= 0 {
		return
	}
	if l.Cursor < l.Offset || (l.Cursor == l.Offset && l.OffsetRow > 0) {
		l.Offset, l.OffsetRow = l.Cursor, 0
		l.clampByRow()
		return
	}
	// A cursor a screen's worth of items below the top cannot be on it;
	// skip measuring the items in between.
	if l.Cursor-l.Offset < l.height {
		rows := -l.OffsetRow
		for i := l.Offset; i < l.Cursor; i++ {
			rows += l.rows(i)
		}
		if rows+l.rows(l.Cursor) <= l.height {
			return
		}
		if rows < l.height && l.rows(l.Cursor) > l.height {
			// An item taller than the screen: show its start.
			l.Offset, l.OffsetRow = l.Cursor, 0
			return
		}
	}
	if l.rows(l.Cursor) >= l.height {
		l.Offset, l.OffsetRow = l.Cursor, 0
		return
	}
	l.Offset, l.OffsetRow = l.walkBackRows(l.Cursor, l.height)
}

// scrollRows moves the view's top by d rows, stopping at the first item's
// first row and the last item's first row (clampByRow then pulls the view
// back to a full screen).
func (l *List) scrollRows(d int) {
	switch {
	case l.rowHeight == nil:
		l.Offset += d
	case d > 0:
		for d > 0 && l.Offset < l.n {
			left := l.rows(l.Offset) - l.OffsetRow
			if d < left {
				l.OffsetRow += d
				break
			}
			d -= left
			l.Offset, l.OffsetRow = l.Offset+1, 0
		}
		if l.Offset >= l.n {
			l.Offset, l.OffsetRow = l.n-1, 0
		}
	default:
		for d < 0 {
			if l.OffsetRow >= -d {
				l.OffsetRow += d
				break
			}
			d += l.OffsetRow
			if l.Offset == 0 {
				l.OffsetRow = 0
				break
			}
			l.Offset--
			l.OffsetRow = l.rows(l.Offset)
		}
	}
	l.clampByRow()
}

// scrollWithCursorByRow moves the view by d rows and the cursor by as many
// items as the view moved; at either end the cursor goes to the first or
// the last item.
func (l *List) scrollWithCursorByRow(d int) {
	if l.n == 0 {
		return
	}
	oldTop, oldRow := l.Offset, l.OffsetRow
	l.scrollRows(d)
	switch {
	case l.Offset == oldTop && l.OffsetRow == oldRow && d > 0:
		l.Cursor = l.n - 1
	case l.Offset == oldTop && l.OffsetRow == oldRow && d < 0:
		l.Cursor = 0
	default:
		// The cursor stays on screen, perhaps on an item whose first rows
		// are scrolled off; keepInViewByRow would undo the scroll.
		l.Cursor = clampInt(l.Cursor+l.Offset-oldTop, l.Offset, l.lastVisibleByRow())
	}
}

// bottomByRow puts the cursor on the last item and the last row at the
// bottom, measuring only the items of the last screen.
func (l *List) bottomByRow() {
	if l.n == 0 {
		l.Top()
		return
	}
	l.Cursor = l.n - 1
	l.Offset, l.OffsetRow = l.walkBackRows(l.n-1, l.height)
}
