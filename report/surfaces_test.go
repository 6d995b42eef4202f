package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
)

// surfaceSays is what one surface reports of a review: whether the gate is
// ready, which checks fail, and the decision it shows (decision and SHA).
type surfaceSays struct {
	ready    bool
	failing  []string
	decision string
}

func (s surfaceSays) String() string {
	return fmt.Sprintf("ready=%v failing=%v decision=%q", s.ready, s.failing, s.decision)
}

// randomReview gives the packet a random reviewer's state and origin:
// triage of every finding (some stale), decisions for its head and others,
// rounds seen, CI of a pull request, and problems.
func randomReview(p *packet.Packet, rng *rand.Rand, others []string) {
	states := []string{packet.TriageOpen, packet.TriageAccepted, packet.TriageDismissed, packet.TriageDeferred, packet.TriageAccepted, packet.TriageAccepted, packet.TriageDeferred, packet.TriageDismissed}
	st := &packet.TriageState{Version: 1, Findings: map[string]*packet.Decision{}}
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for _, f := range p.Findings {
		switch rng.IntN(12) {
		case 0: // untouched
		case 1: // stale: decided on another text
			st.Findings[f.ID] = &packet.Decision{State: packet.TriageAccepted, Fingerprint: "0000000000000000", Time: at}
		default:
			st.Findings[f.ID] = &packet.Decision{State: states[rng.IntN(len(states))], Fingerprint: packet.Fingerprint(f), Time: at}
		}
	}
	heads := append([]string{p.Change.HeadSHA}, others...)
	words := []string{review.DecisionOkToTest, review.DecisionHold, review.DecisionRequestChanges}
	for i := range rng.IntN(4) {
		sha := heads[rng.IntN(len(heads))]
		d := &packet.GateDecision{Decision: words[rng.IntN(3)], SHA: sha, User: "ana", Time: at.Add(time.Duration(i+1) * time.Minute)}
		if st.Heads == nil {
			st.Heads = map[string]*packet.GateDecision{}
		}
		st.Heads[strings.ToLower(sha)] = d
		st.Gate = d
	}
	if rng.IntN(5) == 0 {
		st.Heads = nil // a state written before decisions were kept by head
	}
	st.Reindex()
	p.Triage = st
	p.History = &packet.History{}
	for _, h := range others {
		if rng.IntN(2) == 0 {
			r := packet.Round{Head: h}
			// A round whose registry is part of this one's: an older round.
			for _, k := range review.RegistryKeys(p) {
				if rng.IntN(3) > 0 {
					r.Registry = append(r.Registry, k)
				}
			}
			p.History.Rounds = append(p.History.Rounds, r)
		}
	}
	p.Origin = nil
	if rng.IntN(2) == 0 {
		var checks []packet.CICheck
		ciStates := []string{packet.CISuccess, packet.CIFailure, packet.CISkipped, packet.CIPending, packet.CIOther}
		var required []string
		for i := range rng.IntN(5) {
			name := fmt.Sprintf("check-%d", i)
			kind := packet.CIKindCheckRun
			if rng.IntN(2) == 0 {
				kind = packet.CIKindStatus
			}
			checks = append(checks, packet.CICheck{Name: name, Kind: kind, State: ciStates[rng.IntN(len(ciStates))]})
			if rng.IntN(2) == 0 {
				required = append(required, name)
			}
		}
		head := p.Change.HeadSHA
		p.Origin = &packet.Origin{Kind: packet.OriginKindPR, Owner: "acme", Repo: "depot", Number: 42, HeadSHA: head, PacketHeadSHA: head,
			CI: packet.NewOriginCI(checks, required, rng.IntN(2) == 0)}
	}
	p.Problems = slices.DeleteFunc(p.Problems, func(pr packet.Problem) bool { return pr.Code == "random-error" })
	if rng.IntN(4) == 0 {
		p.Problems = append(p.Problems, packet.Problem{Code: "random-error", Severity: packet.SevError, File: packet.ReviewFile, Message: "a random error"})
	}
}

var (
	textGate     = regexp.MustCompile(`(?m)^Gate        (READY|NOT READY)$`)
	textFailing  = regexp.MustCompile(`(?m)^  ✗ (\S+)`)
	textDecision = regexp.MustCompile(`(?m)^Decision    (none recorded|(\S+) for ([0-9a-f]+) )`)
	mdGate       = regexp.MustCompile(`(?m)^#### Gate: (ready|not ready)$`)
	mdFailing    = regexp.MustCompile("(?m)^- \\[ \\] `([^`]+)` — (?:[^n]|n[^o]|no[^t]|not[^ ]|not [^p])")
	mdDecision   = regexp.MustCompile("\\*\\*Decision:\\*\\* (none recorded|(\\S+) for `?([0-9a-f]+)`?)")
	reviewGate   = regexp.MustCompile(`\*\*Gate:\*\* (ready\.|not ready — ([^.]*)\.)`)
)

// decisionOf is "decision sha12" as the text surfaces abbreviate it.
func decisionOf(d, sha string) string {
	if d == "" {
		return ""
	}
	return d + " " + sha[:min(len(sha), 12)]
}

