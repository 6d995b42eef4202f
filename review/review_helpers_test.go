package review

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/packet"
)

var t0 = time.Date(2026, 10, 15, 9, 0, 0, 0, time.UTC)

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

// samplePacket writes the sample to a temporary folder, optionally edits
// review.md, and loads it.
func samplePacket(t *testing.T, edit func(review string) string) (string, *packet.Packet) {
	t.Helper()
	dir := sampleDir(t, "p")
	if edit != nil {
		editReview(t, dir, edit)
	}
	return dir, load(t, dir)
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
	if err := ReadReviewerState(p, testState(t)); err != nil {
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

func openStore(t *testing.T, p *packet.Packet) *Store {
	t.Helper()
	return openStoreIn(t, p, testState(t))
}

// openStoreIn opens p's store in the state folder state.
func openStoreIn(t *testing.T, p *packet.Packet, state string) *Store {
	t.Helper()
	s, err := OpenStore(p, state)
	if err != nil {
		t.Fatalf("opening the store in %s: %v", state, err)
	}
	return s
}

func mustSet(t *testing.T, s *Store, ids []string, state, note, user string, now time.Time) MergeReport {
	t.Helper()
	rep, err := s.Set(ids, state, note, user, now)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// loadRound2 loads the sample's second round (a later head of the same work
// item), closing it when the test ends.
func loadRound2(t *testing.T) *packet.Packet {
	t.Helper()
	p, err := packet.Load("../packet/testdata/rounds/round2", packet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}
