package packet

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/vetter-dev/vetter/internal/commitid"
)

// Fingerprint identifies a finding's content: location, severity, claim and
// evidence with runs of white space folded, so re-wrapping the table does not
// make a decision stale but changing what it says does.
func Fingerprint(f *Finding) string {
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	h := sha256.New()
	for _, part := range []string{f.Location, f.Severity, f.Claim, f.Evidence} {
		h.Write([]byte(norm(part)))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// TriageOf returns a finding's triage state and whether the decision is stale
// (made on a finding whose text has changed since). A stale decision counts as
// untriaged until it is confirmed again. Decisions follow a finding's content
// from round to round: a finding renumbered in a later round keeps the
// decision made on its unchanged text, and a decision whose finding moved to
// another number does not stick to the number it left.
func (p *Packet) TriageOf(f *Finding) (state string, stale bool, d *Decision) {
	if p.Triage == nil || p.Triage.Findings == nil {
		return upstream(f), false, nil
	}
	fp := p.FingerprintOf(f)
	d = p.Triage.Findings[f.ID]
	if d == nil || d.Fingerprint != fp {
		if m := p.Triage.byFingerprint(fp); m != nil {
			d = m
		} else if d != nil && p.fingerprintOwner(d.Fingerprint, f.ID) {
			d = nil // its finding is under another number now
		}
	}
	if d == nil || d.State == "" {
		return upstream(f), false, d
	}
	return d.State, d.Fingerprint != fp, d
}

// FingerprintOf is Fingerprint(f), read from what was made when the packet
// was read for its own findings: the gate asks it of every finding, on
// every screen that shows the gate.
func (p *Packet) FingerprintOf(f *Finding) string {
	if c, ok := p.fingerprintOf[f]; ok && c.made(f) {
		return c.fp
	}
	return Fingerprint(f)
}

// fingerprinted is a finding's fingerprint with the text it was made from.
type fingerprinted struct {
	location, severity, claim, evidence, fp string
}

func fingerprintedOf(f *Finding) fingerprinted {
	return fingerprinted{f.Location, f.Severity, f.Claim, f.Evidence, Fingerprint(f)}
}

// made reports whether c was made from f's text as it is now (comparing
// strings that share their bytes costs no more than their lengths).
func (c fingerprinted) made(f *Finding) bool {
	return c.location == f.Location && c.severity == f.Severity && c.claim == f.Claim && c.evidence == f.Evidence
}

// upstream is the state of a finding the reviewer has not decided on: a
// thread resolved on the origin is resolved there; anything else is open.
func upstream(f *Finding) string {
	if f.Resolved {
		return TriageResolved
	}
	return TriageOpen
}

// ResolvedLine says who resolved a thread on the origin: "resolved on
// GitHub by sam", "" when it is not resolved.
func (f *Finding) ResolvedLine() string {
	if !f.Resolved {
		return ""
	}
	if f.ResolvedBy == "" {
		return "resolved on GitHub"
	}
	return "resolved on GitHub by " + f.ResolvedBy
}

// ThreadState is a thread's state on its origin in a few words: "resolved
// on GitHub by sam, outdated"; "" for a finding that is no thread or has
// neither state.
func (f *Finding) ThreadState() string {
	var parts []string
	if l := f.ResolvedLine(); l != "" {
		parts = append(parts, l)
	}
	if f.Outdated {
		parts = append(parts, "outdated")
	}
	return strings.Join(parts, ", ")
}

// byFingerprint is the decision made on a finding with this content under
// any number, the latest when there are several. It only reads the index
// (reindex builds it where a state is put in place), so screens and
// background commands may ask at once.
func (st *TriageState) byFingerprint(fp string) *Decision {
	if st.fpIndex != nil {
		return st.fpIndex[fp]
	}
	var best *Decision
	for _, d := range st.Findings {
		if d != nil && d.Fingerprint == fp && (best == nil || d.Time.After(best.Time)) {
			best = d
		}
	}
	return best
}

// reindex builds the fingerprint index of the decisions; it is called where
// a state is made (read, cloned, saved) and before anyone else sees it.
func (st *TriageState) reindex() {
	st.fpIndex = make(map[string]*Decision, len(st.Findings))
	for _, d := range st.Findings {
		if d == nil {
			continue
		}
		if old := st.fpIndex[d.Fingerprint]; old == nil || d.Time.After(old.Time) {
			st.fpIndex[d.Fingerprint] = d
		}
	}
}

// fingerprintOwner reports whether another of the packet's findings than
// id has this content.
func (p *Packet) fingerprintOwner(fp, id string) bool {
	if p.fingerprints != nil {
		owner, ok := p.fingerprints[fp]
		return ok && owner != id
	}
	for _, f := range p.Findings {
		if f.ID != id && Fingerprint(f) == fp {
			return true
		}
	}
	return false
}

// indexFingerprints records which finding has which content once they are
// read.
func (p *Packet) indexFingerprints() {
	p.fingerprints = make(map[string]string, len(p.Findings))
	p.fingerprintOf = make(map[*Finding]fingerprinted, len(p.Findings))
	for _, f := range p.Findings {
		c := fingerprintedOf(f)
		p.fingerprints[c.fp] = f.ID
		p.fingerprintOf[f] = c
	}
}

// HeadDecisions is the reviewer's gate decisions as a round shows them:
// the one made for its own head (the commit a decision is for, DecisionSHA),
// and the latest made for another head, named separately.
type HeadDecisions struct {
	Own   *GateDecision
	Other *GateDecision
	// OtherIs says how the other decision's head stands to this one:
	// "later", "earlier", or "another" when their order is not known.
	OtherIs string
}

// Decisions finds the decision for the packet's own head and the latest
// for any other. A state written before decisions were kept by head has
// only the latest (Gate), which counts for the head it names.
func (p *Packet) Decisions() HeadDecisions {
	var hd HeadDecisions
	if p.Triage == nil {
		return hd
	}
	heads := p.Triage.Heads
	if len(heads) == 0 && p.Triage.Gate != nil {
		heads = map[string]*GateDecision{strings.ToLower(p.Triage.Gate.SHA): p.Triage.Gate}
	}
	head := p.DecisionSHA()
	for _, d := range heads {
		switch {
		case d == nil:
		case head != "" && commitid.Same(d.SHA, head):
			if hd.Own == nil || d.Time.After(hd.Own.Time) {
				hd.Own = d
			}
		case hd.Other == nil || d.Time.After(hd.Other.Time):
			hd.Other = d
		}
	}
	if hd.Other != nil {
		hd.OtherIs = "another"
		if older, known := p.olderHead(hd.Other.SHA, head); known {
			hd.OtherIs = "later"
			if older {
				hd.OtherIs = "earlier"
			}
		}
	}
	return hd
}

// DecisionStands returns the gate decision a round shows and whether it
// stands: the one made for its own head (it stands), else one made for an
// earlier head or one whose order is unknown (it does not); a decision made
// only for a later head is not this round's (OtherDecisionNote names it).
func (p *Packet) DecisionStands() (d *GateDecision, stands bool) {
	hd := p.Decisions()
	switch {
	case hd.Own != nil:
		return hd.Own, true
	case hd.Other != nil && hd.OtherIs != "later":
		return hd.Other, false
	}
	return nil, false
}

// DecisionNote says in one short sentence whether the decision on record
// stands, or "" when there is none. It fits 80 columns: the verdict on the
// decision comes first, SHAs are short.
func (p *Packet) DecisionNote() string {
	d, stands := p.DecisionStands()
	switch {
	case d == nil:
		return ""
	case stands:
		return fmt.Sprintf("%s for %s by %s stands", d.Decision, orDash(commitid.Short(d.SHA)), orDash(d.User))
	default:
		return fmt.Sprintf("%s was for %s; the head is %s: it no longer stands", d.Decision, orDash(commitid.Short(d.SHA)), orDash(commitid.Short(p.DecisionSHA())))
	}
}

// OtherDecisionNote names a decision made for a later head (or one whose
// order is unknown) beside this round's own: "a later decision, ok-to-test
// for eececad, exists"; "" when there is none to name.
func (p *Packet) OtherDecisionNote() string {
	hd := p.Decisions()
	if hd.Other == nil || hd.OtherIs == "earlier" || (hd.Own == nil && hd.OtherIs != "later") {
		return ""
	}
	what := "a later decision"
	if hd.OtherIs != "later" {
		what = "a decision for another head"
	}
	return fmt.Sprintf("%s, %s for %s, exists", what, hd.Other.Decision, commitid.Short(hd.Other.SHA))
}

// Triaged reports whether a finding has a current (not stale, not open) decision.
func (p *Packet) Triaged(f *Finding) bool {
	state, stale, _ := p.TriageOf(f)
	return state != TriageOpen && !stale
}

// shippedDecisions reports a triage.json or decisions.jsonl found in the
// packet. The packet is written by the automation under review, so what it
// says a reviewer decided is ignored: the reviewer's decisions live in the
// reviewer's state directory only (OpenStore).
func (p *Packet) shippedDecisions() {
	p.indexFingerprints()
	p.Triage = &TriageState{Version: 1, Findings: map[string]*Decision{}}
	for _, n := range []string{TriageFile, DecisionsFile, RoundsFile, ReviewedFile} {
		if _, err := fs.Stat(p.FS, n); err == nil {
			p.problem(CodePacketShipsDecisions, n, 0, "the packet carries its own triage; vetter ignores it ("+n+")")
		}
	}
}

// LookupFinding finds a finding by a reference a person types: "review.md#2",
// "#2" or "2". It returns nil when there is no such finding.
func (p *Packet) LookupFinding(ref string) *Finding {
	ref = strings.TrimSpace(ref)
	if f := p.Finding(ref); f != nil {
		return f
	}
	num := strings.TrimPrefix(strings.TrimPrefix(ref, ReviewFile), "#")
	n, err := strconv.Atoi(num)
	if err != nil || num == "" || num[0] == '+' || num[0] == '-' {
		return nil
	}
	for _, f := range p.Findings {
		if f.Number == n {
			return f
		}
	}
	return nil
}

// compareFindingIDs orders "review.md#2" before "review.md#10".
func compareFindingIDs(a, b string) int {
	na, oka := idNumber(a)
	nb, okb := idNumber(b)
	if oka && okb && na != nb {
		return na - nb
	}
	return strings.Compare(a, b)
}

func idNumber(id string) (int, bool) {
	_, num, ok := strings.Cut(id, "#")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(num)
	return n, err == nil
}
