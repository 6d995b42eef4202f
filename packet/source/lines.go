package source

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/vetter-dev/vetter/internal/text"
)

// cutMark is appended where a line was cut at maxLine bytes, so the screen
// shows that the line goes on, and by how much.
func cutMark(dropped int64, maxLine int) string {
	return " ⟪" + text.Bytes(dropped) + " more cut: the line is longer than " + text.Bytes(int64(maxLine)) + "⟫"
}

// CutLine records one line cut while reading (ReadCappedLines).
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
		return nil, false, false, nil, fmt.Errorf("reading %s: %w", name, ErrSpecialFile)
	}
	data, truncated, more, cuts, err = capLines(f, limit, maxLine, maxLines, fi.Size())
	if err != nil {
		return nil, false, false, nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return data, truncated || Truncated(fi), more, cuts, nil
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
		if maxLines <= 0 {
			if n := bulkLines(br, &out, limit-int64(out.Len()), maxLine); n > 0 {
				line += n
				continue
			}
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
				out.WriteString(cutMark(dropped, maxLine))
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

// bulkLines copies to out, at once, the whole lines already buffered in br
// that the cap leaves alone (none longer than maxLine, all within room),
// and says how many it copied: the line-by-line loop of capLines, which
// copies each line on its own, took a third of reading the 200,000-line
// diff of a big packet, on its first screen's path. It stops at the first
// line it cannot take, which the loop then reads.
func bulkLines(br *bufio.Reader, out *bytes.Buffer, room int64, maxLine int) int {
	buf, _ := br.Peek(br.Buffered())
	if int64(len(buf)) > room {
		buf = buf[:max(room, 0)]
	}
	n, end := 0, 0
	for {
		i := bytes.IndexByte(buf[end:], '\n')
		if i < 0 || i+1 > maxLine {
			break
		}
		end += i + 1
		n++
	}
	if n > 0 {
		out.Write(buf[:end])
		_, _ = br.Discard(end)
	}
	return n
}
