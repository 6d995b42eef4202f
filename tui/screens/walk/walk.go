// Package walk is the guided walk: the verdict and the evidence, then each
// finding still open with what it cites, one key at a time, then the
// decision.
package walk

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/report"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/ui"
)

// Walk is the guided walk: the path a vetter takes on every
// packet, one key at a time. It shows the verdict and the evidence first,
// then each finding not yet triaged with the diff line it cites and the
// first log line it cites on one screen, so nothing needs following to
// judge it, and the triage keys act there and step on. When every finding
// is triaged (or passed over with space) the walk hands over to the
// decision screen and its gate.
//
// The walk has no tab: W reaches it from anywhere, and the workbench opens
// on it when the gate is not ready.
type Walk struct {
	ctx  *common.Context
	keys walkKeyMap

	width, height int

	// What the vetter has looked at in this session: the verdict step, and
	// findings passed over with space (a triaged finding needs no mark).
	verdictSeen bool
	passed      map[string]bool

	onVerdict bool   // the verdict step is shown
	cur       string // the finding shown, "" when none
	// picked is the finding a triage key was pressed on here: when its
	// save arrives and it is no longer open, the walk steps on.
	picked string

	lines []string // the step as drawn: head, the body's rows in view, keys
	// step is the current step as last built; scroll is the first row of
	// its body in view when the body is longer than the screen (scrollMax
	// the last first row, rows how many are in view), kept while the same
	// step (scrollFor) is redrawn.
	step              walkStep
	scroll, scrollMax int
	rows              int
	scrollFor         string
	// waitLog is a log whose cited line the index had not reached when the
	// step was drawn; View draws the step again once it has.
	waitLog *packet.Log
	// openN is how many findings are open as of the last rebuild: a
	// finding's fingerprint is a hash of its text, and the status line
	// asks every frame.
	openN int
}

type walkKeyMap struct {
	Next, ToDiff, ToLog key.Binding
}

func newWalkKeyMap() walkKeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return walkKeyMap{
		Next:   b("space", "next (pass over)", "space"),
		ToDiff: b("enter", "open the cited line", "enter"),
		ToLog:  b("o", "open the cited log", "o"),
	}
}

// New builds the walk on its first step.
func New(ctx *common.Context) *Walk {
	w := &Walk{ctx: ctx, keys: newWalkKeyMap(), passed: map[string]bool{}, onVerdict: true}
	return w
}

// Init has nothing to start: the walk draws from the packet as loaded.
func (w *Walk) Init() tea.Cmd { return nil }

// SetSize lays the step out again.
func (w *Walk) SetSize(width, height int) {
	w.width, w.height = max(width, 0), max(height, 0)
	w.rebuild()
}

// Current is the finding the walk shows, "" on the verdict step or at the end.
func (w *Walk) Current() string { return w.cur }

// OnVerdict reports whether the verdict step is shown.
func (w *Walk) OnVerdict() bool { return w.onVerdict }

// open reports whether a finding still needs a decision.
func (w *Walk) open(f *packet.Finding) bool { return !review.Triaged(w.ctx.Packet, f) }

// untriaged counts the findings still open, and the position of id among
// them (1-based, 0 when it is not one of them).
func (w *Walk) untriaged(id string) (n, at int) {
	for _, f := range w.ctx.Packet.Findings {
		if w.open(f) {
			n++
			if f.ID == id {
				at = n
			}
		}
	}
	return n, at
}

// nextFinding is the first open finding, in the table's order, that the
// vetter has not passed over; "" when none is left.
func (w *Walk) nextFinding() string {
	for _, f := range w.ctx.Packet.Findings {
		if w.open(f) && !w.passed[f.ID] {
			return f.ID
		}
	}
	return ""
}

// Done reports whether the walk has nothing left to show before the decision.
func (w *Walk) Done() bool { return w.verdictSeen && w.nextFinding() == "" }

// settle puts the walk on the next thing not looked at.
func (w *Walk) settle() {
	w.onVerdict = !w.verdictSeen
	w.cur = ""
	if !w.onVerdict {
		w.cur = w.nextFinding()
	}
	w.rebuild()
}

// Advance marks what is shown as looked at and moves on; at the end it
// hands over to the decision screen.
func (w *Walk) Advance() tea.Cmd {
	if w.onVerdict {
		w.verdictSeen = true
	} else if w.cur != "" {
		w.passed[w.cur] = true
	}
	w.settle()
	if w.Done() {
		return common.Follow(DecisionTarget())
	}
	return nil
}

// DecisionTarget is the decision screen, where the walk hands over.
func DecisionTarget() common.Target {
	return common.Target{Screen: common.ScreenDecision, File: -1, Hunk: -1, DiffLine: -1}
}

