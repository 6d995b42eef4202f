package since

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/vetter-dev/vetter/compare"
	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/ui"
)

// Since is screen 8: what changed since the last round (vetter --since OLD
// NEW). It lists packet.Compare's result; every row that still exists in
// this round leads to it: a changed file to the diff, a document change to
// its line, a run to the evidence, a new or changed finding to the findings.
type Since struct {
	common.ListScreen
}

// New builds the screen; it draws nothing useful without ctx.Since.
func New(ctx *common.Context) *Since {
	s := &Since{common.ListScreen{Ctx: ctx, ID: common.ScreenSince}}
	s.rebuild()
	return s
}

// Init reads the earlier round vetter knows of this work item, when it was
// not given (--since, the inbox), so "what changed" is there whenever there
// is an earlier round: behind the first screen, never before it.
func (s *Since) Init() tea.Cmd {
	ctx := s.Ctx
	if ctx.Since != nil || ctx.Store == nil || ctx.Packet.Partial {
		return nil
	}
	store, p := ctx.Store, ctx.Packet
	r, ok := store.EarlierRoundKnown()
	if !ok {
		return nil
	}
	ctx.SinceLoading = r.Head
	s.rebuild()
	// The comparison runs in the background while the screens may save
	// triage: it works on a copy of the packet as it is now, whose triage,
	// review marks and history are replaced, never changed, by a save.
	cur := *p
	load := func() tea.Msg {
		old, err := store.LoadRound(r)
		if err != nil {
			return sinceLoadedMsg{}
		}
		defer old.Close()
		old.Triage, old.History = cur.Triage, cur.History
		c := compare.Compare(old, &cur)
		return sinceLoadedMsg{c: &c}
	}
	return ctx.Work.Cmd(load)
}

// sinceLoadedMsg brings the comparison with the earlier round Init read;
// c is nil when it could not be read.
type sinceLoadedMsg struct{ c *compare.Comparison }

// A comparison answers one read of the packet: a reload starts another.
func (sinceLoadedMsg) EpochBound() {}

// SetSize gives the body's size.
func (s *Since) SetSize(w, h int) {
	s.List.Width, s.List.Height = w, h
	s.rebuild()
}

