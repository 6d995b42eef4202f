package packet

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/vetter-dev/vetter/packet/source"
)

// Limits and granularity of log reading. A log may be gigabytes with lines
// of hundreds of megabytes; vetter never holds it whole.
const (
	// LineCap bounds one line returned by ReadLines; a longer line is cut
	// there (at a rune boundary) and ends with the marker described at
	// ReadLines. ReadLineSlice reaches the rest.
	LineCap = 1 << 20
	// LogMemLimit caps a log that has to be decompressed into memory (a
	// compressed zip entry); a longer one is cut and reported file-too-large.
	LogMemLimit = 256 << 20
	// checkpointEvery is the sparse index step: one offset every N lines.
	checkpointEvery = 256
	// logBlock is the read size for indexing and searching.
	logBlock = 1 << 20
	// exitTail is how much of the end of a log is read for its exit line.
	exitTail = 8 << 10
)

// Log is one validation log, opened for on-demand reading. Its methods are
// safe for concurrent use: a background Index may run while the UI reads.
type Log struct {
	Path string // packet-relative
	Size int64  // bytes readable (less than the file when Truncated)
	// Exit is the recorder's closing line, or nil. Exit.Line is filled when the
	// index completes (at once for a log shorter than the tail read); read it
	// after Indexed reports true, which orders it after the write.
	Exit *ExitLine
	// Truncated is set when only the first Size bytes could be held (a log
	// inside a compressed archive, cut at a memory cap).
	Truncated bool
	// Problems found opening the log: file-too-large when a compressed zip
	// entry was cut at LogMemLimit. (A .tar.gz entry cut while the archive was
	// opened is reported in the source's Problems instead.)
	Problems []Problem

	R      io.ReaderAt
	closer io.Closer

	run sync.Mutex // one Index at a time; a cancelled one resumes where it stopped

	mu        sync.Mutex
	ckpts     []int64 // ckpts[k] is the byte offset of line k*checkpointEvery+1
	scanned   int64   // bytes indexed
	newlines  int     // "\n" in the first scanned bytes
	lastByte  byte    // the last byte scanned
	done      bool
	exitTrail int // lines after the exit line (blank), to place it once counted

	// hexWords are the hex words at the log's two ends, found once for
	// RunHead (runhead.go).
	HexOnce  sync.Once
	HexWords []string
	// digest is a digest of its size and two ends (contentDigest).
	DigestOnce sync.Once
	Digest     string
}

// ExitLine is the recorder's closing "[exit N after S s]" line.
type ExitLine struct {
	Code    int
	Seconds float64 // 0 when the line gives no duration
	Line    int     // 1-based line number in the log; 0 when not yet known
	Text    string
}

var errLogClosed = errors.New("log is not open")

// logMemLimit is LogMemLimit, lowered by tests.
var logMemLimit int64 = LogMemLimit