// Target is the walk itself.
func Target() common.Target {
	return common.Target{Screen: common.ScreenWalk, File: -1, Hunk: -1, DiffLine: -1}
}

// Open goes to the next thing not looked at. A finding named by the target
// (going back to the walk) is shown again if it is still open.
func (w *Walk) Open(t common.Target) tea.Cmd {
	if t.Offset == walkVerdictSeen {
		w.verdictSeen = true
	}
	if f := w.ctx.Packet.Finding(t.Finding); f != nil && w.open(f) && w.verdictSeen {
		w.onVerdict, w.cur = false, f.ID
		w.rebuild()
		return nil
	}
	w.settle()
	return nil
}

// walkVerdictSeen in Target.Offset (the walk keeps no scroll position
// across a reload) carries across a reload that the verdict was looked at.
const walkVerdictSeen = 1

// Here remembers the finding shown and whether the verdict was seen.
func (w *Walk) Here() common.Target {
	t := Target()
	t.Finding = w.cur
	if w.verdictSeen {
		t.Offset = walkVerdictSeen
	}
	return t
}

// PickedFindings is the finding shown: the triage keys act on it. Being
// asked means a triage key was pressed here, so the walk steps on once the
// decision is saved.
func (w *Walk) PickedFindings() []string {
	if w.cur == "" {
		return nil
	}
	w.picked = w.cur
	return []string{w.cur}
}

// Update steps on after a triage made here, and handles the walk's keys.
func (w *Walk) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.LogIndexedMsg:
		w.refreshWaitedLog()
	case common.TriageChangedMsg:
		// Other changes redraw the gate too (the attention scan finishing):
		// the finding picked here stays picked until its own save shows it
		// decided, so the walk steps on then and not before.
		if w.picked != "" && w.picked == w.cur {
			if f := w.ctx.Packet.Finding(w.cur); f == nil || !w.open(f) {
				w.picked = ""
				w.settle()
				if w.Done() {
					return common.Follow(DecisionTarget())
				}
				return nil
			}
		}
		w.rebuild()
	case common.ThemeChangedMsg:
		w.rebuild()
	case tea.KeyPressMsg:
		cmd, _ := w.keyTable().Dispatch(msg)
		return cmd
	}
	return nil
}

// Place is the citation the finding is judged against: its first diff
// line, else its location, else its first resolved citation.
func (w *Walk) Place() *packet.Citation {
	f := w.ctx.Packet.Finding(w.cur)
	if f == nil {
		return nil
	}
	if c := firstCitation(f, func(c *packet.Citation) bool { return c.Kind == packet.CiteDiff }); c != nil {
		return c
	}
	if c := report.DiffLocation(w.ctx.Packet, f); c != nil {
		return c
	}
	return firstCitation(f, func(c *packet.Citation) bool { return c.Kind != packet.CiteExternal && c.Kind != packet.CiteLog })
}

// LogCitation is the first log line the finding cites, nil when none.
func (w *Walk) LogCitation() *packet.Citation {
	f := w.ctx.Packet.Finding(w.cur)
	if f == nil {
		return nil
	}
	return firstCitation(f, func(c *packet.Citation) bool { return c.Kind == packet.CiteLog })
}

// citedRun is the registry run the finding cites, nil when none.
func (w *Walk) citedRun() *packet.Run {
	f := w.ctx.Packet.Finding(w.cur)
	if f == nil {
		return nil
	}
	c := firstCitation(f, func(c *packet.Citation) bool { return c.Kind == packet.CiteRegistry })
	if c == nil {
		return nil
	}
	for _, r := range w.ctx.Packet.Registry.Runs {
		if r.Line == c.Line {
			return r
		}
	}
	return nil
}

// firstCitation is the finding's first resolved citation that match
// accepts, nil when none does.
func firstCitation(f *packet.Finding, match func(*packet.Citation) bool) *packet.Citation {
	for i := range f.Citations {
		if c := &f.Citations[i]; c.Resolved && match(c) {
			return c
		}
	}
	return nil
}

func (w *Walk) placeTarget() (common.Target, bool) {
	if w.onVerdict {
		p := w.ctx.Packet
		return common.Target{Screen: common.ScreenDocs, Path: p.Verdict.Where(), Line: p.Verdict.Line, File: -1, Hunk: -1, DiffLine: -1}, true
	}
	c := w.Place()
	if c == nil {
		return common.Target{}, false
	}
	return common.TargetForCitation(*c)
}

// refreshWaitedLog draws the step again once the log it waits for has been
// indexed far enough to show the cited line; the log screen's indexing
// reports its progress to every screen.
func (w *Walk) refreshWaitedLog() {
	if l := w.waitLog; l != nil {
		if c := w.LogCitation(); c == nil || c.Target != l.Path || l.Indexed() || l.LineCount() >= c.Line+w.height {
			w.rebuild()
		}
	}
}

