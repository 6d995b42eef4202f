package findings

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/ui"
)

// findingsLayout places the list and the detail: side by side from 100
// columns, the list above the detail when narrower.
type findingsLayout struct {
	wide             bool
	listW, listH     int // the list block, header row included
	listRows         int // finding rows on screen
	detailW, detailH int // the detail block: title, text pane, citations
	noteH            int // the triage note's row under the title, 0 or 1
	paneH, citeH     int
}

func (f *Findings) layout() findingsLayout {
	n := len(f.ctx.Packet.Findings)
	l := findingsLayout{wide: f.width >= 100}
	if l.wide {
		l.listW = min(max(f.width/2, 50), 100)
		l.listH = f.height
		l.detailW = max(f.width-l.listW-1, 0)
		l.detailH = f.height
	} else {
		l.listW, l.detailW = f.width, f.width
		l.listH = min(max(f.height/3, 4), n+1)
		l.listH = min(l.listH, f.height)
		l.detailH = max(f.height-l.listH-1, 0) // a rule between them
	}
	l.listRows = max(l.listH-1, 0)
	if fd := f.Selected(); fd != nil {
		l.citeH = min(len(fd.Citations)+1, max(l.detailH/3, 4))
		l.citeH = max(min(l.citeH, l.detailH-3), 0)
	}
	if fd := f.Selected(); fd != nil {
		if _, _, d := review.TriageOf(f.ctx.Packet, fd); d != nil && d.Note != "" {
			l.noteH = 1
		}
	}
	l.paneH = max(l.detailH-1-l.noteH-l.citeH, 0)
	return l
}

// View draws the screen at exactly its size. Only the list rows on screen
// are drawn, each from the packet and its triage state as they are now.
func (f *Findings) View() string {
	if f.width <= 0 || f.height <= 0 {
		return ""
	}
	st := f.ctx.Styles
	if len(f.ctx.Packet.Findings) == 0 {
		return strings.Join(common.FitRows([]string{st.Muted.Render("no findings in " + packet.ReviewFile)}, f.width, f.height), "\n")
	}
	l := f.layout()
	list := f.listView(l)
	detail := f.detailView(l)
	var rows []string
	if l.wide {
		rows = common.Beside(list, detail, st.Muted.Render("│"))
	} else {
		rows = append(list, st.Muted.Render(strings.Repeat("─", f.width)))
		rows = append(rows, detail...)
	}
	// Every part is already exactly its width: only the height is fixed here.
	return strings.Join(common.PadRows(rows, f.width, f.height), "\n")
}

// listColumns are the widths of a list row's cells.
type listColumns struct{ num, badge, loc, claim, state int }

func (f *Findings) columns(w int) listColumns {
	fs := f.ctx.Packet.Findings
	c := listColumns{num: 1, badge: 9, state: 9}
	for _, fd := range fs {
		c.num = max(c.num, len(findingNumber(fd)))
	}
	rest := w - 2 - c.num - c.badge - c.state - 4
	// The location column is as wide as the widest location, up to what
	// leaves the claim a readable share; the claim takes the rest.
	c.loc = min(max(f.locWidth(), 8), max(rest-max(12, rest/2), 8))
	c.claim = max(rest-c.loc, 0)
	return c
}

func (f *Findings) listView(l findingsLayout) []string {
	st := f.ctx.Styles
	fs := f.ctx.Packet.Findings
	cols := f.columns(l.listW)
	if f.claims == nil || len(f.claims) != len(fs) {
		f.claims, f.locs = make([]string, len(fs)), make([]string, len(fs))
	}
	pt := f.paints()
	head := "  " + common.FitPlain("#", cols.num) + " " + common.FitPlain("severity", cols.badge) + " " +
		common.FitPlain("location", cols.loc) + " " + common.FitPlain(fmt.Sprintf("claim (%d)", len(fs)), cols.claim) + " " + "triage"
	rows := []string{common.FitDrawn(st.Muted.Render(head), l.listW)}
	exact := 2+cols.num+1+cols.badge+1+cols.loc+1+cols.claim+1+cols.state == l.listW
	for i := f.list.Offset; i < len(fs) && len(rows) < l.listH; i++ {
		row := f.listRow(i, cols, pt)
		if !exact {
			row = common.FitDrawn(row, l.listW)
		}
		rows = append(rows, row)
	}
	return common.PadRows(rows, l.listW, l.listH)
}

// findingsPaints are the list's styles as prefix/suffix pairs and its
// badges drawn once, for the styles in use.
type findingsPaints struct {
	st                              *ui.Styles
	cursor, cursorDim, match        string
	gutter, accent, base, sel, warn common.CellPaint
	badges                          map[string]string // padded to the badge column
	states                          map[string]common.CellPaint
}

