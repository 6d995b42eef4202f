package docs

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/ui"
)

// docsLayout is where the parts of the documents screen go. At 100
// columns and more the list of documents is a column beside the document;
// narrower, it is one row above it. An open outline or citation list sits
// under the document at the document's width, so opening it never changes
// the width the document was rendered at.
type docsLayout struct {
	wide                bool
	sideW, stripH       int
	areaW, areaH        int
	paneH, panelH       int
	panelTop, panelRows int // first row of the panel in the area, and its item rows
}

func (d *Docs) layout() docsLayout {
	l := docsLayout{wide: d.width >= 100}
	if l.wide {
		l.sideW = min(max(d.width/5, 22), 36)
		l.areaW = d.width - l.sideW - 1
	} else {
		l.stripH = 1
		l.areaW = d.width
	}
	l.areaW = max(l.areaW, 0)
	l.areaH = max(d.height-l.stripH, 0)
	if d.panel != panelNone {
		l.panelH = min(max(d.panelLen(), 1)+1, max(l.areaH*2/5, 4))
		l.panelH = max(min(l.panelH, l.areaH-3), 0)
	}
	l.paneH = l.areaH - l.panelH
	l.panelTop = l.paneH
	l.panelRows = max(l.panelH-1, 0)
	return l
}

// sync puts the right lines in the pane for the document, mode and width,
// keeping the reading position when only the form changes, then takes any
// pending position.
func (d *Docs) sync() {
	doc := d.doc()
	if doc == nil {
		d.pane.SetSource(nil)
		d.shown, d.shownPath = shownNone, ""
		return
	}
	w := d.renderWidth()
	if r, ok := d.cache[docsKey{doc.Path, w}]; ok && !d.rend.ready(doc.Path, w) {
		d.rend = r
	}
	want := shownRaw
	if d.mode == docsRendered {
		want = shownInterim
		if d.rend.ready(doc.Path, w) {
			want = shownRendered
		}
	}
	if want == d.shown && d.shownPath == doc.Path && (want != shownRendered || d.shownWidth == w) {
		d.applyPending()
		return
	}
	// Where the reader is, in source lines, to find again in the new form.
	// The cursor is mapped and keeps its distance from the top of the view.
	keep := d.pending == nil && d.shown != shownNone && d.shownPath == doc.Path
	curSrc, rel := d.pane.Cursor(), d.pane.Cursor()-d.pane.Offset()
	if keep && d.shown == shownRendered {
		curSrc = d.view.rowToSrc(curSrc, len(doc.Lines))
	}

	st := d.ctx.Styles
	lines := doc.Lines
	switch want {
	case shownRendered:
		d.view = d.rend
		d.pane.SetSource(ui.Lines(d.view.lines))
		d.pane.SetGutter(false)
		d.pane.SetHighlight(-1, -1)
		d.pane.SetWrap(false)
	case shownRaw:
		d.pane.SetSource(ui.LineFunc{N: func() int { return len(lines) }, At: func(i int) string {
			if i >= d.hlStart && i < d.hlEnd {
				return st.Text(lines[i], st.Highlight)
			}
			return st.Text(lines[i], st.Base)
		}})
		d.pane.SetGutter(true)
		d.pane.SetHighlight(d.hlStart, d.hlEnd)
		d.pane.SetWrap(d.rawWrap)
	case shownInterim:
		d.pane.SetSource(ui.LineFunc{N: func() int { return len(lines) }, At: func(i int) string {
			return st.Text(lines[i], st.Base)
		}})
		d.pane.SetGutter(false)
		d.pane.SetHighlight(-1, -1)
		d.pane.SetWrap(d.rawWrap)
	}
	d.shown, d.shownPath, d.shownWidth = want, doc.Path, w
	if keep {
		cur := curSrc
		if want == shownRendered {
			cur = d.view.srcToRow(curSrc, len(lines))
		}
		d.pane.ScrollTo(max(cur-rel, 0))
		d.pane.SetCursor(cur)
	}
	if d.query != "" {
		d.mark()
	}
	d.applyPending()
}