// View draws the step.
func (w *Walk) View() string {
	return common.FitBlock(strings.Join(w.lines, "\n"), w.width, w.height)
}

// Status says where the walk is.
func (w *Walk) Status() string {
	n := w.openN
	switch {
	case w.onVerdict:
		return fmt.Sprintf("verdict and evidence · then %s", common.Plural(n, "open finding"))
	case w.cur != "":
		return fmt.Sprintf("%s · %d of %d findings open", w.cur, n, len(w.ctx.Packet.Findings))
	}
	return "nothing left before the decision"
}

// keyTable is the walk's keys in the order help lists them: triage on a
// finding, then stepping on. The triage keys, copy and edit are the
// workbench's (it triages what PickedFindings names and copies and edits
// Place): the table lists them where the walk's help shows them.
func (w *Walk) keyTable() common.KeyTable {
	k := w.ctx.Keys
	next := common.Binding{Key: w.keys.Next, Handler: func(tea.KeyPressMsg) tea.Cmd { return w.Advance() }}
	toDiff := common.Binding{Key: w.keys.ToDiff, Handler: func(tea.KeyPressMsg) tea.Cmd {
		if t, ok := w.placeTarget(); ok {
			return common.Follow(t)
		}
		return nil
	}}
	toLog := common.Binding{Key: w.keys.ToLog, Handler: func(tea.KeyPressMsg) tea.Cmd { return w.openLog() }}
	if w.cur == "" {
		toLog.Unlisted = true // no finding, no log: o only says so
		return append(common.KeyTable{next, toDiff, {Key: k.Walk}, toLog}, w.scrollKeys()...)
	}
	return append(common.KeyTable{{Key: k.Accept}, {Key: k.Dismiss}, {Key: k.Defer}, next, {Key: k.Note}, {Key: k.Reopen}, toDiff, toLog, {Key: k.Copy}, {Key: k.Edit}},
		w.scrollKeys()...)
}

// scrollKeys move a step that does not fit on the screen; help lists them
// while the step shown scrolls.
func (w *Walk) scrollKeys() common.KeyTable {
	k := w.ctx.Keys
	by := func(b key.Binding, to func() int) common.Binding {
		return common.Binding{Key: b, Unlisted: w.scrollMax == 0, Handler: func(tea.KeyPressMsg) tea.Cmd {
			w.scrollTo(to())
			return nil
		}}
	}
	return common.KeyTable{
		by(k.Down, func() int { return w.scroll + 1 }),
		by(k.Up, func() int { return w.scroll - 1 }),
		by(k.HalfPageDown, func() int { return w.scroll + max(w.rows/2, 1) }),
		by(k.HalfPageUp, func() int { return w.scroll - max(w.rows/2, 1) }),
		by(k.PageDown, func() int { return w.scroll + max(w.rows-1, 1) }),
		by(k.PageUp, func() int { return w.scroll - max(w.rows-1, 1) }),
		by(k.Top, func() int { return 0 }),
		by(k.Bottom, func() int { return w.scrollMax }),
	}
}

// openLog follows the log line the finding cites, or the log of the run it
// cites.
func (w *Walk) openLog() tea.Cmd {
	if c := w.LogCitation(); c != nil {
		if c.Line == 0 && c.Anchor.Marked() {
			// A log named without a line opens where its quote is.
			cc := *c
			cc.Line, cc.EndLine = c.Anchor.Line, c.Anchor.EndLine
			c = &cc
		}
		if t, ok := common.TargetForCitation(*c); ok {
			return common.Follow(t)
		}
	}
	if r := w.citedRun(); r != nil && r.Log != "" {
		if t, ok := common.TargetForCitation(w.ctx.Packet.ResolveText(r.Log)); ok {
			return common.Follow(t)
		}
	}
	return func() tea.Msg { return common.StatusMsg{Text: "no log line cited here"} }
}

// Bindings are the walk's keys: the key table's.
func (w *Walk) Bindings() []key.Binding { return w.keyTable().Keys() }

// Search and NextMatch: a step of the walk is a screen or two; search is
// the other screens' business.
func (w *Walk) Search(string) int { return 0 }

// NextMatch does nothing on the walk.
func (w *Walk) NextMatch(int) {}

// rebuild draws the body for the current step.
func (w *Walk) rebuild() {
	w.waitLog = nil
	w.openN, _ = w.untriaged(w.cur)
	if w.width <= 0 || w.height <= 0 {
		w.lines = nil
		return
	}
	id := w.cur
	switch {
	case w.onVerdict:
		id = "\x00verdict"
		w.step = w.verdictStep()
	case w.cur == "":
		w.step = w.doneStep()
	default:
		w.step = w.findingStep()
	}
	if id != w.scrollFor {
		w.scroll, w.scrollFor = 0, id
	}
	w.layout()
}

