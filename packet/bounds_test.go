package packet

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/vetter-dev/vetter/internal/text"
)

// A line past MaxLineBytes keeps its start and a mark of what was cut; the
// lines around it are untouched, and memory never holds the whole line.
func TestReadCappedLinesCutsLongLines(t *testing.T) {
	long := strings.Repeat("é", 40_000)                                          // 80,000 bytes, two bytes a character
	in := "first\n" + long + "\r\nthird\n" + strings.Repeat("x", 3*MaxLineBytes) // last line without a newline
	fsys := fstest.MapFS{"f": {Data: []byte(in)}}
	data, truncated, _, cuts, err := ReadCappedLines(fsys, "f", 1<<30, MaxLineBytes, 0)
	if err != nil || truncated {
		t.Fatalf("err %v truncated %v", err, truncated)
	}
	lines := strings.Split(string(data), "\n")
	if len(lines) != 4 || lines[0] != "first" || lines[2] != "third" {
		t.Fatalf("lines around the cut changed: %d lines, %q / %q", len(lines), lines[0], text.Clip(lines[2], 20))
	}
	if !utf8.ValidString(lines[1]) || !strings.Contains(lines[1], "more cut") || len(lines[1]) > MaxLineBytes+100 {
		t.Errorf("the long line was not cut cleanly: %d bytes, valid %v, tail %q", len(lines[1]), utf8.ValidString(lines[1]), lines[1][len(lines[1])-80:])
	}
	if len(cuts) != 2 || cuts[0].Line != 2 || cuts[1].Line != 4 || cuts[1].Dropped != 2*MaxLineBytes {
		t.Errorf("cuts = %+v", cuts)
	}
	if len(lines[1]) >= len(long) || len(lines[3]) >= 3*MaxLineBytes {
		t.Errorf("nothing was dropped")
	}
	p, ok := cutLinesProblem("change.diff", cuts)
	if !ok || p.Code != CodeLineTooLong || p.Line != 2 || !strings.Contains(p.Message, "2 lines are longer than 64 KiB") {
		t.Errorf("problem = %+v", p)
	}
}

// Short lines pass through byte for byte.
func TestReadCappedLinesKeepsShortLines(t *testing.T) {
	in := []byte("a\r\nb\n\nc")
	data, truncated, more, cuts, err := capLines(bytes.NewReader(in), 1<<20, MaxLineBytes, 0, 0)
	if err != nil || truncated || more || len(cuts) != 0 || !bytes.Equal(data, in) {
		t.Fatalf("got %q %v %v %v", data, truncated, cuts, err)
	}
	data, truncated, _, _, _ = capLines(bytes.NewReader(in), 3, MaxLineBytes, 0, 0)
	if !truncated || string(data) != "a\r\n" {
		t.Fatalf("limit: got %q %v", data, truncated)
	}
	data, _, more, _, _ = capLines(bytes.NewReader(in), 1<<20, MaxLineBytes, 2, 0)
	if !more || string(data) != "a\r\nb\n" {
		t.Fatalf("line cap: got %q %v", data, more)
	}
}

func TestAggregate(t *testing.T) {
	var probs []Problem
	for i := range 2000 {
		probs = append(probs, NewProblem(CodeArchiveLimit, "p.zip", i, "entry shares a stream"))
	}
	probs = append(probs, NewProblem(CodeMissingFile, "plan.md", 0, "missing"))
	got := Aggregate(probs, 1, nil, func(code string, rest int, first Problem) string {
		return text.Thousands(int64(rest)) + " more entries share one stream"
	})
	if len(got) != 3 || got[1].Message != "1,999 more entries share one stream" || got[2].Code != CodeMissingFile {
		t.Fatalf("%+v", got)
	}
}
