package packet

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet/source"
)

// A packet may come from somewhere that knows more than its files: a pull
// request knows its own head, who said "/ok to test", what CI says and what
// other reviewers wrote. Whoever rebuilt the packet (vetter/github) writes
// that beside the documents as OriginFile; this file reads it in generic
// terms, so packet knows nothing of any forge.

// OriginFile holds what the packet's origin knows (OriginKindPR: the pull
// request's metadata).
const OriginFile = "pr.json"

// AfterPacketDiff is the diff of the commits that came after the packet's
// head, when its origin has moved on.
const AfterPacketDiff = "after-packet.diff"

// AfterPacketDoc shows the commits after the packet and their diff as a
// document, so the documents screen lists them as their own entry.
const AfterPacketDoc = "after-packet.md"

// OriginKindPR is the kind of a packet rebuilt from a pull request.
const OriginKindPR = "github-pr"

// Problem codes of a packet with an origin.
const (
	// CodeLogsNotAvailable (info): the registry stands in from the origin's
	// evidence record; the logs themselves are not there to check.
	CodeLogsNotAvailable = "logs-not-available"
	// CodeDiffMismatch (error): the packet folder's change.diff is not the
	// origin's diff at the packet's head.
	CodeDiffMismatch = "packet-diff-mismatch"
	// CodeOriginUnreadable (warning): pr.json could not be read.
	CodeOriginUnreadable = "origin-unreadable"
	// CodeDocumentIgnored (warning): a comment naming a document came from
	// an account that may not supply one (not the PR's author, nor an
	// owner, member or collaborator); the packet does not use it.
	CodeDocumentIgnored = "document-ignored"
	// CodeOriginListCut (warning): a list the origin serves page by page
	// (comments, reviews, threads, check runs) was longer than vetter reads,
	// or its pages led back on themselves; what is shown is its start.
	CodeOriginListCut = "origin-list-cut"
	// CodePRMismatch (warning): change.md names another pull request than
	// the one the packet was read from; vetter uses the pull request's own
	// address for everything it prints or posts.
	CodePRMismatch = "packet-pr-mismatch"
	// CodeCompareFailed (warning): the origin could not give the diff at
	// the packet's head; change.diff is the origin head's diff, and what is
	// anchored to its lines names that commit (DiffSHA).
	CodeCompareFailed = "packet-compare-failed"
	// CodeOriginPending (info): parts of the origin are still being read
	// (Origin.Pending); the gate checks that rest on them are not ready.
	CodeOriginPending = "origin-pending"
)

// The parts of a pull request read behind its first screen (Origin.Pending).
const (
	// PendingCI: the head's check runs, statuses and required checks.
	PendingCI = "ci"
	// PendingThreads: the other reviewers' review threads.
	PendingThreads = "threads"
	// PendingCompare: the PR's commits and the compare at the packet's
	// head (what came after it).
	PendingCompare = "compare"
)

// pendingNames say the parts in the person's words.
var pendingNames = map[string]string{PendingCI: "the head's checks", PendingThreads: "the other reviewers' threads", PendingCompare: "the commits and the compare at the packet's head"}

// ThreadPrefix starts the id of a finding that is another reviewer's thread
// on the origin.
const ThreadPrefix = "thread:"

// OtherReviewers reports whether the finding is another reviewer's thread
// relayed from the origin: context for the reviewer, never a diagnostic of
// vetter's own in an export.
func (f *Finding) OtherReviewers() bool { return strings.HasPrefix(f.ID, ThreadPrefix) }

func init() {
	codeSeverity[CodeLogsNotAvailable] = SevInfo
	codeSeverity[CodeDiffMismatch] = SevError
	codeSeverity[CodeOriginUnreadable] = SevWarning
	codeSeverity[CodeDocumentIgnored] = SevWarning
	codeSeverity[CodeOriginListCut] = SevWarning
	codeSeverity[CodePRMismatch] = SevWarning
	codeSeverity[CodeCompareFailed] = SevWarning
	codeSeverity[CodeOriginPending] = SevInfo
}

