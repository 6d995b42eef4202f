package review

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/internal/prref"
	"github.com/vetter-dev/vetter/packet"
)

// Gate decisions (PACKET.md, "triage.json").
const (
	DecisionOkToTest       = "ok-to-test"
	DecisionHold           = "hold"
	DecisionRequestChanges = "request-changes"
)

var (
	// ErrGateNotReady refuses ok-to-test while the gate's checklist does not
	// hold and no override reason was given.
	ErrGateNotReady = errors.New("the gate is not ready")
	// ErrNoHead refuses ok-to-test when there is no head SHA to bind it to.
	ErrNoHead = errors.New("the head SHA is unknown or not a hex commit id")
	// ErrBadDecision is returned for a decision other than the three words.
	ErrBadDecision = errors.New("not a gate decision (ok-to-test, hold, request-changes)")
)

// PullRequest returns the change's GitHub pull request when its address
// (PRURL) names one.
//
// The address may come from an untrusted packet and is put on a command
// line, so only the strict form is a pull request here.
func PullRequest(p *packet.Packet) (prref.Ref, bool) { return prref.ParseGitHubURL(PRURL(p)) }

// PRURL is the change's pull-request address: the origin's own when the
// packet was read from a pull request (change.md's then only reported when
// it differs, packet-pr-mismatch), else change.md's. Nothing vetter prints
// or posts takes where to go from the packet when the origin knows.
func PRURL(p *packet.Packet) string {
	if o := p.Origin; o != nil && o.Kind == packet.OriginKindPR && o.URL != "" {
		return o.URL
	}
	return p.Change.URL
}

// FailingChecks names the gate checks that do not hold.
func FailingChecks(g packet.Gate) []string {
	var out []string
	for _, c := range g.Checks {
		if !c.OK && !c.Info {
			out = append(out, c.Name)
		}
	}
	return out
}

// NotReadyWhatever reports whether g stays not ready whatever its pending
// checks find once what they wait for is read: a check that waits for
// nothing already fails.
func NotReadyWhatever(g packet.Gate) bool {
	for _, c := range g.Checks {
		if !c.OK && !c.Info && !c.Pending {
			return true
		}
	}
	return false
}

// DecisionRecord is one line of decisions.jsonl: who decided what, when, for
// which SHA, and what the gate said at that moment.
type DecisionRecord struct {
	Time        time.Time `json:"time"`
	User        string    `json:"user"`
	WorkItem    string    `json:"work_item,omitempty"`
	SHA         string    `json:"sha"`
	Decision    string    `json:"decision"`
	GateReady   bool      `json:"gate_ready"`
	GateFailing []string  `json:"gate_failing"`
	Note        string    `json:"note,omitempty"`
	Override    string    `json:"override,omitempty"`
	// Seq numbers the journal's decisions from 1, in the order they were
	// appended under the folder's lock: triage.json's gate names the one it
	// follows, so the two are put in step by order, never by clocks that
	// two machines (or one machine's adjustments) disagree on.
	Seq int `json:"seq,omitempty"`
}

// Decide records the gate decision for the head SHA: it appends it to the
// journal, decisions.jsonl, then records it in triage.json. ok-to-test is
// refused with ErrGateNotReady while the gate is not ready, unless override
// says why it is given anyway, and with ErrNoHead when there is no valid head
// SHA to bind it to.
func (s *Store) Decide(decision, note, user, override string, now time.Time) (packet.GateDecision, MergeReport, error) {
	return s.DecideOn(Gate(s.p), decision, note, user, override, now)
}

// DecideOn is Decide on the gate g the person saw when deciding. The screens
// use it to decide in a command: the gate reads the packet's decisions, which
// only Update may read while a detached store saves.
func (s *Store) DecideOn(g packet.Gate, decision, note, user, override string, now time.Time) (packet.GateDecision, MergeReport, error) {
	switch decision {
	case DecisionOkToTest, DecisionHold, DecisionRequestChanges:
	default:
		return packet.GateDecision{}, MergeReport{}, fmt.Errorf("deciding %q: %w", decision, ErrBadDecision)
	}
	failing := FailingChecks(g)
	// On a pull request the decision is for the commit that would run.
	sha := s.p.DecisionSHA()
	override = strings.TrimSpace(override)
	if decision == DecisionOkToTest {
		if !commitid.Valid(sha) {
			return packet.GateDecision{}, MergeReport{}, fmt.Errorf("deciding ok-to-test: %w", ErrNoHead)
		}
		if !g.Ready && override == "" {
			return packet.GateDecision{}, MergeReport{}, fmt.Errorf("deciding ok-to-test: %w: %s", ErrGateNotReady, failingDetail(g))
		}
	}
	if g.Ready || decision != DecisionOkToTest {
		override = ""
	}
	now = stamp(now)
	gd := packet.GateDecision{Decision: decision, SHA: sha, Note: note, Time: now, User: user,
		Override: override, GateReady: g.Ready, GateFailing: failing}
	rec := DecisionRecord{Time: now, User: user, WorkItem: s.p.Plan.ID, SHA: sha, Decision: decision,
		GateReady: g.Ready, GateFailing: append([]string{}, failing...), Note: note, Override: override}
	rep, err := s.save(func(st *packet.TriageState) error {
		c := gd
		st.Gate = &c
		if st.Heads == nil {
			st.Heads = map[string]*packet.GateDecision{}
		}
		h := gd
		st.Heads[strings.ToLower(sha)] = &h
		return nil
	}, &rec)
	if err != nil {
		return packet.GateDecision{}, rep, err
	}
	return gd, rep, nil
}

// failingDetail lists the checks that do not hold, with why.
func failingDetail(g packet.Gate) string {
	var parts []string
	for _, c := range g.Checks {
		if !c.OK && !c.Info {
			parts = append(parts, c.Name+" ("+c.Detail+")")
		}
	}
	return strings.Join(parts, "; ")
}
