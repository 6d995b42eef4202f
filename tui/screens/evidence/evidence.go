package evidence

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/ui"
)

// Evidence is screen 5: the evidence table, one row per recipe, each
// expandable to every run of it (superseded ones included), beside a detail
// pane with the selected run's whole command, note and disposition.
type Evidence struct {
	ctx           *common.Context
	keys          evidenceKeys
	width, height int

	// expanded recipes show their runs under them; items is the table as
	// drawn: recipe rows and the runs of expanded recipes.
	expanded       map[string]bool
	items          []evItem
	cursor, offset int // offset is the first item on screen

	detail    ui.Pane
	detailFor string // which item and width the detail pane was built for

	query   string
	matches []evItem // every recipe and run matching query, in table order
}

// evItem is one line of the table: a recipe, or one run of an expanded one.
type evItem struct {
	row    *packet.EvidenceRow
	rowIdx int
	run    *packet.Run // nil for the recipe's own line
	runIdx int
}

func (it evItem) key() string {
	if it.run == nil {
		return it.row.Recipe
	}
	return fmt.Sprintf("%s\x00%d", it.row.Recipe, it.runIdx)
}

// evidenceKeys are the keys this screen adds to the shared key map. enter
// already follows (to a log), so expanding a recipe has keys of its own.
type evidenceKeys struct {
	Expand, Collapse key.Binding
	// ScrollDetail documents that ctrl+d/ctrl+u scroll the detail pane
	// here (the table is short; the run's note is what runs long).
	ScrollDetail key.Binding
}

func newEvidenceKeys() evidenceKeys {
	return evidenceKeys{
		Expand:       key.NewBinding(key.WithKeys("space", "right", "l"), key.WithHelp("space/→", "expand runs")),
		Collapse:     key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←", "collapse")),
		ScrollDetail: key.NewBinding(key.WithKeys("ctrl+d", "ctrl+u"), key.WithHelp("ctrl+d/u", "scroll details")),
	}
}

// New builds the evidence screen over ctx's packet.
func New(ctx *common.Context) *Evidence {
	e := &Evidence{ctx: ctx, keys: newEvidenceKeys(), expanded: map[string]bool{}, detail: ui.NewPane(ctx.Styles)}
	e.detail.SetShowCursor(false)
	e.rebuild()
	return e
}

// Init has nothing to start: the table is derived from the loaded packet.
func (e *Evidence) Init() tea.Cmd { return nil }

// rebuild lays the table out again after a recipe was expanded or
// collapsed, keeping the cursor on the same item where it still exists.
func (e *Evidence) rebuild() {
	var keep string
	if e.cursor < len(e.items) {
		keep = e.items[e.cursor].key()
	}
	e.items = e.items[:0]
	for i, row := range e.ctx.Packet.Evidence.Rows {
		e.items = append(e.items, evItem{row: row, rowIdx: i})
		if e.expanded[row.Recipe] {
			for j, run := range row.Runs {
				e.items = append(e.items, evItem{row: row, rowIdx: i, run: run, runIdx: j})
			}
		}
	}
	for i, it := range e.items {
		if it.key() == keep {
			e.cursor = i
		}
	}
	e.cursor = evClamp(e.cursor, len(e.items))
	e.layout()
}

func evClamp(i, n int) int {
	return max(min(i, n-1), 0)
}

// SetSize gives the screen its body size.
func (e *Evidence) SetSize(width, height int) {
	e.width, e.height = max(width, 0), max(height, 0)
	e.layout()
}

// evLayout is where the parts of the screen go.
type evLayout struct {
	tableW, tableH   int // the table, header lines included
	detailW, detailH int // 0 when there is no room for the detail pane
	side             bool
}

func (e *Evidence) geometry() evLayout {
	w, h := e.width, e.height
	if w >= common.Wide {
		dw := min(max(w*2/5, 40), 70)
		return evLayout{tableW: w - dw - 1, tableH: h, detailW: dw, detailH: h, side: true}
	}
	// Stacked: the table as tall as its rows (within reason), the detail
	// below a rule, dropped when it would be too short to read.
	th := min(evHeaderRows+len(e.items), max(h*3/5, evHeaderRows+4))
	if h-th-1 < 4 {
		return evLayout{tableW: w, tableH: h}
	}
	return evLayout{tableW: w, tableH: th, detailW: w, detailH: h - th - 1}
}