func (f *Findings) paints() *findingsPaints {
	st := f.ctx.Styles
	if f.pt != nil && f.pt.st == st {
		return f.pt
	}
	f.pt = &findingsPaints{st: st,
		cursor: st.Cursor.Render("▸ "), cursorDim: st.Muted.Render("▸ "), match: st.Match.Render("•") + " ",
		gutter: common.NewCellPaint(st.Gutter), accent: common.NewCellPaint(st.Accent), base: common.NewCellPaint(st.Base),
		sel: common.NewCellPaint(st.Selection), warn: common.NewCellPaint(st.Warn),
		badges: map[string]string{}, states: map[string]common.CellPaint{}}
	return f.pt
}

func (pt *findingsPaints) badge(word string, w int) string {
	if b, ok := pt.badges[word]; ok {
		return b
	}
	b := common.FitDrawn(pt.st.SeverityBadge(word), w)
	if len(pt.badges) < 64 { // severities are a handful of words; a hostile packet gets no more room
		pt.badges[word] = b
	}
	return b
}

func (pt *findingsPaints) state(word string) common.CellPaint {
	if p, ok := pt.states[word]; ok {
		return p
	}
	p := common.NewCellPaint(pt.st.Status(word))
	if len(pt.states) < 64 {
		pt.states[word] = p
	}
	return p
}

// listRow draws finding i: number, severity badge, location (its start
// dropped first, keeping the file name and line), claim's first line,
// triage state. Each cell is cut to its column before it is styled.
func (f *Findings) listRow(i int, cols listColumns, pt *findingsPaints) string {
	fd := f.ctx.Packet.Findings[i]
	if f.claims[i] == "" {
		// Backticks are markdown the list does not render; they only
		// take room there.
		f.claims[i] = ui.Sanitize(strings.NewReplacer("`", "", "**", "").Replace(clipRunes(common.FirstTextLine(fd.Claim), 400)))
		if fd.Source != "" {
			// Another reviewer's thread says whose it is.
			f.claims[i] = ui.Sanitize(fd.Source) + ": " + f.claims[i]
			if ts := fd.ThreadState(); ts != "" {
				// Resolved upstream or outdated, said before the claim.
				f.claims[i] = "[" + ui.Sanitize(ts) + "] " + f.claims[i]
			}
		}
		f.locs[i] = ui.Sanitize(clipRunes(fd.Location, 400))
	}
	marker, claim := "  ", pt.base
	switch {
	case i == f.list.Cursor:
		marker, claim = pt.cursor, pt.sel
		if f.focus == focusCitations {
			marker = pt.cursorDim
		}
	case i < len(f.matched) && f.matched[i]:
		marker = pt.match
	}
	if f.marked[fd.ID] {
		// A mark shows even on the selected row: it is what a/x/f/u apply to.
		marker = pt.accent.On("• ")
		if i == f.list.Cursor {
			marker = pt.accent.On("▸•")
		}
	}
	state, stale, _ := review.TriageOf(f.ctx.Packet, fd)
	statePaint := pt.state(state)
	if stale {
		state, statePaint = "stale", pt.warn
	}
	return marker + pt.gutter.On(fmt.Sprintf("%*s", cols.num, findingNumber(fd))) + " " +
		pt.badge(fd.Severity, cols.badge) + " " +
		pt.accent.On(common.FitDrawn(common.ClipPath(f.locs[i], cols.loc), cols.loc)) + " " +
		claim.On(common.FitPlain(f.claims[i], cols.claim)) + " " +
		statePaint.On(common.FitPlain(state, cols.state))
}

// clipRunes keeps at most n runes: a list row never shows more, and
// sanitising a whole megabyte claim per row would not be cheap.
func clipRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	k := 0
	for i := range s {
		if k == n {
			return s[:i]
		}
		k++
	}
	return s
}

// detailView is the selected finding: a title row, its rendered claim and
// evidence, and its citations with where each leads.
func (f *Findings) detailView(l findingsLayout) []string {
	st := f.ctx.Styles
	fd := f.Selected()
	if fd == nil || l.detailH <= 0 {
		return common.PadRows(nil, l.detailW, l.detailH)
	}
	state, stale, _ := review.TriageOf(f.ctx.Packet, fd)
	stateText := st.Status(state).Render(state)
	if stale {
		stateText = st.Warn.Render(state + ", stale: the finding changed since")
	}
	// The location is shortened in its middle to what the rest leaves, so
	// its line number is never the part cut.
	lead := st.Title.Render("Finding "+findingNumber(fd)+" ") + st.SeverityBadge(fd.Severity) + " "
	tail := st.Muted.Render(" · ") + stateText + st.Muted.Render(fmt.Sprintf(" · %s:%d", packet.ReviewFile, fd.Line))
	loc := ui.Sanitize(common.OneLine(fd.Location))
	if ansi.StringWidth(lead)+ansi.StringWidth(loc)+ansi.StringWidth(tail) > l.detailW {
		// The row in review.md goes before any of the location does.
		tail = st.Muted.Render(" · ") + stateText
	}
	loc = common.ClipPath(loc, max(l.detailW-ansi.StringWidth(lead)-ansi.StringWidth(tail), 12))
	title := lead + st.Accent.Render(loc) + tail
	rows := []string{common.FitDrawn(title, l.detailW)}
	if len(fd.Tags) > 0 {
		// A reviewer's badge: its category and effort beside the severity.
		rows = append(rows, common.FitDrawn(st.Muted.Render("tags: ")+st.Text(common.OneLine(strings.Join(fd.Tags, " · ")), st.Base), l.detailW))
	}
	if _, _, d := review.TriageOf(f.ctx.Packet, fd); d != nil && d.Note != "" {
		rows = append(rows, common.FitDrawn(st.Muted.Render("note: ")+st.Text(common.OneLine(d.Note), st.Base), l.detailW))
	}
	if l.paneH > 0 {
		rows = append(rows, strings.Split(f.detail.View(), "\n")...)
	}
	rows = append(rows, f.citationsView(fd, l.detailW, l.citeH)...)
	return common.PadRows(rows, l.detailW, l.detailH)
}

