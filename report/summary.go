package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
)

// Summary is the JSON contract of `vetter summary --json` (PACKET.md).
// SummarySchemaVersion is Summary's SchemaVersion.
const SummarySchemaVersion = 1

type Summary struct {
	// SchemaVersion is the version of this contract
	// (docs/summary.schema.json): it goes up when a field changes meaning
	// or goes away, not when one is added.
	SchemaVersion int `json:"schema_version"`

	Packet     SummaryPacket     `json:"packet"`
	Plan       SummaryPlan       `json:"plan"`
	Change     SummaryChange     `json:"change"`
	Verdict    SummaryVerdict    `json:"verdict"`
	Assessment SummaryAssessment `json:"assessment"`
	Evidence   SummaryEvidence   `json:"evidence"`
	Diff       SummaryDiff       `json:"diff"`
	Findings   []SummaryFinding  `json:"findings"`
	Problems   []packet.Problem  `json:"problems"`
	Gate       packet.Gate       `json:"gate"`
	// Attention is what a vetter must look at in the diff, in the decision
	// screen's order (attention_summary.go).
	Attention []SummaryAttention `json:"attention"`
	// Decision is the reviewer's gate decision on record, null when none.
	Decision *SummaryDecision `json:"decision"`
	// OtherDecision is a decision made for a later head (or one whose order
	// is unknown), named beside this round's own; absent when none.
	OtherDecision *SummaryDecision `json:"other_decision,omitempty"`
	// Source is what the packet's origin knows (source_pr.go); absent for a
	// plain packet.
	Source *SummarySource `json:"source,omitempty"`
}

// SummaryDecision is the gate decision on record and whether it still
// stands: it names the SHA it was made for, and a new head ends it.
type SummaryDecision struct {
	Decision string    `json:"decision"`
	SHA      string    `json:"sha"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
	Note     string    `json:"note,omitempty"`
	Override string    `json:"override,omitempty"`
	Current  bool      `json:"current"`
	// Why says in one sentence whether it stands.
	Why string `json:"why"`
}

type SummaryPacket struct {
	Path   string `json:"path"`
	Source string `json:"source"`
	ID     string `json:"id"`
	Title  string `json:"title"`
}

type SummaryPlan struct {
	Route    string   `json:"route"`
	Template string   `json:"template"`
	Engine   string   `json:"engine"`
	Recipes  []string `json:"recipes"`
}

type SummaryChange struct {
	Branch  string `json:"branch"`
	BaseSHA string `json:"base_sha"`
	HeadSHA string `json:"head_sha"`
	URL     string `json:"url"`
}

type SummaryVerdict struct {
	Value   string `json:"value"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Summary string `json:"summary"`
}

type SummaryAssessment struct {
	Value string `json:"value"`
	File  string `json:"file"`
	Line  int    `json:"line"`
}

type SummaryEvidence struct {
	Validated int             `json:"validated"`
	Total     int             `json:"total"`
	Recipes   []SummaryRecipe `json:"recipes"`
}

type SummaryRecipe struct {
	Recipe   string   `json:"recipe"`
	Status   string   `json:"status"`
	Planned  bool     `json:"planned"`
	Runs     int      `json:"runs"`
	Logs     []string `json:"logs"`
	Command  string   `json:"command,omitempty"`
	ExitCode *int     `json:"exit_code,omitempty"`
	Note     string   `json:"note,omitempty"`
}

type SummaryDiff struct {
	Files      int `json:"files"`
	Insertions int `json:"insertions"`
	Deletions  int `json:"deletions"`
}

type SummaryFinding struct {
	ID        string            `json:"id"`
	Number    int               `json:"number"`
	Location  string            `json:"location"`
	Severity  string            `json:"severity"`
	Claim     string            `json:"claim"`
	Evidence  string            `json:"evidence"`
	Triage    string            `json:"triage"`
	Stale     bool              `json:"stale,omitempty"`
	Note      string            `json:"note,omitempty"`
	Citations []SummaryCitation `json:"citations"`
	// Source is "review.md" or the account that raised it; Resolved and
	// Outdated are a review thread's state, absent for review.md's rows.
	Source     string `json:"source"`
	Resolved   *bool  `json:"resolved,omitempty"`
	ResolvedBy string `json:"resolved_by,omitempty"`
	Outdated   *bool  `json:"outdated,omitempty"`
	// Tags are a thread badge's category and effort.
	Tags []string `json:"tags,omitempty"`
}

