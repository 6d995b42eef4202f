package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/tui/screens/decision"
	"github.com/vetter-dev/vetter/tui/screens/diff"
	"github.com/vetter-dev/vetter/tui/screens/docs"
	"github.com/vetter-dev/vetter/tui/screens/evidence"
	"github.com/vetter-dev/vetter/tui/screens/findings"
	helpscreen "github.com/vetter-dev/vetter/tui/screens/help"
	"github.com/vetter-dev/vetter/tui/screens/logs"
	"github.com/vetter-dev/vetter/tui/screens/overview"
	"github.com/vetter-dev/vetter/tui/screens/since"
	"github.com/vetter-dev/vetter/tui/screens/walk"
	"github.com/vetter-dev/vetter/ui"
)

// Capturer is implemented by a screen that has its own text input open (the
// log's go-to-line prompt): while it captures, every key goes to it.
type Capturer interface {
	Capturing() bool
}

// Options configure the workbench.
type Options struct {
	// ForceTheme skips background detection ("dark" or "light"; "" detects).
	ForceTheme string
	// Start is where the workbench opens (from --open); nil opens the overview.
	Start *common.Target
}

// Workbench is the model of one packet's screens: it owns the tab bar, the status line, the
// history, search and the overlays, and routes everything else to the
// active screen. It does none of the screens' work.
type Workbench struct {
	// saves counts the saves in flight; while one is, or while a key's
	// effect has not come back yet (waiting), the keys typed ahead wait in
	// held and are then applied in order, each to the state it was typed
	// against (typeahead.go).
	saves   int
	waiting bool
	held    []tea.KeyPressMsg

	ctx     *common.Context
	opts    Options
	started bool // the start target was opened
	screens [common.ScreenCount]common.Screen
	active  common.ScreenID
	history []common.Target

	width, height int

	searching bool
	search    textinput.Model
	query     string
	matches   int

	palette  *paletteModel
	prompt   *promptModel
	showHelp bool
	helpm    *helpscreen.Model // the help shown while showHelp (help.go)

	// exitLines are printed to standard output when the program ends: the
	// /ok to test command after an ok-to-test decision.
	exitLines []string
	help      help.Model

	status string // transient message, cleared on the next key
	stale  string // a failed refresh of what is shown (StaleMsg); it stays
}

// NewWorkbench builds the workbench over a context.
func NewWorkbench(ctx *common.Context, opts Options) *Workbench {
	r := &Workbench{ctx: ctx, opts: opts, help: help.New()}
	r.screens = newScreens(ctx)
	r.search = textinput.New()
	r.search.Prompt = "/"
	r.search.CharLimit = 256
	r.help.Styles = ctx.Styles.HelpStyles()
	return r
}

// Active returns the active screen's id.
func (r *Workbench) Active() common.ScreenID { return r.active }

// Screen returns a screen, for tests.
func (r *Workbench) Screen(id common.ScreenID) common.Screen { return r.screens[id] }

// History returns how many places backspace can return to.
func (r *Workbench) History() int { return len(r.history) }

// Init starts every screen's background work and asks the terminal for its
// background colour unless the theme is forced.
func (r *Workbench) Init() tea.Cmd {
	cmds := []tea.Cmd{}
	if r.opts.ForceTheme == "" && !r.ctx.NoColor {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	for _, s := range r.screens {
		cmds = append(cmds, s.Init())
	}
	// Who decides is asked here, behind the screen, so that the first
	// decision recorded does not wait for git either.
	ctx := r.ctx
	cmds = append(cmds, r.OpenStart(), func() tea.Msg { ctx.Who(); return nil })
	return tea.Batch(cmds...)
}

// OpenStart goes to the start target (--open), once: from Init, or earlier
// from App.Presize, so the first frame is the cited place and not the
// overview a frame before it.
func (r *Workbench) OpenStart() tea.Cmd {
	if r.started || r.opts.Start == nil {
		return nil
	}
	r.started = true
	return r.open(*r.opts.Start)
}

// bodyHeight leaves a row for the tab bar and one for the status line.
// newScreens builds every screen over a context; a reload builds them again.
func newScreens(ctx *common.Context) [common.ScreenCount]common.Screen {
	return [common.ScreenCount]common.Screen{
		common.ScreenOverview: overview.New(ctx),
		common.ScreenDocs:     docs.New(ctx),
		common.ScreenDiff:     diff.New(ctx),
		common.ScreenFindings: findings.New(ctx),
		common.ScreenEvidence: evidence.New(ctx),
		common.ScreenLogs:     logs.New(ctx),
		common.ScreenDecision: decision.New(ctx),
		common.ScreenSince:    since.New(ctx),
		common.ScreenWalk:     walk.New(ctx),
	}
}

// shown reports whether a screen has a tab: "since" only with an earlier round.
func (r *Workbench) shown(id common.ScreenID) bool {
	return id != common.ScreenWalk && (id != common.ScreenSince || r.ctx.Since != nil || r.ctx.SinceLoading != "" || r.hasRounds())
}

// cycle is the next shown screen from the active one in direction dir.
func (r *Workbench) cycle(dir int) common.ScreenID {
	id := r.active
	for range common.ScreenCount {
		id = (id + common.ScreenID(dir) + common.ScreenCount) % common.ScreenCount
		if r.shown(id) {
			return id
		}
	}
	return r.active
}

func (r *Workbench) bodyHeight() int { return max(r.height-2, 1) }

// Update routes a message: quit keys first, then an open text input, then
// global keys, then the active screen. Data messages reach every screen,
// which keeps only its own (they carry their owner's type).
func (r *Workbench) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := r.update(msg)
	// Whatever the message did, the active screen may have left work for
	// the background (the diff's colours, a large log's search).
	if p := r.pending(); p != nil {
		cmd = tea.Batch(cmd, p)
	}
	return m, cmd
}

