package tui

import (
	"errors"
	"fmt"
	"time"

	"github.com/vetter-dev/vetter/compare"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/screens/inbox"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/packet/source"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/tui/screens/walk"
	"github.com/vetter-dev/vetter/ui"
)

// AppOptions configure the program: one packet in the workbench, or an
// inbox of packets.
type AppOptions struct {
	// Theme is "dark" or "light"; "" asks the terminal.
	Theme   string
	NoColor bool
	// Keys is the key map with the config file's remaps; nil for the
	// defaults. Every screen's table reads its keys from it, so dispatch
	// and help follow a remap alike.
	Keys *ui.KeyMap
	// StateDir is where triage of archives and read-only folders is kept
	// ("" for $XDG_STATE_HOME or ~/.local/state).
	StateDir string
	// Watch reloads a folder packet open in the workbench when its files
	// change; WatchDebounce is the quiet period (0 for WatchQuiet).
	Watch         bool
	WatchDebounce time.Duration
	// Load is how a packet is loaded when it is opened from the inbox or
	// reloaded.
	Load packet.Options
	// Start is where the workbench opens (single packet only).
	Start *common.Target
	// AsyncHighlight colours newly visible diff lines in a command (see
	// Context.AsyncHighlight); tests leave it off to draw whole frames.
	AsyncHighlight bool
	// Since is the comparison with an earlier round (--since), shown on
	// screen 8 of the single packet's workbench.
	Since *compare.Comparison
	// Complete loads the whole packet for a workbench opened on a preview
	// (packet.OpenLogPreview, packet.OpenFindingsPreview), taking over the
	// preview's open logs.
	Complete func(reuse map[string]*packet.Log) (*packet.Packet, error)
	// PostOkToTest is Context.PostOkToTest for the packet opened.
	PostOkToTest func(sha string) (string, error)
	// PosterFor, when set, gives each packet opened from an inbox its own
	// PostOkToTest (a pull request of the queue posts to itself).
	PosterFor func(p *packet.Packet) func(sha string) (string, error)
	// Refresh waits for the refresh of a packet shown from a cache (a pull
	// request read before) and returns what the status line must say when
	// it failed ("" when it did not); the watcher shows what it changed.
	Refresh func() string
}

// App is the program's model. It holds the inbox, the workbench (a Workbench on
// one packet), or the workbench over the inbox, and routes between them; it
// also watches the open packet and reloads it in place.
//
// Every command the workbench returns is tagged with the epoch it was made
// in. A reload or a newly opened packet starts a new epoch, and what a
// screen of an earlier epoch still sends (a rendering of the old text, an
// index of a closed log) is dropped instead of reaching the new screens.
type App struct {
	opts AppOptions
	dark bool

	inbox    *inbox.Inbox
	root     *Workbench
	openName string // the inbox entry the workbench shows

	epoch     int // bumped by every reload and every new workbench
	rootEpoch int // the epoch the current workbench began in

	watch     *Watcher
	logs      packet.Stamps
	reloadSeq int
	openSeq   int

	work          *ui.Background // shared by every workbench's heavy commands
	width, height int
	presized      tea.Cmd       // what Presize's resize asked for, run by Init
	hold          time.Duration // how long Init holds the background work back
	pending       []tea.Msg     // keys and clicks that came while a preview loads
	err           error         // why the program ended, when it ended on an error
	exitLines     []string
	back          key.Binding
}

// rootMsg is a message from a command of the workbench, tagged with the
// epoch the command was made in.
type rootMsg struct {
	epoch int
	msg   tea.Msg
}

// appOpenedMsg carries a packet opened from the inbox.
type appOpenedMsg struct {
	seq        int
	name, path string
	p          *packet.Packet
	logs       packet.Stamps
	err        error
	since      *compare.Comparison // with an earlier round in the inbox, if any
	store      *review.Store
	storeErr   error
}

// appReloadedMsg carries the packet read again after it changed on disk.
type appReloadedMsg struct {
	seq  int
	root *Workbench
	p    *packet.Packet
	logs packet.Stamps
	err  error
}

