package review

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/packet"
)

// dyn3726 is the two-round work item of testdata/dyn-3726: round 1 at
// ff62a64, the babysitter's round 2 at eececad carrying round 1's four runs
// unchanged and a re-lint.
func dyn3726(round string) string { return filepath.Join("..", "testdata", "dyn-3726", round) }

// openRound loads a round and opens its store in stateDir, as every
// command does (recording the round), and returns its evidence-current check.
func openRound(t *testing.T, stateDir, round string) packet.GateCheck {
	t.Helper()
	p, err := packet.Load(dyn3726(round), packet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := OpenStore(p, stateDir); err != nil {
		t.Fatal(err)
	}
	return currentCheck(t, p, CheckEvidenceCurrent)
}

// What a round's evidence-current says depends on what vetter knows of the
// work item, never on the order it learnt it: round 2 names the three
// recipes proven to have run on round 1's head whether round 1 was opened
// before or after it, and says what rests on the packet's word when round 1
// was never opened; round 1's answer is the same in every order.
func TestEvidenceCurrentInEveryOrder(t *testing.T) {
	const (
		round2Known = "00-env-setup, 02-fern-check and 03-broken-links last ran on ff62a64; the head is eececad"
		round2Alone = "1 of 4 proven on eececad; 3 on the packet's word"
		round1      = "1 of 4 proven on ff62a64; 3 on the packet's word"
	)
	for _, order := range [][]string{{"round1", "round2"}, {"round2", "round1"}, {"round2"}, {"round1"}, {"round2", "round1", "round2", "round1"}} {
		t.Run(strings.Join(order, "-then-"), func(t *testing.T) {
			state := t.TempDir()
			opened := map[string]bool{}
			for _, r := range order {
				openRound(t, state, r)
				opened[r] = true
			}
			// Every round opened again, once everything is known.
			if opened["round2"] {
				c := openRound(t, state, "round2")
				want, ok := round2Alone, true
				if opened["round1"] {
					want, ok = round2Known, false
				}
				if c.OK != ok || c.Detail != want {
					t.Errorf("round 2: %v %q, want %v %q", c.OK, c.Detail, ok, want)
				}
			}
			if opened["round1"] {
				if c := openRound(t, state, "round1"); !c.OK || c.Detail != round1 {
					t.Errorf("round 1: %v %q, want true %q", c.OK, c.Detail, round1)
				}
			}
		})
	}
}

// On a pull request, the PR's commits make round 1's head a head of the work
// item: round 2 alone proves the setup run (whose log prints ff62a64) ran on
// it, and orders a log that lists both heads.
func TestEvidenceCurrentFromThePullRequestsCommits(t *testing.T) {
	p, err := packet.Load(dyn3726("round2"), packet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.Origin = &packet.Origin{Kind: packet.OriginKindPR, HeadSHA: p.Change.HeadSHA, PacketHeadSHA: p.Change.HeadSHA,
		Commits: []packet.OriginCommit{{SHA: "ff62a64ac4c63e7d6b079d9826b805b3bc333d25"}, {SHA: p.Change.HeadSHA}}}
	c := currentCheck(t, p, CheckEvidenceCurrent)
	if want := "00-env-setup last ran on ff62a64; the head is eececad"; c.OK || c.Detail != want {
		t.Errorf("round 2 with the PR's commits: %v %q, want false %q", c.OK, c.Detail, want)
	}
}
