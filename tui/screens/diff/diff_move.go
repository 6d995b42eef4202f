package diff

import (
	"sort"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/ui"
)

// ---- geometry --------------------------------------------------------------

// listWidth is the file list's width beside the diff; 0 below 100 columns,
// where the list collapses to a one-line header.
func (d *Diff) listWidth() int {
	if d.width < 100 {
		return 0
	}
	return min(max(d.width/4, 28), 48)
}

// paneWidth is the diff pane's width.
func (d *Diff) paneWidth() int {
	if lw := d.listWidth(); lw > 0 {
		return max(d.width-lw-1, 1)
	}
	return max(d.width, 1)
}

// paneHeight is the diff pane's height (below the header when narrow).
func (d *Diff) paneHeight() int {
	if d.listWidth() == 0 {
		return max(d.height-1, 1)
	}
	return max(d.height, 1)
}

// gutterWidth is the cursor marker, both line numbers and the sign.
func (d *Diff) gutterWidth() int { return 1 + 2*d.digits + 4 }

// halfWidth is the width of one side (numbers, sign and text) of a
// side-by-side row; the marker and the divider take the other two cells.
func (d *Diff) halfWidth() int { return max((d.paneWidth()-2)/2, 1) }

// textWidth is the cells left for a line's text.
func (d *Diff) textWidth() int {
	if d.sbs {
		return max(d.halfWidth()-d.digits-3, 1)
	}
	return max(d.paneWidth()-d.gutterWidth(), 1)
}

// rowHeight is how many screen lines row i takes: one, or with wrap on, as
// many as its longest text needs.
func (d *Diff) rowHeight(i int) int {
	if !d.wrap || i < 0 || i >= len(d.rows) || d.rows[i].kind != rowLine {
		return 1
	}
	r := d.rows[i]
	tw := d.textWidth()
	n := d.wrapRowsOf(r.file, r.hunk, r.a, tw)
	if d.sbs {
		n = max(n, d.wrapRowsOf(r.file, r.hunk, r.b, tw))
	}
	return n
}

// wrapRowsOf is how many rows a line's text wraps into (1 for -1).
func (d *Diff) wrapRowsOf(fi, hi, li int32, tw int) int {
	if li < 0 {
		return 1
	}
	return wrappedRows(d.plainText(lineKey{fi, hi, li}), max(tw, 1))
}

// plainLine is a line's text as the highlighter shows it (sanitised, tabs
// expanded) with its width in cells; ascii says every cell is one byte,
// which lets drawing cut it without decoding graphemes.
type plainLine struct {
	text  string
	width int
	ascii bool
}

// plainText is a line's shown text, cached for lines on or near the screen.
func (d *Diff) plainText(k lineKey) plainLine {
	if s, ok := d.plain[k]; ok {
		return s
	}
	if !d.validLine(int(k.file), int(k.hunk), int(k.line)) {
		return plainLine{}
	}
	s := ui.ExpandTabs(ui.Sanitize(d.files[k.file].Hunks[k.hunk].Lines[k.line].Text), 4)
	pl := plainLine{text: s, width: len(s), ascii: isPrintableASCII(s)}
	if !pl.ascii {
		pl.width = ansi.StringWidth(s)
	}
	if d.plain == nil || len(d.plain) > 8192 {
		d.plain = make(map[lineKey]plainLine)
	}
	d.plain[k] = pl
	return pl
}

func isPrintableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// ---- scrolling -------------------------------------------------------------

// syncList tells the list how many rows there are and how high the pane
// is; the rows' heights it asks rowHeight.
func (d *Diff) syncList() {
	d.list.SetLen(len(d.rows))
	d.list.SetHeight(d.paneHeight())
}

// walkBack returns the top row that ends a view h lines high with row i.
func (d *Diff) walkBack(i, h int) int {
	d.syncList()
	return d.list.WalkBack(i, h)
}

// lastVisible is the last row with a line on screen.
func (d *Diff) lastVisible() int {
	d.syncList()
	return d.list.LastVisible()
}

// clampTop keeps the view inside the rows and the screen full at the end.
func (d *Diff) clampTop() { d.syncList() }

// ensureVisible scrolls as little as needed to show the cursor row.
func (d *Diff) ensureVisible() {
	if len(d.rows) == 0 {
		return
	}
	d.syncList()
	d.list.KeepInView()
}