func (f *Findings) citationsView(fd *packet.Finding, w, h int) []string {
	if h <= 0 {
		return nil
	}
	st := f.ctx.Styles
	n := len(fd.Citations)
	hint := " · → to select"
	if f.focus == focusCitations {
		hint = " · enter follows · ← back"
	}
	rows := []string{common.FitDrawn(st.Subtitle.Render(fmt.Sprintf("Citations (%d)", n))+st.Muted.Render(hint), w)}
	if n == 0 {
		return append(rows, common.FitDrawn(st.Muted.Render("  none"), w))
	}
	f.cites.SetLen(n)
	f.cites.SetHeight(max(h-1, 1))
	f.cites.KeepInView()
	textW := 0
	for _, c := range fd.Citations {
		textW = max(textW, ansi.StringWidth(ui.Sanitize(c.Text)))
	}
	textW = min(textW, max((w-6)*2/5, 10))
	for i := f.cites.Offset; i < n && len(rows) < h; i++ {
		c := fd.Citations[i]
		selected := f.focus == focusCitations && i == f.cites.Cursor
		marker := "  "
		if selected {
			marker = st.Cursor.Render("▸ ")
		}
		textStyle, whereStyle := st.Accent, st.Muted
		where := common.WhereCited(c)
		switch {
		case f.ctx.Packet.Partial && !c.Resolved:
			// A preview: the diff and logs it leads to are not read yet.
			where = "…"
		case !c.Resolved || c.Kind == packet.CiteUnresolved:
			textStyle, whereStyle = st.Error, st.Error
		case c.Kind == packet.CiteExternal:
			textStyle = st.Muted
		}
		if selected {
			textStyle = st.Selection
		}
		rows = append(rows, common.FitDrawn(marker+textStyle.Render(common.FitDrawn(common.ClipPath(ui.Sanitize(c.Text), textW), textW))+
			st.Muted.Render(" → ")+st.Text(where, whereStyle), w))
	}
	return rows
}

// wheel scrolls the list or the detail, whichever is under the pointer.
// Coordinates are the screen body's.
func (f *Findings) wheel(m tea.Mouse) {
	l := f.layout()
	inList := (l.wide && m.X < l.listW) || (!l.wide && m.Y < l.listH)
	d := common.WheelStep(m.Button, 3)
	if d == 0 {
		return
	}
	if inList {
		f.move(d)
		return
	}
	if d > 0 {
		f.detail.HalfPageDown()
	} else {
		f.detail.HalfPageUp()
	}
}

// click selects a finding in the list or a citation in the detail.
func (f *Findings) click(m tea.Mouse) {
	l := f.layout()
	x, y := m.X, m.Y
	if (l.wide && x < l.listW) || (!l.wide && y < l.listH) {
		if i, ok := f.list.ItemAt(y - 1); ok { // under the header row
			f.focus = focusList
			f.selectIndex(i)
		}
		return
	}
	if !l.wide {
		y -= l.listH + 1
	}
	// The detail is the title, the note, the text, then the "Citations"
	// row and the citations: the same rows detailView draws.
	first := 1 + l.noteH + l.paneH + 1
	if i, ok := f.cites.ItemAt(y - first); ok && f.Selected() != nil && y-first < l.citeH-1 {
		f.focus, f.cites.Cursor = focusCitations, i
	}
}

// findingNumber is review.md's number for the packet's own findings, and
// "·" for those another reviewer or vetter adds (a thread, what came after
// the packet), which have none.
func findingNumber(fd *packet.Finding) string {
	if fd.Number <= 0 {
		return "·"
	}
	return strconv.Itoa(fd.Number)
}

// locWidth is the width of the widest finding location (sanitised, on one
// line), measured once per packet: the findings list sizes its location
// column to it.
func (f *Findings) locWidth() int {
	if f.locW > 0 && f.locWFor == f.ctx.Packet {
		return f.locW
	}
	w := 1
	for _, fd := range f.ctx.Packet.Findings {
		w = max(w, ansi.StringWidth(ui.Sanitize(common.OneLine(clipRunes(fd.Location, 400)))))
	}
	f.locW, f.locWFor = w, f.ctx.Packet
	return w
}
