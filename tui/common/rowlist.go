package common

import (
	"strings"

	"charm.land/bubbles/v2/key"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/ui"
)

// RowList is a short list of pre-drawn rows of which some lead somewhere:
// the overview and the decision screen. The cursor moves between the rows
// that lead somewhere; the rest are text around them.
type RowList struct {
	Rows          []ListRow
	Scrolling     ui.List // the cursor's row and the first row on screen
	Width, Height int
	query         string
}

// ListRow is one row of a RowList: its text, and where it leads.
type ListRow struct {
	Text   string  // styled
	Target *Target // nil: not selectable
	Item   int     // the owner's index for the row, -1 when none
}

// SetRows replaces the rows, keeping the cursor on a selectable row.
func (l *RowList) SetRows(rows []ListRow) {
	l.Rows = rows
	if l.Scrolling.Cursor >= len(rows) || rows[l.Scrolling.Cursor].Target == nil {
		l.Scrolling.Cursor = l.Next(-1, 1)
	}
}

// Next is the next selectable row from from in direction dir, or from.
func (l *RowList) Next(from, dir int) int {
	for i := from + dir; i >= 0 && i < len(l.Rows); i += dir {
		if l.Rows[i].Target != nil {
			return i
		}
	}
	if from >= 0 && from < len(l.Rows) {
		return from
	}
	return 0
}

// Selected is the row under the cursor, or nil.
func (l *RowList) Selected() *ListRow {
	if l.Scrolling.Cursor < 0 || l.Scrolling.Cursor >= len(l.Rows) {
		return nil
	}
	return &l.Rows[l.Scrolling.Cursor]
}

// Handle applies the mouse wheel and the movement keys of Keys; it
// reports whether msg was one of them.
func (l *RowList) Handle(msg tea.Msg, km ui.KeyMap) bool {
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		l.Sync()
		if msg.Button == tea.MouseWheelDown {
			l.Scrolling.Scroll(3)
		} else if msg.Button == tea.MouseWheelUp {
			l.Scrolling.Scroll(-3)
		}
		return true
	case tea.KeyPressMsg:
		_, ok := l.Keys(km).Dispatch(msg)
		return ok
	}
	return false
}

// Keys are the list's movement keys: the cursor moves between the rows
// that lead somewhere.
func (l *RowList) Keys(km ui.KeyMap) KeyTable {
	// move applies a cursor move and scrolls as little as needed to show it.
	move := func(f func()) func(tea.KeyPressMsg) tea.Cmd {
		return func(tea.KeyPressMsg) tea.Cmd {
			f()
			l.Scroll()
			return nil
		}
	}
	return KeyTable{
		{Key: km.Down, Handler: func(tea.KeyPressMsg) tea.Cmd {
			n := l.Next(l.Scrolling.Cursor, 1)
			if n == l.Scrolling.Cursor {
				// Nothing below to select: scroll, so rows that lead nowhere
				// (a problem in a file outside the packet) can still be read.
				l.Sync()
				l.Scrolling.Scroll(1)
				return nil
			}
			l.Scrolling.Cursor = n
			l.Scroll()
			return nil
		}},
		{Key: km.Up, Handler: move(func() { l.Scrolling.Cursor = l.Next(l.Scrolling.Cursor, -1) })},
		{Key: km.Top, Handler: move(func() { l.Scrolling.Cursor, l.Scrolling.Offset = l.Next(-1, 1), 0 })},
		{Key: km.Bottom, Handler: func(tea.KeyPressMsg) tea.Cmd {
			l.Scrolling.Cursor = l.Next(len(l.Rows), -1)
			l.Scroll()
			l.Scrolling.Scroll(len(l.Rows)) // the last rows, selectable or not
			return nil
		}},
		{Key: km.PageDown, Handler: move(func() { l.halfPage(1) })},
		{Key: km.HalfPageDown, Handler: move(func() { l.halfPage(1) })},
		{Key: km.PageUp, Handler: move(func() { l.halfPage(-1) })},
		{Key: km.HalfPageUp, Handler: move(func() { l.halfPage(-1) })},
	}
}

// halfPage moves the cursor half a page of selectable rows in direction dir.
func (l *RowList) halfPage(dir int) {
	l.Sync()
	for range l.Scrolling.HalfPage() {
		l.Scrolling.Cursor = l.Next(l.Scrolling.Cursor, dir)
	}
}

