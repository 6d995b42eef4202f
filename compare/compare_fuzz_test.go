package compare

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/packet"
)

// FuzzCompareDiffs parses two arbitrary inputs as diffs and compares them,
// and compares them as documents word by word: no input may panic, and the
// result accounts for every file of both.
func FuzzCompareDiffs(f *testing.F) {
	// Seeds stay small: the fuzzer minimises every new input it finds, and
	// minimising two 16 KB diffs takes minutes. The excerpt is the clamp
	// hunk of the sample's two rounds.
	excerpt := func(path string) []byte {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		s := string(data)
		start := strings.Index(s, "diff --git a/internal/upload/client.go")
		hunk := strings.Index(s[start:], "@@ -61,30")
		end := strings.Index(s[start+hunk:], "\n@@ ")
		if start < 0 || hunk < 0 || end < 0 {
			f.Fatalf("%s: the client.go clamp hunk is not where the seed expects it", path)
		}
		head := s[start : start+strings.Index(s[start:], "@@")]
		return []byte(head + s[start+hunk:start+hunk+end+1])
	}
	sample, second := excerpt(filepath.Join("..", "packet", "sample", packet.DiffPath)), excerpt(filepath.Join(round2, packet.DiffPath))
	f.Add(sample, second)
	f.Add([]byte(fdiff("a.go", "a.go", "", hunkA, hunkB)), []byte(fdiff("a.go", "b.go", "rename from a.go\nrename to b.go\n", hunkA2, hunkC)))
	f.Add([]byte(""), []byte(fdiff("", "n.go", "", "@@ -0,0 +1 @@\n+x\n")))
	f.Add([]byte("@@ -1 +1 @@\n-a\n+b\n"), []byte("--- a\n+++ b\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+c\n"))
	f.Add([]byte("one two\nthree\n"), []byte("one\ntwo three\n\n"))
	f.Add([]byte("\xff\xfe`` x\r\n"), []byte("\u202e y \x00\n"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		od, _ := packet.ParseDiff(a)
		nd, _ := packet.ParseDiff(b)
		d := CompareDiffs(od, nd)
		if d.Added+d.Removed+d.Altered+d.Unchanged != len(d.Files) {
			t.Fatalf("counts %d+%d+%d+%d != %d files", d.Added, d.Removed, d.Altered, d.Unchanged, len(d.Files))
		}
		if got, want := len(d.Files)-d.Added, len(od.Files); got != want {
			t.Fatalf("%d old files accounted for, want %d", got, want)
		}
		if got, want := len(d.Files)-d.Removed, len(nd.Files); got != want {
			t.Fatalf("%d new files accounted for, want %d", got, want)
		}
		for _, f := range d.Files {
			for _, h := range f.Hunks {
				for _, l := range h.Lines {
					if l.Op != " " && l.Op != "+" && l.Op != "-" {
						t.Fatalf("diff of diffs op %q", l.Op)
					}
				}
			}
		}

		oldText, newText := string(a), string(b)
		newLines := len(packet.SplitLines(newText))
		for _, ch := range WordDiff(oldText, newText) {
			if ch.Line < 1 || ch.EndLine < ch.Line || ch.EndLine > max(newLines, 1) {
				t.Fatalf("word change at lines %d-%d of a %d-line text", ch.Line, ch.EndLine, newLines)
			}
			if ch.Removed == "" && ch.Added == "" {
				t.Fatal("an empty word change")
			}
		}

		c := Comparison{Change: d, Documents: []DocumentDelta{{Path: "x.md", Status: DocChanged, Changes: WordDiff(oldText, newText)}}}
		c.WriteText(io.Discard)
		var md strings.Builder
		c.WriteMarkdown(&md)
	})
}