// CheckPacketCurrent is the gate check that the packet describes the commit
// that would run, or that the commits after it were reviewed.
const CheckPacketCurrent = "packet-current"

// Origin is what the packet's origin says that the packet's files cannot.
type Origin struct {
	Kind string `json:"kind"`
	// URL, Owner, Repo and Number are the pull request as the person named
	// it and the origin answered for it: everything vetter prints or posts
	// goes there, never where the packet's change.md points.
	URL string `json:"url"`
	// PacketURL is change.md's pull-request address when it names another
	// one (reported as packet-pr-mismatch, and otherwise unused).
	PacketURL string `json:"packet_url,omitempty"`
	Owner     string `json:"owner"`
	Repo      string `json:"repo"`
	Number    int    `json:"number"`
	Title     string `json:"title,omitempty"`
	State     string `json:"state,omitempty"`
	Author    string `json:"author,omitempty"`
	// HeadSHA is the origin's head now; PacketHeadSHA the head the
	// documents describe (change.md).
	HeadSHA            string         `json:"head_sha"`
	BaseSHA            string         `json:"base_sha,omitempty"`
	PacketHeadSHA      string         `json:"packet_head_sha"`
	CommitsAfterPacket []OriginCommit `json:"commits_after_packet"`
	// Commits are the pull request's commits, oldest first: their order
	// says which of two heads is older.
	Commits  []OriginCommit   `json:"commits,omitempty"`
	CI       OriginCI         `json:"ci"`
	OkToTest []OriginOkToTest `json:"ok_to_test"`
	Threads  []OriginThread   `json:"threads,omitempty"`
	// EvidenceRecordOnly: the registry was rebuilt from the evidence record
	// posted on the origin; the logs are not in the packet.
	EvidenceRecordOnly bool `json:"evidence_record_only,omitempty"`
	// DiffNoPatch names files the origin showed no patch for when its diff
	// was too large and was rebuilt file by file.
	DiffNoPatch []string `json:"diff_no_patch,omitempty"`
	// DiffMismatch names the files whose diff in a local packet folder is
	// not the origin's at the packet's head.
	DiffMismatch []string `json:"diff_mismatch,omitempty"`
	// PacketHeadMissing: the origin does not have the packet's head (it
	// was force-pushed away), so what came after cannot be shown.
	PacketHeadMissing bool `json:"packet_head_missing,omitempty"`
	// CompareFailed says why the origin could not give the diff at the
	// packet's head; change.diff is then the origin head's (DiffSHA).
	CompareFailed string `json:"compare_failed,omitempty"`
	// DiffSHA is the commit change.diff shows the change at: the packet's
	// head, or the origin's head when its diff stands in. Anything anchored
	// to change.diff's lines (a review's commit_id) names this commit.
	DiffSHA string `json:"diff_sha,omitempty"`
	// IgnoredDocuments are later comments naming a document ("review.md by
	// someone") from accounts that may not supply one.
	IgnoredDocuments []string `json:"ignored_documents,omitempty"`
	// PacketHeadFrom says what fixed PacketHeadSHA when change.md names
	// none: PacketHeadFromRecord for the evidence record's time.
	PacketHeadFrom string `json:"packet_head_from,omitempty"`
	// Record is the agent's evidence record; Unrecognised the author's
	// comments that look like agent documents in no known shape; Rounds the
	// rounds and status lines posted; ChangeFromDescription: change.md is
	// the PR's description.
	Record                *OriginRecord        `json:"record,omitempty"`
	Unrecognised          []OriginUnrecognised `json:"unrecognised,omitempty"`
	Rounds                []OriginRound        `json:"rounds,omitempty"`
	ChangeFromDescription bool                 `json:"change_from_description,omitempty"`
	// Cut says, a line each, which of the origin's lists were not read to
	// their end.
	Cut []string `json:"cut,omitempty"`
	// Pending names the parts still being read (PendingCI, PendingThreads,
	// PendingCompare): a first screen drawn before them. What rests on a
	// pending part is "not read yet", never "none".
	Pending   []string `json:"pending,omitempty"`
	FetchedAt string   `json:"fetched_at,omitempty"`
}

