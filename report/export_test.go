package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/internal/packettest"
	"github.com/vetter-dev/vetter/internal/reviewtest"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
	"github.com/xeipuuv/gojsonschema"
)

// triaged is the sample after a short session: #1 accepted, #3 deferred,
// #4 dismissed, #2 and #5 open.
func triaged(t *testing.T, edit func(string) string) *packet.Packet {
	t.Helper()
	_, p := reviewtest.SamplePacket(t, edit)
	s := reviewtest.OpenStore(t, p)
	reviewtest.MustSet(t, s, []string{"1"}, packet.TriageAccepted, "", "ana", t0)
	reviewtest.MustSet(t, s, []string{"4"}, packet.TriageDismissed, "the next sentence already says up to", "ana", t0)
	reviewtest.MustSet(t, s, []string{"3"}, packet.TriageDeferred, "stub-store test in a follow-up", "ana", t0)
	return p
}

// validSARIF is p's SARIF export, which must hold to the OASIS SARIF 2.1.0
// schema (kept under testdata/sarif so the export is validated offline).
func validSARIF(t *testing.T, p *packet.Packet, version string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := ExportSARIF(p, &buf, ExportOptions{ToolVersion: version}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "sarif", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	schema, err := gojsonschema.NewSchema(gojsonschema.NewBytesLoader(data))
	if err != nil {
		t.Fatalf("reading the SARIF schema: %v", err)
	}
	res, err := schema.Validate(gojsonschema.NewBytesLoader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Errors() {
		t.Errorf("schema: %s", e)
	}
	return buf.Bytes()
}

// placeholders lists the JSON paths of empty arrays and -1 numbers in doc:
// a careful writer omits what it has nothing to say about.
func placeholders(path string, v any) []string {
	var out []string
	switch v := v.(type) {
	case []any:
		if len(v) == 0 {
			out = append(out, path+" = []")
		}
		for i, e := range v {
			out = append(out, placeholders(fmt.Sprintf("%s[%d]", path, i), e)...)
		}
	case map[string]any:
		for k, e := range v {
			out = append(out, placeholders(path+"."+k, e)...)
		}
	case float64:
		if v == -1 {
			out = append(out, path+" = -1")
		}
	}
	return out
}

func TestExportSARIF(t *testing.T) {
	p := triaged(t, nil)
	sarif := validSARIF(t, p, "test")
	var raw any
	if err := json.Unmarshal(sarif, &raw); err != nil {
		t.Fatal(err)
	}
	for _, ph := range placeholders("$", raw) {
		t.Errorf("placeholder %s", ph)
	}

	var doc SARIFLog
	if err := json.Unmarshal(sarif, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != "2.1.0" || !strings.HasSuffix(doc.Schema, "sarif-schema-2.1.0.json") || len(doc.Runs) != 1 {
		t.Fatalf("header: %s %s, %d runs", doc.Version, doc.Schema, len(doc.Runs))
	}
	run := doc.Runs[0]
	if d := run.Tool.Driver; d.Name != "vetter" || d.Version != "test" {
		t.Errorf("driver %+v", d)
	}
	if vcp := run.VersionControlProvenance; len(vcp) != 1 || vcp[0].RevisionID != "1bb1c70f4285cf39d8ebaf61573f0095423d52b1" ||
		vcp[0].RepositoryURI != "https://github.com/acme/depot" {
		t.Errorf("provenance = %+v", vcp)
	}
	byID := map[string]*packet.Finding{}
	for _, f := range p.Findings {
		byID[f.ID] = f
	}
	// #3 cites only the registry: not a place in the repository.
	want := []struct {
		id, level, rule, uri string
		start, end           int
		dismissed            bool
	}{
		{"review.md#1", "error", "review/major", "internal/upload/client.go", 97, 98, false},
		{"review.md#2", "warning", "review/minor", "internal/upload/client.go", 91, 0, false},
		{"review.md#4", "note", "review/nit", "docs/uploading-artifacts.md", 61, 62, true},
		{"review.md#5", "note", "review/nit", "tools/acmeup/acmeup.py", 117, 118, false},
	}
	if len(run.Results) != len(want) {
		t.Fatalf("%d results, want %d", len(run.Results), len(want))
	}
	for i, r := range run.Results {
		w := want[i]
		id, _ := r.Properties["finding_id"].(string)
		if id != w.id || r.Level != w.level || r.RuleID != w.rule || run.Tool.Driver.Rules[r.RuleIndex].ID != w.rule {
			t.Errorf("result %d: %s %s %s (rule index %d)", i, id, r.Level, r.RuleID, r.RuleIndex)
		}
		if len(r.Locations) != 1 {
			t.Errorf("%s: %d locations", id, len(r.Locations))
			continue
		}
		pl := r.Locations[0].PhysicalLocation
		if pl.ArtifactLocation.URI != w.uri || pl.Region == nil || pl.Region.StartLine != w.start || pl.Region.EndLine != w.end {
			t.Errorf("%s: location %+v %+v", id, pl.ArtifactLocation, pl.Region)
		}
		if fp := r.PartialFingerprints[SARIFFingerprintKey]; len(r.PartialFingerprints) != 1 || fp != packet.Fingerprint(byID[w.id]) {
			t.Errorf("%s: partialFingerprints %v, want the content fingerprint %s", id, r.PartialFingerprints, packet.Fingerprint(byID[w.id]))
		}
		if w.dismissed {
			if len(r.Suppressions) != 1 || r.Suppressions[0].Kind != "external" || r.Suppressions[0].Status != "accepted" ||
				r.Suppressions[0].Justification != "the next sentence already says up to" {
				t.Errorf("%s: suppressions %+v", id, r.Suppressions)
			}
		} else if len(r.Suppressions) != 0 {
			t.Errorf("%s is not dismissed, yet suppressed: %+v", id, r.Suppressions)
		}
	}
	if len(run.Invocations) != 1 || !run.Invocations[0].ExecutionSuccessful || len(run.Invocations[0].ToolExecutionNotifications) != 1 {
		t.Fatalf("invocations %+v", run.Invocations)
	}
	n := run.Invocations[0].ToolExecutionNotifications[0]
	if n.Properties["finding_id"] != "review.md#3" || n.Properties["triage"] != packet.TriageDeferred || n.Level != "warning" ||
		!strings.Contains(n.Message.Text, "validation/registry.jsonl:5") || n.AssociatedRule == nil ||
		run.Tool.Driver.Rules[n.AssociatedRule.Index].ID != "review/minor" {
		t.Errorf("notification %+v", n)
	}
}

// A dismissal made on a finding whose text changed since is stale: the
// finding counts as undecided, so the export suppresses nothing.
func TestExportSARIFStaleDismissal(t *testing.T) {
	p := triaged(t, nil)
	f := p.Findings[3]
	f.Claim += " More."
	doc := SARIF(p, ExportOptions{})
	for _, r := range doc.Runs[0].Results {
		if r.Properties["finding_id"] == f.ID {
			if len(r.Suppressions) != 0 || r.Properties["stale"] != true {
				t.Errorf("stale dismissal: suppressions %+v, properties %v", r.Suppressions, r.Properties)
			}
			return
		}
	}
	t.Fatalf("%s not among the results", f.ID)
}

// A finding located at a repository file outside the diff is a result
// there; one located at a path outside the repository is a notification.
func TestExportSARIFExternalPlaces(t *testing.T) {
	p := triaged(t, func(review string) string {
		review = strings.Replace(review, "`validation/registry.jsonl:5`", "`cmd/acme-upload/main.go:58`", 1)
		return strings.Replace(review, "`tools/acmeup/acmeup.py:117-118`", "`/etc/acme/upload.conf:3`", 1)
	})
	doc := SARIF(p, ExportOptions{})
	places := map[string]string{}
	for _, r := range doc.Runs[0].Results {
		places[r.Properties["finding_id"].(string)] = r.Locations[0].PhysicalLocation.ArtifactLocation.URI
	}
	if places["review.md#3"] != "cmd/acme-upload/main.go" {
		t.Errorf("#3 at %q, want the external repository file", places["review.md#3"])
	}
	n := doc.Runs[0].Invocations[0].ToolExecutionNotifications
	if _, ok := places["review.md#5"]; ok || len(n) != 1 || n[0].Properties["finding_id"] != "review.md#5" {
		t.Errorf("#5 (an absolute path) is a result at %q; notifications %+v", places["review.md#5"], n)
	}
	if !repositoryPath("a/b.go") || repositoryPath("../x") || repositoryPath("a/../../x") || repositoryPath("C:/x") || repositoryPath("/x") {
		t.Error("repositoryPath")
	}
}

// An artifact URI is a relative URI reference: a space in a file name is
// escaped, and the log still validates.
func TestSARIFURI(t *testing.T) {
	if got := sarifURI("docs/a b#c.md"); got != "docs/a%20b%23c.md" {
		t.Errorf("sarifURI = %q", got)
	}
}

func TestExportRDJSONL(t *testing.T) {
	p := triaged(t, nil)
	var buf bytes.Buffer
	if err := ExportRDJSONL(p, &buf); err != nil {
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
	if c := DiffLocation(p, p.Finding("review.md#5")); c == nil || c.Kind != packet.CiteDiff || OnAddedLine(p, c) {
		t.Fatalf("#5 should sit on a context line: %+v", c)
	}
	r := BuildGitHubReview(p)
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
	s := reviewtest.OpenStore(t, p)
	reviewtest.MustSet(t, s, []string{"1"}, packet.TriageDeferred, "", "ana", t0)
	if r := BuildGitHubReview(p); r.Event != "COMMENT" {
		t.Errorf("event = %s with the major deferred", r.Event)
	}
}

func TestExportMarkdown(t *testing.T) {
	p := triaged(t, nil)
	var buf bytes.Buffer
	if err := Export(p, &buf, FormatMarkdown, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"#### Gate: not ready", "- [ ] `assessment-sound`", "| 4 | `docs/uploading-artifacts.md:61-62` | nit | dismissed (ana) |",
		"the next sentence already says up to |", "1 accepted · 1 deferred · 1 dismissed · 2 open"} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
	if err := Export(p, io.Discard, "pdf", ExportOptions{}); err == nil {
		t.Error("unknown format accepted")
	}
}

// Packet text cannot break out of the markdown it is placed in.
func TestExportNeutralisesMarkup(t *testing.T) {
	p := triaged(t, func(s string) string {
		return strings.Replace(s, "A `Retry-After` longer", "<script>x</script> | A `Retry-After` longer", 1)
	})
	r := BuildGitHubReview(p)
	var buf bytes.Buffer
	ExportMarkdown(p, &buf)
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
	dir := packettest.SampleDir(f, "p")
	p, err := packet.Load(dir, packet.Options{})
	if err != nil {
		f.Fatal(err)
	}
	state := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, packet.TriageFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		p.Triage = nil
		s, err := review.OpenStore(p, state)
		if err != nil {
			return
		}
		for _, format := range ExportFormats {
			if err := Export(p, io.Discard, format, ExportOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		Summarize(p)
		if _, err := s.Set([]string{"2"}, packet.TriageDeferred, "n", "fuzz", t0); err != nil {
			t.Fatal(err)
		}
		if err := s.Reload(); err != nil {
			t.Fatalf("vetter cannot read back what it wrote: %v", err)
		}
	})
}
