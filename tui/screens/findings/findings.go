package findings

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/ui"
)

// findingsRenderedMsg carries one finding's claim and evidence rendered by
// Glamour; Gen drops results for a finding the user has moved past.
type findingsRenderedMsg struct {
	ID    string
	Width int
	Gen   int
	Lines []string
	Err   error
}

func (findingsRenderedMsg) EpochBound() {}

// findingsFocus is where the screen's cursor is.
type findingsFocus int

const (
	focusList findingsFocus = iota
	focusCitations
)

// findingsHere marks Here's targets (in Target.Recipe, unused by this
// screen) so Open restores the list's scroll and the citation cursor
// instead of centring the finding.
const findingsHere = "\x00findings:here"

// findingsKeyMap holds the keys only the findings screen has.
type findingsKeyMap struct {
	ToCitations, ToList  key.Binding
	DetailDown, DetailUp key.Binding
}

func newFindingsKeyMap() findingsKeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return findingsKeyMap{
		ToCitations: b("→/l", "citations", "right", "l"),
		ToList:      b("←/h/esc", "findings", "left", "h", "esc"),
		DetailDown:  b("ctrl+d", "scroll detail down", "ctrl+d"),
		DetailUp:    b("ctrl+u", "scroll detail up", "ctrl+u"),
	}
}

// Findings is the findings screen: review.md's findings as a list beside
// the selected one's claim, evidence and citations. It draws only the rows
// on screen, so 2,000 findings cost what 20 do.
type Findings struct {
	ctx  *common.Context
	keys findingsKeyMap

	width, height int

	list  ui.List // the findings: the selected one, the first on screen
	focus findingsFocus
	cites ui.List // the selected finding's citations

	detail ui.Pane
	// rendered keeps the split lines of recent renders by finding and
	// width, so going back to a finding needs no round trip.
	rendered    map[findingsKey][]string
	detailFor   string // the finding id and width the detail pane holds
	detailWidth int
	gen         int
	inflightID  string
	inflightW   int

	// Per-finding strings for the list, sanitised when first drawn.
	claims, locs []string
	pt           *findingsPaints

	query   string
	matched []bool

	marked map[string]bool // findings marked with space for a bulk triage

	locW    int            // the widest location (clippath.go)
	locWFor *packet.Packet // the packet locW was measured on
}

type findingsKey struct {
	id    string
	width int
}

// findingsKeep bounds the renders kept; past it they are dropped at once
// (the markdown cache still has them).
const findingsKeep = 64

// New builds the findings screen on the first finding.
func New(ctx *common.Context) *Findings {
	f := &Findings{ctx: ctx, keys: newFindingsKeyMap(), detail: ui.NewPane(ctx.Styles),
		rendered: make(map[findingsKey][]string)}
	f.detail.SetShowCursor(false)
	return f
}

// Selected is the finding under the cursor, nil when there are none. The
// triage keys act on it.
func (f *Findings) Selected() *packet.Finding {
	fs := f.ctx.Packet.Findings
	if f.list.Cursor < 0 || f.list.Cursor >= len(fs) {
		return nil
	}
	return fs[f.list.Cursor]
}

// Init starts rendering the selected finding once the size is known.
func (f *Findings) Init() tea.Cmd { return f.renderCmd() }

// SetSize lays the screen out.
func (f *Findings) SetSize(width, height int) {
	f.width, f.height = max(width, 0), max(height, 0)
	f.relayout()
	f.syncDetail()
}

// relayout sizes the detail pane and the lists for the screen and the
// selected finding: how many citations it has and whether it has a note
// decide how many rows its text gets.
func (f *Findings) relayout() {
	l := f.layout()
	f.detail.SetSize(l.detailW, l.paneH)
	if fd := f.Selected(); fd != nil {
		f.cites.SetLen(len(fd.Citations))
	}
	f.cites.SetHeight(max(l.citeH-1, 1)) // below the "Citations" row
	f.scrollIntoView()
}

// detailMarkdown is what is rendered for a finding: its claim, evidence
// and any columns vetter does not know, as paragraphs.
func detailMarkdown(fd *packet.Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Claim.** %s\n\n**Evidence.** %s\n", fd.Claim, fd.Evidence)
	names := make([]string, 0, len(fd.Extra))
	for k := range fd.Extra {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		fmt.Fprintf(&b, "\n**%s.** %s\n", k, fd.Extra[k])
	}
	return b.String()
}

func (f *Findings) renderWidth() int { return max(f.layout().detailW-1, 10) }