// OpenLog opens a log inside the packet for on-demand reading; it reads only
// the tail, for the exit line. A name that is absolute, has "..", or leads
// outside the packet through a symbolic link fails with an error wrapping
// source.ErrOutsidePacket; a missing one with fs.ErrNotExist.
func OpenLog(src *source.Source, name string) (*Log, error) {
	if source.Outside(name) {
		return nil, fmt.Errorf("opening log %s: %w", name, source.ErrOutsidePacket)
	}
	clean := path.Clean(strings.TrimPrefix(name, "./"))
	if name == "" || !fs.ValidPath(clean) {
		return nil, fmt.Errorf("opening log %q: %w", name, fs.ErrInvalid)
	}
	f, err := src.FS.Open(clean)
	if err != nil {
		return nil, fmt.Errorf("opening log %s: %w", name, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("opening log %s: %w", name, err)
	}
	if fi.IsDir() {
		f.Close()
		return nil, fmt.Errorf("opening log %s: is a directory", name)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("opening log %s: %w", name, source.ErrSpecialFile)
	}
	l := &Log{Path: clean, Size: max(fi.Size(), 0), ckpts: []int64{0}}
	// The source's Problems already say so (file-too-large), once.
	l.Truncated = source.Truncated(fi)
	if ra, ok := f.(io.ReaderAt); ok {
		l.R, l.closer = ra, f
	} else {
		// No random access (a compressed zip entry): hold it in memory,
		// capped per log and, through the archive's budget, for all of them.
		data, err := source.ReadBlocks(io.LimitReader(f, logMemLimit+1))
		f.Close()
		spent := errors.Is(err, source.ErrInflateBudget)
		if err != nil && !spent {
			return nil, fmt.Errorf("reading log %s: %w", name, err)
		}
		switch {
		case data.Size() > logMemLimit:
			data.Cut(logMemLimit)
			l.Truncated = true
			l.Problems = append(l.Problems, NewProblem(CodeFileTooLarge, clean, 0,
				fmt.Sprintf("%s expands to more than %d MiB from the archive; only the first %d MiB are shown",
					clean, logMemLimit>>20, logMemLimit>>20)))
		case spent:
			l.Truncated = true
			l.Problems = append(l.Problems, NewProblem(CodeArchiveLimit, clean, 0,
				fmt.Sprintf("%s: the archive's files together expand to more than %d MiB; only the first %d bytes of this log are shown",
					clean, source.MemLimit>>20, data.Size())))
		}
		l.R = data
		l.Size = data.Size()
	}
	if err := l.readExit(); err != nil {
		l.Close()
		return nil, fmt.Errorf("reading the end of log %s: %w", name, err)
	}
	return l, nil
}

// Close releases the log's file.
func (l *Log) Close() error {
	l.mu.Lock()
	c := l.closer
	l.closer = nil
	l.mu.Unlock()
	if c != nil {
		return c.Close()
	}
	return nil
}

// exitRe matches "[exit N]", "[exit N after S s]" and "[exit N after Ss]".
var exitRe = regexp.MustCompile(`^\[exit\s+(-?\d{1,10})(?:\s+after\s+(\d+(?:\.\d+)?)\s*s)?\]$`)

// ParseExitLine parses one line as the recorder's exit line.
func ParseExitLine(line string) (*ExitLine, bool) {
	t := strings.TrimSpace(line)
	m := exitRe.FindStringSubmatch(t)
	if m == nil {
		return nil, false
	}
	code, err := strconv.Atoi(m[1])
	if err != nil || code != int(int32(code)) {
		return nil, false
	}
	e := &ExitLine{Code: code, Text: t}
	if m[2] != "" {
		e.Seconds, _ = strconv.ParseFloat(m[2], 64)
	}
	return e, true
}

// readExit looks at the last non-empty line of the tail only.
func (l *Log) readExit() error {
	if l.Size == 0 {
		return nil
	}
	// One byte more than the tail, so a line starting exactly at the tail's
	// edge is known to be whole.
	off := max(l.Size-exitTail-1, 0)
	buf := make([]byte, l.Size-off)
	if _, err := l.R.ReadAt(buf, off); err != nil && err != io.EOF {
		return err
	}
	lines := strings.Split(string(buf), "\n")
	if buf[len(buf)-1] == '\n' {
		lines = lines[:len(lines)-1]
	}
	first := 0
	if off > 0 {
		first = 1 // possibly part of a longer line
	}
	for i := len(lines) - 1; i >= first; i-- {
		if strings.TrimSpace(lines[i]) == "" {
			continue
		}
		e, ok := ParseExitLine(lines[i])
		if !ok {
			return nil
		}
		l.exitTrail = len(lines) - 1 - i
		if off == 0 {
			e.Line = i + 1
		}
		l.Exit = e
		return nil
	}
	return nil
}

// Indexed reports whether the line index is complete.
func (l *Log) Indexed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.done
}

// LineCount is the number of lines: a final line without "\n" counts, an
// empty log has none. Before the index completes it is the lines seen so far.
func (l *Log) LineCount() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lineCountLocked()
}

func (l *Log) lineCountLocked() int {
	n := l.newlines
	if l.done && l.Size > 0 && l.lastByte != '\n' {
		n++
	}
	return n
}

// LineBytes estimates the log's bytes per line: from what the index has
// counted once that is a thousand lines, else from its first 64 KiB.
func (l *Log) LineBytes() int64 {
	l.mu.Lock()
	scanned, n := l.scanned, l.newlines
	l.mu.Unlock()
	if n >= 1000 {
		return max(1, scanned/int64(n))
	}
	if l.R == nil || l.Size == 0 {
		return 1
	}
	buf := make([]byte, min(l.Size, 64<<10))
	k, _ := l.R.ReadAt(buf, 0)
	if lines := bytes.Count(buf[:k], []byte{'\n'}); lines > 0 {
		return max(1, int64(k)/int64(lines))
	}
	return l.Size // one long line, as far as the sample shows
}

