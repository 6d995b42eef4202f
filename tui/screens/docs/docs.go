package docs

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/ui"
)

// docsMode is how the selected document is shown.
type docsMode int

const (
	docsRendered docsMode = iota // Glamour's rendering
	docsRaw                      // the source with line numbers, for exact citations
)

// docsShown is what the pane holds right now: the rendering, the source
// with line numbers, or the plain source while the rendering is on its way.
type docsShown int

const (
	shownNone docsShown = iota
	shownRendered
	shownRaw
	shownInterim
)

// docsPanel is the list open under the document.
type docsPanel int

const (
	panelNone docsPanel = iota
	panelOutline
	panelCitations
)

// Here() marks its targets in Target.Recipe (unused by this screen) so
// Open can tell a return from history, which restores the exact view, from
// a citation, which centres and highlights the cited lines.
const (
	docsHereRendered = "\x00docs:rendered"
	docsHereRaw      = "\x00docs:raw"
)

// docsKeyMap holds the keys only the documents screen has.
type docsKeyMap struct {
	NextDoc, PrevDoc   key.Binding
	Raw                key.Binding
	Outline, Citations key.Binding
	Verdict, Outcome   key.Binding
	Close              key.Binding
}

func newDocsKeyMap() docsKeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return docsKeyMap{
		NextDoc:   b("}", "next document", "}"),
		PrevDoc:   b("{", "previous document", "{"),
		Raw:       b("r", "raw/rendered", "r"),
		Outline:   b("o", "outline", "o"),
		Citations: b("C", "citations", "C"),
		Verdict:   b("V", "verdict", "V"),
		Outcome:   b("I", "investigation outcome", "I"),
		Close:     b("esc", "close list", "esc"),
	}
}

// docsPending is a position to take once the pane shows the right lines
// at a real size (a target can arrive before the first SetSize or before
// the rendering).
type docsPending struct {
	kind   int // pendCenter, pendTop, pendRestore
	line   int // centre or top line (pane coordinates of the wanted mode)
	cursor int
	src    bool // line is a source line that must be mapped in rendered mode
	// rel, when >= 0, puts the top of the view rel rows above the cursor
	// instead of at line: a mapped cursor is exact at headings, a mapped top
	// is not.
	rel int
}

const (
	pendCenter = iota
	pendTop
	pendRestore
)

// Docs is the documents screen: the packet's markdown documents, one
// rendered beside the list of them, with its outline and citations.
type Docs struct {
	ctx  *common.Context
	keys docsKeyMap

	width, height int

	sel   int // index in ctx.P.Docs
	mode  docsMode
	pane  ui.Pane
	shown docsShown
	// shownKey is the document and width the pane's lines belong to.
	shownPath  string
	shownWidth int

	hlStart, hlEnd int // highlighted source lines [start, end), 0-based; -1 none

	panel     docsPanel
	panelList ui.List // the open panel's items

	rend    docsRender // the latest rendering received
	cache   map[docsKey]docsRender
	view    docsRender // the rendering the pane shows
	gen     int
	pending *docsPending
	// inflight is the render asked for and not yet back.
	inflightPath  string
	inflightWidth int

	query string
	marks []bool

	// rawWrap is whether the source view wraps (it does, by default: a
	// verdict is one long line). The rendering is wrapped by Glamour, so it
	// is cut, not re-wrapped, where a wide character makes a row overflow.
	rawWrap bool
}

// docsKey names a rendering: a document at a width.
type docsKey struct {
	path  string
	width int
}

// New builds the documents screen on the first document.
func New(ctx *common.Context) *Docs {
	return &Docs{ctx: ctx, keys: newDocsKeyMap(), pane: ui.NewPane(ctx.Styles), hlStart: -1, hlEnd: -1,
		rawWrap: true, cache: make(map[docsKey]docsRender)}
}

func (d *Docs) doc() *packet.Document {
	if d.sel < 0 || d.sel >= len(d.ctx.Packet.Docs) {
		return nil
	}
	return d.ctx.Packet.Docs[d.sel]
}

// Init starts rendering the first document once the size is known.
func (d *Docs) Init() tea.Cmd { return d.renderCmd() }

// SetSize lays the screen out. A new width needs a new rendering, which
// the next Update (the root forwards tea.WindowSizeMsg) or Open starts.
func (d *Docs) SetSize(width, height int) {
	d.width, d.height = max(width, 0), max(height, 0)
	l := d.layout()
	d.pane.SetSize(l.areaW, l.paneH)
	d.sync()
}

