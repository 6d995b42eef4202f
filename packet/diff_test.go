package packet

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type wantFile struct {
	old, new         string
	status           FileStatus
	line             int
	hunks, ins, del  int
	binary, modeOnly bool
	sim              int
	oldMode, newMode string
}

type wantHunk struct {
	file, hunk, line                       int
	oldStart, oldLines, newStart, newLines int
	section                                string
	lines                                  int
}

type wantLine struct {
	file, hunk, idx int
	kind            LineKind
	text            string
	old, new        int
	noNL, cr        bool
}

func readDiffFixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "diff", name))
	if err != nil {
		t.Fatalf("reading fixture %s: %v", name, err)
	}
	return data
}

func TestParseDiff(t *testing.T) {
	cases := []struct {
		file     string
		lines    int
		ins, del int
		files    []wantFile
		hunks    []wantHunk
		dlines   []wantLine
		problems []string // "code@line"
		messages []string // substrings of the problems' messages, in order
	}{
		{
			file: "added.diff", lines: 8, ins: 2,
			files:  []wantFile{{new: "src/added.go", status: StatusAdded, line: 1, hunks: 1, ins: 2, newMode: "100644"}},
			hunks:  []wantHunk{{0, 0, 6, 0, 0, 1, 2, "", 2}},
			dlines: []wantLine{{0, 0, 0, LineAdded, "new content", 0, 1, false, false}, {0, 0, 1, LineAdded, "second line", 0, 2, false, false}},
		},
		{
			file: "deleted.diff", lines: 9, del: 3,
			files:  []wantFile{{old: "old.txt", status: StatusDeleted, line: 1, hunks: 1, del: 3, oldMode: "100644"}},
			hunks:  []wantHunk{{0, 0, 6, 1, 3, 0, 0, "", 3}},
			dlines: []wantLine{{0, 0, 2, LineRemoved, "three", 3, 0, false, false}},
		},
		{
			file: "rename.diff", lines: 21, ins: 2, del: 2,
			files: []wantFile{{old: "src/greek.txt", new: "src/letters.txt", status: StatusRenamed, line: 1, hunks: 2, ins: 2, del: 2, sim: 85, oldMode: "100644", newMode: "100644"}},
			hunks: []wantHunk{{0, 0, 8, 1, 6, 1, 6, "", 7}, {0, 1, 16, 9, 4, 9, 4, "theta", 5}},
			dlines: []wantLine{
				{0, 0, 2, LineRemoved, "gamma", 3, 0, false, false},
				{0, 0, 3, LineAdded, "GAMMA", 0, 3, false, false},
				{0, 0, 4, LineContext, "delta", 4, 4, false, false},
				{0, 1, 4, LineAdded, "mu!", 0, 12, false, false},
			},
		},
		{
			file: "copy.diff", lines: 12, ins: 1,
			files:  []wantFile{{old: "docs/notes.txt", new: "docs/notes-copy.txt", status: StatusCopied, line: 1, hunks: 1, ins: 1, sim: 96, oldMode: "100644", newMode: "100644"}},
			hunks:  []wantHunk{{0, 0, 8, 28, 3, 28, 4, "line 27", 4}},
			dlines: []wantLine{{0, 0, 0, LineContext, "line 28", 28, 28, false, false}, {0, 0, 3, LineAdded, "line 31", 0, 31, false, false}},
		},
		{
			file: "mode-only.diff", lines: 3,
			files: []wantFile{{old: "run.sh", new: "run.sh", status: StatusModified, line: 1, modeOnly: true, oldMode: "100644", newMode: "100755"}},
		},
		{
			file: "binary.diff", lines: 20, ins: 1,
			files: []wantFile{
				{old: "logo.bin", new: "logo.bin", status: StatusModified, line: 1, binary: true, oldMode: "100644", newMode: "100644"},
				{old: "logo.bin", new: "logo.bin", status: StatusModified, line: 4, binary: true, oldMode: "100644", newMode: "100644"},
				// The payload of the GIT binary patch is skipped, not taken for garbage.
				{old: "src/added.go", new: "src/added.go", status: StatusModified, line: 13, hunks: 1, ins: 1, oldMode: "100644", newMode: "100644"},
			},
			dlines: []wantLine{{2, 0, 2, LineAdded, "after binary", 0, 3, false, false}},
		},
		{
			file: "quoted.diff", lines: 7, ins: 1,
			files:  []wantFile{{new: "caf\u00e9.txt", status: StatusAdded, line: 1, hunks: 1, ins: 1, newMode: "100644"}},
			hunks:  []wantHunk{{0, 0, 6, 0, 0, 1, 1, "", 1}},
			dlines: []wantLine{{0, 0, 0, LineAdded, "caf", 0, 1, false, false}},
		},
		{
			file: "spaces.diff", lines: 14, ins: 1,
			files: []wantFile{
				{old: "my file.txt", new: "my file.txt", status: StatusModified, line: 1, hunks: 1, ins: 1, oldMode: "100644", newMode: "100644"},
				{old: "my file.txt", new: "docs/my notes.txt", status: StatusRenamed, line: 8, sim: 100},
				// No ---/+++ nor rename headers: the names come from splitting
				// "diff --git a/tools/build all.sh b/tools/build all.sh" symmetrically.
				{old: "tools/build all.sh", new: "tools/build all.sh", status: StatusModified, line: 12, modeOnly: true, oldMode: "100644", newMode: "100755"},
			},
			dlines: []wantLine{{0, 0, 1, LineAdded, "y", 0, 2, false, false}},
		},
		{
			file: "noeol.diff", lines: 18, ins: 2, del: 2,
			files: []wantFile{
				{old: "eof.txt", new: "eof.txt", status: StatusModified, line: 1, hunks: 1, ins: 1, del: 1, oldMode: "100644", newMode: "100644"},
				{old: "tail.txt", new: "tail.txt", status: StatusModified, line: 11, hunks: 1, ins: 1, del: 1, oldMode: "100644", newMode: "100644"},
			},
			dlines: []wantLine{
				{0, 0, 0, LineContext, "keep", 1, 1, false, false},
				{0, 0, 1, LineRemoved, "last", 2, 0, true, false},
				{0, 0, 2, LineAdded, "changed last", 0, 2, true, false},
				{1, 0, 0, LineRemoved, "tail without newline", 1, 0, true, false},
				{1, 0, 1, LineAdded, "tail now with newline", 0, 1, false, false},
			},
		},
		{
			file: "crlf.diff", lines: 9, ins: 1, del: 1,
			files: []wantFile{{old: "win.txt", new: "win.txt", status: StatusModified, line: 1, hunks: 1, ins: 1, del: 1, oldMode: "100644", newMode: "100644"}},
			dlines: []wantLine{
				{0, 0, 0, LineContext, "first", 1, 1, false, true},
				{0, 0, 1, LineRemoved, "second", 2, 0, false, true},
				{0, 0, 2, LineAdded, "SECOND", 0, 2, false, true},
				{0, 0, 3, LineContext, "third", 3, 3, false, true},
			},
		},
		{
			file: "lying.diff", lines: 22, ins: 5, del: 3,
			files: []wantFile{
				{old: "src/short.go", new: "src/short.go", status: StatusModified, line: 1, hunks: 1, ins: 2, del: 1, oldMode: "100644", newMode: "100644"},
				{old: "src/long.go", new: "src/long.go", status: StatusModified, line: 11, hunks: 2, ins: 3, del: 2},
			},
			hunks: []wantHunk{
				{0, 0, 5, 1, 3, 1, 5, "func short()", 5},
				{1, 0, 14, 10, 2, 10, 2, "", 5},
				{1, 1, 20, 40, 1, 41, 1, "", 2},
			},
			// The line past the count is kept and numbered.
			dlines:   []wantLine{{1, 0, 4, LineAdded, "extra", 0, 13, false, false}, {1, 1, 1, LineAdded, "FORTY", 0, 41, false, false}},
			problems: []string{"diff-hunk-count@5", "diff-hunk-count@14"},
			messages: []string{"hunk at line 5 says 5 new lines but 4 follow", "hunk at line 14 says 2 old and 2 new lines but 3 old and 4 new follow"},
		},
		{
			file: "orphan.diff", lines: 10, ins: 1, del: 1,
			files:    []wantFile{{old: "ok.txt", new: "ok.txt", status: StatusModified, line: 5, hunks: 1, ins: 1, del: 1}},
			dlines:   []wantLine{{0, 0, 1, LineAdded, "after", 0, 1, false, false}},
			problems: []string{"diff-parse@1"},
			messages: []string{"hunk at line 1 is not inside any file"},
		},
		{
			file: "garbage.diff", lines: 36, ins: 3, del: 4,
			files: []wantFile{
				{old: "one.txt", new: "one.txt", status: StatusModified, line: 2, hunks: 1, ins: 1, del: 1, oldMode: "100644", newMode: "100644"},
				{old: "two.txt", new: "two.txt", status: StatusModified, line: 15, hunks: 2, ins: 2, del: 2},
				{old: "three.txt", status: StatusDeleted, line: 31, hunks: 1, del: 1, oldMode: "100644"},
			},
			hunks: []wantHunk{
				{1, 0, 18, 5, 3, 5, 3, "section two", 4},
				{1, 1, 26, 20, 1, 20, 1, "", 2},
				{2, 0, 35, 1, 1, 0, 0, "", 1},
			},
			dlines:   []wantLine{{1, 1, 1, LineAdded, "TWENTY", 0, 20, false, false}},
			problems: []string{"diff-parse@12", "diff-parse@23", "diff-parse@29"},
			messages: []string{"lines 12-13 look like diff lines but are outside any hunk", "could not read the hunk header at line 23", "could not read the hunk header at line 29"},
		},
		{
			file: "plain.diff", lines: 17, ins: 3, del: 2,
			files: []wantFile{
				{old: "lib/util.c", new: "lib/util.c", status: StatusModified, line: 1, hunks: 1, ins: 1, del: 1},
				{old: "lib/other.c", new: "lib/other.c", status: StatusModified, line: 8, hunks: 1, ins: 1, del: 1},
				{new: "lib/new.c", status: StatusAdded, line: 14, hunks: 1, ins: 1},
			},
			hunks:    []wantHunk{{0, 0, 3, 1, 3, 1, 3, "", 4}, {1, 0, 10, 7, 4, 7, 4, "", 3}, {2, 0, 16, 0, 0, 1, 1, "", 1}},
			problems: []string{"diff-hunk-count@10"},
			messages: []string{"hunk at line 10 says 4 old and 4 new lines but 2 old and 2 new follow"},
		},
		{
			file: "multi.diff", lines: 56, ins: 7, del: 5,
			files: []wantFile{
				{old: "src/main.go", new: "src/main.go", status: StatusModified, line: 1, hunks: 1, ins: 3, del: 1, oldMode: "100644", newMode: "100644"},
				{old: "docs/notes.txt", new: "docs/notes.txt", status: StatusModified, line: 14, hunks: 2, ins: 2, del: 2, oldMode: "100644", newMode: "100644"},
				{old: "src/greek.txt", new: "src/letters.txt", status: StatusRenamed, line: 36, hunks: 2, ins: 2, del: 2, sim: 85, oldMode: "100644", newMode: "100644"},
			},
			hunks: []wantHunk{{1, 0, 18, 2, 7, 2, 7, "line 1", 8}, {1, 1, 27, 22, 7, 22, 7, "line 21", 8}},
			dlines: []wantLine{
				{0, 0, 1, LineContext, "", 2, 2, false, false},
				{0, 0, 4, LineContext, "func main() {", 3, 5, false, false},
				{0, 0, 5, LineRemoved, "\tprintln(\"hello\")", 4, 0, false, false},
				{0, 0, 6, LineAdded, "\tfmt.Println(\"hello, world\")", 0, 6, false, false},
				{1, 1, 4, LineAdded, "line twenty-five", 0, 25, false, false},
			},
		},
		{
			file: "full.diff", lines: 132, ins: 15, del: 11,
		},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			data := readDiffFixture(t, tc.file)
			d, probs := ParseDiff(data)
			checkDiffInvariants(t, data, d, probs)
			if d.Lines != tc.lines || d.Insertions != tc.ins || d.Deletions != tc.del {
				t.Errorf("lines/+/- = %d/%d/%d, want %d/%d/%d", d.Lines, d.Insertions, d.Deletions, tc.lines, tc.ins, tc.del)
			}
			if tc.files != nil && len(d.Files) != len(tc.files) {
				t.Fatalf("got %d files, want %d", len(d.Files), len(tc.files))
			}
			for i, w := range tc.files {
				f := d.Files[i]
				got := wantFile{f.OldPath, f.NewPath, f.Status, f.Line, len(f.Hunks), f.Insertions, f.Deletions, f.Binary, f.ModeOnly, f.Similarity, f.OldMode, f.NewMode}
				if got != w {
					t.Errorf("file %d:\n got %+v\nwant %+v", i, got, w)
				}
			}
			for _, w := range tc.hunks {
				h := d.Files[w.file].Hunks[w.hunk]
				got := wantHunk{w.file, w.hunk, h.Line, h.OldStart, h.OldLines, h.NewStart, h.NewLines, h.Section, len(h.Lines)}
				if got != w {
					t.Errorf("hunk %d.%d:\n got %+v\nwant %+v", w.file, w.hunk, got, w)
				}
			}
			for _, w := range tc.dlines {
				l := d.Files[w.file].Hunks[w.hunk].Lines[w.idx]
				got := wantLine{w.file, w.hunk, w.idx, l.Kind, l.Text, l.Old, l.New, l.NoNewline, l.CR}
				if got != w {
					t.Errorf("line %d.%d.%d:\n got %+v\nwant %+v", w.file, w.hunk, w.idx, got, w)
				}
			}
			var gotProbs []string
			for _, p := range probs {
				gotProbs = append(gotProbs, fmt.Sprintf("%s@%d", p.Code, p.Line))
			}
			if strings.Join(gotProbs, " ") != strings.Join(tc.problems, " ") {
				t.Errorf("problems = %v, want %v\n%+v", gotProbs, tc.problems, probs)
			}
			for i, m := range tc.messages {
				if i < len(probs) && !strings.Contains(probs[i].Message, m) {
					t.Errorf("problem %d message %q does not contain %q", i, probs[i].Message, m)
				}
			}
		})
	}
}

