package packet

import (
	"fmt"
	"strings"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/internal/text"
)

// A pull request's agent no longer posts every packet document: the
// verdict, the assessment and the evidence come in its evidence record, the
// change's narrative is the PR description, and rounds are comments. Whoever
// rebuilt the packet from the PR says so in OriginFile; this file takes each
// fact from where the PR has it, and says plainly what it could not read.

// Problem codes of a packet read from what an agent posted on its origin.
const (
	// CodeRecordCountMismatch (warning): the evidence record's own N/M is
	// not what its checks show.
	CodeRecordCountMismatch = "record-count-mismatch"
	// CodeRecordUnrecognised (warning): a comment of the PR's author looks
	// like an agent document (a details block, a known heading, a count of
	// validated checks) but is in no shape vetter knows; it is kept as a
	// document and nothing is read from it.
	CodeRecordUnrecognised = "record-unrecognised"
	// CodeDocumentAbsent (info): a packet document the PR's agent does not
	// post; the fact it would hold is taken from where the PR has it.
	CodeDocumentAbsent = "document-absent"
)

func init() {
	codeSeverity[CodeRecordCountMismatch] = SevWarning
	codeSeverity[CodeRecordUnrecognised] = SevWarning
	codeSeverity[CodeDocumentAbsent] = SevInfo
}

// OriginRecord is the agent's evidence record as the origin showed it.
type OriginRecord struct {
	// Shape is the agentfmt shape it was read as; Document the packet file
	// holding the comment as posted, whose lines the fields below cite.
	Shape    string `json:"shape"`
	Document string `json:"document"`
	URL      string `json:"url,omitempty"`
	By       string `json:"by,omitempty"`
	PostedAt string `json:"posted_at,omitempty"`
	// HeadSHA is the origin's head when the record was posted (the last
	// commit made before it): the commit the record speaks for.
	HeadSHA         string       `json:"head_sha,omitempty"`
	Status          string       `json:"status,omitempty"`
	Verdict         string       `json:"verdict,omitempty"`
	VerdictText     string       `json:"verdict_text,omitempty"`
	VerdictLine     int          `json:"verdict_line,omitempty"`
	Assessment      string       `json:"assessment,omitempty"`
	AssessmentLabel string       `json:"assessment_label,omitempty"`
	AssessmentLine  int          `json:"assessment_line,omitempty"`
	Claimed         *OriginCount `json:"claimed,omitempty"`
	Shown           OriginCount  `json:"shown"`
	Mismatch        string       `json:"mismatch,omitempty"`
	MismatchLine    int          `json:"mismatch_line,omitempty"`
	// Hidden counts the checks whose command the record withholds.
	Hidden int `json:"hidden_commands,omitempty"`
}

// OriginCount is an N/M validated.
type OriginCount struct {
	Validated int `json:"validated"`
	Total     int `json:"total"`
}

// OriginUnrecognised is an author's comment that looks like an agent
// document in no known shape.
type OriginUnrecognised struct {
	Document  string `json:"document"`
	LooksLike string `json:"looks_like"`
	By        string `json:"by,omitempty"`
	URL       string `json:"url,omitempty"`
}

// OriginRound is a round of the agent's work said in a comment, or another
// bot's status line.
type OriginRound struct {
	Kind     string `json:"kind"`
	N        int    `json:"n,omitempty"`
	SHA      string `json:"sha,omitempty"`
	Was      string `json:"was,omitempty"`
	Text     string `json:"text"`
	By       string `json:"by,omitempty"`
	At       string `json:"at,omitempty"`
	Document string `json:"document,omitempty"`
}

// PacketHeadFromRecord is Origin.PacketHeadFrom when no document names the
// head and the evidence record's time fixed it.
const PacketHeadFromRecord = "record"

