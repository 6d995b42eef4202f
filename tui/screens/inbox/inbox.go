package inbox

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/report"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/ui"
)

// InboxRow is one packet of an inbox: what its row shows, read in the
// background. Until Loaded it is a placeholder named by its entry.
type InboxRow struct {
	Name string // the entry in the inbox folder
	Path string // the packet on disk

	review.InboxEntry

	// PR is the row's pull request, for a queue's row (inbox_queue.go).
	PR *report.QueueRow

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

	src     InboxSource
	listErr error

	all   []*InboxRow // every candidate, sorted
	shown []*InboxRow // all, filtered, without non-packets
	byKey map[string]*InboxRow

	gen     int
	read    int // rows read
	skipped int // folders that are not packets
	sel     string
	moved   bool    // the person moved the cursor: it follows their packet, else it stays on top
	list    ui.List // the cursor and the first row on screen
	filter  string
	editing bool
	input   textinput.Model
	status  string
	width   int
	height  int
}

// NewInbox lists dir (only the folder itself: no packet is read here) and
// returns the inbox with a placeholder row per candidate. stateDir is where
// triage of archives and read-only folders lives ("" for the default).
func NewInbox(dir string, st *ui.Styles, stateDir string) *Inbox {
	in := NewInboxFrom(newFolderSource(dir, stateDir), st)
	in.Dir = dir
	return in
}

// NewInboxFrom returns the inbox of a source, with the rows it has at once.
func NewInboxFrom(src InboxSource, st *ui.Styles) *Inbox {
	in := &Inbox{src: src, st: st, km: ui.DefaultKeyMap(), byKey: map[string]*InboxRow{}}
	in.all, in.listErr = src.Rows()
	for _, r := range in.all {
		in.byKey[r.Name] = r
	}
	in.input = textinput.New()
	in.input.Prompt = "filter: "
	in.input.CharLimit = 200
	in.refilter()
	return in
}

// Init starts reading the rows in the background.
func (in *Inbox) Init() tea.Cmd { return in.src.Start(in) }

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

// AllRows are every row, whatever the filter shows.
func (in *Inbox) AllRows() []*InboxRow { return in.all }

// Selected returns the selected row, or nil.
func (in *Inbox) Selected() *InboxRow {
	if in.list.Cursor < 0 || in.list.Cursor >= len(in.shown) {
		return nil
	}
	return in.shown[in.list.Cursor]
}

// Progress returns how many packets have been read, of how many.
func (in *Inbox) Progress() (read, total int) { return in.read, len(in.all) }

// Done reports whether every packet has been read.
func (in *Inbox) Done() bool { return in.read >= len(in.all) }

// Filtering reports whether the filter input has the keys.
func (in *Inbox) Filtering() bool { return in.editing }

// InboxOpenMsg asks the app to open a packet of the inbox in the workbench.
type InboxOpenMsg struct {
	Name, Path string
	// Resolve, when set, lays the row out as a packet folder first (a pull
	// request of the queue) and returns its path.
	Resolve func() (string, error)
}

// Refresh reads one row again (its triage or decision changed in the
// workbench).
func (in *Inbox) Refresh(name string) tea.Cmd {
	r := in.byKey[name]
	if r == nil {
		return nil
	}
	return in.src.Reread(in, r)
}

// SetStatus shows a transient message on the inbox's status line.
func (in *Inbox) SetStatus(s string) { in.status = s }

