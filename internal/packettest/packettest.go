// Package packettest is what the tests of the packages above packet share:
// a copy of the sample packet to change, loads that close when the test
// ends, one reviewer's state folder per test, the repository's test
// packets, and the checks of what a load reported. Only tests import it.
package packettest

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/vetter-dev/vetter/packet"
)

// Path is rel, a slash-separated path from the repository's root, for a
// test running in any package's folder: the test packets live beside the
// packages that first needed them.
func Path(t testing.TB, rel string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, filepath.FromSlash(rel))
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatalf("no go.mod above the test's folder to find %s from", rel)
		}
		dir = up
	}
}

// SampleDir writes the sample to a folder called name in a new temporary
// directory: a copy the test may change.
func SampleDir(t testing.TB, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := packet.WriteSample(dir); err != nil {
		t.Fatalf("writing the sample to %s: %v", dir, err)
	}
	return dir
}

// EditReview rewrites review.md in the packet folder dir through edit, which
// must change it.
func EditReview(t testing.TB, dir string, edit func(string) string) {
	t.Helper()
	EditFile(t, filepath.Join(dir, packet.ReviewFile), edit)
}

// EditFile rewrites the file at path through edit, which must change it: an
// edit that finds nothing to change would leave the test testing nothing.
func EditFile(t testing.TB, path string, edit func(string) string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := edit(string(data))
	if out == string(data) {
		t.Fatalf("the edit of %s changed nothing", filepath.Base(path))
	}
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Load loads the packet at path with opts, closing it when the test ends.
func Load(t testing.TB, path string, opts packet.Options) *packet.Packet {
	t.Helper()
	p, err := packet.Load(path, opts)
	if err != nil {
		t.Fatalf("packet.Load(%s): %v", path, err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// Round2 loads the sample's second round (a later head of the same work
// item).
func Round2(t testing.TB) *packet.Packet {
	t.Helper()
	return Load(t, Path(t, "packet/testdata/rounds/round2"), packet.Options{})
}

var states sync.Map

// State is the reviewer's state directory of one test: every store and
// load of the test shares it, as every vetter run of one user does.
func State(t testing.TB) string {
	t.Helper()
	if d, ok := states.Load(t.Name()); ok {
		return d.(string)
	}
	d := t.TempDir()
	states.Store(t.Name(), d)
	t.Cleanup(func() { states.Delete(t.Name()) })
	return d
}

// ReadTree is every file below root as slash-separated relative name →
// content.
func ReadTree(t testing.TB, root string) map[string]string {
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

// CopyTree copies the files under src into dst, replacing what is there.
func CopyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
	if err != nil {
		t.Fatalf("copying %s to %s: %v", src, dst, err)
	}
}

// WriteFile writes body to path, making the folders it needs.
func WriteFile(t testing.TB, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// SymlinkOrSkip makes link point at target, or skips the test where the
// system makes no symbolic links.
func SymlinkOrSkip(t testing.TB, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symbolic links unavailable: %v", err)
	}
}
