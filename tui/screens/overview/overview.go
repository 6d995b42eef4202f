package overview

import (
	"fmt"
	"path"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/common"
)

// Overview is screen 1: what a maintainer reads first. It is a list of rows,
// some of which lead somewhere (a problem to its file and line, a finding
// count to the findings, a gate check to what it depends on).
type Overview struct {
	common.ListScreen
}

// New builds the overview screen.
func New(ctx *common.Context) *Overview {
	o := &Overview{common.ListScreen{Ctx: ctx, ID: common.ScreenOverview}}
	o.rebuild()
	return o
}

// Init has nothing to start.
func (o *Overview) Init() tea.Cmd { return nil }

// SetSize gives the body's size.
func (o *Overview) SetSize(w, h int) {
	o.List.Width, o.List.Height = w, h
	o.rebuild()
}

// rebuild lays the rows out again: on size changes and when triage or the
// theme changes what they say. It is cheap (a few dozen rows).
func (o *Overview) rebuild() {
	ctx, p, st := o.Ctx, o.Ctx.Packet, o.Ctx.Styles
	w := max(o.List.Width-2, 20)
	var rows []common.ListRow
	add := func(s string, t *common.Target) { rows = append(rows, common.ListRow{Text: s, Target: t, Item: -1}) }
	blank := func() { add("", nil) }
	section := func(s string) { blank(); add(st.Subtitle.Render(s), nil) }
	plain := func(s string) string { return st.Line(s, st.Base) }

	id := p.Plan.ID
	switch {
	case id != "" && p.Origin != nil:
		id = fmt.Sprintf("%s/%s#%d · %s", p.Origin.Owner, p.Origin.Repo, p.Origin.Number, id)
	case p.Origin != nil:
		// On a pull request the PR is the work item.
		id = fmt.Sprintf("%s/%s#%d", p.Origin.Owner, p.Origin.Repo, p.Origin.Number)
	case id == "":
		id = "(no work-item id)"
	}
	add(st.Title.Render(plain(id))+"  "+plain(common.ClipTo(p.Plan.Title, w-ansi.StringWidth(id)-2)), nil)
	var meta []string
	if p.Change.Branch != "" {
		meta = append(meta, st.Muted.Render("branch ")+plain(p.Change.Branch))
	}
	head := p.Change.HeadSHA
	if head == "" && p.Origin != nil && p.Origin.HeadSHA != "" {
		head = p.Origin.HeadSHA + " (the pull request's)"
	}
	if head == "" {
		head = "unknown"
	}
	meta = append(meta, st.Muted.Render("head ")+plain(head))
	if ansi.StringWidth(strings.Join(meta, "   ")) > o.List.Width-1 && len(meta) > 1 {
		// The head SHA is compared with the PR's: it gets a row of its own
		// rather than being cut.
		add(meta[0], nil)
		add(meta[1], nil)
	} else {
		add(strings.Join(meta, "   "), nil)
	}
	// The pull request's own address when the packet was read from one;
	// change.md's only for a packet folder (packet-pr-mismatch says when
	// they differ).
	if u := review.PRURL(p); u != "" {
		add(st.Muted.Render("pr   ")+plain(u), nil)
	}
	for _, l := range common.OriginLines(p, st) {
		add(l, nil)
	}
	add(st.Muted.Render("packet ")+st.Line(p.Path, st.Muted)+st.Muted.Render(" ("+p.Source+")"), nil)

	blank()
	verdict := p.Verdict.Value
	if verdict == "" {
		verdict = "missing"
	}
	assessment := p.Assessment.Value
	if assessment == "" {
		assessment = "missing"
	}
	vt := &common.Target{Screen: common.ScreenDocs, Path: p.Verdict.Where(), Line: p.Verdict.Line, File: -1, Hunk: -1, DiffLine: -1}
	at := &common.Target{Screen: common.ScreenDocs, Path: p.Assessment.Where(), Line: p.Assessment.Line, File: -1, Hunk: -1, DiffLine: -1}
	add(fmt.Sprintf("%-12s%s", "Verdict", st.Status(common.VerdictWord(verdict)).Render(" "+verdict+" ")), vt)
	if p.Verdict.Summary != "" {
		add("             "+st.Muted.Render(plain(common.ClipTo(common.OneLine(p.Verdict.Summary), w-13))), nil)
	}
	add(fmt.Sprintf("%-12s%s", "Assessment", st.Status(common.AssessmentWord(assessment)).Render(" "+assessment+" ")), at)
	if p.Outcome != nil {
		add(fmt.Sprintf("%-12s %s", "Outcome", plain(common.ClipTo(outcomeLead(p), w-12))),
			&common.Target{Screen: common.ScreenDocs, Path: packet.ValidationFile, Line: p.Outcome.Line, File: -1, Hunk: -1, DiffLine: -1})
	}
	ev := p.Evidence
	evStyle := st.OK
	if !ev.Complete() {
		evStyle = st.Error
	}
	add(fmt.Sprintf("%-12s %s", "Evidence", evStyle.Render(fmt.Sprintf("%d/%d validated", ev.Validated, ev.Total))),
		&common.Target{Screen: common.ScreenEvidence, File: -1, Hunk: -1, DiffLine: -1})
	if p.Diff != nil {
		add(fmt.Sprintf("%-12s %s  %s  %s", "Diff", text.PluralOf(len(p.Diff.Files), "file", "files"),
			st.Added.Render(fmt.Sprintf("+%d", p.Diff.Insertions)), st.Removed.Render(fmt.Sprintf("−%d", p.Diff.Deletions))),
			&common.Target{Screen: common.ScreenDiff, File: 0, Hunk: -1, DiffLine: -1})
	}

	section(fmt.Sprintf("Findings (%d)", len(p.Findings)))
	counts := map[string][2]int{}
	var order []string
	for _, f := range p.Findings {
		c, seen := counts[f.Severity]
		if !seen {
			order = append(order, f.Severity)
		}
		c[0]++
		if review.Triaged(p, f) {
			c[1]++
		}
		counts[f.Severity] = c
	}
	sortSeverities(order)
	// Severities other than the four words are kept as written: the column
	// is as wide as the widest.
	badgeW := 9
	for _, sev := range order {
		w := ansi.StringWidth(st.SeverityBadge(sev))
		if sev == "" {
			w = len(" (no severity)")
		}
		badgeW = max(badgeW, w+1)
	}
	triaged := 0
	for _, sev := range order {
		c := counts[sev]
		triaged += c[1]
		first := ""
		for _, f := range p.Findings {
			if f.Severity == sev {
				first = f.ID
				break
			}
		}
		badge := st.SeverityBadge(sev)
		if sev == "" {
			badge = st.Muted.Render(" (no severity)")
		}
		badge += strings.Repeat(" ", max(badgeW-ansi.StringWidth(badge), 0))
		add(fmt.Sprintf("  %s %3d   %d triaged", badge, c[0], c[1]),
			&common.Target{Screen: common.ScreenFindings, Finding: first, File: -1, Hunk: -1, DiffLine: -1})
	}
	if len(p.Findings) > 0 {
		add(st.Muted.Render(fmt.Sprintf("  %d of %d triaged", triaged, len(p.Findings))), nil)
	}

	g := review.Gate(p)
	gateWord, gateStyle := "not ready", st.Badge.Error
	if g.Ready {
		gateWord, gateStyle = "ready", st.Badge.OK
	}
	blank()
	add(st.Subtitle.Render("Gate  ")+gateStyle.Render(" "+gateWord+" ")+st.Muted.Render("  enter: the decision screen (7)"),
		&common.Target{Screen: common.ScreenDecision, File: -1, Hunk: -1, DiffLine: -1})
	if gd, stands := review.DecisionStands(p); gd != nil {
		style := st.Accent
		if !stands {
			style = st.Warn
		}
		add(style.Render(plain("  "+review.DecisionNote(p))), nil)
	}
	if other := review.OtherDecisionNote(p); other != "" {
		add(st.Warn.Render(plain("  "+other)), nil)
	}
	// The command comes before the checks, so it is above the fold at
	// 80×24, the smallest terminal a vetter works in.
	cmdStyle := st.Muted
	if g.Ready {
		cmdStyle = st.Accent
	}
	add("  "+cmdStyle.Render(plain(g.Command)), nil)
	for _, c := range g.Checks {
		mark := common.GateMark(st, c)
		add(fmt.Sprintf("  %s %-18s %s", mark, c.Name, st.Muted.Render(plain(common.ClipTo(c.Detail, w-22)))), common.GateTarget(p, c.Name))
	}

	e, wn, in := p.Counts()
	section(fmt.Sprintf("Problems  %s  %s  %s", st.Error.Render(text.PluralOf(e, "error", "errors")),
		st.Warn.Render(text.PluralOf(wn, "warning", "warnings")), st.Info.Render(fmt.Sprintf("%d info", in))))
	probs := append([]packet.Problem{}, p.Problems...)
	packet.SortProblems(probs)
	// Errors first: at 80×24 the list's end is below the fold.
	rank := map[packet.Severity]int{packet.SevError: 0, packet.SevWarning: 1}
	slices.SortStableFunc(probs, func(a, b packet.Problem) int {
		ra, oka := rank[a.Severity]
		rb, okb := rank[b.Severity]
		if !oka {
			ra = 2
		}
		if !okb {
			rb = 2
		}
		return ra - rb
	})
	for _, pr := range probs {
		where := pr.File
		if pr.Line > 0 {
			where = fmt.Sprintf("%s:%d", pr.File, pr.Line)
		}
		sevStyle := st.Status(string(pr.Severity))
		line := fmt.Sprintf("  %s %s %s", sevStyle.Render(fmt.Sprintf("%-7s", pr.Severity)),
			st.Accent.Render(plain(common.ClipTo(where, 40))), plain(common.ClipTo(common.OneLine(pr.Message), max(w-52, 20))))
		add(line, ProblemTarget(p, pr))
	}
	if len(probs) == 0 {
		add(st.Muted.Render("  none"), nil)
	}
	if ctx.Store != nil {
		blank()
		if p.WorkItem().Unbound {
			// Another packet with this id is another work item: say so
			// where the reviewer learns where triage goes.
			add(st.Status(string(packet.SevWarning)).Render(packet.UnboundNote), nil)
		}
		add(st.Muted.Render("triage is saved in ")+st.Line(ctx.Store.Where(), st.Muted), nil)
	}
	o.List.SetRows(rows)
}

