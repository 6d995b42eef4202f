package views

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"vetter/packet"
	"vetter/ui"
)

// InboxRow is one packet of an inbox: what its row shows, read in the
// background. Until Loaded it is a placeholder named by its entry.
type InboxRow struct {
	Name string // the entry in the inbox folder
	Path string // the packet on disk

	Loaded    bool
	Err       error // the packet could not be read; the row says why
	NotPacket bool  // a folder that turned out not to be a packet: not shown

	ID, Title           string
	Verdict, Assessment string
	Validated, Total    int
	Open, Findings      int // findings not (or no longer) triaged, of all
	Stale               int // of Open, decisions made on an older text
	GateReady           bool
	Failing             []string // the gate checks that do not hold
	Head                string
	Decision            string // ok-to-test, hold, request-changes, or ""
	DecisionSHA         string
	Errors, Warnings    int
	Infos               int

	order   int  // position in the folder listing
	counted bool // the fill has read it
	// The sort key, computed once when the row is filled: the inbox sorts
	// on every arrival.
	group int
	idKey idKey
}

// idKey is a work-item id split for ordering: "ACME-10" is {"ACME", 10, true}.
type idKey struct {
	prefix string
	num    int
	ok     bool
	raw    string
}

func parseID(id string) idKey {
	k := idKey{raw: id}
	if m := idParts.FindStringSubmatch(id); m != nil {
		if n, err := strconv.Atoi(m[2]); err == nil {
			k.prefix, k.num, k.ok = m[1], n, true
		}
	}
	return k
}

// settle computes the row's sort key from its facts.
func (r *InboxRow) settle() {
	r.group = r.computeGroup()
	r.idKey = parseID(r.ID)
}

// Decided reports whether a gate decision stands for the packet's current
// head. A decision for an older head no longer stands.
func (r *InboxRow) Decided() bool {
	return r.Decision != "" && r.Head != "" && r.DecisionSHA == r.Head
}

// Inbox groups, in the order the inbox shows them: what needs a person first.
const (
	// GroupReady: the gate is ready and no decision stands — a person can
	// decide now.
	GroupReady = iota
	// GroupTriage: no decision stands and the gate is not ready, but the
	// verdict is pass and the assessment sound — what is missing (triage,
	// evidence, logs, head) a person can look at.
	GroupTriage
	// GroupNeedsChanges: no decision stands and the verdict is not pass or
	// the assessment is not sound — the pipeline has to act first.
	GroupNeedsChanges
	// GroupDecided: a decision stands for the current head.
	GroupDecided
	// GroupUnreadable: the packet could not be read.
	GroupUnreadable
	// GroupReading: not read yet.
	GroupReading
)

// Group is the row's place in the order (Group* constants).
func (r *InboxRow) Group() int { return r.computeGroup() }

func (r *InboxRow) computeGroup() int {
	switch {
	case !r.Loaded:
		return GroupReading
	case r.Err != nil:
		return GroupUnreadable
	case r.Decided():
		return GroupDecided
	case r.GateReady:
		return GroupReady
	case r.Verdict == "pass" && r.Assessment == "sound":
		return GroupTriage
	}
	return GroupNeedsChanges
}

