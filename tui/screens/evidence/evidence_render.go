package evidence

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/common"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/ui"
)

// View draws the table and, when there is room, the detail pane.
func (e *Evidence) View() string {
	if e.width <= 0 || e.height <= 0 {
		return ""
	}
	g := e.geometry()
	table := e.tableLines(g.tableW, g.tableH)
	var out []string
	switch {
	case g.detailW == 0:
		out = table
	case g.side:
		rule := e.ctx.Styles.Muted.Render("│")
		detail := strings.Split(e.detail.View(), "\n")
		for i := range g.tableH {
			out = append(out, table[i]+rule+common.PadLine(detail, i, g.detailW))
		}
	default:
		out = append(table, e.ctx.Styles.Muted.Render(strings.Repeat("─", e.width)))
		detail := strings.Split(e.detail.View(), "\n")
		for i := range g.detailH {
			out = append(out, common.PadLine(detail, i, g.detailW))
		}
	}
	return strings.Join(common.PadLines(out, e.width, e.height), "\n")
}

// evCols are the table's column widths (the command takes the rest).
type evCols struct{ recipe, status, runs, head, exit, dur, cmd int }

const evMarkW = 2 // "▸ " before a recipe

func (e *Evidence) columns(w int) evCols {
	c := evCols{recipe: 14, status: 13, runs: 4, head: evHeadW, exit: 4, dur: 6}
	for _, row := range e.ctx.Packet.Evidence.Rows {
		c.recipe = max(c.recipe, ansi.StringWidth(common.Flat(row.Recipe)))
	}
	// A recipe name is what a vetter compares with the plan: it is never
	// cut. The command, free text, takes what is left.
	fixed := evMarkW + c.recipe + 1 + c.status + 1 + c.runs + 1 + c.head + 1 + c.exit + 1 + c.dur + 1
	c.cmd = max(w-fixed, 0)
	return c
}

// evCell is a piece of a table row: sanitised text and the style it is
// drawn in when the row is not selected.
type evCell struct {
	text  string
	style lipgloss.Style
	right bool
	w     int
}

func (e *Evidence) tableLines(w, h int) []string {
	st := e.ctx.Styles
	ev := e.ctx.Packet.Evidence
	c := e.columns(w)
	title := st.Title.Render(fmt.Sprintf("Evidence %d/%d validated", ev.Validated, ev.Total))
	runs := len(e.ctx.Packet.Registry.Runs)
	title += st.Muted.Render(" · " + text.PluralOf(runs, "run", "runs") + " in the registry")
	lines := []string{common.FitCell(title, w)}
	head := []evCell{
		{text: "", w: evMarkW}, {text: "RECIPE", w: c.recipe}, {text: "STATUS", w: c.status},
		{text: "RUNS", w: c.runs, right: true}, {text: "HEAD", w: c.head},
		{text: "EXIT", w: c.exit, right: true},
		{text: "TIME", w: c.dur, right: true}, {text: "COMMAND", w: c.cmd},
	}
	for i := range head {
		head[i].style = st.Muted.Bold(true)
	}
	lines = append(lines, e.joinCells(head, w, false))
	if len(e.items) == 0 {
		lines = append(lines, common.FitCell(st.Muted.Render("  no recipes planned and no runs in the registry"), w))
	}
	for i := e.offset; i < len(e.items) && len(lines) < h; i++ {
		lines = append(lines, e.joinCells(e.itemCells(e.items[i], c), w, i == e.cursor))
	}
	return common.PadLines(lines, w, h)
}