// outcomeLead is the first line of prose under the investigation outcome
// heading: what a reviewer reads first.
func outcomeLead(p *packet.Packet) string {
	d := p.Doc(packet.ValidationFile)
	if d == nil || p.Outcome == nil {
		return ""
	}
	// The whole first paragraph: its first source line may end
	// mid-sentence, and the row cuts it with an ellipsis where it must.
	var para []string
	for i := p.Outcome.Line; i < len(d.Lines); i++ {
		l := strings.TrimSpace(d.Lines[i])
		if strings.HasPrefix(l, "#") || (l == "" && len(para) > 0) {
			break
		}
		if l != "" {
			para = append(para, l)
		}
	}
	return strings.Join(para, " ")
}

// ProblemTarget says where a problem's file and line are shown.
func ProblemTarget(p *packet.Packet, pr packet.Problem) *common.Target {
	t := common.Target{Path: pr.File, Line: pr.Line, File: -1, Hunk: -1, DiffLine: -1}
	switch {
	case pr.File == "":
		return nil
	case pr.File == packet.DiffPath:
		t.Screen = common.ScreenDiff
		t.File, t.Hunk, t.DiffLine = diffPosition(p, pr.Line)
		t.Line = 0
	case pr.File == packet.RegistryFile:
		t.Screen = common.ScreenEvidence
	case p.Doc(pr.File) != nil:
		t.Screen = common.ScreenDocs
	case p.Log(pr.File) != nil || strings.HasPrefix(pr.File, packet.LogsDir+"/"):
		t.Screen = common.ScreenLogs
	case path.Ext(pr.File) == ".md":
		t.Screen = common.ScreenDocs
	default:
		return nil
	}
	return &t
}

// diffPosition maps a line of change.diff to the file, hunk and hunk line
// that show it (-1 where it falls outside).
func diffPosition(p *packet.Packet, line int) (file, hunk, idx int) {
	file, hunk, idx = -1, -1, -1
	if p.Diff == nil || line <= 0 {
		return
	}
	for fi, f := range p.Diff.Files {
		if f.Line > line {
			break
		}
		file = fi
	}
	if file < 0 {
		return
	}
	for hi, h := range p.Diff.Files[file].Hunks {
		if h.Line > line {
			break
		}
		hunk = hi
		if i := line - h.Line - 1; i >= 0 && i < len(h.Lines) {
			idx = i
		} else {
			idx = -1
		}
	}
	return
}

func sortSeverities(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && packet.SeverityRank(s[j]) < packet.SeverityRank(s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// Update moves the cursor and follows the selected row.
func (o *Overview) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.ThemeChangedMsg, common.TriageChangedMsg:
		o.rebuild()
	default:
		return o.HandleList(msg)
	}
	return nil
}

// Status counts the problems.
func (o *Overview) Status() string {
	e, w, _ := o.Ctx.Packet.Counts()
	return text.PluralOf(e, "error", "errors") + " · " + text.PluralOf(w, "warning", "warnings")
}
