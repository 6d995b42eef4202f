package review

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/packet"
)

// soundReview turns the sample's assessment to sound, the one gate check the
// sample fails besides triage.
func soundReview(s string) string {
	return strings.Replace(s, "## Assessment: needs_changes", "## Assessment: sound", 1)
}

func TestDecideRefusesWhenNotReady(t *testing.T) {
	_, p := samplePacket(t, nil)
	s := openStore(t, p)
	_, _, err := s.Decide(DecisionOkToTest, "looks fine", "ana", "", t0)
	if !errors.Is(err, ErrGateNotReady) || !strings.Contains(err.Error(), "assessment-sound") {
		t.Fatalf("ok-to-test on a gate that is not ready: %v", err)
	}
	if p.Triage.Gate != nil {
		t.Error("a refused decision was recorded")
	}
	if _, err := os.Stat(s.DecisionsLog()); !os.IsNotExist(err) {
		t.Error("a refused decision was logged")
	}
	if _, _, err := s.Decide("merge", "", "ana", "", t0); !errors.Is(err, ErrBadDecision) {
		t.Errorf("unknown decision: %v", err)
	}

	// An override with a reason is recorded as one, with the gate it overrode.
	gd, _, err := s.Decide(DecisionOkToTest, "", "ana", "hand-checked the retry loop", t0)
	if err != nil {
		t.Fatal(err)
	}
	if gd.Override != "hand-checked the retry loop" || gd.GateReady || strings.Join(gd.GateFailing, ",") != "assessment-sound,findings-triaged" ||
		gd.SHA != "1bb1c70f4285cf39d8ebaf61573f0095423d52b1" {
		t.Errorf("override decision = %+v", gd)
	}
	var rec DecisionRecord
	lines := readLines(t, s.DecisionsLog())
	if len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &rec) != nil {
		t.Fatalf("decisions.jsonl = %q", lines)
	}
	if rec.User != "ana" || rec.Decision != DecisionOkToTest || rec.SHA != gd.SHA || rec.GateReady || rec.Override == "" ||
		!rec.Time.Equal(t0) || rec.WorkItem != "ACME-4812" || len(rec.GateFailing) != 2 {
		t.Errorf("record = %+v", rec)
	}

	// Hold and request-changes need no ready gate.
	if _, _, err := s.Decide(DecisionHold, "", "ana", "", t0.Add(time.Minute)); err != nil {
		t.Error(err)
	}
	if n := len(readLines(t, s.DecisionsLog())); n != 2 {
		t.Errorf("decisions.jsonl has %d lines after two decisions", n)
	}
}

func TestDecideWhenReady(t *testing.T) {
	dir, p := samplePacket(t, soundReview)
	s := openStore(t, p)
	mustSet(t, s, []string{"1", "2", "3", "5"}, packet.TriageAccepted, "", "ana", t0)
	mustSet(t, s, []string{"4"}, packet.TriageDismissed, "the wording is a bound", "ana", t0)
	if !Gate(p).Ready {
		t.Fatalf("gate not ready: %v", Gate(p).Checks)
	}
	gd, _, err := s.Decide(DecisionOkToTest, "", "ana", "ignored: the gate is ready", t0)
	if err != nil {
		t.Fatal(err)
	}
	if gd.Override != "" || !gd.GateReady || len(gd.GateFailing) != 0 {
		t.Errorf("decision on a ready gate = %+v", gd)
	}
	fresh := load(t, dir)
	if g := fresh.Triage.Gate; g == nil || g.Decision != DecisionOkToTest || g.SHA != p.Change.HeadSHA {
		t.Errorf("reloaded gate decision = %+v", g)
	}
}

func TestDecideNeedsAHead(t *testing.T) {
	dir, _ := samplePacket(t, nil)
	path := dir + "/change.md"
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.ReplaceAll(string(data), "1bb1c70f4285cf39d8ebaf61573f0095423d52b1", "HEAD")), 0o644)
	p := load(t, dir)
	s := openStore(t, p)
	if _, _, err := s.Decide(DecisionOkToTest, "", "ana", "forced", t0); !errors.Is(err, ErrNoHead) {
		t.Errorf("ok-to-test without a head SHA: %v", err)
	}
}
