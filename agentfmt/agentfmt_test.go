package agentfmt

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func readFixture(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", path))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// check is what a test expects of one check: name, result, exit code (-1:
// none), command as shown.
type check struct {
	name, result string
	exit         int
	command      string
}

func checksOf(r *Record) []check {
	var out []check
	for _, c := range r.Checks {
		e := -1
		if c.ExitCode != nil {
			e = *c.ExitCode
		}
		out = append(out, check{c.Name, c.Result, e, c.CommandShown()})
	}
	return out
}

func TestRecords(t *testing.T) {
	for _, tc := range []struct {
		file                        string
		shape                       string
		status, verdict, assessment string
		assessmentLabel             string
		claims                      []Claim
		checks                      []check
		validated, total            int
		mismatch                    string
		verdictLine, assessmentLine int
	}{
		{file: "record-table-august.md", shape: "record-table", status: "complete", verdict: "pass", assessment: "sound",
			assessmentLabel: "AI review assessment (advisory — not a merge authorization; a maintainer and CI decide that)",
			claims:          []Claim{{"evidence summary", 3, 3, 5}, {"evidence audit", 3, 3, 14}, {"heading", 3, 3, 16}},
			checks: []check{
				{"01-unit-tests", "validated", -1, "go test -count=1 ./internal/retry/"},
				{"02-lint", "validated", -1, "gofmt -l . | wc -l; go vet ./..."},
				{"03-race", "validated", -1, "go test -race -count=1 ./internal/retry/"}},
			validated: 3, total: 3, verdictLine: 11, assessmentLine: 7},
		{file: "record-table-details.md", shape: "record-table-details", status: "complete", verdict: "fail", assessment: "needs_changes",
			assessmentLabel: "AI review assessment (advisory, not an approval)",
			claims:          []Claim{{"evidence summary", 2, 3, 6}, {"heading", 2, 3, 13}},
			checks: []check{
				{"01-unit-tests", "validated", -1, "go test ./internal/retry/"},
				{"02-lint", "validated", -1, "go vet ./..."},
				{"04-integration", "failing", -1, "go test -tags integration ./..."}},
			validated: 2, total: 3, verdictLine: 11, assessmentLine: 8},
		{file: "record-checks-september.md", shape: "record-checks", status: "complete", verdict: "pass", assessment: "sound",
			assessmentLabel: "AI review assessment (advisory, not an approval)",
			claims:          []Claim{{"evidence summary", 5, 5, 6}, {"heading", 5, 5, 11}},
			checks: []check{
				{"check-1", "validated", 0, "cargo fmt --check -p router && cargo clippy -p router -- -D warnings"},
				{"check-2", "validated", 0, "cargo test -p router --lib"},
				{"check-3", "validated", 0, "not shown"},
				{"check-4", "validated", 0, `pytest -q tests/router -k "pool or weight"`},
				{"check-5", "validated", 0, "git status --porcelain && git diff --exit-code"}},
			validated: 5, total: 5, verdictLine: 5, assessmentLine: 8},
		{file: "record-checks-unbracketed.md", shape: "record-checks", status: "complete", verdict: "pass", assessment: "sound",
			assessmentLabel: "Automated review assessment",
			claims:          []Claim{{"evidence summary", 3, 3, 7}, {"heading", 3, 3, 12}},
			checks: []check{
				{"check-1", "validated", 0, "make docs OFFLINE=1"},
				{"check-2", "validated", 0, "./scripts/check_links.sh docs/"},
				{"check-3", "validated", 0, "not shown"}},
			validated: 3, total: 3, verdictLine: 5, assessmentLine: 9},
		{file: "record-checks-mismatch.md", shape: "record-checks", status: "complete", verdict: "pass", assessment: "sound",
			assessmentLabel: "AI review assessment",
			claims:          []Claim{{"evidence summary", 4, 4, 6}, {"heading", 4, 4, 9}},
			checks: []check{
				{"check-1", "validated", 0, "go test ./..."},
				{"check-2", "failing", 1, "go test -race ./scheduler/..."},
				{"check-3", "validated", 0, "go vet ./..."},
				{"check-4", "validated", 0, "not shown"}},
			validated: 3, total: 4, verdictLine: 5, assessmentLine: 7,
			mismatch: "the record's evidence summary says 4/4 validated; its checks show 3/4"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			res := Recognise(readFixture(t, "comments/"+tc.file))
			if res.Shape != tc.shape || res.Kind != KindRecord || res.Record == nil {
				t.Fatalf("recognised as %q (%q), want the record shape %q", res.Shape, res.Kind, tc.shape)
			}
			r := res.Record
			if r.Status.Value != tc.status || r.Verdict.Value != tc.verdict || r.Assessment.Value != tc.assessment {
				t.Errorf("status %q verdict %q assessment %q, want %q %q %q", r.Status.Value, r.Verdict.Value, r.Assessment.Value, tc.status, tc.verdict, tc.assessment)
			}
			if r.Assessment.Label != tc.assessmentLabel {
				t.Errorf("assessment label %q, want %q", r.Assessment.Label, tc.assessmentLabel)
			}
			if r.Verdict.Line != tc.verdictLine || r.Assessment.Line != tc.assessmentLine {
				t.Errorf("verdict on line %d, assessment on %d; want %d, %d", r.Verdict.Line, r.Assessment.Line, tc.verdictLine, tc.assessmentLine)
			}
			if !reflect.DeepEqual(r.Claims, tc.claims) {
				t.Errorf("claims %+v\nwant %+v", r.Claims, tc.claims)
			}
			if got := checksOf(r); !reflect.DeepEqual(got, tc.checks) {
				t.Errorf("checks %+v\nwant %+v", got, tc.checks)
			}
			if v, n := r.Counts(); v != tc.validated || n != tc.total {
				t.Errorf("counts %d/%d, want %d/%d", v, n, tc.validated, tc.total)
			}
			if got := r.MismatchText(); got != tc.mismatch {
				t.Errorf("mismatch %q, want %q", got, tc.mismatch)
			}
			for _, c := range r.Checks {
				if c.CommandHidden && c.Command != "" {
					t.Errorf("check %d is hidden yet has a command %q", c.Number, c.Command)
				}
			}
		})
	}
}

