package decision

import (
	"fmt"
	"maps"
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	// The attention package is the scan packet.Attention runs: importing it
	// registers it (it reads packet's diff, so packet cannot import it).
	_ "github.com/vetter-dev/vetter/attention"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/common"
)

// Decision is screen 7: the gate checklist, live as triage changes, what a
// vetter must look at before letting the change run on shared CI, and the
// decision itself (O ok to test, H hold, R request changes).
type Decision struct {
	common.ListScreen // a row's item is its index in attention

	attention []packet.Attention
	scanned   bool                      // attention holds the scan's result
	scan      func() []packet.Attention // the scan, run once wherever first asked
	// confirming is set while ok-to-test waits for a second O because high
	// items are not marked reviewed; every key comes here meanwhile.
	confirming bool
	gateReady  bool // the gate as rebuild last computed it, for Status
}

// DecideMsg asks the root to record a gate decision: it opens the note
// prompt (and the override prompt when ok-to-test meets a gate not ready).
type DecideMsg struct{ Decision string }

func (DecideMsg) WorkbenchMsg() {}

// attentionMsg carries the finished scan of the diff to the screen.
type attentionMsg struct{ items []packet.Attention }

func (attentionMsg) EpochBound() {}

// reviewedMsg carries the review marks as saved (or the error) back from
// the command that wrote reviewed.json.
type reviewedMsg struct {
	marks map[string]packet.ReviewMark
	text  string
	err   error
}

// A save that lands after a reload is on disk, and the reloaded packet
// read the marks from there.
func (reviewedMsg) EpochBound() {}

// New builds the decision screen. Scanning the diff is linear but
// takes a while on a big one (~20 ms for 200,000 lines), so it runs once, in
// the background from Init, rather than before the first screen.
func New(ctx *common.Context) *Decision {
	d := &Decision{ListScreen: common.ListScreen{Ctx: ctx, ID: common.ScreenDecision}}
	p := ctx.Packet // the packet keeps the scan, so the gate and the summary read the same one
	d.scan = sync.OnceValue(func() []packet.Attention { return p.Attention() })
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
	return d.Ctx.Work.Cmd(func() tea.Msg { return attentionMsg{items: scan()} })
}

// SetSize gives the body's size.
func (d *Decision) SetSize(w, h int) {
	d.List.Width, d.List.Height = w, h
	d.rebuild()
}

