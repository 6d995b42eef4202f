package review

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/internal/packettest"
	"github.com/vetter-dev/vetter/internal/testenv"
	"github.com/vetter-dev/vetter/packet"
)

// withHead writes the sample with another head: a round vetter has not seen.
func withHead(t *testing.T, name, head string) string {
	t.Helper()
	dir := packettest.SampleDir(t, name)
	packettest.EditFile(t, filepath.Join(dir, packet.ChangeFile), func(s string) string {
		return strings.ReplaceAll(s, "1bb1c70f4285cf39d8ebaf61573f0095423d52b1", head)
	})
	return dir
}

// Reading never needs writing: on a read-only state disk a packet with a
// new head opens with its work item's triage and decision, the round is
// shown though it cannot be remembered, the store says so, and a save is
// refused with an error rather than a partial write.
func TestReadOnlyStateDiskStillOpens(t *testing.T) {
	state := t.TempDir()
	s := openStoreIn(t, load(t, packettest.SampleDir(t, "first")), state)
	mustSet(t, s, []string{"2"}, packet.TriageAccepted, "", "ana", t0)
	if _, _, err := s.Decide(DecisionHold, "wait", "ana", "", t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Dir(s.Where())
	before, _ := os.ReadDir(folder)
	testenv.ReadOnly(t, state)

	const head = "2222222222222222222222222222222222222222"
	p := load(t, withHead(t, "next", head))
	rs, err := OpenStore(p, state)
	if err != nil {
		t.Fatalf("a read-only state disk stops the packet from opening: %v", err)
	}
	if st, _, _ := TriageOf(p, p.Finding("review.md#2")); st != packet.TriageAccepted {
		t.Errorf("finding 2 is %s, want accepted", st)
	}
	if g := p.Triage.Gate; g == nil || g.Decision != DecisionHold {
		t.Errorf("gate decision %+v, want the hold", g)
	}
	if n, of := p.History.RoundOf(head); n != 2 || of != 2 {
		t.Errorf("the new round is %d of %d, want 2 of 2 (shown, though not remembered)", n, of)
	}
	if u := rs.Unsaved(); !strings.Contains(u, "could not be remembered") {
		t.Errorf("Unsaved() = %q; the person is not told the round was not kept", u)
	}
	after, _ := os.ReadDir(folder)
	if len(after) != len(before) {
		t.Errorf("the state folder changed on a read-only disk: %d entries, then %d", len(before), len(after))
	}
	if _, err := rs.Set([]string{"3"}, packet.TriageAccepted, "", "ana", t0); err == nil {
		t.Error("a save on a read-only disk reported success")
	}

	// A work item never opened before opens empty, and says so too.
	fresh := load(t, hostileClaim(t, "fresh", 3, head, false))
	fs, err := OpenStore(fresh, state)
	if err != nil {
		t.Fatalf("a new work item on a read-only disk: %v", err)
	}
	if fs.Unsaved() == "" || fresh.Triage == nil || len(fresh.Triage.Findings) != 0 {
		t.Errorf("new work item: unsaved %q, triage %+v", fs.Unsaved(), fresh.Triage)
	}
}

// On a disk that refuses writes, the round's copy is not left half made:
// no empty rounds/<head>/ to be compared with later.
func TestRefusedSnapshotLeavesNoFolder(t *testing.T) {
	state := t.TempDir()
	orig := diskWrite
	t.Cleanup(func() { diskWrite = orig })
	diskWrite = func(f *os.File, b []byte) (int, error) {
		if strings.Contains(f.Name(), string(filepath.Separator)+"rounds"+string(filepath.Separator)) {
			return 0, syscall.ENOSPC
		}
		return orig(f, b)
	}
	p := load(t, packettest.SampleDir(t, "p"))
	s := openStoreIn(t, p, state)
	if _, err := os.Stat(filepath.Join(filepath.Dir(s.Where()), "rounds")); err == nil {
		if entries, _ := os.ReadDir(filepath.Join(filepath.Dir(s.Where()), "rounds")); len(entries) > 0 {
			t.Errorf("a refused copy left %v", entries)
		}
	}
	if len(p.History.Rounds) != 1 || p.History.Rounds[0].Snapshot != "" {
		t.Errorf("rounds %+v: want one, with no copy", p.History.Rounds)
	}
}
