// Package reviewtest is what the tests of the packages above review share:
// a packet loaded with the reviewer's state of the test, and its store. Only
// tests import it; review's own tests keep theirs, as this package imports
// review.
package reviewtest

import (
	"testing"
	"time"

	"github.com/vetter-dev/vetter/internal/packettest"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
)

// Load loads the packet at dir with the reviewer's state of this test
// (packettest.State), closing it when the test ends.
func Load(t testing.TB, dir string) *packet.Packet {
	t.Helper()
	p := packettest.Load(t, dir, packet.Options{})
	if err := review.ReadReviewerState(p, packettest.State(t)); err != nil {
		t.Fatal(err)
	}
	return p
}

// SamplePacket writes the sample to a temporary folder, edits review.md
// through edit unless it is nil, and loads it.
func SamplePacket(t testing.TB, edit func(review string) string) (string, *packet.Packet) {
	t.Helper()
	dir := packettest.SampleDir(t, "p")
	if edit != nil {
		packettest.EditReview(t, dir, edit)
	}
	return dir, Load(t, dir)
}

// OpenStore opens p's store in the state folder of this test.
func OpenStore(t testing.TB, p *packet.Packet) *review.Store {
	t.Helper()
	return OpenStoreIn(t, p, packettest.State(t))
}

// OpenStoreIn opens p's store in the state folder state.
func OpenStoreIn(t testing.TB, p *packet.Packet, state string) *review.Store {
	t.Helper()
	s, err := review.OpenStore(p, state)
	if err != nil {
		t.Fatalf("opening the store in %s: %v", state, err)
	}
	return s
}

// MustSet sets the triage state of the findings ids, failing the test when
// the store refuses.
func MustSet(t testing.TB, s *review.Store, ids []string, state, note, user string, now time.Time) review.MergeReport {
	t.Helper()
	rep, err := s.Set(ids, state, note, user, now)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