// appReopenedMsg carries a reloaded packet with its triage store open.
type appReopenedMsg struct {
	appReloadedMsg
	store    *review.Store
	storeErr error
	note     string
	before   int // stale decisions before the reload
}

// openStore binds a packet's triage store for the screens. It reads and may
// repair files under the folder's lock, which another vetter may hold, so
// the workbench calls it in commands (or before the program starts), never
// in Update. The store is detached: the screens save in commands, and only
// Update puts the saved decisions in the packet.
func openStore(p *packet.Packet, stateDir string) (*review.Store, error) {
	s, err := review.OpenStore(p, stateDir)
	if err != nil {
		return nil, err
	}
	s.Detach()
	return s, nil
}

// withRepair adds to a status line what opening the store repaired.
func withRepair(note string, s *review.Store) string {
	if s == nil {
		return note
	}
	for _, said := range []string{s.Repaired(), s.Unsaved()} {
		if said == "" {
			continue
		}
		if note != "" {
			note += " · "
		}
		note += ui.Sanitize(said)
	}
	return note
}

func newApp(opts AppOptions) *App {
	a := &App{opts: opts, dark: opts.Theme != "light", work: ui.NewBackground()}
	a.back = a.keys().Back
	return a
}

// keys is the key map with the config file's remapping, a fresh copy each
// time, so a screen disabling a binding affects no other.
func (a *App) keys() ui.KeyMap {
	if a.opts.Keys != nil {
		return *a.opts.Keys
	}
	return ui.DefaultKeyMap()
}

// NewApp opens one packet in the workbench.
func NewApp(p *packet.Packet, opts AppOptions) *App {
	a := newApp(opts)
	// Before the program starts, so the store opens here.
	store, err := openStore(p, opts.StateDir)
	a.startRoot(p, "", opts.Start, nil, store, err)
	return a
}

// NewInboxApp opens the inbox of a folder of packets. Only the folder is
// listed here; the packets are read once the program runs.
func NewInboxApp(dir string, opts AppOptions) *App {
	a := newApp(opts)
	a.inbox = inbox.NewInbox(dir, ui.NewStyles(a.dark, opts.NoColor), opts.StateDir)
	a.inbox.SetKeys(a.keys())
	return a
}

// NewSourceApp opens the inbox of any source (the vetting queue): its rows
// at once, filled once the program runs.
func NewSourceApp(src inbox.InboxSource, opts AppOptions) *App {
	a := newApp(opts)
	a.inbox = inbox.NewInboxFrom(src, ui.NewStyles(a.dark, opts.NoColor))
	a.inbox.SetKeys(a.keys())
	return a
}

// Inbox returns the inbox, or nil for a single packet.
func (a *App) Inbox() *inbox.Inbox { return a.inbox }

// Workbench returns the open workbench, or nil while the inbox shows.
func (a *App) Workbench() *Workbench { return a.root }

// ExitLines are what the program prints when it ends: the /ok to test
// command of every packet decided ok-to-test in this session.
func (a *App) ExitLines() []string {
	out := append([]string(nil), a.exitLines...)
	if a.root != nil {
		out = append(out, a.root.ExitLines()...)
	}
	return out
}

// Close stops watching and closes the open packet.
func (a *App) Close() {
	a.stopWatch()
	if a.root != nil {
		a.root.ctx.Packet.Close()
	}
}

// Presize lays the screens out for a terminal of w×h before the program
// starts. Bubble Tea knows the size before it draws its first frame but
// tells the model after, so without this the first frame is empty and the
// first real one waits out the renderer's frame interval behind it.
func (a *App) Presize(w, h int) {
	if w > 0 && h > 0 {
		_, a.presized = a.Update(tea.WindowSizeMsg{Width: w, Height: h})
		if a.root != nil {
			a.presized = tea.Batch(a.presized, a.wrap(a.root.OpenStart()))
		}
	}
}

// HoldBackground has Init start the workbench's background work d after
// the program starts rather than at once. Bubble Tea draws the first frame
// when Init returns but writes it on its renderer's next tick, and the work
// Init starts (rendering documents and findings, indexing a log of a
// gigabyte, the attention scan, the watch) would take the process's cores
// from that write: on two cores it took the first screen of a big packet
// a frame or more later. Nothing of that work is on the first frame, which
// Presize lays out before the program starts.
func (a *App) HoldBackground(d time.Duration) { a.hold = d }