// Indexing reports whether an Index call is running on the log (another
// one would wait for it).
func (l *Log) Indexing() bool {
	if l.run.TryLock() {
		l.run.Unlock()
		return false
	}
	return true
}

// Index builds the sparse line index: the offset of every checkpointEvery-th
// line and the line count. It streams the log in large blocks counting
// newlines with bytes.Count, so it runs at about the speed of `wc -l`, and
// stops when ctx is done; a later call resumes. progress, if not nil, gets
// bytes done and total after each block.
func (l *Log) Index(ctx context.Context, progress func(done, total int64)) error {
	if l.R == nil {
		return errLogClosed
	}
	l.run.Lock()
	defer l.run.Unlock()
	l.mu.Lock()
	pos, nl, done := l.scanned, l.newlines, l.done
	l.mu.Unlock()
	if done {
		return nil
	}
	nextCk := (nl/checkpointEvery + 1) * checkpointEvery // newline count at which the next checkpoint starts
	buf := make([]byte, min(logBlock, max(l.Size-pos, 1)))
	var found []int64
	for pos < l.Size {
		if err := ctx.Err(); err != nil {
			return err
		}
		want := min(int64(len(buf)), l.Size-pos)
		n, err := l.R.ReadAt(buf[:want], pos)
		if n == 0 {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return fmt.Errorf("indexing log %s at byte %d: %w", l.Path, pos, err)
		}
		block := buf[:n]
		found = found[:0]
		nl = countLines(block, pos, nl, &nextCk, &found)
		pos += int64(n)
		last := block[n-1]
		l.mu.Lock()
		l.ckpts = append(l.ckpts, found...)
		l.scanned, l.newlines, l.lastByte = pos, nl, last
		l.mu.Unlock()
		if progress != nil {
			progress(pos, l.Size)
		}
	}
	l.mu.Lock()
	l.done = true
	if l.Exit != nil && l.Exit.Line == 0 {
		l.Exit.Line = l.lineCountLocked() - l.exitTrail
	}
	l.mu.Unlock()
	return nil
}

// countLines counts the newlines of block (which starts at byte base) on top
// of nl, appending to found the offset after each newline whose count reaches
// *nextCk. Runs of 4 KiB are counted with bytes.Count (vectorised) and only
// the run holding a checkpoint is walked newline by newline.
func countLines(block []byte, base int64, nl int, nextCk *int, found *[]int64) int {
	const run = 4 << 10
	for i := 0; i < len(block); {
		end := min(i+run, len(block))
		c := bytes.Count(block[i:end], []byte{'\n'})
		if nl+c < *nextCk {
			nl += c
			i = end
			continue
		}
		for need := *nextCk - nl; need > 0; need-- {
			i += bytes.IndexByte(block[i:end], '\n') + 1
		}
		nl = *nextCk
		*found = append(*found, base+int64(i))
		*nextCk += checkpointEvery
	}
	return nl
}