// TestParseDiffInline covers shapes too small to deserve a fixture.
func TestParseDiffInline(t *testing.T) {
	cases := []struct {
		name, in string
		paths    []string // Path() of each file
		status   string   // statuses, one letter per file
		lines    []string // every hunk line of every file as "kind old new text"
		problems []string
	}{
		{name: "empty", in: ""},
		{name: "only prose", in: "nothing to see\nhere\n"},
		{
			name:  "empty context line",
			in:    "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n",
			paths: []string{"x"}, status: "M",
			lines: []string{"  1 1 a", "  2 2 ", "- 3 0 b", "+ 0 3 c"},
		},
		{
			name:  "count defaults to one and insertion after a line",
			in:    "--- x\n+++ x\n@@ -5 +5,0 @@\n-gone\n@@ -9,0 +9 @@\n+came\n",
			paths: []string{"x"}, status: "M",
			lines: []string{"- 5 0 gone", "+ 0 9 came"},
		},
		{
			name:  "both names quoted with spaces",
			in:    "diff --git \"a/one two\" \"b/one two\"\nnew file mode 100644\n",
			paths: []string{"one two"}, status: "A",
		},
		{
			name:  "second name quoted only",
			in:    "diff --git a/plain \"b/tab\\there\"\nrename from plain\nrename to \"tab\\there\"\n",
			paths: []string{"tab\there"}, status: "R",
		},
		{
			name:  "escapes",
			in:    "diff --git \"a/q\\\"\\\\\\n\" \"b/q\\\"\\\\\\n\"\ndeleted file mode 100644\n",
			paths: []string{"q\"\\\n"}, status: "D",
		},
		{
			name:  "mnemonic prefixes",
			in:    "diff --git i/lib.go w/lib.go\n--- i/lib.go\n+++ w/lib.go\n@@ -1 +1 @@\n-a\n+b\n",
			paths: []string{"lib.go"}, status: "M",
			lines: []string{"- 1 0 a", "+ 0 1 b"},
		},
		{
			name:  "plain binary line",
			in:    "Binary files /dev/null and b/img.png differ\n",
			paths: []string{"img.png"}, status: "A",
		},
		{
			name:  "binary line after ---/+++ belongs to its file",
			in:    "diff --git a/a.png b/a.png\n--- a/a.png\n+++ b/a.png\nBinary files a/a.png and b/a.png differ\nBinary files a/b.png and b/b.png differ\n",
			paths: []string{"a.png", "b.png"}, status: "MM",
		},
		{
			name:  "no newline marker outside a hunk is ignored",
			in:    "\\ No newline at end of file\n",
			paths: nil,
		},
		{
			name:  "truncated inside a hunk",
			in:    "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,4 +1,4 @@\n a\n-b",
			paths: []string{"x"}, status: "M",
			lines:    []string{"  1 1 a", "- 2 0 b"},
			problems: []string{"diff-hunk-count@4"},
		},
		{
			name:  "combined diff",
			in:    "diff --cc f\n@@@ -1,1 -1,1 +1,1 @@@\n- a\n +b\ndiff --git a/y b/y\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-1\n+2\n",
			paths: []string{"y"}, status: "M",
			lines:    []string{"- 1 0 1", "+ 0 1 2"},
			problems: []string{"diff-parse@1"},
		},
		{
			name:  "header without names",
			in:    "diff --git \n",
			paths: []string{""}, status: "M",
			problems: []string{"diff-parse@1"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, probs := ParseDiff([]byte(tc.in))
			checkDiffInvariants(t, []byte(tc.in), d, probs)
			var paths []string
			var status strings.Builder
			var lines []string
			for _, f := range d.Files {
				paths = append(paths, f.Path())
				status.WriteByte(byte(f.Status))
				for _, h := range f.Hunks {
					for _, l := range h.Lines {
						lines = append(lines, fmt.Sprintf("%c %d %d %s", l.Kind, l.Old, l.New, l.Text))
					}
				}
			}
			if fmt.Sprintf("%q", paths) != fmt.Sprintf("%q", tc.paths) {
				t.Errorf("paths = %q, want %q", paths, tc.paths)
			}
			if status.String() != tc.status {
				t.Errorf("status = %q, want %q", status.String(), tc.status)
			}
			if strings.Join(lines, "|") != strings.Join(tc.lines, "|") {
				t.Errorf("lines =\n%q\nwant\n%q", lines, tc.lines)
			}
			var codes []string
			for _, p := range probs {
				codes = append(codes, fmt.Sprintf("%s@%d", p.Code, p.Line))
			}
			if strings.Join(codes, " ") != strings.Join(tc.problems, " ") {
				t.Errorf("problems = %v, want %v\n%+v", codes, tc.problems, probs)
			}
		})
	}
}

