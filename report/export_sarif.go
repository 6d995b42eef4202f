package report

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
)

// The SARIF log is written with vetter's own types rather than go-sarif's:
// go-sarif v3's types declare most arrays and the integer indexes without
// omitempty and its constructors fill them with [] and -1, so every log it
// wrote carried dozens of empty arrays and -1 placeholders (53 and 12 for the
// sample) that a reader has to know to ignore. These types hold only what
// vetter writes, each optional field omitted when it has nothing to say.

// SARIFSchema is the URI of the SARIF 2.1.0 schema the log names.
const SARIFSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// SARIFLog is a SARIF 2.1.0 log file.
type SARIFLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []SARIFRun `json:"runs"`
}

// SARIFRun is the one run of a log: the review's findings of one packet.
type SARIFRun struct {
	Tool                     SARIFTool              `json:"tool"`
	AutomationDetails        *SARIFAutomation       `json:"automationDetails,omitempty"`
	Invocations              []SARIFInvocation      `json:"invocations,omitempty"`
	VersionControlProvenance []SARIFVersionControl  `json:"versionControlProvenance,omitempty"`
	Results                  []SARIFResult          `json:"results"`
	Properties               map[string]interface{} `json:"properties,omitempty"`
}

type SARIFTool struct {
	Driver SARIFDriver `json:"driver"`
}

