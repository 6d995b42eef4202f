package packet

import (
	"hash/fnv"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/vetter-dev/vetter/internal/text"
)

// What a reload of a packet needs to know of the load before it: which
// files changed on disk, what changed in the packet, the triage it
// carries over.

// Stamps are the size and modification time of each log and of
// change.diff, taken when a packet is loaded, so a reload can tell which
// changed without holding their bytes.
type Stamps struct {
	Logs map[string]FileStamp
	Diff FileStamp
}

// FileStamp is one file's size and modification time, and a sum of its
// bytes (of its ends, when large).
type FileStamp struct {
	Size int64
	Mod  time.Time
	Sum  uint64 // logSum of the bytes, so a rewrite with the same bytes is no change
}

// Differs reports whether the file changed between the two stamps: a new
// size, or a new time and new bytes. A file written again byte for byte (a
// copy, a checkout) is not reported as changed.
func (a FileStamp) Differs(b FileStamp) bool {
	return a.Size != b.Size || (!a.Mod.Equal(b.Mod) && a.Sum != b.Sum)
}

// StampFiles stats every log of a packet and its diff.
func StampFiles(p *Packet) Stamps {
	out := Stamps{Logs: make(map[string]FileStamp, len(p.Logs))}
	for _, l := range p.Logs {
		st := FileStamp{Size: l.Size}
		if fi, err := fs.Stat(p.FS, l.Path); err == nil {
			st.Size, st.Mod = fi.Size(), fi.ModTime()
			st.Sum = logSum(p.FS, l.Path, st.Size)
		}
		out.Logs[l.Path] = st
	}
	if fi, err := fs.Stat(p.FS, DiffPath); err == nil {
		out.Diff = FileStamp{Size: fi.Size(), Mod: fi.ModTime(), Sum: logSum(p.FS, DiffPath, fi.Size())}
	}
	return out
}

// logSumWhole is the size up to which a file is summed whole; a larger one
// is summed by its first and last logSumEnd bytes, which a log that grew or
// was rewritten differs in, at the cost of one read of each end.
const (
	logSumWhole = 1 << 20
	logSumEnd   = 64 << 10
)

// logSum is an FNV-1a sum of a file's bytes (its ends, when large); 0 when
// it cannot be read, which then counts as a change if the time moved.
func logSum(fsys fs.FS, path string, size int64) uint64 {
	f, err := fsys.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	h := fnv.New64a()
	if size <= logSumWhole {
		if _, err := io.Copy(h, f); err != nil {
			return 0
		}
		return h.Sum64()
	}
	ra, ok := f.(io.ReaderAt)
	if !ok {
		return 0
	}
	buf := make([]byte, logSumEnd)
	for _, off := range []int64{0, size - logSumEnd} {
		n, err := ra.ReadAt(buf, off)
		if err != nil && err != io.EOF {
			return 0
		}
		h.Write(buf[:n])
	}
	return h.Sum64()
}

// StaleCount counts the findings whose decision was made on another text.
func StaleCount(p *Packet) int {
	n := 0
	for _, f := range p.Findings {
		if _, stale, _ := p.TriageOf(f); stale {
			n++
		}
	}
	return n
}

// CarryTriage gives a reloaded packet the decisions of the one it replaces
// until its store is opened (in a command) and reads them from the
// reviewer's state; a finding whose text changed shows its decision stale.
func CarryTriage(old, cur *Packet) {
	if old.Triage == nil || (len(old.Triage.Findings) == 0 && old.Triage.Gate == nil) {
		return
	}
	if cur.Triage != nil && (len(cur.Triage.Findings) > 0 || cur.Triage.Gate != nil) {
		return
	}
	st := old.Triage.clone()
	st.Where = ""
	if cur.Triage != nil {
		st.Where = cur.Triage.Where
	}
	cur.Triage = st
}

// DescribeReload says what differs between two loads of one packet, for a
// status line: "reloaded: review.md and 2 logs changed", and false when
// nothing does. Documents, the diff and the registry's runs are what
// Compare says of them (the one answer to "what changed", also behind
// vetter compare and the since screen); the diff counts as changed too
// when its size did, and the logs, whose bytes are not held, by their
// stamps.
func DescribeReload(old, cur *Packet, oldSt, curSt Stamps) (string, bool) {
	c := Compare(old, cur)
	var changed, added, removed []string
	for _, d := range c.Documents {
		switch d.Status {
		case DocAdded:
			added = append(added, d.Path)
		case DocRemoved:
			removed = append(removed, d.Path)
		default:
			changed = append(changed, d.Path)
		}
	}
	ch := c.Change
	switch {
	case old.Diff == nil && cur.Diff != nil:
		added = append(added, DiffPath)
	case old.Diff != nil && cur.Diff == nil:
		removed = append(removed, DiffPath)
	case old.Diff != nil && (ch.Added+ch.Removed+ch.Altered > 0 || oldSt.Diff.Size != curSt.Diff.Size):
		changed = append(changed, DiffPath)
	}
	// A registry that is new says so by its runs' logs; one whose runs
	// were added, changed or removed is named with how many.
	if reg := c.Registry; old.Registry.Present || !cur.Registry.Present {
		var parts []string
		for _, p := range []struct {
			n    int
			what string
		}{{len(reg.Added), "added"}, {len(reg.Changed), "changed"}, {len(reg.Removed), "removed"}} {
			if p.n > 0 {
				parts = append(parts, text.PluralOf(p.n, "run", "runs")+" "+p.what)
			}
		}
		if len(parts) > 0 {
			changed = append(changed, "the registry ("+strings.Join(parts, ", ")+")")
		}
	}
	logsChanged, logsAdded, logsRemoved := 0, 0, 0
	for path, st := range curSt.Logs {
		o, ok := oldSt.Logs[path]
		switch {
		case !ok:
			logsAdded++
		case o.Differs(st):
			logsChanged++
		}
	}
	for path := range oldSt.Logs {
		if _, ok := curSt.Logs[path]; !ok {
			logsRemoved++
		}
	}
	if logsChanged > 0 {
		changed = append(changed, text.PluralOf(logsChanged, "log", "logs"))
	}
	if logsAdded > 0 {
		added = append(added, text.PluralOf(logsAdded, "log", "logs"))
	}
	if logsRemoved > 0 {
		removed = append(removed, text.PluralOf(logsRemoved, "log", "logs"))
	}
	var parts []string
	for _, p := range []struct {
		items []string
		what  string
	}{{changed, "changed"}, {added, "added"}, {removed, "removed"}} {
		if len(p.items) > 0 {
			parts = append(parts, joinAnd(p.items)+" "+p.what)
		}
	}
	if len(parts) == 0 {
		return "", false
	}
	return "reloaded: " + strings.Join(parts, "; "), true
}