func TestParseDiffLongLine(t *testing.T) {
	long := strings.Repeat("x", 300_000)
	in := "diff --git a/min.js b/min.js\nnew file mode 100644\n--- /dev/null\n+++ b/min.js\n@@ -0,0 +1,2 @@\n+" + long + "\n+end\n"
	d, probs := ParseDiff([]byte(in))
	if len(probs) != 0 {
		t.Fatalf("problems: %+v", probs)
	}
	lines := d.Files[0].Hunks[0].Lines
	if len(lines) != 2 || lines[0].Text != long || lines[1].Text != "end" || lines[1].New != 2 {
		t.Fatalf("long line not read whole: %d lines", len(lines))
	}
}

func TestDiffLocate(t *testing.T) {
	d, _ := ParseDiff(readDiffFixture(t, "full.diff"))
	idx := func(path string) int {
		for i, f := range d.Files {
			if f.Path() == path {
				return i
			}
		}
		t.Fatalf("no file %s in full.diff", path)
		return -1
	}
	letters, notes, old := idx("src/letters.txt"), idx("docs/notes.txt"), idx("old.txt")
	cases := []struct {
		path                string
		line                int
		file, hunk, lineIdx int
		in                  bool
	}{
		{"src/letters.txt", 3, letters, 0, 3, true},    // the added GAMMA, not the removed gamma
		{"src/letters.txt", 12, letters, 1, 4, true},   // mu! in the second hunk
		{"src/letters.txt", 7, letters, -1, -1, false}, // between the hunks
		{"src/letters.txt", 0, letters, -1, -1, false},
		{"docs/notes.txt", 25, notes, 1, 4, true},
		{"docs/notes.txt", 40, notes, -1, -1, false},
		{"old.txt", 1, old, -1, -1, false}, // deleted: no new side
		{"src/greek.txt", 3, -1, -1, -1, false},
		{"letters.txt", 3, -1, -1, -1, false}, // exact paths only
		{"", 1, -1, -1, -1, false},
	}
	for _, tc := range cases {
		f, h, l, in := d.Locate(tc.path, tc.line)
		if f != tc.file || h != tc.hunk || l != tc.lineIdx || in != tc.in {
			t.Errorf("Locate(%q, %d) = %d,%d,%d,%v; want %d,%d,%d,%v", tc.path, tc.line, f, h, l, in, tc.file, tc.hunk, tc.lineIdx, tc.in)
		}
		if in {
			if got := d.Files[f].Hunks[h].Lines[l].New; got != tc.line {
				t.Errorf("Locate(%q, %d) points at new line %d", tc.path, tc.line, got)
			}
		}
	}
	for _, tc := range []struct {
		path string
		want int
	}{
		{"src/letters.txt", letters},
		{"src/greek.txt", letters}, // the old path of a rename
		{"old.txt", old},
		{"docs/notes.txt", notes}, // the new path wins over the copy's old path
		{"nope", -1},
		{"", -1},
	} {
		if got := d.FileIndex(tc.path); got != tc.want {
			t.Errorf("FileIndex(%q) = %d, want %d", tc.path, got, tc.want)
		}
	}
	var nilDiff *Diff
	if f, _, _, _ := nilDiff.Locate("x", 1); f != -1 || nilDiff.FileIndex("x") != -1 {
		t.Error("a nil diff must locate nothing")
	}
}