var idParts = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9]*)-([0-9]+)$`)

// compareIDs orders work-item ids by prefix, then by number ("ACME-9"
// before "ACME-10"); a row without an id comes after those with one.
func compareIDs(a, b idKey) int {
	switch {
	case a.raw == b.raw:
		return 0
	case a.raw == "":
		return 1
	case b.raw == "":
		return -1
	}
	if a.ok && b.ok && a.prefix == b.prefix && a.num != b.num {
		return cmp.Compare(a.num, b.num)
	}
	return strings.Compare(a.raw, b.raw)
}

// CompareInboxRows is the inbox order: by group (GroupReady, GroupTriage,
// GroupNeedsChanges, GroupDecided, GroupUnreadable, GroupReading), then by
// work-item id (prefix, then number), then by entry name; rows not read yet
// keep the folder's order.
func CompareInboxRows(a, b *InboxRow) int {
	if c := cmp.Compare(a.group, b.group); c != 0 {
		return c
	}
	if a.group == GroupReading {
		return cmp.Compare(a.order, b.order)
	}
	if c := compareIDs(a.idKey, b.idKey); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}

// Inbox is the screen of a folder of packets: one row per packet, what
// needs a person first, filled in as the packets are read.
type Inbox struct {
	Dir string
	st  *ui.Styles
	km  ui.KeyMap

	stateDir string
	listErr  error

	all   []*InboxRow // every candidate, sorted
	shown []*InboxRow // all, filtered, without non-packets
	byKey map[string]*InboxRow

	gen      int
	queue    *inboxQueue
	read     int // rows read
	skipped  int // folders that are not packets
	sel      string
	moved    bool // the person moved the cursor: it follows their packet, else it stays on top
	cursor   int
	top      int
	filter   string
	editing  bool
	input    textinput.Model
	status   string
	width    int
	height   int
	openKeys key.Binding
}

// NewInbox lists dir (only the folder itself: no packet is read here) and
// returns the inbox with a placeholder row per candidate. stateDir is where
// triage of archives and read-only folders lives ("" for the default).
func NewInbox(dir string, st *ui.Styles, stateDir string) *Inbox {
	in := &Inbox{Dir: dir, st: st, km: ui.DefaultKeyMap(), stateDir: stateDir, byKey: map[string]*InboxRow{}}
	in.all, in.listErr = listInbox(dir)
	for _, r := range in.all {
		in.byKey[r.Name] = r
	}
	in.input = textinput.New()
	in.input.Prompt = "filter: "
	in.input.CharLimit = 200
	in.openKeys = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open"))
	in.queue = newInboxQueue(in.all)
	in.refilter()
	return in
}

// Init starts reading the packets, a few at a time.
func (in *Inbox) Init() tea.Cmd {
	cmds := make([]tea.Cmd, 0, inboxWorkers())
	for range inboxWorkers() {
		cmds = append(cmds, in.queue.next(in.gen, in.stateDir))
	}
	return tea.Batch(cmds...)
}

// SetStyles follows a change of theme.
func (in *Inbox) SetStyles(st *ui.Styles) { in.st = st }

// SetSize gives the inbox the whole terminal.
func (in *Inbox) SetSize(w, h int) {
	in.width, in.height = max(w, 0), max(h, 0)
	in.input.SetWidth(max(w-12, 10))
	in.scrollIntoView()
}

// Rows returns the rows shown, in order.
func (in *Inbox) Rows() []*InboxRow { return in.shown }

// Selected returns the selected row, or nil.
func (in *Inbox) Selected() *InboxRow {
	if in.cursor < 0 || in.cursor >= len(in.shown) {
		return nil
	}
	return in.shown[in.cursor]
}

// Progress returns how many packets have been read, of how many.
func (in *Inbox) Progress() (read, total int) { return in.read, len(in.all) }

// Done reports whether every packet has been read.
func (in *Inbox) Done() bool { return in.read >= len(in.all) }

// Filtering reports whether the filter input has the keys.
func (in *Inbox) Filtering() bool { return in.editing }

// InboxOpenMsg asks the app to open a packet of the inbox in the workbench.
type InboxOpenMsg struct{ Name, Path string }

// Refresh reads one row again (its triage or decision changed in the
// workbench).
func (in *Inbox) Refresh(name string) tea.Cmd {
	r := in.byKey[name]
	if r == nil {
		return nil
	}
	return readRowCmd(in.gen, r.Name, r.Path, in.stateDir)
}

// SetStatus shows a transient message on the inbox's status line.
func (in *Inbox) SetStatus(s string) { in.status = s }

// Update handles keys and arriving rows.
func (in *Inbox) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case inboxRowMsg:
		return in.arrive(msg)
	case tea.KeyPressMsg:
		in.status = ""
		if in.editing {
			return in.filterKey(msg)
		}
		return in.key(msg)
	case tea.MouseWheelMsg:
		switch msg.Mouse().Button {
		case tea.MouseWheelDown:
			in.move(3)
		case tea.MouseWheelUp:
			in.move(-3)
		}
	case tea.MouseClickMsg:
		m := msg.Mouse()
		if i := in.top + m.Y - 2; m.Y >= 2 && i < len(in.shown) && i >= 0 {
			in.moved = true
			in.setCursor(i)
		}
	}
	if in.editing {
		var cmd tea.Cmd
		in.input, cmd = in.input.Update(msg)
		return cmd
	}
	return nil
}

// arrive puts a row read in the background in its place, keeping the
// selection on the same packet, and lets its worker take the next one.
func (in *Inbox) arrive(msg inboxRowMsg) tea.Cmd {
	if msg.Gen != in.gen || msg.Row == nil {
		return nil
	}
	var next tea.Cmd
	if msg.Worker {
		next = in.queue.next(in.gen, in.stateDir)
	}
	old := in.byKey[msg.Row.Name]
	if old == nil {
		return next
	}
	// Progress counts the first read of each packet by the fill, whether or
	// not the packet was read meanwhile for another reason (opened early).
	counted := old.counted
	if msg.Worker && !counted {
		counted = true
		in.read++
		if msg.Row.NotPacket {
			in.skipped++
		}
	}
	msg.Row.order, msg.Row.counted = old.order, counted
	msg.Row.settle()
	*old = *msg.Row
	slices.SortStableFunc(in.all, CompareInboxRows)
	in.refilter()
	return next
}

func (in *Inbox) key(msg tea.KeyPressMsg) tea.Cmd {
	km := in.km
	switch {
	case key.Matches(msg, km.Quit):
		return tea.Quit
	case key.Matches(msg, km.Search):
		in.editing = true
		in.input.SetValue(in.filter)
		in.input.CursorEnd()
		return in.input.Focus()
	case msg.String() == "esc":
		if in.filter != "" {
			in.setFilter("")
		}
	case key.Matches(msg, in.openKeys):
		if r := in.Selected(); r != nil {
			if r.Err != nil {
				in.status = "cannot open " + r.Name + ": " + r.Err.Error()
				return nil
			}
			name, path := r.Name, r.Path
			return func() tea.Msg { return InboxOpenMsg{Name: name, Path: path} }
		}
	case key.Matches(msg, km.Up):
		in.move(-1)
	case key.Matches(msg, km.Down):
		in.move(1)
	case key.Matches(msg, km.PageUp):
		in.move(-in.listRows())
	case key.Matches(msg, km.PageDown):
		in.move(in.listRows())
	case key.Matches(msg, km.HalfPageUp):
		in.move(-max(in.listRows()/2, 1))
	case key.Matches(msg, km.HalfPageDown):
		in.move(max(in.listRows()/2, 1))
	case key.Matches(msg, km.Top):
		in.moved = true
		in.setCursor(0)
	case key.Matches(msg, km.Bottom):
		in.moved = true
		in.setCursor(len(in.shown) - 1)
	}
	return nil
}

// filterKey edits the filter; the list follows every keystroke. enter
// keeps the filter, esc drops it.
func (in *Inbox) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "enter":
		in.editing = false
		in.input.Blur()
		return nil
	case "esc":
		in.editing = false
		in.input.Blur()
		in.setFilter("")
		return nil
	}
	var cmd tea.Cmd
	in.input, cmd = in.input.Update(msg)
	if v := in.input.Value(); v != in.filter {
		in.setFilter(v)
	}
	return cmd
}

// SetFilter shows only the rows whose text contains s (case-insensitive).
func (in *Inbox) setFilter(s string) {
	in.filter = s
	in.refilter()
}

// Filter is the current filter text.
func (in *Inbox) Filter() string { return in.filter }

// haystack is what the filter looks in.
func (r *InboxRow) haystack() string {
	gate := "not ready"
	if r.GateReady {
		gate = "ready"
	}
	parts := []string{r.Name, r.ID, r.Title, r.Verdict, r.Assessment, r.Decision, gate}
	if r.Err != nil {
		parts = append(parts, r.Err.Error())
	}
	return strings.ToLower(strings.Join(parts, "\x00"))
}

// refilter rebuilds the shown rows and puts the cursor back on the
// selected packet (or as near its old place as the list now allows).
func (in *Inbox) refilter() {
	q := strings.ToLower(strings.TrimSpace(in.filter))
	in.shown = in.shown[:0]
	for _, r := range in.all {
		if r.NotPacket {
			continue
		}
		if q != "" && (!r.Loaded || !strings.Contains(r.haystack(), q)) {
			continue
		}
		in.shown = append(in.shown, r)
	}
	idx := -1
	for i, r := range in.shown {
		if r.Name == in.sel && in.moved {
			idx = i
			break
		}
	}
	if idx < 0 {
		idx = min(in.cursor, len(in.shown)-1)
	}
	in.setCursor(idx)
}

func (in *Inbox) move(d int) {
	in.moved = true
	in.setCursor(in.cursor + d)
}

func (in *Inbox) setCursor(i int) {
	if len(in.shown) == 0 {
		in.cursor, in.top = 0, 0
		return
	}
	in.cursor = max(0, min(i, len(in.shown)-1))
	in.sel = in.shown[in.cursor].Name
	in.scrollIntoView()
}

// Select puts the cursor on a packet by entry name, for the app and tests.
func (in *Inbox) Select(name string) bool {
	for i, r := range in.shown {
		if r.Name == name {
			in.moved = true
			in.setCursor(i)
			return true
		}
	}
	return false
}

// listRows is the rows of the list: the frame takes a title, the column
// header, the selected packet's details and the status line.
func (in *Inbox) listRows() int { return max(in.height-4, 1) }

func (in *Inbox) scrollIntoView() {
	n := in.listRows()
	if in.cursor < in.top {
		in.top = in.cursor
	}
	if in.cursor >= in.top+n {
		in.top = in.cursor - n + 1
	}
	in.top = max(0, min(in.top, max(len(in.shown)-n, 0)))
}

// ---- drawing ---------------------------------------------------------------

// inboxCol is a column of the table.
type inboxCol struct {
	title string
	width int
	drop  int // columns with a higher drop go first when the width is short (0 never)
	cell  func(in *Inbox, r *InboxRow) (text, word string)
}

var inboxCols = []inboxCol{
	{"ID", 10, 0, func(in *Inbox, r *InboxRow) (string, string) { return orDash(r.ID), "" }},
	{"Title", 0, 0, nil}, // takes what is left
	{"Verdict", 7, 0, func(in *Inbox, r *InboxRow) (string, string) { return orDash(r.Verdict), r.Verdict }},
	{"Assessment", 13, 3, func(in *Inbox, r *InboxRow) (string, string) { return orDash(r.Assessment), r.Assessment }},
	{"Valid.", 6, 2, func(in *Inbox, r *InboxRow) (string, string) {
		w := "validated"
		if r.Validated < r.Total || r.Total == 0 {
			w = "failing"
		}
		return fmt.Sprintf("%d/%d", r.Validated, r.Total), w
	}},
	{"Open", 5, 4, func(in *Inbox, r *InboxRow) (string, string) {
		w := "ok"
		if r.Open > 0 {
			w = "warn"
		}
		return fmt.Sprintf("%d/%d", r.Open, r.Findings), w
	}},
	{"Gate", 9, 0, func(in *Inbox, r *InboxRow) (string, string) {
		if r.GateReady {
			return "ready", "ready"
		}
		return "not ready", ""
	}},
	{"Decision", 19, 0, func(in *Inbox, r *InboxRow) (string, string) {
		switch {
		case r.Decision == "":
			return "—", ""
		case !r.Decided():
			return decisionWord(r.Decision) + " (old)", ""
		}
		return decisionWord(r.Decision) + " " + shortSHA(r.DecisionSHA), r.Decision
	}},
	{"Problems", 9, 1, func(in *Inbox, r *InboxRow) (string, string) {
		return problemCells(r), problemWord(r)
	}},
}

// decisionWord shortens request-changes to fit the column; the details
// line spells it out.
func decisionWord(d string) string {
	if d == packet.DecisionRequestChanges {
		return "req-changes"
	}
	return d
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func shortSHA(s string) string {
	if len(s) > 7 {
		return s[:7]
	}
	return s
}

// problemCells counts problems by severity: "1E 2W 1I", zeros left out.
func problemCells(r *InboxRow) string {
	var parts []string
	for _, c := range []struct {
		n int
		s string
	}{{r.Errors, "E"}, {r.Warnings, "W"}, {r.Infos, "I"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d%s", c.n, c.s))
		}
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, " ")
}

func problemWord(r *InboxRow) string {
	switch {
	case r.Errors > 0:
		return "error"
	case r.Warnings > 0:
		return "warn"
	}
	return ""
}

// layout picks the columns that fit: the title gets what is left, at least
// 16 cells, and the least needed columns are dropped to give it that.
func (in *Inbox) layout() (cols []inboxCol, titleW int) {
	cols = slices.Clone(inboxCols)
	for {
		used := 2 // the cursor marker
		for _, c := range cols {
			used += c.width + 1
		}
		titleW = in.width - used
		if titleW >= 16 {
			return cols, titleW
		}
		worst := -1
		for i, c := range cols {
			if c.drop > 0 && (worst < 0 || c.drop < cols[worst].drop) {
				worst = i
			}
		}
		if worst < 0 {
			return cols, max(titleW, 0)
		}
		cols = slices.Delete(cols, worst, worst+1)
	}
}

// View draws the inbox at exactly its size: a title line, the column
// header, the rows, the selected packet's details and the status line.
func (in *Inbox) View() string {
	if in.width <= 0 || in.height <= 0 {
		return ""
	}
	st := in.st
	cols, titleW := in.layout()
	lines := make([]string, 0, in.height)

	read, total := in.Progress()
	right := fmt.Sprintf("%d packets", len(in.all)-in.skipped)
	if read < total {
		right = fmt.Sprintf("reading… %d/%d", read, total)
	}
	if in.filter != "" {
		right = fmt.Sprintf("%d shown · ", len(in.shown)) + right
	}
	left := st.Title.Render(" Inbox ") + " " + st.Text(in.Dir, st.Muted)
	lines = append(lines, padBetween(left, st.Muted.Render(right), in.width))

	var hdr strings.Builder
	hdr.WriteString("  ")
	for _, c := range cols {
		w := c.width
		if c.cell == nil {
			w = titleW
		}
		hdr.WriteString(fit(c.title, w) + " ")
	}
	lines = append(lines, fit(st.Subtitle.Render(hdr.String()), in.width))

	n := in.listRows()
	switch {
	case in.listErr != nil:
		lines = append(lines, fit(st.Error.Render("reading the inbox: ")+st.Text(in.listErr.Error(), st.Error), in.width))
	case len(in.all) == 0:
		lines = append(lines, fit(st.Muted.Render("  no packets in this folder"), in.width))
	case len(in.shown) == 0 && in.filter != "":
		lines = append(lines, fit(st.Muted.Render("  no packet matches the filter · esc clears it"), in.width))
	}
	for i := in.top; i < len(in.shown) && i < in.top+n; i++ {
		lines = append(lines, in.rowLine(in.shown[i], i == in.cursor, cols, titleW))
	}
	for len(lines) < in.height-2 {
		lines = append(lines, strings.Repeat(" ", in.width))
	}
	lines = lines[:max(in.height-2, 0)]
	if in.height >= 2 {
		lines = append(lines, fit(in.details(), in.width))
	}
	lines = append(lines, in.statusLine())
	return strings.Join(lines[:in.height], "\n")
}

// rowLine draws one row. The selected row is drawn plain in the selection
// style, so the highlight runs unbroken across its cells.
func (in *Inbox) rowLine(r *InboxRow, selected bool, cols []inboxCol, titleW int) string {
	st := in.st
	var b strings.Builder
	marker := "  "
	if selected {
		marker = "▸ "
	}
	b.WriteString(marker)
	for _, c := range cols {
		var text, word string
		w := c.width
		switch {
		case c.cell == nil:
			w = titleW
			switch {
			case !r.Loaded:
				text, word = r.Name+" · reading…", "muted"
			case r.Err != nil:
				text, word = r.Name+": "+r.Err.Error(), "error"
			default:
				text = r.Title
			}
		case !r.Loaded || r.Err != nil:
			// Nothing is known yet, or nothing could be read.
		default:
			text, word = c.cell(in, r)
		}
		cell := fit(ui.Sanitize(text), w)
		if !selected && word != "" {
			style := st.Status(word)
			if word == "muted" {
				style = st.Muted
			}
			cell = style.Render(cell)
		}
		b.WriteString(cell + " ")
	}
	line := fit(b.String(), in.width)
	if selected {
		return st.Selection.Render(line)
	}
	return line
}

// details says everything about the selected packet on one line, so the
// columns a narrow terminal drops are still there.
func (in *Inbox) details() string {
	st := in.st
	r := in.Selected()
	if r == nil {
		return ""
	}
	if !r.Loaded {
		return st.Text(r.Path+" · reading…", st.Muted)
	}
	if r.Err != nil {
		return st.Text(r.Err.Error(), st.Error)
	}
	parts := []string{r.Path}
	parts = append(parts, fmt.Sprintf("%s/%s", orDash(r.Verdict), orDash(r.Assessment)))
	parts = append(parts, fmt.Sprintf("%d/%d validated", r.Validated, r.Total))
	f := fmt.Sprintf("%d of %d findings open", r.Open, r.Findings)
	if r.Stale > 0 {
		f += fmt.Sprintf(" (%d stale)", r.Stale)
	}
	parts = append(parts, f)
	if r.GateReady {
		parts = append(parts, "gate ready")
	} else {
		parts = append(parts, "gate: "+strings.Join(r.Failing, ", "))
	}
	switch {
	case r.Decided():
		parts = append(parts, fmt.Sprintf("%s for %s", r.Decision, shortSHA(r.DecisionSHA)))
	case r.Decision != "":
		parts = append(parts, fmt.Sprintf("%s was for %s; the head is now %s", r.Decision, shortSHA(r.DecisionSHA), orDash(shortSHA(r.Head))))
	}
	parts = append(parts, fmt.Sprintf("%d errors, %d warnings, %d info", r.Errors, r.Warnings, r.Infos))
	return st.Text(strings.Join(parts, " · "), st.Muted)
}

func (in *Inbox) statusLine() string {
	st := in.st
	if in.editing {
		return fit(in.input.View(), in.width)
	}
	left := st.StatusBar.Render(" Inbox ")
	if len(in.shown) > 0 {
		left += " " + st.Base.Render(fmt.Sprintf("%d/%d", in.cursor+1, len(in.shown)))
	}
	if in.filter != "" {
		left += " " + st.Text(fmt.Sprintf("filter %q · esc clears", in.filter), st.Accent)
	}
	right := st.Muted.Render("enter open · / filter · ↑↓ move · q quit")
	if in.status != "" {
		right = st.Text(in.status, st.Accent)
	}
	return padBetween(left, right, in.width)
}

// inboxPacketOpts are the load options of a packet opened from the inbox:
// as the workbench loads one named on the command line.
var inboxPacketOpts = packet.Options{DeferLogIndex: true, DeferAbove: packet.SmallLog}
