package packet

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// basicFiles is testdata/source/basic as packet-relative name → content.
func basicFiles(t testing.TB) map[string]string {
	t.Helper()
	return readTree(t, filepath.Join("testdata", "source", "basic"))
}

// readTree is every file below root as slash-separated relative name →
// content.
func readTree(t testing.TB, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatalf("reading the files below %s: %v", root, err)
	}
	return files
}

// copyBasic writes the basic packet under dir.
func copyBasic(t *testing.T, dir string) {
	t.Helper()
	for name, body := range basicFiles(t) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// walkFiles lists every regular file of fsys.
func walkFiles(t *testing.T, fsys fs.FS) []string {
	t.Helper()
	var out []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walking: %v", err)
	}
	slices.Sort(out)
	return out
}

func symlinkOrSkip(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symbolic links unavailable: %v", err)
	}
}

func TestOpenSourceDirRefusesEscapes(t *testing.T) {
	tmp := t.TempDir()
	pkt := filepath.Join(tmp, "pkt")
	outside := filepath.Join(tmp, "outside")
	copyBasic(t, pkt)
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"secret.log", "secret.md"} {
		if err := os.WriteFile(filepath.Join(outside, n), []byte("secret\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	logs := filepath.Join(pkt, "validation", "logs")
	symlinkOrSkip(t, "../../../outside/secret.log", filepath.Join(logs, "relative-out.log"))
	symlinkOrSkip(t, filepath.Join(outside, "secret.log"), filepath.Join(logs, "absolute-out.log"))
	symlinkOrSkip(t, "../outside/secret.md", filepath.Join(pkt, "linked-doc.md"))
	symlinkOrSkip(t, outside, filepath.Join(pkt, "linked-folder"))
	symlinkOrSkip(t, "01-lint.log", filepath.Join(logs, "inside.log"))
	symlinkOrSkip(t, "../validation", filepath.Join(pkt, "validation", "loop-up"))
	symlinkOrSkip(t, "self.log", filepath.Join(logs, "self.log"))

	src, err := OpenSource(pkt)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if src.Kind != KindDir {
		t.Errorf("kind = %q, want dir", src.Kind)
	}

	outsideNames := []string{
		"../secret",
		"../outside/secret.log",
		"/etc/passwd",
		filepath.Join(outside, "secret.log"),
		"validation/../../outside/secret.log",
		"validation/logs/relative-out.log",
		"validation/logs/absolute-out.log",
		"linked-folder/secret.log",
		"linked-doc.md",
	}
	for _, name := range outsideNames {
		t.Run("log "+name, func(t *testing.T) {
			l, err := OpenLog(src, name)
			if err == nil {
				l.Close()
				t.Fatalf("OpenLog(%q) succeeded", name)
			}
			if !errors.Is(err, ErrOutsidePacket) {
				t.Fatalf("OpenLog(%q) = %v, want ErrOutsidePacket", name, err)
			}
		})
	}
	for _, name := range []string{"linked-doc.md", "linked-folder/secret.md", "validation/logs/relative-out.log"} {
		if _, _, err := ReadCapped(src.FS, name, DocLimit); !errors.Is(err, ErrOutsidePacket) {
			t.Errorf("ReadCapped(%q) = %v, want ErrOutsidePacket", name, err)
		}
	}
	if _, err := fs.ReadDir(src.FS, "linked-folder"); !errors.Is(err, ErrOutsidePacket) {
		t.Errorf("ReadDir(linked-folder) = %v, want ErrOutsidePacket", err)
	}

	// Links that stay inside are followed.
	l, err := OpenLog(src, "validation/logs/inside.log")
	if err != nil {
		t.Fatalf("inside link: %v", err)
	}
	lines, err := l.ReadLines(1, 1)
	l.Close()
	if err != nil || len(lines) != 1 || lines[0] != "linting widgets/..." {
		t.Errorf("inside link lines = %q, %v", lines, err)
	}
	if _, err := OpenLog(src, "validation/loop-up/logs/01-lint.log"); err != nil {
		t.Errorf("link to a parent folder inside the packet: %v", err)
	}
	if _, err := OpenLog(src, "validation/logs/self.log"); err == nil || errors.Is(err, ErrOutsidePacket) {
		t.Errorf("self link = %v, want a link-loop error", err)
	}
	if _, err := OpenLog(src, "validation/logs/nope.log"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing log = %v, want fs.ErrNotExist", err)
	}
	if _, err := OpenLog(src, "./validation/logs/01-lint.log"); err != nil {
		t.Errorf("./ prefix: %v", err)
	}
}

func TestOpenSourceDirRefusesFIFO(t *testing.T) {
	pkt := t.TempDir()
	copyBasic(t, pkt)
	fifo := filepath.Join(pkt, "validation", "logs", "pipe.log")
	if err := exec.Command("mkfifo", fifo).Run(); err != nil {
		t.Skipf("mkfifo unavailable: %v", err)
	}
	src, err := OpenSource(pkt)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	done := make(chan error, 2)
	go func() {
		_, err := OpenLog(src, "validation/logs/pipe.log")
		done <- err
		_, _, err = ReadCapped(src.FS, "validation/logs/pipe.log", DocLimit)
		done <- err
	}()
	for range 2 {
		select {
		case err := <-done:
			if err == nil {
				t.Error("a named pipe was opened")
			}
		case <-time.After(5 * time.Second):
			t.Fatal("opening a named pipe blocked")
		}
	}
	// Opening the pipe itself as a packet is refused too, without blocking.
	if _, err := OpenSource(fifo); !errors.Is(err, ErrNotAPacket) {
		t.Errorf("OpenSource(fifo) = %v, want ErrNotAPacket", err)
	}
}

func TestOpenSourceReviewOnly(t *testing.T) {
	src, err := OpenSource(filepath.Join("testdata", "source", "review-only"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if got := walkFiles(t, src.FS); !slices.Equal(got, []string{"review.md"}) {
		t.Errorf("files = %q", got)
	}
	if len(src.Problems) != 0 {
		t.Errorf("problems = %v", src.Problems)
	}
	data, trunc, err := ReadCapped(src.FS, ReviewFile, DocLimit)
	if err != nil || trunc || !strings.Contains(string(data), "## Assessment: sound") {
		t.Errorf("ReadCapped = %q, %v, %v", data, trunc, err)
	}
	if _, _, err := ReadCapped(src.FS, PlanFile, DocLimit); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing plan = %v", err)
	}
	if _, err := OpenLog(src, "validation/logs/x.log"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing log = %v", err)
	}
}

func TestOpenSourceNotAPacket(t *testing.T) {
	tmp := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := map[string]string{
		"missing":      filepath.Join(tmp, "nope"),
		"text":         write("notes.txt", []byte("just some notes\n")),
		"garbage zip":  write("broken.zip", []byte("PK\x03\x04 not really")),
		"garbage tar":  write("broken.tar", bytes.Repeat([]byte("x"), 1500)),
		"tgz not gzip": write("broken.tgz", []byte("plain text")),
		"gzip not tar": write("single.gz", gzipBytes(t, []byte("hello\n"))),
		"empty file":   write("empty.zip", nil),
	}
	for name, p := range cases {
		t.Run(name, func(t *testing.T) {
			src, err := OpenSource(p)
			if err == nil {
				src.Close()
				t.Fatal("opened")
			}
			if !errors.Is(err, ErrNotAPacket) {
				t.Errorf("err = %v, want ErrNotAPacket", err)
			}
		})
	}
}

func gzipBytes(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// entry is one archive entry a test writes.
type entry struct {
	name   string
	body   string
	kind   byte // tar type flag; 0 for a regular file
	link   string
	stored bool // zip: no compression
}

// hostileEntries are the basic packet under a top-level folder plus entries
// that must be refused.
func hostileEntries(t *testing.T, top string) []entry {
	var es []entry
	if top != "" {
		es = append(es, entry{name: top + "/", kind: tar.TypeDir})
	}
	names := make([]string, 0)
	files := basicFiles(t)
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		e := entry{name: n, body: files[n]}
		if top != "" {
			e.name = top + "/" + n
		}
		e.stored = strings.HasSuffix(n, "01-lint.log")
		es = append(es, e)
	}
	return append(es,
		entry{name: "../evil", body: "escaped\n"},
		entry{name: "/abs/evil", body: "absolute\n"},
		entry{name: top + "/link.md", kind: tar.TypeSymlink, link: "/etc/passwd"},
	)
}

func writeZip(t testing.TB, p string, es []entry) {
	t.Helper()
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestSpeed)
	})
	for _, e := range es {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		body := e.body
		switch e.kind {
		case tar.TypeDir:
			h.SetMode(fs.ModeDir | 0o755)
		case tar.TypeSymlink:
			h.SetMode(fs.ModeSymlink | 0o777)
			body = e.link
		default:
			h.SetMode(0o644)
		}
		if e.stored {
			h.Method = zip.Store
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if e.kind != tar.TypeDir {
			io.WriteString(w, body)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func writeTar(t testing.TB, p string, es []entry, gz bool) {
	t.Helper()
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	var w io.Writer = f
	var zw *gzip.Writer
	if gz {
		zw, _ = gzip.NewWriterLevel(f, gzip.BestSpeed)
		w = zw
	}
	tw := tar.NewWriter(w)
	// git archive starts with a global header; it is metadata, not an entry.
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeXGlobalHeader, Name: "pax_global_header",
		PAXRecords: map[string]string{"comment": "0123abcd"}}); err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		h := &tar.Header{Name: e.name, Mode: 0o644, Typeflag: e.kind, Linkname: e.link, ModTime: time.Unix(1700000000, 0)}
		if e.kind == 0 {
			h.Typeflag = tar.TypeReg
			h.Size = int64(len(e.body))
		}
		if e.kind == tar.TypeDir {
			h.Mode = 0o755
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			io.WriteString(tw, e.body)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if zw != nil {
		zw.Close()
	}
	f.Close()
}

func TestOpenSourceArchives(t *testing.T) {
	want := basicFiles(t)
	wantNames := make([]string, 0, len(want))
	for n := range want {
		wantNames = append(wantNames, n)
	}
	slices.Sort(wantNames)

	type archive struct {
		file, kind string
		write      func(p string, es []entry)
	}
	archives := []archive{
		{"pkt.zip", KindZip, func(p string, es []entry) { writeZip(t, p, es) }},
		{"pkt.tar", KindTar, func(p string, es []entry) { writeTar(t, p, es, false) }},
		{"pkt.tar.gz", KindTgz, func(p string, es []entry) { writeTar(t, p, es, true) }},
		{"pkt.tgz", KindTgz, func(p string, es []entry) { writeTar(t, p, es, true) }},
		// Misnamed archives are recognised by content.
		{"zip-named.bin", KindZip, func(p string, es []entry) { writeZip(t, p, es) }},
		{"tar-named.zip", KindTar, func(p string, es []entry) { writeTar(t, p, es, false) }},
		{"tgz-named.tar", KindTgz, func(p string, es []entry) { writeTar(t, p, es, true) }},
	}
	for _, top := range []string{"", "DYN-1-packet", "validation-run"} {
		for _, a := range archives {
			t.Run(a.file+"/"+top, func(t *testing.T) {
				p := filepath.Join(t.TempDir(), a.file)
				es := hostileEntries(t, top)
				// The tar writer itself refuses nothing; the tar reader must.
				if a.kind != KindZip {
					es = append(es,
						entry{name: "hard", kind: tar.TypeLink, link: "plan.md"},
						entry{name: "dev", kind: tar.TypeChar},
						entry{name: "pipe", kind: tar.TypeFifo},
					)
				}
				a.write(p, es)
				src, err := OpenSource(p)
				if err != nil {
					t.Fatal(err)
				}
				defer src.Close()
				if src.Kind != a.kind {
					t.Errorf("kind = %q, want %q", src.Kind, a.kind)
				}
				if got := walkFiles(t, src.FS); !slices.Equal(got, wantNames) {
					t.Errorf("files = %q\nwant %q", got, wantNames)
				}
				for _, n := range wantNames {
					data, trunc, err := ReadCapped(src.FS, n, DocLimit)
					if err != nil || trunc || string(data) != want[n] {
						t.Errorf("ReadCapped(%s) = %q, %v, %v", n, data, trunc, err)
					}
				}
				unsafe := map[string]bool{}
				for _, pr := range src.Problems {
					if pr.Code != CodeArchiveUnsafeEntry {
						t.Errorf("unexpected problem %+v", pr)
						continue
					}
					if pr.Severity != SevError || !strings.Contains(pr.Message, pr.File) {
						t.Errorf("problem %+v", pr)
					}
					unsafe[pr.File] = true
				}
				wantUnsafe := []string{"../evil", "/abs/evil", top + "/link.md"}
				if a.kind != KindZip {
					wantUnsafe = append(wantUnsafe, "hard", "dev", "pipe")
				}
				for _, n := range wantUnsafe {
					if !unsafe[n] {
						t.Errorf("no archive-unsafe-entry for %q; problems %v", n, src.Problems)
					}
				}
				for _, n := range []string{"../evil", "evil", "link.md", "abs/evil"} {
					if _, err := fs.Stat(src.FS, n); err == nil {
						t.Errorf("%s is reachable", n)
					}
				}
				for _, n := range []string{"../evil", "/etc/passwd", "link.md"} {
					if _, err := OpenLog(src, n); err == nil {
						t.Errorf("OpenLog(%q) succeeded", n)
					} else if n != "link.md" && !errors.Is(err, ErrOutsidePacket) {
						t.Errorf("OpenLog(%q) = %v, want ErrOutsidePacket", n, err)
					}
				}
				// Logs read the same whether stored, compressed or in a tar.
				for _, n := range []string{"validation/logs/01-lint.log", "validation/logs/02-unit-tests.log"} {
					l, err := OpenLog(src, n)
					if err != nil {
						t.Fatal(err)
					}
					if err := l.Index(t.Context(), nil); err != nil {
						t.Fatal(err)
					}
					lines, err := l.ReadLines(1, 100)
					if err != nil || strings.Join(lines, "\n")+"\n" != want[n] {
						t.Errorf("%s lines = %q, %v", n, lines, err)
					}
					if l.Exit == nil || l.Exit.Line == 0 {
						t.Errorf("%s exit = %+v", n, l.Exit)
					}
					l.Close()
				}
			})
		}
	}
}

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

// A zip bomb opens at once and a capped read of it stays near the cap.
func TestZipBomb(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 128 MiB entry")
	}
	p := filepath.Join(t.TempDir(), "bomb.zip")
	f, _ := os.Create(p)
	zw := zip.NewWriter(f)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestSpeed)
	})
	zeros := make([]byte, 1<<20)
	for n, mib := range map[string]int{"plan.md": 128, "validation/logs/huge.log": 16} {
		w, _ := zw.Create(n)
		for range mib {
			w.Write(zeros)
		}
	}
	zw.Close()
	f.Close()

	// Opening reads the archive's directory, not its entries: what it
	// allocates stays far below the 144 MiB the entries expand to. Bytes
	// allocated, unlike a time, do not depend on the machine.
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	src, err := OpenSource(p)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if n := after.TotalAlloc - before.TotalAlloc; n > 4<<20 {
		t.Errorf("opening the bomb allocated %d bytes; it inflated an entry", n)
	}
	data, trunc, err := ReadCapped(src.FS, "plan.md", DocLimit)
	if err != nil || !trunc || len(data) != DocLimit {
		t.Errorf("ReadCapped = %d bytes, %v, %v", len(data), trunc, err)
	}
	defer func(old int64) { logMemLimit = old }(logMemLimit)
	logMemLimit = 4 << 20
	l, err := OpenLog(src, "validation/logs/huge.log")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if !l.Truncated || l.Size != 4<<20 || len(l.Problems) != 1 || l.Problems[0].Code != CodeFileTooLarge {
		t.Errorf("log = size %d truncated %v problems %v", l.Size, l.Truncated, l.Problems)
	}
}

