package diff

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/ui"
)

// View draws the file list (or, narrow, a one-line file header) beside the
// rows of the diff that are on screen.
func (d *Diff) View() string {
	d.ensureBuilt()
	d.syncHigh()
	if d.width <= 0 || d.height <= 0 {
		return ""
	}
	lw, pw, ph := d.listWidth(), d.paneWidth(), d.height
	if lw == 0 {
		ph-- // below the one-line file header
	}
	pane := d.drawPane(pw, ph)
	out := make([]string, 0, d.height)
	if lw > 0 {
		list := d.drawList(lw, d.height)
		sep := d.sgr().divider
		for i := range d.height {
			out = append(out, list[i]+sep+pane[i])
		}
	} else {
		out = append(out, d.drawHeader(d.width))
		out = append(out, pane...)
	}
	return strings.Join(out, "\n")
}

// drawPane draws the diff rows from the top of the view, exactly h lines of
// w cells.
func (d *Diff) drawPane(w, h int) []string {
	out := make([]string, 0, h)
	if len(d.rows) == 0 && h > 0 {
		msg := "No diff: change.diff is missing or has no files."
		out = append(out, common.Fit(d.ctx.Styles.Muted.Render(" "+msg), w))
	}
	for i := d.list.Offset; i < len(d.rows) && len(out) < h; i++ {
		for _, l := range d.drawRow(i, w) {
			if len(out) < h {
				out = append(out, l)
			}
		}
	}
	blank := strings.Repeat(" ", w)
	for len(out) < h {
		out = append(out, blank)
	}
	return out
}

// drawRow draws row i as one line, or several when a wrapped line needs them.
func (d *Diff) drawRow(i, w int) []string {
	r := d.rows[i]
	mark := d.marker(i, r)
	switch r.kind {
	case rowFile:
		return []string{mark + d.fileHeader(r.file, w-1)}
	case rowNote:
		return []string{mark + common.Fit(d.ctx.Styles.Muted.Render("    "+fileNote(d.files[r.file])), w-1)}
	case rowHunk:
		h := d.files[r.file].Hunks[r.hunk]
		head := fmt.Sprintf("@@ -%d,%d +%d,%d @@", h.OldStart, h.OldLines, h.NewStart, h.NewLines)
		s := " " + d.ctx.Styles.HunkHeader.Render(head)
		if sec := strings.TrimSpace(h.Section); sec != "" {
			s += " " + d.ctx.Styles.Text(sec, d.ctx.Styles.Muted)
		}
		return []string{mark + common.Fit(s, w-1)}
	case rowFinding:
		return []string{mark + d.findingRow(r, w-1)}
	}
	if d.sbs {
		return d.splitLine(i, r, mark, w)
	}
	return d.unifiedLine(i, r, mark, w)
}

// marker is the one-cell column left of every row: the cursor, the cited
// range, or a search match.
func (d *Diff) marker(i int, r diffRow) string {
	switch {
	case i == d.list.Cursor:
		return d.sgr().markCursor
	case d.highlighted(r):
		return d.sgr().markHL
	case d.query != "" && r.kind == rowLine && d.isMatch(i):
		return d.sgr().markMatch
	}
	return " "
}

// highlighted reports whether a line row is inside the range Open cited.
func (d *Diff) highlighted(r diffRow) bool {
	if r.kind != rowLine || int(r.file) != d.hlFile {
		return false
	}
	if d.hlFrom > 0 {
		lines := d.files[r.file].Hunks[r.hunk].Lines
		sides := [2]int32{r.a, -1}
		if d.sbs {
			sides[1] = r.b // unified, b is the emphasis partner, not a side
		}
		for _, li := range sides {
			if li >= 0 {
				if n := lines[li].New; n >= d.hlFrom && n <= d.hlTo {
					return true
				}
			}
		}
		return false
	}
	return int(r.hunk) == d.hlHunk && (int(r.a) == d.hlLine || d.sbs && int(r.b) == d.hlLine)
}

