package ui

import (
	"bytes"
	"io"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// LineSource gives a pane its lines. Line(i) returns text already
// sanitised and styled, without a newline; the pane asks only for the lines
// it draws, so a source can index a file of millions of lines and read each
// on demand.
type LineSource interface {
	Len() int
	Line(i int) string
}

// Lines is a LineSource over a slice.
type Lines []string

// Len is the number of lines.
func (l Lines) Len() int { return len(l) }

// Line returns line i.
func (l Lines) Line(i int) string { return l[i] }

// LineFunc is a LineSource backed by two callbacks.
type LineFunc struct {
	N  func() int
	At func(i int) string
}

// Len is the number of lines.
func (f LineFunc) Len() int { return f.N() }

// Line returns line i.
func (f LineFunc) Line(i int) string { return f.At(i) }

// tabWidth is the tab stop vetter uses everywhere.
const tabWidth = 4

// Pane is a virtualised view over a LineSource: it draws only the rows on
// screen and never measures a line that is not on it. It keeps a cursor
// line, an optional gutter of line numbers, a horizontal offset, soft wrap,
// a highlighted line range and search-match marks. The zero value is not
// ready: build one with NewPane.
type Pane struct {
	st  *Styles
	src LineSource

	width, height int

	// The view's top is row topRow of line top (topRow > 0 only when
	// wrapping splits that line into several rows).
	top, topRow int
	cursor      int
	xOffset     int

	wrap       bool
	gutter     bool
	showCursor bool

	hlStart, hlEnd int // highlighted lines [hlStart, hlEnd)
	match          func(i int) bool

	// rows caches the drawn rows of lines on or near the screen; it is
	// dropped whenever what a line looks like may have changed.
	rows   map[int][]string
	rowsTW int // the text width rows was drawn at
}

// NewPane returns an empty pane drawing with st.
func NewPane(st *Styles) Pane {
	return Pane{st: st, src: Lines(nil), showCursor: true, hlStart: -1, hlEnd: -1}
}

// SetSource replaces the lines and puts the view at the top.
func (p *Pane) SetSource(src LineSource) {
	if src == nil {
		src = Lines(nil)
	}
	p.src = src
	p.top, p.topRow, p.cursor, p.xOffset = 0, 0, 0, 0
	p.Invalidate()
}

// Invalidate drops drawn rows, for a source whose lines changed in place.
// A source that only grew (a log still being indexed) needs no call.
func (p *Pane) Invalidate() { p.rows = nil }

// relayout follows a change of the text width: rows are redrawn and, when
// wrapping, the cursor line may have moved off screen.
func (p *Pane) relayout() {
	p.Invalidate()
	p.clamp()
	p.ensureCursorVisible()
}

// SetSize sets the outer size in cells, gutter included.
func (p *Pane) SetSize(width, height int) {
	if width != p.width {
		p.Invalidate()
	}
	p.width, p.height = max(width, 0), max(height, 0)
	p.clamp()
	p.ensureCursorVisible()
}

// Width and Height return the size given to SetSize.
func (p *Pane) Width() int  { return p.width }
func (p *Pane) Height() int { return p.height }

// SetWrap turns soft wrapping on or off.
func (p *Pane) SetWrap(on bool) {
	if on != p.wrap {
		p.wrap = on
		p.topRow = 0
		p.Invalidate()
		p.clamp()
		p.ensureCursorVisible()
	}
}

// ToggleWrap flips soft wrapping.
func (p *Pane) ToggleWrap() { p.SetWrap(!p.wrap) }

// Wrap reports whether lines are soft-wrapped.
func (p *Pane) Wrap() bool { return p.wrap }

// SetGutter shows or hides line numbers.
func (p *Pane) SetGutter(on bool) {
	if on != p.gutter {
		p.gutter = on
		p.relayout()
	}
}

// SetShowCursor shows or hides the cursor marker. A pane without a cursor
// (a rendered document) still scrolls by it.
func (p *Pane) SetShowCursor(on bool) {
	if on != p.showCursor {
		p.showCursor = on
		p.relayout()
	}
}

// SetHighlight marks lines [start, end) (a cited range); end <= start
// clears it.
func (p *Pane) SetHighlight(start, end int) {
	if end <= start {
		start, end = -1, -1
	}
	before := p.gutterWidth()
	p.hlStart, p.hlEnd = start, end
	if p.gutterWidth() != before {
		p.relayout()
	}
}

// SetMatch sets the function that says which lines match the current
// search; nil clears it. It is called only for lines on screen and by
// FindMatch.
func (p *Pane) SetMatch(match func(i int) bool) { p.match = match }

// Len is the number of lines in the source.
func (p *Pane) Len() int { return p.src.Len() }

// Cursor is the cursor line.
func (p *Pane) Cursor() int { return p.cursor }

// Offset is the first line on screen.
func (p *Pane) Offset() int { return p.top }

// XOffset is the number of columns scrolled off to the left.
func (p *Pane) XOffset() int { return p.xOffset }

// SetCursor moves the cursor to line i and scrolls as little as needed to
// show it.
func (p *Pane) SetCursor(i int) {
	p.cursor = clampInt(i, 0, p.src.Len()-1)
	p.ensureCursorVisible()
}

// ScrollTo puts line i at the top of the view (as far as the end allows)
// and the cursor on it.
func (p *Pane) ScrollTo(i int) {
	i = clampInt(i, 0, p.src.Len()-1)
	p.top, p.topRow, p.cursor = i, 0, i
	p.clamp()
}

// CenterOn puts the cursor on line i with the line near the middle of the
// view, which is where a followed citation should land.
func (p *Pane) CenterOn(i int) {
	i = clampInt(i, 0, p.src.Len()-1)
	p.cursor = i
	p.top, p.topRow = p.walkBack(i, p.rowCount(i)+(p.height-1)/2)
	p.clamp()
	p.ensureCursorVisible()
}

// CursorDown moves the cursor one line down.
func (p *Pane) CursorDown() { p.SetCursor(p.cursor + 1) }

// CursorUp moves the cursor one line up.
func (p *Pane) CursorUp() { p.SetCursor(p.cursor - 1) }

// PageDown scrolls a screen down, the cursor moving with the view.
func (p *Pane) PageDown() { p.scrollRows(max(p.height, 1)) }

// PageUp scrolls a screen up.
func (p *Pane) PageUp() { p.scrollRows(-max(p.height, 1)) }

// HalfPageDown scrolls half a screen down.
func (p *Pane) HalfPageDown() { p.scrollRows(max(p.height/2, 1)) }

// HalfPageUp scrolls half a screen up.
func (p *Pane) HalfPageUp() { p.scrollRows(-max(p.height/2, 1)) }

// Top goes to the first line.
func (p *Pane) Top() { p.top, p.topRow, p.cursor = 0, 0, 0 }

// Bottom goes to the last line, touching only the lines of the last page.
func (p *Pane) Bottom() {
	n := p.src.Len()
	if n == 0 {
		p.Top()
		return
	}
	p.cursor = n - 1
	p.top, p.topRow = p.walkBack(n-1, p.height)
}

// AtBottom reports whether the last line is on screen.
func (p *Pane) AtBottom() bool {
	n := p.src.Len()
	return n == 0 || p.lastVisible() >= n-1
}

// ScrollLeft and ScrollRight move the horizontal offset by n columns; they
// do nothing while wrapping.
func (p *Pane) ScrollLeft(n int) { p.SetXOffset(p.xOffset - n) }

// ScrollRight moves the horizontal offset right by n columns.
func (p *Pane) ScrollRight(n int) { p.SetXOffset(p.xOffset + n) }

// SetXOffset sets the number of columns scrolled off to the left.
func (p *Pane) SetXOffset(x int) {
	x = max(x, 0)
	if p.wrap {
		x = 0
	}
	if x != p.xOffset {
		p.xOffset = x
		p.Invalidate()
	}
}

// FindMatch looks for the next (dir > 0) or previous (dir < 0) matching
// line after the cursor, checking at most limit lines (all when limit <= 0),
// and moves the cursor there. It returns the line and whether it found one.
// A view searching a huge log calls it with a limit from a tea.Cmd loop.
func (p *Pane) FindMatch(dir, limit int) (int, bool) {
	n := p.src.Len()
	if p.match == nil || n == 0 {
		return p.cursor, false
	}
	if limit <= 0 || limit > n {
		limit = n
	}
	step := 1
	if dir < 0 {
		step = -1
	}
	i := p.cursor
	for range limit {
		i = (i + step + n) % n
		if p.match(i) {
			p.CenterOn(i)
			return i, true
		}
	}
	return p.cursor, false
}

// HandleKey applies the scrolling bindings of km to the pane and reports
// whether msg was one of them.
func (p *Pane) HandleKey(msg tea.KeyPressMsg, km KeyMap) bool {
	switch {
	case key.Matches(msg, km.Down):
		p.CursorDown()
	case key.Matches(msg, km.Up):
		p.CursorUp()
	case key.Matches(msg, km.HalfPageDown):
		p.HalfPageDown()
	case key.Matches(msg, km.HalfPageUp):
		p.HalfPageUp()
	case key.Matches(msg, km.PageDown):
		p.PageDown()
	case key.Matches(msg, km.PageUp):
		p.PageUp()
	case key.Matches(msg, km.Top):
		p.Top()
	case key.Matches(msg, km.Bottom):
		p.Bottom()
	case key.Matches(msg, km.Left):
		p.ScrollLeft(8)
	case key.Matches(msg, km.Right):
		p.ScrollRight(8)
	default:
		return false
	}
	return true
}

// View draws exactly height rows, each exactly width cells wide.
func (p *Pane) View() string {
	if p.width <= 0 || p.height <= 0 {
		return ""
	}
	gw := p.gutterWidth()
	tw := p.textWidth()
	if tw != p.rowsTW {
		// The width changed under us (the source grew a digit): relayout.
		p.rows, p.rowsTW = nil, tw
		p.clamp()
		p.ensureCursorVisible()
	} else {
		p.clamp()
	}
	n := p.src.Len()
	blank := strings.Repeat(" ", p.width)
	out := make([]string, 0, p.height)
	if p.rows != nil && len(p.rows) > 4*p.height+16 {
		p.rows = nil // keep the cache to about a screen's worth
	}
	for i, skip := p.top, p.topRow; i < n && len(out) < p.height; i, skip = i+1, 0 {
		rows := p.lineRows(i)
		for r := skip; r < len(rows) && len(out) < p.height; r++ {
			var b strings.Builder
			if gw > 0 {
				b.WriteString(p.gutterCell(i, r, gw))
			}
			b.WriteString(rows[r])
			if w := ansi.StringWidth(rows[r]); w < tw {
				b.WriteString(blank[:tw-w])
			}
			out = append(out, b.String())
		}
	}
	for len(out) < p.height {
		out = append(out, blank)
	}
	return strings.Join(out, "\n")
}

// gutterWidth is the marker column plus, with numbers on, the digits of
// the largest line number and a space.
func (p *Pane) gutterWidth() int {
	w := 0
	if p.showCursor || p.gutter || p.hlEnd > p.hlStart {
		w = 1
	}
	// Numbers only while some text still fits beside them; a pane too
	// narrow for even the marker has no gutter.
	if num := len(strconv.Itoa(max(p.src.Len(), 1))) + 1; p.gutter && w+num < p.width {
		w += num
	}
	if w >= p.width {
		w = 0
	}
	return w
}

func (p *Pane) textWidth() int { return max(p.width-p.gutterWidth(), 1) }

func (p *Pane) gutterCell(i, row, gw int) string {
	marker, mstyle := " ", p.st.Gutter
	switch {
	case p.showCursor && i == p.cursor:
		marker, mstyle = "▸", p.st.Cursor
	case i >= p.hlStart && i < p.hlEnd:
		marker, mstyle = "┃", p.st.Highlight
	case p.match != nil && row == 0 && p.match(i):
		marker, mstyle = "•", p.st.Match
	}
	if row > 0 && marker == "▸" {
		marker = "│"
	}
	var b strings.Builder
	b.WriteString(mstyle.Render(marker))
	if gw > 1 {
		num := ""
		if row == 0 {
			num = strconv.Itoa(i + 1)
		}
		pad := gw - 2 - len(num)
		if pad < 0 {
			num, pad = num[len(num)-(gw-2):], 0
		}
		ns := p.st.Gutter
		if i == p.cursor && p.showCursor {
			ns = p.st.GutterCursor
		}
		b.WriteString(strings.Repeat(" ", pad))
		if num != "" {
			b.WriteString(ns.Render(num))
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// lineRows returns the rows line i is drawn as: one row cut to the text
// width at the horizontal offset, or the wrapped rows.
func (p *Pane) lineRows(i int) []string {
	tw := p.textWidth()
	if tw != p.rowsTW {
		p.rows, p.rowsTW = nil, tw
	}
	if rows, ok := p.rows[i]; ok {
		return rows
	}
	line := p.src.Line(i)
	if strings.Contains(line, "\n") {
		line = strings.ReplaceAll(line, "\n", "␤")
	}
	line = ExpandTabs(line, tabWidth)
	var rows []string
	if p.wrap {
		rows = wrapRows(line, tw)
	} else {
		row := line
		if p.xOffset > 0 {
			row = cutLeft(row, p.xOffset)
		}
		if ansi.StringWidth(row) > tw {
			row = ansi.Truncate(row, tw, "…")
		}
		rows = []string{closeStyles(row)}
	}
	if p.rows == nil {
		p.rows = make(map[int][]string)
	}
	p.rows[i] = rows
	return rows
}

// cutLeft drops the first x cells of a styled line, keeping its escape
// sequences so colours still apply, and turning a wide character cut in
// half into spaces so the columns after it stay where they were. (ansi's
// TruncateLeft keeps the whole wide character, shifting the rest.)
func cutLeft(s string, x int) string {
	var (
		b     strings.Builder
		col   int
		state byte
	)
	for len(s) > 0 && col < x {
		seq, w, n, st := ansi.DecodeSequence(s, state, nil)
		state = st
		s = s[n:]
		switch {
		case w == 0:
			if strings.HasPrefix(seq, "\x1b") {
				b.WriteString(seq)
			}
		case col+w > x:
			b.WriteString(strings.Repeat(" ", col+w-x))
		}
		col += w
	}
	b.WriteString(s)
	return b.String()
}

// wrapRows wraps a styled line at width cells, between words where it can
// (a word longer than the row is cut), wide characters moved whole to the
// next row, each row closing and reopening its styles so the gutter never
// inherits them.
func wrapRows(line string, width int) []string {
	if ansi.StringWidth(line) <= width {
		return []string{closeStyles(line)}
	}
	wrapped := ansi.Wrap(line, width, "")
	if strings.Contains(wrapped, "\x1b") {
		var buf bytes.Buffer
		w := lipgloss.NewWrapWriter(&buf)
		_, _ = io.WriteString(w, wrapped)
		_ = w.Close()
		wrapped = buf.String()
	}
	rows := strings.Split(wrapped, "\n")
	for i, r := range rows {
		if ansi.StringWidth(r) > width {
			// Only a character wider than the whole row gets here.
			r = ansi.Truncate(r, width, "")
		}
		rows[i] = closeStyles(r)
	}
	return rows
}

// closeStyles ends a styled row with a reset so its style cannot leak into
// what is drawn after it.
func closeStyles(row string) string {
	if strings.Contains(row, "\x1b") {
		return row + "\x1b[m"
	}
	return row
}

// rowCount is how many rows line i takes.
func (p *Pane) rowCount(i int) int {
	if !p.wrap {
		return 1
	}
	return len(p.lineRows(i))
}

// walkBack returns the top position that puts the last row of line i at
// the bottom of a view rows high, measuring only the lines it passes.
func (p *Pane) walkBack(i, rows int) (top, topRow int) {
	if !p.wrap {
		return max(i-rows+1, 0), 0
	}
	total := 0
	for j := i; j >= 0; j-- {
		total += p.rowCount(j)
		if total >= rows {
			return j, total - rows
		}
	}
	return 0, 0
}

// lastVisible is the last line with a row on screen.
func (p *Pane) lastVisible() int {
	n := p.src.Len()
	if !p.wrap {
		return min(p.top+p.height, n) - 1
	}
	rows := -p.topRow
	for i := p.top; i < n; i++ {
		rows += p.rowCount(i)
		if rows >= p.height {
			return i
		}
	}
	return n - 1
}

// clamp keeps the position inside the source and stops the view from
// scrolling past its last row.
func (p *Pane) clamp() {
	n := p.src.Len()
	if n == 0 {
		p.top, p.topRow, p.cursor = 0, 0, 0
		return
	}
	p.cursor = clampInt(p.cursor, 0, n-1)
	p.top = clampInt(p.top, 0, n-1)
	if !p.wrap {
		p.topRow = 0
		p.top = clampInt(p.top, 0, max(n-p.height, 0))
		return
	}
	p.topRow = clampInt(p.topRow, 0, p.rowCount(p.top)-1)
	// Does the view from here fill the screen? Only lines on it are measured.
	rows := -p.topRow
	for i := p.top; i < n && rows < p.height; i++ {
		rows += p.rowCount(i)
	}
	if rows < p.height && (p.top > 0 || p.topRow > 0) {
		p.top, p.topRow = p.walkBack(n-1, p.height)
	}
}

// ensureCursorVisible scrolls as little as needed to show the cursor line.
func (p *Pane) ensureCursorVisible() {
	if p.src.Len() == 0 || p.height <= 0 {
		return
	}
	if p.cursor < p.top || (p.cursor == p.top && p.topRow > 0) {
		p.top, p.topRow = p.cursor, 0
		p.clamp()
		return
	}
	// A cursor a screen's worth of lines below the top cannot be on it;
	// skip measuring the lines in between.
	if p.cursor-p.top < p.height {
		rows := -p.topRow
		for i := p.top; i < p.cursor; i++ {
			rows += p.rowCount(i)
		}
		if rows+p.rowCount(p.cursor) <= p.height {
			return
		}
		if rows < p.height && p.rowCount(p.cursor) > p.height {
			// A line taller than the screen: show its start.
			p.top, p.topRow = p.cursor, 0
			return
		}
	}
	if p.rowCount(p.cursor) >= p.height {
		p.top, p.topRow = p.cursor, 0
		return
	}
	p.top, p.topRow = p.walkBack(p.cursor, p.height)
}

// scrollRows moves the view by d rows and the cursor by as many lines as
// the view moved; at either end the cursor goes to the first or last line.
func (p *Pane) scrollRows(d int) {
	n := p.src.Len()
	if n == 0 {
		return
	}
	oldTop, oldRow, dir := p.top, p.topRow, d
	if !p.wrap {
		p.top += d
	} else if d > 0 {
		for d > 0 && p.top < n {
			left := p.rowCount(p.top) - p.topRow
			if d < left {
				p.topRow += d
				break
			}
			d -= left
			p.top, p.topRow = p.top+1, 0
		}
		if p.top >= n {
			p.top, p.topRow = n-1, 0
		}
	} else {
		for d < 0 {
			if p.topRow >= -d {
				p.topRow += d
				break
			}
			d += p.topRow
			if p.top == 0 {
				p.topRow = 0
				break
			}
			p.top--
			p.topRow = p.rowCount(p.top)
		}
	}
	p.clamp()
	moved := p.top - oldTop
	switch {
	case p.top == oldTop && p.topRow == oldRow && dir > 0:
		p.cursor = n - 1
	case p.top == oldTop && p.topRow == oldRow && dir < 0:
		p.cursor = 0
	default:
		// The cursor stays on screen, perhaps on a line whose first rows
		// are scrolled off; ensureCursorVisible would undo the scroll.
		p.cursor = clampInt(p.cursor+moved, p.top, p.lastVisible())
	}
}

func clampInt(v, lo, hi int) int {
	if hi < lo {
		return lo
	}
	return min(max(v, lo), hi)
}

// SetStyles draws with st from now on (the terminal's background was
// detected after the pane was made); what was drawn is redrawn.
func (p *Pane) SetStyles(st *Styles) {
	p.st = st
	p.rows = nil
}