func (s *Since) rebuild() {
	st, p, c := s.Ctx.Styles, s.Ctx.Packet, s.Ctx.Since
	w := max(s.List.Width-2, 20)
	var rows []common.ListRow
	add := func(text string, t *common.Target) {
		rows = append(rows, common.ListRow{Text: text, Target: t, Item: -1})
	}

	line := func(text string) string { return st.Line(common.ClipTo(text, w), st.Base) }
	none := func() common.Target { return common.Target{File: -1, Hunk: -1, DiffLine: -1} }
	// The rounds the pull request itself tells of come first: they are
	// there whether or not vetter saw an earlier round.
	rounds := func() {
		if p.Origin == nil || len(p.Origin.Rounds) == 0 {
			return
		}
		add(st.Subtitle.Render(fmt.Sprintf("Rounds on the pull request: %d", len(p.Origin.Rounds))), nil)
		for _, r := range p.Origin.Rounds {
			add("  "+line(roundLine(r)), docTarget(p, r.Document, 0))
		}
		add("", nil)
	}
	if c == nil {
		rounds()
		if s.Ctx.SinceLoading != "" {
			add(st.Muted.Render("Reading the earlier round "+short(s.Ctx.SinceLoading)+"…"), nil)
		} else {
			add(st.Muted.Render("No earlier round to compare with: open with vetter --since OLD NEW."), nil)
		}
		s.List.SetRows(rows)
		return
	}
	add(st.Title.Render("Since the last round")+"  "+line(fmt.Sprintf("%s → %s", short(c.Head.Old), short(c.Head.New))), nil)
	if c.Head.Note != "" {
		style := st.Muted
		if c.Head.Moved {
			style = st.Warn
		}
		// The head's clause only: the decision line below says the rest.
		note, _, _ := strings.Cut(c.Head.Note, "; ")
		if c.Head.Moved {
			note = "the head moved: what follows is what changed since " + commitid.Short(c.Head.Old)
		}
		add(style.Render(line(note)), nil)
	}
	// The first thing a re-review needs: whether the decision on record
	// still stands, in one sentence that fits.
	if note := review.DecisionNote(p); note != "" {
		style := st.Muted
		if _, stands := review.DecisionStands(p); !stands {
			style = st.Warn
		}
		add(style.Render(line("Decision: "+note)), nil)
	}
	add("", nil)
	rounds()
	add(st.Subtitle.Render(fmt.Sprintf("%-12s %-28s %s", "", "before", "after")), nil)
	row := func(name, before, after string) {
		mark := " "
		if before != after {
			mark = st.Accent.Render("•")
		}
		add(fmt.Sprintf("%s%-11s %-28s %s", mark, name, line(before), line(after)), nil)
	}
	row("verdict", c.Old.Verdict, c.New.Verdict)
	row("assessment", c.Old.Assessment, c.New.Assessment)
	row("evidence", fmt.Sprintf("%d/%d validated", c.Old.Validated, c.Old.Total), fmt.Sprintf("%d/%d validated", c.New.Validated, c.New.Total))
	row("findings", fmt.Sprint(c.Old.Findings), fmt.Sprint(c.New.Findings))
	row("gate", gateWord(c.Old.GateReady), gateWord(c.New.GateReady))

	add("", nil)
	fd := c.Findings
	add(st.Subtitle.Render(fmt.Sprintf("Findings: %d new, %d resolved, %d changed, %d unchanged",
		len(fd.New), len(fd.Resolved), len(fd.Changed), len(fd.Unchanged))), nil)
	finding := func(kind string, f compare.FindingDelta, lead bool) {
		var t *common.Target
		if lead {
			tg := none()
			tg.Screen, tg.Finding = common.ScreenFindings, f.ID
			t = &tg
		}
		triage := ""
		if f.Triage != "" {
			triage = st.Muted.Render(" · was " + f.Triage)
		}
		add(fmt.Sprintf("  %-9s #%d %s %s%s", kind, f.Number, st.SeverityBadge(f.Severity), line(common.ClipTo(common.OneLine(f.Claim), w-40)), triage), t)
	}
	for _, f := range fd.New {
		finding("new", f, true)
	}
	for _, f := range fd.Changed {
		finding("changed", f, true)
	}
	for _, f := range fd.Resolved {
		finding("resolved", f, false)
	}
	// Unchanged findings carry their decision into this round.
	for _, f := range fd.Unchanged {
		tg := none()
		tg.Screen, tg.Finding = common.ScreenFindings, f.ID
		state := packet.TriageOpen
		if cur := p.Finding(f.ID); cur != nil {
			state, _, _ = review.TriageOf(p, cur)
		}
		add(fmt.Sprintf("  %-9s #%d %s %s%s", "unchanged", f.Number, st.SeverityBadge(f.Severity),
			line(common.ClipTo(common.OneLine(f.Claim), w-40)), st.Muted.Render(" · "+state)), &tg)
	}

	add("", nil)
	reg := c.Registry
	rerun := map[string]bool{}
	for _, r := range reg.Recipes {
		rerun[r.Recipe] = true
	}
	var stale []string
	for _, row := range p.Evidence.Rows {
		if !rerun[row.Recipe] {
			stale = append(stale, row.Recipe)
		}
	}
	add(st.Subtitle.Render(fmt.Sprintf("Evidence: %d of %s re-run or changed, %s",
		len(reg.Recipes), text.PluralOf(len(p.Evidence.Rows), "recipe", "recipes"), text.PluralOf(len(reg.Added), "run added", "runs added"))), nil)
	for _, r := range reg.Recipes {
		add(fmt.Sprintf("  %-15s %s %s", r.Change, line(r.Recipe), st.Muted.Render(ui.SanitizeLine(common.OrDash(r.OldStatus)+" → "+common.OrDash(r.NewStatus)))), nil)
	}
	if len(stale) > 0 {
		add(st.Warn.Render(line("  not re-run since the last round: "+strings.Join(stale, ", "))), nil)
	}
	for _, r := range reg.Added {
		add(fmt.Sprintf("  added    seq %d %s %s", r.Seq, line(r.Recipe), st.Status(r.Status).Render(ui.SanitizeLine(r.Status))), runTarget(r))
	}
	for _, r := range reg.Changed {
		add(fmt.Sprintf("  changed  seq %d %s %s → %s", r.Seq, line(r.Recipe), ui.SanitizeLine(r.OldStatus), st.Status(r.Status).Render(ui.SanitizeLine(r.Status))), runTarget(r))
	}
	for _, r := range reg.Removed {
		add(fmt.Sprintf("  removed  seq %d %s", r.Seq, line(r.Recipe)), nil)
	}

	add("", nil)
	add(st.Subtitle.Render(fmt.Sprintf("The change: %d altered, %d added, %d removed, %d unchanged files",
		c.Change.Altered, c.Change.Added, c.Change.Removed, c.Change.Unchanged)), nil)
	for _, f := range c.Change.Files {
		if f.Status == compare.DeltaUnchanged {
			continue
		}
		var t *common.Target
		if f.Status != compare.DeltaRemoved && p.Diff != nil {
			if fi := p.Diff.FileIndex(f.Path); fi >= 0 {
				tg := none()
				tg.Screen, tg.File, tg.Path = common.ScreenDiff, fi, f.Path
				t = &tg
			}
		}
		add(fmt.Sprintf("  %-8s %s  %s", f.Status, line(f.Path),
			st.Muted.Render(fmt.Sprintf("+%d −%d → +%d −%d", f.OldInsertions, f.OldDeletions, f.NewInsertions, f.NewDeletions))), t)
		// The interdiff, as compare prints it: each hunk that differs, as
		// a diff of the two rounds' diffs.
		for _, h := range f.Hunks {
			if h.Status == compare.DeltaUnchanged {
				continue
			}
			add(st.Muted.Render(line(fmt.Sprintf("    %s hunk %s → %s %s", h.Status, common.OrDash(h.Old), common.OrDash(h.New), h.Section))), t)
			for _, r := range interdiffRows(st, h.Lines, w-4) {
				add("    "+r, t)
			}
		}
	}

	add("", nil)
	add(st.Subtitle.Render(fmt.Sprintf("Documents: %d changed, %d unchanged", len(c.Documents), c.DocumentsUnchanged)), nil)
	for _, d := range c.Documents {
		add(fmt.Sprintf("  %-8s %s", d.Status, line(d.Path)), docTarget(p, d.Path, 0))
		for _, ch := range d.Changes {
			text := ""
			if ch.Removed != "" {
				text += st.Removed.Render(line(common.ClipTo(ch.Removed, w/2)))
			}
			if ch.Added != "" {
				if text != "" {
					text += " → "
				}
				text += st.Added.Render(line(common.ClipTo(ch.Added, w/2)))
			}
			add(fmt.Sprintf("    %s:%d  %s", ui.SanitizeLine(d.Path), ch.Line, text), docTarget(p, d.Path, ch.Line))
		}
	}

	s.List.SetRows(rows)
}