func (e *Evidence) itemCells(it evItem, c evCols) []evCell {
	st := e.ctx.Styles
	var cells []evCell
	run := it.run
	if run == nil {
		mark := " "
		switch {
		case len(it.row.Runs) > 0 && e.expanded[it.row.Recipe]:
			mark = "▾"
		case len(it.row.Runs) > 0:
			mark = "▸"
		}
		run = it.row.Latest
		cells = append(cells,
			evCell{text: mark, style: st.Accent, w: evMarkW},
			evCell{text: common.Flat(it.row.Recipe), style: st.Base.Bold(true), w: c.recipe},
			evCell{text: common.Flat(it.row.Status), style: st.Status(it.row.Status), w: c.status},
			evCell{text: strconv.Itoa(len(it.row.Runs)), style: st.Base, w: c.runs, right: true},
		)
	} else {
		branch := "├"
		if it.runIdx == len(it.row.Runs)-1 {
			branch = "└"
		}
		label := fmt.Sprintf("%s #%d %s", branch, run.Seq, evClock(run.StartedAt))
		status := run.Status
		if status == "" {
			status = "unknown"
		}
		cells = append(cells,
			evCell{text: "", w: evMarkW},
			evCell{text: strings.TrimRight(label, " "), style: st.Muted, w: c.recipe},
			evCell{text: common.Flat(status), style: st.Status(status), w: c.status},
			evCell{text: "", w: c.runs},
		)
	}
	headText, headStyle := e.runHeadCell(run)
	cells = append(cells, evCell{text: headText, style: headStyle, w: c.head})
	exit, dur, cmd := "–", "–", ""
	if run != nil {
		if run.ExitCode != nil {
			exit = strconv.Itoa(*run.ExitCode)
		}
		if run.DurationMs != nil {
			dur = evDuration(*run.DurationMs)
		}
		cmd = common.Flat(run.Command)
	}
	exitStyle := st.Base
	if run != nil && run.ExitCode != nil && *run.ExitCode != 0 {
		exitStyle = st.Error
	}
	return append(cells,
		evCell{text: exit, style: exitStyle, w: c.exit, right: true},
		evCell{text: dur, style: st.Muted, w: c.dur, right: true},
		evCell{text: cmd, style: st.Base, w: c.cmd},
	)
}

// joinCells lays cells out in their columns. A selected row is drawn in
// the selection style whole, so its background runs unbroken.
func (e *Evidence) joinCells(cells []evCell, w int, selected bool) string {
	var b strings.Builder
	for i, cell := range cells {
		if i > 1 {
			b.WriteByte(' ')
		}
		text := cell.text
		if ansi.StringWidth(text) > cell.w {
			text = ansi.Truncate(text, cell.w, "…")
		}
		pad := strings.Repeat(" ", max(cell.w-ansi.StringWidth(text), 0))
		if !selected && text != "" {
			text = cell.style.Render(text)
		}
		if cell.right {
			b.WriteString(pad + text)
		} else {
			b.WriteString(text + pad)
		}
	}
	line := b.String()
	if selected {
		return e.ctx.Styles.Selection.Render(common.FitCell(line, w))
	}
	return common.FitCell(line, w)
}

// evClock is the time of day of an RFC 3339 start time, or the value as
// written when it is not one.
func evClock(s string) string {
	if len(s) >= 19 && s[10] == 'T' && s[13] == ':' && s[16] == ':' {
		return s[11:19]
	}
	return common.Flat(s)
}

// evDuration writes milliseconds for people: 850ms, 13.6s, 2m05s, 1h02m.
func evDuration(ms int64) string {
	switch {
	case ms < 0:
		return strconv.FormatInt(ms, 10) + "ms"
	case ms < 1000:
		return fmt.Sprintf("%dms", ms)
	case ms < 60_000:
		return fmt.Sprintf("%.1fs", float64(ms)/1000)
	case ms < 3_600_000:
		return fmt.Sprintf("%dm%02ds", ms/60_000, ms/1000%60)
	}
	return fmt.Sprintf("%dh%02dm", ms/3_600_000, ms/60_000%60)
}

// syncDetail rebuilds the detail pane when the selection or its width
// changed; the pane keeps its scroll otherwise.
func (e *Evidence) syncDetail() {
	w := e.detail.Width()
	if w <= 0 || len(e.items) == 0 {
		e.detail.SetSource(nil)
		e.detailFor = ""
		return
	}
	it := e.items[e.cursor]
	// The rounds are in the key because the detail says which head a run
	// tested, and the store may fill History after the screen is built.
	rounds := 0
	if h := e.ctx.Packet.History; h != nil {
		rounds = len(h.Rounds)
	}
	id := fmt.Sprintf("%s\x00%d\x00%p\x00%d", it.key(), w, e.ctx.Packet.History, rounds)
	if id == e.detailFor {
		return
	}
	e.detailFor = id
	e.detail.SetSource(ui.Lines(e.detailLines(it, w-1)))
}