// evHeaderRows are the title and the column headings above the rows.
const evHeaderRows = 2

func (e *Evidence) layout() {
	g := e.geometry()
	e.detail.SetSize(g.detailW, g.detailH)
	e.ensureVisible()
	e.syncDetail()
}

// rowsShown is how many items fit under the table's headings.
func (e *Evidence) rowsShown() int {
	return max(e.geometry().tableH-evHeaderRows, 1)
}

// scrolling is the table's cursor and scroll as a ui.List, whose
// arithmetic they follow.
func (e *Evidence) scrolling() ui.List {
	l := ui.List{Cursor: e.cursor, Offset: e.offset}
	l.SetLen(len(e.items))
	l.SetHeight(e.rowsShown())
	return l
}

func (e *Evidence) ensureVisible() {
	l := e.scrolling()
	l.KeepInView()
	e.cursor, e.offset = l.Cursor, l.Offset
}

func (e *Evidence) setCursor(i int) {
	e.cursor = evClamp(i, len(e.items))
	e.ensureVisible()
	e.syncDetail()
}

// Update handles keys and mouse for the table.
func (e *Evidence) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.ThemeChangedMsg:
		e.detail.SetStyles(e.ctx.Styles)
	case tea.KeyPressMsg:
		return e.handleKey(msg)
	case tea.MouseWheelMsg:
		m := msg.Mouse()
		g := e.geometry()
		overDetail := g.detailW > 0 && ((g.side && m.X > g.tableW) || (!g.side && m.Y > g.tableH))
		switch {
		case overDetail && m.Button == tea.MouseWheelDown:
			e.detail.HalfPageDown()
		case overDetail && m.Button == tea.MouseWheelUp:
			e.detail.HalfPageUp()
		case m.Button == tea.MouseWheelDown:
			e.setCursor(e.cursor + 1)
		case m.Button == tea.MouseWheelUp:
			e.setCursor(e.cursor - 1)
		}
	case tea.MouseClickMsg:
		m := msg.Mouse()
		g := e.geometry()
		l := e.scrolling()
		if i, ok := l.ItemAt(m.Y - evHeaderRows); ok && m.X < g.tableW {
			e.setCursor(i)
		}
	}
	return nil
}

func (e *Evidence) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	cmd, _ := e.keyTable().Dispatch(msg)
	return cmd
}

// keyTable is the screen's keys in the order help lists them; those that
// do nothing on the selected row are answered but not listed.
func (e *Evidence) keyTable() common.KeyTable {
	km := e.ctx.Keys
	to := func(at func() int) func(tea.KeyPressMsg) tea.Cmd {
		return func(tea.KeyPressMsg) tea.Cmd {
			e.setCursor(at())
			return nil
		}
	}
	// half scrolls the detail pane when it is shown, else moves the cursor
	// half a page.
	half := func(dir int) func(tea.KeyPressMsg) tea.Cmd {
		return func(tea.KeyPressMsg) tea.Cmd {
			switch {
			case e.detail.Height() > 0 && dir > 0:
				e.detail.HalfPageDown()
			case e.detail.Height() > 0:
				e.detail.HalfPageUp()
			default:
				l := e.scrolling()
				e.setCursor(e.cursor + dir*l.HalfPage())
			}
			return nil
		}
	}
	var onRun, canExpand, canCollapse bool
	if len(e.items) > 0 {
		it := e.items[e.cursor]
		onRun = evRunOf(it) != nil
		canExpand = it.run == nil && len(it.row.Runs) > 0
		canCollapse = it.run != nil || e.expanded[it.row.Recipe]
	}
	t := common.KeyTable{
		{Key: km.Down, Handler: to(func() int { return e.cursor + 1 })},
		{Key: km.Up, Handler: to(func() int { return e.cursor - 1 })},
		{Key: km.Follow, Unlisted: !onRun, Handler: func(tea.KeyPressMsg) tea.Cmd { return e.follow() }},
		{Key: e.keys.Expand, Unlisted: !canExpand, Handler: func(tea.KeyPressMsg) tea.Cmd {
			e.toggle(true)
			return nil
		}},
		{Key: e.keys.Collapse, Unlisted: !canCollapse, Handler: func(tea.KeyPressMsg) tea.Cmd {
			e.toggle(false)
			return nil
		}},
	}
	if e.detail.Height() > 0 && e.detail.Len() > e.detail.Height() {
		// Names the half-page keys below where they scroll the detail.
		t = append(t, common.Binding{Key: e.keys.ScrollDetail})
	}
	t = append(t,
		common.Binding{Key: km.HalfPageDown, Unlisted: true, Handler: half(1)},
		common.Binding{Key: km.HalfPageUp, Unlisted: true, Handler: half(-1)},
		common.Binding{Key: km.PageDown, Unlisted: true, Handler: to(func() int { return e.cursor + e.rowsShown() })},
		common.Binding{Key: km.PageUp, Unlisted: true, Handler: to(func() int { return e.cursor - e.rowsShown() })},
		common.Binding{Key: km.Top, Handler: to(func() int { return 0 })},
		common.Binding{Key: km.Bottom, Handler: to(func() int { return len(e.items) - 1 })},
		common.Binding{Key: km.Search},
	)
	if len(e.matches) > 0 {
		t = append(t, common.Binding{Key: km.NextMatch}, common.Binding{Key: km.PrevMatch})
	}
	return t
}