// short is a round's head as the screen names it: 12 characters, "?"
// when it is not known.
func short(sha string) string {
	if sha == "" {
		return "?"
	}
	return commitid.Long(sha)
}

func gateWord(ready bool) string {
	if ready {
		return "ready"
	}
	return "not ready"
}

func docTarget(p *packet.Packet, path string, line int) *common.Target {
	if p.Doc(path) == nil {
		return nil
	}
	return &common.Target{Screen: common.ScreenDocs, Path: path, Line: line, EndLine: line, File: -1, Hunk: -1, DiffLine: -1}
}

func runTarget(r compare.RunDelta) *common.Target {
	return &common.Target{Screen: common.ScreenEvidence, Path: packet.RegistryFile, Line: r.Line, EndLine: r.Line, File: -1, Hunk: -1, DiffLine: -1}
}

// Update moves and follows.
func (s *Since) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.ThemeChangedMsg, common.TriageChangedMsg:
		s.rebuild()
	case sinceLoadedMsg:
		if s.Ctx.Since == nil {
			loading := s.Ctx.SinceLoading
			s.Ctx.Since, s.Ctx.SinceLoading = msg.c, ""
			s.rebuild()
			if msg.c == nil {
				return func() tea.Msg {
					return common.StatusMsg{Text: "the earlier round " + short(loading) + " could not be read from the reviewer's state"}
				}
			}
			return func() tea.Msg {
				return common.StatusMsg{Text: "an earlier round of this work item is known: 8 shows what changed since " + short(msg.c.Head.Old)}
			}
		}
	default:
		return s.HandleList(msg)
	}
	return nil
}