// walkStep is one step of the walk: a head that stays on screen (what the
// step is about), the body under it, and the keys on the bottom row. A body
// longer than the screen scrolls between the two.
type walkStep struct {
	head, body []string
	keys       string
}

// layout draws the step at the walk's size, its body from the scroll
// position: the head on top, the keys on the bottom row, and, when the body
// does not fit, a row above the keys that says which of its lines are shown
// and which keys scroll.
func (w *Walk) layout() {
	s := w.step
	rows := w.height - len(s.head) - 1
	w.scrollMax, w.rows = 0, max(rows, 0)
	if len(s.body) <= rows || rows < 3 {
		w.scroll = 0
		w.lines = pinBottom(append(append([]string(nil), s.head...), s.body...), s.keys, w.height)
		return
	}
	rows--
	w.rows = rows
	w.scrollMax = len(s.body) - rows
	w.scroll = min(max(w.scroll, 0), w.scrollMax)
	out := append([]string(nil), s.head...)
	out = append(out, s.body[w.scroll:w.scroll+rows]...)
	out = append(out, w.scrollLine(len(s.body)))
	w.lines = append(out, s.keys)
}

// scrollLine says which of n body lines are in view and the keys that show
// the rest.
func (w *Walk) scrollLine(n int) string {
	st, k := w.ctx.Styles, w.ctx.Keys
	var parts []string
	if w.scroll < w.scrollMax {
		parts = append(parts, st.HelpKey.Render(k.Down.Help().Key)+" "+st.Muted.Render("more"))
	}
	if w.scroll > 0 {
		parts = append(parts, st.HelpKey.Render(k.Up.Help().Key)+" "+st.Muted.Render("back"))
	}
	parts = append(parts, st.HelpKey.Render(k.PageDown.Help().Key+"/"+k.PageUp.Help().Key)+" "+st.Muted.Render("page"))
	where := fmt.Sprintf("lines %d–%d of %d", w.scroll+1, w.scroll+w.rows, n)
	s := " " + st.Muted.Render("─ "+where+" · ") + strings.Join(parts, st.Muted.Render(" · ")) + " "
	if rest := w.width - ansi.StringWidth(s); rest > 0 {
		s += st.Muted.Render(strings.Repeat("─", rest))
	}
	return s
}

// scrollTo puts body row n at the top of the view, within the body.
func (w *Walk) scrollTo(n int) {
	if w.scrollMax == 0 {
		return
	}
	w.scroll = min(max(n, 0), w.scrollMax)
	w.layout()
}

// Scrolled is the first body row in view and the last it can be: 0, 0 when
// the step fits on the screen.
func (w *Walk) Scrolled() (int, int) { return w.scroll, w.scrollMax }

// keyLine is the walk's keys as the bottom row of its body.
func (w *Walk) keyLine(pairs ...string) string {
	st := w.ctx.Styles
	var parts []string
	for i := 0; i+1 < len(pairs); i += 2 {
		parts = append(parts, st.HelpKey.Render(pairs[i])+" "+st.Muted.Render(pairs[i+1]))
	}
	return " " + strings.Join(parts, st.Muted.Render(" · "))
}

// wrapped word-wraps sanitised text to width, at most max lines, the last
// ending in "…" when there was more.
func (w *Walk) wrapped(s string, width, maxLines int) []string {
	st := w.ctx.Styles
	width = max(width, 10)
	out := text.Wrap(common.OneLine(s), width)
	if len(out) > maxLines {
		out = out[:maxLines]
		out[maxLines-1] = ansi.Truncate(out[maxLines-1], width-1, "") + "…"
	}
	for i, l := range out {
		out[i] = st.Text(l, st.Base)
	}
	return out
}

