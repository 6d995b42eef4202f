package compare

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
)

// sampleDir writes the sample to a folder called name in a new temporary
// directory: a copy the test may change.
func sampleDir(t testing.TB, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := packet.WriteSample(dir); err != nil {
		t.Fatalf("writing the sample to %s: %v", dir, err)
	}
	return dir
}

func editReview(t *testing.T, dir string, edit func(string) string) {
	t.Helper()
	path := filepath.Join(dir, packet.ReviewFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := edit(string(data))
	if out == string(data) {
		t.Fatal("the edit of review.md changed nothing")
	}
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
}

// load loads a packet with the reviewer's state of this test (testState).
func load(t *testing.T, dir string) *packet.Packet {
	t.Helper()
	p, err := packet.Load(dir, packet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	if err := review.ReadReviewerState(p, testState(t)); err != nil {
		t.Fatal(err)
	}
	return p
}

var testStates sync.Map

// testState is the reviewer's state directory of one test: every store and
// load of the test shares it, as every vetter run of one user does.
func testState(t *testing.T) string {
	t.Helper()
	if d, ok := testStates.Load(t.Name()); ok {
		return d.(string)
	}
	d := t.TempDir()
	testStates.Store(t.Name(), d)
	t.Cleanup(func() { testStates.Delete(t.Name()) })
	return d
}

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
