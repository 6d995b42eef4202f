package packet

import (
	"encoding/json"
	"time"

	"github.com/vetter-dev/vetter/packet/source"
)

// This file holds the model's data types in one place so each reader
// (docs.go, diff.go, findings.go, registry.go, logs.go, ...) can fill its part
// and every consumer sees the whole shape.

// ---- documents -------------------------------------------------------------

// Document is one markdown file of the packet, held in memory (capped).
type Document struct {
	Path      string     // packet-relative, e.g. "change-validation.md"
	Text      string     // the whole text as read (possibly cut at the size cap)
	Lines     []string   // Text split on "\n", a trailing "\r" removed; Lines[0] is line 1
	Headings  []Heading  // every ATX and setext heading outside fenced code, in order
	Citations []Citation // every citation found in the text, in order
	Truncated bool       // cut at the size cap
	// CitationsCutAt is the line from which no citation was read, past
	// MaxCitationsPerDocument (0 when every line was read).
	CitationsCutAt int
	// CutLines are the lines cut at MaxLineBytes while reading.
	CutLines []source.CutLine
}

// Heading is a heading of a document, ATX ("## Text") or setext (Text
// underlined with === or ---).
type Heading struct {
	Level int    // 1 for "#" or "===", 2 for "##" or "---", ...
	Text  string // without the #s and surrounding space; a setext heading's lines joined by a space
	Line  int    // 1-based line in its document (a setext heading's first text line)
}

// Plan is what plan.md declares.
type Plan struct {
	Title    string
	ID       string            // first [A-Z][A-Z0-9]+-[0-9]+ token of the title
	Route    string            // "Route:" header
	Template string            // "Template:" header
	Engine   string            // "Engine:" header
	Headers  map[string]string // every "Key: value" header line near the top
	Recipes  []string          // the validation-recipes block, one id a line
	// RecipesLine is the 1-based line of the validation-recipes fence, 0 if absent.
	RecipesLine int
}

// Change is what change.md declares about the commit.
type Change struct {
	Branch  string
	BaseSHA string
	HeadSHA string
	URL     string // "MR URL:" or "PR URL:"
	// HeadLine is the 1-based line in change.md where the head SHA was found.
	HeadLine int
}

// Verdict is the validator's verdict (change-validation.md).
type Verdict struct {
	Value   string // "pass", "fail", "blocked", "" when missing; lower-cased
	Summary string // text after the em dash, if any
	File    string
	Line    int
}

// Assessment is the reviewer's assessment (review.md).
type Assessment struct {
	Value string // "sound", "needs_changes", or "" when missing / not one of the two
	Raw   string // the word as written
	File  string
	Line  int
}

// ---- findings --------------------------------------------------------------

// Finding is one row of review.md's findings table.
type Finding struct {
	ID       string // "review.md#<number>", stable across reloads
	Number   int
	Location string // the file:line (or location) cell, backticks removed
	Severity string // lower-cased word as written: blocker, major, minor, nit, or other
	Claim    string
	Evidence string
	Line     int // 1-based line of the row in review.md
	// Extra holds cells of columns vetter does not know, by header name.
	Extra map[string]string
	// Citations are those found in Location, Claim and Evidence, Location first.
	Citations []Citation
	// Source is who raised a finding that is not review.md's own: another
	// reviewer's account on the packet's origin ("" for review.md's rows);
	// Resolved and Outdated are its thread's state there (source_pr.go).
	Source             string
	Resolved, Outdated bool
	// ResolvedBy is the account that resolved the thread, when known.
	ResolvedBy string
	// Tags are what a reviewer's badge says beside the severity (its
	// category, its effort), as written.
	Tags []string
}

// SeverityRank orders severities: blocker 0, major 1, minor 2, nit 3, others 4.
func SeverityRank(s string) int {
	switch s {
	case "blocker":
		return 0
	case "major":
		return 1
	case "minor":
		return 2
	case "nit":
		return 3
	}
	return 4
}

// ---- citations -------------------------------------------------------------

// CitationKind says where a citation resolves (PACKET.md, "Citations").
type CitationKind string

const (
	CitePacket     CitationKind = "packet"   // a packet document
	CiteRegistry   CitationKind = "registry" // a line of validation/registry.jsonl
	CiteLog        CitationKind = "log"      // a log under validation/logs
	CiteDiff       CitationKind = "diff"     // a line inside a hunk of change.diff (new side)
	CiteDiffFile   CitationKind = "diff-file"
	CiteExternal   CitationKind = "external" // a repository file the packet does not carry
	CiteUnresolved CitationKind = "unresolved"
)