func (w *Walk) verdictStep() walkStep {
	p, st := w.ctx.Packet, w.ctx.Styles
	text := func(s string) string { return st.Line(s, st.Base) }
	var out []string
	add := func(s string) { out = append(out, s) }
	n := w.openN
	head := []string{" " + st.Title.Render("Walk") + "  " + st.Muted.Render("1 · verdict and evidence")}
	// The packet's errors come before anything else: while vetter check
	// reports one, the gate is not ready (packet-valid).
	for _, pr := range p.Problems {
		if pr.Severity == packet.SevError {
			add(" " + st.Status("error").Render(" error ") + " " + text(common.ClipTo(pr.Code+" "+common.OneLine(pr.Message), max(w.width-10, 20))))
		}
	}
	// On a pull request: which commit the packet describes against the
	// PR's head, CI, the last /ok to test.
	for _, l := range common.OriginLines(p, st) {
		add(" " + l)
	}
	verdict, assessment := p.Verdict.Value, p.Assessment.Value
	if verdict == "" {
		verdict = "missing"
	}
	if assessment == "" {
		assessment = "missing"
	}
	add(fmt.Sprintf(" %-11s %s  %s", "Verdict", st.Status(common.VerdictWord(verdict)).Render(" "+ui.SanitizeLine(verdict)+" "),
		st.Muted.Render(fmt.Sprintf("%s:%d", p.Verdict.Where(), p.Verdict.Line))))
	for _, l := range w.wrapped(p.Verdict.Summary, w.width-14, 3) {
		add("             " + st.Muted.Render(l))
	}
	add(fmt.Sprintf(" %-11s %s  %s", "Assessment", st.Status(common.AssessmentWord(assessment)).Render(" "+ui.SanitizeLine(assessment)+" "),
		st.Muted.Render(fmt.Sprintf("%s:%d", p.Assessment.Where(), p.Assessment.Line))))
	ev := p.Evidence
	evStyle := st.OK
	if !ev.Complete() {
		evStyle = st.Error
	}
	add(fmt.Sprintf(" %-11s %s", "Evidence", evStyle.Render(fmt.Sprintf("%d/%d validated", ev.Validated, ev.Total))))
	// The recipe column is as wide as its longest name: recipe names are
	// never cut.
	rw := 0
	for _, r := range ev.Rows {
		rw = max(rw, ansi.StringWidth(ui.Sanitize(r.Recipe)))
	}
	for _, r := range ev.Rows {
		runs := common.Plural(len(r.Runs), "run")
		add(fmt.Sprintf("   %s  %s  %s", text(padRight(r.Recipe, rw)), st.Status(r.Status).Render(fmt.Sprintf("%-13s", ui.SanitizeLine(r.Status))), st.Muted.Render(runs)))
	}
	g := review.Gate(p)
	word := "ready"
	if !g.Ready {
		word = "not ready: " + gateReasons(g)
	}
	add(fmt.Sprintf(" %-11s %s", "Gate", text(word)))
	add("")
	add(" " + st.Muted.Render("next: "+common.Plural(n, "open finding")+", then the decision"))
	return walkStep{head: head, body: out, keys: w.keyLine("space", "next", "enter", "open the verdict", "?", "all keys")}
}

// gateReasons names the checks that fail, and apart from them those that
// wait for the diff still being read, which have not failed.
func gateReasons(g packet.Gate) string {
	var failing, pending []string
	for _, c := range g.Checks {
		switch {
		case c.Pending:
			pending = append(pending, c.Name)
		case !c.OK && !c.Info:
			failing = append(failing, c.Name)
		}
	}
	out := strings.Join(failing, ", ")
	if len(pending) > 0 {
		if out != "" {
			out += "; "
		}
		out += strings.Join(pending, ", ") + " waits for change.diff, still being read"
	}
	return out
}

func (w *Walk) doneStep() walkStep {
	st := w.ctx.Styles
	return walkStep{
		head: []string{" " + st.Title.Render("Walk") + "  " + st.Muted.Render("every finding looked at")},
		body: []string{"", " " + st.Text("Nothing is left before the decision.", st.Base)},
		keys: w.keyLine("space", "the decision", "7", "decision screen"),
	}
}

func (w *Walk) findingStep() walkStep {
	p, st := w.ctx.Packet, w.ctx.Styles
	f := p.Finding(w.cur)
	if f == nil {
		return walkStep{}
	}
	width := w.width
	n := w.openN
	state, stale, _ := review.TriageOf(p, f)
	if stale {
		state += " (stale)"
	}
	var out []string
	add := func(s string) { out = append(out, s) }
	head := " " + st.Title.Render("Walk") + "  " + st.Muted.Render(fmt.Sprintf("%d of %d open · ", n, len(p.Findings))) +
		st.Accent.Render(f.ID) + "  " + st.SeverityBadge(f.Severity) + "  " + st.Muted.Render(state)
	add(head)
	loc := common.ClipPath(common.OneLine(f.Location), width-3)
	add("   " + st.Accent.Render(st.Line(loc, st.Accent)))
	if f.Source != "" {
		// Another reviewer's thread: whose, and its state on GitHub.
		who := "by " + f.Source
		if ts := f.ThreadState(); ts != "" {
			who += " · " + ts
		}
		add("   " + st.Muted.Render(st.Line(common.ClipTo(who, max(width-3, 10)), st.Muted)))
	}
	// The head stays on screen; the claim, whole, and the excerpts under
	// it scroll when they do not fit.
	top := out
	out = nil
	for _, l := range w.wrapped(f.Claim, width-4, 1<<20) {
		add("   " + l)
	}

	// What is left between the claim and the key line goes to the cited
	// place and the log, the place first; each gets at least its marked
	// lines with a line around them, and the run's command is whole: what
	// does not fit then is scrolled to.
	room := w.height - len(top) - len(out) - 1
	logC := w.LogCitation()
	var runBlock []string
	if r := w.citedRun(); r != nil {
		if c := w.Place(); c == nil || c.Kind != packet.CiteRegistry {
			runBlock = w.runLines(r, 1<<20)
			room -= len(runBlock)
		}
	}
	placeMin, logMin := w.placeMin(), 0
	if logC != nil {
		logMin = logMinRows(logC)
	}
	placeRows, logRows := room, 0
	switch {
	case room < placeMin+logMin:
		// The step scrolls: each excerpt as short as shows its marks, so
		// the scrolling is short too.
		placeRows, logRows = placeMin, logMin
	case logC != nil:
		logRows = max(room*2/5, logMin)
		placeRows = room - logRows
		if placeRows < placeMin {
			placeRows, logRows = placeMin, room-placeMin
		}
	}
	out = append(out, w.placeBlock(placeRows)...)
	out = append(out, runBlock...)
	if logC != nil {
		out = append(out, w.logBlock(logC, logRows)...)
	}
	keys := w.keyLine("a", "accept", "x", "dismiss", "f", "defer", "space", "pass", "enter", "diff", "o", "log", "?", "keys")
	return walkStep{head: top, body: out, keys: keys}
}

