package packet

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/vetter-dev/vetter/internal/text"
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
	// CodeArchiveDuplicate: an archive holds two entries with one name, or
	// two whose names differ only in case (review.md and REVIEW.md), so
	// which one is read would depend on the tool that unpacks it. An error:
	// the packet is refused.
	CodeArchiveDuplicate = "archive-duplicate-entry"
)

// cutMark is appended where a line was cut at MaxLineBytes, so the screen
// shows that the line goes on, and by how much.
func cutMark(dropped int64) string {
	return " ⟪" + text.Bytes(dropped) + " more cut: the line is longer than " + text.Bytes(MaxLineBytes) + "⟫"
}

// CutLine records one line cut at MaxLineBytes while reading.
type CutLine struct {
	Line    int   // 1-based
	Dropped int64 // bytes not kept
}

// ReadCappedLines reads a file as ReadCapped does, but keeps at most
// maxLine bytes of each line (the line break is kept): the rest of a
// longer line is dropped as it streams past, and a mark saying how much
// was cut takes its place. limit caps what is kept in all. It returns
// the lines it cut, first to last.
//
// maxLines, when above 0, stops reading after that many lines; more says
// whether there was more.
func ReadCappedLines(fsys fs.FS, name string, limit int64, maxLine, maxLines int) (data []byte, truncated, more bool, cuts []CutLine, err error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, false, false, nil, fmt.Errorf("reading %s: %w", name, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, false, false, nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if fi.IsDir() {
		return nil, false, false, nil, fmt.Errorf("reading %s: is a directory", name)
	}
	if !fi.Mode().IsRegular() {
		return nil, false, false, nil, fmt.Errorf("reading %s: %w", name, errSpecialFile)
	}
	data, truncated, more, cuts, err = capLines(f, limit, maxLine, maxLines, fi.Size())
	if err != nil {
		return nil, false, false, nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if af, ok := fi.Sys().(*archFile); ok && af.truncated {
		truncated = true
	}
	return data, truncated, more, cuts, nil
}

// capLines is ReadCappedLines on a reader: at most limit bytes kept, each
// line at most maxLine bytes and its cut mark. size is what the file says
// it holds (0 when unknown): the buffer is sized for it once, rather than
// grown by doubling through a 20 MB diff on the first screen's path.
func capLines(r io.Reader, limit int64, maxLine, maxLines int, size int64) (data []byte, truncated, more bool, cuts []CutLine, err error) {
	limit = max(limit, 0)
	br := bufio.NewReaderSize(r, 64<<10)
	var out bytes.Buffer
	if size > 0 {
		out.Grow(int(min(size, limit)) + 1)
	}
	line := 1
	for {
		if maxLines > 0 && line > maxLines {
			if _, err := br.ReadByte(); err == nil {
				more = true
			}
			break
		}
		if int64(out.Len()) >= limit {
			// One byte more means there was more to read.
			if _, err := br.ReadByte(); err == nil {
				truncated = true
			}
			break
		}
		chunk, rerr := br.ReadSlice('\n')
		kept := len(chunk)
		if rerr == bufio.ErrBufferFull || (kept > maxLine) {
			// A line longer than the buffer or the cap: keep its first
			// maxLine bytes and count the rest without holding it.
			var dropped int64
			take := min(kept, maxLine)
			out.Write(chunk[:take])
			dropped = int64(kept - take)
			ended := kept > 0 && chunk[kept-1] == '\n'
			if ended {
				dropped-- // the line break is not dropped
			}
			for !ended && rerr == bufio.ErrBufferFull {
				chunk, rerr = br.ReadSlice('\n')
				n := len(chunk)
				ended = n > 0 && chunk[n-1] == '\n'
				if ended {
					n--
				}
				room := max(maxLine-take, 0)
				keep := min(n, room)
				out.Write(chunk[:keep])
				take += keep
				dropped += int64(n - keep)
			}
			if dropped > 0 {
				// A cut inside a multi-byte character would leave an invalid
				// sequence; back off to the character's start.
				b := out.Bytes()
				back := 0
				for back < 3 && len(b)-back > 0 && b[len(b)-1-back]&0xC0 == 0x80 {
					back++
				}
				if back > 0 && len(b)-back-1 >= 0 && b[len(b)-1-back] >= 0xC0 {
					out.Truncate(len(b) - back - 1)
					dropped += int64(back + 1)
				}
				// Keep a carriage return that ended the line, so the line
				// ends as it did.
				out.WriteString(cutMark(dropped))
				cuts = append(cuts, CutLine{Line: line, Dropped: dropped})
			}
			if ended {
				out.WriteByte('\n')
			}
		} else {
			out.Write(chunk)
		}
		if rerr != nil && rerr != bufio.ErrBufferFull {
			if errors.Is(rerr, io.EOF) {
				break
			}
			return nil, false, false, nil, rerr
		}
		line++
	}
	data = out.Bytes()
	if int64(len(data)) > limit {
		data, truncated = data[:limit], true
	}
	return data, truncated, more, cuts, nil
}

// cutLinesProblem is the one problem that says which lines of a file were
// cut, however many there were.
func cutLinesProblem(file string, cuts []CutLine) (Problem, bool) {
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
