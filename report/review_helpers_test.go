package report

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
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

func openStore(t *testing.T, p *packet.Packet) *review.Store {
	t.Helper()
	return openStoreIn(t, p, testState(t))
}

// openStoreIn opens p's store in the state folder state.
func openStoreIn(t *testing.T, p *packet.Packet, state string) *review.Store {
	t.Helper()
	s, err := review.OpenStore(p, state)
	if err != nil {
		t.Fatalf("opening the store in %s: %v", state, err)
	}
	return s
}

func mustSet(t *testing.T, s *review.Store, ids []string, state, note, user string, now time.Time) review.MergeReport {
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

func roundOf(p *packet.Packet, seen map[string]bool) packet.Round {
	r := packet.Round{Head: p.Change.HeadSHA, Registry: review.RegistryKeys(p)}
	for _, run := range p.Registry.Runs {
		if k := packet.RunKey(run); !seen[k] {
			seen[k] = true
			r.Runs = append(r.Runs, k)
		}
	}
	return r
}

func dyn3726(round string) string { return filepath.Join("..", "testdata", "dyn-3726", round) }