// placeMin is the rows the cited place needs: its rule, the note on its
// anchor, and its marked lines with one line either side, or the whole run
// of a registry line.
func (w *Walk) placeMin() int {
	c := w.Place()
	if c == nil {
		return 2
	}
	n := 1 + len(w.anchorLines(c))
	switch c.Kind {
	case packet.CiteRegistry:
		for _, r := range w.ctx.Packet.Registry.Runs {
			if r.Line == c.Line {
				n += len(w.runLines(r, 1<<20)) - 1
			}
		}
	case packet.CiteDiff, packet.CiteDiffFile, packet.CitePacket:
		from, to := citeMarks(c).span()
		n += to - from + 3
	}
	return n
}

// logMinRows is the rows a cited log needs: its rule, a note, and the
// marked lines with one line either side.
func logMinRows(c *packet.Citation) int {
	from, to := citeMarks(c).span()
	return to - from + 5
}

// anchorLines are the note on a citation's anchor, wrapped to the walk.
func (w *Walk) anchorLines(c *packet.Citation) []string {
	note := anchorNote(c)
	if note == "" {
		return nil
	}
	return text.Wrap(note, w.width-4)
}

// rule is a section's title line: a label and a location.
func (w *Walk) rule(label, loc string) string {
	st := w.ctx.Styles
	loc = common.ClipPath(loc, w.width-ansi.StringWidth(label)-5)
	s := " " + st.Muted.Render("─ "+label+" ") + st.Accent.Render(st.Line(loc, st.Accent)) + " "
	if rest := w.width - ansi.StringWidth(s); rest > 0 {
		s += st.Muted.Render(strings.Repeat("─", rest))
	}
	return s
}

// placeBlock draws rows lines around the cited place: the diff lines with
// the quoted ones marked, or the registry run, or the document's lines.
// When the quote is on other lines than the cited ones (the anchor drifted)
// both are shown, the quote marked ▌ and the cited line ›, under a line
// that says so.
func (w *Walk) placeBlock(rows int) []string {
	p, st := w.ctx.Packet, w.ctx.Styles
	if rows < 2 {
		return nil
	}
	c := w.Place()
	if c == nil {
		return []string{w.rule("cited", "nothing in the packet"), " " + st.Muted.Render("the finding cites no line of the diff or the packet")}
	}
	out := []string{w.rule(string(c.Kind), c.Text)}
	rows--
	if lines := w.anchorLines(c); len(lines) > 0 {
		style := st.Muted
		if c.Anchor.Drift {
			style = st.Warn
		}
		for _, l := range lines {
			out = append(out, "   "+style.Render(st.Line(l, style)))
			rows--
		}
	}
	switch c.Kind {
	case packet.CiteDiff, packet.CiteDiffFile:
		out = append(out, w.diffLines(c, rows)...)
	case packet.CiteRegistry:
		for _, r := range p.Registry.Runs {
			if r.Line == c.Line {
				out = append(out, w.runLines(r, rows)[1:]...)
			}
		}
	case packet.CitePacket:
		if d := p.Doc(c.Target); d != nil {
			m := citeMarks(c)
			from, to := m.span()
			out = append(out, w.numbered(d.Lines, from, to, rows, m)...)
		}
	}
	return out
}

// anchorNote says what the walk shows of a citation when it is not simply
// the cited lines: the quote found elsewhere, or no line and no quote.
func anchorNote(c *packet.Citation) string {
	a := c.Anchor
	switch {
	case a.Drift:
		return fmt.Sprintf("quoted text is on line %s; the finding cites %s", lineSpan(a.Line, a.EndLine), lineSpan(c.Line, max(c.EndLine, c.Line)))
	case c.Line == 0 && a.Marked():
		return fmt.Sprintf("no line cited: %q is on line %d", text.Clip(a.Quote, 40), a.Line)
	case a.Note != "":
		return a.Note
	}
	return ""
}