type SARIFDriver struct {
	Name            string      `json:"name"`
	FullName        string      `json:"fullName,omitempty"`
	Version         string      `json:"version,omitempty"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	InformationURI  string      `json:"informationUri,omitempty"`
	Rules           []SARIFRule `json:"rules,omitempty"`
}

// SARIFAutomation names the analysis: code scanning takes the id up to its
// last "/" as the category, and an upload replaces the alerts of the last
// upload of the same category on the same branch.
type SARIFAutomation struct {
	ID string `json:"id"`
}

// SARIFMultiformat is a rule's help: plain text, and Markdown where code
// scanning shows it.
type SARIFMultiformat struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

// SARIFRule is one rule per severity word: code scanning groups and filters
// alerts by rule, and a severity is what a finding has in common with others.
type SARIFRule struct {
	ID                   string             `json:"id"`
	Name                 string             `json:"name,omitempty"`
	ShortDescription     SARIFMessage       `json:"shortDescription"`
	FullDescription      *SARIFMessage      `json:"fullDescription,omitempty"`
	Help                 *SARIFMultiformat  `json:"help,omitempty"`
	DefaultConfiguration SARIFConfiguration `json:"defaultConfiguration"`
	Properties           map[string]any     `json:"properties,omitempty"`
}

type SARIFConfiguration struct {
	Level string `json:"level"`
}

type SARIFMessage struct {
	Text string `json:"text"`
}

type SARIFInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []SARIFNotification `json:"toolExecutionNotifications,omitempty"`
}

// SARIFNotification carries a finding that has no place in the repository.
type SARIFNotification struct {
	Level          string                 `json:"level"`
	Message        SARIFMessage           `json:"message"`
	AssociatedRule *SARIFRuleReference    `json:"associatedRule,omitempty"`
	Properties     map[string]interface{} `json:"properties,omitempty"`
}

type SARIFRuleReference struct {
	ID    string `json:"id"`
	Index int    `json:"index"`
}

type SARIFVersionControl struct {
	RepositoryURI string `json:"repositoryUri"`
	RevisionID    string `json:"revisionId,omitempty"`
	Branch        string `json:"branch,omitempty"`
}

type SARIFResult struct {
	RuleID              string                 `json:"ruleId"`
	RuleIndex           int                    `json:"ruleIndex"`
	Level               string                 `json:"level"`
	Message             SARIFMessage           `json:"message"`
	Locations           []SARIFLocation        `json:"locations"`
	PartialFingerprints map[string]string      `json:"partialFingerprints"`
	Suppressions        []SARIFSuppression     `json:"suppressions,omitempty"`
	Properties          map[string]interface{} `json:"properties,omitempty"`
}

type SARIFLocation struct {
	PhysicalLocation SARIFPhysicalLocation `json:"physicalLocation"`
}

type SARIFPhysicalLocation struct {
	ArtifactLocation SARIFArtifactLocation `json:"artifactLocation"`
	Region           *SARIFRegion          `json:"region,omitempty"`
}

type SARIFArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type SARIFRegion struct {
	StartLine int `json:"startLine"`
	EndLine   int `json:"endLine,omitempty"`
}

type SARIFSuppression struct {
	Kind          string `json:"kind"`
	Status        string `json:"status"`
	Justification string `json:"justification,omitempty"`
}

// SARIFFingerprintKey names the partial fingerprint: the finding's content
// (Fingerprint), so code scanning matches an alert across uploads by what the
// finding says, not by its number, which a re-ordered review changes.
const SARIFFingerprintKey = "vetterFindingContent/v1"

// SARIFLineHashKey is the fingerprint code scanning computes itself from the
// checkout when a result lacks it (LineHashes).
const SARIFLineHashKey = "primaryLocationLineHash"

// SARIFCategory is the category of vetter's uploads (automationDetails.id
// up to its last "/"): one analysis per branch, so an upload for a new head
// closes the alerts the last one had and this one does not.
const SARIFCategory = "vetter/review/"

// semanticVersion is version as SARIF's driver.semanticVersion wants it,
// "1.2.3" for "v1.2.3", or "" when version is not a release's (dev, dev+...).
func semanticVersion(version string) string {
	v := strings.TrimPrefix(version, "v")
	if !semver.MatchString(v) {
		return ""
	}
	return v
}

var semver = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

// severityHelp is what each severity word of a review means, for a rule's
// fullDescription and help; an unknown word gets the generic text.
var severityHelp = map[string]string{
	"blocker": "The advisory review says this must be fixed before the change can land: it breaks the change's purpose, correctness or safety.",
	"major":   "The advisory review says this is a significant problem that should be fixed before the change lands.",
	"minor":   "The advisory review says this is a small problem: worth fixing, not a reason to hold the change.",
	"nit":     "The advisory review says this is a matter of style or polish.",
}

// reviewRule is the rule of the findings of one severity.
func reviewRule(id, severity string) SARIFRule {
	sev := text.OneLine(severity)
	full, ok := severityHelp[strings.ToLower(sev)]
	if !ok {
		full = fmt.Sprintf("The advisory review rated this finding %q.", sev)
	}
	help := full + " The finding is the review's claim, not vetter's: read the evidence it cites, then triage it in vetter (accept, dismiss with a reason, or defer). A dismissed finding is a suppressed alert with the reason as its justification."
	return SARIFRule{
		ID:                   id,
		Name:                 "Review" + strings.ToUpper(sev[:min(1, len(sev))]) + sev[min(1, len(sev)):],
		ShortDescription:     SARIFMessage{Text: fmt.Sprintf("A %s finding of the packet's advisory review", sev)},
		FullDescription:      &SARIFMessage{Text: full},
		Help:                 &SARIFMultiformat{Text: help, Markdown: "**" + sev + "**: " + help},
		DefaultConfiguration: SARIFConfiguration{Level: sarifLevel(severity)},
		Properties:           map[string]any{"tags": []string{"review", sev}},
	}
}

// attentionLevel maps an attention item's severity to a SARIF level.
func attentionLevel(severity string) string {
	switch severity {
	case packet.AttentionHigh:
		return "error"
	case packet.AttentionMedium:
		return "warning"
	}
	return "note"
}

// attentionRule is the rule of the attention items of one scan rule: its
// title and why it matters on the runner that /ok to test lets it run on.
func attentionRule(a packet.Attention) SARIFRule {
	why := strings.TrimSpace(a.Why)
	help := a.Title + ": " + why + ". Read what the line runs before letting CI run the change (/ok to test)."
	return SARIFRule{
		ID:                   "attention/" + a.Rule,
		Name:                 a.Rule,
		ShortDescription:     SARIFMessage{Text: a.Title},
		FullDescription:      &SARIFMessage{Text: why},
		Help:                 &SARIFMultiformat{Text: help, Markdown: "**" + a.Title + "**: " + why + ". Read what the line runs before letting CI run the change (`/ok to test`)."},
		DefaultConfiguration: SARIFConfiguration{Level: attentionLevel(a.Severity)},
		Properties:           map[string]any{"tags": []string{"security", "ci", "attention"}},
	}
}

// sarifLevel maps a finding's severity to a SARIF result level.
func sarifLevel(severity string) string {
	switch severity {
	case "blocker", "major":
		return "error"
	case "minor":
		return "warning"
	}
	return "note"
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

// sarifPlace is where a finding lands in the repository: the diff location
// the other exports use, else the first citation of its location cell that
// names a repository file the packet does not carry (kind external), which
// is still a file code scanning can show at the head revision. Nil when the
// location cell names only packet files (the registry, a log, a document)
// or nothing that resolves.
func sarifPlace(p *packet.Packet, e exported) *packet.Citation {
	if e.loc != nil {
		return e.loc
	}
	for i := range e.f.Citations {
		c := &e.f.Citations[i]
		if c.Kind == packet.CiteExternal && repositoryPath(c.Target) && strings.Contains(e.f.Location, c.Text) {
			return c
		}
	}
	return nil
}

// repositoryPath reports whether an external citation's path can name a
// file of the repository: relative, and not climbing out of it. "/etc/x"
// or "../x" in a review is not a place code scanning can show.
func repositoryPath(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "\\") || strings.Contains(p, ":") {
		return false
	}
	clean := path.Clean(p)
	return clean != ".." && !strings.HasPrefix(clean, "../")
}

// sarifURI is a repository path as a relative URI reference: a space or a
// '#' in a file name must not read as the end of the path.
func sarifURI(path string) string {
	return (&url.URL{Path: path}).EscapedPath()
}

// SARIF builds a SARIF 2.1.0 log of the review's findings and their triage.
//
// A finding with a place in the repository (sarifPlace) is a result there.
// One without (it cites validation/registry.jsonl:5, or a log) is a
// notification of the run's invocation instead, with the citation in its
// message: code scanning requires a location on every result, and pinning
// such a finding to some file of the diff would show an alert on a file it
// says nothing about, tracked there across uploads. The notification keeps
// the finding in the log for a reader of the file; code scanning does not
// alert on it, and the other exports (markdown, the review) carry it.
//
// Triage: a current dismissal is an accepted external suppression with its
// note as justification. Nothing else is a suppression: accepted and
// deferred findings stand, an open one was never proposed for suppression,
// and a stale dismissal counts as undecided (TriageOf). The state is in each
// result's properties.
func SARIF(p *packet.Packet, opts ExportOptions) *SARIFLog {
	run := SARIFRun{
		Tool: SARIFTool{Driver: SARIFDriver{
			Name:            "vetter",
			FullName:        "vetter — triage of an advisory review of a work-item packet",
			Version:         opts.ToolVersion,
			SemanticVersion: semanticVersion(opts.ToolVersion),
			InformationURI:  "https://github.com/vetter-dev/vetter",
		}},
		Results: []SARIFResult{},
	}
	runID := p.DiffSHA()
	if !commitid.Valid(runID) {
		runID = "unknown-head"
	}
	run.AutomationDetails = &SARIFAutomation{ID: SARIFCategory + runID}
	// The line hashes of the files the diff adds whole, the only files whose
	// whole text at the head the packet holds.
	lineHashes := map[string][]string{}
	if p.Diff != nil {
		for _, f := range p.Diff.Files {
			if t, ok := addedFileText(f); ok {
				lineHashes[f.NewPath] = LineHashes(t)
			}
		}
	}
	fingerprints := func(path string, line int, own map[string]string) map[string]string {
		if hs := lineHashes[path]; line > 0 && line <= len(hs) {
			own[SARIFLineHashKey] = hs[line-1]
		}
		return own
	}
	// The results' lines are change.diff's, so the revision is the commit
	// that diff is at.
	if sha := p.DiffSHA(); commitid.Valid(sha) {
		if pr, ok := review.PullRequest(p); ok {
			run.VersionControlProvenance = []SARIFVersionControl{{
				RepositoryURI: pr.RepositoryURL(), RevisionID: sha, Branch: p.Change.Branch,
			}}
		}
	}
	props := map[string]interface{}{}
	if p.Plan.ID != "" {
		props["work_item"] = p.Plan.ID
	}
	if p.Change.HeadSHA != "" {
		props["head_sha"] = p.Change.HeadSHA
	}
	g := review.Gate(p)
	props["gate_ready"] = g.Ready
	props["gate_failing"] = nonNil(review.FailingChecks(g))
	if d, _ := review.DecisionStands(p); d != nil {
		props["gate_decision"] = d.Decision
		props["gate_decision_sha"] = d.SHA
	}
	if len(props) > 0 {
		run.Properties = props
	}

	ruleIndex := map[string]int{}
	rules := &run.Tool.Driver.Rules
	inv := SARIFInvocation{ExecutionSuccessful: true}
	for _, e := range exportFindings(p) {
		if e.f.OtherReviewers() {
			// Another reviewer's thread is already on the PR, in its
			// author's name; code scanning would show it as vetter's.
			continue
		}
		ruleID := sarifRuleID(e.f.Severity)
		idx, ok := ruleIndex[ruleID]
		if !ok {
			idx = len(*rules)
			ruleIndex[ruleID] = idx
			*rules = append(*rules, reviewRule(ruleID, e.f.Severity))
		}
		rp := map[string]interface{}{
			"finding_id": e.f.ID,
			"severity":   e.f.Severity,
			"location":   e.f.Location,
			"triage":     e.state,
		}
		if e.stale {
			rp["stale"] = true
		}
		if n := e.note(); n != "" {
			rp["triage_note"] = n
		}
		c := sarifPlace(p, e)
		if c == nil {
			inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, SARIFNotification{
				Level: sarifLevel(e.f.Severity),
				Message: SARIFMessage{Text: fmt.Sprintf("%s (%s, at %s, not a file of the repository): %s",
					e.f.ID, text.OneLine(e.f.Severity), text.OneLine(text.OrDash(e.f.Location)), text.OneLine(e.f.Claim))},
				AssociatedRule: &SARIFRuleReference{ID: ruleID, Index: idx},
				Properties:     rp,
			})
			continue
		}
		pl := SARIFPhysicalLocation{ArtifactLocation: SARIFArtifactLocation{URI: sarifURI(c.Target), URIBaseID: "%SRCROOT%"}}
		if c.Line > 0 {
			r := &SARIFRegion{StartLine: c.Line}
			if c.EndLine > c.Line {
				r.EndLine = c.EndLine
			}
			pl.Region = r
		}
		res := SARIFResult{
			RuleID:              ruleID,
			RuleIndex:           idx,
			Level:               sarifLevel(e.f.Severity),
			Message:             SARIFMessage{Text: text.OneLine(e.f.Claim)},
			Locations:           []SARIFLocation{{PhysicalLocation: pl}},
			PartialFingerprints: fingerprints(c.Target, c.Line, map[string]string{SARIFFingerprintKey: packet.Fingerprint(e.f)}),
			Properties:          rp,
		}
		if e.state == packet.TriageDismissed && !e.stale {
			res.Suppressions = []SARIFSuppression{{Kind: "external", Status: "accepted", Justification: e.note()}}
		}
		if res.Message.Text == "" {
			// message.text is required; a claim-less row still says what it is.
			res.Message.Text = e.f.ID
		}
		run.Results = append(run.Results, res)
	}
	// The attention scan's items: lines of the diff's new side that run on
	// the runner, each a result of its scan rule. An item of the commits
	// after the packet, or an "and N more", has no line of this diff.
	for _, a := range p.Attention() {
		if a.AfterPacket || a.More > 0 || a.Path == "" {
			continue
		}
		ruleID := "attention/" + a.Rule
		idx, ok := ruleIndex[ruleID]
		if !ok {
			idx = len(*rules)
			ruleIndex[ruleID] = idx
			*rules = append(*rules, attentionRule(a))
		}
		pl := SARIFPhysicalLocation{ArtifactLocation: SARIFArtifactLocation{URI: sarifURI(a.Path), URIBaseID: "%SRCROOT%"}}
		if a.NewLine > 0 {
			pl.Region = &SARIFRegion{StartLine: a.NewLine}
		}
		run.Results = append(run.Results, SARIFResult{
			RuleID:              ruleID,
			RuleIndex:           idx,
			Level:               attentionLevel(a.Severity),
			Message:             SARIFMessage{Text: text.OneLine(a.Title + ": " + a.Why)},
			Locations:           []SARIFLocation{{PhysicalLocation: pl}},
			PartialFingerprints: fingerprints(a.Path, a.NewLine, map[string]string{"vetterAttention/v1": a.Key}),
			Properties:          map[string]interface{}{"attention_rule": a.Rule, "severity": a.Severity},
		})
	}
	run.Invocations = []SARIFInvocation{inv}
	return &SARIFLog{Schema: SARIFSchema, Version: "2.1.0", Runs: []SARIFRun{run}}
}

// ExportSARIF writes the SARIF log as indented JSON.
func ExportSARIF(p *packet.Packet, w io.Writer, opts ExportOptions) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(SARIF(p, opts)); err != nil {
		return fmt.Errorf("writing SARIF: %w", err)
	}
	return nil
}
