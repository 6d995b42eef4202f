// Package sourcetest writes the archives the tests of packet sources read:
// zips and tars, plain or gzipped, holding whatever entries a test needs,
// the hostile ones included.
package sourcetest

import (
	"archive/tar"
	"archive/zip"
	"compress/flate"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"slices"
	"testing"
	"time"
)

// Entry is one archive entry a test writes.
type Entry struct {
	Name   string
	Body   string
	Kind   byte // tar type flag; 0 for a regular file
	Link   string
	Stored bool // zip: no compression
}

// WriteZip writes the entries as a zip at p, deflated unless Stored.
func WriteZip(t testing.TB, p string, es []Entry) {
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
		h := &zip.FileHeader{Name: e.Name, Method: zip.Deflate}
		body := e.Body
		switch e.Kind {
		case tar.TypeDir:
			h.SetMode(fs.ModeDir | 0o755)
		case tar.TypeSymlink:
			h.SetMode(fs.ModeSymlink | 0o777)
			body = e.Link
		default:
			h.SetMode(0o644)
		}
		if e.Stored {
			h.Method = zip.Store
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if e.Kind != tar.TypeDir {
			io.WriteString(w, body)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// WriteTar writes the entries as a tar at p (a .tar.gz when gz), after
// a global header as git archive writes.
func WriteTar(t testing.TB, p string, es []Entry, gz bool) {
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
		h := &tar.Header{Name: e.Name, Mode: 0o644, Typeflag: e.Kind, Linkname: e.Link, ModTime: time.Unix(1700000000, 0)}
		if e.Kind == 0 {
			h.Typeflag = tar.TypeReg
			h.Size = int64(len(e.Body))
		}
		if e.Kind == tar.TypeDir {
			h.Mode = 0o755
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			io.WriteString(tw, e.Body)
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

// Files lists every regular file of fsys, sorted.
func Files(t testing.TB, fsys fs.FS) []string {
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