// toggle expands (open) or collapses the selected recipe. space on an
// expanded recipe collapses it; ← on a run collapses its recipe and moves
// the cursor up to it.
func (e *Evidence) toggle(open bool) {
	if len(e.items) == 0 {
		return
	}
	it := e.items[e.cursor]
	recipe := it.row.Recipe
	switch {
	case open && it.run == nil && e.expanded[recipe]:
		open = false
	case open && it.run != nil:
		return
	}
	if !open && it.run != nil {
		e.cursor -= it.runIdx + 1 // onto the recipe, which survives the collapse
	}
	e.expanded[recipe] = open
	e.rebuild()
}

// evRunOf is the run an item stands for: itself, or a recipe's latest run
// (its last one when every run was superseded).
func evRunOf(it evItem) *packet.Run {
	switch {
	case it.run != nil:
		return it.run
	case it.row.Latest != nil:
		return it.row.Latest
	case len(it.row.Runs) > 0:
		return it.row.Runs[len(it.row.Runs)-1]
	}
	return nil
}

// follow opens the log of the selected run, or of the recipe's latest run.
func (e *Evidence) follow() tea.Cmd {
	if len(e.items) == 0 {
		return nil
	}
	it := e.items[e.cursor]
	run := evRunOf(it)
	switch {
	case run == nil:
		return common.Status(fmt.Sprintf("%s has no run, so no log", ui.Sanitize(it.row.Recipe)))
	case run.Log == "":
		return common.Status(fmt.Sprintf("run %d of %s names no log", run.Seq, ui.Sanitize(it.row.Recipe)))
	case e.ctx.Packet.Log(run.Log) == nil:
		return common.Status(fmt.Sprintf("the log of run %d is not in the packet: %s", run.Seq, ui.Sanitize(run.Log)))
	}
	return common.Follow(common.Target{Screen: common.ScreenLogs, Path: run.Log, File: -1, Hunk: -1, DiffLine: -1})
}

// Open selects t.Recipe, or the run on line t.Line of the registry (where a
// registry citation leads), expanding its recipe. t.Offset restores the
// table's scroll position.
func (e *Evidence) Open(t common.Target) tea.Cmd {
	var cmd tea.Cmd
	switch {
	case t.Path == packet.RegistryFile && t.Line > 0:
		if !e.selectRun(t.Line, max(t.EndLine, t.Line)) {
			cmd = common.Status(fmt.Sprintf("line %d of %s holds no run", t.Line, packet.RegistryFile))
		}
	case t.Recipe != "":
		if !e.selectRecipe(t.Recipe) {
			cmd = common.Status(fmt.Sprintf("no recipe %s in the evidence", ui.Sanitize(t.Recipe)))
		}
	}
	e.offset = max(t.Offset, 0)
	e.ensureVisible()
	e.syncDetail()
	return cmd
}

func (e *Evidence) selectRecipe(recipe string) bool {
	for i, it := range e.items {
		if it.run == nil && it.row.Recipe == recipe {
			e.cursor = i
			return true
		}
	}
	return false
}