// applyPending takes the pending position once the pane has a size. In
// rendered mode it is taken on the plain text too, then again, mapped, on
// the rendering; a restore from history waits for the rendering, since
// its rows are the rendering's.
func (d *Docs) applyPending() {
	p := d.pending
	doc := d.doc()
	if p == nil || doc == nil || d.pane.Height() <= 0 || d.shown == shownNone {
		return
	}
	if d.shown == shownInterim && p.kind == pendRestore && !p.src {
		return
	}
	line, cursor := p.line, p.cursor
	if p.src && d.shown == shownRendered {
		line, cursor = d.view.srcToRow(line, len(doc.Lines)), d.view.srcToRow(cursor, len(doc.Lines))
	}
	switch p.kind {
	case pendCenter:
		// The middle of the range goes to the middle of the view, the
		// cursor to its first line.
		d.pane.CenterOn(line + max(cursor-line, 0)/2)
		d.pane.SetCursor(line)
	case pendTop:
		d.pane.ScrollTo(line)
	case pendRestore:
		if p.rel >= 0 {
			line = max(cursor-p.rel, 0)
		}
		d.pane.ScrollTo(line)
		d.pane.SetCursor(cursor)
	}
	if d.shown != shownInterim {
		d.pending = nil
	}
}

// View draws the screen at exactly its size.
func (d *Docs) View() string {
	if d.width <= 0 || d.height <= 0 {
		return ""
	}
	l := d.layout()
	var area []string
	if d.doc() == nil {
		area = []string{common.FitDrawn(d.ctx.Styles.Muted.Render("no documents in this packet"), l.areaW)}
	} else {
		if l.paneH > 0 {
			area = strings.Split(d.pane.View(), "\n")
		}
		if l.panelH > 0 {
			area = append(area, d.panelView(l.areaW, l.panelH)...)
		}
	}
	// The pane's rows and the panel's are exactly the area's width.
	area = common.PadRows(area, l.areaW, l.areaH)
	var rows []string
	if l.wide {
		sep := d.ctx.Styles.Muted.Render("│")
		rows = common.Beside(common.FitRows(d.sidebar(l.sideW), l.sideW, d.height), area, sep)
	} else {
		rows = append([]string{d.strip(d.width)}, area...)
	}
	return strings.Join(common.PadRows(rows, d.width, d.height), "\n")
}

// sidebar is the wide layout's column: the documents, what the selected
// one holds, and the keys of this screen.
func (d *Docs) sidebar(w int) []string {
	st := d.ctx.Styles
	rows := []string{st.Title.Render("Documents")}
	for i, doc := range d.ctx.Packet.Docs {
		if i == d.sel {
			rows = append(rows, st.Cursor.Render("▸ ")+st.Text(doc.Path, st.Selection))
		} else {
			rows = append(rows, "  "+st.Text(doc.Path, st.Base))
		}
	}
	doc := d.doc()
	if doc == nil {
		return rows
	}
	rows = append(rows, "",
		st.Muted.Render(text.PluralOf(len(doc.Lines), "line", "lines")),
		st.Muted.Render(fmt.Sprintf("%d headings", len(doc.Headings))),
		st.Muted.Render(text.PluralOf(len(doc.Citations), "citation", "citations")))
	if doc.Truncated {
		rows = append(rows, st.Warn.Render("cut at the size limit"))
	}
	rows = append(rows, "")
	for _, b := range []struct {
		k    string
		desc string
	}{
		{d.keys.Raw.Help().Key, map[bool]string{true: "rendered view", false: "source view"}[d.mode == docsRaw]},
		{d.keys.Outline.Help().Key, "outline"},
		{d.keys.Citations.Help().Key, "citations"},
		{d.keys.Verdict.Help().Key, "verdict"},
		{d.keys.Outcome.Help().Key, "outcome"},
		{d.keys.PrevDoc.Help().Key + " " + d.keys.NextDoc.Help().Key, "documents"},
	} {
		rows = append(rows, st.HelpKey.Render(common.FitDrawn(b.k, 4))+st.HelpDesc.Render(b.desc))
	}
	return rows
}

// stripItem is one document's place on the narrow layout's top row.
type stripItem struct {
	x0, x1, doc int
}

// stripItems lays the document names out on one row of width w, dropping
// names from the left until the selected one fits.
func (d *Docs) stripItems(w int) (items []stripItem, from int) {
	docs := d.ctx.Packet.Docs
	for from = 0; from <= d.sel; from++ {
		items = items[:0]
		x := 0
		if from > 0 {
			x = 2 // "… "
		}
		for i := from; i < len(docs); i++ {
			nw := ansi.StringWidth(ui.Sanitize(docs[i].Path)) + 2
			items = append(items, stripItem{x0: x, x1: x + nw, doc: i})
			x += nw + 1
		}
		for _, it := range items {
			if it.doc == d.sel && it.x1 <= w {
				return items, from
			}
		}
	}
	return items, from
}

