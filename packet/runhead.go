package packet

import (
	"fmt"
	"io"
	"strings"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/internal/text"
)

// Where a run's head was learnt (RunHead's source).
const (
	HeadFromRegistry  = "registry"
	HeadFromLog       = "log"
	HeadFromFirstSeen = "first seen"
)

const (
	// logHeadWindow is how much of each end of a log is searched for a head
	// SHA: a run prints its checkout near the start (git rev-parse HEAD, a
	// checkout message) or in a closing summary, and logs run to gigabytes.
	logHeadWindow = 64 << 10
	// maxLogWords bounds the distinct hex words kept per log, so a window of
	// hex dump costs memory in proportion to the window, not worse.
	maxLogWords = 4096
	// Hex words of these lengths can be commit ids: git's shortest
	// abbreviation and a full SHA-1.
	minSHAWord, maxSHAWord = 7, 40
)

// RunHead is the commit a registry run tested and how that is known, first
// found of:
//
//   - "registry": the run's head_sha field;
//   - "log": a SHA printed in the first or last 64 KiB of its log that names
//     (as a prefix of at least 7 digits, either way round) the packet's head
//     or an earlier round's head;
//   - "first seen": the head of the round in which vetter first saw the run.
//
// It returns "", "" when nothing tells. A log naming one known head tested
// that head. A log naming several is a listing (git log prints ancestors,
// git fetch prints what arrived), so it does not say on its own which one was
// checked out: the head of the round vetter first saw the run in is taken
// when the log names it, else the newest head the log names, since a run can
// print commits that existed when it ran but none made later.
func (p *Packet) RunHead(r *Run) (sha, source string) {
	if r == nil {
		return "", ""
	}
	if r.HeadSHA != "" {
		return r.HeadSHA, HeadFromRegistry
	}
	// Only the log's words are cached (on the Log): what they are matched
	// against is read afresh, since the store may fill History at any time,
	// and matching costs microseconds.
	first, seen := p.History.FirstSeenHead(RunKey(r))
	// Every head RunHead returns is a hex SHA: it is drawn on screen and
	// written into the gate's message.
	seen = seen && commitid.Valid(first)
	named := p.namedHeads(r, p.knownHeads())
	switch {
	case len(named) == 1:
		return named[0], HeadFromLog
	case len(named) > 1:
		for _, n := range named {
			if seen && commitid.Same(n, first) {
				return n, HeadFromLog
			}
		}
		return named[len(named)-1], HeadFromLog
	case seen:
		return first, HeadFromFirstSeen
	}
	return "", ""
}

// IsHead reports whether sha names the packet's head: equal, or one a
// prefix of the other of at least 7 digits.
func (p *Packet) IsHead(sha string) bool {
	return sha != "" && p.Change.HeadSHA != "" && commitid.Same(sha, p.Change.HeadSHA)
}

// knownHeads are the heads a log's SHAs are matched against, oldest first:
// every round's, then the packet's own when History does not end with it.
func (p *Packet) knownHeads() []string {
	var out []string
	for _, h := range p.History.Heads() {
		if commitid.Valid(h) {
			out = append(out, h)
		}
	}
	if h := p.Change.HeadSHA; commitid.Valid(h) && (len(out) == 0 || !commitid.Same(out[len(out)-1], h)) {
		out = append(out, h)
	}
	return out
}

// namedHeads are the known heads the run's log names, oldest first.
func (p *Packet) namedHeads(r *Run, heads []string) []string {
	if r.Log == "" || len(heads) == 0 {
		return nil
	}
	l := p.Log(r.Log)
	if l == nil {
		return nil
	}
	words := l.headWords()
	var named []string
	for _, h := range heads {
		for _, w := range words {
			if commitid.Same(w, h) {
				named = append(named, h)
				break
			}
		}
	}
	return named
}

// headWords are the log's hex words (logHexWords), found on first use:
// a log does not change once opened.
func (l *Log) headWords() []string {
	l.hexOnce.Do(func() { l.hexWords = logHexWords(l) })
	return l.hexWords
}

