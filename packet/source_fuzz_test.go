package packet

import (
	"archive/tar"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/vetter-dev/vetter/packet/source"
	"github.com/vetter-dev/vetter/packet/source/sourcetest"
)

// FuzzOpenArchive writes arbitrary bytes as a .zip or .tar (a .tgz when
// they start with the gzip magic), then opens it, walks it and reads every
// file and log: nothing may panic or hang.
func FuzzOpenArchive(f *testing.F) {
	dir := f.TempDir()
	seeds := [][]sourcetest.Entry{
		{{Name: "plan.md", Body: "# Plan\n"}, {Name: "validation/logs/a.log", Body: "x\n[exit 0]\n"}},
		{{Name: "pkt/", Kind: tar.TypeDir}, {Name: "pkt/review.md", Body: "# Review\n"}, {Name: "../evil", Body: "e"}},
		{{Name: "link", Kind: tar.TypeSymlink, Link: "/etc/passwd"}, {Name: "a/b/c.log", Body: "l\r\n", Stored: true}},
	}
	for i, es := range seeds {
		for _, kind := range []string{".zip", ".tar", ".tgz"} {
			p := filepath.Join(dir, "seed"+string(rune('0'+i))+kind)
			switch kind {
			case ".zip":
				sourcetest.WriteZip(f, p, es)
			default:
				sourcetest.WriteTar(f, p, es, kind == ".tgz")
			}
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b, kind == ".zip")
		}
	}
	f.Add([]byte("PK\x05\x06"+string(make([]byte, 18))), true)
	f.Add([]byte{}, false)

	f.Fuzz(func(t *testing.T, data []byte, asZip bool) {
		name := "p.tar"
		if asZip {
			name = "p.zip"
		}
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		src, err := source.Open(p)
		if err != nil {
			return
		}
		defer src.Close()
		fs.WalkDir(src.FS, ".", func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			source.ReadCapped(src.FS, name, 1<<16)
			l, err := OpenLog(src, name)
			if err != nil {
				return nil
			}
			defer l.Close()
			if l.Index(t.Context(), nil) == nil {
				n := l.LineCount()
				l.ReadLines(1, 5)
				l.ReadLines(max(n-1, 1), 5)
				l.ReadLineSlice(1, 3, 10)
				l.Search(t.Context(), []byte("exit"), 1, false, nil)
				l.Search(t.Context(), []byte("exit"), n, true, nil)
			}
			return nil
		})
	})
}