func (r *Workbench) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		r.width, r.height = msg.Width, msg.Height
		for _, s := range r.screens {
			s.SetSize(r.width, r.bodyHeight())
		}
		r.search.SetWidth(max(r.width-20, 10))
		r.help.SetWidth(r.width)
		if r.palette != nil {
			r.palette.setSize(r.width, r.bodyHeight())
		}
		if r.prompt != nil {
			r.prompt.setSize(r.width, r.bodyHeight())
		}
		if r.helpm != nil {
			r.helpm.SetSize(r.width, r.bodyHeight())
		}
		// Screens start width-dependent work (rendering) from Update.
		return r, r.broadcast(msg)
	case tea.BackgroundColorMsg:
		if r.opts.ForceTheme == "" {
			r.ctx.SetDark(msg.IsDark())
			r.help.Styles = r.ctx.Styles.HelpStyles()
			return r, r.broadcast(common.ThemeChangedMsg{})
		}
		return r, nil
	case common.FollowMsg:
		r.history = append(r.history, r.screens[r.active].Here())
		return r, r.open(msg.To)
	case common.StatusMsg:
		r.status = msg.Text
		return r, nil
	case common.StaleMsg:
		r.stale = msg.Text
		return r, nil
	case decision.DecideMsg:
		return r, r.askDecision(msg.Decision)
	case TriageSavedMsg:
		return r, r.savedThenRelease(msg)
	case keysReleasedMsg:
		r.waiting = false
		return r, r.replay()
	case confirmPostMsg:
		return r, r.askPost(msg.sha)
	case common.ErrorMsg:
		r.status = "error: " + ui.Sanitize(msg.Err.Error())
		return r, nil
	case tea.MouseClickMsg:
		if msg.Y == 0 {
			if id, ok := r.tabAt(msg.X); ok {
				return r, r.switchTo(id)
			}
			return r, nil
		}
		return r, r.screens[r.active].Update(r.shiftMouse(msg))
	case tea.MouseWheelMsg:
		return r, r.screens[r.active].Update(r.shiftMouse(msg))
	case tea.KeyPressMsg:
		if r.holding() {
			if msg.String() == "ctrl+c" {
				return r, tea.Quit
			}
			r.held = append(r.held, msg)
			return r, nil
		}
		return r, r.keyInTurn(msg)
	case tea.PasteMsg:
		if r.prompt != nil {
			return r, r.prompt.paste(msg)
		}
	}
	return r, r.broadcast(msg)
}

// shiftMouse makes mouse coordinates relative to the screen body.
func (r *Workbench) shiftMouse(msg tea.Msg) tea.Msg {
	switch m := msg.(type) {
	case tea.MouseClickMsg:
		m.Y--
		return m
	case tea.MouseWheelMsg:
		m.Y--
		return m
	}
	return msg
}

func (r *Workbench) broadcast(msg tea.Msg) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(r.screens))
	for _, s := range r.screens {
		cmds = append(cmds, s.Update(msg))
	}
	return tea.Batch(cmds...)
}

