package packet

import (
	"hash/fnv"
	"io"
	"io/fs"
	"time"
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