// held runs cmd once the hold is over, at once without one.
func (a *App) held(cmd tea.Cmd) tea.Cmd {
	if a.hold <= 0 || cmd == nil {
		return cmd
	}
	return tea.Tick(a.hold, func(time.Time) tea.Msg { return tea.BatchMsg{cmd} })
}

// Init starts reading the inbox, or the workbench's background work and
// the watch.
func (a *App) Init() tea.Cmd {
	if a.previewing() {
		// Loading the packet behind the preview is what the person waits
		// for: it starts once the first frame is out, as the rest does,
		// since on two cores it would take them from that frame's write.
		return a.held(tea.Batch(a.presized, a.wrap(a.root.Init()), a.completeCmd()))
	}
	if a.root != nil {
		return a.held(tea.Batch(a.presized, a.wrap(a.root.Init()), a.startWatch(), a.wrap(a.refreshCmd())))
	}
	var cmds []tea.Cmd
	if a.opts.Theme == "" && !a.opts.NoColor {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	cmds = append(cmds, a.inbox.Init(), a.presized)
	return tea.Batch(cmds...)
}

// startRoot builds the workbench on a packet and makes it current.
func (a *App) startRoot(p *packet.Packet, name string, start *common.Target, since *compare.Comparison, store *review.Store, storeErr error) {
	ctx := common.NewContext(p, a.dark, a.opts.NoColor)
	if a.opts.Keys != nil {
		ctx.Keys = *a.opts.Keys
	}
	ctx.AsyncHighlight = a.opts.AsyncHighlight
	ctx.PostOkToTest = a.opts.PostOkToTest
	if a.opts.PosterFor != nil {
		ctx.PostOkToTest = a.opts.PosterFor(p)
	}
	ctx.Work = a.work
	ctx.Since = a.opts.Since
	if since != nil {
		ctx.Since = since
	}
	ctx.Store, ctx.StoreErr = store, storeErr
	a.epoch++
	a.rootEpoch = a.epoch
	a.root = NewWorkbench(ctx, Options{ForceTheme: a.opts.Theme, Start: start})
	if r := withRepair("", store); r != "" {
		a.root.SetStatus(r)
	}
	a.openName = name
	if !p.Partial {
		// A preview's files are stamped when the packet behind it is
		// there (completed): the watch starts then, not before the first
		// frame.
		a.logs = packet.StampFiles(p)
	}
}

// wrap tags a workbench command with the current epoch.
func (a *App) wrap(cmd tea.Cmd) tea.Cmd { return tagCmd(a.epoch, cmd) }

func tagCmd(epoch int, cmd tea.Cmd) tea.Cmd {
	return mapCmd(cmd, func(m tea.Msg) tea.Msg { return rootMsg{epoch: epoch, msg: m} })
}

// mapCmd runs a command and hands each message it produces, inside batches
// too, through f; nil stays nil. Tagging a workbench's messages with their
// epoch and dropping a status line are the same walk.
func mapCmd(cmd tea.Cmd, f func(tea.Msg) tea.Msg) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		switch m := cmd().(type) {
		case nil:
			return nil
		case tea.BatchMsg:
			out := make(tea.BatchMsg, 0, len(m))
			for _, c := range m {
				if c != nil {
					out = append(out, mapCmd(c, f))
				}
			}
			return out
		default:
			return f(m)
		}
	}
}