// logHexWords reads at most logHeadWindow bytes from each end of a log and
// returns the distinct hex words of 7 to 40 digits in them, lower-cased. An
// unreadable log has none: RunHead then falls back to what else it knows.
func logHexWords(l *Log) []string {
	if l == nil || l.r == nil || l.Size <= 0 {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	add := func(w string) {
		if len(out) < maxLogWords && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	if l.Size <= 2*logHeadWindow {
		if buf, ok := readLogAt(l, 0, l.Size); ok {
			hexWords(buf, false, false, add)
		}
		return out
	}
	if buf, ok := readLogAt(l, 0, logHeadWindow); ok {
		hexWords(buf, false, true, add)
	}
	if buf, ok := readLogAt(l, l.Size-logHeadWindow, logHeadWindow); ok {
		hexWords(buf, true, false, add)
	}
	return out
}

func readLogAt(l *Log, off, n int64) ([]byte, bool) {
	buf := make([]byte, n)
	k, err := l.r.ReadAt(buf, off)
	if err != nil && err != io.EOF {
		return nil, false
	}
	return buf[:k], true
}

// hexWords calls add with every word of buf (a run of ASCII letters and
// digits) that is all hex and 7 to 40 long, lower-cased. cutStart and cutEnd
// say the window was cut there, so a word touching that edge may be part of
// a longer one and is skipped.
func hexWords(buf []byte, cutStart, cutEnd bool, add func(string)) {
	alnum := func(b byte) bool {
		return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
	}
	for i := 0; i < len(buf); {
		if !alnum(buf[i]) {
			i++
			continue
		}
		j, hex := i, true
		for j < len(buf) && alnum(buf[j]) {
			b := buf[j] | 0x20
			hex = hex && (b >= '0' && b <= '9' || b >= 'a' && b <= 'f')
			j++
		}
		cut := (i == 0 && cutStart) || (j == len(buf) && cutEnd)
		if n := j - i; hex && !cut && n >= minSHAWord && n <= maxSHAWord {
			add(strings.ToLower(string(buf[i:j])))
		}
		i = j
	}
}

// evidenceCurrent is the evidence-current gate check: the run that decides
// each recipe's status must have tested the head. A run shown to be for
// another head fails it; a run nothing tells about does not, and the detail
// says so.
func (p *Packet) evidenceCurrent() (bool, string) {
	if p.Change.HeadSHA == "" {
		return true, "the head is unknown, so no run can be compared with it"
	}
	var stale []string // SHAs in the order first met
	bySHA := map[string][]string{}
	runs, current, unknown := 0, 0, 0
	for _, row := range p.Evidence.Rows {
		if row.Latest == nil {
			continue // nothing decides the row; evidence-complete says so
		}
		runs++
		sha, _ := p.RunHead(row.Latest)
		switch {
		case sha == "":
			unknown++
		case p.IsHead(sha):
			current++
		default:
			short := strings.ToLower(sha[:min(len(sha), 7)])
			if _, ok := bySHA[short]; !ok {
				stale = append(stale, short)
			}
			bySHA[short] = append(bySHA[short], row.Recipe)
		}
	}
	if len(stale) > 0 {
		var parts []string
		for _, s := range stale {
			parts = append(parts, joinAnd(bySHA[s])+" last ran on "+s)
		}
		head := p.Change.HeadSHA
		return false, strings.Join(parts, "; ") + "; the head is " + strings.ToLower(head[:min(len(head), 7)])
	}
	switch {
	case runs == 0:
		return true, "no recipe has a run to check"
	case unknown == 0:
		return true, fmt.Sprintf("%d/%d runs tested the head", current, runs)
	case current == 0:
		return true, fmt.Sprintf("could not tell which head %s tested", text.PluralOf(unknown, "run", "runs"))
	}
	return true, fmt.Sprintf("%d/%d runs tested the head; could not tell for %d", current, runs, unknown)
}

// joinAnd lists names as people write them: "a", "a and b", "a, b and c".
func joinAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
