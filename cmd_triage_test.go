package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/cli/cmd/triage"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
)

// pinned makes decisions reproducible: a fixed user, clock and state folder.
func pinned(t *testing.T) {
	t.Helper()
	t.Setenv("VETTER_USER", "ana")
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	at := time.Date(2026, 10, 15, 9, 30, 0, 0, time.UTC)
	testClock = func() time.Time { at = at.Add(time.Minute); return at }
	t.Cleanup(func() { testClock = nil })
}

// samplePacketDir writes the sample packet to a temporary folder, after an
// optional edit of one of its files.
func samplePacketDir(t *testing.T, file string, edit func(string) string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "p")
	if err := packet.WriteSample(dir); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		path := filepath.Join(dir, file)
		data, _ := os.ReadFile(path)
		if err := os.WriteFile(path, []byte(edit(string(data))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// stateFile is where the reviewer's state file name of the packet at dir
// lives: the work item's folder under $XDG_STATE_HOME/vetter.
func stateFile(t *testing.T, dir, name string) string {
	t.Helper()
	p, err := packet.Load(dir, packet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	return filepath.Join(os.Getenv("XDG_STATE_HOME"), "vetter", p.WorkItem().Dir, name)
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := run(t, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d\n%s%s", args, code, out, errOut)
	}
	return out
}

// The four exports of the sample after a short triage session.
func TestExportGolden(t *testing.T) {
	pinned(t)
	dir := samplePacketDir(t, "", nil)
	mustRun(t, "triage", dir, "1", "--accept")
	mustRun(t, "triage", dir, "#4", "--dismiss", "--note", "Not a defect: the next sentence already calls the sequence an upper bound.")
	mustRun(t, "triage", dir, "review.md#3", "--defer", "--note", "Valid; the stub-store test is tracked as ACME-4820.")
	mustRun(t, "decide", dir, "--hold", "--note", "Waiting for the clamp and its test (finding 1).")
	for _, c := range []struct{ format, golden string }{
		{"markdown", "export.md"}, {"sarif", "export.sarif"}, {"rdjsonl", "export.rdjsonl"}, {"github-review", "export.github-review.json"},
	} {
		t.Run(c.format, func(t *testing.T) {
			out, errOut, code := run(t, "export", dir, "--format", c.format)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden(t, c.golden, out)
			if c.format == "github-review" && strings.TrimSpace(errOut) != "gh api repos/acme/depot/pulls/2318/reviews --input -" {
				t.Errorf("stderr = %q", errOut)
			}
			// -o writes the same bytes.
			file := filepath.Join(t.TempDir(), "out")
			o, _, code := run(t, "export", dir, "--format", c.format, "-o", file)
			if data, err := os.ReadFile(file); code != 0 || err != nil || string(data) != out {
				t.Errorf("-o %s: exit %d, %v, differs: %v", file, code, err, string(data) != out)
			}
			if c.format == "github-review" && strings.TrimSpace(o) != "gh api repos/acme/depot/pulls/2318/reviews --input "+file {
				t.Errorf("with -o, stdout = %q", o)
			}
		})
	}
	if _, _, code := run(t, "export", dir, "--format", "pdf"); code != 2 {
		t.Errorf("unknown format: exit %d", code)
	}
}

// The SARIF golden has the shape code scanning requires.
func TestExportSARIFShape(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "golden", "export.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["version"] != "2.1.0" || !strings.HasSuffix(doc["$schema"].(string), "sarif-schema-2.1.0.json") {
		t.Errorf("version %v schema %v", doc["version"], doc["$schema"])
	}
	run := doc["runs"].([]any)[0].(map[string]any)
	if name := run["tool"].(map[string]any)["driver"].(map[string]any)["name"]; name != "vetter" {
		t.Errorf("driver name %v", name)
	}
	// Four findings have a place in the repository; #3 cites only the
	// registry and is a notification of the invocation.
	results := run["results"].([]any)
	if len(results) != 4 {
		t.Fatalf("%d results", len(results))
	}
	for i, r := range results {
		m := r.(map[string]any)
		for _, k := range []string{"ruleId", "level", "message", "locations", "partialFingerprints"} {
			if _, ok := m[k]; !ok {
				t.Errorf("result %d lacks %s", i, k)
			}
		}
		if s, ok := m["suppressions"].([]any); ok && (len(s) != 1 || s[0].(map[string]any)["kind"] != "external") {
			t.Errorf("result %d suppressions %v", i, s)
		}
	}
}

func TestTriageCommand(t *testing.T) {
	pinned(t)
	dir := samplePacketDir(t, "", nil)

	// --dismiss needs a reason, single or bulk; bad combinations are usage errors.
	for _, args := range [][]string{
		{"triage", dir, "4", "--dismiss"},
		{"triage", dir, "--severity", "nit", "--dismiss"},
		{"triage", dir, "4", "--accept", "--defer"},
		{"triage", dir},
		{"triage", dir, "--all", "--accept"},
		{"triage", dir, "--list", "--accept"},
		{"triage", dir, "4", "--severity", "nit", "--accept"},
	} {
		if _, _, code := run(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	// A finding the packet does not have is a usage error, as every other.
	if _, errOut, code := run(t, "triage", dir, "9", "--accept"); code != 2 || !strings.Contains(errOut, "no such finding") {
		t.Errorf("unknown finding: exit %d %q", code, errOut)
	}
	if _, err := os.Stat(stateFile(t, dir, packet.TriageFile)); !os.IsNotExist(err) {
		t.Fatal("a refused command wrote triage.json")
	}

	// Bulk touches open findings only: #4, already dismissed, keeps its decision.
	mustRun(t, "triage", dir, "4", "--dismiss", "--note", "wording is fine")
	out := mustRun(t, "triage", dir, "--severity", "nit", "--defer", "--note", "batch")
	if strings.TrimSpace(out) != "review.md#5: deferred — batch" {
		t.Errorf("bulk output %q", out)
	}
	list := listJSON(t, dir)
	if list["review.md#4"].Triage != packet.TriageDismissed || list["review.md#5"].Triage != packet.TriageDeferred {
		t.Errorf("after bulk: %+v %+v", list["review.md#4"], list["review.md#5"])
	}
	// With nothing open left, bulk changes nothing.
	if out, errOut, _ := run(t, "triage", dir, "--severity", "nit", "--accept"); out != "" || !strings.Contains(errOut, "nothing changed") {
		t.Errorf("bulk with nothing open: %q %q", out, errOut)
	}
	// --all overrides decisions already made.
	mustRun(t, "triage", dir, "--severity", "NIT", "--accept", "--all")
	list = listJSON(t, dir)
	if list["review.md#4"].Triage != packet.TriageAccepted || list["review.md#4"].Note != "wording is fine" {
		t.Errorf("--all: %+v", list["review.md#4"])
	}
	// --note alone edits the note and keeps the state.
	mustRun(t, "triage", dir, "2", "--note", "looked at it")
	if e := listJSON(t, dir)["review.md#2"]; e.Triage != packet.TriageOpen || e.Note != "looked at it" || e.User != "ana" {
		t.Errorf("note alone: %+v", e)
	}
	text := mustRun(t, "triage", dir, "--list")
	for _, want := range []string{"triage: " + stateFile(t, dir, packet.TriageFile), "#2   minor   open", "note (ana): looked at it", "gate not ready: assessment-sound, findings-triaged"} {
		if !strings.Contains(text, want) {
			t.Errorf("--list lacks %q:\n%s", want, text)
		}
	}
}

func listJSON(t *testing.T, dir string) map[string]triage.Entry {
	t.Helper()
	var got struct {
		Where    string
		Findings []triage.Entry
	}
	if err := json.Unmarshal([]byte(mustRun(t, "triage", dir, "--list", "--json")), &got); err != nil {
		t.Fatal(err)
	}
	m := map[string]triage.Entry{}
	for _, e := range got.Findings {
		m[e.ID] = e
	}
	return m
}

func TestDecideCommand(t *testing.T) {
	pinned(t)
	dir := samplePacketDir(t, "", nil)
	out, errOut, code := run(t, "decide", dir, "--ok-to-test")
	if code != 1 || out != "" || !strings.Contains(errOut, "refusing ok-to-test") || !strings.Contains(errOut, "assessment-sound") {
		t.Errorf("not ready: exit %d, out %q, err %q", code, out, errOut)
	}
	if _, _, code := run(t, "decide", dir, "--ok-to-test", "--force"); code != 2 {
		t.Errorf("--force without --note: exit %d, want 2", code)
	}
	if _, _, code := run(t, "decide", dir); code != 2 {
		t.Errorf("no decision: exit %d, want 2", code)
	}
	if _, err := os.Stat(stateFile(t, dir, packet.DecisionsFile)); !os.IsNotExist(err) {
		t.Fatal("a refused decision was logged")
	}
	want := "/ok to test 1bb1c70f4285cf39d8ebaf61573f0095423d52b1\n" +
		"gh pr comment https://github.com/acme/depot/pull/2318 --body '/ok to test 1bb1c70f4285cf39d8ebaf61573f0095423d52b1'\n"
	if out := mustRun(t, "decide", dir, "--ok-to-test", "--force", "--note", "read the retry loop myself"); out != want {
		t.Errorf("forced ok-to-test printed %q", out)
	}
	var rec review.DecisionRecord
	data, _ := os.ReadFile(stateFile(t, dir, packet.DecisionsFile))
	if err := json.Unmarshal(data, &rec); err != nil || rec.Override != "read the retry loop myself" || rec.GateReady || rec.User != "ana" {
		t.Errorf("decisions.jsonl: %v %+v", err, rec)
	}

	// A sound packet with every finding triaged needs no force.
	ready := samplePacketDir(t, "review.md", func(s string) string {
		return strings.Replace(s, "## Assessment: needs_changes", "## Assessment: sound", 1)
	})
	mustRun(t, "triage", ready, "1", "2", "3", "5", "--accept")
	mustRun(t, "triage", ready, "4", "--dismiss", "--note", "wording is fine")
	// The markdown summary offers the /ok to test line only now the gate
	// holds (before, it said what was missing).
	if md := mustRun(t, "summary", "--markdown", ready); !strings.Contains(md, "```\n/ok to test 1bb1c70f4285cf39d8ebaf61573f0095423d52b1\n```") || strings.Contains(md, "Not ready") {
		t.Errorf("summary --markdown of a ready gate:\n%s", md)
	}
	if md := mustRun(t, "summary", "--markdown", dir); strings.Contains(md, "```\n/ok to test") || !strings.Contains(md, "Not ready for `/ok to test`") {
		t.Errorf("summary --markdown of a gate not ready offers the line:\n%s", md)
	}
	if out := mustRun(t, "decide", ready, "--ok-to-test"); out != want {
		t.Errorf("ready ok-to-test printed %q", out)
	}
	if out := mustRun(t, "decide", ready, "--hold"); out != "" {
		t.Errorf("hold printed %q on stdout", out)
	}
}

// Nothing from the packet reaches the terminal raw through these commands.
func TestTriageOutputNeutralised(t *testing.T) {
	pinned(t)
	dir := samplePacketDir(t, "review.md", func(s string) string {
		return strings.Replace(s, "A `Retry-After`", "A \x1b]0;pwned\x07\x1b[2J\u202e`Retry-After`", 1)
	})
	mustRun(t, "triage", dir, "1", "--accept", "--note", "ok \x1b[31mred\u202e")
	for _, args := range [][]string{
		{"triage", dir, "--list"}, {"triage", dir, "--list", "--json"}, {"triage", dir, "1", "--accept"},
		{"export", dir, "--format", "markdown"}, {"export", dir, "--format", "sarif"},
		{"export", dir, "--format", "rdjsonl"}, {"export", dir, "--format", "github-review"},
	} {
		out, errOut, _ := run(t, args...)
		if strings.ContainsAny(out+errOut, "\x1b\x07\u202e") {
			t.Errorf("%v printed a raw control or bidi character", args)
		}
	}
}