// unifiedLine draws one diff line: marker, old and new numbers, sign, text.
func (d *Diff) unifiedLine(i int, r diffRow, mark string, w int) []string {
	dl := &d.files[r.file].Hunks[r.hunk].Lines[r.a]
	num := d.numberPaint(i, r)
	gutter := mark + num.on(lineNo(dl.Old, d.digits)) + " " + num.on(lineNo(dl.New, d.digits)) + " " +
		d.signOf(dl.Kind) + " "
	tw := max(w-d.gutterWidth(), 1)
	pieces := d.textPieces(lineKey{r.file, r.hunk, r.a}, dl.Kind, r.b, tw)
	out := make([]string, len(pieces))
	cont := " " + strings.Repeat(" ", d.gutterWidth()-1)
	for k, p := range pieces {
		if k == 0 {
			out[k] = gutter + p
		} else {
			out[k] = cont + p
		}
		if d.gutterWidth() > w {
			out[k] = common.Fit(out[k], w)
		}
	}
	return out
}

// numberPaint styles the line numbers of the cursor row and the cited range.
func (d *Diff) numberPaint(i int, r diffRow) paint {
	switch {
	case i == d.list.Cursor:
		return d.sgr().gutterCur
	case d.highlighted(r):
		return d.sgr().highlight
	}
	return d.sgr().gutter
}

func (d *Diff) signOf(k packet.LineKind) string {
	switch k {
	case packet.LineAdded:
		return d.sgr().signAdd
	case packet.LineRemoved:
		return d.sgr().signRem
	}
	return " "
}

func lineNo(n, digits int) string {
	if n <= 0 {
		return strings.Repeat(" ", digits)
	}
	s := strconv.Itoa(n)
	if len(s) >= digits {
		return s
	}
	return strings.Repeat(" ", digits-len(s)) + s
}

// textPieces draws a line's text tw cells wide: the window at the
// horizontal offset, or every wrapped piece.
func (d *Diff) textPieces(k lineKey, kind packet.LineKind, partner int32, tw int) []string {
	pl := d.plainText(k)
	styled, bg := d.styledLine(k, kind, partner)
	if !d.wrap {
		var piece string
		var pw int
		if pl.ascii {
			piece, pw = cutCells(styled, d.xOff, d.xOff+tw, true)
		} else {
			pieces, widths := splitCells(styled, d.xOff, tw, 1)
			piece, pw = pieces[0], widths[0]
		}
		return []string{fillText(piece, pw, tw, bg)}
	}
	// One pass cuts every piece; no more are cut than the screen can show,
	// so a line of a million characters costs what its first screen does.
	n := min(max((pl.width+tw-1)/tw, 1), max(d.height, 1))
	pieces, widths, ok := wordSplit(styled, pl, tw, max(d.height, 1))
	if !ok {
		pieces, widths = splitCells(styled, 0, tw, n)
	}
	out := make([]string, len(pieces))
	for p := range pieces {
		out[p] = fillText(pieces[p], widths[p], tw, bg)
	}
	return out
}

// splitCells cuts a styled line into at most limit pieces tw cells wide,
// starting at cell from, in one pass that stops after the last piece. Each
// piece opens with the SGR sequences in force where it starts, so it can
// be drawn alone; a wide character that would straddle a cut moves to the
// next piece. It always returns at least one (possibly empty) piece.
// Cutting each piece with ansi.Cut instead rescans the whole line per
// piece, which is quadratic in a wrapped line's length.
func splitCells(s string, from, tw, limit int) (pieces []string, widths []int) {
	tw, limit = max(tw, 1), max(limit, 1)
	var (
		b     strings.Builder
		carry string // SGR sequences since the last reset
		col   int    // cell of the line
		w     int    // width of the piece being built
		state byte
	)
	open := false
	start := func() {
		b.Reset()
		b.WriteString(carry)
		w, open = 0, true
	}
	flush := func() {
		pieces = append(pieces, b.String())
		widths = append(widths, w)
		open = false
	}
	for i := 0; i < len(s) && len(pieces) < limit; {
		seq, sw, n, ns := ansi.DecodeSequence(s[i:], state, nil)
		state = ns
		if n <= 0 {
			break
		}
		i += n
		if sw == 0 {
			if len(seq) > 0 && seq[0] == 0x1b {
				if seq == "\x1b[m" || seq == "\x1b[0m" {
					carry = ""
				} else if strings.HasSuffix(seq, "m") {
					carry += seq
				}
				if open {
					b.WriteString(seq)
				}
			}
			continue
		}
		if col < from {
			col += sw
			continue
		}
		if !open {
			start()
		}
		if w+sw > tw && w > 0 {
			flush()
			if len(pieces) == limit {
				break
			}
			start()
		}
		b.WriteString(seq)
		w += sw
		col += sw
	}
	if open || len(pieces) == 0 {
		if !open {
			start()
		}
		flush()
	}
	return pieces, widths
}