// IsPending reports whether part (PendingCI...) is still being read.
func (o *Origin) IsPending(part string) bool {
	return o != nil && slices.Contains(o.Pending, part)
}

// DiffNotReadYet is the gate detail of a check that waits for the diff of a
// packet shown before its diff is read (OpenPreview).
const DiffNotReadYet = "not read yet: change.diff is still being read"

// NotReadYet is the gate detail of a check whose part is pending.
func NotReadYet(part string) string {
	return "not read yet: " + pendingNames[part] + " are still being read from GitHub"
}

// OriginCommit is one commit after the packet's head.
type OriginCommit struct {
	SHA     string `json:"sha"`
	Message string `json:"message"`
}

// OriginCI counts the head's checks (check runs and commit statuses, one
// per name) by state; Checks lists them (ci.go).
type OriginCI struct {
	Success int      `json:"success"`
	Failure int      `json:"failure"`
	Skipped int      `json:"skipped"`
	Pending int      `json:"pending"`
	Other   int      `json:"other"`
	Failing []string `json:"failing"`
	// Checks are the head's checks by name, in the order first met.
	Checks []CICheck `json:"checks,omitempty"`
	// RequiredKnown: the base branch's required checks were read (branch
	// protection); without it every failing check counts as required.
	RequiredKnown bool `json:"required_known,omitempty"`
}

// OriginOkToTest is one "/ok to test <sha>" said on the origin by an account
// allowed to vet.
type OriginOkToTest struct {
	SHA     string `json:"sha"`
	By      string `json:"by"`
	At      string `json:"at"`
	Current bool   `json:"current"`
}

// OriginThread is another reviewer's review thread or comment on a line.
type OriginThread struct {
	ID        string `json:"id"`
	Source    string `json:"source"` // the account that opened it
	Path      string `json:"path"`
	Line      int    `json:"line,omitempty"`
	StartLine int    `json:"start_line,omitempty"`
	Resolved  bool   `json:"resolved"`
	// ResolvedBy is the account that resolved it, when known.
	ResolvedBy string        `json:"resolved_by,omitempty"`
	Outdated   bool          `json:"outdated"`
	Body       string        `json:"body"`
	Replies    []OriginReply `json:"replies,omitempty"`
	// Severity, Tags and Badge are what a reviewer's badge line said
	// (severity "unknown" for a badge vetter does not know); Body is then
	// the comment after the badge. "" when the thread has no badge.
	Severity string   `json:"severity,omitempty"`
	Tags     []string `json:"tags,omitempty"`
	Badge    string   `json:"badge,omitempty"`
}

// OriginReply is a reply in a thread.
type OriginReply struct {
	By   string `json:"by"`
	Body string `json:"body"`
}

// Moved reports whether the origin's head is not the packet's.
func (o *Origin) Moved() bool {
	return o != nil && o.PacketHeadSHA != "" && o.HeadSHA != "" && !commitid.Same(o.PacketHeadSHA, o.HeadSHA)
}

// HeadLine says which commit the packet describes against the origin's
// head: "the packet describes ff62a64; the PR head is eececad, 1 commit later".
func (o *Origin) HeadLine() string {
	if o == nil || o.HeadSHA == "" {
		return ""
	}
	if o.PacketHeadSHA == "" {
		return fmt.Sprintf("the packet names no head; the PR head is %s", commitid.Short(o.HeadSHA))
	}
	if !o.Moved() {
		return fmt.Sprintf("the packet describes the PR head %s", commitid.Short(o.HeadSHA))
	}
	if o.PacketHeadMissing {
		return fmt.Sprintf("the packet describes %s, which the repository no longer has (force-pushed away?); the PR head is %s", commitid.Short(o.PacketHeadSHA), commitid.Short(o.HeadSHA))
	}
	n := len(o.CommitsAfterPacket)
	later := "later"
	switch {
	case n == 1:
		later = "1 commit later"
	case n > 1:
		later = fmt.Sprintf("%d commits later", n)
	}
	if o.PacketHeadFrom == PacketHeadFromRecord {
		return o.recordHeadLine(later + ",")
	}
	return fmt.Sprintf("the packet describes %s; the PR head is %s, %s", commitid.Short(o.PacketHeadSHA), commitid.Short(o.HeadSHA), later)
}