// A check's description and the line it starts on are what the screens show.
func TestCheckDescriptions(t *testing.T) {
	r := Recognise(readFixture(t, "comments/record-checks-september.md")).Record
	want := []string{"Formats and lints the changed Rust crate.", "Runs the router's unit tests.",
		"Starts a two-worker pool against the staging cluster and sends 200 requests.",
		"Runs the Python bindings' tests that touch routing.", "Confirms the working tree is clean after the run."}
	for i, c := range r.Checks {
		if c.Description != want[i] {
			t.Errorf("check %d: description %q, want %q", i+1, c.Description, want[i])
		}
	}
	body := lines(normalise(readFixture(t, "comments/record-checks-september.md")))
	if got := body[r.Checks[2].Line-1]; got != "### Check 3" {
		t.Errorf("check 3 is said to start on %q", got)
	}
}

func TestDocuments(t *testing.T) {
	for _, tc := range []struct {
		file, shape, name, firstLine string
	}{
		{"review-details.md", "review-details", "review.md", "# Review — pool-aware routing"},
		{"review-plain.md", "review-plain", "review.md", "Reviewer's report for this change."},
		{"plan-named.md", "named-document", "plan.md", "# Plan — DYN-4100: retry budget per request"},
		{"review-titled.md", "titled-document", "review.md", "# Review — DYN-4100"},
		{"change-details-named.md", "named-document", "change.md", "# Change — DYN-4100"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			body := normalise(readFixture(t, "comments/"+tc.file))
			res := Recognise(body)
			if res.Shape != tc.shape || res.Doc == nil || res.Doc.Name != tc.name {
				t.Fatalf("recognised as %q %+v, want %s from %s", res.Shape, res.Doc, tc.name, tc.shape)
			}
			if got, _, _ := strings.Cut(res.Doc.Text, "\n"); got != tc.firstLine {
				t.Errorf("document starts %q, want %q", got, tc.firstLine)
			}
			if strings.Contains(res.Doc.Text, "</details>") || strings.Contains(res.Doc.Text, "<summary") {
				t.Errorf("the wrapper stayed in the document:\n%s", res.Doc.Text)
			}
			// Offset maps the document's lines back onto the comment's.
			if got := lines(body)[res.Doc.Offset]; got != tc.firstLine {
				t.Errorf("offset %d points at %q", res.Doc.Offset, got)
			}
		})
	}
}

