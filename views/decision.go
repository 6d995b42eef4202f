package views

import (
	"fmt"
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"vetter/packet"
)

// Decision is screen 7: the gate checklist, live as triage changes, what a
// vetter must look at before letting the change run on shared CI, and the
// decision itself (O ok to test, H hold, R request changes).
type Decision struct {
	listScreen // a row's item is its index in attention

	attention []packet.Attention
	scanned   bool                      // attention holds the scan's result
	scan      func() []packet.Attention // the scan, run once wherever first asked
	reviewed  map[string]bool           // by Attention.Key, for this session
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
	d := &Decision{listScreen: listScreen{ctx: ctx, id: ScreenDecision}, reviewed: map[string]bool{}}
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
	return d.ctx.Work.Cmd(func() tea.Msg { return attentionMsg{items: scan()} })
}

// SetSize gives the body's size.
func (d *Decision) SetSize(w, h int) {
	d.list.width, d.list.height = w, h
	d.rebuild()
}

func (d *Decision) rebuild() {
	p, st := d.ctx.P, d.ctx.St
	w := max(d.list.width-2, 20)
	var rows []listRow
	add := func(s string, t *Target, item int) { rows = append(rows, listRow{text: s, target: t, item: item}) }
	text := func(s string) string { return st.Text(s, st.Base) }

	head := p.DecisionSHA()
	if head == "" {
		head = "unknown"
	}
	add(st.Title.Render("Decision")+"  "+st.Muted.Render("head ")+text(head), nil, -1)
	for _, l := range originLines(p, st) {
		add(l, nil, -1)
	}
	if g := p.Triage; g != nil && g.Gate != nil {
		line := fmt.Sprintf("recorded: %s for %s by %s at %s", g.Gate.Decision, g.Gate.SHA, g.Gate.User, g.Gate.Time.Format("2006-01-02 15:04"))
		if _, stands := p.DecisionStands(); !stands {
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
		add(st.Muted.Render("saved in ")+st.Line(d.ctx.Store.Where(), st.Muted), nil, -1)
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
	d.list.setRows(rows)
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
	case tea.KeyPressMsg:
		r := d.list.selected()
		switch {
		case key.Matches(msg, km.Follow):
			if r != nil && r.target != nil {
				return Follow(*r.target)
			}
		case key.Matches(msg, km.Mark):
			if r != nil && r.item >= 0 {
				k := d.attention[r.item].Key
				d.reviewed[k] = !d.reviewed[k]
				d.rebuild()
			}
		case key.Matches(msg, km.OKToTest):
			return decide(packet.DecisionOkToTest)
		case key.Matches(msg, km.Hold):
			return decide(packet.DecisionHold)
		case key.Matches(msg, km.RequestChanges):
			return decide(packet.DecisionRequestChanges)
		default:
			d.list.handle(msg, km)
		}
	default:
		d.list.handle(msg, km)
	}
	return nil
}

func decide(decision string) tea.Cmd {
	return func() tea.Msg { return DecideMsg{Decision: decision} }
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