// renderCmd renders the selected finding unless it is shown or on its way.
func (f *Findings) renderCmd() tea.Cmd {
	fd := f.Selected()
	if fd == nil || f.width <= 0 || f.height <= 0 {
		return nil
	}
	w := f.renderWidth()
	if _, ok := f.rendered[findingsKey{fd.ID, w}]; ok || (f.inflightID == fd.ID && f.inflightW == w) {
		return nil
	}
	f.gen++
	f.inflightID, f.inflightW = fd.ID, w
	gen, md, id, text := f.gen, f.ctx.Markdown, fd.ID, detailMarkdown(fd)
	return f.ctx.Work.Cmd(func() tea.Msg {
		out, err := md.Render(id, text, w)
		if err != nil {
			return findingsRenderedMsg{ID: id, Width: w, Gen: gen, Err: err}
		}
		lines := strings.Split(strings.Trim(out, "\n"), "\n")
		return findingsRenderedMsg{ID: id, Width: w, Gen: gen, Lines: lines}
	})
}

// syncDetail puts the selected finding in the detail pane: the rendering
// when it is there, the plain text until then.
func (f *Findings) syncDetail() {
	fd := f.Selected()
	if fd == nil {
		f.detail.SetSource(nil)
		f.detailFor = ""
		return
	}
	w := f.renderWidth()
	lines, ready := f.rendered[findingsKey{fd.ID, w}]
	key := fd.ID
	if ready {
		key += "\x00rendered"
	}
	if key == f.detailFor && f.detailWidth == w {
		return
	}
	f.detailFor, f.detailWidth = key, w
	if ready {
		f.detail.SetSource(ui.Lines(lines))
		f.detail.SetWrap(false)
		return
	}
	st := f.ctx.Styles
	var plain []string
	for _, l := range strings.Split(detailMarkdown(fd), "\n") {
		plain = append(plain, st.Text(l, st.Base))
	}
	f.detail.SetSource(ui.Lines(plain))
	f.detail.SetWrap(true)
}

// Update handles keys, mouse and the rendered details.
func (f *Findings) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case findingsRenderedMsg:
		// A finding moved past is kept for coming back; only the latest
		// asked for clears the request in flight or reports an error.
		if msg.Err == nil {
			if len(f.rendered) >= findingsKeep {
				clear(f.rendered)
			}
			f.rendered[findingsKey{msg.ID, msg.Width}] = msg.Lines
		}
		if msg.Gen != f.gen {
			return nil
		}
		f.inflightID, f.inflightW = "", 0
		if msg.Err != nil {
			return common.ReportError(msg.Err)
		}
		f.syncDetail()
		return nil
	case common.TriageChangedMsg:
		// A note may have come or gone under the title.
		f.relayout()
		f.syncDetail()
	case common.ThemeChangedMsg:
		// Renderings and the pane carry the old colours.
		clear(f.rendered)
		f.gen++
		f.inflightID, f.inflightW = "", 0
		f.detail = ui.NewPane(f.ctx.Styles)
		f.detail.SetShowCursor(false)
		f.relayout()
		f.detailFor = ""
	case tea.KeyPressMsg:
		cmd = f.handleKey(msg)
	case tea.MouseWheelMsg:
		f.wheel(msg.Mouse())
	case tea.MouseClickMsg:
		f.click(msg.Mouse())
	}
	f.syncDetail()
	return tea.Batch(cmd, f.renderCmd())
}

func (f *Findings) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	cmd, _ := f.keyTable().Dispatch(msg)
	return cmd
}

// keyTable is the screen's keys in the order help lists them: those of the
// pane in focus (the list or the citations), then the detail's, then
// search, which the workbench answers.
func (f *Findings) keyTable() common.KeyTable {
	km := f.ctx.Keys
	var t common.KeyTable
	if f.focus == focusCitations {
		t = f.citationKeys()
	} else {
		t = f.listKeys()
	}
	t = append(t,
		common.Binding{Key: f.keys.DetailDown, Handler: func(tea.KeyPressMsg) tea.Cmd {
			f.detail.HalfPageDown()
			return nil
		}},
		common.Binding{Key: f.keys.DetailUp, Handler: func(tea.KeyPressMsg) tea.Cmd {
			f.detail.HalfPageUp()
			return nil
		}},
		common.Binding{Key: km.Search})
	if f.query != "" {
		t = append(t, common.Binding{Key: km.NextMatch}, common.Binding{Key: km.PrevMatch})
	}
	return t
}