// renderWidth is the width Glamour wraps at: the pane less its marker
// column and one cell of slack, since Glamour counts some emoji as one
// cell where the terminal draws two.
func (d *Docs) renderWidth() int { return max(d.layout().areaW-2, 10) }

// renderCmd asks for the selected document at the current width unless it
// is already shown or on its way.
func (d *Docs) renderCmd() tea.Cmd {
	doc := d.doc()
	if doc == nil || d.width <= 0 || d.height <= 0 || d.ctx.Packet.Partial {
		// A preview shows another screen, and its review.md is not the
		// document the full packet opens on: rendering it (the whole
		// findings table) would cost a core and 100 MB for nothing.
		return nil
	}
	w := d.renderWidth()
	if r, ok := d.cache[docsKey{doc.Path, w}]; ok {
		d.rend = r
	}
	if d.rend.ready(doc.Path, w) || (d.inflightPath == doc.Path && d.inflightWidth == w) {
		return nil
	}
	d.gen++
	d.inflightPath, d.inflightWidth = doc.Path, w
	return renderDocCmd(d.ctx, doc, w, d.gen)
}

// Update handles keys, mouse and the screen's rendered documents.
func (d *Docs) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case docsRenderedMsg:
		// A rendering the user moved away from is kept for when they come
		// back, but only the latest one asked for is shown.
		r := docsRender{path: msg.Path, width: msg.Width, lines: msg.Lines, anchors: msg.Anchors}
		if msg.Err == nil {
			if len(d.cache) >= 32 {
				clear(d.cache) // the markdown cache still has them
			}
			d.cache[docsKey{msg.Path, msg.Width}] = r
		}
		if msg.Gen != d.gen {
			return nil
		}
		d.inflightPath, d.inflightWidth = "", 0
		if msg.Err != nil {
			return common.ReportError(msg.Err)
		}
		d.rend = r
		d.sync()
		return nil
	case common.ThemeChangedMsg:
		d.restyle()
	case tea.KeyPressMsg:
		cmd = d.handleKey(msg)
	case tea.MouseWheelMsg:
		m := msg.Mouse()
		switch m.Button {
		case tea.MouseWheelDown:
			d.pane.HalfPageDown()
		case tea.MouseWheelUp:
			d.pane.HalfPageUp()
		}
	case tea.MouseClickMsg:
		d.click(msg.Mouse())
	}
	return tea.Batch(cmd, d.renderCmd())
}

// restyle follows a change of theme: the renderings and the pane were
// drawn with the old colours, so they are dropped and the reading position
// is carried over in source lines.
func (d *Docs) restyle() {
	doc := d.doc()
	cur, rel := d.pane.Cursor(), d.pane.Cursor()-d.pane.Offset()
	if doc != nil && d.shown == shownRendered {
		cur = d.view.rowToSrc(cur, len(doc.Lines))
	}
	clear(d.cache)
	d.rend = docsRender{}
	d.gen++ // renderings on their way have the old colours
	d.inflightPath, d.inflightWidth = "", 0
	d.pane = ui.NewPane(d.ctx.Styles)
	d.relayout()
	if d.pending == nil && doc != nil && d.shown != shownNone {
		d.pending = &docsPending{kind: pendRestore, cursor: cur, src: true, rel: rel}
	}
	d.shown = shownNone
	d.sync()
}

func (d *Docs) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := d.keyTable().Dispatch(msg); ok {
		return cmd
	}
	// Any other key is the pane's (paging, scrolling sideways).
	d.pane.HandleKey(msg, d.ctx.Keys)
	return nil
}