// Update routes a message to the inbox or the workbench.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case rootMsg:
		switch msg.msg.(type) {
		case common.EpochBound:
			if a.root == nil || msg.epoch != a.epoch {
				return a, nil // from screens a reload replaced
			}
		case common.WorkbenchMsg:
			if a.root == nil || msg.epoch < a.rootEpoch {
				return a, nil // from a workbench that is gone
			}
		default:
			// Bubble Tea's own messages (quit, a batch in sequence, a
			// cursor blink) go back to the runtime untagged.
			inner := msg.msg
			return a, func() tea.Msg { return inner }
		}
		return a, a.toRoot(msg.msg)
	case tea.WindowSizeMsg:
		a.width, a.height = msg.Width, msg.Height
		if a.inbox != nil {
			a.inbox.SetSize(msg.Width, msg.Height)
		}
		if a.root != nil {
			return a, a.toRoot(msg)
		}
		return a, nil
	case tea.BackgroundColorMsg:
		if a.opts.Theme == "" {
			a.dark = msg.IsDark()
			if a.inbox != nil {
				a.inbox.SetStyles(ui.NewStyles(a.dark, a.opts.NoColor))
			}
		}
		if a.root != nil {
			return a, a.toRoot(msg)
		}
		return a, nil
	case inbox.SourceMsg:
		if a.inbox != nil {
			return a, a.inbox.Update(msg)
		}
		return a, nil
	case inbox.InboxOpenMsg:
		return a, a.open(msg)
	case appOpenedMsg:
		return a, a.opened(msg)
	case watchFiredMsg:
		if msg.W != a.watch || a.root == nil {
			return a, nil
		}
		return a, tea.Batch(a.reloadCmd(), msg.W.Wait())
	case appReloadedMsg:
		return a, a.reloaded(msg)
	case appReopenedMsg:
		return a, a.reopened(msg)
	case appCompletedMsg:
		return a, a.completed(msg)
	case tea.MouseClickMsg, tea.MouseWheelMsg, tea.MouseReleaseMsg:
		if a.previewing() {
			a.pending = append(a.pending, msg)
			a.root.SetStatus("reading the rest of the packet; the keys wait for it…")
			return a, nil
		}
	case tea.KeyPressMsg:
		if msg.String() == "ctrl+c" {
			return a, tea.Quit
		}
		if a.previewing() {
			a.pending = append(a.pending, msg)
			a.root.SetStatus("reading the rest of the packet; the keys wait for it…")
			return a, nil
		}
		if a.root != nil {
			if a.inbox != nil && key.Matches(msg, a.back) && a.root.History() == 0 && a.root.Idle() {
				return a, a.backToInbox()
			}
			return a, a.toRoot(msg)
		}
		return a, a.inbox.Update(msg)
	}
	if a.root != nil {
		return a, a.toRoot(msg)
	}
	if a.inbox != nil {
		return a, a.inbox.Update(msg)
	}
	return a, nil
}

func (a *App) toRoot(msg tea.Msg) tea.Cmd {
	_, cmd := a.root.Update(msg)
	return a.wrap(cmd)
}

// open loads the packet chosen in the inbox in the background; the inbox
// stays usable meanwhile, and only the last packet asked for opens.
func (a *App) open(msg inbox.InboxOpenMsg) tea.Cmd {
	a.openSeq++
	seq, opts, stateDir := a.openSeq, a.opts.Load, a.opts.StateDir
	if a.inbox != nil {
		a.inbox.SetStatus("opening " + msg.Name + "…")
	}
	rounds := a.rounds(msg.Path)
	return a.work.Cmd(func() tea.Msg {
		if msg.Resolve != nil {
			path, err := msg.Resolve()
			if err != nil {
				return appOpenedMsg{seq: seq, name: msg.Name, err: err}
			}
			msg.Path = path
		}
		earlier := ""
		if len(rounds) > 0 {
			earlier = review.EarlierRound(rounds[0], rounds[1:])
		}
		p, err := packet.Load(msg.Path, opts)
		if err != nil {
			return appOpenedMsg{seq: seq, name: msg.Name, path: msg.Path, err: err}
		}
		out := appOpenedMsg{seq: seq, name: msg.Name, path: msg.Path, p: p, logs: packet.StampFiles(p)}
		out.store, out.storeErr = openStore(p, stateDir)
		if earlier != "" {
			if old, err := packet.Load(earlier, opts); err == nil {
				c := compare.Compare(old, p)
				out.since = &c
				old.Close()
			}
		}
		return out
	})
}