// locate finds the start of line (1-based) from the nearest checkpoint,
// scanning forward. It stops early at the end of the log: off is where it
// stopped and at the line number that starts there (1 + newlines before off).
// The line exists when at == line and off < Size.
func (l *Log) locate(line int) (off int64, at int, err error) {
	l.mu.Lock()
	k := (line - 1) / checkpointEvery
	k = max(min(k, len(l.ckpts)-1), 0)
	off = l.ckpts[k]
	l.mu.Unlock()
	at = k*checkpointEvery + 1
	if at >= line {
		return off, at, nil
	}
	buf := make([]byte, min(int64(128<<10), max(l.Size-off, 1)))
	for off < l.Size {
		want := min(int64(len(buf)), l.Size-off)
		n, rerr := l.R.ReadAt(buf[:want], off)
		if n == 0 {
			if rerr == nil || rerr == io.EOF {
				rerr = io.ErrUnexpectedEOF
			}
			return 0, 0, fmt.Errorf("reading log %s at byte %d: %w", l.Path, off, rerr)
		}
		block := buf[:n]
		for i := 0; ; {
			j := bytes.IndexByte(block[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			at++
			if at == line {
				return off + int64(i), at, nil
			}
		}
		off += int64(n)
	}
	return l.Size, at, nil
}

// ReadLines returns up to n lines from line from (1-based); fewer at the end
// of the log, none past it. Each line loses its "\n" but keeps a "\r" before
// it, so the UI can show carriage-return overwriting. It works before the
// index completes, scanning from the nearest checkpoint.
//
// A line longer than LineCap is cut there, at a rune boundary, and ends with
// " …[cut: N bytes]" where N is the whole line's length; ReadLineSlice reads
// any part of it. Memory stays bounded by n × LineCap.
func (l *Log) ReadLines(from, n int) ([]string, error) {
	if l.R == nil {
		return nil, errLogClosed
	}
	if from < 1 {
		return nil, fmt.Errorf("reading log %s: line %d: lines start at 1", l.Path, from)
	}
	if n <= 0 {
		return nil, nil
	}
	off, at, err := l.locate(from)
	if err != nil {
		return nil, err
	}
	if at != from || off >= l.Size {
		return nil, nil
	}
	br := bufio.NewReaderSize(io.NewSectionReader(l.R, off, l.Size-off), 64<<10)
	var out []string
	for len(out) < n {
		line, ok, err := readCappedLine(br)
		if err != nil {
			return out, fmt.Errorf("reading log %s line %d: %w", l.Path, from+len(out), err)
		}
		if !ok {
			break
		}
		out = append(out, line)
	}
	return out, nil
}

// readCappedLine reads one line, keeping at most LineCap bytes of it; ok is
// false at the end of input.
func readCappedLine(br *bufio.Reader) (string, bool, error) {
	var keep []byte
	total := 0
	cut, endsNL := false, false
	for {
		chunk, err := br.ReadSlice('\n')
		total += len(chunk)
		if !cut {
			if room := LineCap - len(keep); len(chunk) > room {
				keep = append(keep, chunk[:room]...)
				cut = true
			} else {
				keep = append(keep, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			if total == 0 {
				return "", false, nil
			}
			break
		}
		if err != nil {
			return "", false, err
		}
		endsNL = true
		break
	}
	if endsNL {
		total--
		if !cut || len(keep) > total {
			keep = keep[:total]
		}
	}
	if len(keep) < total {
		return fmt.Sprintf("%s …[cut: %d bytes]", trimPartialRune(keep), total), true, nil
	}
	return string(keep), true, nil
}

// trimPartialRune drops an incomplete UTF-8 sequence cut at the end of b.
func trimPartialRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			return b
		}
	}
	return b
}

// ReadLineSlice returns up to n bytes of line (1-based) starting startByte
// bytes into it, for scrolling sideways through a huge line. It stops at the
// line's end and is empty past it; n is capped at LineCap.
func (l *Log) ReadLineSlice(line int, startByte, n int) (string, error) {
	if l.R == nil {
		return "", errLogClosed
	}
	if line < 1 || startByte < 0 {
		return "", fmt.Errorf("reading log %s: no line %d byte %d", l.Path, line, startByte)
	}
	n = min(n, LineCap)
	if n <= 0 {
		return "", nil
	}
	off, at, err := l.locate(line)
	if err != nil {
		return "", err
	}
	if at != line || off >= l.Size {
		return "", nil
	}
	// The line must not end before startByte.
	start := off + int64(startByte)
	if start >= l.Size {
		return "", nil
	}
	if startByte > 0 {
		if _, found, err := l.indexByteIn(off, start); err != nil {
			return "", err
		} else if found {
			return "", nil
		}
	}
	buf := make([]byte, min(int64(n), l.Size-start))
	m, err := l.R.ReadAt(buf, start)
	if m < len(buf) && err != nil && err != io.EOF {
		return "", fmt.Errorf("reading log %s line %d: %w", l.Path, line, err)
	}
	buf = buf[:m]
	if i := bytes.IndexByte(buf, '\n'); i >= 0 {
		buf = buf[:i]
	}
	return string(buf), nil
}

// indexByteIn finds the first "\n" in [from, to).
func (l *Log) indexByteIn(from, to int64) (int64, bool, error) {
	buf := make([]byte, min(int64(logBlock), max(to-from, 1)))
	for off := from; off < to; {
		want := min(int64(len(buf)), to-off)
		n, err := l.R.ReadAt(buf[:want], off)
		if n == 0 {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return 0, false, fmt.Errorf("reading log %s at byte %d: %w", l.Path, off, err)
		}
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return off + int64(i), true, nil
		}
		off += int64(n)
	}
	return 0, false, nil
}