// Citation is a reference found in a document or finding.
type Citation struct {
	Text string // as written, e.g. "change-validation.md:193-198", "…14-36-51.522Z-bash-4d5c.log"
	// Source document and 1-based line where the citation was written.
	SourceFile string
	SourceLine int
	// Path and lines as parsed from Text (Path may be a suffix when Suffix is set).
	Path    string
	Line    int // 0 when no line was given
	EndLine int // == Line for a single line; 0 when no line
	Suffix  bool
	// Resolution.
	Kind     CitationKind
	Target   string // resolved packet-relative path (or the path as written for external)
	Resolved bool
	// Diff anchor when Kind == CiteDiff: index into Diff.Files and the hunk and
	// line index inside it; -1 when not anchored.
	DiffFile, DiffHunk, DiffLine int
	Note                         string // why it is unresolved, for people
	// Anchor is where the finding's quoted text is in the cited file
	// (anchor.go); only a finding's citations are anchored.
	Anchor Anchor
}

// ---- diff ------------------------------------------------------------------

// Diff is change.diff parsed into files and hunks.
type Diff struct {
	Files      []*DiffFile
	Insertions int
	Deletions  int
	Lines      int // lines in change.diff
}

// FileStatus is the one-letter status of a changed file.
type FileStatus byte

const (
	StatusAdded    FileStatus = 'A'
	StatusModified FileStatus = 'M'
	StatusDeleted  FileStatus = 'D'
	StatusRenamed  FileStatus = 'R'
	StatusCopied   FileStatus = 'C'
)

// DiffFile is one file's section of the diff.
type DiffFile struct {
	OldPath, NewPath string // "" for /dev/null; unquoted
	Status           FileStatus
	Binary           bool
	ModeOnly         bool // only the mode changed; no hunks
	OldMode, NewMode string
	Similarity       int // rename/copy similarity index, percent; 0 when absent
	Hunks            []*Hunk
	Insertions       int
	Deletions        int
	// Line is the 1-based line in change.diff of the "diff --git" header.
	Line int
	// Header holds the extended header lines as written (index, mode, rename ...).
	Header []string
}

// Path is the file's name for people: the new path, or the old one when deleted.
func (f *DiffFile) Path() string {
	if f.NewPath != "" {
		return f.NewPath
	}
	return f.OldPath
}

// Hunk is one @@ section.
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	Section            string // text after the closing @@ (function context)
	Line               int    // 1-based line in change.diff of the @@ header
	Lines              []DiffLine
}

// LineKind of a diff line.
type LineKind byte

const (
	LineContext LineKind = ' '
	LineAdded   LineKind = '+'
	LineRemoved LineKind = '-'
)

// DiffLine is one line of a hunk.
type DiffLine struct {
	Kind LineKind
	Text string // without the leading marker and without a trailing "\r"
	Old  int    // 1-based old-side line number; 0 for added lines
	New  int    // 1-based new-side line number; 0 for removed lines
	// NoNewline is set when "\ No newline at end of file" followed this line.
	NoNewline bool
	CR        bool // the line ended in "\r\n" in the diff
}

// ---- registry and logs -----------------------------------------------------

// Run is one line of validation/registry.jsonl.
type Run struct {
	Seq         int
	Recipe      string
	Status      string // validated, failing, dispositioned, superseded, n/a, or as written
	Command     string
	Log         string // packet-relative log path as written
	ExitCode    *int
	StartedAt   string
	DurationMs  *int64
	Note        string
	Disposition string
	// HeadSHA is the commit the run tested, when the registry says so
	// (optional "head_sha"); a hex SHA, else empty.
	HeadSHA string
	// Extra keeps unknown fields as raw JSON, by name.
	Extra map[string]json.RawMessage
	Line  int // 1-based line in registry.jsonl
}

// Registry is validation/registry.jsonl.
type Registry struct {
	Present bool
	Runs    []*Run
	Lines   int // lines in the file, for citation checks
}

// ---- evidence and gate -----------------------------------------------------

// Evidence is the derived evidence table (PACKET.md, "The evidence table").
type Evidence struct {
	Rows      []*EvidenceRow
	Validated int // rows whose status is validated or dispositioned
	Total     int
}

