package review

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
)

// Gate checks (PACKET.md, "The gate for /ok to test <sha>").
const (
	CheckVerdictPass     = "verdict-pass"
	CheckAssessmentSound = "assessment-sound"
	CheckEvidence        = "evidence-complete"
	CheckEvidenceCurrent = "evidence-current"
	CheckLogsIntact      = "logs-intact"
	CheckFindingsTriaged = "findings-triaged"
	CheckHeadKnown       = "head-known"
	// CheckPacketValid fails while `vetter check` reports an error.
	CheckPacketValid = "packet-valid"
	// CheckAttentionReviewed is informational: how many of the diff's high
	// attention items the reviewer marked reviewed (attention_packet.go).
	CheckAttentionReviewed = "attention-reviewed"
)

// Gate evaluates the /ok to test checklist now. It is recomputed on demand
// because triage changes it.
func Gate(p *packet.Packet) packet.Gate {
	var g packet.Gate
	add := func(name string, ok bool, detail string) {
		g.Checks = append(g.Checks, packet.GateCheck{Name: name, OK: ok, Detail: detail})
	}
	// unproven adds a check that holds on the packet's word alone.
	unproven := func(name, detail string) {
		g.Checks = append(g.Checks, packet.GateCheck{Name: name, OK: true, Unproven: true, Detail: detail})
	}

	ok, detail := packetValid(p)
	if ok && p.DiffPending {
		// The problems found so far are no error, but the diff's are not
		// read yet.
		g.Checks = append(g.Checks, packet.GateCheck{Name: CheckPacketValid, Pending: true, Detail: packet.DiffNotReadYet})
	} else {
		add(CheckPacketValid, ok, detail)
	}

	// expect checks a word the packet states against the one the gate needs.
	expect := func(name, got, want, whose, what string) {
		switch got {
		case "":
			add(name, false, "no "+what+" was found"+p.UnreadNote())
		default:
			add(name, got == want, whose+" "+what+" is "+got)
		}
	}
	verdictBy, assessmentBy := "the validator's", "the reviewer's"
	if p.Origin != nil && p.Origin.Record != nil {
		if p.Verdict.File == p.Origin.Record.Document {
			verdictBy = "the evidence record's"
		}
		if p.Assessment.File == p.Origin.Record.Document {
			assessmentBy = "the evidence record's"
		}
	}
	expect(CheckVerdictPass, p.Verdict.Value, "pass", verdictBy, "verdict")
	expect(CheckAssessmentSound, p.Assessment.Value, "sound", assessmentBy, "assessment")

	var notDone []string
	for _, row := range p.Evidence.Rows {
		if row.Status == packet.StatusFailing || (row.Planned && row.Status != packet.StatusValidated && row.Status != packet.StatusDispositioned) {
			notDone = append(notDone, row.Recipe+" "+row.Status)
		}
	}
	switch {
	case p.Evidence.Total == 0:
		add(CheckEvidence, false, "no recipe was planned or run"+p.UnreadNote())
	case len(notDone) > 0:
		add(CheckEvidence, false, fmt.Sprintf("%d/%d validated; not done: %s", p.Evidence.Validated, p.Evidence.Total, strings.Join(notDone, ", ")))
	default:
		add(CheckEvidence, true, fmt.Sprintf("%d/%d validated", p.Evidence.Validated, p.Evidence.Total))
	}

	ok, proven, detail := evidenceCurrent(p)
	if ok && !proven {
		unproven(CheckEvidenceCurrent, detail)
	} else {
		add(CheckEvidenceCurrent, ok, detail)
	}

	bad := 0
	for _, pr := range p.Problems {
		switch pr.Code {
		case packet.CodeLogMissing, packet.CodeLogOutsidePacket, packet.CodeLogEmpty, packet.CodeLogExitMismatch:
			bad++
		}
	}
	if detail, ok := logsIntactFromOrigin(p); ok {
		unproven(CheckLogsIntact, detail)
	} else if bad == 0 {
		add(CheckLogsIntact, true, text.PluralOf(len(p.Logs), "log", "logs")+" present, non-empty and agreeing with their exit lines")
	} else {
		add(CheckLogsIntact, false, fmt.Sprintf("%d log problems (missing, outside the packet, empty or exit mismatch)", bad))
	}

	open, stale, upstream := 0, 0, 0
	for _, f := range p.Findings {
		state, st, _ := TriageOf(p, f)
		switch {
		case st:
			stale++
		case state == packet.TriageOpen:
			open++
		case state == packet.TriageResolved:
			upstream++
		}
	}
	switch {
	case p.Origin.IsPending(packet.PendingThreads):
		// No thread read is not no thread: the check waits for them.
		add(CheckFindingsTriaged, false, fmt.Sprintf("%d of %s untriaged; %s", open+stale, text.PluralOf(len(p.Findings), "finding", "findings"), packet.NotReadYet(packet.PendingThreads)))
	case open+stale == 0 && upstream > 0:
		add(CheckFindingsTriaged, true, fmt.Sprintf("all %s triaged (%d resolved on GitHub)", text.PluralOf(len(p.Findings), "finding", "findings"), upstream))
	case open+stale == 0:
		add(CheckFindingsTriaged, true, "all "+text.PluralOf(len(p.Findings), "finding", "findings")+" triaged")
	case stale > 0:
		add(CheckFindingsTriaged, false, fmt.Sprintf("%d of %s untriaged (%d stale)", open+stale, text.PluralOf(len(p.Findings), "finding", "findings"), stale))
	default:
		add(CheckFindingsTriaged, false, fmt.Sprintf("%d of %s untriaged", open, text.PluralOf(len(p.Findings), "finding", "findings")))
	}

	if p.Change.HeadSHA != "" {
		add(CheckHeadKnown, true, "head "+p.Change.HeadSHA)
	} else if p.Origin != nil && commitid.Valid(p.Origin.HeadSHA) {
		// A pull request's head is the commit that would run, whether or
		// not a document names it.
		add(CheckHeadKnown, true, "head "+p.Origin.HeadSHA+" (the pull request's; no document names one)")
	} else {
		add(CheckHeadKnown, false, "change.md names no head SHA")
	}

	originChecks(p, add)

	g.Checks = append(g.Checks, attentionCheck(p))

	g.Ready = true
	for _, c := range g.Checks {
		g.Ready = g.Ready && (c.OK || c.Info)
	}
	g.Command = OkToTestCommand(p)
	return g
}