// Search finds the first line holding needle, streaming the log in large
// blocks with bytes.Index. Forward it looks at lines fromLine and after;
// backward at fromLine and before, the nearest first. It returns the
// 1-based line where the match starts, or -1 when there is none. progress,
// if not nil, gets bytes searched and bytes to search.
func (l *Log) Search(ctx context.Context, needle []byte, fromLine int, backward bool, progress func(done, total int64)) (int, error) {
	if l.R == nil {
		return -1, errLogClosed
	}
	if len(needle) == 0 {
		return -1, fmt.Errorf("searching log %s: empty search", l.Path)
	}
	if backward {
		return l.searchBackward(ctx, needle, fromLine, progress)
	}
	return l.searchForward(ctx, needle, max(fromLine, 1), progress)
}

func (l *Log) searchForward(ctx context.Context, needle []byte, fromLine int, progress func(done, total int64)) (int, error) {
	start, line, err := l.locate(fromLine)
	if err != nil {
		return -1, err
	}
	if line != fromLine || start >= l.Size {
		return -1, nil
	}
	over := len(needle) - 1
	buf := make([]byte, min(int64(logBlock+over), l.Size-start))
	total := l.Size - start
	for lo := start; lo < l.Size; {
		if err := ctx.Err(); err != nil {
			return -1, err
		}
		// The block owns match starts in [lo, lo+logBlock); it reads over
		// that by len(needle)-1 so a match across the edge is seen whole.
		want := min(int64(len(buf)), l.Size-lo)
		n, rerr := l.R.ReadAt(buf[:want], lo)
		if n == 0 {
			if rerr == nil || rerr == io.EOF {
				rerr = io.ErrUnexpectedEOF
			}
			return -1, fmt.Errorf("searching log %s at byte %d: %w", l.Path, lo, rerr)
		}
		block := buf[:n]
		if i := bytes.Index(block, needle); i >= 0 {
			return line + bytes.Count(block[:i], []byte{'\n'}), nil
		}
		own := min(n, logBlock)
		if n < int(want) {
			own = n // a short read: go on from where it stopped
		}
		line += bytes.Count(block[:own], []byte{'\n'})
		lo += int64(own)
		if progress != nil {
			progress(lo-start, total)
		}
	}
	return -1, nil
}

func (l *Log) searchBackward(ctx context.Context, needle []byte, fromLine int, progress func(done, total int64)) (int, error) {
	if fromLine < 1 {
		return -1, nil
	}
	// A log has at most Size lines; this also keeps fromLine+1 from overflowing.
	fromLine = int(min(int64(fromLine), l.Size+1))
	// Matches may start anywhere before the start of line fromLine+1 (end),
	// whose line number is known; a match at p is on line atEnd minus the
	// newlines in [p, end).
	end, atEnd, err := l.locate(fromLine + 1)
	if err != nil {
		return -1, err
	}
	over := len(needle) - 1
	buf := make([]byte, min(int64(logBlock+over), l.Size))
	total := end
	nlAfter := 0 // newlines in [hi, end)
	for hi := end; hi > 0; {
		if err := ctx.Err(); err != nil {
			return -1, err
		}
		lo := max(hi-logBlock, 0)
		// The block owns match starts in [lo, hi) and reads past hi by
		// len(needle)-1; no match can start at or after hi inside it.
		top := min(hi+int64(over), l.Size)
		n, rerr := l.R.ReadAt(buf[:top-lo], lo)
		if int64(n) < top-lo {
			if rerr == nil || rerr == io.EOF {
				rerr = io.ErrUnexpectedEOF
			}
			return -1, fmt.Errorf("searching log %s at byte %d: %w", l.Path, lo, rerr)
		}
		block := buf[:n]
		if i := bytes.LastIndex(block, needle); i >= 0 && lo+int64(i) < hi {
			own := int(hi - lo)
			return atEnd - nlAfter - bytes.Count(block[i:own], []byte{'\n'}), nil
		}
		nlAfter += bytes.Count(block[:hi-lo], []byte{'\n'})
		if progress != nil {
			progress(end-lo, total)
		}
		hi = lo
	}
	return -1, nil
}