// AfterID is the id of the after-packet review item: accepting it records
// that the commits between these two exact heads were reviewed.
func (o *Origin) AfterID() string {
	return "after:" + commitid.Short(o.PacketHeadSHA) + ".." + commitid.Short(o.HeadSHA)
}

// LastOkToTest is the last /ok to test said, or nil.
func (o *Origin) LastOkToTest() *OriginOkToTest {
	if o == nil || len(o.OkToTest) == 0 {
		return nil
	}
	return &o.OkToTest[len(o.OkToTest)-1]
}

// readOrigin reads OriginFile, when the packet has one, and applies what it
// says: the logs an evidence record cannot carry, the diff mismatch, the
// other reviewers' threads as findings, and the after-packet item.
func (p *Packet) readOrigin(root string) {
	data, _, err := source.ReadCapped(p.FS, OriginFile, DocLimit)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if !p.under(root) {
		// What CI said, who said /ok to test and which head the PR is at
		// come from GitHub, never from the packet under review.
		p.problem(CodePacketShipsDecisions, OriginFile, 0, "the packet carries its own "+OriginFile+"; vetter ignores it and reads a pull request's state only from GitHub")
		return
	}
	var o Origin
	if err == nil {
		err = json.Unmarshal(data, &o)
	}
	if err != nil {
		p.problem(CodeOriginUnreadable, OriginFile, 0, fmt.Sprintf("reading %s: %v; the packet is read without what its origin knows", OriginFile, err))
		return
	}
	if o.PacketHeadSHA == "" {
		o.PacketHeadSHA = p.Change.HeadSHA
	}
	p.Origin = &o
	p.applyAgent(&o)
	if o.EvidenceRecordOnly {
		kept := p.Problems[:0]
		for _, pr := range p.Problems {
			if pr.Code != CodeLogMissing {
				kept = append(kept, pr)
			}
		}
		p.Problems = kept
		p.problem(CodeLogsNotAvailable, RegistryFile, 0,
			"the registry is rebuilt from the evidence record posted on the pull request; the logs themselves are not in the PR, so what they say cannot be checked (give --packet DIR to check them)")
	}
	if len(o.DiffMismatch) > 0 {
		p.problem(CodeDiffMismatch, DiffPath, 0, fmt.Sprintf("change.diff is not the pull request's diff at the packet's head for %s: %s",
			text.PluralOf(len(o.DiffMismatch), "file", "files"), strings.Join(o.DiffMismatch, ", ")))
	}
	for _, d := range o.IgnoredDocuments {
		p.problem(CodeDocumentIgnored, OriginFile, 0, "a later comment posts "+d+", an account that is not the PR's author, an owner, a member or a collaborator; it is not used")
	}
	for _, c := range o.Cut {
		p.problem(CodeOriginListCut, OriginFile, 0, c)
	}
	if len(o.Pending) > 0 {
		var parts []string
		for _, part := range o.Pending {
			if n, ok := pendingNames[part]; ok {
				parts = append(parts, n)
			}
		}
		p.problem(CodeOriginPending, OriginFile, 0, "still reading from GitHub: "+strings.Join(parts, ", ")+"; the gate waits for them")
	}
	if o.PacketURL != "" {
		p.problem(CodePRMismatch, ChangeFile, 0, fmt.Sprintf("change.md names %s, but the packet was read from %s; vetter prints and posts only to %s",
			o.PacketURL, o.URL, o.URL))
	}
	if o.CompareFailed != "" {
		p.problem(CodeCompareFailed, DiffPath, 0, fmt.Sprintf("%s; change.diff is the PR head's diff (at %s), and exports anchor to that commit",
			o.CompareFailed, commitid.Short(o.DiffSHA)))
	}
	if len(o.DiffNoPatch) > 0 {
		p.problem(CodeFileTooLarge, DiffPath, 0, fmt.Sprintf("GitHub refused the diff as too large; it was rebuilt file by file, and these files had no patch: %s",
			strings.Join(o.DiffNoPatch, ", ")))
	}
	for _, t := range o.Threads {
		loc := t.Path
		if t.Line > 0 {
			loc = fmt.Sprintf("%s:%d", t.Path, t.Line)
			if t.StartLine > 0 && t.StartLine < t.Line {
				loc = fmt.Sprintf("%s:%d-%d", t.Path, t.StartLine, t.Line)
			}
		}
		var ev []string
		for _, r := range t.Replies {
			ev = append(ev, r.By+": "+text.OneLine(r.Body))
		}
		sev := "thread"
		if t.Severity != "" {
			sev = t.Severity
		}
		f := &Finding{ID: ThreadPrefix + t.ID, Location: loc, Severity: sev, Claim: t.Body,
			Evidence: strings.Join(ev, " / "), Source: t.Source, Resolved: t.Resolved, ResolvedBy: t.ResolvedBy, Outdated: t.Outdated, Tags: t.Tags}
		if t.Path != "" && t.Line > 0 {
			f.Citations = ExtractCitations(loc, OriginFile, 0)
		}
		p.Findings = append(p.Findings, f)
	}
	if o.Moved() {
		var msgs []string
		for _, c := range o.CommitsAfterPacket {
			msgs = append(msgs, commitid.Short(c.SHA)+" "+FirstLine(c.Message))
		}
		where := AfterPacketDiff
		if p.Doc(AfterPacketDoc) != nil {
			where = AfterPacketDoc
		}
		f := &Finding{ID: o.AfterID(), Location: where, Severity: "after-packet",
			Claim:    o.HeadLine() + ": review what came after (" + where + ") and accept this item to record it",
			Evidence: strings.Join(msgs, " / "), Source: "vetter"}
		if where == AfterPacketDoc {
			f.Citations = ExtractCitations(AfterPacketDoc+":1", OriginFile, 0)
		}
		p.Findings = append(p.Findings, f)
	}
}

func FirstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(s)
}

// OkToTestLine says who last said /ok to test and whether it is the head.
func (o *Origin) OkToTestLine() string {
	last := o.LastOkToTest()
	if last == nil {
		return "nobody has said /ok to test"
	}
	s := fmt.Sprintf("last /ok to test %s by %s at %s", commitid.Short(last.SHA), last.By, last.At)
	if last.Current {
		return s + " (the head)"
	}
	return s + " (not the head " + commitid.Short(o.HeadSHA) + ")"
}

// DiffSHA is the commit change.diff shows the change at, which anything
// anchored to its lines (a review's commit_id) names: the origin's word for
// a packet read from a pull request, else change.md's head.
func (p *Packet) DiffSHA() string {
	if p.Origin != nil && commitid.Valid(p.Origin.DiffSHA) {
		return p.Origin.DiffSHA
	}
	return p.Change.HeadSHA
}

// DecisionSHA is the commit a gate decision is for: the origin's head when
// the packet came from a pull request (the commit that would run), else
// change.md's head.
func (p *Packet) DecisionSHA() string {
	if p.Origin != nil && commitid.Valid(p.Origin.HeadSHA) {
		return p.Origin.HeadSHA
	}
	return p.Change.HeadSHA
}

// under reports whether the packet is a folder inside root, both with their
// symbolic links resolved.
func (p *Packet) under(root string) bool {
	if root == "" || p.Source != source.KindDir {
		return false
	}
	real := func(path string) (string, bool) {
		abs, err := filepath.Abs(path)
		if err != nil {
			return "", false
		}
		r, err := filepath.EvalSymlinks(abs)
		return r, err == nil
	}
	r, ok1 := real(root)
	d, ok2 := real(p.Path)
	return ok1 && ok2 && strings.HasPrefix(d, r+string(filepath.Separator))
}
