package review

import (
	"testing"
	"time"

	"github.com/vetter-dev/vetter/internal/packettest"
	"github.com/vetter-dev/vetter/packet"
)

// These are internal/reviewtest's helpers, kept here because that package
// imports review.

var t0 = time.Date(2026, 10, 15, 9, 0, 0, 0, time.UTC)

// samplePacket writes the sample to a temporary folder, optionally edits
// review.md, and loads it.
func samplePacket(t *testing.T, edit func(review string) string) (string, *packet.Packet) {
	t.Helper()
	dir := packettest.SampleDir(t, "p")
	if edit != nil {
		packettest.EditReview(t, dir, edit)
	}
	return dir, load(t, dir)
}

// load loads a packet with the reviewer's state of this test
// (packettest.State).
func load(t *testing.T, dir string) *packet.Packet {
	t.Helper()
	p := packettest.Load(t, dir, packet.Options{})
	if err := ReadReviewerState(p, packettest.State(t)); err != nil {
		t.Fatal(err)
	}
	return p
}

func openStore(t *testing.T, p *packet.Packet) *Store {
	t.Helper()
	return openStoreIn(t, p, packettest.State(t))
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