// EvidenceRow is one recipe.
type EvidenceRow struct {
	Recipe  string
	Status  string // validated, failing, dispositioned, n/a, missing, or as written
	Planned bool
	Runs    []*Run // every run of the recipe, in registry order, superseded included
	Latest  *Run   // the latest run that is not superseded; nil when none
}

// GateCheck is one line of the gate checklist.
type GateCheck struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	// Info marks a check that informs without holding the gate: Ready
	// ignores it (attention-reviewed).
	Info bool `json:"info,omitempty"`
	// Unproven marks a check that holds only on the packet's word, or
	// because vetter could not tell: it does not stop the gate, and no
	// surface shows it as proven.
	Unproven bool `json:"unproven,omitempty"`
	// Pending marks a check that cannot be told yet because what it reads
	// is still being read (the diff, behind the workbench's first screen):
	// it is not OK, so the gate is not ready until it is told. Only the
	// workbench's preview has one; what is printed reads whole packets.
	Pending bool `json:"-"`
}

// Mark is the one sign every surface shows for c: ✓ proven, ? holding but
// unproven, ! informing without holding the gate, ✗ holding it.
func (c GateCheck) Mark() string {
	switch {
	case c.OK && c.Unproven:
		return "?"
	case c.OK:
		return "✓"
	case c.Info:
		return "!"
	}
	return "✗"
}

// Gate is the /ok to test checklist.
type Gate struct {
	Ready   bool        `json:"ready"`
	Checks  []GateCheck `json:"checks"`
	Command string      `json:"command"`
}

// ---- triage ----------------------------------------------------------------

// Triage states of a finding.
const (
	TriageOpen      = "open"
	TriageAccepted  = "accepted"
	TriageDismissed = "dismissed"
	TriageDeferred  = "deferred"
	// TriageResolved is another reviewer's thread resolved on the origin
	// (GitHub) that the reviewer has not decided on: it counts as triaged,
	// until the reviewer reopens it.
	TriageResolved = "resolved"
)

// TriageState is the content of triage.json.
type TriageState struct {
	Version  int                  `json:"version"`
	Findings map[string]*Decision `json:"findings"` // by finding id
	Gate     *GateDecision        `json:"gate,omitempty"`
	// Summarised counts the decisions dropped to keep the record within
	// what vetter reads: decisions on findings no packet of the work item
	// has any more, oldest first.
	Summarised int `json:"summarised,omitempty"`
	// Heads are the gate decisions by the head they were made for (the
	// full SHA, lower case); Gate is the latest of them. A round shows the
	// decision for its own head, whatever a later round decided.
	Heads map[string]*GateDecision `json:"heads,omitempty"`
	// Where is the file it was read from or will be written to.
	Where string `json:"-"`
	// fpIndex finds a decision by the fingerprint it was made on (reindex);
	// nil means not built, and byFingerprint scans instead.
	fpIndex map[string]*Decision
}

// Decision is a person's triage of one finding.
type Decision struct {
	State       string    `json:"state"`
	Note        string    `json:"note,omitempty"`
	Time        time.Time `json:"time"`
	User        string    `json:"user,omitempty"`
	Fingerprint string    `json:"fingerprint"`
	// Imported says where a decision came from when a person imported it
	// (vetter triage --import): User is who imported it.
	Imported *ImportedFrom `json:"imported,omitempty"`
}

// ImportedFrom is the origin of an imported decision: the file, and who
// made the decision there and when.
type ImportedFrom struct {
	File string    `json:"file"`
	By   string    `json:"by,omitempty"`
	At   time.Time `json:"at"`
}

// GateDecision is the /ok to test decision.
type GateDecision struct {
	Decision string    `json:"decision"` // ok-to-test, hold, request-changes
	SHA      string    `json:"sha"`
	Note     string    `json:"note,omitempty"`
	Time     time.Time `json:"time"`
	User     string    `json:"user,omitempty"`
	// Override says why ok-to-test was given while the gate was not ready.
	Override string `json:"override,omitempty"`
	// GateReady and GateFailing snapshot the gate when the decision was made,
	// so a later reader sees what the decider saw.
	GateReady   bool     `json:"gate_ready"`
	GateFailing []string `json:"gate_failing,omitempty"`
	// Seq is the journal line this decision is (DecisionRecord.Seq); 0 for
	// a decision recorded before the journal was numbered.
	Seq int `json:"seq,omitempty"`
}