type SummaryCitation struct {
	Text     string              `json:"text"`
	Kind     packet.CitationKind `json:"kind"`
	Target   string              `json:"target"`
	Line     int                 `json:"line,omitempty"`
	EndLine  int                 `json:"end_line,omitempty"`
	Resolved bool                `json:"resolved"`
}

// Summarize builds the summary of a packet.
func Summarize(p *packet.Packet) Summary {
	attention := summaryAttention(p) // before the gate, which counts what it found
	s := Summary{
		SchemaVersion: SummarySchemaVersion,
		Packet:        SummaryPacket{Path: p.Path, Source: p.Source, ID: p.Plan.ID, Title: p.Plan.Title},
		Plan:          SummaryPlan{Route: p.Plan.Route, Template: p.Plan.Template, Engine: p.Plan.Engine, Recipes: nonNil(p.Plan.Recipes)},
		Change:        SummaryChange{Branch: p.Change.Branch, BaseSHA: p.Change.BaseSHA, HeadSHA: p.Change.HeadSHA, URL: review.PRURL(p)},
		Verdict:       SummaryVerdict{Value: p.Verdict.Value, File: p.Verdict.File, Line: p.Verdict.Line, Summary: p.Verdict.Summary},
		Assessment:    SummaryAssessment{Value: p.Assessment.Value, File: p.Assessment.File, Line: p.Assessment.Line},
		Evidence:      SummaryEvidence{Validated: p.Evidence.Validated, Total: p.Evidence.Total, Recipes: []SummaryRecipe{}},
		Findings:      []SummaryFinding{},
		Problems:      append([]packet.Problem{}, p.Problems...),
		Gate:          review.Gate(p),
		Attention:     attention,
	}
	if d, stands := review.DecisionStands(p); d != nil {
		s.Decision = &SummaryDecision{Decision: d.Decision, SHA: d.SHA, By: d.User, At: d.Time, Note: d.Note,
			Override: d.Override, Current: stands, Why: review.DecisionNote(p)}
	}
	if note := review.OtherDecisionNote(p); note != "" {
		d := review.Decisions(p).Other
		s.OtherDecision = &SummaryDecision{Decision: d.Decision, SHA: d.SHA, By: d.User, At: d.Time, Note: d.Note,
			Override: d.Override, Why: note}
	}
	packet.SortProblems(s.Problems)
	s.Source = summarySource(p)
	for _, row := range p.Evidence.Rows {
		r := SummaryRecipe{Recipe: row.Recipe, Status: row.Status, Planned: row.Planned, Runs: len(row.Runs), Logs: []string{}}
		for _, run := range row.Runs {
			if run.Log != "" {
				r.Logs = append(r.Logs, run.Log)
			}
		}
		if row.Latest != nil {
			r.Command, r.ExitCode, r.Note = row.Latest.Command, row.Latest.ExitCode, row.Latest.Note
			if row.Latest.Disposition != "" {
				r.Note = strings.TrimSpace(r.Note + " Disposition: " + row.Latest.Disposition)
			}
		}
		s.Evidence.Recipes = append(s.Evidence.Recipes, r)
	}
	if p.Diff != nil {
		s.Diff = SummaryDiff{Files: len(p.Diff.Files), Insertions: p.Diff.Insertions, Deletions: p.Diff.Deletions}
	}
	for _, f := range p.Findings {
		state, stale, d := review.TriageOf(p, f)
		sf := SummaryFinding{ID: f.ID, Number: f.Number, Location: f.Location, Severity: f.Severity,
			Claim: f.Claim, Evidence: f.Evidence, Triage: state, Stale: stale, Citations: []SummaryCitation{}, Tags: f.Tags}
		if d != nil {
			sf.Note = d.Note
		}
		sf.Source = packet.ReviewFile
		if f.Source != "" {
			sf.Source = f.Source
			if f.OtherReviewers() {
				res, out := f.Resolved, f.Outdated
				sf.Resolved, sf.Outdated, sf.ResolvedBy = &res, &out, f.ResolvedBy
			}
		}
		for _, c := range f.Citations {
			sf.Citations = append(sf.Citations, SummaryCitation{Text: c.Text, Kind: c.Kind, Target: c.Target,
				Line: c.Line, EndLine: endLine(c), Resolved: c.Resolved})
		}
		s.Findings = append(s.Findings, sf)
	}
	return s
}

