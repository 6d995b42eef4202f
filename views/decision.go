package views

import (
	"fmt"
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"vetter/packet"
)

// Decision is screen 7: the gate checklist, live as triage changes, what a
// vetter must look at before letting the change run on shared CI, and the
// decision itself (O ok to test, H hold, R request changes).
type Decision struct {
	ctx           *Context
	width, height int

	attention []packet.Attention
	scanned   bool                      // attention holds the scan's result
	scan      func() []packet.Attention // the scan, run once wherever first asked
	reviewed  map[string]bool           // by Attention.Key, for this session

	rows        []decRow
	cursor, top int
	query       string
}

type decRow struct {
	text   string
	target *Target
	item   int // index into attention, -1 for other rows
}

// DecideMsg asks the root to record a gate decision: it opens the note
// prompt (and the override prompt when ok-to-test meets a gate not ready).
type DecideMsg struct{ Decision string }

// attentionMsg carries the finished scan of the diff to the screen.
type attentionMsg struct{ items []packet.Attention }

// NewDecision builds the decision screen. Scanning the diff is linear but
// takes a while on a big one (~20 ms for 200,000 lines), so it runs once, in
// the background from Init, rather than before the first screen.
func NewDecision(ctx *Context) *Decision {
	d := &Decision{ctx: ctx, reviewed: map[string]bool{}}
	diff := ctx.P.Diff
	d.scan = sync.OnceValue(func() []packet.Attention { return packet.ScanAttention(diff) })
	d.rebuild()
	return d
}

// Attention returns what the scan found, scanning now if it has not yet.
func (d *Decision) Attention() []packet.Attention {
	if !d.scanned {
		d.attention, d.scanned = d.scan(), true
	}
	return d.attention
}

// Init scans the diff in the background.
func (d *Decision) Init() tea.Cmd {
	scan := d.scan
	return func() tea.Msg { return attentionMsg{items: scan()} }
}

// SetSize gives the body's size.
func (d *Decision) SetSize(w, h int) {
	d.width, d.height = w, h
	d.rebuild()
}

func (d *Decision) rebuild() {
	p, st := d.ctx.P, d.ctx.St
	w := max(d.width-2, 20)
	var rows []decRow
	add := func(s string, t *Target, item int) { rows = append(rows, decRow{text: s, target: t, item: item}) }
	text := func(s string) string { return st.Text(s, st.Base) }

	head := p.Change.HeadSHA
	if head == "" {
		head = "unknown"
	}
	add(st.Title.Render("Decision")+"  "+st.Muted.Render("head ")+text(head), nil, -1)
	if g := p.Triage; g != nil && g.Gate != nil {
		line := fmt.Sprintf("recorded: %s by %s at %s for %s", g.Gate.Decision, g.Gate.User, g.Gate.Time.Format("2006-01-02 15:04"), g.Gate.SHA)
		if g.Gate.SHA != p.Change.HeadSHA {
			add(st.Warn.Render(text(line+" — the head has moved since; it no longer stands")), nil, -1)
		} else {
			add(st.Accent.Render(text(line)), nil, -1)
		}
		if g.Gate.Note != "" {
			add("  "+st.Muted.Render(text(clipTo(oneLine(g.Gate.Note), w-2))), nil, -1)
		}
	} else {
		add(st.Muted.Render("no decision recorded yet"), nil, -1)
	}
	if d.ctx.Store != nil {
		add(st.Muted.Render("saved in "+d.ctx.Store.Where()), nil, -1)
	} else if d.ctx.StoreErr != nil {
		add(st.Error.Render(text("decisions cannot be saved: "+d.ctx.StoreErr.Error())), nil, -1)
	}

	g := p.Gate()
	word, badge := "not ready", st.Badge.Error
	if g.Ready {
		word, badge = "ready", st.Badge.OK
	}
	add("", nil, -1)
	add(st.Subtitle.Render("Gate ")+badge.Render(" "+word+" "), nil, -1)
	for _, c := range g.Checks {
		mark := st.Error.Render("✗")
		if c.OK {
			mark = st.OK.Render("✓")
		}
		add(fmt.Sprintf("  %s %-18s %s", mark, c.Name, st.Muted.Render(text(clipTo(c.Detail, w-22)))), gateTarget(p, c.Name), -1)
	}
	add("  "+st.Accent.Render(text(g.Command)), nil, -1)

	add("", nil, -1)
	done := 0
	for _, a := range d.attention {
		if d.reviewed[a.Key] {
			done++
		}
	}
	if !d.scanned {
		add(st.Subtitle.Render("What a vetter must look at"), nil, -1)
		add(st.Muted.Render("  scanning the diff…"), nil, -1)
	} else {
		add(st.Subtitle.Render(fmt.Sprintf("What a vetter must look at (%d, %d reviewed)", len(d.attention), done)), nil, -1)
	}
	if d.scanned && len(d.attention) == 0 {
		add(st.Muted.Render("  nothing in the diff runs in CI or at build time, downloads, executes, connects, decodes and runs,"), nil, -1)
		add(st.Muted.Render("  names credentials, or hides characters"), nil, -1)
	}
	for i, a := range d.attention {
		box := "[ ]"
		if d.reviewed[a.Key] {
			box = st.OK.Render("[✓]")
		}
		sev := st.Info
		switch a.Severity {
		case packet.AttentionHigh:
			sev = st.Error
		case packet.AttentionMedium:
			sev = st.Warn
		}
		where := a.Path
		if a.NewLine > 0 {
			where = fmt.Sprintf("%s:%d", a.Path, a.NewLine)
		}
		t := &Target{Screen: ScreenDiff, Path: a.Path, File: a.File, Hunk: a.Hunk, DiffLine: a.Line, Line: a.NewLine}
		add(fmt.Sprintf("  %s %s %s  %s", box, sev.Render(fmt.Sprintf("%-6s", a.Severity)), text(a.Title), st.Accent.Render(text(clipTo(where, 60)))), t, i)
		if a.Text != "" {
			add("         "+st.Muted.Render(text(clipTo(strings.TrimSpace(a.Text), w-10))), nil, -1)
		}
	}
	add("", nil, -1)
	add(st.Muted.Render("O ok to test · H hold · R request changes · enter go to the line · space mark reviewed"), nil, -1)
	d.rows = rows
	if d.cursor >= len(rows) || rows[d.cursor].target == nil {
		d.cursor = d.next(-1, 1)
	}
}