func (d *Docs) strip(w int) string {
	st := d.ctx.Styles
	items, from := d.stripItems(w)
	var b strings.Builder
	if from > 0 {
		b.WriteString(st.Muted.Render("… "))
	}
	for k, it := range items {
		if k > 0 {
			b.WriteString(st.Muted.Render("│"))
		}
		name := d.ctx.Packet.Docs[it.doc].Path
		if it.doc == d.sel {
			b.WriteString(st.Cursor.Render("▸") + st.Text(name, st.Selection) + " ")
		} else {
			b.WriteString(" " + st.Text(name, st.Muted) + " ")
		}
	}
	return common.FitDrawn(b.String(), w)
}

// panelView draws the open outline or citation list, h rows high.
func (d *Docs) panelView(w, h int) []string {
	st := d.ctx.Styles
	doc := d.doc()
	n := d.panelLen()
	d.panelList.SetLen(n)
	d.panelList.SetHeight(h - 1) // below the title row
	d.panelList.KeepInView()

	title, what := "Outline", fmt.Sprintf("%d headings · enter jumps · esc closes", n)
	if d.panel == panelCitations {
		title, what = "Citations", fmt.Sprintf("%d · enter follows · esc closes", n)
	}
	rows := []string{common.FitDrawn(st.Subtitle.Render(title)+st.Muted.Render(" · "+what), w)}
	if n == 0 {
		return append(rows, common.FitDrawn(st.Muted.Render("  none"), w))
	}
	numW := 1
	if d.panel == panelOutline {
		numW = len(strconv.Itoa(doc.Headings[n-1].Line))
	} else {
		numW = len(strconv.Itoa(doc.Citations[n-1].SourceLine))
	}
	textW := 0
	if d.panel == panelCitations {
		for _, c := range doc.Citations {
			textW = max(textW, ansi.StringWidth(ui.Sanitize(c.Text)))
		}
		textW = min(textW, max((w-numW-4)*2/5, 10))
	}
	for i := d.panelList.Offset; i < n && len(rows) < h; i++ {
		selected := i == d.panelList.Cursor
		marker := "  "
		if selected {
			marker = st.Cursor.Render("▸ ")
		}
		var row string
		if d.panel == panelOutline {
			hd := doc.Headings[i]
			style := st.Base
			if selected {
				style = st.Selection
			}
			row = marker + st.Gutter.Render(fmt.Sprintf("%*d ", numW, hd.Line)) +
				strings.Repeat("  ", max(hd.Level-1, 0)) + st.Text(hd.Text, style)
		} else {
			row = marker + d.citationRow(doc.Citations[i], selected, numW, textW)
		}
		rows = append(rows, common.FitDrawn(row, w))
	}
	return rows
}

// citationRow is "line  text  → where it leads", coloured by whether it
// can be followed.
func (d *Docs) citationRow(c packet.Citation, selected bool, numW, textW int) string {
	st := d.ctx.Styles
	textStyle, whereStyle := st.Accent, st.Muted
	switch {
	case !c.Resolved || c.Kind == packet.CiteUnresolved:
		textStyle, whereStyle = st.Error, st.Error
	case c.Kind == packet.CiteExternal:
		textStyle = st.Muted
	}
	if selected {
		textStyle = st.Selection
	}
	return st.Gutter.Render(fmt.Sprintf("%*d ", numW, c.SourceLine)) +
		textStyle.Render(common.FitDrawn(common.ClipPath(ui.Sanitize(c.Text), textW), textW)) + st.Muted.Render(" → ") +
		st.Text(common.WhereCited(c), whereStyle)
}

// click selects a document from the list or an item of the open list.
// Coordinates are the screen body's.
func (d *Docs) click(m tea.Mouse) {
	l := d.layout()
	x, y := m.X, m.Y
	if l.wide {
		if x < l.sideW {
			if y >= 1 && y-1 < len(d.ctx.Packet.Docs) {
				d.selectDoc(y - 1)
			}
			return
		}
		x -= l.sideW + 1
	} else {
		if y == 0 {
			items, _ := d.stripItems(d.width)
			for _, it := range items {
				if x >= it.x0 && x < it.x1 {
					d.selectDoc(it.doc)
				}
			}
			return
		}
		y--
	}
	if d.panel != panelNone && y > l.panelTop && y < l.panelTop+l.panelH {
		if i, ok := d.panelList.ItemAt(y - l.panelTop - 1); ok { // under the title row
			d.panelList.Cursor = i
		}
		return
	}
	if y < l.paneH {
		// The line drawn on that row: with wrap on, a line takes several.
		if i, ok := d.pane.LineAt(y); ok {
			d.pane.SetCursor(i)
		}
	}
}