// detailLines describes the item for the detail pane, wrapped to w cells.
func (e *Evidence) detailLines(it evItem, w int) []string {
	st := e.ctx.Styles
	w = max(w, 8)
	var out []string
	row := it.row
	head := st.Title.Render(common.Flat(row.Recipe)) + " " + st.Status(row.Status).Render(common.Flat(row.Status))
	out = append(out, head)
	plan := "not in the plan"
	if row.Planned {
		plan = "planned"
	}
	out = append(out, st.Muted.Render(fmt.Sprintf("%s · %s", plan, text.Plural(len(row.Runs), "run"))))
	run := evRunOf(it)
	if run == nil {
		out = append(out, "")
		out = append(out, evWrap(st, "The plan names this recipe but the registry has no run of it.", w, 0, st.Error)...)
		return out
	}
	out = append(out, "")
	status := run.Status
	if status == "" {
		status = "unknown"
	}
	which := "Run"
	if it.run == nil {
		which = "Latest run"
	}
	out = append(out, st.Subtitle.Render(fmt.Sprintf("%s %d", which, run.Seq))+" "+st.Status(status).Render(common.Flat(status)))
	field := func(name, value string, style lipgloss.Style) {
		if value == "" {
			return
		}
		lines := evWrap(st, value, w, 12, style)
		lines[0] = st.Muted.Render(fmt.Sprintf("%-11s ", name)) + strings.TrimLeft(lines[0], " ")
		out = append(out, lines...)
	}
	if run.Line > 0 {
		field("registry", fmt.Sprintf("%s line %d", packet.RegistryFile, run.Line), st.Base)
	}
	if run.ExitCode != nil {
		style := st.Base
		if *run.ExitCode != 0 {
			style = st.Error
		}
		field("exit", strconv.Itoa(*run.ExitCode), style)
	}
	field("started", run.StartedAt, st.Base)
	if run.DurationMs != nil {
		field("duration", fmt.Sprintf("%s (%d ms)", evDuration(*run.DurationMs), *run.DurationMs), st.Base)
	}
	field("log", run.Log, st.Accent)
	head, headStyle := e.runHeadDetail(run)
	field("head", head, headStyle)
	for _, k := range run.ExtraKeys() {
		field(k, evJSONValue(run.Extra[k]), st.Base)
	}
	section := func(name, text string) {
		if strings.TrimSpace(text) == "" {
			return
		}
		out = append(out, "", st.Subtitle.Render(name))
		out = append(out, evWrap(st, text, w, 2, st.Base)...)
	}
	section("Command", run.Command)
	section("Note", run.Note)
	section("Disposition", run.Disposition)
	return out
}

// evJSONValue shows an unknown registry field: a JSON string unquoted,
// anything else as written.
func evJSONValue(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// evWrap sanitises s and wraps it to w cells, every line indented by
// indent spaces, drawn in style.
func evWrap(st *ui.Styles, s string, w, indent int, style lipgloss.Style) []string {
	s = strings.ReplaceAll(ui.Sanitize(s), "\t", "    ")
	pad := strings.Repeat(" ", indent)
	// Wrapped whole: a command is read to its last character.
	lines := text.WrapWhole(s, max(w-indent, 4))
	for i, l := range lines {
		if l == "" {
			lines[i] = ""
			continue
		}
		lines[i] = pad + st.Text(l, style)
	}
	return lines
}

// evHeadW is the HEAD column: a short SHA.
const evHeadW = 7

// runHeadCell is the HEAD cell of a run: its short SHA, muted when it is
// the packet's head and in the warning colour when it is another (an older
// round's), "?" when nothing tells; empty for a recipe with no run.
func (e *Evidence) runHeadCell(run *packet.Run) (string, lipgloss.Style) {
	st := e.ctx.Styles
	if run == nil {
		return "", st.Muted
	}
	sha, _ := review.RunHead(e.ctx.Packet, run)
	switch {
	case sha == "":
		return "?", st.Muted
	case review.IsHead(e.ctx.Packet, sha):
		return evShortSHA(sha), st.Muted
	}
	return evShortSHA(sha), st.Warn
}

// runHeadDetail says in the detail pane which commit the run tested, how
// that is known, and whether it is the head.
func (e *Evidence) runHeadDetail(run *packet.Run) (string, lipgloss.Style) {
	st, p := e.ctx.Styles, e.ctx.Packet
	sha, source := review.RunHead(p, run)
	switch {
	case sha == "":
		return "? nothing tells which commit this run tested", st.Muted
	case review.IsHead(p, sha):
		return fmt.Sprintf("%s, the head (from the %s)", evShortSHA(sha), evHeadSource(source)), st.Base
	}
	return fmt.Sprintf("%s, not the head %s (from the %s)", evShortSHA(sha), evShortSHA(p.Change.HeadSHA), evHeadSource(source)), st.Warn
}

// evHeadSource names where a run's head was learnt, for the detail pane.
func evHeadSource(source string) string {
	switch source {
	case review.HeadFromRegistry:
		return "registry's head_sha"
	case review.HeadFromLog:
		return "run's log"
	case review.HeadFromOlderRound:
		return "older round's registry, where it appears unchanged"
	}
	return source
}

// evShortSHA is a SHA's first 7 digits, as git abbreviates it.
func evShortSHA(sha string) string {
	return commitid.Short(strings.ToLower(sha))
}