func (d *Decision) next(from, dir int) int {
	for i := from + dir; i >= 0 && i < len(d.rows); i += dir {
		if d.rows[i].target != nil {
			return i
		}
	}
	if from >= 0 && from < len(d.rows) {
		return from
	}
	return 0
}

// Update moves, follows, marks reviewed and asks for decisions.
func (d *Decision) Update(msg tea.Msg) tea.Cmd {
	km := d.ctx.Keys
	switch msg := msg.(type) {
	case attentionMsg:
		d.attention, d.scanned = msg.items, true
		d.rebuild()
	case ThemeChangedMsg, TriageChangedMsg:
		d.rebuild()
	case tea.MouseWheelMsg:
		if msg.Button == tea.MouseWheelDown {
			d.top = min(d.top+3, max(len(d.rows)-d.height, 0))
		} else if msg.Button == tea.MouseWheelUp {
			d.top = max(d.top-3, 0)
		}
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, km.Down):
			d.cursor = d.next(d.cursor, 1)
		case key.Matches(msg, km.Up):
			d.cursor = d.next(d.cursor, -1)
		case key.Matches(msg, km.Top):
			d.cursor, d.top = d.next(-1, 1), 0
		case key.Matches(msg, km.Bottom):
			d.cursor = d.next(len(d.rows), -1)
		case key.Matches(msg, km.Follow):
			if r := d.rows[d.cursor]; r.target != nil {
				return Follow(*r.target)
			}
		case key.Matches(msg, km.Mark):
			if r := d.rows[d.cursor]; r.item >= 0 {
				k := d.attention[r.item].Key
				d.reviewed[k] = !d.reviewed[k]
				d.rebuild()
			}
		case key.Matches(msg, km.OKToTest):
			return func() tea.Msg { return DecideMsg{Decision: packet.DecisionOkToTest} }
		case key.Matches(msg, km.Hold):
			return func() tea.Msg { return DecideMsg{Decision: packet.DecisionHold} }
		case key.Matches(msg, km.RequestChanges):
			return func() tea.Msg { return DecideMsg{Decision: packet.DecisionRequestChanges} }
		}
		d.scroll()
	}
	return nil
}

func (d *Decision) scroll() {
	if d.cursor < d.top {
		d.top = d.cursor
	}
	if d.height > 0 && d.cursor >= d.top+d.height {
		d.top = d.cursor - d.height + 1
	}
}

// View draws the visible rows.
func (d *Decision) View() string {
	if d.width <= 0 || d.height <= 0 {
		return ""
	}
	st := d.ctx.St
	out := make([]string, d.height)
	for i := range out {
		r := d.top + i
		line := ""
		if r < len(d.rows) {
			line = " " + d.rows[r].text
			if r == d.cursor && d.rows[r].target != nil {
				line = st.Selection.Render("▌") + d.rows[r].text
			}
		}
		out[i] = fit(line, d.width)
	}
	return strings.Join(out, "\n")
}

// Open restores a position.
func (d *Decision) Open(t Target) tea.Cmd {
	if t.Offset > 0 || t.Line > 0 {
		d.cursor, d.top = min(t.Line, max(len(d.rows)-1, 0)), t.Offset
		d.scroll()
	}
	return nil
}

// Here remembers the cursor.
func (d *Decision) Here() Target {
	return Target{Screen: ScreenDecision, Line: d.cursor, Offset: d.top, File: -1, Hunk: -1, DiffLine: -1}
}

// Status says how far the reviewer is.
func (d *Decision) Status() string {
	done := 0
	for _, a := range d.attention {
		if d.reviewed[a.Key] {
			done++
		}
	}
	word := "not ready"
	if d.ctx.P.Gate().Ready {
		word = "ready"
	}
	if !d.scanned {
		return fmt.Sprintf("gate %s · scanning the diff", word)
	}
	return fmt.Sprintf("gate %s · %d/%d looked at", word, done, len(d.attention))
}

// Bindings are the keys that work here.
func (d *Decision) Bindings() []key.Binding {
	k := d.ctx.Keys
	return []key.Binding{k.OKToTest, k.Hold, k.RequestChanges, k.Follow, k.Mark}
}

// Search finds rows containing query.
func (d *Decision) Search(query string) int {
	d.query = strings.ToLower(query)
	n, first := 0, -1
	for i, r := range d.rows {
		if d.query != "" && strings.Contains(strings.ToLower(ansi.Strip(r.text)), d.query) {
			n++
			if first < 0 && i >= d.cursor {
				first = i
			}
		}
	}
	if first >= 0 {
		d.cursor = first
		d.scroll()
	}
	return n
}

// NextMatch moves to the next or previous matching row.
func (d *Decision) NextMatch(dir int) {
	for i := d.cursor + dir; d.query != "" && i >= 0 && i < len(d.rows); i += dir {
		if strings.Contains(strings.ToLower(ansi.Strip(d.rows[i].text)), d.query) {
			d.cursor = i
			d.scroll()
			return
		}
	}
}