// styledLine is a line's text highlighted by file type, on the added or
// removed background, with the words that changed against its partner
// emphasised. It returns the background so padding can continue it.
func (d *Diff) styledLine(k lineKey, kind packet.LineKind, partner int32) (string, string) {
	f := d.files[k.file]
	dl := &f.Hunks[k.hunk].Lines[k.line]
	// A very long line is not highlighted (so not in the highlighter's
	// cache) and would be sanitised and styled again on every frame: keep
	// the last few.
	if len(dl.Text) > longLine {
		if v, ok := d.long[k]; ok {
			return v[0], v[1]
		}
		a, b := d.styleLine(f, dl, k, kind, partner)
		if d.long == nil || len(d.long) >= 8 {
			d.long = map[lineKey][2]string{}
		}
		d.long[k] = [2]string{a, b}
		return a, b
	}
	return d.styleLine(f, dl, k, kind, partner)
}

// longLine is the length past which a styled line is kept between frames.
const longLine = 4096

func (d *Diff) styleLine(f *packet.DiffFile, dl *packet.DiffLine, k lineKey, kind packet.LineKind, partner int32) (string, string) {
	var hl string
	if d.ctx.AsyncHighlight {
		hl, _ = d.ctx.Highlighter.Quick(f.Path(), dl.Text) // PendingCmd colours the rest
	} else {
		hl = d.ctx.Highlighter.Line(f.Path(), dl.Text)
	}
	var bg, em string
	switch kind {
	case packet.LineAdded:
		bg, em = d.sgr().addBg, d.sgr().addEm
	case packet.LineRemoved:
		bg, em = d.sgr().remBg, d.sgr().remEm
	default:
		return hl, ""
	}
	var spans []span
	if partner >= 0 {
		spans = d.emphasis(k, partner, kind == packet.LineRemoved)
	}
	if bg == "" && len(spans) == 0 {
		return hl, ""
	}
	return overlay(hl, spans, bg, em), bg
}

// cutCells is the cells [from, to) of a styled line, its styles kept, and
// the piece's width. A line whose text is printable ASCII is cut byte by
// byte, without decoding graphemes: the common case, drawn every frame.
func cutCells(s string, from, to int, ascii bool) (string, int) {
	if !ascii {
		var piece string
		if from == 0 {
			piece = ansi.Truncate(s, to, "")
		} else {
			piece = ansi.Cut(s, from, to)
		}
		return piece, ansi.StringWidth(piece)
	}
	var b strings.Builder
	b.Grow(min(len(s), 4*(to-from)+64))
	col := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c == 0x1b {
			// Copy every sequence, on screen or not, so the styles in force
			// at the cut are the line's own.
			j := i + 1
			if j < len(s) && s[j] == '[' {
				for j++; j < len(s) && (s[j] < 0x40 || s[j] > 0x7e); j++ {
				}
			}
			j = min(j+1, len(s))
			b.WriteString(s[i:j])
			i = j
			continue
		}
		if col >= to {
			break
		}
		if col >= from {
			b.WriteByte(c)
		}
		col++
		i++
	}
	return b.String(), max(min(col, to)-from, 0)
}

// fillText pads a piece of styled text sw cells wide to w cells,
// continuing bg, and ends every style so nothing leaks into the next cell.
func fillText(s string, sw, w int, bg string) string {
	if sw > w {
		s = ansi.Truncate(s, w, "")
		sw = ansi.StringWidth(s)
	}
	styled := bg != "" || strings.IndexByte(s, 0x1b) >= 0
	if sw < w {
		s += bg + strings.Repeat(" ", w-sw)
	}
	if styled {
		s += ansi.ResetStyle
	}
	return s
}

// truncLeft shortens plain s to w cells by cutting its start, for paths
// whose end says most.
func truncLeft(s string, w int) string {
	sw := ansi.StringWidth(s)
	if sw <= w {
		return s
	}
	if w <= 1 {
		return ansi.Truncate("…", w, "")
	}
	return "…" + ansi.TruncateLeft(s, sw-(w-1), "")
}

// ---- file headers, notes, findings ----------------------------------------

// fileNote says why a file shows no lines.
func fileNote(f *packet.DiffFile) string {
	switch {
	case f.Binary:
		return "binary file, contents not shown"
	case f.ModeOnly:
		return "mode changed " + ui.Sanitize(f.OldMode) + " → " + ui.Sanitize(f.NewMode) + ", contents unchanged"
	case f.Status == packet.StatusRenamed || f.Status == packet.StatusCopied:
		return "contents unchanged"
	}
	return "no lines changed"
}