// rounds are the inbox's loaded packets as packet.EarlierRound reads them:
// the one at path first. nil without an inbox or when path is not in it.
func (a *App) rounds(path string) []review.InboxRound {
	if a.inbox == nil {
		return nil
	}
	var self *review.InboxRound
	var others []review.InboxRound
	// Every row, not the filtered ones: the earlier round may be hidden.
	for _, r := range a.inbox.AllRows() {
		round := review.InboxRound{Path: r.Path, ID: r.ID, Head: r.Head, Loaded: r.Loaded}
		if r.Path == path {
			self = &round
		} else {
			others = append(others, round)
		}
	}
	if self == nil {
		return nil
	}
	return append([]review.InboxRound{*self}, others...)
}

func (a *App) opened(msg appOpenedMsg) tea.Cmd {
	if msg.seq != a.openSeq || a.root != nil {
		if msg.p != nil {
			msg.p.Close()
		}
		return nil
	}
	if msg.err != nil {
		a.inbox.SetStatus("cannot open " + msg.name + ": " + msg.err.Error())
		return nil
	}
	a.inbox.SetStatus("")
	var start *common.Target
	if msg.since != nil {
		start = &common.Target{Screen: common.ScreenSince, File: -1, Hunk: -1, DiffLine: -1}
	} else if !review.Gate(msg.p).Ready {
		w := walk.Target() // a packet that needs a person opens on the walk
		start = &w
	}
	a.startRoot(msg.p, msg.name, start, msg.since, msg.store, msg.storeErr)
	a.logs = msg.logs
	cmds := []tea.Cmd{a.wrap(a.root.Init())}
	if a.width > 0 && a.height > 0 {
		cmds = append(cmds, a.toRoot(tea.WindowSizeMsg{Width: a.width, Height: a.height}))
	}
	cmds = append(cmds, a.startWatch())
	return tea.Batch(cmds...)
}

// backToInbox closes the workbench and returns to the inbox, where the
// selection is still on the packet; its row is read again, since its
// triage or decision may have changed.
func (a *App) backToInbox() tea.Cmd {
	a.exitLines = append(a.exitLines, a.root.ExitLines()...)
	a.stopWatch()
	a.root.ctx.Packet.Close()
	a.root = nil
	a.epoch++
	a.inbox.Select(a.openName)
	if a.width > 0 {
		a.inbox.SetSize(a.width, a.height)
	}
	return a.inbox.Refresh(a.openName)
}

// startWatch watches the open packet when it is a folder and watching is on.
func (a *App) startWatch() tea.Cmd {
	a.stopWatch()
	if !a.opts.Watch || a.root == nil || a.root.ctx.Packet.Source != source.KindDir {
		return nil
	}
	w, err := NewWatcher(a.root.ctx.Packet.Path, a.opts.WatchDebounce)
	if err != nil {
		a.root.SetStatus("not watching for changes: " + ui.Sanitize(err.Error()))
		return nil
	}
	a.watch = w
	return w.Wait()
}

func (a *App) stopWatch() {
	if a.watch != nil {
		a.watch.Close()
		a.watch = nil
	}
}

// Err is why the program ended, when it ended on an error (the packet
// behind a preview could not be loaded).
func (a *App) Err() error { return a.err }

// previewing reports whether the workbench shows a preview while the packet
// loads: keys and clicks wait in pending until it is there, so none acts on
// a packet half read.
func (a *App) previewing() bool { return a.root != nil && a.root.ctx.Packet.Partial }

// appCompletedMsg brings the whole packet behind a preview.
type appCompletedMsg struct {
	preview, p *packet.Packet
	err        error
	store      *review.Store
	storeErr   error
}

// completeCmd loads the packet behind the preview. It runs outside the
// background slots: it is what the person is waiting for.
func (a *App) completeCmd() tea.Cmd {
	pv, complete := a.root.ctx.Packet, a.opts.Complete
	if complete == nil {
		a.err = errors.New("a preview was opened with nothing to load the packet")
		return tea.Quit
	}
	reuse := make(map[string]*packet.Log, len(pv.Logs))
	for _, l := range pv.Logs {
		reuse[l.Path] = l
	}
	stateDir := a.opts.StateDir
	return func() tea.Msg {
		p, err := complete(reuse)
		if err != nil {
			return appCompletedMsg{preview: pv, err: err}
		}
		store, serr := openStore(p, stateDir)
		return appCompletedMsg{preview: pv, p: p, store: store, storeErr: serr}
	}
}

