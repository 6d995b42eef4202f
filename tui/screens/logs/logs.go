package logs

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/ui"
)

// Logs is screen 6: the packet's logs beside the selected one, read on
// demand a window at a time. Indexing, searching a large log and scanning
// for error lines run in commands; the screen stays usable meanwhile.
//
// Two things the Screen interface cannot carry:
//   - Capturing reports that the go-to-line prompt is open; the root must
//     then send every key here, globals included.
//   - Search and NextMatch cannot return a command. On a log of
//     logsSyncLimit bytes or more they start one and leave it for
//     PendingCmd, which the root runs after calling them; Search then
//     returns -1, meaning "searching", and the result arrives as a message.
type Logs struct {
	ctx           *common.Context
	keys          logsKeys
	width, height int

	list      ui.List              // the selected log in ctx.P.Logs, the first on screen
	views     map[string]*logsView // per log, made when first shown
	wrap      bool
	citedBy   map[string][]*packet.Run
	listKey   [4]int // what listCache was drawn for
	listCache []string

	// The go-to-line prompt.
	gotoOpen bool
	gotoBuf  string

	// Search: the query, and for a small log its match count and lines.
	query      string
	count      int // -1 when unknown (a large log)
	matchLines []int

	// Background work.
	index         *logsJob
	find          *logsJob
	gen           int
	ticking       bool
	indexFailed   map[string]bool
	indexedAny    bool        // this screen indexed something; re-check citations when all are done
	indexWait     *packet.Log // a log another job is indexing, looked at again each tick
	bottomPending bool        // G pressed while indexing: go to the real end when it is known
	// openPending is a target past what the index has reached: opened
	// when indexing gets there, rather than read up to on the UI goroutine.
	openPending *common.Target
	pending     tea.Cmd
	note        string // a short note for the status: no match, cancelled
}

// logsView is one log's pane and source; it keeps its place while another
// log is shown.
type logsView struct {
	log  *packet.Log
	src  *logsSource
	pane ui.Pane
}

// logsKeys are the keys this screen adds to the shared key map.
type logsKeys struct {
	NextLog, PrevLog key.Binding
	Cancel           key.Binding
}

// logsSyncLimit is the size below which a search or scan runs at once
// rather than in a command: under it a scan takes a few milliseconds.
var logsSyncLimit int64 = 8 << 20

// New builds the logs screen over ctx's packet.
func New(ctx *common.Context) *Logs {
	s := &Logs{
		ctx:         ctx,
		views:       map[string]*logsView{},
		citedBy:     map[string][]*packet.Run{},
		indexFailed: map[string]bool{},
		count:       -1,
		keys: logsKeys{
			NextLog: key.NewBinding(key.WithKeys(ctx.Keys.NextFile.Keys()...), key.WithHelp(ctx.Keys.NextFile.Help().Key, "next log")),
			PrevLog: key.NewBinding(key.WithKeys(ctx.Keys.PrevFile.Keys()...), key.WithHelp(ctx.Keys.PrevFile.Help().Key, "previous log")),
			Cancel:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop searching")),
		},
	}
	for _, run := range ctx.Packet.Registry.Runs {
		if run.Log != "" {
			s.citedBy[run.Log] = append(s.citedBy[run.Log], run)
		}
	}
	for _, runs := range s.citedBy {
		sort.SliceStable(runs, func(i, j int) bool { return runs[i].Seq > runs[j].Seq })
	}
	return s
}

// current is the selected log, or nil when the packet has none.
func (s *Logs) current() *packet.Log {
	if s.list.Cursor < 0 || s.list.Cursor >= len(s.ctx.Packet.Logs) {
		return nil
	}
	return s.ctx.Packet.Logs[s.list.Cursor]
}

// view is the selected log's view, made on first use.
func (s *Logs) view() *logsView {
	l := s.current()
	if l == nil {
		return nil
	}
	v := s.views[l.Path]
	if v == nil {
		v = &logsView{log: l, src: newLogsSource(s.ctx.Styles, l), pane: ui.NewPane(s.ctx.Styles)}
		v.pane.SetGutter(true)
		v.pane.SetSource(v.src)
		s.views[l.Path] = v
	}
	v.pane.SetWrap(s.wrap)
	s.sizePane(v)
	return v
}

