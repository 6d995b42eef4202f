package packet

import (
	"os"
	"path/filepath"
	"testing"
)

// The index must answer exactly as the linear Diff.FileIndex and Diff.Locate
// do, for every path of every test diff (new, old, absent, empty) and every
// line number around its hunks, including diffs that name a file twice.
func TestDiffIndexAgreesWithDiff(t *testing.T) {
	names, err := filepath.Glob("testdata/diff/*.diff")
	if err != nil || len(names) == 0 {
		t.Fatalf("no test diffs: %v", err)
	}
	twice := "diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n" +
		"diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -10,2 +10,2 @@\n a\n-b\n+c\n" +
		"diff --git a/old.go b/old.go\ndeleted file mode 100644\n--- a/old.go\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"
	inputs := map[string][]byte{"twice": []byte(twice)}
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(n)] = data
	}
	for name, data := range inputs {
		d, _ := ParseDiff(data)
		ix := newDiffIndex(d)
		paths := []string{"", "absent.go", "x.go", "old.go"}
		for _, f := range d.Files {
			paths = append(paths, f.OldPath, f.NewPath, f.Path())
		}
		for _, p := range paths {
			if got, want := ix.fileIndex(d, p), d.FileIndex(p); got != want {
				t.Errorf("%s: fileIndex(%q) = %d, Diff.FileIndex = %d", name, p, got, want)
			}
			for line := -1; line <= 40; line++ {
				f1, h1, l1, in1 := ix.locate(d, p, line)
				f2, h2, l2, in2 := d.Locate(p, line)
				if f1 != f2 || h1 != h2 || l1 != l2 || in1 != in2 {
					t.Errorf("%s: locate(%q, %d) = %d %d %d %v, Diff.Locate = %d %d %d %v", name, p, line, f1, h1, l1, in1, f2, h2, l2, in2)
				}
			}
		}
	}
}
