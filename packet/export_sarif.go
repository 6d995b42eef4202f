package packet

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
)

// sarifLevel maps a finding's severity to a SARIF result level.
func sarifLevel(severity string) string {
	switch severity {
	case "blocker", "major":
		return sarif.LevelError
	case "minor":
		return sarif.LevelWarning
	}
	return sarif.LevelNote
}

// sarifSuppressionStatus maps a triage state to the status of an external
// suppression: a dismissed finding is suppressed (accepted), an open one is
// under review, and an accepted or deferred one stands (rejected).
func sarifSuppressionStatus(state string) string {
	switch state {
	case TriageDismissed:
		return "accepted"
	case TriageOpen:
		return "underReview"
	}
	return "rejected"
}

// sarifRuleID is one rule per severity word, made safe as an identifier.
func sarifRuleID(severity string) string {
	var b strings.Builder
	for _, r := range severity {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + 'a' - 'A')
		}
	}
	s := b.String()
	if s == "" || len(s) > 32 {
		s = "other"
	}
	return "review/" + s
}

// SARIF builds a SARIF 2.1.0 log of the review's findings and their triage:
// one result per finding, a physical location when the finding lands in the
// diff, and one external suppression carrying the triage decision.
func (p *Packet) SARIF(opts ExportOptions) *sarif.Report {
	rep := sarif.NewReport()
	run := sarif.NewRun()
	driver := sarif.NewToolComponent().WithName("vetter").
		WithFullName("vetter — triage of an advisory review of a work-item packet")
	if opts.ToolVersion != "" {
		driver.WithVersion(opts.ToolVersion)
	}
	run.WithTool(sarif.NewTool().WithDriver(driver))
	if ValidSHA(p.Change.HeadSHA) {
		if pr, ok := p.PullRequest(); ok {
			vcs := sarif.NewVersionControlDetails().WithRepositoryURI(pr.RepositoryURL()).WithRevisionID(p.Change.HeadSHA)
			if p.Change.Branch != "" {
				vcs.WithBranch(p.Change.Branch)
			}
			run.AddVersionControlProvenance(vcs)
		}
	}
	props := sarif.NewPropertyBag()
	if p.Plan.ID != "" {
		props.Add("work_item", p.Plan.ID)
	}
	if p.Change.HeadSHA != "" {
		props.Add("head_sha", p.Change.HeadSHA)
	}
	if p.Triage != nil && p.Triage.Gate != nil {
		props.Add("gate_decision", p.Triage.Gate.Decision)
		props.Add("gate_decision_sha", p.Triage.Gate.SHA)
	}
	run.WithProperties(props)

	for _, e := range p.exportFindings() {
		ruleID := sarifRuleID(e.f.Severity)
		if run.GetRuleIndex(ruleID) < 0 {
			run.AddRule(ruleID).
				WithDescription(fmt.Sprintf("A %s finding of the packet's advisory review.", oneLine(e.f.Severity))).
				WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(sarifLevel(e.f.Severity)))
		}
		res := run.CreateResultForRule(ruleID).
			WithLevel(sarifLevel(e.f.Severity)).
			WithMessage(sarif.NewTextMessage(oneLine(e.f.Claim))).
			WithPartialFingerprints(map[string]string{"findingId/v1": e.f.ID})
		rp := sarif.NewPropertyBag().
			Add("finding_id", e.f.ID).
			Add("severity", e.f.Severity).
			Add("location", e.f.Location).
			Add("triage", e.state)
		if e.stale {
			rp.Add("stale", true)
		}
		res.WithProperties(rp)
		if c := e.loc; c != nil {
			pl := sarif.NewPhysicalLocation().WithArtifactLocation(sarif.NewSimpleArtifactLocation(c.Target))
			if c.Line > 0 {
				end := c.EndLine
				if end < c.Line {
					end = c.Line
				}
				pl.WithRegion(sarif.NewSimpleRegion(c.Line, end))
			}
			res.AddLocation(sarif.NewLocationWithPhysicalLocation(pl))
		}
		sup := sarif.NewSuppression().WithKind("external").WithStatus(sarifSuppressionStatus(e.state))
		if e.state == TriageDismissed && e.note() != "" {
			sup.WithJustification(e.note())
		}
		res.AddSuppression(sup)
	}
	rep.AddRun(run)
	return rep
}

// ExportSARIF writes the SARIF log as indented JSON.
func (p *Packet) ExportSARIF(w io.Writer, opts ExportOptions) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p.SARIF(opts)); err != nil {
		return fmt.Errorf("writing SARIF: %w", err)
	}
	return nil
}
