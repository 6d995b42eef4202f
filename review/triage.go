package review

import (
	"fmt"
	"strings"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
)

// TriageOf returns a finding's triage state and whether the decision is stale
// (made on a finding whose text has changed since). A stale decision counts as
// untriaged until it is confirmed again. Decisions follow a finding's content
// from round to round: a finding renumbered in a later round keeps the
// decision made on its unchanged text, and a decision whose finding moved to
// another number does not stick to the number it left.
func TriageOf(p *packet.Packet, f *packet.Finding) (state string, stale bool, d *packet.Decision) {
	if p.Triage == nil || len(p.Triage.Findings) == 0 {
		// No decision to find, by number or by content: the gate asks this
		// of every finding, and a packet nobody has triaged yet (the one
		// opened for the first time) need not fingerprint them for it.
		return packet.Upstream(f), false, nil
	}
	fp := p.FingerprintOf(f)
	d = p.Triage.Findings[f.ID]
	if d == nil || d.Fingerprint != fp {
		if m := p.Triage.ByFingerprint(fp); m != nil {
			d = m
		} else if d != nil && p.FingerprintOwner(d.Fingerprint, f.ID) {
			d = nil // its finding is under another number now
		}
	}
	if d == nil || d.State == "" {
		return packet.Upstream(f), false, d
	}
	return d.State, d.Fingerprint != fp, d
}

// HeadDecisions is the reviewer's gate decisions as a round shows them:
// the one made for its own head (the commit a decision is for, DecisionSHA),
// and the latest made for another head, named separately.
type HeadDecisions struct {
	Own   *packet.GateDecision
	Other *packet.GateDecision
	// OtherIs says how the other decision's head stands to this one:
	// "later", "earlier", or "another" when their order is not known.
	OtherIs string
}

// Decisions finds the decision for the packet's own head and the latest
// for any other. A state written before decisions were kept by head has
// only the latest (Gate), which counts for the head it names.
func Decisions(p *packet.Packet) HeadDecisions {
	var hd HeadDecisions
	if p.Triage == nil {
		return hd
	}
	heads := p.Triage.Heads
	if len(heads) == 0 && p.Triage.Gate != nil {
		heads = map[string]*packet.GateDecision{strings.ToLower(p.Triage.Gate.SHA): p.Triage.Gate}
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
		if older, known := olderHead(p, hd.Other.SHA, head); known {
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
func DecisionStands(p *packet.Packet) (d *packet.GateDecision, stands bool) {
	hd := Decisions(p)
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
func DecisionNote(p *packet.Packet) string {
	d, stands := DecisionStands(p)
	switch {
	case d == nil:
		return ""
	case stands:
		return fmt.Sprintf("%s for %s by %s stands", d.Decision, text.OrDash(commitid.Short(d.SHA)), text.OrDash(d.User))
	default:
		return fmt.Sprintf("%s was for %s; the head is %s: it no longer stands", d.Decision, text.OrDash(commitid.Short(d.SHA)), text.OrDash(commitid.Short(p.DecisionSHA())))
	}
}

// OtherDecisionNote names a decision made for a later head (or one whose
// order is unknown) beside this round's own: "a later decision, ok-to-test
// for eececad, exists"; "" when there is none to name.
func OtherDecisionNote(p *packet.Packet) string {
	hd := Decisions(p)
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
func Triaged(p *packet.Packet, f *packet.Finding) bool {
	state, stale, _ := TriageOf(p, f)
	return state != packet.TriageOpen && !stale
}
