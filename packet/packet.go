// Package packet loads and understands a work-item packet: the plan, the
// narrative of the change, the diff, the validation registry and logs, and the
// advisory review. It knows nothing of terminals; the headless commands and the
// screens both read the model it builds, so they can never disagree.
package packet

import (
	"io/fs"

	"github.com/vetter-dev/vetter/packet/source"
)

// Well-known packet-relative paths (PACKET.md, "Layout").
const (
	PlanFile       = "plan.md"
	ChangeFile     = "change.md"
	DiffPath       = "change.diff"
	ValidationFile = "change-validation.md"
	ReviewFile     = "review.md"
	RegistryFile   = "validation/registry.jsonl"
	LogsDir        = "validation/logs"
	TriageFile     = "triage.json"
)

// Packet is everything vetter knows about one packet.
type Packet struct {
	// Path is the packet as the user named it ("<built-in sample>" for the
	// embedded one); Source says how it was read: dir, zip, tar, tgz, embedded.
	Path   string
	Source string
	// FS is the packet root. Every read goes through it, so a directory, an
	// archive and the embedded sample behave the same.
	FS fs.FS

	// Docs holds every markdown document: plan, change, validation, review,
	// then any other *.md in name order.
	Docs []*Document

	Plan       Plan
	Change     Change
	Diff       *Diff
	Verdict    Verdict
	Outcome    *Heading // "## Investigation outcome:" in change-validation.md
	Assessment Assessment
	Findings   []*Finding
	Registry   Registry
	Logs       []*Log // every log under validation/logs and every log the registry names
	Evidence   Evidence
	Triage     *TriageState
	// History is every round of this work item vetter has seen, read from
	// the reviewer's state directory by OpenStore (nil before that).
	History *History
	// Reviewed holds the reviewer's "looked at" marks on attention items,
	// by Attention.Key, read from reviewed.json by OpenStore (nil before).
	Reviewed map[string]ReviewMark
	// Origin is what the place the packet came from knows (a pull request:
	// its head, CI, /ok to test, other reviewers); nil for a plain packet.
	Origin *Origin

	Problems []Problem

	// Partial marks a preview (OpenLogPreview, OpenFindingsPreview,
	// OpenPreview): one log, review.md's findings, or all but the diff
	// read; citations unresolved. The full packet follows from Load.
	Partial bool
	// DiffPending marks a preview of everything but the diff (OpenPreview):
	// change.diff is not read yet, so neither are the problems it may hold
	// nor the citations that lead into it.
	DiffPending bool

	Src *source.Source
	// fingerprints maps each finding's fingerprint to its id, made when the
	// findings are read (indexFingerprints).
	fingerprints map[string]string
	// byID and byNumber find a finding by its id or its number, made with
	// fingerprints: a bulk triage of every finding asks once for each, and
	// a walk over the findings each time made it quadratic.
	byID     map[string]*Finding
	byNumber map[int]*Finding
	// fingerprintOf holds the same fingerprints by finding, with the text
	// each was made from, so that asking each finding's triage state (the
	// gate does, for every finding, on each screen that shows it) hashes no
	// text after the packet is read, unless a finding's text has changed.
	fingerprintOf map[*Finding]fingerprinted
	// attention is the diff's attention scan, made once (attention_packet.go);
	// a pointer, so a copy of the Packet shares it. Load makes it.
	attention *attentionScan
}

// Doc returns the document with the given packet-relative path, or nil.
func (p *Packet) Doc(path string) *Document {
	for _, d := range p.Docs {
		if d.Path == path {
			return d
		}
	}
	return nil
}

// Log returns the log with the given packet-relative path, or nil.
func (p *Packet) Log(path string) *Log {
	for _, l := range p.Logs {
		if l.Path == path {
			return l
		}
	}
	return nil
}

// Finding returns the finding with the given id (review.md#N), or nil.
func (p *Packet) Finding(id string) *Finding {
	if p.byID != nil {
		return p.byID[id]
	}
	for _, f := range p.Findings {
		if f.ID == id {
			return f
		}
	}
	return nil
}

// Severity of a problem.
type Severity string

const (
	SevError   Severity = "error"
	SevWarning Severity = "warning"
	SevInfo    Severity = "info"
)

// Problem is one thing vetter could not use or found wrong, with a place.
type Problem struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	File     string   `json:"file,omitempty"`
	Line     int      `json:"line,omitempty"`
	Message  string   `json:"message"`
}