func (r *Workbench) key(msg tea.KeyPressMsg) tea.Cmd {
	if msg.String() == "ctrl+c" {
		return tea.Quit
	}
	r.status = ""
	if r.searching {
		return r.searchKey(msg)
	}
	if r.prompt != nil {
		done, cmd := r.prompt.update(msg)
		if done {
			r.prompt = nil
		}
		return cmd
	}
	if r.palette != nil {
		t, done, cmd := r.palette.update(msg)
		if done {
			r.palette = nil
			if t != nil {
				return common.Follow(*t)
			}
		}
		return cmd
	}
	if r.showHelp {
		return r.helpKey(msg)
	}
	if c, ok := r.screens[r.active].(Capturer); ok && c.Capturing() {
		return r.screens[r.active].Update(msg)
	}
	if cmd, ok := r.keys().Dispatch(msg); ok {
		return cmd
	}
	if cmd, ok := r.triageKey(msg); ok {
		return cmd
	}
	if cmd, ok := r.tabKeys().Dispatch(msg); ok {
		return cmd
	}
	return r.screens[r.active].Update(msg)
}

// keys are the workbench's own keys, answered on every screen before the
// screen's, in the order help lists them under "Everywhere". Follow is
// listed there but answered by the screens, each following what it shows.
func (r *Workbench) keys() common.KeyTable {
	km := r.ctx.Keys
	return common.KeyTable{
		{Key: km.Walk, Handler: func(tea.KeyPressMsg) tea.Cmd { return r.walkKey() }},
		{Key: km.Follow},
		{Key: km.Back, Handler: func(tea.KeyPressMsg) tea.Cmd { return r.back() }},
		{Key: km.Copy, Handler: func(tea.KeyPressMsg) tea.Cmd { return r.copyKey() }},
		{Key: km.Edit, Handler: func(tea.KeyPressMsg) tea.Cmd { return r.editKey() }},
		{Key: km.Search, Handler: func(tea.KeyPressMsg) tea.Cmd {
			r.searching = true
			r.search.SetValue("")
			return r.search.Focus()
		}},
		{Key: km.NextMatch, Handler: func(tea.KeyPressMsg) tea.Cmd {
			r.screens[r.active].NextMatch(1)
			return r.pending()
		}},
		{Key: km.PrevMatch, Handler: func(tea.KeyPressMsg) tea.Cmd {
			r.screens[r.active].NextMatch(-1)
			return r.pending()
		}},
		{Key: km.Palette, Handler: func(tea.KeyPressMsg) tea.Cmd {
			r.palette = newPalette(r.ctx)
			r.palette.setSize(r.width, r.bodyHeight())
			return r.palette.focus()
		}},
		{Key: km.Help, Handler: func(tea.KeyPressMsg) tea.Cmd {
			r.openHelp()
			return nil
		}},
		{Key: km.Quit, Handler: func(tea.KeyPressMsg) tea.Cmd { return tea.Quit }},
	}
}

// tabKeys switch screens: a screen's number, the next and the previous
// one. The since screen's number is answered only while it has a tab, and
// help names the first seven.
func (r *Workbench) tabKeys() common.KeyTable {
	km := r.ctx.Keys
	var t common.KeyTable
	for i, b := range km.Screens() {
		id := common.ScreenID(i)
		if i >= int(common.ScreenCount) || !r.shown(id) {
			continue
		}
		t = append(t, common.Binding{Key: b, Unlisted: i >= 7, Handler: func(tea.KeyPressMsg) tea.Cmd { return r.switchTo(id) }})
	}
	return append(t,
		common.Binding{Key: km.NextScreen, Handler: func(tea.KeyPressMsg) tea.Cmd { return r.switchTo(r.cycle(1)) }},
		common.Binding{Key: km.PrevScreen, Handler: func(tea.KeyPressMsg) tea.Cmd { return r.switchTo(r.cycle(-1)) }},
	)
}

func (r *Workbench) searchKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		r.searching = false
		r.search.Blur()
		return nil
	case "enter":
		r.searching = false
		r.search.Blur()
		r.query = r.search.Value()
		r.matches = r.screens[r.active].Search(r.query)
		switch {
		case r.query == "":
		case r.matches < 0:
			r.status = fmt.Sprintf("searching for %q…", r.query)
		case r.matches == 0:
			r.status = fmt.Sprintf("no match for %q", r.query)
		default:
			r.status = fmt.Sprintf("%s for %q · n/N next/previous", packet.Count(r.matches, "match", "matches"), r.query)
		}
		return r.pending()
	}
	var cmd tea.Cmd
	r.search, cmd = r.search.Update(msg)
	return cmd
}

// PendingCmder is a screen that leaves work for the background: a large
// log's search, the diff's colours. After every message the root runs the
// command the active screen leaves.
type PendingCmder interface {
	PendingCmd() tea.Cmd
}

func (r *Workbench) pending() tea.Cmd {
	if p, ok := r.screens[r.active].(PendingCmder); ok {
		return p.PendingCmd()
	}
	return nil
}