// fileCounts is what the list and headers show for a file's size.
func (d *Diff) fileCounts(f *packet.DiffFile) string {
	st := d.ctx.Styles
	switch {
	case f.Binary:
		return st.Muted.Render("binary")
	case f.ModeOnly:
		return st.Muted.Render("mode")
	}
	return st.Added.Render("+"+strconv.Itoa(f.Insertions)) + " " + st.Removed.Render("−"+strconv.Itoa(f.Deletions))
}

func (d *Diff) statusStyle(s packet.FileStatus) lipgloss.Style {
	st := d.ctx.Styles
	switch s {
	case packet.StatusAdded:
		return st.OK
	case packet.StatusDeleted:
		return st.Error
	case packet.StatusRenamed, packet.StatusCopied:
		return st.Info
	}
	return st.Accent
}

// fileHeader draws a file's header row w cells wide: status, path (and the
// old one of a rename), counts, findings on it, then a rule.
func (d *Diff) fileHeader(fi int32, w int) string {
	st := d.ctx.Styles
	f := d.files[fi]
	right := "  " + d.fileCounts(f)
	if n := d.high(int(fi)); n > 0 {
		right += "  " + st.Status("high").Render(common.Plural(n, "high item"))
	}
	if n := d.fileFindings[fi]; n > 0 {
		right += "  " + st.Warn.Render(common.Plural(n, "finding"))
	}
	if f.Status == packet.StatusRenamed || f.Status == packet.StatusCopied {
		from := " ← " + ui.Sanitize(f.OldPath)
		if f.Similarity > 0 {
			from += " (" + strconv.Itoa(f.Similarity) + "%)"
		}
		right = st.Muted.Render(from) + right
	}
	status := string(rune(f.Status))
	if f.Status == 0 {
		status = "?"
	}
	room := w - 3 - ansi.StringWidth(right)
	path := truncLeft(ui.SanitizeLine(f.Path()), max(room, 8))
	s := " " + d.statusStyle(f.Status).Bold(true).Render(status) + " " + st.FileHeader.Render(path) + right
	if rest := w - ansi.StringWidth(s) - 1; rest > 0 {
		s += " " + st.Muted.Render(strings.Repeat("─", rest))
	}
	return common.Fit(s, w)
}

// findingRow draws a finding under its line: severity, number, the first
// line of its claim and its triage state, the claim cut to fit.
func (d *Diff) findingRow(r diffRow, w int) string {
	st := d.ctx.Styles
	f := d.marks[r.b].f
	indent := d.gutterWidth() - 1
	if d.sbs {
		indent = d.digits + 3
	}
	indent = min(indent, max(w/4, 0))
	prefix := strings.Repeat(" ", indent) + st.Muted.Render("↳ ") + st.SeverityBadge(f.Severity) + " " +
		st.Accent.Render("#"+strconv.Itoa(f.Number)) + " "
	state, stale, dec := review.TriageOf(d.ctx.Packet, f)
	shown := ui.Sanitize(state) // triage.json is a file like any other
	if stale {
		shown += " (stale)"
	}
	if dec != nil && dec.Note != "" {
		// The note shows wherever the finding does, cut to what fits.
		shown += ": " + ansi.Truncate(ui.SanitizeLine(firstLine(dec.Note)), max(w/4, 12), "…")
	}
	suffix := st.Muted.Render(" · ") + st.Status(state).Render(shown)
	room := w - ansi.StringWidth(prefix) - ansi.StringWidth(suffix)
	claim := ui.Sanitize(firstLine(f.Claim))
	if ansi.StringWidth(claim) > room {
		claim = ansi.Truncate(claim, max(room, 1), "…")
	}
	return common.Fit(prefix+st.Text(claim, st.Base)+suffix, w)
}

// firstLine is the first line of s with runs of space folded.
func firstLine(s string) string {
	if i := strings.IndexAny(s, "\n"); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, "<br>"); i >= 0 {
		s = s[:i]
	}
	return text.OneLine(s)
}

// ---- the file list and the narrow header ----------------------------------

