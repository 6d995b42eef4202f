package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/internal/hidden"
	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
)

// Export formats for `vetter export`.
const (
	FormatMarkdown     = "markdown"
	FormatSARIF        = "sarif"
	FormatRDJSONL      = "rdjsonl"
	FormatGitHubReview = "github-review"
)

// ExportFormats lists the formats in the order help shows them.
var ExportFormats = []string{FormatMarkdown, FormatSARIF, FormatRDJSONL, FormatGitHubReview}

// ExportOptions tune an export.
type ExportOptions struct {
	// ToolVersion is vetter's version, named as the SARIF tool's version.
	ToolVersion string
}

// Export writes the packet's decisions in one of ExportFormats, every hidden
// character (hidden.go) written as <U+XXXX>: an export is read by people in
// a pull request, a code-scanning alert or a reviewdog comment, none of which
// shows a tag character or a bidirectional control as what it is. This is
// the one place every format passes through; the per-format methods write the
// packet's text as it is. Other bytes are the packet's own too: a caller
// printing the output to a terminal neutralises it first.
func Export(p *packet.Packet, w io.Writer, format string, opts ExportOptions) error {
	var buf bytes.Buffer
	var err error
	switch format {
	case FormatMarkdown:
		err = ExportMarkdown(p, &buf)
	case FormatSARIF:
		err = ExportSARIF(p, &buf, opts)
	case FormatRDJSONL:
		err = ExportRDJSONL(p, &buf)
	case FormatGitHubReview:
		err = ExportGitHubReview(p, &buf)
	default:
		return fmt.Errorf("export: unknown format %q (want %s)", format, strings.Join(ExportFormats, ", "))
	}
	if err != nil {
		return err
	}
	// In the JSON formats a hidden character can only be inside a string,
	// and <U+XXXX> needs no JSON escape, so the text stays valid JSON.
	_, err = io.WriteString(w, hidden.Escape(buf.String()))
	return err
}

// DiffLocation is where a finding lands in the change: the first citation of
// its location cell that resolves to a file in change.diff (kind diff or
// diff-file), or nil. Citations found only in the claim or evidence are
// supporting references, not the finding's place.
func DiffLocation(p *packet.Packet, f *packet.Finding) *packet.Citation {
	for i := range f.Citations {
		c := &f.Citations[i]
		if (c.Kind == packet.CiteDiff || c.Kind == packet.CiteDiffFile) && c.Target != "" && strings.Contains(f.Location, c.Text) {
			return c
		}
	}
	return nil
}

// OnAddedLine reports whether a diff citation is anchored to a line the change
// added: only those can carry an inline review comment on what changed.
func OnAddedLine(p *packet.Packet, c *packet.Citation) bool {
	l := diffLine(p, c)
	return l != nil && l.Kind == packet.LineAdded
}

func diffLine(p *packet.Packet, c *packet.Citation) *packet.DiffLine {
	if c == nil || c.Kind != packet.CiteDiff {
		return nil
	}
	return p.Diff.LineAt(c.DiffFile, c.DiffHunk, c.DiffLine)
}

// exported is one finding with its triage, as every export sees it.
type exported struct {
	f     *packet.Finding
	state string
	stale bool
	d     *packet.Decision
	loc   *packet.Citation
}

func (e exported) note() string {
	if e.d == nil {
		return ""
	}
	return e.d.Note
}

func exportFindings(p *packet.Packet) []exported {
	out := make([]exported, 0, len(p.Findings))
	for _, f := range p.Findings {
		state, stale, d := review.TriageOf(p, f)
		out = append(out, exported{f: f, state: state, stale: stale, d: d, loc: DiffLocation(p, f)})
	}
	return out
}

// conventionalLabel is the Conventional Comments label for a severity.
func conventionalLabel(severity string) string {
	switch severity {
	case "blocker":
		return "issue (blocking)"
	case "major":
		return "issue"
	case "minor":
		return "suggestion (non-blocking)"
	}
	return "nitpick (non-blocking)"
}

// triageText is a finding's state for people: "accepted", "open (stale)".
func (e exported) triageText() string {
	if e.stale {
		return e.state + " (stale)"
	}
	return e.state
}

// triageSentence says who decided what, with the note: "accepted by ana —
// note". It is "" for an open finding without a note.
func (e exported) triageSentence() string {
	if e.d == nil || (e.state == packet.TriageOpen && e.d.Note == "") {
		return ""
	}
	s := e.triageText()
	if e.d.User != "" {
		s += " by " + e.d.User
	}
	if e.d.Note != "" {
		s += " — " + text.OneLine(e.d.Note)
	}
	return s
}