// genLargeDiff writes files×(4 header + hunks×(1+48)) lines of diff.
func genLargeDiff(files, hunks int) []byte {
	var b strings.Builder
	for f := range files {
		name := fmt.Sprintf("pkg%03d/file%04d.go", f%100, f)
		fmt.Fprintf(&b, "diff --git a/%s b/%s\nindex 0123456..789abcd 100644\n--- a/%s\n+++ b/%s\n", name, name, name, name)
		for h := range hunks {
			start := 1 + h*100
			fmt.Fprintf(&b, "@@ -%d,44 +%d,44 @@ func f%d() {\n", start, start, h)
			for i := range 48 {
				switch {
				case i >= 20 && i < 24:
					fmt.Fprintf(&b, "-\told := compute(%d, %d)\n", f, i)
				case i >= 24 && i < 28:
					fmt.Fprintf(&b, "+\tnew := computeBetter(%d, %d)\n", f, i)
				default:
					fmt.Fprintf(&b, " \tkeep(%d, %d) // unchanged context line\n", f, i)
				}
			}
		}
	}
	return []byte(b.String())
}

func TestParseDiffLarge(t *testing.T) {
	data := genLargeDiff(1000, 4)
	d, probs := ParseDiff(data)
	if d.Lines != 200_000 || len(d.Files) != 1000 || len(probs) != 0 {
		t.Fatalf("lines=%d files=%d problems=%d", d.Lines, len(d.Files), len(probs))
	}
	if d.Insertions != 16_000 || d.Deletions != 16_000 {
		t.Fatalf("+%d -%d", d.Insertions, d.Deletions)
	}
	// Lean means allocations grow with files and hunks, never with lines.
	allocs := testing.AllocsPerRun(3, func() { ParseDiff(data) })
	if allocs > 12_000 {
		t.Errorf("%.0f allocations for 200,000 lines; want no per-line allocation", allocs)
	}
}

func BenchmarkParseDiff(b *testing.B) {
	data := genLargeDiff(1000, 4)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		ParseDiff(data)
	}
}
