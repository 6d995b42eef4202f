package packet

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet/source"
)

// Lines cut while reading are one problem, however many there were.
func TestCutLinesProblem(t *testing.T) {
	in := "first\n" + strings.Repeat("x", 2*MaxLineBytes) + "\nthird\n" + strings.Repeat("y", 3*MaxLineBytes)
	_, _, _, cuts, err := source.ReadCappedLines(fstest.MapFS{"f": {Data: []byte(in)}}, "f", 1<<30, MaxLineBytes, 0)
	if err != nil {
		t.Fatal(err)
	}
	p, ok := cutLinesProblem("change.diff", cuts)
	if !ok || p.Code != CodeLineTooLong || p.Line != 2 || !strings.Contains(p.Message, "2 lines are longer than 64 KiB") {
		t.Errorf("problem = %+v", p)
	}
	if _, ok := cutLinesProblem("change.diff", nil); ok {
		t.Error("a problem for no cut lines")
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