// Problem codes (PACKET.md, "Problems"). They keep their meaning and severity.
const (
	CodeNotAPacket         = "not-a-packet"
	CodeMissingFile        = "missing-file"
	CodeUnreadableFile     = "unreadable-file"
	CodeRegistryParse      = "registry-parse"
	CodeLogMissing         = "log-missing"
	CodeLogOutsidePacket   = "log-outside-packet"
	CodeLogExitMismatch    = "log-exit-mismatch"
	CodeVerdictMissing     = "verdict-missing"
	CodeVerdictConflict    = "verdict-conflict"
	CodeAssessmentMissing  = "assessment-missing"
	CodeFindingsMalformed  = "findings-malformed"
	CodeDiffParse          = "diff-parse"
	CodePassWithFailing    = "pass-with-failing-evidence"
	CodeArchiveUnsafeEntry = "archive-unsafe-entry"
	CodeFileTooLarge       = "file-too-large"
	CodeRegistryField      = "registry-field"
	CodeLogEmpty           = "log-empty"
	CodeRecipeMissing      = "recipe-missing"
	CodeRecipeFailing      = "recipe-failing"
	CodeCitationUnresolved = "citation-unresolved"
	// CodeCitationDrift: a finding quotes text that is in the file it cites
	// but not on the lines it cites (reviewers' line numbers drift).
	CodeCitationDrift       = "citation-drift"
	CodeDiffHunkCount       = "diff-hunk-count"
	CodeHiddenCharacters    = "hidden-characters"
	CodeInvalidUTF8         = "invalid-utf8"
	CodeControlSequences    = "control-sequences"
	CodeArchiveLimit        = "archive-limit"     // warning: an archive had more entries or bytes than vetter reads
	CodeUnknownSeverity     = "finding-severity"  // warning: a finding's severity is not one of the four words
	CodeTriageUnreadable    = "triage-unreadable" // warning: triage.json could not be read; decisions start empty
	CodeInvestigationAbsent = "outcome-missing"   // info: no "## Investigation outcome:" section
	// CodePacketShipsDecisions is a triage.json, decisions.jsonl or
	// rounds.json inside the packet: the automation under review speaking
	// for the reviewer. It is ignored and reported.
	CodePacketShipsDecisions = "packet-ships-decisions"
	// CodeFindingsUnheaded: review.md has a table that names the columns of
	// findings but no findings section holds it, so none of its rows is read
	// and the gate would count zero findings. An error, as findings-malformed
	// is: the review's findings are there and vetter cannot show them.
	CodeFindingsUnheaded = "findings-heading-missing"
)

// codeSeverity is the fixed severity of each code.
var codeSeverity = map[string]Severity{
	CodeNotAPacket: SevError, CodeMissingFile: SevError, CodeUnreadableFile: SevError,
	CodeRegistryParse: SevError, CodeLogMissing: SevError, CodeLogOutsidePacket: SevError,
	CodeLogExitMismatch: SevError, CodeVerdictMissing: SevError, CodeVerdictConflict: SevError,
	CodeAssessmentMissing: SevError, CodeFindingsMalformed: SevError, CodeDiffParse: SevError,
	CodePassWithFailing: SevError, CodeArchiveUnsafeEntry: SevError, CodePacketShipsDecisions: SevError,
	CodeFindingsUnheaded: SevError,
	CodeFileTooLarge:     SevWarning, CodeRegistryField: SevWarning, CodeLogEmpty: SevWarning,
	CodeRecipeMissing: SevWarning, CodeRecipeFailing: SevWarning, CodeCitationUnresolved: SevWarning,
	CodeCitationDrift: SevWarning,
	CodeDiffHunkCount: SevWarning, CodeHiddenCharacters: SevWarning, CodeInvalidUTF8: SevWarning,
	CodeArchiveLimit: SevWarning, CodeUnknownSeverity: SevWarning, CodeTriageUnreadable: SevWarning,
	CodeControlSequences: SevInfo, CodeInvestigationAbsent: SevInfo,
	CodeTooManyFindings:  SevError,
	CodeTooManyCitations: SevWarning, CodeLineTooLong: SevWarning, CodeTooManyLines: SevWarning,
}

// SeverityOf returns the severity a code always has (warning for unknown codes).
func SeverityOf(code string) Severity {
	if s, ok := codeSeverity[code]; ok {
		return s
	}
	return SevWarning
}

// NewProblem makes a problem with the code's fixed severity.
func NewProblem(code, file string, line int, message string) Problem {
	return Problem{Code: code, Severity: SeverityOf(code), File: file, Line: line, Message: message}
}