// keyTable is the screen's keys in the order help lists them. A key that
// does nothing with this packet (the next document when there is one) is
// answered but not listed.
func (d *Docs) keyTable() common.KeyTable {
	km, p := d.ctx.Keys, d.ctx.Packet
	do := func(f func()) func(tea.KeyPressMsg) tea.Cmd {
		return func(tea.KeyPressMsg) tea.Cmd {
			f()
			return nil
		}
	}
	// move moves the open list's cursor, else the document's; paging keys
	// still scroll the document so it can be read beside the list.
	move := func(msg tea.KeyPressMsg) tea.Cmd {
		if d.panel == panelNone || !d.panelKey(msg) {
			d.pane.HandleKey(msg, km)
		}
		return nil
	}
	t := common.KeyTable{
		{Key: km.Down, Handler: move},
		{Key: km.Up, Handler: move},
		{Key: km.HalfPageDown, Handler: move},
		{Key: km.HalfPageUp, Handler: move},
		{Key: km.Top, Handler: move},
		{Key: km.Bottom, Handler: move},
		{Key: km.Follow, Handler: func(tea.KeyPressMsg) tea.Cmd {
			if d.panel != panelNone {
				return d.panelEnter()
			}
			return d.followAtCursor()
		}},
		{Key: d.keys.NextDoc, Unlisted: len(p.Docs) < 2, Handler: do(func() { d.selectDoc(d.sel + 1) })},
		{Key: d.keys.PrevDoc, Unlisted: len(p.Docs) < 2, Handler: do(func() { d.selectDoc(d.sel - 1) })},
		{Key: d.keys.Raw, Handler: do(d.toggleMode)},
		{Key: d.keys.Outline, Handler: do(func() { d.togglePanel(panelOutline) })},
		{Key: d.keys.Citations, Handler: do(func() { d.togglePanel(panelCitations) })},
		{Key: d.keys.Verdict, Unlisted: p.Verdict.Line <= 0, Handler: func(tea.KeyPressMsg) tea.Cmd { return d.jumpVerdict() }},
		{Key: d.keys.Outcome, Unlisted: p.Outcome == nil, Handler: func(tea.KeyPressMsg) tea.Cmd { return d.jumpOutcome() }},
	}
	if d.panel != panelNone {
		t = append(t, common.Binding{Key: d.keys.Close, Handler: do(func() { d.togglePanel(d.panel) })})
	}
	t = append(t,
		common.Binding{Key: km.ToggleWrap, Handler: do(func() {
			d.pane.ToggleWrap()
			if d.shown != shownRendered {
				d.rawWrap = d.pane.Wrap()
			}
		})},
		common.Binding{Key: km.Search})
	if d.query != "" {
		t = append(t, common.Binding{Key: km.NextMatch}, common.Binding{Key: km.PrevMatch})
	}
	return t
}

// panelKey moves the open list's cursor; paging keys still scroll the
// document so it can be read beside the list.
func (d *Docs) panelKey(msg tea.KeyPressMsg) bool {
	d.panelList.SetLen(d.panelLen())
	return d.panelList.MoveKey(msg, d.ctx.Keys)
}

func (d *Docs) panelLen() int {
	doc := d.doc()
	if doc == nil {
		return 0
	}
	switch d.panel {
	case panelOutline:
		return len(doc.Headings)
	case panelCitations:
		return len(doc.Citations)
	}
	return 0
}

// panelEnter jumps to the heading, or follows the citation, under the
// list's cursor.
func (d *Docs) panelEnter() tea.Cmd {
	doc := d.doc()
	if doc == nil || d.panelList.Cursor >= d.panelLen() {
		return nil
	}
	if d.panel == panelOutline {
		h := doc.Headings[d.panelList.Cursor]
		d.panel = panelNone
		d.relayout()
		d.goToSource(h.Line-1, pendTop)
		return nil
	}
	return common.FollowCitation(d.ctx.Packet, doc.Citations[d.panelList.Cursor])
}

// followAtCursor follows the first citation written on the cursor line.
func (d *Docs) followAtCursor() tea.Cmd {
	doc := d.doc()
	if doc == nil {
		return nil
	}
	cur := d.pane.Cursor()
	for _, c := range doc.Citations {
		switch d.shown {
		case shownRaw, shownInterim:
			if c.SourceLine-1 == cur {
				return common.FollowCitation(d.ctx.Packet, c)
			}
		case shownRendered:
			if cur < len(d.view.lines) && strings.Contains(ansi.Strip(d.view.lines[cur]), c.Text) {
				return common.FollowCitation(d.ctx.Packet, c)
			}
		}
	}
	return common.Status("no citation on this line (" + d.keys.Citations.Help().Key + " lists them)")
}

// selectDoc shows document i from its top.
func (d *Docs) selectDoc(i int) {
	n := len(d.ctx.Packet.Docs)
	if n == 0 {
		return
	}
	i = (i%n + n) % n
	if i == d.sel && d.shown != shownNone {
		return
	}
	d.sel = i
	d.hlStart, d.hlEnd = -1, -1
	d.panelList.Cursor, d.panelList.Offset = 0, 0
	d.pending = &docsPending{kind: pendTop}
	d.shown = shownNone
	d.sync()
}

