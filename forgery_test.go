package main

import (
	"archive/zip"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/cli/cmd/triage"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/report"
	"github.com/vetter-dev/vetter/review"
)

// forgedTriage is what a packet that tries to approve itself ships: every
// finding dismissed "by the maintainer", on the findings' real fingerprints
// (they are deterministic, so any earlier vetter run gives them away), and
// an ok-to-test gate decision for the head.
func forgedTriage(t *testing.T, p *packet.Packet) []byte {
	t.Helper()
	st := packet.TriageState{Version: 1, Findings: map[string]*packet.Decision{}}
	for _, f := range p.Findings {
		st.Findings[f.ID] = &packet.Decision{State: packet.TriageDismissed, Note: "not an issue", User: "maintainer",
			Fingerprint: packet.Fingerprint(f)}
	}
	st.Gate = &packet.GateDecision{Decision: review.DecisionOkToTest, SHA: p.Change.HeadSHA, User: "maintainer", GateReady: true}
	data, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// zipFolder packs a folder into an archive.
func zipFolder(t *testing.T, dir, name string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), name)
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		w, err := zw.Create(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return out
}

// A packet cannot approve itself: a triage.json and decisions.jsonl shipped
// in it (a folder or an archive) are reported as an error and ignored by
// every command, so the gate is not ready and every finding is open.
func TestPacketCannotApproveItself(t *testing.T) {
	pinned(t)
	dir := samplePacketDir(t, "review.md", func(s string) string {
		// A sound assessment: only the forged triage stands between this
		// packet and a ready gate.
		return strings.Replace(s, "## Assessment: needs_changes", "## Assessment: sound", 1)
	})
	p, err := packet.Load(dir, packet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	forged := forgedTriage(t, p)
	p.Close()
	os.WriteFile(filepath.Join(dir, packet.TriageFile), forged, 0o644)
	os.WriteFile(filepath.Join(dir, packet.DecisionsFile), []byte(`{"decision":"ok-to-test","sha":"1bb1c70f4285cf39d8ebaf61573f0095423d52b1","user":"maintainer"}`+"\n"), 0o644)
	archive := zipFolder(t, dir, "forged.zip")

	for _, pkt := range []string{dir, archive} {
		t.Run(filepath.Base(pkt), func(t *testing.T) {
			out, _, code := run(t, "check", pkt)
			if code != 1 || !strings.Contains(out, "packet-ships-decisions") || !strings.Contains(out, "the packet carries its own triage; vetter ignores it") {
				t.Errorf("check: exit %d\n%s", code, out)
			}
			sum := mustRun(t, "summary", pkt)
			if !strings.Contains(sum, "Gate        NOT READY") || strings.Contains(sum, "dismissed") || !strings.Contains(sum, "Decision    none recorded") {
				t.Errorf("summary trusts the packet's triage:\n%s", sum)
			}
			var list struct {
				Findings []triage.Entry
				Gate     *packet.GateDecision
			}
			if err := json.Unmarshal([]byte(mustRun(t, "triage", pkt, "--list", "--json")), &list); err != nil {
				t.Fatal(err)
			}
			for _, e := range list.Findings {
				if e.Triage != packet.TriageOpen {
					t.Errorf("triage --list: %s is %s", e.ID, e.Triage)
				}
			}
			if list.Gate != nil {
				t.Errorf("triage --list shows a gate decision: %+v", list.Gate)
			}
			for _, format := range report.ExportFormats {
				if out := mustRun(t, "export", pkt, "--format", format); strings.Contains(out, "not an issue") || strings.Contains(out, "maintainer") {
					t.Errorf("export %s repeats the forged decisions:\n%s", format, out)
				}
			}
			if _, _, code := run(t, "decide", pkt, "--ok-to-test"); code != 1 {
				t.Errorf("decide --ok-to-test on a self-approved packet: exit %d, want 1 (refused)", code)
			}
		})
	}
}

// Two rounds of one work item, each in its own folder (as rounds arrive):
// the second sees the first's triage by finding content, shows a changed
// finding's decision as stale, and says the first head's decision no longer
// stands.
func TestRoundsInTwoFoldersCarryTriage(t *testing.T) {
	pinned(t)
	round1 := samplePacketDir(t, "", nil)
	round2, err := filepath.Abs(filepath.Join("packet", "testdata", "rounds", "round2"))
	if err != nil {
		t.Fatal(err)
	}
	mustRun(t, "triage", round1, "1", "3", "--accept")
	mustRun(t, "triage", round1, "2", "--dismiss", "--note", "counts attempts on purpose")
	mustRun(t, "decide", round1, "--hold", "--note", "wait for the clamp")

	got := listJSON(t, round2)
	// Round 2 keeps #3 word for word, rewrites #2 and drops #1 (see
	// packet/compare_test.go): #3 keeps its decision, #2's is stale.
	if e := got["review.md#3"]; e.Triage != packet.TriageAccepted || e.Stale {
		t.Errorf("unchanged #3 in round 2: %+v", e)
	}
	if e := got["review.md#2"]; e.Triage != packet.TriageDismissed || !e.Stale {
		t.Errorf("changed #2 in round 2: %+v", e)
	}
	sum := mustRun(t, "summary", round2)
	if !strings.Contains(sum, "Decision    hold for 1bb1c70f4285 by ana") || !strings.Contains(sum, "NO LONGER STANDS: the head is 5e2f0c7a9d14") {
		t.Errorf("summary of round 2 does not say the decision no longer stands:\n%s", sum)
	}
	var js struct {
		Decision *report.SummaryDecision `json:"decision"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "summary", "--json", round2)), &js); err != nil {
		t.Fatal(err)
	}
	if d := js.Decision; d == nil || d.Decision != review.DecisionHold || d.Current || d.By != "ana" || d.Note != "wait for the clamp" {
		t.Errorf("summary --json decision: %+v", d)
	}
	// Round 1 opened again: its decision stands.
	if sum := mustRun(t, "summary", round1); !strings.Contains(sum, "— stands") {
		t.Errorf("summary of round 1:\n%s", sum)
	}
}

// Sharing triage is an explicit act: --import takes another reviewer's
// decisions on findings with the same content, records who imported them
// and whose they were, keeps the reviewer's own, and never a gate decision.
func TestTriageImport(t *testing.T) {
	pinned(t)
	dir := samplePacketDir(t, "", nil)
	p, err := packet.Load(dir, packet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	shared := forgedTriage(t, p)
	p.Close()
	file := filepath.Join(t.TempDir(), "bo-triage.json")
	os.WriteFile(file, shared, 0o644)

	mustRun(t, "triage", dir, "2", "--accept") // the reviewer's own, kept
	out, errOut, code := run(t, "triage", dir, "--import", file)
	if code != 0 || !strings.Contains(out, "review.md#1: dismissed (imported from "+file+", decided by maintainer)") ||
		strings.Contains(out, "review.md#2") || !strings.Contains(errOut, "kept your own decision on review.md#2") ||
		!strings.Contains(errOut, "gate decision was not imported") || !strings.Contains(errOut, "imported 4 by ana") {
		t.Errorf("import: exit %d\n%s%s", code, out, errOut)
	}
	var list struct {
		Findings []triage.Entry
		Gate     *packet.GateDecision `json:"decision"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "triage", dir, "--list", "--json")), &list); err != nil {
		t.Fatal(err)
	}
	for _, e := range list.Findings {
		want := packet.TriageDismissed
		if e.ID == "review.md#2" {
			want = packet.TriageAccepted
		}
		if e.Triage != want || e.User != "ana" {
			t.Errorf("%s after import: %+v", e.ID, e)
		}
	}
	if list.Gate != nil {
		t.Errorf("a gate decision was imported: %+v", list.Gate)
	}
	data, _ := os.ReadFile(stateFile(t, dir, packet.TriageFile))
	if !strings.Contains(string(data), `"imported"`) || !strings.Contains(string(data), `"by": "maintainer"`) {
		t.Errorf("triage.json does not record the import:\n%s", data)
	}
	if _, _, code := run(t, "triage", dir, "--import", file, "--accept"); code != 2 {
		t.Errorf("--import with an action: exit %d", code)
	}
}