// drawList draws the file list, h lines of w cells: a title, then one entry
// per file with the cursor's file selected and kept on screen.
func (d *Diff) drawList(w, h int) []string {
	st := d.ctx.Styles
	out := make([]string, 0, h)
	title := st.Title.Render(" Files") + st.Muted.Render(" "+strconv.Itoa(len(d.files)))
	if d.ctx.Packet != nil && d.ctx.Packet.Diff != nil {
		dd := d.ctx.Packet.Diff
		title += "  " + st.Added.Render("+"+strconv.Itoa(dd.Insertions)) + " " + st.Removed.Render("−"+strconv.Itoa(dd.Deletions))
	}
	title += d.scanPending()
	out = append(out, common.Fit(title, w))
	sel := int(d.row(d.list.Cursor).file)
	// The file list follows the cursor's file: its own ui.List.
	d.fileList.SetLen(len(d.files))
	d.fileList.SetHeight(h - 1) // under the title
	d.fileList.SetCursor(sel)
	if d.listCacheW != w || d.listCache == nil {
		d.listCache, d.listCacheW = make(map[int]string), w
	}
	for i := d.fileList.Offset; i < len(d.files) && len(out) < h; i++ {
		if i == sel && len(d.rows) > 0 {
			out = append(out, d.listEntry(i, w, true))
			continue
		}
		e, ok := d.listCache[i]
		if !ok {
			e = d.listEntry(i, w, false)
			d.listCache[i] = e
		}
		out = append(out, e)
	}
	blank := strings.Repeat(" ", w)
	for len(out) < h {
		out = append(out, blank)
	}
	return out
}

// listEntry is one file in the list: marker, status, path cut from the
// left, counts and findings on the right.
func (d *Diff) listEntry(i, w int, selected bool) string {
	st := d.ctx.Styles
	f := d.files[i]
	right := d.fileCounts(f) + d.fileMarks(i)
	status := string(rune(f.Status))
	if f.Status == 0 {
		status = "?"
	}
	room := w - 3 - 1 - ansi.StringWidth(right)
	if room < 6 {
		right, room = "", w-3
	}
	path := truncLeft(ui.SanitizeLine(f.Path()), max(room, 1))
	gap := max(w-3-ansi.StringWidth(path)-ansi.StringWidth(right), 1)
	if selected {
		plain := "▸" + status + " " + path + strings.Repeat(" ", gap) + ansi.Strip(right)
		return common.Fit(st.Selection.Render(common.Fit(plain, w)), w)
	}
	return common.Fit(" "+d.statusStyle(f.Status).Render(status)+" "+path+strings.Repeat(" ", gap)+right, w)
}

// fileMarks is what the file list says of file i beside its counts: ▲N
// for its high attention items, ◆N for the findings that cite it.
func (d *Diff) fileMarks(i int) string {
	st := d.ctx.Styles
	s := ""
	if n := d.high(i); n > 0 {
		s += " " + st.Status("high").Render("▲"+strconv.Itoa(n))
	}
	if n := d.fileFindings[i]; n > 0 {
		s += " " + st.Warn.Render("◆"+strconv.Itoa(n))
	}
	return s
}

// scanPending says, until the attention scan has been made, that the file
// list's ▲ marks are still to come: a file without one is not yet a file
// without high items.
func (d *Diff) scanPending() string {
	if d.highKnown || d.ctx.Packet == nil {
		return ""
	}
	return d.ctx.Styles.Muted.Render("  ▲ scanning")
}

// drawHeader is the narrow layout's one-line file list: which file of how
// many the cursor is in, cycled with { and }.
func (d *Diff) drawHeader(w int) string {
	st := d.ctx.Styles
	if len(d.files) == 0 {
		return common.Fit(st.Title.Render(" Files")+st.Muted.Render(" 0"), w)
	}
	fi := d.row(d.list.Cursor).file
	f := d.files[fi]
	lead := st.Muted.Render(fmt.Sprintf(" file %d/%d ", fi+1, len(d.files))) +
		d.statusStyle(f.Status).Bold(true).Render(string(rune(f.Status))) + " "
	right := "  " + d.fileCounts(f) + d.fileMarks(int(fi))
	hint := d.scanPending() + st.Muted.Render("  { } files")
	room := w - ansi.StringWidth(lead) - ansi.StringWidth(right)
	path := ui.SanitizeLine(f.Path())
	if room-ansi.StringWidth(hint) >= ansi.StringWidth(path) {
		right += hint
	}
	path = truncLeft(path, max(room, 4))
	return common.Fit(lead+st.FileHeader.Render(path)+right, w)
}