// switchTo makes a screen active without touching history (tabs are not follows).
func (r *Workbench) switchTo(id common.ScreenID) tea.Cmd {
	if id < 0 || id >= common.ScreenCount {
		return nil
	}
	r.active = id
	return nil
}

// open goes to a target: its screen becomes active and positions itself.
func (r *Workbench) open(t common.Target) tea.Cmd {
	if t.Screen < 0 || t.Screen >= common.ScreenCount {
		return nil
	}
	r.active = t.Screen
	return r.screens[t.Screen].Open(t)
}

// back returns to where the last follow came from.
func (r *Workbench) back() tea.Cmd {
	if len(r.history) == 0 {
		r.status = "nothing to go back to"
		return nil
	}
	t := r.history[len(r.history)-1]
	r.history = r.history[:len(r.history)-1]
	return r.open(t)
}

// tabAt returns the tab under column x of the tab bar.
func (r *Workbench) tabAt(x int) (common.ScreenID, bool) {
	col := 0
	for id := common.ScreenID(0); id < common.ScreenCount; id++ {
		if !r.shown(id) {
			continue
		}
		w := ansi.StringWidth(tabLabel(id))
		if x >= col && x < col+w {
			return id, true
		}
		col += w
	}
	return 0, false
}

func tabLabel(id common.ScreenID) string { return fmt.Sprintf(" %d %s ", int(id)+1, id) }

// View composes the tab bar, the active screen (or an overlay) and the status line.
func (r *Workbench) View() tea.View {
	var v tea.View
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	if r.width <= 0 || r.height <= 0 {
		v.SetContent("")
		return v
	}
	var b strings.Builder
	b.WriteString(r.tabBar())
	b.WriteByte('\n')
	switch {
	case r.showHelp:
		b.WriteString(r.helpView())
	case r.prompt != nil:
		b.WriteString(r.prompt.over(r.screens[r.active].View(), r.width, r.bodyHeight()))
	case r.palette != nil:
		b.WriteString(r.palette.view())
	default:
		b.WriteString(r.screens[r.active].View())
	}
	b.WriteByte('\n')
	b.WriteString(r.statusLine())
	v.SetContent(b.String())
	return v
}

// ExitLines are what vetter prints when it ends (the /ok to test command).
func (r *Workbench) ExitLines() []string { return r.exitLines }

// Render returns the whole screen as text, for tests and golden files.
func (r *Workbench) Render() string { return r.View().Content }

// tabBar is the screens' tabs and, on the right, the work item and the
// head the packet describes: what the reviewer is deciding on, on every
// screen. When the full names leave no room for it (80 columns), the tabs
// other than the active one shrink to their numbers, which are their keys.
func (r *Workbench) tabBar() string {
	st, p := r.ctx.Styles, r.ctx.Packet
	right := st.Text(p.Plan.ID, st.Accent)
	if head := commitid.Short(p.Change.HeadSHA); head != "" {
		if p.Plan.ID != "" {
			right += " "
		}
		right += st.Muted.Render(head)
	}
	bar := func(compact bool) string {
		var b strings.Builder
		for id := common.ScreenID(0); id < common.ScreenCount; id++ {
			if !r.shown(id) {
				continue
			}
			if id == r.active {
				b.WriteString(st.Selection.Render(tabLabel(id)))
			} else if compact {
				b.WriteString(st.Muted.Render(fmt.Sprintf(" %d ", int(id)+1)))
			} else {
				b.WriteString(st.Muted.Render(tabLabel(id)))
			}
		}
		return b.String()
	}
	left := bar(false)
	if ansi.StringWidth(left)+ansi.StringWidth(right)+1 > r.width {
		left = bar(true)
	}
	return common.PadBetween(left, right, r.width)
}

func (r *Workbench) statusLine() string {
	st := r.ctx.Styles
	if r.searching {
		return common.Fit(r.search.View(), r.width)
	}
	badge := st.StatusBar.Render(" "+r.active.String()+" ") + " "
	// Line, not Text: the status line is one row whatever a message holds
	// (an error from git or the network may span lines).
	left := st.Line(r.screens[r.active].Status(), st.Base)
	var right string
	switch {
	case r.status != "":
		right = st.Line(r.status, st.Accent)
	case r.stale != "":
		right = st.Line(r.stale, st.Warn)
	default:
		right = r.statusHints(ansi.StringWidth(badge), ansi.StringWidth(left))
	}
	return statusFit(badge, left, right, r.width)
}

// hasRounds: the pull request tells of rounds, which the since screen lists
// even before vetter saw an earlier round.
func (r *Workbench) hasRounds() bool {
	p := r.ctx.Packet
	return p != nil && p.Origin != nil && len(p.Origin.Rounds) > 0
}