func stampText(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// decisionMarkdown is the decision paragraph shared by the markdown export
// and the review body.
func decisionMarkdown(p *packet.Packet, w io.Writer) {
	gd, _ := review.DecisionStands(p)
	other := review.OtherDecisionNote(p)
	if other != "" {
		defer fmt.Fprintf(w, "_Also: %s._\n\n", MdCell(other))
	}
	if gd == nil {
		fmt.Fprintf(w, "**Decision:** none recorded yet (head `%s`).\n\n", MdCell(text.OrDash(p.DecisionSHA())))
		return
	}
	fmt.Fprintf(w, "**Decision:** %s for `%s` by %s, %s.\n", MdCell(gd.Decision), MdCell(text.OrDash(gd.SHA)), MdCell(text.OrDash(gd.User)), stampText(gd.Time))
	if !commitid.Same(gd.SHA, p.DecisionSHA()) {
		fmt.Fprintf(w, "\n⚠ It was made for `%s`; the head is now `%s`.\n", MdCell(text.OrDash(gd.SHA)), MdCell(text.OrDash(p.DecisionSHA())))
	}
	if gd.Override != "" {
		fmt.Fprintf(w, "\n**Override:** the gate was not ready (%s); given anyway because: %s\n", MdCell(strings.Join(gd.GateFailing, ", ")), MdCell(gd.Override))
	}
	if gd.Note != "" && gd.Note != gd.Override {
		fmt.Fprintf(w, "\n> %s\n", MdCell(gd.Note))
	}
	fmt.Fprintln(w)
}

// gateMarkdown writes the gate checklist.
func gateMarkdown(w io.Writer, g packet.Gate) {
	ready := "not ready"
	if g.Ready {
		ready = "ready"
	}
	fmt.Fprintf(w, "#### Gate: %s\n\n", ready)
	writeGateChecks(w, g.Checks)
	fmt.Fprintln(w)
}

// triageCounts is "1 accepted · 2 open", in a fixed order.
func triageCounts(es []exported) string {
	n := map[string]int{}
	stale := 0
	for _, e := range es {
		n[e.state]++
		if e.stale {
			stale++
		}
	}
	var parts []string
	for _, s := range []string{packet.TriageAccepted, packet.TriageDeferred, packet.TriageDismissed, packet.TriageOpen} {
		if n[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[s], s))
		}
	}
	if stale > 0 {
		parts = append(parts, fmt.Sprintf("%d stale", stale))
	}
	return strings.Join(parts, " · ")
}

func exportTitle(p *packet.Packet) string {
	if p.Plan.Title != "" {
		return p.Plan.Title
	}
	return text.OrDash(p.Plan.ID)
}

// ExportMarkdown writes a review comment ready to paste: the decision and the
// SHA it was made for, the gate checklist, and every finding with its triage
// and note.
func ExportMarkdown(p *packet.Packet, w io.Writer) error {
	var es, others []exported
	for _, e := range exportFindings(p) {
		if e.f.OtherReviewers() {
			others = append(others, e)
		} else {
			es = append(es, e)
		}
	}
	attention := summaryAttention(p) // before the gate, which counts what it found
	fmt.Fprintf(w, "### vetter review — %s\n\n", MdCell(exportTitle(p)))
	decisionMarkdown(p, w)
	gateMarkdown(w, review.Gate(p))
	writeAttentionMarkdown(w, attention)
	fmt.Fprintf(w, "#### Findings (%d)", len(es))
	if len(es) > 0 {
		fmt.Fprintf(w, ": %s", triageCounts(es))
	}
	fmt.Fprint(w, "\n\n")
	if len(es) > 0 {
		fmt.Fprintf(w, "| # | Location | Severity | Triage | Claim | Note |\n|---|---|---|---|---|---|\n")
		for _, e := range es {
			who := ""
			if e.d != nil && e.d.User != "" && e.state != packet.TriageOpen {
				who = " (" + MdCell(e.d.User) + ")"
			}
			fmt.Fprintf(w, "| %d | `%s` | %s | %s%s | %s | %s |\n", e.f.Number, MdCell(e.f.Location), MdCell(e.f.Severity),
				e.triageText(), who, MdCell(text.Clip(text.OneLine(e.f.Claim), 240)), MdCell(e.note()))
		}
		fmt.Fprintln(w)
	}
	if len(others) > 0 {
		// Other reviewers' threads are already on the pull request in their
		// authors' names: listed as context, with who wrote them and where
		// they stand, not as findings of this review.
		fmt.Fprintf(w, "#### Other reviewers' threads (%d, context)\n\n", len(others))
		fmt.Fprintf(w, "| Source | Location | State | Triage | Comment |\n|---|---|---|---|---|\n")
		for _, e := range others {
			state := "open"
			switch {
			case e.f.Resolved && e.f.Outdated:
				state = "resolved, outdated"
			case e.f.Resolved:
				state = "resolved"
			case e.f.Outdated:
				state = "outdated"
			}
			fmt.Fprintf(w, "| %s | `%s` | %s | %s | %s |\n", MdCell(e.f.Source), MdCell(e.f.Location), state,
				e.triageText(), MdCell(text.Clip(text.OneLine(e.f.Claim), 240)))
		}
		fmt.Fprintln(w)
	}
	if gd := p.Triage; gd != nil && gd.Gate != nil && gd.Gate.Decision == review.DecisionOkToTest && gd.Gate.SHA == p.DecisionSHA() && commitid.Valid(gd.Gate.SHA) {
		fmt.Fprintf(w, "```\n/ok to test %s\n```\n\n", gd.Gate.SHA)
	}
	fmt.Fprintln(w, "<sub>Triage by vetter. The findings are the packet's advisory review; the decision is a person's.</sub>")
	return nil
}

// writeGateChecks writes the gate's checks as a markdown task list: a box
// is ticked only for a proven check; one that holds unproven says so.
func writeGateChecks(w io.Writer, checks []packet.GateCheck) {
	for _, c := range checks {
		box, detail := " ", MdCell(c.Detail)
		switch c.Mark() {
		case "✓":
			box = "x"
		case "?":
			detail = "not proven: " + detail
		}
		fmt.Fprintf(w, "- [%s] `%s` — %s\n", box, c.Name, detail)
	}
}
