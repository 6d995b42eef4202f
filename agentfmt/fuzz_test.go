package agentfmt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func addFixtures(f *testing.F, dir string) {
	names, _ := filepath.Glob(filepath.Join("testdata", dir, "*.md"))
	for _, n := range names {
		if data, err := os.ReadFile(n); err == nil {
			f.Add(string(data))
		}
	}
}

// FuzzShapes runs every shape's reader on any text, not only the first that
// matches: none may panic, a hidden command is never a command, and every
// line a result names is a line of the comment.
func FuzzShapes(f *testing.F) {
	addFixtures(f, "comments")
	f.Add("<details>\n<summary>x</summary>\n### Check 1\n**Result:** Passed (exit code 0)\n**Command:**\n```bash\n")
	f.Add("<details><summary>")
	f.Fuzz(func(t *testing.T, body string) {
		body = normalise(body)
		n := len(lines(body))
		for _, s := range Shapes() {
			r, ok := s.recognise(body)
			if !ok {
				continue
			}
			if rec := r.Record; rec != nil {
				for _, c := range rec.Checks {
					if c.CommandHidden && c.Command != "" {
						t.Fatalf("%s: hidden check %d has a command %q", s.ID, c.Number, c.Command)
					}
					if c.Line < 1 || c.Line > n {
						t.Fatalf("%s: check %d on line %d of %d", s.ID, c.Number, c.Line, n)
					}
				}
				for _, l := range []Labelled{rec.Status, rec.Verdict, rec.Assessment, rec.Audit} {
					if l.Line < 0 || l.Line > n {
						t.Fatalf("%s: a label on line %d of %d", s.ID, l.Line, n)
					}
				}
				rec.MismatchText()
			}
			if d := r.Doc; d != nil && (d.Offset < 0 || d.Offset > n) {
				t.Fatalf("%s: document offset %d of %d lines", s.ID, d.Offset, n)
			}
		}
		Recognise(body)
	})
}

// FuzzReadBadge: a badge is read or not, never a panic, and an unknown
// severity is said as "unknown".
func FuzzReadBadge(f *testing.F) {
	addFixtures(f, "badges")
	f.Add("<details>\n<details>\n</details>\n_a_ | _b_\n")
	f.Fuzz(func(t *testing.T, body string) {
		b, ok := ReadBadge(body)
		if !ok {
			return
		}
		if b.Severity == "" {
			t.Fatalf("a badge with no severity word: %+v", b)
		}
		if b.Severity == "unknown" && b.SeverityLabel != "" {
			t.Fatalf("unknown severity with a label %q", b.SeverityLabel)
		}
		if strings.Contains(b.Text, "\n") {
			t.Fatalf("the badge line spans lines: %q", b.Text)
		}
	})
}

// FuzzDescription: sections are lines of the description.
func FuzzDescription(f *testing.F) {
	addFixtures(f, "descriptions")
	f.Fuzz(func(t *testing.T, body string) {
		n, ok := Description(body)
		if !ok {
			return
		}
		total := len(lines(normalise(body)))
		for _, s := range n.Sections {
			if s.Line < 1 || s.Line > total {
				t.Fatalf("section %q on line %d of %d", s.Title, s.Line, total)
			}
		}
	})
}