// Init starts indexing whatever logs the loader left unindexed.
func (s *Logs) Init() tea.Cmd { return s.nextIndex() }

// Capturing reports that the go-to-line prompt is open and wants every key.
func (s *Logs) Capturing() bool { return s.gotoOpen }

// PendingCmd returns, once, the command a Search or NextMatch started.
func (s *Logs) PendingCmd() tea.Cmd {
	c := s.pending
	s.pending = nil
	return c
}

// SetSize gives the screen its body size.
func (s *Logs) SetSize(width, height int) {
	s.width, s.height = max(width, 0), max(height, 0)
	if v := s.view(); v != nil {
		s.sizePane(v)
	}
	s.keepListSelection()
}

// listWidth is the width of the list of logs: none on a very narrow
// screen, a narrow column at 80, a quarter of a wide one.
func (s *Logs) listWidth() int {
	switch {
	case s.width < 60 || len(s.ctx.Packet.Logs) == 0:
		return 0
	case s.width < common.Wide:
		return 24
	}
	return min(max(s.width/4, 30), 48)
}

// paneRect is where the log pane is: x, and its size (a header line sits
// above it, the go-to prompt below it while open).
func (s *Logs) paneRect() (x, w, h int) {
	lw := s.listWidth()
	if lw > 0 {
		x = lw + 1
	}
	h = s.height - 1
	if s.gotoOpen {
		h--
	}
	return x, max(s.width-x, 0), max(h, 0)
}

func (s *Logs) sizePane(v *logsView) {
	_, w, h := s.paneRect()
	if v.pane.Width() != w || v.pane.Height() != h {
		v.pane.SetSize(w, h)
	}
}

// selectLog shows log i, dropping the previous one's window of lines.
func (s *Logs) selectLog(i int) tea.Cmd {
	if i < 0 || i >= len(s.ctx.Packet.Logs) || i == s.list.Cursor && s.views[s.ctx.Packet.Logs[i].Path] != nil {
		return nil
	}
	if v := s.views[s.current().Path]; v != nil && i != s.list.Cursor {
		v.src.drop()
		v.pane.Invalidate()
	}
	s.cancelFind()
	s.list.Cursor = i
	s.bottomPending = false
	s.openPending = nil
	s.note = ""
	s.keepListSelection()
	s.view()
	s.recount()
	return s.prioritise()
}

