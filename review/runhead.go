package review

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/packet"
)

// How a run's head is proven (RunHead's source).
const (
	HeadFromRegistry = "registry"
	HeadFromLog      = "log"
	// HeadFromOlderRound: the run appears unchanged (same recipe, command,
	// start and log content) in the registry of an older round, so it ran on
	// that round's head or before.
	HeadFromOlderRound = "older round"
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

// RunHead is the commit a registry run is proven to have tested and how,
// first found of:
//
//   - "registry": the run's head_sha field;
//   - "log": a SHA printed in the first or last 64 KiB of its log that names
//     (as a prefix of at least 7 digits, either way round) a head of this
//     work item: the packet's, a round's vetter has seen, a commit of the
//     pull request. A log naming several is a listing (git log prints
//     ancestors), so the newest of them is taken, when their order is known;
//   - "older round": the run appears unchanged in the registry of a round
//     known to be older than this one, so it ran on that round's head (or
//     before it).
//
// It returns "", "" when nothing proves it: the run rests on the packet's
// word. What is proven depends only on what vetter knows (the rounds seen,
// the origin), never on the order it learnt it.
func RunHead(p *packet.Packet, r *packet.Run) (sha, source string) {
	if r == nil {
		return "", ""
	}
	if r.HeadSHA != "" {
		return r.HeadSHA, HeadFromRegistry
	}
	// Every head RunHead returns is a hex SHA: it is drawn on screen and
	// written into the gate's message.
	if named := namedHeads(p, r, knownHeads(p)); len(named) > 0 {
		if h, ok := newestHead(p, named); ok {
			return h, HeadFromLog
		}
	}
	if h, ok := olderRoundWith(p, RunContentKey(p, r)); ok {
		return h, HeadFromOlderRound
	}
	return "", ""
}

// IsHead reports whether sha names the packet's head: equal, or one a
// prefix of the other of at least 7 digits.
func IsHead(p *packet.Packet, sha string) bool {
	return sha != "" && p.Change.HeadSHA != "" && commitid.Same(sha, p.Change.HeadSHA)
}

// knownHeads are the heads of this work item a log's SHAs are matched
// against: the packet's own, every round's vetter has seen, and the pull
// request's commits. Their order here means nothing (newestHead orders).
func knownHeads(p *packet.Packet) []string {
	var out []string
	add := func(h string) {
		if !commitid.Valid(h) {
			return
		}
		for _, o := range out {
			if commitid.Same(o, h) {
				return
			}
		}
		out = append(out, h)
	}
	add(p.Change.HeadSHA)
	for _, h := range p.History.Heads() {
		add(h)
	}
	if p.Origin != nil {
		for _, c := range p.Origin.Commits {
			add(c.SHA)
		}
		add(p.Origin.HeadSHA)
	}
	return out
}

// newestHead is the newest of heads when their order is known: one head is
// itself; several are ordered by the pull request's commits, else by the
// rounds' registries (olderHead). A set without a single newest is unknown.
func newestHead(p *packet.Packet, heads []string) (string, bool) {
	for _, h := range heads {
		newest := true
		for _, o := range heads {
			if o == h {
				continue
			}
			if older, known := olderHead(p, o, h); !known || !older {
				newest = false
				break
			}
		}
		if newest {
			return h, true
		}
	}
	return "", false
}

// olderHead reports whether head a is older than head b, and whether that
// is known: from the pull request's commits (their order), else from the
// rounds' registries, one round's registry holding all of the other's runs
// and more.
func olderHead(p *packet.Packet, a, b string) (older, known bool) {
	if o := p.Origin; o != nil {
		ia, ib := -1, -1
		for i, c := range o.Commits {
			if commitid.Same(c.SHA, a) {
				ia = i
			}
			if commitid.Same(c.SHA, b) {
				ib = i
			}
		}
		if ia >= 0 && ib >= 0 {
			return ia < ib, true
		}
	}
	ra, rb := registryOf(p, a), registryOf(p, b)
	if ra == nil || rb == nil {
		return false, false
	}
	switch {
	case strictSubset(ra, rb):
		return true, true
	case strictSubset(rb, ra):
		return false, true
	}
	return false, false
}

// registryOf is the content keys of the registry of the round with this
// head: the packet's own for its head, else the round's recorded ones; nil
// when vetter does not know them.
func registryOf(p *packet.Packet, head string) map[string]bool {
	if IsHead(p, head) {
		return contentKeys(p)
	}
	if p.History == nil {
		return nil
	}
	for _, r := range p.History.Rounds {
		if commitid.Same(r.Head, head) && r.Registry != nil {
			m := make(map[string]bool, len(r.Registry))
			for _, k := range r.Registry {
				m[k] = true
			}
			return m
		}
	}
	return nil
}

func strictSubset(a, b map[string]bool) bool {
	if len(a) >= len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// olderRoundWith is the head of the oldest round, older than this packet,
// whose registry holds a run with this content key: the run ran on that
// head or before it.
func olderRoundWith(p *packet.Packet, key string) (string, bool) {
	if p.History == nil || !commitid.Valid(p.Change.HeadSHA) {
		return "", false
	}
	best := ""
	for _, r := range p.History.Rounds {
		if !commitid.Valid(r.Head) || IsHead(p, r.Head) || !slices.Contains(r.Registry, key) {
			continue
		}
		if older, known := olderHead(p, r.Head, p.Change.HeadSHA); !known || !older {
			continue
		}
		if best == "" {
			best = r.Head
		} else if older, known := olderHead(p, r.Head, best); known && older {
			best = r.Head
		}
	}
	return best, best != ""
}

// contentKeys are the content keys of the packet's registry runs.
func contentKeys(p *packet.Packet) map[string]bool {
	m := make(map[string]bool, len(p.Registry.Runs))
	for _, r := range p.Registry.Runs {
		m[RunContentKey(p, r)] = true
	}
	return m
}

// RegistryKeys are the content keys of the packet's registry runs, in
// registry order, as a round records them.
func RegistryKeys(p *packet.Packet) []string {
	out := make([]string, 0, len(p.Registry.Runs))
	for _, r := range p.Registry.Runs {
		out = append(out, RunContentKey(p, r))
	}
	return out
}

// RunContentKey identifies a run by what it is: its recipe, command, start
// and the content of its log (its size and the two ends RunHead reads). A
// run carried unchanged into a later round's registry keeps it; a re-run,
// or a log rewritten, does not.
func RunContentKey(p *packet.Packet, r *packet.Run) string {
	h := sha256.New()
	for _, part := range []string{r.Recipe, r.Command, r.StartedAt, r.Log} {
		h.Write([]byte(strings.TrimSpace(part)))
		h.Write([]byte{0})
	}
	if r.Log != "" {
		if l := p.Log(r.Log); l != nil {
			h.Write([]byte(contentDigest(l)))
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// contentDigest is a digest of the log's size and two ends, found once.
func contentDigest(l *packet.Log) string {
	l.DigestOnce.Do(func() {
		h := sha256.New()
		fmt.Fprintf(h, "%d\x00", l.Size)
		if l.R != nil && l.Size > 0 {
			n := min(l.Size, logHeadWindow)
			if buf, ok := readLogAt(l, 0, n); ok {
				h.Write(buf)
			}
			if l.Size > logHeadWindow {
				if buf, ok := readLogAt(l, max(n, l.Size-logHeadWindow), min(logHeadWindow, l.Size-n)); ok {
					h.Write(buf)
				}
			}
		}
		l.Digest = hex.EncodeToString(h.Sum(nil))
	})
	return l.Digest
}

// namedHeads are the known heads the run's log names, oldest first.
func namedHeads(p *packet.Packet, r *packet.Run, heads []string) []string {
	if r.Log == "" || len(heads) == 0 {
		return nil
	}
	l := p.Log(r.Log)
	if l == nil {
		return nil
	}
	words := headWords(l)
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
func headWords(l *packet.Log) []string {
	l.HexOnce.Do(func() { l.HexWords = logHexWords(l) })
	return l.HexWords
}

// logHexWords reads at most logHeadWindow bytes from each end of a log and
// returns the distinct hex words of 7 to 40 digits in them, lower-cased. An
// unreadable log has none: RunHead then falls back to what else it knows.
func logHexWords(l *packet.Log) []string {
	if l == nil || l.R == nil || l.Size <= 0 {
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

func readLogAt(l *packet.Log, off, n int64) ([]byte, bool) {
	buf := make([]byte, n)
	k, err := l.R.ReadAt(buf, off)
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
// each recipe's status must have tested the head. A run proven to be for
// another head fails it; a run nothing proves does not, and the detail says
// how many rest on the packet's word. proven is false when the check holds
// without a proof: a run on the packet's word, no head or no run to compare.
func evidenceCurrent(p *packet.Packet) (ok, proven bool, detail string) {
	if p.Change.HeadSHA == "" {
		return true, false, "the head is unknown, so no run can be compared with it"
	}
	var stale []string // SHAs in the order first met
	bySHA := map[string][]string{}
	runs, current, unknown := 0, 0, 0
	for _, row := range p.Evidence.Rows {
		if row.Latest == nil {
			continue // nothing decides the row; evidence-complete says so
		}
		runs++
		sha, _ := RunHead(p, row.Latest)
		switch {
		case sha == "":
			unknown++
		case IsHead(p, sha):
			current++
		default:
			short := commitid.Short(strings.ToLower(sha))
			if _, ok := bySHA[short]; !ok {
				stale = append(stale, short)
			}
			bySHA[short] = append(bySHA[short], row.Recipe)
		}
	}
	head := commitid.Short(strings.ToLower(p.Change.HeadSHA))
	if len(stale) > 0 {
		var parts []string
		for _, s := range stale {
			parts = append(parts, packet.JoinAnd(bySHA[s])+" last ran on "+s)
		}
		return false, true, strings.Join(parts, "; ") + "; the head is " + head
	}
	switch {
	case runs == 0:
		return true, false, "no recipe has a run to check"
	case unknown == 0:
		return true, true, fmt.Sprintf("%d/%d runs tested the head", current, runs)
	}
	return true, false, fmt.Sprintf("%d of %d proven on %s; %d on the packet's word", current, runs, head, unknown)
}