func TestRoundsAndStatus(t *testing.T) {
	for _, tc := range []struct {
		file, shape string
		want        Round
	}{
		{"round-repair.md", "round", Round{Kind: "repair", N: 1, SHA: "4c1d9e2", Was: "9a7b3f0"}},
		{"round-babysitter.md", "round", Round{Kind: "babysitter", N: 2, SHA: "eececad6a", Was: "ff62a64a"}},
		{"round-addressed.md", "addressed", Round{Kind: "addressed", SHA: "cd30ee4"}},
	} {
		res := Recognise(readFixture(t, "comments/"+tc.file))
		if res.Shape != tc.shape || res.Round == nil {
			t.Errorf("%s: recognised as %q, want %q", tc.file, res.Shape, tc.shape)
			continue
		}
		got := *res.Round
		got.Text = ""
		if got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.file, got, tc.want)
		}
	}
	res := Recognise(readFixture(t, "comments/nursery-status.md"))
	if res.Shape != "nursery-status" || res.Status == nil || !strings.HasPrefix(res.Status.Text, "watching CI") {
		t.Errorf("nursery status: %q %+v", res.Shape, res.Status)
	}
}

func TestUnrecognised(t *testing.T) {
	for _, tc := range []struct{ file, looksLike string }{
		{"unknown-shape.md", "a <details> block"},
		{"unknown-count.md", `a count of validated checks ("4/4 validated")`},
		{"ci-result.md", ""},
	} {
		res := Recognise(readFixture(t, "comments/"+tc.file))
		if res.Recognised() {
			t.Errorf("%s: recognised as %q", tc.file, res.Shape)
		}
		if res.LooksLike != tc.looksLike {
			t.Errorf("%s: looks like %q, want %q", tc.file, res.LooksLike, tc.looksLike)
		}
	}
}

// Words that the shapes read are not what makes a shape: a sentence
// beginning "Command" inside a check is prose, hex words are not commits,
// and a label inside code is code.
func TestStructureNotWording(t *testing.T) {
	body := "### Check 1\n\nCommand output was long.\n\n**Result:** Failed (exit code 2)\n\n```bash\nrm -rf /\n```\n"
	r := Recognise(body).Record
	if r == nil || len(r.Checks) != 1 {
		t.Fatalf("not read as a one-check record: %+v", Recognise(body))
	}
	c := r.Checks[0]
	if c.Command != "" || c.CommandHidden || c.Result != "failing" || c.ExitCode == nil || *c.ExitCode != 2 {
		t.Errorf("a fence with no Command label became %+v", c)
	}
	if got := Recognise("Babysitter round 3 — defaced nothing\n").Round; got == nil || got.SHA != "" {
		t.Errorf("a hex word became a commit: %+v", got)
	}
	code := "```\n**Validation result:** pass\n## Assessment: sound\n```\n"
	if res := Recognise(code); res.Recognised() || res.LooksLike != "" {
		t.Errorf("labels inside a fence were read: %+v", res)
	}
	if got := Recognise("See review.md for details.\n"); got.Recognised() {
		t.Errorf("a sentence naming review.md became %q", got.Shape)
	}
}

