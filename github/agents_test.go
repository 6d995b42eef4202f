package github

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/github/fakeapi"
	"github.com/vetter-dev/vetter/internal/reviewtest"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/report"
	"github.com/vetter-dev/vetter/review"
)

var updateAgents = flag.Bool("update-agents", false, "rewrite testdata/agents/*/summary.golden.json")

// openScenario serves the base pull request as one agent shape posts it
// (testdata/agents/NAME) and opens it as `vetter summary` does.
func openScenario(t *testing.T, name string) (*fakeapi.Server, Options, *Opened, *packet.Packet) {
	t.Helper()
	s, url := fakeapi.ServeOverlay(t, "testdata/pr", filepath.Join("testdata/agents", name), 2)
	opts := Options{
		Config:   Config{Host: "github.com", Token: "test-token", APIURL: url, Timeout: 10 * time.Second, Retries: 2},
		CacheDir: t.TempDir(),
		Now:      func() time.Time { return time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC) },
	}
	o, p := openFixture(t, s, opts)
	return s, opts, o, p
}

func problemCodes(p *packet.Packet) map[string]string {
	out := map[string]string{}
	for _, pr := range p.Problems {
		out[pr.Code] = string(pr.Severity)
	}
	return out
}

// Each shape the agent has posted, read through the fake API the way
// `vetter summary --json` reads it: verdict, assessment, evidence, findings
// with their severities, and problems. The golden file beside each fixture
// is the whole summary, for reading.
func TestAgentShapesThroughTheFakeAPI(t *testing.T) {
	for _, tc := range []struct {
		name                string
		verdict, assessment string
		validated, total    int
		want, wantNot       []string // problem codes
		severities          map[string]string
		gate                map[string]bool
	}{
		{name: "august-table", verdict: "pass", assessment: "sound", validated: 3, total: 3,
			wantNot: []string{"missing-file", "verdict-missing", "record-unrecognised", "record-count-mismatch"}},
		{name: "details-table", verdict: "pass", assessment: "sound", validated: 3, total: 3,
			want:    []string{"document-absent"},
			wantNot: []string{"missing-file", "verdict-missing", "assessment-missing", "record-unrecognised"},
			gate:    map[string]bool{"verdict-pass": true, "assessment-sound": true, "evidence-complete": true, "head-known": true}},
		{name: "september", verdict: "pass", assessment: "sound", validated: 5, total: 5,
			want:       []string{"document-absent", "logs-not-available"},
			wantNot:    []string{"missing-file", "verdict-missing", "assessment-missing", "record-unrecognised", "record-count-mismatch"},
			severities: map[string]string{"thread:PRRT_cr1": "major", "thread:PRRT_cr2": "minor", "review.md#1": "minor"},
			gate:       map[string]bool{"verdict-pass": true, "assessment-sound": true, "evidence-complete": true, "packet-current": false}},
		{name: "september-mismatch", verdict: "pass", assessment: "sound", validated: 3, total: 4,
			want: []string{"record-count-mismatch"}, gate: map[string]bool{"evidence-complete": false}},
		{name: "coderabbit", verdict: "pass", assessment: "sound", validated: 3, total: 3,
			severities: map[string]string{"thread:PRRT_crA": "major", "thread:PRRT_crB": "blocker", "thread:PRRT_crC": "unknown",
				"thread:PRRT_crD": "unknown", "thread:PRRT_crE": "thread"}},
		{name: "unknown-record", verdict: "", assessment: "sound", validated: 0, total: 0,
			want: []string{"record-unrecognised", "verdict-missing"}, gate: map[string]bool{"verdict-pass": false, "evidence-complete": false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, opts, _, p := openScenario(t, tc.name)
			if p.Verdict.Value != tc.verdict || p.Assessment.Value != tc.assessment {
				t.Errorf("verdict %q assessment %q, want %q %q", p.Verdict.Value, p.Assessment.Value, tc.verdict, tc.assessment)
			}
			if p.Evidence.Validated != tc.validated || p.Evidence.Total != tc.total {
				t.Errorf("evidence %d/%d, want %d/%d", p.Evidence.Validated, p.Evidence.Total, tc.validated, tc.total)
			}
			codes := problemCodes(p)
			for _, c := range tc.want {
				if _, ok := codes[c]; !ok {
					t.Errorf("no %s problem; problems: %v", c, codes)
				}
			}
			for _, c := range tc.wantNot {
				if _, ok := codes[c]; ok {
					t.Errorf("a %s problem: %+v", c, p.Problems)
				}
			}
			for id, sev := range tc.severities {
				if f := p.Finding(id); f == nil || f.Severity != sev {
					t.Errorf("finding %s: %+v, want severity %s", id, f, sev)
				}
			}
			g := review.Gate(p)
			for name, ok := range tc.gate {
				found := false
				for _, c := range g.Checks {
					if c.Name == name {
						found = true
						if c.OK != ok {
							t.Errorf("gate %s ok=%v (%s), want %v", name, c.OK, c.Detail, ok)
						}
					}
				}
				if !found {
					t.Errorf("no gate check %s", name)
				}
			}
			var buf bytes.Buffer
			if err := report.Summarize(p).WriteJSON(&buf); err != nil {
				t.Fatal(err)
			}
			got := strings.ReplaceAll(buf.String(), opts.CacheDir, "<cache>")
			golden := filepath.Join("testdata/agents", tc.name, "summary.golden.json")
			if *updateAgents {
				os.WriteFile(golden, []byte(got), 0o644)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update-agents to write it)", err)
			}
			if got != string(want) {
				t.Errorf("summary --json differs from %s (run with -update-agents and read the diff):\n%s", golden, got)
			}
		})
	}
}