// OkToTestCommand is the comment a maintainer posts, bound to the head SHA.
func OkToTestCommand(p *packet.Packet) string {
	if p.Origin != nil && commitid.Valid(p.Origin.HeadSHA) {
		return OkToTestBody(p.Origin.HeadSHA)
	}
	if p.Change.HeadSHA == "" {
		return OkToTestBody("<head sha unknown>")
	}
	return OkToTestBody(p.Change.HeadSHA)
}

// OkToTestBody is the one spelling of the comment that lets CI run on sha:
// what the gate shows, what vetter posts and what it tells the reviewer to
// post all come from here, so that a bot never sees two forms.
func OkToTestBody(sha string) string {
	return "/ok to test " + sha
}

// packetValid is the packet-valid check: it holds while the packet has no
// error-severity problem (what makes `vetter check` exit 1), and names them
// when it does.
func packetValid(p *packet.Packet) (bool, string) {
	var codes []string
	n := 0
	for _, pr := range p.Problems {
		if pr.Severity != packet.SevError {
			continue
		}
		n++
		c := pr.Code
		if pr.File != "" {
			c += " (" + pr.File + ")"
		}
		if !slices.Contains(codes, c) {
			codes = append(codes, c)
		}
	}
	if n == 0 {
		return true, "vetter check reports no error"
	}
	return false, text.PluralOf(n, "error", "errors") + ": " + strings.Join(codes, ", ")
}