// Status names the two rounds.
func (s *Since) Status() string {
	if s.Ctx.Since == nil {
		return "no earlier round"
	}
	return fmt.Sprintf("since %s", short(s.Ctx.Since.Head.Old))
}

// interdiffRows draws an interdiff's lines wrapped to width, never cut: a
// removed line followed by an added one is a changed line, drawn as the
// diff screen draws one, its changed words marked, so a one-word change
// shows wherever it falls in a long line.
func interdiffRows(st *ui.Styles, lines []compare.InterLine, width int) []string {
	var (
		out []string
		dmp = diffmatchpatch.New()
	)
	draw := func(op, s string, spans []common.Span, style, em lipgloss.Style) {
		plain := op + " " + ui.SanitizeLine(s)
		shift := len(op) + 1
		var words []string
		col := 0
		for i, word := range strings.Split(plain, " ") {
			if i > 0 {
				col++ // the space
			}
			ww := ansi.StringWidth(word)
			changed := false
			for _, sp := range spans {
				if sp.From+shift < col+ww && sp.To+shift > col {
					changed = true
				}
			}
			if changed {
				words = append(words, em.Render(word))
			} else {
				words = append(words, style.Render(word))
			}
			col += ww
		}
		out = append(out, text.WrapWhole(strings.Join(words, " "), width)...)
	}
	for i := 0; i < len(lines); {
		// A run of removed lines and the run of added ones after it are
		// changed lines, paired in order.
		j := i
		for j < len(lines) && lines[j].Op == "-" {
			j++
		}
		k := j
		for k < len(lines) && lines[k].Op == "+" {
			k++
		}
		if j > i && k > j {
			rem, add := lines[i:j], lines[j:k]
			spansA, spansB := make([][]common.Span, len(rem)), make([][]common.Span, len(add))
			for n := 0; n < min(len(rem), len(add)); n++ {
				spansA[n], spansB[n] = common.IntraLine(dmp, rem[n].Text, add[n].Text)
			}
			for n, l := range rem {
				draw("-", l.Text, spansA[n], st.Removed, st.RemovedEmphasis)
			}
			for n, l := range add {
				draw("+", l.Text, spansB[n], st.Added, st.AddedEmphasis)
			}
			i = k
			continue
		}
		l := lines[i]
		style := st.Muted
		switch l.Op {
		case "-":
			style = st.Removed
		case "+":
			style = st.Added
		}
		draw(l.Op, l.Text, nil, style, style)
		i++
	}
	return out
}

// roundLine is one round as a row: when, who, what it says.
func roundLine(r packet.OriginRound) string {
	at := r.At
	if len(at) >= 16 {
		at = at[:10] + " " + at[11:16]
	}
	return fmt.Sprintf("%-16s %-10s %s", at, r.Kind, r.Text)
}