// logIndex finds a log by its packet path, or failing that by a unique
// path suffix (a citation of the file name alone).
func (s *Logs) logIndex(p string) int {
	p = strings.TrimPrefix(p, "./")
	for i, l := range s.ctx.Packet.Logs {
		if l.Path == p {
			return i
		}
	}
	found := -1
	for i, l := range s.ctx.Packet.Logs {
		if strings.HasSuffix(l.Path, "/"+p) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// Open shows t.Path. A cited range (Line..EndLine, EndLine >= Line) is
// highlighted and put in the middle of the view with the cursor on its
// first line; Line with EndLine 0 is a place from Here (history): the
// cursor goes back to Line and the view to Offset. Lines the index has not
// counted yet are read on demand.
func (s *Logs) Open(t common.Target) tea.Cmd {
	var cmds []tea.Cmd
	if t.Path != "" {
		i := s.logIndex(t.Path)
		if i < 0 {
			return common.Status(fmt.Sprintf("no log %s in the packet", ui.Sanitize(t.Path)))
		}
		cmds = append(cmds, s.selectLog(i))
	}
	v := s.view()
	if v == nil || t.Line <= 0 {
		return tea.Batch(cmds...)
	}
	s.closeGoto()
	end := max(t.EndLine, t.Line)
	h := v.pane.Height()
	if farPastIndex(v.log, end+h) {
		// Reading up to a line the index has not reached means scanning
		// the log from its last checkpoint on this goroutine: a third of
		// a second, twice (to find the line, then to draw it), for the end
		// of a 1 GiB log. Wait for the index instead; it goes first.
		t.Path = v.log.Path
		s.openPending = &t
		s.ctx.HurryIndex(v.log)
		cmds = append(cmds, s.prioritise(), s.tick(),
			common.Status(fmt.Sprintf("line %d: opens when indexing reaches it", t.Line)))
		return tea.Batch(cmds...)
	}
	s.openPending = nil
	if !v.src.probe(end, h) {
		if !v.src.probe(t.Line, h) {
			cmds = append(cmds, common.Status(fmt.Sprintf("%s has no line %d", ui.Sanitize(v.log.Path), t.Line)))
			return tea.Batch(cmds...)
		}
		end = t.Line
	}
	if t.EndLine <= 0 {
		v.src.probe(max(t.Offset, 0)+1, h)
		v.pane.ScrollTo(t.Offset)
		v.pane.SetCursor(t.Line - 1)
		return tea.Batch(cmds...)
	}
	v.pane.SetHighlight(t.Line-1, end)
	s.showRange(v, t.Line-1, end)
	return tea.Batch(cmds...)
}

// showRange puts lines [start, end) in the middle of the view (their start
// at the top when they do not fit) with the cursor on start.
func (s *Logs) showRange(v *logsView, start, end int) {
	h := v.pane.Height()
	top := start
	if n := end - start; n < h {
		top = start - (h-n)/2
	}
	v.pane.ScrollTo(max(top, 0))
	v.pane.SetCursor(start)
}

// Here is the selected log, the cursor line and the scroll offset.
func (s *Logs) Here() common.Target {
	if s.openPending != nil {
		return *s.openPending // where the person is going
	}
	t := common.Target{Screen: common.ScreenLogs, File: -1, Hunk: -1, DiffLine: -1}
	if v := s.view(); v != nil {
		t.Path = v.log.Path
		t.Line = v.pane.Cursor() + 1
		t.Offset = v.pane.Offset()
	}
	return t
}

// Status: "log 3/5 · line 36/45 · exit 1", with indexing and search progress.
func (s *Logs) Status() string {
	v := s.view()
	if v == nil {
		return "no logs in this packet"
	}
	parts := []string{fmt.Sprintf("log %d/%d", s.list.Cursor+1, len(s.ctx.Packet.Logs))}
	n := v.src.Len()
	lines := strconv.Itoa(n)
	if !v.log.Indexed() {
		lines += "+"
	}
	parts = append(parts, fmt.Sprintf("line %d/%s", min(v.pane.Cursor()+1, max(n, 1)), lines))
	if v.log.Exit != nil {
		parts = append(parts, fmt.Sprintf("exit %d", v.log.Exit.Code))
	}
	if !v.log.Indexed() {
		if s.index.running() && s.index.log == v.log {
			parts = append(parts, fmt.Sprintf("indexing %d%%", s.index.percent()))
		} else if !s.indexFailed[v.log.Path] {
			parts = append(parts, "indexing…")
		}
		if t := s.openPending; t != nil && t.Path == v.log.Path {
			parts = append(parts, fmt.Sprintf("line %d when indexing reaches it", t.Line))
		}
	}
	if s.find.running() {
		what := "searching"
		if s.find.kind == logsJobErrors {
			what = "looking for errors"
		}
		parts = append(parts, fmt.Sprintf("%s %d%% (esc stops)", what, s.find.percent()))
	} else if s.query != "" {
		parts = append(parts, s.matchStatus(v))
	}
	if s.note != "" {
		parts = append(parts, s.note)
	}
	if v.src.err != nil {
		parts = append(parts, "read error: "+ui.Sanitize(v.src.err.Error()))
	}
	return strings.Join(parts, " · ")
}

// matchStatus is "match 2/7", "7 matches" or "no match" for the query.
func (s *Logs) matchStatus(v *logsView) string {
	q := strconv.Quote(ui.Sanitize(s.query))
	switch {
	case s.count == 0:
		return "no match for " + q
	case s.count < 0:
		return q + " (n/N: next/previous)"
	}
	line := v.pane.Cursor() + 1
	if k := sort.SearchInts(s.matchLines, line); k < len(s.matchLines) && s.matchLines[k] == line {
		return fmt.Sprintf("match %d/%d", k+1, s.count)
	}
	return text.PluralOf(s.count, "match", "matches")
}

// Bindings are the keys that do something here now.
func (s *Logs) Bindings() []key.Binding { return s.keyTable(nil).Keys() }

// logsBase is a log's file name.
func logsBase(p string) string { return path.Base(p) }
