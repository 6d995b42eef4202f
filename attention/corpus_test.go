package attention

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/attention/rules"
)

// The calibrated changes look alarming but cannot act on the runner by
// themselves (a pull_request_target trigger with no checkout of the head, a
// lifecycle script that runs a file in the tree, an action by tag): each
// names the item it gets and its severity, below high.
func TestAttentionCalibrated(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join("testdata", "corpus", "calibrated", "*.diff"))
	if len(names) == 0 {
		t.Fatal("no calibrated changes")
	}
	for _, name := range names {
		want := readCorpusWant(t, strings.TrimSuffix(name, ".diff")+".want")
		found := false
		for _, a := range scanCorpusFile(t, name) {
			if a.Severity == rules.High && a.Hunk >= 0 {
				t.Errorf("%s: high item %s:%d %s", filepath.Base(name), a.Path, a.NewLine, a.Rule)
			}
			found = found || a.Path == want.path && a.NewLine == want.line && a.Rule == want.rule && a.Severity == want.severity
		}
		if !found {
			t.Errorf("%s: want %s %s:%d %s", filepath.Base(name), want.severity, want.path, want.line, want.rule)
		}
	}
}

// The corpus under testdata/corpus holds small malicious changes,
// each with a .want manifest naming the high item a vetter must be shown
// (path:line rule; line 0 for a whole-file item), and benign look-alikes
// that must give no high item on any line. The thresholds are what the rules
// achieve; lower them only knowingly.
const (
	corpusMinRecall        = 1.0 // every malicious change has its high item on the right file and line
	corpusMaxFalseHighLine = 0   // no benign line is rated high
)

type corpusWant struct {
	path     string
	line     int
	rule     string
	severity string // "" for high
}

func readCorpusWant(t *testing.T, name string) corpusWant {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatalf("reading %s: %v", name, err)
	}
	loc, rule, ok := strings.Cut(strings.TrimSpace(string(data)), " ")
	rule, sev, _ := strings.Cut(rule, " ")
	i := strings.LastIndexByte(loc, ':')
	if !ok || i < 0 {
		t.Fatalf("%s: want \"path:line rule\", got %q", name, data)
	}
	line, err := strconv.Atoi(loc[i+1:])
	if err != nil {
		t.Fatalf("%s: line %q: %v", name, loc[i+1:], err)
	}
	return corpusWant{loc[:i], line, rule, sev}
}

func scanCorpusFile(t *testing.T, name string) []Item {
	t.Helper()
	_, items := scanFile(t, name)
	return items
}

func TestAttentionCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "corpus")
	mal, _ := filepath.Glob(filepath.Join(dir, "malicious", "*.diff"))
	ben, _ := filepath.Glob(filepath.Join(dir, "benign", "*.diff"))
	if len(mal) < 40 || len(ben) < 20 {
		t.Fatalf("corpus has %d malicious and %d benign changes; want at least 40 and 20", len(mal), len(ben))
	}

	mal, ben = shortSample(mal), shortSample(ben)
	hits := 0
	var missed []string
	for _, name := range mal {
		want := readCorpusWant(t, strings.TrimSuffix(name, ".diff")+".want")
		items := scanCorpusFile(t, name)
		found, ruleOK := false, false
		var got []string
		for _, a := range items {
			if a.Severity == rules.High && a.Path == want.path && a.NewLine == want.line {
				found = true
				ruleOK = ruleOK || a.Rule == want.rule
			}
			got = append(got, fmt.Sprintf("%s %s:%d %s", a.Severity, a.Path, a.NewLine, a.Rule))
		}
		base := filepath.Base(name)
		switch {
		case !found:
			missed = append(missed, base)
			t.Logf("missed %s: want high %s:%d %s; got %q", base, want.path, want.line, want.rule, got)
		case !ruleOK:
			hits++
			t.Errorf("%s: high item on %s:%d, but not from rule %s; got %q", base, want.path, want.line, want.rule, got)
		default:
			hits++
		}
	}

	falseLines, falseFiles := 0, 0
	for _, name := range ben {
		for _, a := range scanCorpusFile(t, name) {
			if a.Severity != rules.High {
				continue
			}
			if a.Hunk >= 0 {
				falseLines++
				t.Logf("false alarm in %s: %s:%d %s %q", filepath.Base(name), a.Path, a.NewLine, a.Rule, a.Text)
			} else {
				falseFiles++
				t.Logf("high file item in benign %s: %s %s", filepath.Base(name), a.Path, a.Rule)
			}
		}
	}

	recall := float64(hits) / float64(len(mal))
	t.Logf("attention corpus: recall %d/%d (%.1f%%), false high lines on %d benign changes: %d (high file items: %d)",
		hits, len(mal), 100*recall, len(ben), falseLines, falseFiles)
	if recall < corpusMinRecall {
		t.Errorf("recall %.3f below %.3f; missed %v", recall, corpusMinRecall, missed)
	}
	if falseLines > corpusMaxFalseHighLine {
		t.Errorf("%d false high lines on benign changes, want at most %d", falseLines, corpusMaxFalseHighLine)
	}
}

// shortSample is every fourth of names under -short, all of them otherwise.
// The README's test command scans the whole corpus; CI's race run (-race
// -short) scans a quarter of it, enough to run every reader under the race
// detector, where the whole corpus, scanned once here and once more as the
// fuzz target's seeds, was the longest package of the run.
func shortSample(names []string) []string {
	if !testing.Short() {
		return names
	}
	var out []string
	for i := 0; i < len(names); i += 4 {
		out = append(out, names[i])
	}
	return out
}