// lastFull is the last row drawn whole when wrapping.
func (d *Diff) lastFull() int {
	d.syncList()
	return d.list.LastFull()
}

// moveCursor puts the cursor on row i.
func (d *Diff) moveCursor(i int) {
	d.list.Cursor = min(max(i, 0), max(len(d.rows)-1, 0))
	d.ensureVisible()
}

// scroll moves the view by n rows and the cursor with it; at either end the
// cursor goes to the first or last row.
func (d *Diff) scroll(n int) {
	d.syncList()
	d.list.ScrollWithCursor(n)
}

// scrollX moves the horizontal offset; wrapped text has none.
func (d *Diff) scrollX(n int) {
	if d.wrap {
		d.xOff = 0
		return
	}
	d.xOff = max(d.xOff+n, 0)
}

// placement says where show puts a row that is off screen.
type placement int

const (
	placeTop placement = iota
	placeCenter
)

// show puts the cursor on row i, scrolling only when it is off screen.
func (d *Diff) show(i int, p placement) {
	if len(d.rows) == 0 {
		return
	}
	d.list.Cursor = min(max(i, 0), len(d.rows)-1)
	if d.list.Cursor >= d.list.Offset && d.list.Cursor <= d.lastFull() {
		return
	}
	d.place(p)
}

// place scrolls so the cursor row is at the top or the middle.
func (d *Diff) place(p placement) {
	if p == placeTop {
		d.list.Offset = d.list.Cursor
	} else {
		h := d.paneHeight()
		d.list.Offset = d.walkBack(d.list.Cursor, d.rowHeight(d.list.Cursor)+(h-1)/2)
	}
	d.clampTop()
	d.ensureVisible()
}

// jump moves to the next (dir 1) or previous (dir -1) row of a sorted index
// (hunk headers, file headers, finding rows), placing it as p says when it
// is off screen.
func (d *Diff) jump(idx []int32, dir int, p placement) {
	k := sort.Search(len(idx), func(i int) bool { return int(idx[i]) > d.list.Cursor })
	if dir < 0 {
		k = sort.Search(len(idx), func(i int) bool { return int(idx[i]) >= d.list.Cursor }) - 1
	}
	if k < 0 || k >= len(idx) {
		return
	}
	d.show(int(idx[k]), p)
}

// ---- positions that survive a relayout ------------------------------------

// diffPos is a place in the diff independent of the row layout.
type diffPos struct {
	kind             rowKind
	file, hunk, line int
	mark             int
}

func (d *Diff) posOf(i int) diffPos {
	r := d.row(i)
	p := diffPos{kind: r.kind, file: int(r.file), hunk: int(r.hunk), line: d.rowLineIndex(r), mark: -1}
	if r.kind == rowFinding {
		p.mark = int(r.b)
	}
	return p
}

// rowOf finds a position's row in the current layout.
func (d *Diff) rowOf(p diffPos) int {
	if p.file < 0 || p.file >= len(d.files) {
		return 0
	}
	switch {
	case p.kind == rowFinding && p.mark >= 0 && p.mark < len(d.markRow):
		return int(d.markRow[p.mark])
	case p.kind == rowNote:
		return int(d.fileRow[p.file]) + 1
	case p.hunk < 0 || p.hunk >= len(d.files[p.file].Hunks):
		return int(d.fileRow[p.file])
	case p.line >= 0 && p.line < len(d.files[p.file].Hunks[p.hunk].Lines):
		return d.lineRow(p.file, p.hunk, p.line)
	}
	return int(d.hunkRow[int(d.hunkBase[p.file])+p.hunk])
}

// lineRow is the row holding line li of a hunk. Unified, it is computed:
// the hunk's header, its lines before li and the finding rows among them.
func (d *Diff) lineRow(f, h, li int) int {
	start := int(d.hunkRow[int(d.hunkBase[f])+h])
	if !d.sbs {
		before := func(line int) int {
			return sort.Search(len(d.marks), func(i int) bool {
				m := d.marks[i]
				return m.file > int32(f) || m.file == int32(f) && (m.hunk > int32(h) || m.hunk == int32(h) && m.line >= int32(line))
			})
		}
		return start + 1 + li + before(li) - before(0)
	}
	for r := start + 1; r < len(d.rows) && d.rows[r].file == int32(f) && d.rows[r].hunk == int32(h); r++ {
		if row := d.rows[r]; row.kind == rowLine && (int(row.a) == li || int(row.b) == li) {
			return r
		}
	}
	return start
}