// Sync tells the view how many rows there are and how many fit.
func (l *RowList) Sync() {
	l.Scrolling.SetLen(len(l.Rows))
	l.Scrolling.SetHeight(l.Height)
}

// Scroll scrolls as little as needed to show the cursor's row.
func (l *RowList) Scroll() {
	cur := l.Scrolling.Cursor
	l.Sync()
	l.Scrolling.SetCursor(cur)
}

// Restore puts the cursor and the scroll back where a Target remembers them.
func (l *RowList) Restore(t Target) {
	if t.Offset > 0 || t.Line > 0 {
		l.Scrolling.Cursor, l.Scrolling.Offset = min(t.Line, max(len(l.Rows)-1, 0)), t.Offset
		l.Scroll()
	}
}

// View draws the visible rows, the selected one marked.
func (l *RowList) View(st *ui.Styles) string {
	if l.Width <= 0 || l.Height <= 0 {
		return ""
	}
	out := make([]string, l.Height)
	for i := range out {
		r := l.Scrolling.Offset + i
		line := ""
		if r < len(l.Rows) {
			line = " " + l.Rows[r].Text
			if r == l.Scrolling.Cursor && l.Rows[r].Target != nil {
				line = st.Selection.Render("▌") + l.Rows[r].Text
			}
		}
		out[i] = Fit(line, l.Width)
	}
	return strings.Join(out, "\n")
}

func (l *RowList) matches(i int) bool {
	return l.query != "" && strings.Contains(strings.ToLower(ansi.Strip(l.Rows[i].Text)), l.query)
}

// Search moves to the first row at or after the cursor containing query
// and returns how many rows contain it.
func (l *RowList) Search(query string) int {
	l.query = strings.ToLower(query)
	n, first := 0, -1
	for i := range l.Rows {
		if l.matches(i) {
			n++
			if first < 0 && i >= l.Scrolling.Cursor {
				first = i
			}
		}
	}
	if first >= 0 {
		l.Scrolling.Cursor = first
		l.Scroll()
	}
	return n
}

// NextMatch moves to the next or previous matching row.
func (l *RowList) NextMatch(dir int) {
	for i := l.Scrolling.Cursor + dir; i >= 0 && i < len(l.Rows); i += dir {
		if l.matches(i) {
			l.Scrolling.Cursor = i
			l.Scroll()
			return
		}
	}
}

// ListScreen is what every screen made of one RowList shares (the overview,
// the decision, since the last round): drawing, history, search, and the
// movement and follow keys. Each screen embeds it and builds the rows.
type ListScreen struct {
	Ctx  *Context
	ID   ScreenID
	List RowList
}

// Keys are the list's keys: follow the selected row, then the movement
// keys. A screen made of a list puts its own keys before these.
func (l *ListScreen) Keys() KeyTable {
	return append(KeyTable{{Key: l.Ctx.Keys.Follow, Handler: func(tea.KeyPressMsg) tea.Cmd { return l.FollowSelected() }}},
		l.List.Keys(l.Ctx.Keys)...)
}

// Bindings are the keys that work here: the key table's.
func (l *ListScreen) Bindings() []key.Binding { return l.Keys().Keys() }

// FollowSelected follows the selected row, if it leads somewhere.
func (l *ListScreen) FollowSelected() tea.Cmd {
	if r := l.List.Selected(); r != nil && r.Target != nil {
		return Follow(*r.Target)
	}
	return nil
}

// HandleList moves the cursor or follows the selected row.
func (l *ListScreen) HandleList(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		cmd, _ := l.Keys().Dispatch(k)
		return cmd
	}
	l.List.Handle(msg, l.Ctx.Keys)
	return nil
}

// View draws the visible rows.
func (l *ListScreen) View() string { return l.List.View(l.Ctx.Styles) }

// Open restores a position remembered by Here.
func (l *ListScreen) Open(t Target) tea.Cmd {
	l.List.Restore(t)
	return nil
}

// Here remembers the cursor and the scroll.
func (l *ListScreen) Here() Target {
	return Target{Screen: l.ID, Line: l.List.Scrolling.Cursor, Offset: l.List.Scrolling.Offset, File: -1, Hunk: -1, DiffLine: -1}
}

// Search moves to the first row containing query and counts the rows that do.
func (l *ListScreen) Search(query string) int { return l.List.Search(query) }

// NextMatch moves to the next or previous matching row.
func (l *ListScreen) NextMatch(dir int) { l.List.NextMatch(dir) }