func (d *Docs) toggleMode() {
	if d.mode == docsRaw {
		d.mode = docsRendered
	} else {
		d.mode = docsRaw
	}
	d.sync()
}

func (d *Docs) togglePanel(p docsPanel) {
	if d.doc() == nil {
		return
	}
	if d.panel == p {
		d.panel = panelNone
	} else {
		d.panel, d.panelList.Cursor, d.panelList.Offset = p, 0, 0
		if p == panelCitations {
			d.panelList.Cursor = d.citationNearCursor()
		}
	}
	d.relayout()
}

// citationNearCursor is the first citation at or after the reading
// position, so the list opens where the reader is.
func (d *Docs) citationNearCursor() int {
	doc := d.doc()
	src := d.cursorSource()
	for i, c := range doc.Citations {
		if c.SourceLine-1 >= src {
			return i
		}
	}
	return 0
}

func (d *Docs) relayout() {
	l := d.layout()
	d.pane.SetSize(l.areaW, l.paneH)
}

// Open goes to a document: a citation's line range in the source view,
// highlighted and centred; a bare document rendered from the top; a place
// from Here exactly as it was.
func (d *Docs) Open(t common.Target) tea.Cmd {
	i := d.docIndex(t.Path)
	if i < 0 {
		if t.Path == packet.DiffPath {
			return common.Follow(common.DiffTargetForLine(d.ctx.Packet.Diff, t.Line))
		}
		return common.Status("no document " + ui.Sanitize(t.Path))
	}
	d.panel = panelNone
	d.relayout()
	switch {
	case t.Recipe == docsHereRaw || t.Recipe == docsHereRendered:
		d.mode = docsRendered
		if t.Recipe == docsHereRaw {
			d.mode = docsRaw
		}
		d.selectDoc(i)
		d.hlStart, d.hlEnd = -1, -1
		if t.Line > 0 {
			d.hlStart, d.hlEnd = t.Line-1, max(t.EndLine, t.Line)
		}
		d.pending = &docsPending{kind: pendRestore, line: t.Offset, cursor: t.DiffLine, rel: -1}
	case t.Line > 0:
		d.mode = docsRaw
		d.selectDoc(i)
		d.hlStart, d.hlEnd = t.Line-1, max(t.EndLine, t.Line)
		d.pending = &docsPending{kind: pendCenter, line: t.Line - 1, cursor: d.hlEnd - 1}
	default:
		d.mode = docsRendered
		d.selectDoc(i)
		d.hlStart, d.hlEnd = -1, -1
		d.pending = &docsPending{kind: pendTop}
	}
	d.shown = shownNone // the highlight or mode may have changed: redo the lines
	d.sync()
	return d.renderCmd()
}

// Here is the document, mode, highlight, scroll offset and cursor.
func (d *Docs) Here() common.Target {
	t := common.Target{Screen: common.ScreenDocs, File: -1, Hunk: -1, Recipe: docsHereRendered,
		Offset: d.pane.Offset(), DiffLine: d.pane.Cursor()}
	if doc := d.doc(); doc != nil {
		t.Path = doc.Path
	}
	if d.mode == docsRaw {
		t.Recipe = docsHereRaw
		if d.hlEnd > d.hlStart && d.hlStart >= 0 {
			t.Line, t.EndLine = d.hlStart+1, d.hlEnd
		}
	}
	if d.pending != nil && d.pending.kind == pendRestore {
		t.Offset, t.DiffLine = d.pending.line, d.pending.cursor
	}
	return t
}

// Status says which document, where in it, and how it is shown.
func (d *Docs) Status() string {
	doc := d.doc()
	if doc == nil {
		return "no documents"
	}
	mode := "rendered"
	switch d.shown {
	case shownRaw:
		mode = "source"
	case shownInterim:
		mode = "rendering…"
	}
	return fmt.Sprintf("%s · line %d/%d · %s", ui.Sanitize(doc.Path), d.pane.Cursor()+1, d.pane.Len(), mode)
}

// Bindings are the keys that do something here now: the key table's.
func (d *Docs) Bindings() []key.Binding { return d.keyTable().Keys() }