// setSideBySide switches layout, keeping the cursor on the same line at the
// same place on screen.
func (d *Diff) setSideBySide(on bool) {
	pos, onScreen := d.posOf(d.list.Cursor), d.list.Cursor-d.list.Offset
	d.sbs = on
	d.build()
	d.list.Cursor = d.rowOf(pos)
	d.list.Offset = d.list.Cursor - onScreen
	d.clampTop()
	d.ensureVisible()
	if d.query != "" {
		d.findMatches()
	}
}

// ---- Open and Here ---------------------------------------------------------

// Open goes to a target: a cited line (cursor on it, the cited new-side
// range highlighted, centred), a hunk, a file's header or a new-side line of
// a file, or the first line a finding cites.
func (d *Diff) Open(t common.Target) tea.Cmd {
	d.ensureBuilt()
	if len(d.files) == 0 {
		return nil
	}
	d.hlFile, d.hlFrom, d.hlTo, d.hlHunk, d.hlLine = -1, 0, 0, -1, -1
	f := t.File
	if (f < 0 || f >= len(d.files)) && t.Path != "" {
		f = d.ctx.Packet.Diff.FileIndex(t.Path)
	}
	if f < 0 || f >= len(d.files) {
		if t.Finding == "" {
			return nil
		}
		for mi, m := range d.marks {
			if m.f.ID == t.Finding {
				d.list.Cursor = int(d.markRow[mi])
				d.hlFile, d.hlHunk, d.hlLine = int(m.file), int(m.hunk), int(m.line)
				d.position(t.Offset, placeCenter)
				return nil
			}
		}
		return nil
	}
	file := d.files[f]
	row, header := int(d.fileRow[f]), true
	switch {
	case d.validLine(f, t.Hunk, t.DiffLine):
		row, header = d.lineRow(f, t.Hunk, t.DiffLine), false
		if t.Finding != "" {
			for ; row+1 < len(d.rows) && d.rows[row+1].kind == rowFinding; row++ {
				if d.marks[d.rows[row+1].b].f.ID == t.Finding {
					row++
					break
				}
			}
			if d.rows[row].kind == rowFinding && d.marks[d.rows[row].b].f.ID != t.Finding {
				row = d.lineRow(f, t.Hunk, t.DiffLine)
			}
		}
		if t.Line <= 0 {
			d.hlFile, d.hlHunk, d.hlLine = f, t.Hunk, t.DiffLine
		}
	case t.Hunk >= 0 && t.Hunk < len(file.Hunks):
		row = int(d.hunkRow[int(d.hunkBase[f])+t.Hunk])
	case t.Line > 0:
		for hi, h := range file.Hunks {
			if t.Line >= h.NewStart && t.Line < h.NewStart+max(h.NewLines, 1) {
				for li := range h.Lines {
					if h.Lines[li].New == t.Line {
						row, header = d.lineRow(f, hi, li), false
						break
					}
				}
			}
		}
	}
	if t.Line > 0 {
		d.hlFile, d.hlFrom, d.hlTo = f, t.Line, max(t.EndLine, t.Line)
	}
	d.list.Cursor = row
	if header {
		d.position(t.Offset, placeTop)
	} else {
		d.position(t.Offset, placeCenter)
	}
	return nil
}

// position scrolls after Open: to a remembered offset when there is one,
// else to the start when the cursor is on the first screen, else the cursor
// row at the top or the middle.
func (d *Diff) position(offset int, p placement) {
	d.clampTop()
	switch {
	case offset > 0:
		d.list.Offset = offset
		d.clampTop()
		d.ensureVisible()
	case p == placeCenter && d.walkBack(d.list.Cursor, d.paneHeight()) == 0:
		d.list.Offset = 0
		d.ensureVisible()
	default:
		d.place(p)
	}
}