func fromText(t *testing.T, s string) surfaceSays {
	var out surfaceSays
	m := textGate.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("the text summary has no gate line:\n%s", s)
	}
	out.ready = m[1] == "READY"
	for _, m := range textFailing.FindAllStringSubmatch(s, -1) {
		out.failing = append(out.failing, m[1])
	}
	if m := textDecision.FindStringSubmatch(s); m != nil && m[2] != "" {
		out.decision = decisionOf(m[2], m[3])
	}
	return out
}

func fromMarkdown(t *testing.T, s string) surfaceSays {
	var out surfaceSays
	m := mdGate.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("the markdown has no gate heading:\n%s", s)
	}
	out.ready = m[1] == "ready"
	for _, m := range mdFailing.FindAllStringSubmatch(s, -1) {
		out.failing = append(out.failing, m[1])
	}
	if m := mdDecision.FindStringSubmatch(s); m != nil && m[2] != "" {
		out.decision = decisionOf(m[2], m[3])
	}
	return out
}

// everySurface renders the review on every surface below the screens and
// reads back what each says.
func everySurface(t *testing.T, p *packet.Packet) map[string]surfaceSays {
	out := map[string]surfaceSays{}
	s := Summarize(p)
	js, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back Summary
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	j := surfaceSays{ready: back.Gate.Ready, failing: review.FailingChecks(back.Gate)}
	if back.Decision != nil {
		j.decision = decisionOf(back.Decision.Decision, back.Decision.SHA)
	}
	out["summary --json"] = j

	var b bytes.Buffer
	s.WriteText(&b)
	out["summary"] = fromText(t, b.String())
	b.Reset()
	s.WriteMarkdown(&b)
	out["summary --markdown"] = fromMarkdown(t, b.String())
	b.Reset()
	if err := ExportMarkdown(p, &b); err != nil {
		t.Fatal(err)
	}
	out["export markdown"] = fromMarkdown(t, b.String())

	b.Reset()
	if err := ExportSARIF(p, &b, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	var sarif struct {
		Runs []struct {
			Properties map[string]any `json:"properties"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &sarif); err != nil {
		t.Fatal(err)
	}
	props := sarif.Runs[0].Properties
	sa := surfaceSays{ready: props["gate_ready"] == true}
	for _, f := range props["gate_failing"].([]any) {
		sa.failing = append(sa.failing, f.(string))
	}
	if d, ok := props["gate_decision"].(string); ok {
		sa.decision = decisionOf(d, props["gate_decision_sha"].(string))
	}
	out["export sarif"] = sa

	body := BuildGitHubReview(p).Body
	gr := surfaceSays{}
	m := reviewGate.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("the review body has no gate line:\n%s", body)
	}
	gr.ready = m[1] == "ready."
	if m[2] != "" {
		gr.failing = strings.Split(m[2], ", ")
	}
	if m := mdDecision.FindStringSubmatch(body); m != nil && m[2] != "" {
		gr.decision = decisionOf(m[2], m[3])
	}
	out["export github-review"] = gr

	var row review.InboxEntry
	row.Fill(p)
	out["inbox row"] = surfaceSays{ready: row.GateReady, failing: row.Failing, decision: decisionOf(row.Decision, row.DecisionSHA)}

	var q QueueRow
	q.FromPacket(p)
	qs := surfaceSays{ready: q.GateReady, failing: j.failing} // the queue row shows readiness only
	if q.Decision != nil {
		qs.decision = decisionOf(q.Decision.Decision, q.Decision.SHA)
	}
	out["queue row"] = qs
	return out
}

// The surfaces agree: for random reviews (triage, decisions for this head
// and others, rounds seen, CI, problems) every surface reports the same
// readiness, the same failing checks and the same decision as the gate.
func TestSurfacesAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 26))
	// Round 1 of the two-round work item, whose gate can be ready; the
	// other heads are round 2's and one vetter has never seen.
	others := []string{"eececad6a70e5217727a5cc8f7d4930148034530", "5e2f0c7a9d14b38e6f1a2c0b7d9e4a3f81c6b250"}
	const reviews = 500
	seen := map[string]int{}
	p, err := packet.Load(dyn3726("round1"), packet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	problems := p.Problems
	for i := range reviews {
		p.Problems = slices.Clone(problems)
		randomReview(p, rng, others)
		g := review.Gate(p)
		want := surfaceSays{ready: g.Ready, failing: review.FailingChecks(g)}
		if d, _ := review.DecisionStands(p); d != nil {
			want.decision = decisionOf(d.Decision, d.SHA)
		}
		seen[fmt.Sprint(want.ready, len(want.failing) > 0, want.decision != "")]++
		for name, got := range everySurface(t, p) {
			if got.ready != want.ready || !slices.Equal(got.failing, want.failing) || got.decision != want.decision {
				t.Fatalf("review %d: %s says %v; the gate says %v", i, name, got, want)
			}
		}
	}
	// The random reviews reach ready and not ready, with and without a decision.
	if len(seen) < 3 {
		t.Errorf("the random reviews cover too little: %v", seen)
	}
	t.Logf("%d reviews: %v", reviews, seen)
}