// completed puts the whole packet in place of the preview, keeping every
// screen where it is, and then plays the keys that came meanwhile.
func (a *App) completed(msg appCompletedMsg) tea.Cmd {
	if a.root == nil || a.root.ctx.Packet != msg.preview {
		return nil // cannot happen: a preview is the first and only packet
	}
	if msg.err != nil {
		a.err = msg.err
		return tea.Quit
	}
	a.logs = packet.StampFiles(msg.p)
	a.epoch++
	cmds := []tea.Cmd{a.wrap(a.root.Reload(msg.p, msg.store, msg.storeErr, withRepair("", msg.store)))}
	msg.preview.Logs = nil // msg.p's now
	msg.preview.Close()
	cmds = append(cmds, a.startWatch())
	pending := a.pending
	a.pending = nil
	for _, m := range pending {
		_, cmd := a.Update(m)
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

// reloadCmd reads the open packet again in the background.
func (a *App) reloadCmd() tea.Cmd {
	a.reloadSeq++
	seq, root, path, opts := a.reloadSeq, a.root, a.root.ctx.Packet.Path, a.opts.Load
	return a.work.Cmd(func() tea.Msg {
		p, err := packet.Load(path, opts)
		if err != nil {
			return appReloadedMsg{seq: seq, root: root, err: err}
		}
		return appReloadedMsg{seq: seq, root: root, p: p, logs: packet.StampFiles(p)}
	})
}

// reloaded puts the packet read again in place and says what changed.
// Triage carries over by finding id, and a finding whose text changed shows
// its decision stale.
func (a *App) reloaded(msg appReloadedMsg) tea.Cmd {
	if msg.seq != a.reloadSeq || msg.root != a.root || a.root == nil {
		if msg.p != nil {
			msg.p.Close()
		}
		return nil
	}
	if msg.err != nil {
		a.root.SetStatus("reloading failed, still showing the previous read: " + ui.Sanitize(msg.err.Error()))
		return nil
	}
	old := a.root.ctx.Packet
	note, changed := compare.DescribeReload(old, msg.p, a.logs, msg.logs)
	if !changed {
		msg.p.Close()
		return nil
	}
	review.CarryTriage(old, msg.p)
	// The store opens in a command: it takes the folder's lock.
	out := appReopenedMsg{appReloadedMsg: msg, note: note, before: review.StaleCount(old)}
	stateDir := a.opts.StateDir
	return func() tea.Msg {
		out.store, out.storeErr = openStore(out.p, stateDir)
		return out
	}
}

// reopened puts the reloaded packet, its store open, in place of the old.
func (a *App) reopened(msg appReopenedMsg) tea.Cmd {
	if msg.seq != a.reloadSeq || msg.root != a.root || a.root == nil {
		msg.p.Close()
		return nil
	}
	old, note := a.root.ctx.Packet, msg.note
	if after := review.StaleCount(msg.p); after > msg.before {
		note += fmt.Sprintf(" · %s now stale", common.Plural(after-msg.before, "triaged finding"))
	}
	a.logs = msg.logs
	a.epoch++
	cmd := a.wrap(a.root.Reload(msg.p, msg.store, msg.storeErr, withRepair(note, msg.store)))
	old.Close()
	return cmd
}

// View draws the workbench, or the inbox.
func (a *App) View() tea.View {
	if a.root != nil {
		return a.root.View()
	}
	var v tea.View
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.SetContent(a.inbox.View())
	return v
}

// Render returns the screen as text, for tests.
func (a *App) Render() string { return a.View().Content }

// refreshCmd waits, off the screen's loop, for the refresh behind a cached
// copy, and says on the status line when it failed.
func (a *App) refreshCmd() tea.Cmd {
	refresh := a.opts.Refresh
	if refresh == nil {
		return nil
	}
	return func() tea.Msg {
		if s := refresh(); s != "" {
			return common.StaleMsg{Text: s}
		}
		return nil
	}
}