func endLine(c packet.Citation) int {
	if c.EndLine > c.Line {
		return c.EndLine
	}
	return 0
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// WriteJSON writes the summary as indented JSON.
func (s Summary) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

// SeverityCounts counts findings by severity word, in rank order.
func (s Summary) SeverityCounts() []struct {
	Severity string
	Count    int
	Triaged  int
} {
	var out []struct {
		Severity string
		Count    int
		Triaged  int
	}
	idx := map[string]int{}
	for _, sev := range []string{"blocker", "major", "minor", "nit"} {
		idx[sev] = len(out)
		out = append(out, struct {
			Severity string
			Count    int
			Triaged  int
		}{Severity: sev})
	}
	for _, f := range s.Findings {
		i, ok := idx[f.Severity]
		if !ok {
			idx[f.Severity] = len(out)
			i = len(out)
			out = append(out, struct {
				Severity string
				Count    int
				Triaged  int
			}{Severity: f.Severity})
		}
		out[i].Count++
		if f.Triage != packet.TriageOpen && !f.Stale {
			out[i].Triaged++
		}
	}
	return out
}

// WriteText writes the summary for a person at a terminal or in a log. It is
// plain text: the caller neutralises control characters before printing.
func (s Summary) WriteText(w io.Writer) {
	title := s.Packet.Title
	if title == "" {
		title = "(no title)"
	}
	fmt.Fprintf(w, "%s\n", title)
	fmt.Fprintf(w, "  packet    %s (%s)\n", s.Packet.Path, s.Packet.Source)
	fmt.Fprintf(w, "  work item %s   route %s   template %s   engine %s\n", text.OrDash(s.Packet.ID), text.OrDash(s.Plan.Route), text.OrDash(s.Plan.Template), text.OrDash(s.Plan.Engine))
	fmt.Fprintf(w, "  branch    %s\n", text.OrDash(s.Change.Branch))
	fmt.Fprintf(w, "  head      %s\n", text.OrDash(s.Change.HeadSHA))
	if s.Change.URL != "" {
		fmt.Fprintf(w, "  pr        %s\n", s.Change.URL)
	}
	s.Source.writeText(w)
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Verdict     %s", text.OrDash(s.Verdict.Value))
	if s.Verdict.Line > 0 {
		fmt.Fprintf(w, "   (%s:%d)", s.Verdict.File, s.Verdict.Line)
	}
	fmt.Fprintln(w)
	if s.Verdict.Summary != "" {
		fmt.Fprintf(w, "            %s\n", text.OneLine(s.Verdict.Summary))
	}
	fmt.Fprintf(w, "Assessment  %s", text.OrDash(s.Assessment.Value))
	if s.Assessment.Line > 0 {
		fmt.Fprintf(w, "   (%s:%d)", s.Assessment.File, s.Assessment.Line)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Evidence [%d/%d validated]\n", s.Evidence.Validated, s.Evidence.Total)
	for _, r := range s.Evidence.Recipes {
		planned := " "
		if r.Planned {
			planned = "*"
		}
		logs := "-"
		if len(r.Logs) > 0 {
			logs = r.Logs[len(r.Logs)-1]
			if len(r.Logs) > 1 {
				logs += fmt.Sprintf(" (+%d)", len(r.Logs)-1)
			}
		}
		fmt.Fprintf(w, "  %s %-32s %-14s runs %d  %s\n", planned, r.Recipe, r.Status, r.Runs, logs)
	}
	fmt.Fprintln(w, "  (* planned)")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Diff        %s, +%d -%d\n", text.PluralOf(s.Diff.Files, "file", "files"), s.Diff.Insertions, s.Diff.Deletions)
	fmt.Fprintf(w, "Findings    %d:", len(s.Findings))
	for _, c := range s.SeverityCounts() {
		if c.Count > 0 {
			fmt.Fprintf(w, " %d %s", c.Count, c.Severity)
		}
	}
	fmt.Fprintln(w)
	for _, f := range s.Findings {
		if f.Number == 0 && f.Source != packet.ReviewFile {
			// Another reviewer's thread, or the commits after the packet.
			fmt.Fprintf(w, "  %s  %s %s  %s%s\n", f.ID, f.Severity, triageLabel(f), text.Clip(text.OneLine(f.Location), 70), threadState(f))
			fmt.Fprintf(w, "       %s\n", text.Clip(text.OneLine(f.Claim), 100))
			continue
		}
		fmt.Fprintf(w, "  #%-3d %-8s %-10s %s\n", f.Number, f.Severity, triageLabel(f), text.Clip(text.OneLine(f.Location), 70))
		fmt.Fprintf(w, "       %s\n", text.Clip(text.OneLine(f.Claim), 100))
	}
	fmt.Fprintln(w)
	writeAttentionText(w, s.Attention)
	fmt.Fprintln(w)
	e, wn, in := problemCounts(s.Problems)
	fmt.Fprintf(w, "Problems    %s, %s, %d info\n", text.PluralOf(e, "error", "errors"), text.PluralOf(wn, "warning", "warnings"), in)
	for _, p := range s.Problems {
		fmt.Fprintf(w, "  %-7s %-26s %s\n", p.Severity, p.Code, text.Clip(text.OneLine(p.Message), 110))
	}
	fmt.Fprintln(w)
	ready := "NOT READY"
	if s.Gate.Ready {
		ready = "READY"
	}
	fmt.Fprintf(w, "Gate        %s\n", ready)
	for _, c := range s.Gate.Checks {
		fmt.Fprintf(w, "  %s %-18s %s\n", c.Mark(), c.Name, c.Detail)
	}
	fmt.Fprintf(w, "\n  %s\n", s.Gate.Command)
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Decision    %s\n", s.decisionLine())
	if d := s.Decision; d != nil && d.Note != "" {
		fmt.Fprintf(w, "  note: %s\n", text.Clip(text.OneLine(d.Note), 110))
	}
	if o := s.OtherDecision; o != nil {
		fmt.Fprintf(w, "  also: %s\n", o.Why)
	}
}

// decisionLine tells the decision on record, when and by whom, and whether
// it still stands.
func (s Summary) decisionLine() string {
	d := s.Decision
	if d == nil {
		return "none recorded"
	}
	stands := "stands"
	if !d.Current {
		stands = "NO LONGER STANDS: the head is " + commitid.Long(text.OrDash(s.Change.HeadSHA))
	}
	forced := ""
	if d.Override != "" {
		forced = " (forced: " + text.OneLine(d.Override) + ")"
	}
	return fmt.Sprintf("%s for %s by %s at %s%s — %s", d.Decision, commitid.Long(d.SHA), text.OrDash(d.By),
		d.At.UTC().Format("2006-01-02 15:04 UTC"), forced, stands)
}

func triageLabel(f SummaryFinding) string {
	if f.Stale {
		return f.Triage + "(stale)"
	}
	return f.Triage
}

func problemCounts(ps []packet.Problem) (e, w, i int) {
	for _, p := range ps {
		switch p.Severity {
		case packet.SevError:
			e++
		case packet.SevWarning:
			w++
		default:
			i++
		}
	}
	return
}

// mdCell makes a string safe inside a markdown table cell: one line, pipes
// escaped, and no raw HTML that could change the comment around it.
func MdCell(s string) string {
	s = text.OneLine(s)
	s = strings.ReplaceAll(s, "|", `\|`)
	// '&' first: "&amp;" in a note must reach GitHub as written, not as "&".
	s = strings.ReplaceAll(s, "&", "&amp;")
	s = strings.ReplaceAll(s, "<", "&lt;")
	return s
}

// WriteMarkdown writes a pull-request comment a person could paste.
func (s Summary) WriteMarkdown(w io.Writer) {
	title := s.Packet.Title
	if title == "" {
		title = s.Packet.ID
	}
	fmt.Fprintf(w, "### vetter summary — %s\n\n", MdCell(title))
	fmt.Fprintf(w, "| | |\n|---|---|\n")
	fmt.Fprintf(w, "| Work item | %s |\n", MdCell(text.OrDash(s.Packet.ID)))
	fmt.Fprintf(w, "| Route / template / engine | %s / %s / %s |\n", MdCell(text.OrDash(s.Plan.Route)), MdCell(text.OrDash(s.Plan.Template)), MdCell(text.OrDash(s.Plan.Engine)))
	fmt.Fprintf(w, "| Branch | `%s` |\n", MdCell(text.OrDash(s.Change.Branch)))
	fmt.Fprintf(w, "| Head | `%s` |\n", MdCell(text.OrDash(s.Change.HeadSHA)))
	fmt.Fprintf(w, "| Verdict | **%s** |\n", MdCell(text.OrDash(s.Verdict.Value)))
	fmt.Fprintf(w, "| Assessment | **%s** |\n", MdCell(text.OrDash(s.Assessment.Value)))
	fmt.Fprintf(w, "| Diff | %s, +%d −%d |\n", text.PluralOf(s.Diff.Files, "file", "files"), s.Diff.Insertions, s.Diff.Deletions)
	s.Source.writeMarkdownRows(w)
	fmt.Fprintln(w)
	if s.Verdict.Summary != "" {
		fmt.Fprintf(w, "> %s\n\n", MdCell(s.Verdict.Summary))
	}

	fmt.Fprintf(w, "#### Evidence [%d/%d validated]\n\n", s.Evidence.Validated, s.Evidence.Total)
	fmt.Fprintf(w, "| Recipe | Status | Command | Evidence | Note |\n|---|---|---|---|---|\n")
	for _, r := range s.Evidence.Recipes {
		logs := make([]string, len(r.Logs))
		for i, l := range r.Logs {
			logs[i] = "`" + MdCell(l) + "`"
		}
		cmd := ""
		if r.Command != "" {
			cmd = "`" + MdCell(text.Clip(r.Command, 160)) + "`"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", MdCell(r.Recipe), MdCell(r.Status), cmd, strings.Join(logs, "<br>"), MdCell(text.Clip(r.Note, 200)))
	}
	fmt.Fprintln(w)

	fmt.Fprintf(w, "#### Findings (%d)\n\n", len(s.Findings))
	var counts []string
	for _, c := range s.SeverityCounts() {
		if c.Count > 0 {
			counts = append(counts, fmt.Sprintf("%d %s (%d triaged)", c.Count, c.Severity, c.Triaged))
		}
	}
	if len(counts) > 0 {
		fmt.Fprintf(w, "%s\n\n", strings.Join(counts, " · "))
		fmt.Fprintf(w, "| # | Location | Severity | Triage | Claim |\n|---|---|---|---|---|\n")
		for _, f := range s.Findings {
			fmt.Fprintf(w, "| %d | `%s` | %s | %s | %s |\n", f.Number, MdCell(f.Location), MdCell(f.Severity), triageLabel(f), MdCell(text.Clip(f.Claim, 240)))
		}
		fmt.Fprintln(w)
	}

	writeAttentionMarkdown(w, s.Attention)

	ready := "not ready"
	if s.Gate.Ready {
		ready = "ready"
	}
	fmt.Fprintf(w, "#### Gate: %s\n\n", ready)
	writeGateChecks(w, s.Gate.Checks)
	e, wn, _ := problemCounts(s.Problems)
	if e+wn > 0 {
		fmt.Fprintf(w, "\nPacket problems: %s, %s (`vetter check` lists them).\n", text.PluralOf(e, "error", "errors"), text.PluralOf(wn, "warning", "warnings"))
	}
	fmt.Fprintf(w, "\n**Decision:** %s\n", MdCell(s.decisionLine()))
	if o := s.OtherDecision; o != nil {
		fmt.Fprintf(w, "\n_Also: %s._\n", MdCell(o.Why))
	}
	// The /ok to test line is offered only when the gate holds: a comment
	// pasted from here must not let a change run that the gate would stop.
	if s.Gate.Ready {
		fmt.Fprintf(w, "\n```\n%s\n```\n", s.Gate.Command)
		return
	}
	var missing []string
	for _, c := range s.Gate.Checks {
		if !c.OK && !c.Info {
			missing = append(missing, "`"+c.Name+"` ("+c.Detail+")")
		}
	}
	fmt.Fprintf(w, "\nNot ready for `/ok to test`: %s.\n", MdCell(strings.Join(missing, "; ")))
}