// selectRun puts the cursor on the first run written on a registry line in
// [line, end], expanding its recipe.
func (e *Evidence) selectRun(line, end int) bool {
	for _, row := range e.ctx.Packet.Evidence.Rows {
		for _, run := range row.Runs {
			if run.Line < line || run.Line > end {
				continue
			}
			if !e.expanded[row.Recipe] {
				e.expanded[row.Recipe] = true
				e.rebuild()
			}
			for i, it := range e.items {
				if it.run == run {
					e.cursor = i
				}
			}
			return true
		}
	}
	return false
}

// Here is the selected recipe, or the registry line of the selected run.
func (e *Evidence) Here() common.Target {
	t := common.Target{Screen: common.ScreenEvidence, File: -1, Hunk: -1, DiffLine: -1, Offset: e.offset}
	if len(e.items) == 0 {
		return t
	}
	it := e.items[e.cursor]
	t.Recipe = it.row.Recipe
	if it.run != nil && it.run.Line > 0 {
		t.Path, t.Line = packet.RegistryFile, it.run.Line
	}
	return t
}

// Status says which recipe and run the cursor is on.
func (e *Evidence) Status() string {
	if len(e.items) == 0 {
		return "no evidence"
	}
	it := e.items[e.cursor]
	s := fmt.Sprintf("recipe %d/%d", it.rowIdx+1, len(e.ctx.Packet.Evidence.Rows))
	if it.run != nil {
		s += fmt.Sprintf(" · run %d/%d", it.runIdx+1, len(it.row.Runs))
	} else if n := len(it.row.Runs); n != 1 {
		s += " · " + text.PluralOf(n, "run", "runs")
	}
	if e.query != "" {
		s += " · " + text.PluralOf(len(e.matches), "match", "matches")
	}
	return s
}

// Bindings are the keys that do something here now.
func (e *Evidence) Bindings() []key.Binding { return e.keyTable().Keys() }

// Search finds query (case-insensitively) in recipe names and in runs'
// commands, notes and dispositions, moves to the first match at or after
// the cursor (expanding its recipe) and returns how many recipes and runs
// match.
func (e *Evidence) Search(query string) int {
	e.query = query
	e.matches = nil
	if query == "" {
		return 0
	}
	q := strings.ToLower(query)
	has := func(s string) bool { return strings.Contains(strings.ToLower(s), q) }
	for i, row := range e.ctx.Packet.Evidence.Rows {
		if has(row.Recipe) {
			e.matches = append(e.matches, evItem{row: row, rowIdx: i})
		}
		for j, run := range row.Runs {
			if has(run.Command) || has(run.Note) || has(run.Disposition) {
				e.matches = append(e.matches, evItem{row: row, rowIdx: i, run: run, runIdx: j})
			}
		}
	}
	if len(e.matches) > 0 {
		e.goMatch(0, true)
	}
	return len(e.matches)
}

// NextMatch moves to the next (dir 1) or previous (dir -1) match, wrapping.
func (e *Evidence) NextMatch(dir int) {
	if len(e.matches) == 0 {
		return
	}
	e.goMatch(dir, false)
}

// goMatch moves to the match after (dir 1) or before (dir -1) the cursor;
// with here the match at the cursor itself counts.
func (e *Evidence) goMatch(dir int, here bool) {
	// Matches and items are both in table order, so compare positions in
	// the fully expanded order: (recipe, run index + 1).
	pos := func(it evItem) int {
		if it.run == nil {
			return it.rowIdx << 20
		}
		return it.rowIdx<<20 + it.runIdx + 1
	}
	cur := 0
	if len(e.items) > 0 {
		cur = pos(e.items[e.cursor])
	}
	pick := -1
	if dir >= 0 {
		for i, m := range e.matches {
			if pos(m) > cur || (here && pos(m) == cur) {
				pick = i
				break
			}
		}
		if pick < 0 {
			pick = 0
		}
	} else {
		for i := len(e.matches) - 1; i >= 0; i-- {
			if pos(e.matches[i]) < cur {
				pick = i
				break
			}
		}
		if pick < 0 {
			pick = len(e.matches) - 1
		}
	}
	m := e.matches[pick]
	if m.run != nil && !e.expanded[m.row.Recipe] {
		e.expanded[m.row.Recipe] = true
		e.rebuild()
	}
	for i, it := range e.items {
		if it.row == m.row && it.run == m.run {
			e.setCursor(i)
			return
		}
	}
}