// Here is the cursor's file, hunk, line (and finding, on a finding row),
// the highlighted range and the scroll offset, so Open restores it.
func (d *Diff) Here() common.Target {
	d.ensureBuilt()
	t := common.Target{Screen: common.ScreenDiff, File: -1, Hunk: -1, DiffLine: -1, Offset: d.list.Offset}
	if len(d.files) == 0 {
		return t
	}
	r := d.row(d.list.Cursor)
	t.File, t.Path = int(r.file), d.files[r.file].Path()
	if r.kind != rowFile && r.kind != rowNote {
		t.Hunk = int(r.hunk)
	}
	if li := d.rowLineIndex(r); li >= 0 {
		t.DiffLine = li
	}
	if r.kind == rowFinding {
		t.Finding = d.marks[r.b].f.ID
	}
	if d.hlFile == t.File && d.hlFrom > 0 {
		t.Line, t.EndLine = d.hlFrom, d.hlTo
	}
	return t
}

// ---- search ----------------------------------------------------------------

// Search finds query (case-insensitively) in the lines' text and moves to
// the first match at or after the cursor; it returns the number of
// matching rows.
func (d *Diff) Search(query string) int {
	d.ensureBuilt()
	d.query = query
	d.matches = nil
	if query == "" {
		return 0
	}
	d.findMatches()
	if len(d.matches) == 0 {
		return 0
	}
	k := sort.Search(len(d.matches), func(i int) bool { return int(d.matches[i]) >= d.list.Cursor })
	if k == len(d.matches) {
		k = 0
	}
	d.show(int(d.matches[k]), placeCenter)
	return len(d.matches)
}

// findMatches scans every line row once: no allocation per line.
func (d *Diff) findMatches() {
	q := d.query
	lower := strings.ToLower(q)
	d.matches = d.matches[:0]
	hit := func(r diffRow, li int32) bool {
		if li < 0 {
			return false
		}
		return containsFold(d.files[r.file].Hunks[r.hunk].Lines[li].Text, q, lower)
	}
	for i, r := range d.rows {
		if r.kind != rowLine {
			continue
		}
		if hit(r, r.a) || d.sbs && r.b != r.a && hit(r, r.b) {
			d.matches = append(d.matches, int32(i))
		}
	}
}

// NextMatch moves to the next (dir 1) or previous (dir -1) match, wrapping.
func (d *Diff) NextMatch(dir int) {
	d.ensureBuilt()
	if len(d.matches) == 0 {
		return
	}
	var k int
	if dir >= 0 {
		k = sort.Search(len(d.matches), func(i int) bool { return int(d.matches[i]) > d.list.Cursor })
		if k == len(d.matches) {
			k = 0
		}
	} else {
		k = sort.Search(len(d.matches), func(i int) bool { return int(d.matches[i]) >= d.list.Cursor }) - 1
		if k < 0 {
			k = len(d.matches) - 1
		}
	}
	d.show(int(d.matches[k]), placeCenter)
}

// isMatch reports whether row i is a search match.
func (d *Diff) isMatch(i int) bool {
	k := sort.Search(len(d.matches), func(x int) bool { return int(d.matches[x]) >= i })
	return k < len(d.matches) && int(d.matches[k]) == i
}

// containsFold is a case-insensitive strings.Contains that allocates
// nothing for an ASCII query; lower is the query lower-cased.
func containsFold(s, q, lower string) bool {
	if len(q) == 0 {
		return true
	}
	for i := 0; i < len(q); i++ {
		if q[i] >= utf8.RuneSelf {
			return strings.Contains(strings.ToLower(s), lower)
		}
	}
	first, upper := lower[0], lower[0]
	if 'a' <= first && first <= 'z' {
		upper = first - ('a' - 'A')
	}
	for i := 0; i+len(lower) <= len(s); i++ {
		// Jump to the next place the first byte occurs, in either case.
		j := strings.IndexByte(s[i:], first)
		if upper != first {
			if k := strings.IndexByte(s[i:], upper); k >= 0 && (j < 0 || k < j) {
				j = k
			}
		}
		if j < 0 {
			return false
		}
		i += j
		if i+len(lower) > len(s) {
			return false
		}
		k := 1
		for ; k < len(lower); k++ {
			c := s[i+k]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != lower[k] {
				break
			}
		}
		if k == len(lower) {
			return true
		}
	}
	return false
}
