package packet

import (
	"fmt"

	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet/source"
)

// The bounds on what vetter reads of a packet. Each is chosen from what a
// person can review, not from what a machine can hold: past them the
// packet is not something a reviewer could have read whole, so vetter
// shows the first part, says how much more there was, and keeps working
// within its first-screen and memory budgets.
const (
	// MaxFindings is how many findings of a review are read. Triaging one
	// takes a person at least half a minute (read the claim, open its
	// citation, decide); 2,000 is two full working days of nothing else, and
	// forty times the largest review an agent has posted on a real pull
	// request. The rows past it are counted, not parsed.
	MaxFindings = 2_000
	// MaxCitationsPerFinding is how many places one finding's cells may
	// cite. A claim that needs more than 20 places to check is not checked
	// place by place; the rest are counted.
	MaxCitationsPerFinding = 20
	// MaxCitationsPerDocument is how many citations of one document are
	// resolved against the diff and the packet's files: ten for each
	// finding a review may hold, and far past any real document.
	MaxCitationsPerDocument = 20_000
	// MaxLineBytes is how much of one line of a document or of the diff is
	// kept: 64 KiB is some 500 screens of a 132-column terminal, past what
	// anyone scrolls sideways through, while generated tables and minified
	// bundles still show their start. The rest of the line is dropped while
	// reading, so a 200 MB line never sits in memory.
	MaxLineBytes = 64 << 10
	// MaxDocumentLines is how many lines of one document are read: 50,000
	// lines is a thousand printed pages, more than anyone reads to review
	// one change, and reading no further keeps the first screen of a
	// million-row review within its budget.
	MaxDocumentLines = 50_000
)

// The problem codes of the bounds (PACKET.md, "Problems").
const (
	// CodeTooManyFindings: the review holds more findings rows than
	// MaxFindings; the rest are not read, so the review cannot be triaged
	// whole. An error: the gate cannot say every finding was decided.
	CodeTooManyFindings = "too-many-findings"
	// CodeTooManyCitations: a finding or a document cites more places than
	// vetter resolves; the rest are not checked.
	CodeTooManyCitations = "too-many-citations"
	// CodeLineTooLong: lines longer than MaxLineBytes were cut while reading.
	CodeLineTooLong = "line-too-long"
	// CodeTooManyLines: a document has more than MaxDocumentLines lines;
	// the rest is not read.
	CodeTooManyLines = "too-many-lines"
)

// DocLimit caps a document read whole into memory.
const DocLimit = 64 << 20

// cutLinesProblem is the one problem that says which lines of a file were
// cut, however many there were.
func cutLinesProblem(file string, cuts []source.CutLine) (Problem, bool) {
	if len(cuts) == 0 {
		return Problem{}, false
	}
	var most int64
	for _, c := range cuts {
		most = max(most, c.Dropped)
	}
	first := cuts[0]
	msg := fmt.Sprintf("line %d is longer than %s; %s of it was cut while reading and is not shown or checked",
		first.Line, text.Bytes(MaxLineBytes), text.Bytes(first.Dropped))
	if len(cuts) > 1 {
		msg = fmt.Sprintf("%s lines are longer than %s (the first at line %d, the longest %s past it); the rest of each was cut while reading and is not shown or checked",
			text.Thousands(int64(len(cuts))), text.Bytes(MaxLineBytes), first.Line, text.Bytes(most))
	}
	return NewProblem(CodeLineTooLong, file, first.Line, msg), true
}

// Aggregate folds problems that say the same thing many times into one: when
// more than keep problems share a key (group, or code and file when group
// is nil), the first keep stay and one more says how many others there
// were, in the words of say (given the count of the rest and the first one
// left out). Order is kept otherwise.
func Aggregate(probs []Problem, keep int, group func(Problem) string, say func(code string, rest int, first Problem) string) []Problem {
	if group == nil {
		group = func(p Problem) string { return p.Code + "\x00" + p.File }
	}
	count := map[string]int{}
	for _, p := range probs {
		count[group(p)]++
	}
	out := make([]Problem, 0, min(len(probs), 64))
	seen := map[string]int{}
	for _, p := range probs {
		k := group(p)
		seen[k]++
		switch n := seen[k]; {
		case n <= keep:
			out = append(out, p)
		case n == keep+1:
			rest := count[k] - keep
			q := p
			q.Message = say(p.Code, rest, p)
			out = append(out, q)
		}
	}
	return out
}

// sourceCodes are the problem codes of what reading the source refused or
// cut.
var sourceCodes = map[source.Trouble]string{
	source.Unsafe:     CodeArchiveUnsafeEntry,
	source.OverLimit:  CodeArchiveLimit,
	source.Cut:        CodeFileTooLarge,
	source.Unreadable: CodeUnreadableFile,
}

// sourceProblems are the problems of reading the source, in the packet's
// codes. A crafted archive can make one complaint thousands of times over:
// the first 20 of each code are kept and one more says how many others
// there were.
func sourceProblems(src []source.Problem) []Problem {
	if len(src) == 0 {
		return nil
	}
	probs := make([]Problem, len(src))
	for i, pr := range src {
		probs[i] = NewProblem(sourceCodes[pr.Trouble], pr.File, 0, pr.Message)
	}
	return Aggregate(probs, 20, func(pr Problem) string { return pr.Code },
		func(code string, rest int, first Problem) string {
			return fmt.Sprintf("%s more archive entries with this problem (%s), the first %s", text.Thousands(int64(rest)), code, first.File)
		})
}
