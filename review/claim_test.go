package review

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/internal/packettest"
	"github.com/vetter-dev/vetter/packet"
)

// hostileClaim writes the sample with its review replaced by rows findings
// (all nits) and its head by head, under the sample's id; keepURL keeps the
// sample's pull request, so the packet claims the real work item whole.
func hostileClaim(t *testing.T, name string, rows int, head string, keepURL bool) string {
	t.Helper()
	dir := withHead(t, name, head)
	if !keepURL {
		packettest.EditFile(t, filepath.Join(dir, packet.ChangeFile), func(s string) string {
			return strings.ReplaceAll(s, "https://github.com/acme/depot/pull/2318", "(none)")
		})
	}
	f, err := os.Create(filepath.Join(dir, packet.ReviewFile))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("# Review — ACME-4812\n\n## Assessment: needs_changes\n\n## Findings\n\n| # | file:line | Severity | Claim | Evidence |\n|---|---|---|---|---|\n")
	for i := 1; i <= rows; i++ {
		fmt.Fprintf(w, "| %d | `internal/upload/client.go:%d` | nit | claim %d %s | none |\n", i, 90+i%9, i, strings.Repeat("x", 120))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return dir
}

// A packet that claims an existing work item's id, with or without its pull
// request, small or with 100,000 findings, and opened over a hundred heads,
// cannot take the real work item's record away: afterwards its triage, its
// gate decision and its rounds are there, and every record reads.
func TestHostileClaimLeavesTheRealWorkItemReadable(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 100,000-finding packet")
	}
	state := t.TempDir()
	realDir := packettest.SampleDir(t, "real")
	real := load(t, realDir)
	s := openStoreIn(t, real, state)
	mustSet(t, s, []string{"2"}, packet.TriageAccepted, "", "ana", t0)
	mustSet(t, s, []string{"4"}, packet.TriageDismissed, "not reachable", "ana", t0)
	if _, _, err := s.Decide(DecisionHold, "waiting on the clamp", "ana", "", t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	realDirName := filepath.Dir(s.Where())

	// Same id, no pull request: its own work item, the real one untouched.
	bare := load(t, hostileClaim(t, "bare", 50, "0000000000000000000000000000000000000bad", false))
	bs := openStoreIn(t, bare, state)
	if filepath.Dir(bs.Where()) == realDirName {
		t.Fatalf("a packet with the id and no repository shares the real record %s", realDirName)
	}
	if bare.Triage.Gate != nil {
		t.Errorf("the bare claim sees the real work item's decision: %+v", bare.Triage.Gate)
	}

	// Same id and pull request, 100,000 findings: the same work item by
	// everything it says, so it is recorded there, within bounds.
	huge := load(t, hostileClaim(t, "huge", 100_000, "1111111111111111111111111111111111111111", true))
	if len(huge.Findings) > packet.MaxFindings {
		t.Errorf("%d findings read; the cap is %d", len(huge.Findings), packet.MaxFindings)
	}
	if !hasCode(huge, packet.CodeTooManyFindings) {
		t.Errorf("no %s problem for 100,000 findings", packet.CodeTooManyFindings)
	}
	hs := openStoreIn(t, huge, state)
	if filepath.Dir(hs.Where()) != realDirName {
		t.Fatalf("the claim with the real pull request got its own record; this test no longer tests the shared one")
	}
	// As `triage --severity nit --accept` does: every open nit.
	var nits []string
	for _, f := range huge.Findings {
		if st, _, _ := TriageOf(huge, f); st == packet.TriageOpen && f.Severity == "nit" {
			nits = append(nits, f.ID)
		}
	}
	start := time.Now()
	if _, err := hs.Set(nits, packet.TriageAccepted, "", "ana", t0.Add(2*time.Minute)); err != nil {
		t.Fatalf("bulk triage of the claim: %v", err)
	}
	t.Logf("bulk triage of %d findings: %v", len(nits), time.Since(start))
	// A hundred and five more heads: rounds beyond the count are summarised.
	for i := range 105 {
		h := load(t, hostileClaim(t, fmt.Sprintf("h%d", i), 3, fmt.Sprintf("%040x", 0xabc000+i), true))
		openStoreIn(t, h, state)
		h.Close()
	}

	// The real work item opens, and what was decided on it is there.
	again := load(t, realDir)
	as := openStoreIn(t, again, state)
	if st, _, _ := TriageOf(again, again.Finding("review.md#2")); st != packet.TriageAccepted {
		t.Errorf("finding 2 is %s, want accepted", st)
	}
	if st, _, d := TriageOf(again, again.Finding("review.md#4")); st != packet.TriageDismissed || d.Note != "not reachable" {
		t.Errorf("finding 4 is %s, want dismissed with its note", st)
	}
	if g := again.Triage.Gate; g == nil || g.Decision != DecisionHold || g.Note != "waiting on the clamp" {
		t.Errorf("the gate decision is %+v, want the hold", g)
	}
	if n, _ := again.History.RoundOf("1bb1c70f4285cf39d8ebaf61573f0095423d52b1"); n == 0 {
		t.Errorf("the real round is gone from the rounds: %d kept, %d summarised", len(again.History.Rounds), again.History.Summarised)
	}
	if again.History.Summarised == 0 {
		t.Errorf("107 rounds were kept whole; the record has no bound")
	}
	for _, name := range []string{packet.TriageFile, packet.RoundsFile} {
		path := filepath.Join(filepath.Dir(as.Where()), name)
		fi, err := os.Stat(path)
		if err != nil || fi.Size() >= recordLimit {
			t.Errorf("%s: %v, %d bytes (limit %d)", name, err, fi.Size(), recordLimit)
		}
		data, _ := os.ReadFile(path)
		if !json.Valid(data) {
			t.Errorf("%s is not JSON", name)
		}
	}
	if recs := journal(t, as.DecisionsLog()); len(recs) != 1 || recs[0].Decision != DecisionHold {
		t.Errorf("the journal holds %d decisions, want the one hold", len(recs))
	}
}

// A record an older vetter wrote past the limit (the 18 MB rounds.json a
// 380,000-finding packet left) no longer locks the work item: it is set
// aside with its name, the work item opens, and its triage is intact.
func TestOversizedRecordIsSetAside(t *testing.T) {
	state := t.TempDir()
	dir := packettest.SampleDir(t, "real")
	p := load(t, dir)
	s := openStoreIn(t, p, state)
	mustSet(t, s, []string{"2"}, packet.TriageAccepted, "", "ana", t0)
	rounds := filepath.Join(filepath.Dir(s.Where()), packet.RoundsFile)
	big := `{"rounds":[{"head":"x","findings":{"a":"` + strings.Repeat("f", recordLimit) + `"}}]}`
	if err := os.WriteFile(rounds, []byte(big), 0o600); err != nil {
		t.Fatal(err)
	}
	again := load(t, dir)
	as, err := OpenStore(again, state)
	if err != nil {
		t.Fatalf("an oversized rounds.json locks the work item: %v", err)
	}
	asides, _ := filepath.Glob(rounds + ".unreadable-*")
	if len(asides) != 1 {
		t.Fatalf("rounds.json was not set aside: %v", asides)
	}
	if !strings.Contains(as.Repaired(), filepath.Base(asides[0])) {
		t.Errorf("setting it aside was silent: %q", as.Repaired())
	}
	if st, _, _ := TriageOf(again, again.Finding("review.md#2")); st != packet.TriageAccepted {
		t.Errorf("finding 2 is %s after the set-aside, want accepted", st)
	}
	if n, _ := again.History.RoundOf(again.Change.HeadSHA); n != 1 {
		t.Errorf("the new rounds.json does not hold this round")
	}
}

func hasCode(p *packet.Packet, code string) bool {
	for _, pr := range p.Problems {
		if pr.Code == code {
			return true
		}
	}
	return false
}