// listKeys move the selection and act on the selected finding.
func (f *Findings) listKeys() common.KeyTable {
	km := f.ctx.Keys
	// move lets the list say where a key moves the cursor; selectIndex
	// then changes the selection and what hangs on it.
	move := func(by func(*ui.List)) func(tea.KeyPressMsg) tea.Cmd {
		return func(tea.KeyPressMsg) tea.Cmd {
			f.scrollIntoView()
			to := f.list
			by(&to)
			f.selectIndex(to.Cursor)
			return nil
		}
	}
	fd := f.Selected()
	return common.KeyTable{
		{Key: km.Down, Handler: move(func(l *ui.List) { l.Move(1) })},
		{Key: km.Up, Handler: move(func(l *ui.List) { l.Move(-1) })},
		{Key: km.PageDown, Handler: move((*ui.List).PageDown)},
		{Key: km.PageUp, Handler: move((*ui.List).PageUp)},
		{Key: km.Top, Handler: move((*ui.List).Top)},
		{Key: km.Bottom, Handler: move((*ui.List).Bottom)},
		{Key: common.Relabel(km.Follow, "go to the cited line"), Handler: func(tea.KeyPressMsg) tea.Cmd { return f.followFirst() }},
		{Key: f.keys.ToCitations, Unlisted: fd == nil || len(fd.Citations) == 0, Handler: func(tea.KeyPressMsg) tea.Cmd {
			if fd := f.Selected(); fd != nil && len(fd.Citations) > 0 {
				f.focus = focusCitations
			}
			return nil
		}},
		{Key: km.Mark, Handler: func(tea.KeyPressMsg) tea.Cmd {
			f.ToggleMark()
			f.move(1)
			return nil
		}},
	}
}

// citationKeys move among the selected finding's citations and follow one.
func (f *Findings) citationKeys() common.KeyTable {
	km := f.ctx.Keys
	// on runs do on the selected finding, its citations counted; with none
	// selected the focus goes back to the list.
	on := func(do func(fd *packet.Finding) tea.Cmd) func(tea.KeyPressMsg) tea.Cmd {
		return func(tea.KeyPressMsg) tea.Cmd {
			fd := f.Selected()
			if fd == nil {
				f.focus = focusList
				return nil
			}
			f.cites.SetLen(len(fd.Citations))
			return do(fd)
		}
	}
	cites := func(by func(*ui.List)) func(tea.KeyPressMsg) tea.Cmd {
		return on(func(*packet.Finding) tea.Cmd {
			by(&f.cites)
			return nil
		})
	}
	return common.KeyTable{
		{Key: km.Down, Handler: cites(func(l *ui.List) { l.Move(1) })},
		{Key: km.Up, Handler: cites(func(l *ui.List) { l.Move(-1) })},
		{Key: km.Top, Handler: cites((*ui.List).Top)},
		{Key: km.Bottom, Handler: cites((*ui.List).Bottom)},
		{Key: km.PageDown, Handler: on(func(*packet.Finding) tea.Cmd {
			f.detail.PageDown()
			return nil
		})},
		{Key: km.PageUp, Handler: on(func(*packet.Finding) tea.Cmd {
			f.detail.PageUp()
			return nil
		})},
		{Key: common.Relabel(km.Follow, "follow citation"), Handler: on(func(fd *packet.Finding) tea.Cmd {
			if f.cites.Cursor < len(fd.Citations) {
				return common.FollowCitation(f.ctx.Packet, fd.Citations[f.cites.Cursor])
			}
			return nil
		})},
		{Key: f.keys.ToList, Handler: on(func(*packet.Finding) tea.Cmd {
			f.focus = focusList
			return nil
		})},
	}
}

// firstTarget is the citation enter on the list follows: the line the
// finding cites in the diff when there is one, else its first citation that
// leads anywhere.
func firstTarget(fd *packet.Finding) (packet.Citation, bool) {
	for _, kind := range []packet.CitationKind{packet.CiteDiff, packet.CiteDiffFile} {
		for _, c := range fd.Citations {
			if c.Kind == kind && c.Resolved {
				return c, true
			}
		}
	}
	for _, c := range fd.Citations {
		if common.CiteFollowable(c) {
			return c, true
		}
	}
	return packet.Citation{}, false
}

func (f *Findings) followFirst() tea.Cmd {
	fd := f.Selected()
	if fd == nil {
		return nil
	}
	c, ok := firstTarget(fd)
	if !ok {
		return common.Status(fmt.Sprintf("finding %d cites nothing vetter can open", fd.Number))
	}
	return common.FollowCitation(f.ctx.Packet, c)
}