func lineSpan(a, b int) string {
	if b > a {
		return fmt.Sprintf("%d-%d", a, b)
	}
	return fmt.Sprint(a)
}

// marks are the lines of a cited file the walk marks: quoted (▌) and, when
// the quote drifted, cited (›).
type marks struct{ qFrom, qTo, cFrom, cTo int }

// MarkedLines are the first and last line the walk marks for a citation:
// the quote's and the cited ones.
func MarkedLines(c *packet.Citation) (from, to int) { return citeMarks(c).span() }

// citeMarks marks the quote's lines and the cited ones: one range when the
// quote is on the cited lines, both when it drifted.
func citeMarks(c *packet.Citation) marks {
	end := max(c.EndLine, c.Line)
	a := c.Anchor
	switch {
	case a.Drift:
		return marks{a.Line, a.EndLine, c.Line, end}
	case c.Line > 0:
		return marks{min(c.Line, max(a.Line, c.Line)), max(end, a.EndLine), 0, -1}
	case a.Marked():
		return marks{a.Line, a.EndLine, 0, -1}
	}
	return marks{0, -1, 0, -1}
}

// at is the mark of line n: "▌ ", "› " or "  ".
func (m marks) at(st *ui.Styles, n int) string {
	switch {
	case n >= m.qFrom && n <= m.qTo:
		return st.Accent.Render("▌ ")
	case n >= m.cFrom && n <= m.cTo:
		return st.Warn.Render("› ")
	}
	return "  "
}

// marked reports whether any line is marked.
func (m marks) marked() bool {
	return m.qTo >= m.qFrom && m.qFrom > 0 || m.cTo >= m.cFrom && m.cFrom > 0
}

// span is the first and last marked line; 1, 1 when none is.
func (m marks) span() (int, int) {
	lo, hi := m.qFrom, m.qTo
	if m.cTo >= m.cFrom && m.cFrom > 0 {
		if lo <= 0 || m.cFrom < lo {
			lo = m.cFrom
		}
		hi = max(hi, m.cTo)
	}
	if lo <= 0 {
		return 1, 1
	}
	return lo, hi
}

// runLines draws a registry run as a person judges it: recipe, status, exit
// code, the whole command wrapped (never cut), the log it names with the
// key that opens it, and the disposition. The first line is its rule.
func (w *Walk) runLines(r *packet.Run, rows int) []string {
	st := w.ctx.Styles
	out := []string{w.rule("run", fmt.Sprintf("%s:%d", packet.RegistryFile, r.Line))}
	exit := "no exit code"
	if r.ExitCode != nil {
		exit = fmt.Sprintf("exit %d", *r.ExitCode)
	}
	out = append(out, "   "+st.Text(fmt.Sprintf("seq %d · %s · ", r.Seq, r.Recipe), st.Base)+
		st.Status(r.Status).Render(ui.SanitizeLine(r.Status))+st.Muted.Render(" · "+exit))
	for i, l := range text.WrapWhole(ui.SanitizeLine(r.Command), w.width-6) {
		lead := "   $ "
		if i > 0 {
			lead = "     "
		}
		out = append(out, lead+st.Line(l, st.Base))
	}
	if r.Log != "" {
		out = append(out, "   "+st.Muted.Render("log ")+st.Accent.Render(st.Line(common.ClipPath(r.Log, w.width-14), st.Accent))+"  "+
			st.HelpKey.Render("o")+" "+st.Muted.Render("opens it"))
	}
	if r.Disposition != "" && len(out) < rows {
		for _, l := range w.wrapped("disposition: "+r.Disposition, w.width-4, max(rows-len(out), 1)) {
			out = append(out, "   "+st.Muted.Render(l))
		}
	}
	return out
}

// numbered draws rows lines of a document around [from, to], 1-based,
// marked as m says.
func (w *Walk) numbered(lines []string, from, to, rows int, m marks) []string {
	st := w.ctx.Styles
	start := max(from-max((rows-(to-from+1))/2, 0), 1)
	var out []string
	for i := start; i < start+rows && i <= len(lines); i++ {
		out = append(out, " "+m.at(st, i)+st.Muted.Render(fmt.Sprintf("%4d ", i))+st.Line(expandTabs(lines[i-1]), st.Base))
	}
	return out
}

