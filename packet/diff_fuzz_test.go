package packet

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func FuzzParseDiff(f *testing.F) {
	fixtures, _ := filepath.Glob(filepath.Join("testdata", "diff", "*.diff"))
	for _, name := range fixtures {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatalf("reading seed %s: %v", name, err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"",
		"\n",
		"@@ -1 +1 @@\n",
		"--- a\n+++ b\n@@ -0,0 +0,0 @@\n x\n+y\n-z\n",
		"diff --git \"a/\\303\" b\n",
		"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -2147483647,1 +1 @@\n a\n a\n",
		"--- a\n+++ b\n@@ -1,2 +1,2 @@\n--- c\n+++ d\n@@ -1 +1 @@\n",
		"diff --git a/x b/x\nGIT binary patch\nliteral 0\n\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-\r\n+\r\n\\ x\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, probs := ParseDiff(data)
		checkDiffInvariants(t, data, d, probs)
	})
}

// checkDiffInvariants holds for any input: it is what consumers of a Diff
// rely on without checking.
func checkDiffInvariants(t *testing.T, data []byte, d *Diff, probs []Problem) {
	t.Helper()
	if d == nil {
		t.Fatal("ParseDiff returned a nil diff")
	}
	wantLines := strings.Count(string(data), "\n")
	if len(data) > 0 && data[len(data)-1] != '\n' {
		wantLines++
	}
	if d.Lines != wantLines {
		t.Fatalf("Lines = %d, want %d", d.Lines, wantLines)
	}
	ins, del, lastLine, located := 0, 0, 0, 0
	for fi, f := range d.Files {
		switch f.Status {
		case StatusAdded:
			if f.OldPath != "" {
				t.Errorf("file %d added but has old path %q", fi, f.OldPath)
			}
		case StatusDeleted:
			if f.NewPath != "" {
				t.Errorf("file %d deleted but has new path %q", fi, f.NewPath)
			}
		case StatusModified, StatusRenamed, StatusCopied:
		default:
			t.Errorf("file %d has status %q", fi, f.Status)
		}
		if f.Line < 1 || f.Line > d.Lines || f.Line <= lastLine {
			t.Errorf("file %d header line %d out of order (previous %d, lines %d)", fi, f.Line, lastLine, d.Lines)
		}
		lastLine = f.Line
		if f.ModeOnly && (len(f.Hunks) > 0 || f.Binary) {
			t.Errorf("file %d is mode-only but has hunks or is binary", fi)
		}
		fins, fdel := 0, 0
		for hi, h := range f.Hunks {
			if h.Line <= lastLine || h.Line > d.Lines {
				t.Errorf("file %d hunk %d header line %d out of order (previous %d)", fi, hi, h.Line, lastLine)
			}
			lastLine = h.Line
			prevOld, prevNew := 0, 0
			for li, l := range h.Lines {
				bad := false
				switch l.Kind {
				case LineAdded:
					fins++
					bad = l.New <= 0 || l.Old != 0
				case LineRemoved:
					fdel++
					bad = l.Old <= 0 || l.New != 0
				case LineContext:
					bad = l.Old <= 0 || l.New <= 0
				default:
					bad = true
				}
				if bad {
					t.Fatalf("file %d hunk %d line %d: kind %q old %d new %d", fi, hi, li, l.Kind, l.Old, l.New)
				}
				if (l.Old != 0 && l.Old <= prevOld) || (l.New != 0 && l.New <= prevNew) {
					t.Fatalf("file %d hunk %d line %d: numbers go backwards", fi, hi, li)
				}
				if l.Old != 0 {
					prevOld = l.Old
				}
				if l.New != 0 {
					prevNew = l.New
				}
				if strings.Contains(l.Text, "\n") {
					t.Fatalf("file %d hunk %d line %d: text holds a newline", fi, hi, li)
				}
				if l.New > 0 && located < 200 {
					located++
					lf, lh, ll, in := d.Locate(f.Path(), l.New)
					if f.Path() != "" && (!in || d.Files[lf].Hunks[lh].Lines[ll].New != l.New) {
						t.Fatalf("Locate(%q, %d) = %d,%d,%d,%v", f.Path(), l.New, lf, lh, ll, in)
					}
				}
			}
			lastLine += len(h.Lines) // hunk lines come after their header
		}
		if fins != f.Insertions || fdel != f.Deletions {
			t.Errorf("file %d counts +%d -%d, lines say +%d -%d", fi, f.Insertions, f.Deletions, fins, fdel)
		}
		ins += fins
		del += fdel
	}
	if ins != d.Insertions || del != d.Deletions {
		t.Errorf("totals +%d -%d, files say +%d -%d", d.Insertions, d.Deletions, ins, del)
	}
	for _, p := range probs {
		if p.File != DiffPath || p.Line < 1 || p.Line > d.Lines || p.Message == "" {
			t.Errorf("bad problem %+v", p)
		}
		if p.Code != CodeDiffParse && p.Code != CodeDiffHunkCount {
			t.Errorf("unexpected problem code %q", p.Code)
		}
	}
}
