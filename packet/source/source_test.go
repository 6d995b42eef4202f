package source

import (
	"archive/tar"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/packet/source/sourcetest"
)

func TestArchiveNames(t *testing.T) {
	cases := []struct {
		raw, want string
		ok        bool
	}{
		{"plan.md", "plan.md", true},
		{"./plan.md", "plan.md", true},
		{"a//b/./c.log", "a/b/c.log", true},
		{"dir/", "dir", true},
		{"./", "", true},
		{"../evil", "", false},
		{"a/../../evil", "", false},
		{"a/../b", "", false},
		{"/etc/passwd", "", false},
		{"C:\\evil", "", false},
		{"..\\evil", "", false},
		{"a\\b.md", "a/b.md", true},
		{"nul\x00byte", "", false},
	}
	for _, c := range cases {
		got, ok := archiveName(c.raw)
		if got != c.want || ok != c.ok {
			t.Errorf("archiveName(%q) = %q, %v; want %q, %v", c.raw, got, ok, c.want, c.ok)
		}
	}
}

func TestStripTop(t *testing.T) {
	cases := []struct {
		names []string
		want  string
	}{
		{[]string{"plan.md", "validation/registry.jsonl"}, ""},
		{[]string{"p/plan.md", "p/validation/registry.jsonl"}, "p"},
		{[]string{"p/plan.md", "q/plan.md"}, ""},
		{[]string{"validation/registry.jsonl", "validation/logs/a.log"}, ""},
		{[]string{"validation/plan.md", "validation/validation/registry.jsonl"}, "validation"},
	}
	for _, c := range cases {
		dirs := make([]bool, len(c.names))
		if got := stripTop(c.names, dirs); got != c.want {
			t.Errorf("stripTop(%q) = %q, want %q", c.names, got, c.want)
		}
	}
}

// The compressed-tar caps cut entries and report it.
func TestTgzLimits(t *testing.T) {
	saved := limits
	defer func() { limits = saved }()
	limits.file, limits.mem, limits.stream, limits.entries = 1000, 2500, 1<<20, 20

	big := strings.Repeat("line of log output\n", 200) // 3800 bytes
	es := []sourcetest.Entry{
		{Name: "pkt/review.md", Body: "# Review\n"},
		{Name: "pkt/validation/logs/a.log", Body: big},
		{Name: "pkt/validation/logs/b.log", Body: big},
		{Name: "pkt/validation/logs/c.log", Body: big},
	}
	p := filepath.Join(t.TempDir(), "p.tgz")
	sourcetest.WriteTar(t, p, es, true)
	src, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	troubles := map[Trouble]int{}
	for _, pr := range src.Problems {
		troubles[pr.Trouble]++
	}
	if troubles[Cut] != 3 || troubles[OverLimit] != 1 {
		t.Errorf("problems = %v", src.Problems)
	}
	data, trunc, err := ReadCapped(src.FS, "validation/logs/a.log", 1<<20)
	if err != nil || !trunc || len(data) != 1000 {
		t.Errorf("a.log = %d bytes, %v, %v", len(data), trunc, err)
	}
	fi, err := fs.Stat(src.FS, "validation/logs/c.log")
	if err != nil {
		t.Fatal(err)
	}
	if !Truncated(fi) || fi.Size() != 2500-9-1000-1000 {
		t.Errorf("c.log size %d truncated %v", fi.Size(), Truncated(fi))
	}

	// Past the entry limit.
	es = nil
	for i := range 30 {
		es = append(es, sourcetest.Entry{Name: "f" + string(rune('a'+i)) + ".md", Body: "x"})
	}
	sourcetest.WriteTar(t, p, es, true)
	src2, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(sourcetest.Files(t, src2.FS)); n != 20 || len(src2.Problems) != 1 || src2.Problems[0].Trouble != OverLimit {
		t.Errorf("%d files, problems %v", n, src2.Problems)
	}

	// A stream longer than the stream limit stops early.
	limits.stream = 64 << 10
	limits.file, limits.mem = 1<<20, 1<<20
	sourcetest.WriteTar(t, p, []sourcetest.Entry{{Name: "a.log", Body: strings.Repeat("z", 200<<10)}, {Name: "b.md", Body: "b"}}, true)
	src3, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	troubles = map[Trouble]int{}
	for _, pr := range src3.Problems {
		troubles[pr.Trouble]++
	}
	if len(src3.Problems) != 2 || troubles[OverLimit] != 1 || troubles[Cut] != 1 {
		t.Errorf("problems: %v", src3.Problems)
	}
	if data, trunc, err := ReadCapped(src3.FS, "a.log", 1<<20); err != nil || !trunc || len(data) == 0 || len(data) >= 64<<10 {
		t.Errorf("a.log = %d bytes, %v, %v", len(data), trunc, err)
	}
}

func TestZipEntryLimit(t *testing.T) {
	saved := limits
	defer func() { limits = saved }()
	limits.entries = 5
	var es []sourcetest.Entry
	for i := range 8 {
		es = append(es, sourcetest.Entry{Name: string(rune('a'+i)) + ".md", Body: "x"})
	}
	p := filepath.Join(t.TempDir(), "many.zip")
	sourcetest.WriteZip(t, p, es)
	src, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if n := len(sourcetest.Files(t, src.FS)); n != 5 || len(src.Problems) != 1 || src.Problems[0].Trouble != OverLimit {
		t.Errorf("%d files, problems %v", n, src.Problems)
	}
}

func TestArchiveConflicts(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.tar")
	sourcetest.WriteTar(t, p, []sourcetest.Entry{
		{Name: "a", Body: "file"},
		{Name: "a/b.md", Body: "under a file"},
		{Name: "d/", Kind: tar.TypeDir},
		{Name: "d", Body: "file over folder"},
		{Name: "plan.md", Body: "plan"},
	}, false)
	src, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if got := sourcetest.Files(t, src.FS); !slices.Equal(got, []string{"a", "plan.md"}) {
		t.Errorf("files = %q", got)
	}
	if len(src.Problems) != 2 {
		t.Errorf("problems = %v", src.Problems)
	}

	// One name twice: which plan.md is the packet would depend on the
	// unpacking tool, so the archive is refused.
	dup := filepath.Join(t.TempDir(), "dup.tar")
	sourcetest.WriteTar(t, dup, []sourcetest.Entry{{Name: "plan.md", Body: "old"}, {Name: "plan.md", Body: "new"}}, false)
	if _, err := Open(dup); err == nil || !errors.Is(err, ErrDuplicate) || !errors.Is(err, ErrNotAPacket) {
		t.Errorf("a tar with plan.md twice: %v", err)
	}
}