// diffLines draws the hunk that holds the marked lines (the quote's when
// it drifted, else the cited ones), new-side numbers (old for removed
// lines). A citation of a file of the diff with no line and no quote found
// shows the file's first hunk.
func (w *Walk) diffLines(c *packet.Citation, rows int) []string {
	p, st := w.ctx.Packet, w.ctx.Styles
	hunk, at := c.DiffHunk, c.DiffLine
	if c.Anchor.DiffHunk >= 0 {
		hunk, at = c.Anchor.DiffHunk, c.Anchor.DiffLine
	}
	if hunk < 0 {
		hunk, at = 0, 0
	}
	h := p.Diff.HunkAt(c.DiffFile, hunk)
	if h == nil {
		return nil
	}
	m := citeMarks(c)
	from, to := m.span()
	first, last := -1, -1
	for i, l := range h.Lines {
		if l.New > 0 && l.New >= from && l.New <= to {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		first, last = at, at
	}
	start := max(first-max((rows-(last-first+1))/2, 0), 0)
	if end := len(h.Lines); start+rows > end {
		start = max(end-rows, 0)
	}
	var out []string
	for i := start; i < len(h.Lines) && len(out) < rows; i++ {
		l := h.Lines[i]
		num := l.New
		mark := "  "
		if l.Kind == packet.LineRemoved {
			num = l.Old
		} else {
			mark = m.at(st, l.New)
		}
		style := st.Base
		switch l.Kind {
		case packet.LineAdded:
			style = st.Added
		case packet.LineRemoved:
			style = st.Removed
		}
		out = append(out, " "+mark+st.Muted.Render(fmt.Sprintf("%4d ", num))+style.Render(string(rune(l.Kind))+" ")+st.Line(expandTabs(l.Text), style))
	}
	return out
}

// logBlock draws the first cited log line with the lines around it: the
// quote's line when the finding names the place by a quote or a marker
// (CLAIM D) rather than, or other than, by its line.
func (w *Walk) logBlock(c *packet.Citation, rows int) []string {
	p, st := w.ctx.Packet, w.ctx.Styles
	m := citeMarks(c)
	line, end := m.span()
	where := fmt.Sprintf(":%d", c.Line)
	if c.Line == 0 {
		where = ""
		if c.Anchor.Marked() {
			where = fmt.Sprintf(" · %s, line %d", text.Clip(c.Anchor.Quote, 24), c.Anchor.Line)
		}
	}
	out := []string{w.rule("log", c.Target+where)}
	rows--
	if note := anchorNote(c); note != "" && c.Line > 0 && rows > 2 {
		out = append(out, "   "+st.Warn.Render(st.Line(text.Clip(note, w.width-5), st.Warn)))
		rows--
	} else if !m.marked() && rows > 2 {
		out = append(out, "   "+st.Muted.Render("no line cited and no quoted text found in it: the log's start"))
		rows--
	}
	l := p.Log(c.Target)
	if l == nil || rows <= 0 {
		return out
	}
	// A log named without a line is anchored at its quote once it is
	// indexed (the packet anchors it then): until then the walk waits.
	if c.Line == 0 && !l.Indexed() {
		w.waitLog = l
		return append(out, " "+st.Muted.Render("the log is being indexed; the quoted place shows when it is (o opens it now)"))
	}
	// A line the index has not reached yet would be read up to here, in
	// Update: the walk waits for the index instead (View looks again).
	if !l.Indexed() && l.LineCount() < end+rows {
		w.waitLog = l
		return append(out, " "+st.Muted.Render(fmt.Sprintf("the log is being indexed; line %d shows when it is reached (o opens it now)", line)))
	}
	// The lines around the marked ones: one before, the rest after, as a
	// log's marker heads the lines that follow it.
	from := max(line-1, 1)
	if end-from+1 > rows {
		from = max(end-rows+1, 1)
	}
	got, err := l.ReadLines(from, rows)
	if err != nil {
		return append(out, " "+st.Error.Render(st.Text("reading "+c.Target+": "+err.Error(), st.Error)))
	}
	for i, raw := range got {
		n := from + i
		out = append(out, " "+m.at(st, n)+st.Muted.Render(fmt.Sprintf("%4d ", n))+st.LogLine(raw))
	}
	return out
}

// pinBottom pads body to h-1 lines (cutting it if longer) and puts last on
// the bottom row, so the keys are always on screen.
func pinBottom(body []string, last string, h int) []string {
	if h <= 1 {
		return []string{last}
	}
	if len(body) > h-1 {
		body = body[:h-1]
	}
	out := append([]string(nil), body...)
	for len(out) < h-1 {
		out = append(out, "")
	}
	return append(out, last)
}

func padRight(s string, w int) string {
	if d := w - ansi.StringWidth(ui.Sanitize(s)); d > 0 {
		return s + strings.Repeat(" ", d)
	}
	return s
}

// expandTabs puts 4-column tab stops in a line of code, which would
// otherwise draw as a placeholder (a tab moves the cursor).
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		if r == '\t' {
			n := 4 - col%4
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}