func (d *Decision) rebuild() {
	p, st := d.Ctx.Packet, d.Ctx.Styles
	w := max(d.List.Width-2, 20)
	var rows []common.ListRow
	add := func(s string, t *common.Target, item int) {
		rows = append(rows, common.ListRow{Text: s, Target: t, Item: item})
	}
	text := func(s string) string { return st.Text(s, st.Base) }

	head := p.DecisionSHA()
	if head == "" {
		head = "unknown"
	}
	add(st.Title.Render("Decision")+"  "+st.Muted.Render("head ")+text(head), nil, -1)
	for _, l := range common.OriginLines(p, st) {
		add(l, nil, -1)
	}
	// The decision for this round's head (or an earlier one that no
	// longer stands); a later head's is named on its own line.
	if gd, stands := review.DecisionStands(p); gd != nil {
		// Whether it stands comes first, so no width cuts it off.
		style := st.Accent
		if !stands {
			style = st.Warn
		}
		add(style.Render(text(review.DecisionNote(p))), nil, -1)
		add("  "+st.Muted.Render(text(fmt.Sprintf("recorded by %s at %s for %s", gd.User, gd.Time.Format("2006-01-02 15:04"), gd.SHA))), nil, -1)
		if gd.Note != "" {
			add("  "+st.Muted.Render(text(common.ClipTo(common.OneLine(gd.Note), w-2))), nil, -1)
		}
	} else {
		add(st.Muted.Render("no decision recorded yet"), nil, -1)
	}
	if other := review.OtherDecisionNote(p); other != "" {
		add("  "+st.Warn.Render(text(other)), nil, -1)
	}
	if d.Ctx.Store != nil {
		add(st.Muted.Render("saved in ")+st.Line(d.Ctx.Store.Where(), st.Muted), nil, -1)
	} else if d.Ctx.StoreErr != nil {
		add(st.Error.Render(text("decisions cannot be saved: "+d.Ctx.StoreErr.Error())), nil, -1)
	}

	g := review.Gate(p)
	d.gateReady = g.Ready
	word, badge := "not ready", st.Badge.Error
	if g.Ready {
		word, badge = "ready", st.Badge.OK
	}
	add("", nil, -1)
	add(st.Subtitle.Render("Gate ")+badge.Render(" "+word+" "), nil, -1)
	for _, c := range g.Checks {
		mark := common.GateMark(st, c)
		add(fmt.Sprintf("  %s %-18s %s", mark, c.Name, st.Muted.Render(text(common.ClipTo(c.Detail, w-22)))), common.GateTarget(p, c.Name), -1)
	}
	add("  "+st.Accent.Render(text(g.Command)), nil, -1)

	add("", nil, -1)
	reviewed, high := review.HighReviewed(p, d.attention)
	if !d.scanned {
		add(st.Subtitle.Render("What a vetter must look at"), nil, -1)
		add(st.Muted.Render("  scanning the diff…"), nil, -1)
	} else {
		add(st.Subtitle.Render(fmt.Sprintf("What a vetter must look at (%d; %d of %d high reviewed)", len(d.attention), reviewed, high)), nil, -1)
	}
	if d.confirming {
		add(st.Warn.Render(text(fmt.Sprintf("  %d of %d high items are not marked reviewed: O again gives ok to test anyway, any other key cancels", high-reviewed, high))), nil, -1)
	}
	if d.scanned && len(d.attention) == 0 {
		add(st.Muted.Render("  nothing in the diff runs in CI or at build time, downloads, executes, connects, decodes and runs,"), nil, -1)
		add(st.Muted.Render("  names credentials, or hides characters"), nil, -1)
	}
	for i, a := range d.attention {
		box := "[ ]"
		if _, ok := p.Reviewed[a.Key]; ok {
			box = st.OK.Render("[✓]")
		}
		sev := st.Status(a.Severity)
		where := a.Path
		if a.NewLine > 0 {
			where = fmt.Sprintf("%s:%d", a.Path, a.NewLine)
		}
		t := &common.Target{Screen: common.ScreenDiff, Path: a.Path, File: a.File, Hunk: a.Hunk, DiffLine: a.Line, Line: a.NewLine}
		if a.AfterPacket {
			// Not in the packet's diff: the commits after it are shown as a
			// document of their own.
			t = &common.Target{Screen: common.ScreenDocs, Path: packet.AfterPacketDoc, File: -1, Hunk: -1, DiffLine: -1}
		}
		add(fmt.Sprintf("  %s %s %s  %s  %s", box, sev.Render(fmt.Sprintf("%-6s", a.Severity)), text(a.Title), st.Accent.Render(text(common.ClipTo(where, 60))), st.Muted.Render(text(a.Rule))), t, i)
		if a.Text != "" {
			add("         "+st.Muted.Render(text(common.ClipTo("> "+strings.TrimSpace(a.Text), w-10))), nil, -1)
		}
		if a.Source > 0 {
			// The line the data came from, a step to the diff away.
			src := *t
			src.Line, src.DiffLine, src.Hunk = a.Source, -1, -1
			if a.AfterPacket {
				src = *t
			}
			add("         "+st.Muted.Render(text(common.ClipTo(fmt.Sprintf("data from line %d: %s", a.Source, strings.TrimSpace(a.SourceText)), w-10))), &src, -1)
		}
		if a.Why != "" {
			add("         "+st.Muted.Render(text(common.ClipTo("why: "+a.Why, w-10))), nil, -1)
		}
	}
	add("", nil, -1)
	add(st.Muted.Render("O ok to test · H hold · R request changes · enter go to the line · space mark reviewed"), nil, -1)
	d.List.SetRows(rows)
}

// Update moves, follows, marks reviewed and asks for decisions.
func (d *Decision) Update(msg tea.Msg) tea.Cmd {
	km := d.Ctx.Keys
	switch msg := msg.(type) {
	case attentionMsg:
		d.attention, d.scanned = msg.items, true
		d.rebuild()
		// The gate's attention-reviewed check can count now: the screens
		// that show the gate redraw.
		return func() tea.Msg { return common.TriageChangedMsg{} }
	case reviewedMsg:
		if msg.err != nil {
			return common.ReportError(msg.err)
		}
		d.Ctx.Packet.Reviewed = msg.marks
		d.rebuild()
		// The gate's attention-reviewed check changed: every screen that
		// shows the gate redraws, and the status says what was saved.
		return tea.Batch(func() tea.Msg { return common.TriageChangedMsg{} }, func() tea.Msg { return common.StatusMsg{Text: msg.text} })
	case common.ThemeChangedMsg, common.TriageChangedMsg:
		d.rebuild()
	case tea.KeyPressMsg:
		if d.confirming {
			d.confirming = false
			d.rebuild()
			if key.Matches(msg, km.OKToTest) {
				return decide(review.DecisionOkToTest)
			}
			return func() tea.Msg { return common.StatusMsg{Text: "ok to test cancelled"} }
		}
		cmd, _ := d.keys().Dispatch(msg)
		return cmd
	default:
		d.List.Handle(msg, km)
	}
	return nil
}

