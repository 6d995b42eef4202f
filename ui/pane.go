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

	// l is the cursor line and the view's top, scrolled by row: its top
	// is a row inside a line only when wrapping splits that line.
	l       List
	xOffset int

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
	return Pane{st: st, src: Lines(nil), l: List{byRow: true}, showCursor: true, hlStart: -1, hlEnd: -1}
}

// list is the pane's List brought up to date with the source, which may
// have grown since (a log still being indexed), and with the wrap: lines
// are measured only while wrapping. It is refreshed on every use rather
// than kept, since a Pane is copied by value and a kept method value would
// measure the copy it was taken from.
func (p *Pane) list() *List {
	p.l.n = p.src.Len()
	p.l.height = p.height
	p.l.rowHeight = nil
	if p.wrap {
		p.l.rowHeight = p.rowCount
	}
	return &p.l
}

// SetSource replaces the lines and puts the view at the top.
func (p *Pane) SetSource(src LineSource) {
	if src == nil {
		src = Lines(nil)
	}
	p.src = src
	p.l.Top()
	p.xOffset = 0
	p.Invalidate()
}

// Invalidate drops drawn rows, for a source whose lines changed in place.
// A source that only grew (a log still being indexed) needs no call.
func (p *Pane) Invalidate() { p.rows = nil }

// relayout follows a change of the text width: rows are redrawn and, when
// wrapping, the cursor line may have moved off screen.
func (p *Pane) relayout() {
	p.Invalidate()
	p.list().clamp()
	p.l.KeepInView()
}

// SetSize sets the outer size in cells, gutter included.
func (p *Pane) SetSize(width, height int) {
	if width != p.width {
		p.Invalidate()
	}
	p.width, p.height = max(width, 0), max(height, 0)
	p.list().clamp()
	p.l.KeepInView()
}

// Width and Height return the size given to SetSize.
func (p *Pane) Width() int  { return p.width }
func (p *Pane) Height() int { return p.height }

// SetWrap turns soft wrapping on or off.
func (p *Pane) SetWrap(on bool) {
	if on != p.wrap {
		p.wrap = on
		p.l.OffsetRow = 0
		p.Invalidate()
		p.list().clamp()
		p.l.KeepInView()
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
func (p *Pane) Cursor() int { return p.l.Cursor }

// Offset is the first line on screen.
func (p *Pane) Offset() int { return p.l.Offset }

// LineAt is the line drawn on row (0 for the pane's top row), and whether
// there is one.
func (p *Pane) LineAt(row int) (int, bool) { return p.list().ItemAt(row) }

// XOffset is the number of columns scrolled off to the left.
func (p *Pane) XOffset() int { return p.xOffset }

// SetCursor moves the cursor to line i and scrolls as little as needed to
// show it.
func (p *Pane) SetCursor(i int) { p.list().SetCursor(i) }

// ScrollTo puts line i at the top of the view (as far as the end allows)
// and the cursor on it.
func (p *Pane) ScrollTo(i int) {
	l := p.list()
	i = clampInt(i, 0, l.n-1)
	l.Offset, l.OffsetRow, l.Cursor = i, 0, i
	l.clamp()
}

// CenterOn puts the cursor on line i with the line near the middle of the
// view, which is where a followed citation should land.
func (p *Pane) CenterOn(i int) {
	l := p.list()
	i = clampInt(i, 0, l.n-1)
	l.Cursor = i
	l.Offset, l.OffsetRow = l.walkBackRows(i, l.rows(i)+(p.height-1)/2)
	l.clamp()
	l.KeepInView()
}

// CursorDown moves the cursor one line down.
func (p *Pane) CursorDown() { p.list().Move(1) }

// CursorUp moves the cursor one line up.
func (p *Pane) CursorUp() { p.list().Move(-1) }

// PageDown scrolls a screen of rows down, the cursor moving with the view.
func (p *Pane) PageDown() { p.list().PageDown() }

// PageUp scrolls a screen up.
func (p *Pane) PageUp() { p.list().PageUp() }

// HalfPageDown scrolls half a screen down.
func (p *Pane) HalfPageDown() { p.list().HalfPageDown() }

// HalfPageUp scrolls half a screen up.
func (p *Pane) HalfPageUp() { p.list().HalfPageUp() }

// Top goes to the first line.
func (p *Pane) Top() { p.l.Top() }

// Bottom goes to the last line, touching only the lines of the last page.
func (p *Pane) Bottom() { p.list().Bottom() }

// AtBottom reports whether the last line is on screen.
func (p *Pane) AtBottom() bool {
	l := p.list()
	return l.n == 0 || l.LastVisible() >= l.n-1
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
		return p.l.Cursor, false
	}
	if limit <= 0 || limit > n {
		limit = n
	}
	step := 1
	if dir < 0 {
		step = -1
	}
	i := p.l.Cursor
	for range limit {
		i = (i + step + n) % n
		if p.match(i) {
			p.CenterOn(i)
			return i, true
		}
	}
	return p.l.Cursor, false
}

// HandleKey applies the scrolling bindings of km to the pane and reports
// whether msg was one of them.
func (p *Pane) HandleKey(msg tea.KeyPressMsg, km KeyMap) bool {
	switch {
	case p.list().MoveKey(msg, km): // up, down, top, bottom
	case key.Matches(msg, km.HalfPageDown):
		p.HalfPageDown()
	case key.Matches(msg, km.HalfPageUp):
		p.HalfPageUp()
	case key.Matches(msg, km.PageDown):
		p.PageDown()
	case key.Matches(msg, km.PageUp):
		p.PageUp()
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
		p.list().clamp()
		p.l.KeepInView()
	} else {
		p.list().clamp()
	}
	n := p.src.Len()
	blank := strings.Repeat(" ", p.width)
	out := make([]string, 0, p.height)
	if p.rows != nil && len(p.rows) > 4*p.height+16 {
		p.rows = nil // keep the cache to about a screen's worth
	}
	for i, skip := p.l.Offset, p.l.OffsetRow; i < n && len(out) < p.height; i, skip = i+1, 0 {
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
	case p.showCursor && i == p.l.Cursor:
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
		if i == p.l.Cursor && p.showCursor {
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