func (f *Findings) move(d int) { f.selectIndex(f.list.Cursor + d) }

// selectIndex selects finding i, scrolling the list as little as needed.
func (f *Findings) selectIndex(i int) {
	n := len(f.ctx.Packet.Findings)
	if n == 0 {
		return
	}
	i = min(max(i, 0), n-1)
	if i != f.list.Cursor {
		f.list.Cursor = i
		f.cites.Top()
		f.detail.Top()
		f.relayout() // its citations and note size the detail
	}
	f.scrollIntoView()
}

func (f *Findings) scrollIntoView() {
	f.list.SetLen(len(f.ctx.Packet.Findings))
	f.list.SetHeight(f.layout().listRows)
	f.list.KeepInView()
}

// Open selects a finding: centred when followed to, exactly as it was when
// coming back.
func (f *Findings) Open(t common.Target) tea.Cmd {
	idx := -1
	for i, fd := range f.ctx.Packet.Findings {
		if fd.ID == t.Finding {
			idx = i
			break
		}
	}
	if idx < 0 {
		return common.Status("no finding " + ui.Sanitize(t.Finding))
	}
	f.selectIndex(idx)
	f.syncDetail()
	if t.Recipe == findingsHere {
		f.list.Offset = t.Offset
		f.focus = focusList
		if t.Line > 0 {
			f.focus, f.cites.Cursor = focusCitations, t.Line-1
		}
		f.detail.ScrollTo(t.EndLine)
	} else {
		f.focus = focusList
		f.list.Offset = f.list.Cursor - max(f.layout().listRows, 1)/2
	}
	f.scrollIntoView()
	return f.renderCmd()
}

// Here is the finding, the list's scroll and the citation cursor.
func (f *Findings) Here() common.Target {
	t := common.Target{Screen: common.ScreenFindings, File: -1, Hunk: -1, DiffLine: -1, Recipe: findingsHere,
		Offset: f.list.Offset, EndLine: f.detail.Offset()}
	if fd := f.Selected(); fd != nil {
		t.Finding = fd.ID
	}
	if f.focus == focusCitations {
		t.Line = f.cites.Cursor + 1
	}
	return t
}

// Status is "finding 2/5 · minor · open".
func (f *Findings) Status() string {
	fd := f.Selected()
	if fd == nil {
		return "no findings"
	}
	state, stale, _ := review.TriageOf(f.ctx.Packet, fd)
	if stale {
		state += " (stale)"
	}
	s := fmt.Sprintf("finding %d/%d · %s · %s", f.list.Cursor+1, len(f.ctx.Packet.Findings), ui.Sanitize(fd.Severity), state)
	if f.focus == focusCitations {
		s += fmt.Sprintf(" · citation %d/%d", f.cites.Cursor+1, len(fd.Citations))
	}
	return s
}

// Bindings are the keys that do something here now.
func (f *Findings) Bindings() []key.Binding { return f.keyTable().Keys() }

// Search marks the findings whose location or claim holds query (case
// folded) and selects the first at or after the selection.
func (f *Findings) Search(query string) int {
	f.query = query
	fs := f.ctx.Packet.Findings
	f.matched = nil
	if query == "" {
		return 0
	}
	q := strings.ToLower(query)
	f.matched = make([]bool, len(fs))
	count, first := 0, -1
	for i, fd := range fs {
		// The source too: "/coderabbit" finds one reviewer's threads.
		if strings.Contains(strings.ToLower(fd.Location), q) || strings.Contains(strings.ToLower(fd.Claim), q) || strings.Contains(strings.ToLower(fd.Source), q) {
			f.matched[i] = true
			count++
			if first < 0 || (first < f.list.Cursor && i >= f.list.Cursor) {
				first = i
			}
		}
	}
	if first >= 0 {
		f.focus = focusList
		f.selectIndex(first)
		f.syncDetail()
	}
	return count
}

// NextMatch selects the next (1) or previous (-1) matching finding,
// wrapping around.
func (f *Findings) NextMatch(dir int) {
	n := len(f.matched)
	if n == 0 {
		return
	}
	step := 1
	if dir < 0 {
		step = -1
	}
	for k, i := 0, f.list.Cursor; k < n; k++ {
		i = (i + step + n) % n
		if f.matched[i] {
			f.focus = focusList
			f.selectIndex(i)
			f.syncDetail()
			return
		}
	}
}
