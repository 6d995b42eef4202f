package attention

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/attention/rules"
	"github.com/vetter-dev/vetter/packet"
)

// addedFile is a diff that adds path whole with text as its lines.
func addedFile(path, text string) string {
	lines := strings.Split(text, "\n")
	var b strings.Builder
	fmt.Fprintf(&b, "diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%d @@\n", path, path, path, len(lines))
	for _, l := range lines {
		b.WriteString("+" + l + "\n")
	}
	return b.String()
}

// caseDiff is the diff a rule's case describes.
func caseDiff(c rules.Case) string {
	if strings.HasPrefix(c.Text, "diff --git") {
		return c.Text
	}
	return addedFile(c.Path, c.Text)
}

// Every rule's cases hold: the rule's item on the line the case names, or
// (Not) no item of the rule anywhere.
func TestRuleCases(t *testing.T) {
	for _, r := range rules.All() {
		if r.ID == "" || r.Why == "" || r.Title == "" || r.Kind == "" {
			t.Errorf("rule %q lacks an id, title, kind or reason", r.ID)
		}
		switch r.Severity {
		case rules.High, rules.Medium, rules.Low:
		default:
			t.Errorf("rule %s: severity %q", r.ID, r.Severity)
		}
		for i, c := range r.Cases {
			t.Run(fmt.Sprintf("%s/%d", r.ID, i), func(t *testing.T) {
				d, items := scanDiff(t, r.ID, []byte(caseDiff(c)))
				want := c.Line
				if want == 0 {
					want = d.Files[0].Hunks[len(d.Files[0].Hunks)-1].NewStart + d.Files[0].Hunks[len(d.Files[0].Hunks)-1].NewLines - 1
				}
				var got []string
				found := false
				for _, a := range items {
					got = append(got, fmt.Sprintf("%s %s:%d %s", a.Severity, a.Path, a.NewLine, a.Rule))
					if a.Rule != r.ID {
						continue
					}
					if c.Not {
						t.Errorf("case %q: want no %s item, got one on line %d", c.Text, r.ID, a.NewLine)
					}
					if want == -1 && a.Hunk < 0 || a.NewLine == want {
						found = true
					}
				}
				if !c.Not && !found {
					t.Errorf("case %q: want %s on line %d; got %q", c.Text, r.ID, want, got)
				}
			})
		}
	}
}

// Every rule is defined by its cases, or exercised by a table test or the
// tuning corpus.
func TestRulesAreTested(t *testing.T) {
	var tested strings.Builder
	for _, name := range []string{"scan_test.go", "lines_test.go", "pins_test.go"} {
		data, _ := os.ReadFile(name)
		tested.Write(data)
	}
	wants, _ := filepath.Glob(filepath.Join("testdata", "corpus", "malicious", "*.want"))
	for _, w := range wants {
		data, _ := os.ReadFile(w)
		tested.Write(data)
	}
	for _, r := range rules.All() {
		if len(r.Cases) > 0 {
			continue
		}
		if !strings.Contains(tested.String(), r.ID) {
			t.Errorf("rule %s has no case and is exercised by no test or corpus change", r.ID)
		}
	}
}

// scanDiff parses a diff that must parse cleanly (a parse problem would
// test the parser, not the rules), scans it and checks the items'
// invariants; name says which diff in a failure.
func scanDiff(t *testing.T, name string, data []byte) (*packet.Diff, []Item) {
	t.Helper()
	d, probs := packet.ParseDiff(data)
	if len(probs) > 0 {
		t.Fatalf("parsing %s: %v", name, probs)
	}
	items := Scan(d)
	checkInvariants(t, d, items)
	return d, items
}