// The compressed-tar caps cut entries and report it.
func TestTgzLimits(t *testing.T) {
	saved := limits
	defer func() { limits = saved }()
	limits.file, limits.mem, limits.stream, limits.entries = 1000, 2500, 1<<20, 20

	big := strings.Repeat("line of log output\n", 200) // 3800 bytes
	es := []entry{
		{name: "pkt/review.md", body: "# Review\n"},
		{name: "pkt/validation/logs/a.log", body: big},
		{name: "pkt/validation/logs/b.log", body: big},
		{name: "pkt/validation/logs/c.log", body: big},
	}
	p := filepath.Join(t.TempDir(), "p.tgz")
	writeTar(t, p, es, true)
	src, err := OpenSource(p)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	codes := map[string]int{}
	for _, pr := range src.Problems {
		codes[pr.Code]++
	}
	if codes[CodeFileTooLarge] != 3 || codes[CodeArchiveLimit] != 1 {
		t.Errorf("problems = %v", src.Problems)
	}
	data, trunc, err := ReadCapped(src.FS, "validation/logs/a.log", DocLimit)
	if err != nil || !trunc || len(data) != 1000 {
		t.Errorf("a.log = %d bytes, %v, %v", len(data), trunc, err)
	}
	l, err := OpenLog(src, "validation/logs/c.log")
	if err != nil {
		t.Fatal(err)
	}
	if !l.Truncated || l.Size != 2500-9-1000-1000 {
		t.Errorf("c.log size %d truncated %v", l.Size, l.Truncated)
	}

	// Past the entry limit.
	es = nil
	for i := range 30 {
		es = append(es, entry{name: "f" + string(rune('a'+i)) + ".md", body: "x"})
	}
	writeTar(t, p, es, true)
	src2, err := OpenSource(p)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(walkFiles(t, src2.FS)); n != 20 || len(src2.Problems) != 1 || src2.Problems[0].Code != CodeArchiveLimit {
		t.Errorf("%d files, problems %v", n, src2.Problems)
	}

	// A stream longer than the stream limit stops early.
	limits.stream = 64 << 10
	limits.file, limits.mem = 1<<20, 1<<20
	writeTar(t, p, []entry{{name: "a.log", body: strings.Repeat("z", 200<<10)}, {name: "b.md", body: "b"}}, true)
	src3, err := OpenSource(p)
	if err != nil {
		t.Fatal(err)
	}
	codes = map[string]int{}
	for _, pr := range src3.Problems {
		codes[pr.Code]++
	}
	if len(src3.Problems) != 2 || codes[CodeArchiveLimit] != 1 || codes[CodeFileTooLarge] != 1 {
		t.Errorf("problems: %v", src3.Problems)
	}
	if data, trunc, err := ReadCapped(src3.FS, "a.log", DocLimit); err != nil || !trunc || len(data) == 0 || len(data) >= 64<<10 {
		t.Errorf("a.log = %d bytes, %v, %v", len(data), trunc, err)
	}
}

