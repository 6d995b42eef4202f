package report

import (
	"cmp"
	"strings"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
)

// QueueSchemaVersion is the SchemaVersion of the rows queue --json prints.
const QueueSchemaVersion = 1

// QueueRow is one open pull request of a vetting queue: what `vetter queue`
// shows on a row and prints with --json (docs/packet-format.md, "The
// vetting queue").
type QueueRow struct {
	// SchemaVersion is the version of the row's contract
	// (docs/queue.schema.json), set on the rows `vetter queue --json`
	// prints: it goes up when a field changes meaning or goes away.
	SchemaVersion int    `json:"schema_version,omitempty"`
	Repo          string `json:"repo"` // OWNER/REPO
	Number        int    `json:"number"`
	Title         string `json:"title"`
	Author        string `json:"author"`
	URL           string `json:"url"`
	Draft         bool   `json:"draft"`
	CreatedAt     string `json:"created_at"`
	HeadSHA       string `json:"head_sha"`
	// CommitsSinceOK counts the PR's commits after the one the last
	// /ok to test names; nil when none counts or the PR no longer has it.
	CommitsSinceOK *int `json:"commits_since_ok"`
	// Packet: the agent's documents were found in the comments; the
	// fields up to GateReady come from the packet rebuilt from them.
	Packet        bool            `json:"packet"`
	Verdict       string          `json:"verdict"`
	Assessment    string          `json:"assessment"`
	Evidence      QueueEvidence   `json:"evidence"`
	FindingsOpen  int             `json:"findings_open"`
	FindingsTotal int             `json:"findings_total"`
	GateReady     bool            `json:"gate_ready"`
	CI            packet.OriginCI `json:"ci"`
	// OkToTest is the last /ok to test from an account that may vet.
	OkToTest *packet.OriginOkToTest `json:"ok_to_test"`
	// Marker: a comment matches the "needs vetting" sentence (copy-pr-bot's).
	Marker   bool           `json:"marker"`
	Awaiting bool           `json:"awaiting"`
	Class    string         `json:"class"`
	Decision *QueueDecision `json:"decision"`
	// Cut says, one line each, which of this row's lists (its comments,
	// check runs, review threads) GitHub's answers were not read to their
	// end: the packet and CI facts above may then be incomplete, and the
	// row is never ready.
	Cut []string `json:"cut,omitempty"`
	// ListCut says the repository's list of open pull requests was not
	// read to its end: other open pull requests exist that no row shows.
	ListCut string `json:"list_cut,omitempty"`
	// Loaded is false for a row known only from the list so far.
	Loaded bool `json:"-"`
}

// QueueEvidence is N/M validated.
type QueueEvidence struct {
	Validated int `json:"validated"`
	Total     int `json:"total"`
}

// QueueDecision is the reviewer's own gate decision on the work item.
type QueueDecision struct {
	Decision string `json:"decision"`
	SHA      string `json:"sha"`
	// Current: it was made for the PR's head.
	Current bool `json:"current"`
}

// The queue's ordering classes, in the order shown: what needs the person
// first.
const (
	// QueueReady: awaiting vetting, and the packet's gate is ready with CI
	// not failing, every list of the row read to its end: the person can
	// decide now.
	QueueReady = "ready"
	// QueueWork: awaiting vetting with work left: no packet, findings
	// untriaged, a gate not ready, or failing CI.
	QueueWork = "work"
	// QueueMoved: vetted for an older head; commits came since.
	QueueMoved = "moved"
	// QueueVetted: the last /ok to test names the head.
	QueueVetted = "vetted"
	// QueueOther: not awaiting (no marker and not --all) and never vetted.
	QueueOther = "other"
	// QueueDraft: a draft, whatever else holds.
	QueueDraft = "draft"
)

var queueClassOrder = map[string]int{QueueReady: 0, QueueWork: 1, QueueMoved: 2, QueueVetted: 3, QueueOther: 4, QueueDraft: 5}

// QueueClasses are the classes in the queue's order.
var QueueClasses = []string{QueueReady, QueueWork, QueueMoved, QueueVetted, QueueOther, QueueDraft}

// Awaiting is the queue's rule: a pull request awaits vetting when the last
// /ok to test that counts (last, nil when none) does not name the head (a
// short SHA names it too), and the PR shows the marker or every PR was asked
// for (all).
func Awaiting(last *packet.OriginOkToTest, head string, marker, all bool) bool {
	if last != nil && commitid.Same(last.SHA, head) {
		return false
	}
	return marker || all
}

// Settle computes the row's awaiting state and class from its facts.
func (r *QueueRow) Settle(all bool) {
	if r.OkToTest != nil {
		r.OkToTest.Current = commitid.Same(r.OkToTest.SHA, r.HeadSHA)
	}
	r.Awaiting = Awaiting(r.OkToTest, r.HeadSHA, r.Marker, all)
	if r.Decision != nil {
		r.Decision.Current = commitid.Same(r.Decision.SHA, r.HeadSHA)
	}
	r.Class = r.class()
}

func (r *QueueRow) class() string {
	switch {
	case r.Draft:
		return QueueDraft
	case r.Awaiting && r.Packet && r.GateReady && r.CI.Failure == 0 && len(r.Cut) == 0:
		return QueueReady
	case r.Awaiting:
		return QueueWork
	case r.OkToTest != nil && !r.OkToTest.Current:
		return QueueMoved
	case r.OkToTest != nil:
		return QueueVetted
	}
	return QueueOther
}

// CompareQueueRows is the queue's order: by class, then the oldest pull
// request first (it has waited longest), then by repository and number.
func CompareQueueRows(a, b *QueueRow) int {
	if c := cmp.Compare(queueClassOrder[a.Class], queueClassOrder[b.Class]); c != 0 {
		return c
	}
	if c := strings.Compare(a.CreatedAt, b.CreatedAt); c != 0 {
		return c
	}
	if c := strings.Compare(a.Repo, b.Repo); c != 0 {
		return c
	}
	return cmp.Compare(a.Number, b.Number)
}

// FromPacket takes the packet's facts: verdict, assessment, evidence,
// findings open (untriaged or stale) of all, the gate, and the reviewer's
// own decision. p carries the reviewer's state (ReadReviewerState).
func (r *QueueRow) FromPacket(p *packet.Packet) {
	r.Packet = true
	r.Verdict = p.Verdict.Value
	r.Assessment = p.Assessment.Value
	if r.Assessment == "" {
		r.Assessment = p.Assessment.Raw
	}
	r.Evidence = QueueEvidence{Validated: p.Evidence.Validated, Total: p.Evidence.Total}
	r.FindingsTotal, r.FindingsOpen = 0, 0
	for _, f := range p.Findings {
		if f.Severity == "after-packet" {
			continue // vetter's own review item, not a reviewer's finding
		}
		r.FindingsTotal++
		if state, stale, _ := review.TriageOf(p, f); stale || state == packet.TriageOpen {
			r.FindingsOpen++
		}
	}
	r.GateReady = review.Gate(p).Ready
	r.Decision = nil
	if d, _ := review.DecisionStands(p); d != nil && d.Decision != "" {
		r.Decision = &QueueDecision{Decision: d.Decision, SHA: d.SHA}
	}
}

// AwaitingMe reports whether the pull request awaits vetting, is not a
// draft, and no decision of the reviewer's stands for its head.
func (r *QueueRow) AwaitingMe() bool {
	return r.Awaiting && !r.Draft && (r.Decision == nil || !r.Decision.Current)
}