// The September record's hidden command is "not shown" and never a
// command, in the registry rebuilt from it and everywhere it is shown.
func TestHiddenCommandIsNotShown(t *testing.T) {
	_, _, o, p := openScenario(t, "september")
	data, err := os.ReadFile(filepath.Join(o.Dir, packet.RegistryFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d runs rebuilt from the record, want 5:\n%s", len(lines), data)
	}
	if !strings.Contains(lines[3], `"command_shown":"not shown"`) || strings.Contains(lines[3], `"command":`) {
		t.Errorf("check 4's run: %s", lines[3])
	}
	if p.Registry.Runs[3].Command != "" {
		t.Errorf("the hidden command became %q", p.Registry.Runs[3].Command)
	}
}

// Every comment the agent's author posted is a document of the packet:
// the record, review.md, the PR description as change.md, the rounds.
func TestEveryAuthorCommentIsADocument(t *testing.T) {
	_, _, _, p := openScenario(t, "september")
	var names []string
	for _, d := range p.Docs {
		names = append(names, d.Path)
	}
	for _, want := range []string{"change.md", "review.md", RecordFile, "comment-01-repair-round-1-pushed-7e2d4b6-wa.md", "comment-02-addressed-two-review-findings-in.md"} {
		if !slices.Contains(names, want) {
			t.Errorf("no document %s among %q", want, names)
		}
	}
	if !p.Origin.ChangeFromDescription {
		t.Error("change.md is not said to be the PR description")
	}
	var kinds []string
	for _, r := range p.Origin.Rounds {
		kinds = append(kinds, r.Kind)
	}
	if want := []string{"nursery", "repair", "addressed"}; !slices.Equal(kinds, want) {
		t.Errorf("rounds %q, want %q", kinds, want)
	}
}

// With no document naming a head, the record speaks for the head the PR
// had when it was posted; the commit pushed after it fails packet-current
// by name, as not validated by the agent.
func TestCommitAfterTheRecordFailsPacketCurrent(t *testing.T) {
	_, _, _, p := openScenario(t, "september")
	if p.Origin.PacketHeadSHA != packetHead || p.Origin.PacketHeadFrom != packet.PacketHeadFromRecord {
		t.Fatalf("packet head %q from %q, want %s from the record", p.Origin.PacketHeadSHA, p.Origin.PacketHeadFrom, packetHead)
	}
	for _, c := range review.Gate(p).Checks {
		if c.Name != packet.CheckPacketCurrent {
			continue
		}
		if c.OK || !strings.Contains(c.Detail, "7e2d4b6 retry: name the deadline") || !strings.Contains(c.Detail, "not validated by the agent") {
			t.Errorf("packet-current: ok=%v %q", c.OK, c.Detail)
		}
		return
	}
	t.Error("no packet-current check")
}

// On a pull request the work item is the pull request: triage made at one
// head stands at the next, with no plan.md and no id.
func TestTriageCarriesWithoutAPlan(t *testing.T) {
	s, opts, o, p := openScenario(t, "september")
	if p.Plan.ID != "" || p.Doc(packet.PlanFile) != nil {
		t.Fatalf("the scenario has a plan: %q", p.Plan.ID)
	}
	state := t.TempDir()
	st := reviewtest.OpenStoreIn(t, p, state)
	reviewtest.MustSet(t, st, []string{"review.md#1"}, packet.TriageAccepted, "", "vet", time.Now())
	s.F.Pull["head"].(map[string]any)["sha"] = "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432"
	o2, err := Open(context.Background(), fixtureRef, opts)
	if err != nil {
		t.Fatal(err)
	}
	if o2.Dir == o.Dir {
		t.Fatal("the new head shares the old head's folder")
	}
	p2, err := packet.Load(o2.Dir, packet.Options{OriginRoot: opts.CacheDir})
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close()
	if _, err := review.OpenStore(p2, state); err != nil {
		t.Fatal(err)
	}
	if st, stale, _ := review.TriageOf(p2, p2.Finding("review.md#1")); st != packet.TriageAccepted || stale {
		t.Errorf("review.md#1 at the next head is %s (stale %v), want accepted", st, stale)
	}
	if p.WorkItem() != p2.WorkItem() || !strings.HasPrefix(p.WorkItem().Dir, "PR-42-") {
		t.Errorf("work items %+v and %+v", p.WorkItem(), p2.WorkItem())
	}
}

// The queue reads a pull request the way summary does: a PR whose only
// agent comments are today's record and review.md has a packet in both,
// with the same verdict, assessment, evidence, findings and gate, before
// and after the reviewer triages everything.
func TestQueueAgreesWithSummary(t *testing.T) {
	_, opts, _, p := openScenario(t, "september")
	state := t.TempDir()
	qopts := QueueOptions{Config: opts.Config, CacheDir: t.TempDir(), StateDir: state}
	compare := func(when string) {
		t.Helper()
		if _, err := review.OpenStore(p, state); err != nil {
			t.Fatal(err)
		}
		_, rows := fillQueue(t, qopts)
		row := byNumber(rows, 42)
		sum := report.Summarize(p)
		total, open := 0, 0
		for _, f := range sum.Findings {
			if f.Source == "vetter" {
				continue
			}
			total++
			if f.Triage == string(packet.TriageOpen) || f.Stale {
				open++
			}
		}
		if !row.Packet || row.Verdict != sum.Verdict.Value || row.Assessment != sum.Assessment.Value ||
			row.Evidence.Validated != sum.Evidence.Validated || row.Evidence.Total != sum.Evidence.Total ||
			row.FindingsTotal != total || row.FindingsOpen != open || row.GateReady != sum.Gate.Ready {
			t.Errorf("%s: queue row %+v\nsummary: verdict %q assessment %q evidence %d/%d findings %d open of %d gate ready %v",
				when, row, sum.Verdict.Value, sum.Assessment.Value, sum.Evidence.Validated, sum.Evidence.Total, open, total, sum.Gate.Ready)
		}
	}
	compare("untriaged")
	st, err := review.OpenStore(p, state)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range p.Findings {
		ids = append(ids, f.ID)
	}
	if _, err := st.Set(ids, packet.TriageAccepted, "", "vet", time.Now()); err != nil {
		t.Fatal(err)
	}
	compare("all triaged")
}