// toggleReviewed marks an item reviewed, or unmarks it, in reviewed.json
// beside the reviewer's triage. The write waits for the folder's lock and
// syncs to disk, so it runs in a command; the marks come back in a
// reviewedMsg and go into the packet in Update, where the screens read it.
func (d *Decision) toggleReviewed(a packet.Attention) tea.Cmd {
	_, was := d.Ctx.Packet.Reviewed[a.Key]
	word := "reviewed"
	if was {
		word = "not reviewed"
	}
	text := fmt.Sprintf("%s:%d marked %s", a.Path, a.NewLine, word)
	store := d.Ctx.Store
	if store == nil {
		// Nowhere to save: the mark lasts for this session, and the status says so.
		marks := maps.Clone(d.Ctx.Packet.Reviewed)
		if marks == nil {
			marks = map[string]packet.ReviewMark{}
		}
		if was {
			delete(marks, a.Key)
		} else {
			marks[a.Key] = packet.ReviewMark{User: d.Ctx.Who(), Time: d.Ctx.Now(), Rule: a.Rule, Path: a.Path, Text: a.Text}
		}
		why := "no state folder"
		if d.Ctx.StoreErr != nil {
			why = d.Ctx.StoreErr.Error()
		}
		return func() tea.Msg {
			return reviewedMsg{marks: marks, text: text + " for this session only (not saved: " + why + ")"}
		}
	}
	user, now := d.Ctx.Who(), d.Ctx.Now()
	return func() tea.Msg {
		marks, err := store.SetReviewed([]packet.Attention{a}, !was, user, now)
		return reviewedMsg{marks: marks, text: text, err: err}
	}
}

// Capturing holds every key while ok-to-test waits for its confirmation.
func (d *Decision) Capturing() bool { return d.confirming }

func decide(decision string) tea.Cmd {
	return func() tea.Msg { return DecideMsg{Decision: decision} }
}

// Status says how far the reviewer is.
func (d *Decision) Status() string {
	// The gate as rebuild last computed it: Status is drawn every frame.
	word := "not ready"
	if d.gateReady {
		word = "ready"
	}
	if !d.scanned {
		return fmt.Sprintf("gate %s · scanning the diff", word)
	}
	reviewed, high := review.HighReviewed(d.Ctx.Packet, d.attention)
	return fmt.Sprintf("gate %s · %d/%d reviewed", word, reviewed, high) // high items; the list's heading says so
}

// keys are the decision screen's keys: its own, then the list's movement
// keys.
func (d *Decision) keys() common.KeyTable {
	k := d.Ctx.Keys
	return append(common.KeyTable{
		{Key: k.OKToTest, Handler: func(tea.KeyPressMsg) tea.Cmd {
			if reviewed, high := review.HighReviewed(d.Ctx.Packet, d.Attention()); reviewed < high {
				d.confirming = true
				d.rebuild()
				return func() tea.Msg {
					return common.StatusMsg{Text: fmt.Sprintf("%d of %d high items not reviewed: O again to give ok to test anyway", high-reviewed, high)}
				}
			}
			return decide(review.DecisionOkToTest)
		}},
		{Key: k.Hold, Handler: func(tea.KeyPressMsg) tea.Cmd { return decide(review.DecisionHold) }},
		{Key: k.RequestChanges, Handler: func(tea.KeyPressMsg) tea.Cmd { return decide(review.DecisionRequestChanges) }},
		{Key: k.Follow, Handler: func(tea.KeyPressMsg) tea.Cmd { return d.FollowSelected() }},
		{Key: k.Mark, Handler: func(tea.KeyPressMsg) tea.Cmd {
			if r := d.List.Selected(); r != nil && r.Item >= 0 {
				return d.toggleReviewed(d.attention[r.Item])
			}
			return nil
		}},
	}, d.List.Keys(k)...)
}

// Bindings are the keys that work here: the key table's.
func (d *Decision) Bindings() []key.Binding { return d.keys().Keys() }
