package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/ui"
)

// rowList is a short list of pre-drawn rows of which some lead somewhere:
// the overview and the decision screen. The cursor moves between the rows
// that lead somewhere; the rest are text around them.
type rowList struct {
	rows          []listRow
	scrolling     ui.List // the cursor's row and the first row on screen
	width, height int
	query         string
}

type listRow struct {
	text   string         // styled
	target *common.Target // nil: not selectable
	item   int            // the owner's index for the row, -1 when none
}

// setRows replaces the rows, keeping the cursor on a selectable row.
func (l *rowList) setRows(rows []listRow) {
	l.rows = rows
	if l.scrolling.Cursor >= len(rows) || rows[l.scrolling.Cursor].target == nil {
		l.scrolling.Cursor = l.next(-1, 1)
	}
}

// next is the next selectable row from from in direction dir, or from.
func (l *rowList) next(from, dir int) int {
	for i := from + dir; i >= 0 && i < len(l.rows); i += dir {
		if l.rows[i].target != nil {
			return i
		}
	}
	if from >= 0 && from < len(l.rows) {
		return from
	}
	return 0
}

// selected is the row under the cursor, or nil.
func (l *rowList) selected() *listRow {
	if l.scrolling.Cursor < 0 || l.scrolling.Cursor >= len(l.rows) {
		return nil
	}
	return &l.rows[l.scrolling.Cursor]
}

// handle applies movement keys and the mouse wheel; it reports whether msg
// was one of them.
func (l *rowList) handle(msg tea.Msg, km ui.KeyMap) bool {
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		l.sync()
		if msg.Button == tea.MouseWheelDown {
			l.scrolling.Scroll(3)
		} else if msg.Button == tea.MouseWheelUp {
			l.scrolling.Scroll(-3)
		}
		return true
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, km.Down):
			n := l.next(l.scrolling.Cursor, 1)
			if n == l.scrolling.Cursor {
				// Nothing below to select: scroll, so rows that lead nowhere
				// (a problem in a file outside the packet) can still be read.
				l.sync()
				l.scrolling.Scroll(1)
				return true
			}
			l.scrolling.Cursor = n
		case key.Matches(msg, km.Up):
			l.scrolling.Cursor = l.next(l.scrolling.Cursor, -1)
		case key.Matches(msg, km.Top):
			l.scrolling.Cursor, l.scrolling.Offset = l.next(-1, 1), 0
		case key.Matches(msg, km.Bottom):
			l.scrolling.Cursor = l.next(len(l.rows), -1)
			l.scroll()
			l.scrolling.Scroll(len(l.rows)) // the last rows, selectable or not
			return true
		case key.Matches(msg, km.PageDown, km.HalfPageDown):
			l.sync()
			for range l.scrolling.HalfPage() {
				l.scrolling.Cursor = l.next(l.scrolling.Cursor, 1)
			}
		case key.Matches(msg, km.PageUp, km.HalfPageUp):
			l.sync()
			for range l.scrolling.HalfPage() {
				l.scrolling.Cursor = l.next(l.scrolling.Cursor, -1)
			}
		default:
			return false
		}
		l.scroll()
		return true
	}
	return false
}

// sync tells the view how many rows there are and how many fit.
func (l *rowList) sync() {
	l.scrolling.SetLen(len(l.rows))
	l.scrolling.SetHeight(l.height)
}

// scroll scrolls as little as needed to show the cursor's row.
func (l *rowList) scroll() {
	cur := l.scrolling.Cursor
	l.sync()
	l.scrolling.SetCursor(cur)
}

// restore puts the cursor and the scroll back where a Target remembers them.
func (l *rowList) restore(t common.Target) {
	if t.Offset > 0 || t.Line > 0 {
		l.scrolling.Cursor, l.scrolling.Offset = min(t.Line, max(len(l.rows)-1, 0)), t.Offset
		l.scroll()
	}
}

// view draws the visible rows, the selected one marked.
func (l *rowList) view(st *ui.Styles) string {
	if l.width <= 0 || l.height <= 0 {
		return ""
	}
	out := make([]string, l.height)
	for i := range out {
		r := l.scrolling.Offset + i
		line := ""
		if r < len(l.rows) {
			line = " " + l.rows[r].text
			if r == l.scrolling.Cursor && l.rows[r].target != nil {
				line = st.Selection.Render("▌") + l.rows[r].text
			}
		}
		out[i] = common.Fit(line, l.width)
	}
	return strings.Join(out, "\n")
}

func (l *rowList) matches(i int) bool {
	return l.query != "" && strings.Contains(strings.ToLower(ansi.Strip(l.rows[i].text)), l.query)
}

// search moves to the first row at or after the cursor containing query
// and returns how many rows contain it.
func (l *rowList) search(query string) int {
	l.query = strings.ToLower(query)
	n, first := 0, -1
	for i := range l.rows {
		if l.matches(i) {
			n++
			if first < 0 && i >= l.scrolling.Cursor {
				first = i
			}
		}
	}
	if first >= 0 {
		l.scrolling.Cursor = first
		l.scroll()
	}
	return n
}

// nextMatch moves to the next or previous matching row.
func (l *rowList) nextMatch(dir int) {
	for i := l.scrolling.Cursor + dir; i >= 0 && i < len(l.rows); i += dir {
		if l.matches(i) {
			l.scrolling.Cursor = i
			l.scroll()
			return
		}
	}
}

// listScreen is what every screen made of one rowList shares (the overview,
// the decision, since the last round): drawing, history, search, and the
// movement and follow keys. Each screen embeds it and builds the rows.
type listScreen struct {
	ctx  *common.Context
	id   common.ScreenID
	list rowList
}

// handleList moves the cursor or follows the selected row.
func (l *listScreen) handleList(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, l.ctx.Keys.Follow) {
		if r := l.list.selected(); r != nil && r.target != nil {
			return common.Follow(*r.target)
		}
		return nil
	}
	l.list.handle(msg, l.ctx.Keys)
	return nil
}

// View draws the visible rows.
func (l *listScreen) View() string { return l.list.view(l.ctx.Styles) }

// Open restores a position remembered by Here.
func (l *listScreen) Open(t common.Target) tea.Cmd {
	l.list.restore(t)
	return nil
}

// Here remembers the cursor and the scroll.
func (l *listScreen) Here() common.Target {
	return common.Target{Screen: l.id, Line: l.list.scrolling.Cursor, Offset: l.list.scrolling.Offset, File: -1, Hunk: -1, DiffLine: -1}
}

// Search moves to the first row containing query and counts the rows that do.
func (l *listScreen) Search(query string) int { return l.list.search(query) }

// NextMatch moves to the next or previous matching row.
func (l *listScreen) NextMatch(dir int) { l.list.nextMatch(dir) }
