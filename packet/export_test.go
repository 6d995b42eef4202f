package packet

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// triaged is the sample after a short session: #1 accepted, #3 deferred,
// #4 dismissed, #2 and #5 open.
func triaged(t *testing.T, edit func(string) string) *Packet {
	t.Helper()
	_, p := samplePacket(t, edit)
	s := openStore(t, p)
	mustSet(t, s, []string{"1"}, TriageAccepted, "", "ana", t0)
	mustSet(t, s, []string{"4"}, TriageDismissed, "the next sentence already says up to", "ana", t0)
	mustSet(t, s, []string{"3"}, TriageDeferred, "stub-store test in a follow-up", "ana", t0)
	return p
}

func TestExportSARIF(t *testing.T) {
	p := triaged(t, nil)
	rep := p.SARIF(ExportOptions{ToolVersion: "test"})
	if err := rep.Validate(); err != nil {
		t.Fatalf("the SARIF log does not validate against the 2.1.0 schema: %v", err)
	}
	var buf bytes.Buffer
	if err := p.ExportSARIF(&buf, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct{ Name string } `json:"driver"`
			} `json:"tool"`
			VersionControlProvenance []struct {
				RepositoryURI string `json:"repositoryUri"`
				RevisionID    string `json:"revisionId"`
			} `json:"versionControlProvenance"`
			Results []struct {
				RuleID              string            `json:"ruleId"`
				Level               string            `json:"level"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
				Properties          map[string]any    `json:"properties"`
				Locations           []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string } `json:"artifactLocation"`
						Region           struct {
							StartLine int `json:"startLine"`
							EndLine   int `json:"endLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				Suppressions []struct {
					Kind, Status, Justification string
				} `json:"suppressions"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != "2.1.0" || !strings.Contains(doc.Schema, "sarif-schema-2.1.0") || len(doc.Runs) != 1 || doc.Runs[0].Tool.Driver.Name != "vetter" {
		t.Fatalf("header: %s %s %+v", doc.Version, doc.Schema, doc.Runs)
	}
	run := doc.Runs[0]
	if len(run.VersionControlProvenance) != 1 || run.VersionControlProvenance[0].RevisionID != "1bb1c70f4285cf39d8ebaf61573f0095423d52b1" ||
		run.VersionControlProvenance[0].RepositoryURI != "https://github.com/acme/depot" {
		t.Errorf("provenance = %+v", run.VersionControlProvenance)
	}
	want := []struct{ level, status, sev string }{
		{"error", "rejected", "major"}, {"warning", "underReview", "minor"}, {"warning", "rejected", "minor"},
		{"note", "accepted", "nit"}, {"note", "underReview", "nit"},
	}
	if len(run.Results) != len(want) {
		t.Fatalf("%d results", len(run.Results))
	}
	for i, r := range run.Results {
		id := p.Findings[i].ID
		if r.Level != want[i].level || r.Properties["severity"] != want[i].sev || r.RuleID != "review/"+want[i].sev ||
			r.PartialFingerprints["findingId/v1"] != id {
			t.Errorf("%s: %+v", id, r)
		}
		if len(r.Suppressions) != 1 || r.Suppressions[0].Kind != "external" || r.Suppressions[0].Status != want[i].status {
			t.Errorf("%s suppressions: %+v", id, r.Suppressions)
		}
	}
	if j := run.Results[3].Suppressions[0].Justification; j != "the next sentence already says up to" {
		t.Errorf("dismissal justification = %q", j)
	}
	if l := run.Results[0].Locations; len(l) != 1 || l[0].PhysicalLocation.ArtifactLocation.URI != "internal/upload/client.go" ||
		l[0].PhysicalLocation.Region.StartLine != 97 || l[0].PhysicalLocation.Region.EndLine != 98 {
		t.Errorf("#1 location: %+v", l)
	}
	if l := run.Results[2].Locations; len(l) != 0 {
		t.Errorf("#3 cites the registry, not the diff, yet has a location: %+v", l)
	}
}

func TestExportRDJSONL(t *testing.T) {
	p := triaged(t, nil)
	var buf bytes.Buffer
	if err := p.ExportRDJSONL(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d diagnostics, want 4 (the dismissed one left out)", len(lines))
	}
	wantPrefix := map[string]string{"review.md#1": "issue: ", "review.md#2": "suggestion (non-blocking): ",
		"review.md#3": "suggestion (non-blocking): ", "review.md#5": "nitpick (non-blocking): "}
	wantSev := map[string]string{"review.md#1": "ERROR", "review.md#2": "WARNING", "review.md#3": "WARNING", "review.md#5": "INFO"}
	for _, l := range lines {
		var d rdDiagnostic
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Fatal(err)
		}
		id := d.Code.Value
		if !strings.HasPrefix(d.Message, wantPrefix[id]) || d.Severity != wantSev[id] || d.Source.Name != "vetter" {
			t.Errorf("%s: %+v", id, d)
		}
		if id == "review.md#1" && (d.Location == nil || d.Location.Path != "internal/upload/client.go" || d.Location.Range.Start.Line != 97 || d.Location.Range.End.Line != 98) {
			t.Errorf("#1 location: %+v", d.Location)
		}
		if id == "review.md#3" && (d.Location != nil || !strings.Contains(d.Message, "Triage: deferred by ana — stub-store")) {
			t.Errorf("#3: %+v", d)
		}
	}
	if conventionalLabel("blocker") != "issue (blocking)" || conventionalLabel("cosmetic") != "nitpick (non-blocking)" {
		t.Error("labels")
	}
}

func TestExportGitHubReview(t *testing.T) {
	// #5 moved onto a context line of the diff: inside a hunk, so GitHub
	// takes an inline comment there; #3 cites the registry, outside the diff,
	// so it goes in the body.
	p := triaged(t, func(s string) string {
		return strings.Replace(s, "| 5 | `tools/acmeup/acmeup.py:117-118` |", "| 5 | `docs/uploading-artifacts.md:28` |", 1)
	})
	if c := p.DiffLocation(p.Finding("review.md#5")); c == nil || c.Kind != CiteDiff || p.OnAddedLine(c) {
		t.Fatalf("#5 should sit on a context line: %+v", c)
	}
	r := p.GitHubReview()
	if r.CommitID != "1bb1c70f4285cf39d8ebaf61573f0095423d52b1" || r.Event != "REQUEST_CHANGES" {
		t.Errorf("commit %s event %s", r.CommitID, r.Event)
	}
	var inline []string
	for _, c := range r.Comments {
		inline = append(inline, c.Path)
		if c.Side != "RIGHT" || c.Line == 0 {
			t.Errorf("comment %+v", c)
		}
	}
	if strings.Join(inline, ",") != "internal/upload/client.go,internal/upload/client.go,docs/uploading-artifacts.md" {
		t.Errorf("inline comments on %v, want #1, #2 and #5 (a context line)", inline)
	}
	if c := r.Comments[0]; c.StartLine != 97 || c.Line != 98 || !strings.HasPrefix(c.Body, "**issue:** ") {
		t.Errorf("#1 comment: %+v", c)
	}
	for _, want := range []string{"review.md#3", "#### Outside the diff", "#### Dismissed", "the next sentence already says up to", "**Decision:** none recorded yet"} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("body lacks %q:\n%s", want, r.Body)
		}
	}

	// Without an accepted blocker or major it only comments.
	s := openStore(t, p)
	mustSet(t, s, []string{"1"}, TriageDeferred, "", "ana", t0)
	if r := p.GitHubReview(); r.Event != "COMMENT" {
		t.Errorf("event = %s with the major deferred", r.Event)
	}
	if cmd, ok := p.GitHubReviewCommand("review file.json"); !ok || cmd != "gh api repos/acme/depot/pulls/2318/reviews --input 'review file.json'" {
		t.Errorf("command = %q", cmd)
	}
}

func TestExportMarkdown(t *testing.T) {
	p := triaged(t, nil)
	var buf bytes.Buffer
	if err := p.Export(&buf, FormatMarkdown, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"#### Gate: not ready", "- [ ] `assessment-sound`", "| 4 | `docs/uploading-artifacts.md:61-62` | nit | dismissed (ana) |",
		"the next sentence already says up to |", "1 accepted · 1 deferred · 1 dismissed · 2 open"} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
	if err := p.Export(io.Discard, "pdf", ExportOptions{}); err == nil {
		t.Error("unknown format accepted")
	}
}

// Packet text cannot break out of the markdown it is placed in.
func TestExportNeutralisesMarkup(t *testing.T) {
	p := triaged(t, func(s string) string {
		return strings.Replace(s, "A `Retry-After` longer", "<script>x</script> | A `Retry-After` longer", 1)
	})
	r := p.GitHubReview()
	var buf bytes.Buffer
	p.ExportMarkdown(&buf)
	for _, out := range []string{r.Body, r.Comments[0].Body, buf.String()} {
		if strings.Contains(out, "<script>") {
			t.Errorf("raw HTML from the packet reached an export:\n%s", out)
		}
	}
}

// Whatever triage.json holds, vetter either refuses it or works with it, and
// never panics.
func FuzzTriageFile(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"version":1,"findings":{"review.md#1":null}}`,
		`{"findings":{"review.md#1":{"state":"weird","time":"2026-01-01T00:00:00Z"}},"gate":{"decision":"ok-to-test","sha":"x"}}`,
		`{"findings":{"x":{"state":"accepted"}},"gate":null}`, `[1,2]`, `{"version":"1"}`, "\xff"} {
		f.Add([]byte(s))
	}
	dir := filepath.Join(f.TempDir(), "p")
	if err := WriteSample(dir); err != nil {
		f.Fatal(err)
	}
	p, err := Load(dir, Options{})
	if err != nil {
		f.Fatal(err)
	}
	state := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, TriageFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		p.Triage = nil
		s, err := OpenStore(p, state)
		if err != nil {
			return
		}
		for _, format := range ExportFormats {
			if err := p.Export(io.Discard, format, ExportOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		p.Summarize()
		if _, err := s.Set([]string{"2"}, TriageDeferred, "n", "fuzz", t0); err != nil {
			t.Fatal(err)
		}
		if err := s.Reload(); err != nil {
			t.Fatalf("vetter cannot read back what it wrote: %v", err)
		}
	})
}
