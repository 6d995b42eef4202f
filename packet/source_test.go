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

	"github.com/vetter-dev/vetter/packet/source"
	"github.com/vetter-dev/vetter/packet/source/sourcetest"
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

	src, err := source.Open(pkt)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if src.Kind != source.KindDir {
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
			if !errors.Is(err, source.ErrOutsidePacket) {
				t.Fatalf("OpenLog(%q) = %v, want source.ErrOutsidePacket", name, err)
			}
		})
	}
	for _, name := range []string{"linked-doc.md", "linked-folder/secret.md", "validation/logs/relative-out.log"} {
		if _, _, err := source.ReadCapped(src.FS, name, DocLimit); !errors.Is(err, source.ErrOutsidePacket) {
			t.Errorf("source.ReadCapped(%q) = %v, want source.ErrOutsidePacket", name, err)
		}
	}
	if _, err := fs.ReadDir(src.FS, "linked-folder"); !errors.Is(err, source.ErrOutsidePacket) {
		t.Errorf("ReadDir(linked-folder) = %v, want source.ErrOutsidePacket", err)
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
	if _, err := OpenLog(src, "validation/logs/self.log"); err == nil || errors.Is(err, source.ErrOutsidePacket) {
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
	src, err := source.Open(pkt)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	done := make(chan error, 2)
	go func() {
		_, err := OpenLog(src, "validation/logs/pipe.log")
		done <- err
		_, _, err = source.ReadCapped(src.FS, "validation/logs/pipe.log", DocLimit)
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
	if _, err := source.Open(fifo); !errors.Is(err, source.ErrNotAPacket) {
		t.Errorf("source.Open(fifo) = %v, want source.ErrNotAPacket", err)
	}
}

func TestOpenSourceReviewOnly(t *testing.T) {
	src, err := source.Open(filepath.Join("testdata", "source", "review-only"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if got := sourcetest.Files(t, src.FS); !slices.Equal(got, []string{"review.md"}) {
		t.Errorf("files = %q", got)
	}
	if len(src.Problems) != 0 {
		t.Errorf("problems = %v", src.Problems)
	}
	data, trunc, err := source.ReadCapped(src.FS, ReviewFile, DocLimit)
	if err != nil || trunc || !strings.Contains(string(data), "## Assessment: sound") {
		t.Errorf("ReadCapped = %q, %v, %v", data, trunc, err)
	}
	if _, _, err := source.ReadCapped(src.FS, PlanFile, DocLimit); !errors.Is(err, fs.ErrNotExist) {
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
			src, err := source.Open(p)
			if err == nil {
				src.Close()
				t.Fatal("opened")
			}
			if !errors.Is(err, source.ErrNotAPacket) {
				t.Errorf("err = %v, want source.ErrNotAPacket", err)
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

// hostileEntries are the basic packet under a top-level folder plus entries
// that must be refused.
func hostileEntries(t *testing.T, top string) []sourcetest.Entry {
	var es []sourcetest.Entry
	if top != "" {
		es = append(es, sourcetest.Entry{Name: top + "/", Kind: tar.TypeDir})
	}
	names := make([]string, 0)
	files := basicFiles(t)
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		e := sourcetest.Entry{Name: n, Body: files[n]}
		if top != "" {
			e.Name = top + "/" + n
		}
		e.Stored = strings.HasSuffix(n, "01-lint.log")
		es = append(es, e)
	}
	return append(es,
		sourcetest.Entry{Name: "../evil", Body: "escaped\n"},
		sourcetest.Entry{Name: "/abs/evil", Body: "absolute\n"},
		sourcetest.Entry{Name: top + "/link.md", Kind: tar.TypeSymlink, Link: "/etc/passwd"},
	)
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
		write      func(p string, es []sourcetest.Entry)
	}
	archives := []archive{
		{"pkt.zip", source.KindZip, func(p string, es []sourcetest.Entry) { sourcetest.WriteZip(t, p, es) }},
		{"pkt.tar", source.KindTar, func(p string, es []sourcetest.Entry) { sourcetest.WriteTar(t, p, es, false) }},
		{"pkt.tar.gz", source.KindTgz, func(p string, es []sourcetest.Entry) { sourcetest.WriteTar(t, p, es, true) }},
		{"pkt.tgz", source.KindTgz, func(p string, es []sourcetest.Entry) { sourcetest.WriteTar(t, p, es, true) }},
		// Misnamed archives are recognised by content.
		{"zip-named.bin", source.KindZip, func(p string, es []sourcetest.Entry) { sourcetest.WriteZip(t, p, es) }},
		{"tar-named.zip", source.KindTar, func(p string, es []sourcetest.Entry) { sourcetest.WriteTar(t, p, es, false) }},
		{"tgz-named.tar", source.KindTgz, func(p string, es []sourcetest.Entry) { sourcetest.WriteTar(t, p, es, true) }},
	}
	for _, top := range []string{"", "DYN-1-packet", "validation-run"} {
		for _, a := range archives {
			t.Run(a.file+"/"+top, func(t *testing.T) {
				p := filepath.Join(t.TempDir(), a.file)
				es := hostileEntries(t, top)
				// The tar writer itself refuses nothing; the tar reader must.
				if a.kind != source.KindZip {
					es = append(es,
						sourcetest.Entry{Name: "hard", Kind: tar.TypeLink, Link: "plan.md"},
						sourcetest.Entry{Name: "dev", Kind: tar.TypeChar},
						sourcetest.Entry{Name: "pipe", Kind: tar.TypeFifo},
					)
				}
				a.write(p, es)
				src, err := source.Open(p)
				if err != nil {
					t.Fatal(err)
				}
				defer src.Close()
				if src.Kind != a.kind {
					t.Errorf("kind = %q, want %q", src.Kind, a.kind)
				}
				if got := sourcetest.Files(t, src.FS); !slices.Equal(got, wantNames) {
					t.Errorf("files = %q\nwant %q", got, wantNames)
				}
				for _, n := range wantNames {
					data, trunc, err := source.ReadCapped(src.FS, n, DocLimit)
					if err != nil || trunc || string(data) != want[n] {
						t.Errorf("source.ReadCapped(%s) = %q, %v, %v", n, data, trunc, err)
					}
				}
				unsafe := map[string]bool{}
				for _, pr := range sourceProblems(src.Problems) {
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
				if a.kind != source.KindZip {
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
					} else if n != "link.md" && !errors.Is(err, source.ErrOutsidePacket) {
						t.Errorf("OpenLog(%q) = %v, want source.ErrOutsidePacket", n, err)
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
	src, err := source.Open(p)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if n := after.TotalAlloc - before.TotalAlloc; n > 4<<20 {
		t.Errorf("opening the bomb allocated %d bytes; it inflated an entry", n)
	}
	data, trunc, err := source.ReadCapped(src.FS, "plan.md", DocLimit)
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

func TestReadCapped(t *testing.T) {
	src := source.FromFS(os.DirFS(filepath.Join("testdata", "source", "basic")), source.KindEmbedded, "<test>")
	data, trunc, err := source.ReadCapped(src.FS, PlanFile, 10)
	if err != nil || !trunc || string(data) != "# QRX-101 " {
		t.Errorf("capped = %q, %v, %v", data, trunc, err)
	}
	if _, _, err := source.ReadCapped(src.FS, "validation", DocLimit); err == nil {
		t.Error("reading a folder succeeded")
	}
	if err := src.Close(); err != nil {
		t.Error(err)
	}
}