// Update handles keys and arriving rows.
func (in *Inbox) Update(msg tea.Msg) tea.Cmd {
	if cmd, ok := in.src.Handle(in, msg); ok {
		return cmd
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		in.status = ""
		if in.editing {
			return in.filterKey(msg)
		}
		return in.key(msg)
	case tea.MouseWheelMsg:
		if d := common.WheelStep(msg.Mouse().Button, 3); d != 0 {
			in.move(d)
		}
	case tea.MouseClickMsg:
		m := msg.Mouse()
		in.syncList()
		if i, ok := in.list.ItemAt(m.Y - 2); ok { // under the title and the header
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
// selection on the same packet.
func (in *Inbox) arrive(msg inboxRowMsg) {
	if msg.Gen != in.gen || msg.Row == nil {
		return
	}
	old := in.byKey[msg.Row.Name]
	if old == nil {
		return
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
	slices.SortStableFunc(in.all, in.src.Compare)
	in.refilter()
}

func (in *Inbox) key(msg tea.KeyPressMsg) tea.Cmd {
	in.syncList()
	cmd, _ := in.keyTable().Dispatch(msg)
	return cmd
}

// esc drops the filter.
var esc = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear the filter"))

// keyTable is the inbox's keys, from the key map (so the config file's
// remapping reaches the inbox as every screen), in the order the status
// line names them: open, filter, the source's own keys, quit. The source's
// come before the movement keys, as they are answered first.
func (in *Inbox) keyTable() common.KeyTable {
	km := in.km
	move := func(by func() int) func(tea.KeyPressMsg) tea.Cmd {
		return func(tea.KeyPressMsg) tea.Cmd {
			in.move(by())
			return nil
		}
	}
	to := func(at func() int) func(tea.KeyPressMsg) tea.Cmd {
		return func(tea.KeyPressMsg) tea.Cmd {
			in.moved = true
			in.setCursor(at())
			return nil
		}
	}
	t := common.KeyTable{
		{Key: common.Relabel(km.Follow, "open"), Handler: func(tea.KeyPressMsg) tea.Cmd {
			r := in.Selected()
			if r == nil {
				return nil
			}
			if r.Err != nil {
				in.status = "cannot open " + r.Name + ": " + r.Err.Error()
				return nil
			}
			return in.src.Open(r)
		}},
		{Key: common.Relabel(km.Search, "filter"), Handler: func(tea.KeyPressMsg) tea.Cmd {
			in.editing = true
			in.input.SetValue(in.filter)
			in.input.CursorEnd()
			return in.input.Focus()
		}},
		{Key: esc, Unlisted: true, Handler: func(tea.KeyPressMsg) tea.Cmd {
			if in.filter != "" {
				in.setFilter("")
			}
			return nil
		}},
	}
	own := in.src.Keys(in)
	t = append(t, own...)
	if len(own) == 0 {
		// Named once for the movement keys below, when the line has room.
		t = append(t, common.Binding{Key: key.NewBinding(key.WithHelp("↑↓", "move"))})
	}
	return append(t,
		common.Binding{Key: km.Quit, Handler: func(tea.KeyPressMsg) tea.Cmd { return tea.Quit }},
		common.Binding{Key: km.Up, Unlisted: true, Handler: move(func() int { return -1 })},
		common.Binding{Key: km.Down, Unlisted: true, Handler: move(func() int { return 1 })},
		common.Binding{Key: km.PageUp, Unlisted: true, Handler: move(func() int { return -in.list.Visible() })},
		common.Binding{Key: km.PageDown, Unlisted: true, Handler: move(in.list.Visible)},
		common.Binding{Key: km.HalfPageUp, Unlisted: true, Handler: move(func() int { return -in.list.HalfPage() })},
		common.Binding{Key: km.HalfPageDown, Unlisted: true, Handler: move(in.list.HalfPage)},
		common.Binding{Key: km.Top, Unlisted: true, Handler: to(func() int { return 0 })},
		common.Binding{Key: km.Bottom, Unlisted: true, Handler: to(func() int { return len(in.shown) - 1 })},
	)
}

// Bindings are the inbox's listed keys: the key table's.
func (in *Inbox) Bindings() []key.Binding { return in.keyTable().Keys() }

// hint is the status line's key hint: the listed keys of the table, after
// what the source's filters keep.
func (in *Inbox) hint() string {
	var parts []string
	if f := in.src.Filters(); f != "" {
		parts = append(parts, "only "+f)
	}
	for _, b := range in.Bindings() {
		parts = append(parts, b.Help().Key+" "+b.Help().Desc)
	}
	return strings.Join(parts, " · ")
}

// SetKeys gives the inbox the key map with the config file's remapping.
func (in *Inbox) SetKeys(km ui.KeyMap) { in.km = km }

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
	if r.PR != nil {
		parts = append(parts, queueHaystack(r.PR)...)
	}
	return strings.ToLower(strings.Join(parts, "\x00"))
}

// refilter rebuilds the shown rows and puts the cursor back on the
// selected packet (or as near its old place as the list now allows).
func (in *Inbox) refilter() {
	q := strings.ToLower(strings.TrimSpace(in.filter))
	in.shown = in.shown[:0]
	for _, r := range in.all {
		if r.NotPacket || !in.src.Keep(r) {
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
		idx = min(in.list.Cursor, len(in.shown)-1)
	}
	in.setCursor(idx)
}

func (in *Inbox) move(d int) {
	in.moved = true
	in.setCursor(in.list.Cursor + d)
}

func (in *Inbox) setCursor(i int) {
	in.syncList()
	in.list.SetCursor(i)
	if len(in.shown) > 0 {
		in.sel = in.shown[in.list.Cursor].Name
	}
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

// syncList tells the list how many rows there are and how many fit.
func (in *Inbox) syncList() {
	in.list.SetLen(len(in.shown))
	in.list.SetHeight(in.listRows())
}

func (in *Inbox) scrollIntoView() {
	in.syncList()
	in.list.KeepInView()
}