// applyAgent takes from the origin what the agent posted outside the
// packet's documents, once the documents are read.
func (p *Packet) applyAgent(o *Origin) {
	r := o.Record
	if p.Plan.Title == "" && o.Title != "" {
		// With no plan, the pull request's title is what the packet is
		// called on every screen.
		p.Plan.Title = o.Title
	}
	if o.ChangeFromDescription {
		// The description is a narrative, not a commit record: the head
		// is the pull request's own.
		p.dropProblems(CodeChangeCommitAbsent, ChangeFile)
	}
	if r != nil && p.Verdict.Value == "" && r.Verdict != "" {
		p.Verdict = Verdict{Value: r.Verdict, Summary: r.VerdictText, File: r.Document, Line: r.VerdictLine}
		p.dropProblems(CodeVerdictMissing, ValidationFile)
	}
	if r != nil && p.Assessment.Value == "" && r.Assessment != "" {
		p.Assessment = Assessment{Value: r.Assessment, Raw: r.Assessment, File: r.Document, Line: r.AssessmentLine}
		p.dropProblems(CodeAssessmentMissing, ReviewFile)
	}
	if r != nil && r.Mismatch != "" {
		p.problem(CodeRecordCountMismatch, r.Document, r.MismatchLine, r.Mismatch+"; the gate counts what the checks show")
	}
	for _, u := range o.Unrecognised {
		p.problem(CodeRecordUnrecognised, u.Document, 0, fmt.Sprintf("a comment by %s looks like an agent document (%s) but is in no shape vetter knows; it is kept as %s and nothing is read from it", u.By, u.LooksLike, u.Document))
	}
	// Today's agent posts no plan.md, change.md or change-validation.md:
	// their absence is news, not an error, on a pull request.
	absent := map[string]string{
		PlanFile:   "the work item is the pull request itself",
		ChangeFile: "the change's narrative is the pull request's description",
		ValidationFile: func() string {
			if r != nil && r.Verdict != "" {
				return fmt.Sprintf("the verdict is the evidence record's (%s:%d)", r.Document, r.VerdictLine)
			}
			return "no verdict was found elsewhere on the pull request"
		}(),
		ReviewFile: "the assessment is the evidence record's",
	}
	if o.ChangeFromDescription {
		absent[ChangeFile] = "change.md is the pull request's description"
	}
	kept := p.Problems[:0]
	var moved []Problem
	for _, pr := range p.Problems {
		why, ok := absent[pr.File]
		if pr.Code == CodeMissingFile && ok && (pr.File != ReviewFile || p.Assessment.Value != "") {
			moved = append(moved, NewProblem(CodeDocumentAbsent, pr.File, 0, pr.File+" is not posted on the pull request; "+why))
			continue
		}
		kept = append(kept, pr)
	}
	p.Problems = append(kept, moved...)
}

// dropProblems removes the problems of a code about a file.
func (p *Packet) dropProblems(code, file string) {
	kept := p.Problems[:0]
	for _, pr := range p.Problems {
		if pr.Code != code || pr.File != file {
			kept = append(kept, pr)
		}
	}
	p.Problems = kept
}

// unreadNote says, for a gate check that found nothing, which comments may
// have held it unread: "; comment-03-….md looks like an agent document
// vetter cannot read (record-unrecognised)".
func (p *Packet) UnreadNote() string {
	if p.Origin == nil || len(p.Origin.Unrecognised) == 0 {
		return ""
	}
	var docs []string
	for _, u := range p.Origin.Unrecognised {
		docs = append(docs, u.Document)
	}
	verb := "looks"
	if len(docs) > 1 {
		verb = "look"
	}
	return "; " + strings.Join(docs, ", ") + " " + verb + " like an agent document vetter cannot read (" + CodeRecordUnrecognised + ")"
}

// recordHeadLine is HeadLine when the evidence record fixed the head.
func (o *Origin) recordHeadLine(later string) string {
	return fmt.Sprintf("the agent's evidence record was posted at %s; the PR head is %s, %s not validated by the agent",
		commitid.Short(o.PacketHeadSHA), commitid.Short(o.HeadSHA), later)
}

// afterNames names the commits after the packet: "7e2d4b6 give-up error names attempts".
func (o *Origin) AfterNames() string {
	var names []string
	for _, c := range o.CommitsAfterPacket {
		names = append(names, commitid.Short(c.SHA)+" "+text.Clip(FirstLine(c.Message), 60))
	}
	return strings.Join(names, ", ")
}

// Where is the document the verdict was read from: change-validation.md,
// or the evidence record on a pull request whose agent posts none.
func (v Verdict) Where() string {
	if v.File != "" {
		return v.File
	}
	return ValidationFile
}

// Where is the document the assessment was read from.
func (a Assessment) Where() string {
	if a.File != "" {
		return a.File
	}
	return ReviewFile
}
