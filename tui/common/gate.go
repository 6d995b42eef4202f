package common

import (
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/ui"
)

// GateTarget says where a gate check's evidence lives.
func GateTarget(p *packet.Packet, check string) *Target {
	none := Target{File: -1, Hunk: -1, DiffLine: -1}
	t := none
	switch check {
	case review.CheckVerdictPass:
		t.Screen, t.Path, t.Line = ScreenDocs, p.Verdict.Where(), p.Verdict.Line
	case review.CheckAssessmentSound:
		t.Screen, t.Path, t.Line = ScreenDocs, p.Assessment.Where(), p.Assessment.Line
	case review.CheckEvidence, review.CheckLogsIntact:
		t.Screen = ScreenEvidence
	case review.CheckFindingsTriaged:
		t.Screen = ScreenFindings
	case review.CheckHeadKnown:
		t.Screen, t.Path, t.Line = ScreenDocs, packet.ChangeFile, p.Change.HeadLine
	default:
		return nil
	}
	return &t
}

// VerdictWord is the status word a verdict is drawn in.
func VerdictWord(v string) string {
	switch v {
	case "pass":
		return "validated"
	case "fail":
		return "failing"
	}
	return "missing"
}

// AssessmentWord is the status word an assessment is drawn in.
func AssessmentWord(v string) string {
	switch v {
	case "sound":
		return "validated"
	case "needs_changes":
		return "failing"
	}
	return "missing"
}

// GateMark is c's mark (packet.GateCheck.Mark, the one every surface shows)
// in its colour: a proven check green, an unproven or informing one in the
// warning colour, a holding one red.
func GateMark(st *ui.Styles, c packet.GateCheck) string {
	m := c.Mark()
	switch m {
	case "✓":
		return st.OK.Render(m)
	case "✗":
		return st.Error.Render(m)
	}
	return st.Warn.Render(m)
}