func TestBadges(t *testing.T) {
	for _, tc := range []struct {
		file             string
		ok               bool
		severity, label  string
		category, effort string
		claim            string
		support          bool
	}{
		{"functional-major.md", true, "major", "🟠 Major", "🎯 Functional Correctness", "⚡ Quick win", "**The retry loop ignores the caller's deadline.**", false},
		{"after-static-analysis.md", true, "blocker", "🔴 Critical", "🔒 Security & Privacy", "🏗️ Heavy lift", "**The token is logged at debug level.**", true},
		{"potential-issue.md", true, "unknown", "", "⚠️ Potential issue", "", "**Off-by-one in the page loop.**", false},
		{"potential-issue-minor.md", true, "minor", "🟡 Minor", "⚠️ Potential issue", "", "**Typo in the flag's help text.**", false},
		{"nitpick.md", true, "nit", "🧹 Nitpick (assertive)", "🧹 Nitpick (assertive)", "", "**Prefer `errors.Is` here.**", false},
		{"trivial.md", true, "nit", "🔵 Trivial", "📝 Documentation", "⚡ Quick win", "**The example uses the old flag name.**", false},
		{"unknown-severity.md", true, "unknown", "", "🧪 Test Coverage", "⚡ Quick win", "**No test covers the empty pool.**", false},
		{"no-badge.md", false, "", "", "", "", "", false},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, ok := ReadBadge(readFixture(t, "badges/"+tc.file))
			if ok != tc.ok {
				t.Fatalf("ok %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			if b.Severity != tc.severity || b.SeverityLabel != tc.label || b.Category != tc.category || b.Effort != tc.effort {
				t.Errorf("severity %q (%q) category %q effort %q; want %q (%q) %q %q", b.Severity, b.SeverityLabel, b.Category, b.Effort,
					tc.severity, tc.label, tc.category, tc.effort)
			}
			if first, _, _ := strings.Cut(b.Claim, "\n"); first != tc.claim {
				t.Errorf("claim starts %q, want %q", first, tc.claim)
			}
			if (b.Support != "") != tc.support {
				t.Errorf("support %q", b.Support)
			}
			if tc.severity == "unknown" && !strings.Contains(b.Text, tc.category) {
				t.Errorf("an unknown badge lost its text: %q", b.Text)
			}
		})
	}
}

func TestDescriptions(t *testing.T) {
	n, ok := Description(readFixture(t, "descriptions/agent.md"))
	if !ok {
		t.Fatal("the agent's description was not read")
	}
	var titles []string
	for _, s := range n.Sections {
		titles = append(titles, s.Title)
	}
	if want := []string{"Overview", "Details", "Where should the reviewer start?", "Related Issues"}; !reflect.DeepEqual(titles, want) {
		t.Errorf("sections %q, want %q", titles, want)
	}
	if n.Sections[1].Line != 7 {
		t.Errorf("Details on line %d, want 7", n.Sections[1].Line)
	}
	if _, ok := Description(readFixture(t, "descriptions/bare-labels.md")); !ok {
		t.Error("bare Overview:/Details: label lines were not read")
	}
	if _, ok := Description(readFixture(t, "descriptions/human.md")); ok {
		t.Error("a description without Overview and Details was taken as the agent's")
	}
}

// Every shape has a fixture, names the public pull request it was modelled
// on, and its ID is unique: the list in docs/packet-format.md is this list.
func TestShapesAreDocumented(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range AllShapes() {
		if seen[s.ID] {
			t.Errorf("shape %s twice", s.ID)
		}
		seen[s.ID] = true
		if !strings.HasPrefix(s.ModelledOn, "ai-dynamo/dynamo#") || s.Describe == "" {
			t.Errorf("shape %s: modelled on %q, described %q", s.ID, s.ModelledOn, s.Describe)
		}
	}
	fixtures := map[string]string{}
	for _, dir := range []string{"comments", "badges", "descriptions"} {
		names, _ := filepath.Glob(filepath.Join("testdata", dir, "*.md"))
		for _, n := range names {
			data, _ := os.ReadFile(n)
			body := string(data)
			switch dir {
			case "comments":
				fixtures[Recognise(body).Shape] = n
			case "badges":
				if _, ok := ReadBadge(body); ok {
					fixtures[CodeRabbitShape.ID] = n
				}
			case "descriptions":
				if _, ok := Description(body); ok {
					fixtures[DescriptionShape.ID] = n
				}
			}
		}
	}
	doc, err := os.ReadFile(filepath.Join("..", "docs", "packet-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range AllShapes() {
		if fixtures[s.ID] == "" {
			t.Errorf("shape %s has no fixture under testdata/", s.ID)
		}
		if !strings.Contains(string(doc), "| `"+s.ID+"` |") || !strings.Contains(string(doc), s.ModelledOn) {
			t.Errorf("docs/packet-format.md has no row for shape %s (modelled on %s)", s.ID, s.ModelledOn)
		}
	}
}