// A pr.json in a packet the user opened is the packet speaking for GitHub
// (CI passed, a maintainer said /ok to test, the head is current): only the
// packets vetter builds in its own cache carry one that is read.
func TestPacketCannotSpeakForGitHub(t *testing.T) {
	pinned(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := samplePacketDir(t, "", nil)
	forged := `{"kind":"github-pr","url":"https://github.com/acme/depot/pull/2318","owner":"acme","repo":"depot","number":2318,` +
		`"head_sha":"1bb1c70f4285cf39d8ebaf61573f0095423d52b1","packet_head_sha":"1bb1c70f4285cf39d8ebaf61573f0095423d52b1",` +
		`"ci":{"success":40},"ok_to_test":[{"sha":"1bb1c70f4285cf39d8ebaf61573f0095423d52b1","by":"maintainer"}]}`
	os.WriteFile(filepath.Join(dir, packet.OriginFile), []byte(forged), 0o644)
	out, _, code := run(t, "check", dir)
	if code != 1 || !strings.Contains(out, "the packet carries its own pr.json") {
		t.Errorf("check: exit %d\n%s", code, out)
	}
	var js struct {
		Source json.RawMessage `json:"source"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "summary", "--json", dir)), &js); err != nil {
		t.Fatal(err)
	}
	if len(js.Source) != 0 {
		t.Errorf("summary --json reports the forged origin: %s", js.Source)
	}
}
