package source

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"testing/iotest"
	"unicode/utf8"

	"github.com/vetter-dev/vetter/internal/text"
)

// maxLine is the packet's cap on one line (packet.MaxLineBytes).
const maxLine = 64 << 10

// A line past maxLine keeps its start and a mark of what was cut; the
// lines around it are untouched, and memory never holds the whole line.
func TestReadCappedLinesCutsLongLines(t *testing.T) {
	long := strings.Repeat("é", 40_000)                                     // 80,000 bytes, two bytes a character
	in := "first\n" + long + "\r\nthird\n" + strings.Repeat("x", 3*maxLine) // last line without a newline
	fsys := fstest.MapFS{"f": {Data: []byte(in)}}
	data, truncated, _, cuts, err := ReadCappedLines(fsys, "f", 1<<30, maxLine, 0)
	if err != nil || truncated {
		t.Fatalf("err %v truncated %v", err, truncated)
	}
	lines := strings.Split(string(data), "\n")
	if len(lines) != 4 || lines[0] != "first" || lines[2] != "third" {
		t.Fatalf("lines around the cut changed: %d lines, %q / %q", len(lines), lines[0], text.Clip(lines[2], 20))
	}
	if !utf8.ValidString(lines[1]) || !strings.Contains(lines[1], "more cut") || len(lines[1]) > maxLine+100 {
		t.Errorf("the long line was not cut cleanly: %d bytes, valid %v, tail %q", len(lines[1]), utf8.ValidString(lines[1]), lines[1][len(lines[1])-80:])
	}
	if len(cuts) != 2 || cuts[0].Line != 2 || cuts[1].Line != 4 || cuts[1].Dropped != 2*maxLine {
		t.Errorf("cuts = %+v", cuts)
	}
	if len(lines[1]) >= len(long) || len(lines[3]) >= 3*maxLine {
		t.Errorf("nothing was dropped")
	}
}

// Short lines pass through byte for byte.
func TestReadCappedLinesKeepsShortLines(t *testing.T) {
	in := []byte("a\r\nb\n\nc")
	data, truncated, more, cuts, err := capLines(bytes.NewReader(in), 1<<20, maxLine, 0, 0)
	if err != nil || truncated || more || len(cuts) != 0 || !bytes.Equal(data, in) {
		t.Fatalf("got %q %v %v %v", data, truncated, cuts, err)
	}
	data, truncated, _, _, _ = capLines(bytes.NewReader(in), 3, maxLine, 0, 0)
	if !truncated || string(data) != "a\r\n" {
		t.Fatalf("limit: got %q %v", data, truncated)
	}
	data, _, more, _, _ = capLines(bytes.NewReader(in), 1<<20, maxLine, 2, 0)
	if !more || string(data) != "a\r\nb\n" {
		t.Fatalf("line cap: got %q %v", data, more)
	}
}

// Whole lines copied at once from the buffer (bulkLines) read as the
// loop reads them one by one: a reader handing one byte at a time leaves
// the loop nearly every line; the caps fall at every kind of place.
func TestCapLinesInBulkReadsAsLineByLine(t *testing.T) {
	var in strings.Builder
	for i := range 3000 {
		switch i % 7 {
		case 0:
			in.WriteString(strings.Repeat("y", 30+i%90) + "\r\n")
		case 3:
			in.WriteString(strings.Repeat("é", 10+i%50) + "\n")
		case 5:
			in.WriteString("\n")
		default:
			in.WriteString("\tline " + strings.Repeat("w", i%40) + "\n")
		}
	}
	data := []byte(in.String() + "tail without a newline")
	for _, c := range []struct {
		limit    int64
		maxLine  int
		maxLines int
	}{{1 << 30, maxLine, 0}, {1 << 30, 64, 0}, {1 << 30, 41, 0}, {40_000, maxLine, 0}, {40_001, 50, 0}, {1 << 30, maxLine, 100}, {len64(data), maxLine, 0}, {len64(data) - 5, maxLine, 0}} {
		got, gt, gm, gc, gerr := capLines(bytes.NewReader(data), c.limit, c.maxLine, c.maxLines, int64(len(data)))
		want, wt, wm, wc, werr := capLines(iotest.OneByteReader(bytes.NewReader(data)), c.limit, c.maxLine, c.maxLines, 0)
		if gerr != nil || werr != nil || !bytes.Equal(got, want) || gt != wt || gm != wm || fmt.Sprint(gc) != fmt.Sprint(wc) {
			t.Errorf("%+v: in bulk %d bytes, truncated %v, more %v, cuts %v, %v; line by line %d bytes, %v, %v, %v, %v",
				c, len(got), gt, gm, len(gc), gerr, len(want), wt, wm, len(wc), werr)
		}
	}
}

func len64(b []byte) int64 { return int64(len(b)) }