func TestZipEntryLimit(t *testing.T) {
	saved := limits
	defer func() { limits = saved }()
	limits.entries = 5
	var es []entry
	for i := range 8 {
		es = append(es, entry{name: string(rune('a'+i)) + ".md", body: "x"})
	}
	p := filepath.Join(t.TempDir(), "many.zip")
	writeZip(t, p, es)
	src, err := OpenSource(p)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if n := len(walkFiles(t, src.FS)); n != 5 || len(src.Problems) != 1 || src.Problems[0].Code != CodeArchiveLimit {
		t.Errorf("%d files, problems %v", n, src.Problems)
	}
}

func TestArchiveConflicts(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.tar")
	writeTar(t, p, []entry{
		{name: "a", body: "file"},
		{name: "a/b.md", body: "under a file"},
		{name: "d/", kind: tar.TypeDir},
		{name: "d", body: "file over folder"},
		{name: "plan.md", body: "plan"},
	}, false)
	src, err := OpenSource(p)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if got := walkFiles(t, src.FS); !slices.Equal(got, []string{"a", "plan.md"}) {
		t.Errorf("files = %q", got)
	}
	if len(src.Problems) != 2 {
		t.Errorf("problems = %v", src.Problems)
	}

	// One name twice: which plan.md is the packet would depend on the
	// unpacking tool, so the archive is refused.
	dup := filepath.Join(t.TempDir(), "dup.tar")
	writeTar(t, dup, []entry{{name: "plan.md", body: "old"}, {name: "plan.md", body: "new"}}, false)
	if _, err := OpenSource(dup); err == nil || !strings.Contains(err.Error(), CodeArchiveDuplicate) {
		t.Errorf("a tar with plan.md twice: %v", err)
	}
}

func TestReadCapped(t *testing.T) {
	src := SourceFromFS(os.DirFS(filepath.Join("testdata", "source", "basic")), KindEmbedded, "<test>")
	data, trunc, err := ReadCapped(src.FS, PlanFile, 10)
	if err != nil || !trunc || string(data) != "# QRX-101 " {
		t.Errorf("capped = %q, %v, %v", data, trunc, err)
	}
	if _, _, err := ReadCapped(src.FS, "validation", DocLimit); err == nil {
		t.Error("reading a folder succeeded")
	}
	if err := src.Close(); err != nil {
		t.Error(err)
	}
}
