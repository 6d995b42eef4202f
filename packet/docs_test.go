package packet

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// loadDoc parses a document under testdata/docs as the packet file name.
func loadDoc(t testing.TB, name, as string) *Document {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "docs", name))
	if err != nil {
		t.Fatalf("reading testdata/docs/%s: %v", name, err)
	}
	return ParseDocument(as, data)
}

// codes lists the codes of problems, in order.
func codes(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Code)
	}
	return out
}

// checkCodes reports whether probs carry exactly the codes want, in order,
// and when they do not, fails the test saying which problems they were.
func checkCodes(t *testing.T, probs []Problem, want []string) bool {
	t.Helper()
	if got := codes(probs); !reflect.DeepEqual(got, want) {
		t.Errorf("problems %+v, want codes %v", probs, want)
		return false
	}
	return true
}

func TestSplitLines(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a", []string{"a"}},
		{"a\n", []string{"a"}},
		{"a\n\n", []string{"a", ""}},
		{"a\r\nb\r\n", []string{"a", "b"}},
		{"a\r\r\nb", []string{"a\r", "b"}},
		{"\n", []string{""}},
		{"\ufeff# T\nx", []string{"# T", "x"}},
	}
	for _, tt := range tests {
		if got := SplitLines(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("splitLines(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseDocumentHeadings(t *testing.T) {
	type h = Heading
	tests := []struct {
		name string
		text string
		want []Heading
	}{
		{"levels", "# One\n## Two\n###### Six\n####### seven", []h{{1, "One", 1}, {2, "Two", 2}, {6, "Six", 3}}},
		{"needs a space", "#5 is not\n#hashtag\n# yes", []h{{1, "yes", 3}}},
		{"indent up to three", "   ## three\n    ## four is code", []h{{2, "three", 1}}},
		{"closing sequence", "## Title ##\n## C# #\n## a#\n#", []h{{2, "Title", 1}, {2, "C#", 2}, {2, "a#", 3}, {1, "", 4}}},
		{"tab after hashes", "##\tTabbed", []h{{2, "Tabbed", 1}}},
		{"backtick fence", "```bash\n# comment\n```\n# after", []h{{1, "after", 4}}},
		{"tilde fence", "~~~\n# no\n~~~\n## yes", []h{{2, "yes", 4}}},
		{"fence closed only by same char", "```\n~~~\n# no\n```\n# yes", []h{{1, "yes", 5}}},
		{"longer fence nests a shorter one", "````\n```\n# no\n```\n# still no\n````\n# yes", []h{{1, "yes", 7}}},
		{"closing fence must be long enough", "````\n# no\n```\n# no\n````\n# yes", []h{{1, "yes", 6}}},
		{"unterminated fence runs to the end", "# before\n```\n# no\n## no", []h{{1, "before", 1}}},
		{"indented fence in a list item", "- item\n\n      ```\n      # no\n      ```\n# yes", []h{{1, "yes", 6}}},
		{"backtick in info string is a code span", "```validation-recipes```\n# yes", []h{{1, "yes", 2}}},
		{"CRLF", "# One\r\n## Two\r\n", []h{{1, "One", 1}, {2, "Two", 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := ParseDocument("x.md", []byte(tt.text))
			if !reflect.DeepEqual(d.Headings, tt.want) {
				t.Errorf("headings of %q\n got %+v\nwant %+v", tt.text, d.Headings, tt.want)
			}
		})
	}
}

func TestParseDocumentCitations(t *testing.T) {
	d := loadDoc(t, "change-validation.md", "change-validation.md")
	if d.Path != "change-validation.md" || len(d.Lines) != 40 || d.Text == "" {
		t.Fatalf("path %q, %d lines", d.Path, len(d.Lines))
	}
	var got []string
	for _, c := range d.Citations {
		if c.SourceFile != "change-validation.md" {
			t.Errorf("source file %q", c.SourceFile)
		}
		got = append(got, c.Text+"@"+strconv.Itoa(c.SourceLine))
	}
	want := []string{
		"compute-env.md@5",
		"validation/registry.jsonl:1-4@6",
		"validation/registry.jsonl:4@6",
		"validation/logs/2031-02-11T08-02-10.114Z-bash-a1f3.log@11",
		"…08-04-55.730Z-bash-7c0e.log@15",
		"crates/cache/tests/sweep_race.rs:14–52@16",
		"sweep.rs:97@17",
		":118@17",
		"plan.md:44-47@17",
		// not/a/citation.rs:3 sits in a fenced block (line 21) and is skipped.
		"...08-15-02.004Z-bash-e519.log@28",
		"change.md:9@32",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("citations\n got %q\nwant %q", got, want)
	}
}

func TestParsePlan(t *testing.T) {
	d := loadDoc(t, "plan.md", "plan.md")
	p, probs := ParsePlan(d)
	if len(probs) != 0 {
		t.Errorf("problems: %+v", probs)
	}
	want := Plan{
		Title:    "Plan — ACME-4411: widget cache drops entries under eviction pressure",
		ID:       "ACME-4411",
		Route:    "implementation",
		Template: "bug-fix",
		Engine:   "rustc",
		Headers: map[string]string{
			"Route": "implementation", "Template": "bug-fix", "Engine": "rustc",
			"Owner": "cache-team", "Ticket link": "https://tracker.example.test/ACME-4411",
		},
		// The example block inside the four-backtick fence is not the plan's.
		Recipes:     []string{"01-rust-fmt-clippy", "02-cache-unit-tests", "04-soak-eviction"},
		RecipesLine: 38,
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("ParsePlan\n got %+v\nwant %+v", p, want)
	}
}

func TestParsePlanInline(t *testing.T) {
	tests := []struct {
		name      string
		text      string
		title, id string
		headers   map[string]string
		recipes   []string
		line      int
		codes     []string
	}{
		{
			name:  "headers before the title, bold keys, no recipes",
			text:  "Route: triage\n**Engine**: none\n# Plan — no id here\nTemplate: x\n## Section\nLate: ignored\n",
			title: "Plan — no id here", headers: map[string]string{"Route": "triage", "Engine": "none", "Template": "x"},
			codes: []string{CodePlanRecipesAbsent},
		},
		{
			name:    "no title, empty recipes block",
			text:    "## Strategy\n```validation-recipes\n# nothing yet\n\n```\n",
			headers: map[string]string{}, line: 2,
			codes: []string{CodePlanTitleAbsent, CodePlanRecipesAbsent},
		},
		{
			name:  "unterminated recipes block runs to the end",
			text:  "# WI-9 and XY-10\n```Validation-Recipes extra\n`07-a`\n* 08-b\n",
			title: "WI-9 and XY-10", id: "WI-9", headers: map[string]string{},
			recipes: []string{"07-a", "08-b"}, line: 2,
		},
		{
			name:  "prose with colons is not a header",
			text:  "# T\nThis is a long sentence that explains: things\nhttps://x.test/y\n- Item: no\nKey:no-space\n",
			title: "T", headers: map[string]string{"Key": "no-space"},
			codes: []string{CodePlanRecipesAbsent},
		},
		{
			name:  "first key wins",
			text:  "# T\nRoute: a\nroute: b\n```validation-recipes\nx\n```\n",
			title: "T", headers: map[string]string{"Route": "a", "route": "b"}, recipes: []string{"x"}, line: 4,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, probs := ParsePlan(ParseDocument("plan.md", []byte(tt.text)))
			if p.Title != tt.title || p.ID != tt.id {
				t.Errorf("title %q id %q, want %q %q", p.Title, p.ID, tt.title, tt.id)
			}
			if !reflect.DeepEqual(p.Headers, tt.headers) {
				t.Errorf("headers %q, want %q", p.Headers, tt.headers)
			}
			if !reflect.DeepEqual(p.Recipes, tt.recipes) || p.RecipesLine != tt.line {
				t.Errorf("recipes %q at %d, want %q at %d", p.Recipes, p.RecipesLine, tt.recipes, tt.line)
			}
			checkCodes(t, probs, tt.codes)
		})
	}
	if p, probs := ParsePlan(nil); p.Title != "" || probs != nil {
		t.Errorf("ParsePlan(nil) = %+v, %v", p, probs)
	}
}

func TestParseChange(t *testing.T) {
	tests := []struct {
		file  string
		want  Change
		codes []string
	}{
		{"change.md", Change{
			Branch:   "fix/acme-4411-sweeper-race--5d1c0e",
			BaseSHA:  "1405df66cbe219b0bf6355bc3d60361a8376b6b4",
			HeadSHA:  "1a954628a960aaef81d7b2d4521929579f3541e6",
			URL:      "https://git.example.test/acme/widgets/-/merge_requests/731",
			HeadLine: 8,
		}, nil},
		{"change-short.md", Change{
			Branch: "feat/acme-77", BaseSHA: "0be7c2a", HeadSHA: "9f2d4ab1c",
			URL: "https://git.example.test/acme/widgets/pull/88", HeadLine: 5,
		}, nil},
		{"change-nohead.md", Change{Branch: "wip/acme-78"}, []string{CodeChangeCommitAbsent}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			c, probs := ParseChange(loadDoc(t, tt.file, "change.md"))
			if c != tt.want {
				t.Errorf("ParseChange\n got %+v\nwant %+v", c, tt.want)
			}
			checkCodes(t, probs, tt.codes)
		})
	}
}

func TestParseChangeInline(t *testing.T) {
	tests := []struct {
		name string
		text string
		want Change
	}{
		{"full SHA wins over an earlier short one",
			"## Commit\n**`abcdef1`** then **`" + strings.Repeat("ab", 20) + "`**\n",
			Change{HeadSHA: strings.Repeat("ab", 20), HeadLine: 2}},
		{"bold base SHA is not the head",
			"## Commit\nbranched from `dev` at **`1234567`**; head **`89abcde`**\n",
			Change{BaseSHA: "1234567", HeadSHA: "89abcde", HeadLine: 2}},
		{"upper-case SHA lower-cased",
			"## Commits\n**`ABCDEF0123`**\n", Change{HeadSHA: "abcdef0123", HeadLine: 2}},
		{"section ends at the next heading",
			"## Commit\nBranch `a`\n## Other\n**`1234567`**\n", Change{Branch: "a"}},
		{"branched is not Branch",
			"## Commit\nbranched from `main` at `1234567`.\n**`7654321`**",
			Change{BaseSHA: "1234567", HeadSHA: "7654321", HeadLine: 3}},
		{"too short is not a SHA", "## Commit\n**`abc12`**\n", Change{}},
		{"PR URL as bare link with trailing period",
			"PR URL: https://x.test/pr/1.\n", Change{URL: "https://x.test/pr/1"}},
		{"first usable URL wins",
			"MR URL: none\nMR url: `https://x.test/mr/2`\nPR URL: https://x.test/pr/3\n", Change{URL: "https://x.test/mr/2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := ParseChange(ParseDocument("change.md", []byte(tt.text)))
			if c != tt.want {
				t.Errorf("got %+v\nwant %+v", c, tt.want)
			}
		})
	}
}

func TestParseVerdict(t *testing.T) {
	tests := []struct {
		file        string
		value, sum  string
		line        int
		outcomeLine int
		codes       []string
	}{
		{"change-validation.md", "pass",
			"all three planned recipes (01, 02, 04) ran green with no dispositions; the regression test fails on trunk and passes on the branch, the soak reproduces the ticket's load without a single lost entry, and lints are clean on every touched file.",
			40, 34, nil},
		{"change-validation-conflict.md", "pass", "(static checks only)", 11, 3, []string{CodeVerdictConflict}},
		{"change-validation-unknown.md", "", "", 0, 0, []string{CodeVerdictMissing, CodeInvestigationAbsent}},
		{"change-validation-trailing.md", "blocked", "the soak host was never provisioned", 3, 5, []string{CodeVerdictConflict}},
		{"review.md", "", "", 0, 0, []string{CodeVerdictMissing, CodeInvestigationAbsent}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			v, outcome, probs := ParseVerdict(loadDoc(t, tt.file, "change-validation.md"))
			if v.Value != tt.value || v.Summary != tt.sum || v.Line != tt.line || v.File != "change-validation.md" {
				t.Errorf("verdict %+v, want %q %q line %d", v, tt.value, tt.sum, tt.line)
			}
			switch {
			case tt.outcomeLine == 0 && outcome != nil:
				t.Errorf("outcome %+v, want none", outcome)
			case tt.outcomeLine != 0 && (outcome == nil || outcome.Line != tt.outcomeLine):
				t.Errorf("outcome %+v, want line %d", outcome, tt.outcomeLine)
			}
			checkCodes(t, probs, tt.codes)
		})
	}
}

func TestParseVerdictInline(t *testing.T) {
	const outcome = "\n## Investigation outcome: fine\n"
	tests := []struct {
		name, text, value, summary string
		codes                      []string
		msg                        string // a substring of the first problem's message
	}{
		{"upper case", "## Verdict: PASS", "pass", "", nil, ""},
		{"en dash", "## verdict: Blocked – no host", "blocked", "no host", nil, ""},
		{"spaced hyphen", "### Verdict: fail - lint", "fail", "lint", nil, ""},
		{"markup and emoji", "## **Verdict:** ✅ `pass` — ok", "pass", "ok", nil, ""},
		{"final verdict", "## Final verdict: fail", "fail", "", nil, ""},
		{"dash instead of colon", "## Verdict — pass", "pass", "", nil, ""},
		{"level one is the title", "# Verdict: pass", "", "", []string{CodeVerdictMissing}, "no \"## Verdict"},
		{"bare heading", "## Verdict", "", "", []string{CodeVerdictMissing}, "says nothing"},
		{"unknown word", "## Verdict: passed", "", "", []string{CodeVerdictMissing}, `"passed"`},
		{"word joined to dash is a different word", "## Verdict: pass-ish", "", "", []string{CodeVerdictMissing}, `"pass-ish"`},
		{"not a verdict heading", "## Verdicts: pass\n## Verdict rationale", "", "", []string{CodeVerdictMissing}, "no \"## Verdict"},
		{"agreeing headings", "## Verdict: pass\n## Verdict: Pass — again", "pass", "again", nil, ""},
		{"inside a fence", "```\n## Verdict: fail\n```\n## Verdict: pass", "pass", "", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, _, probs := ParseVerdict(ParseDocument("change-validation.md", []byte(tt.text+outcome)))
			if v.Value != tt.value || v.Summary != tt.summary {
				t.Errorf("verdict %+v, want %q %q", v, tt.value, tt.summary)
			}
			if !checkCodes(t, probs, tt.codes) {
				t.FailNow()
			}
			if tt.msg != "" && !strings.Contains(probs[0].Message, tt.msg) {
				t.Errorf("message %q lacks %q", probs[0].Message, tt.msg)
			}
		})
	}
	if v, o, probs := ParseVerdict(nil); v.Value != "" || o != nil || probs != nil {
		t.Errorf("ParseVerdict(nil) = %+v %v %v", v, o, probs)
	}
}

func TestParseVerdictOutcomeIsACopy(t *testing.T) {
	d := ParseDocument("change-validation.md", []byte("## Investigation outcome\n## Verdict: pass\n"))
	_, o, _ := ParseVerdict(d)
	o.Text = "changed"
	if d.Headings[0].Text != "Investigation outcome" {
		t.Errorf("the outcome heading aliases the document")
	}
}

func TestParseAssessment(t *testing.T) {
	tests := []struct {
		name, text string
		value, raw string
		line       int
		codes      []string
	}{
		{"sound", "## Assessment: sound", "sound", "sound", 1, nil},
		{"needs_changes", "## Assessment: needs_changes", "needs_changes", "needs_changes", 1, nil},
		{"needs changes, spaced and capitalised", "x\n## Assessment: Needs Changes — see below", "needs_changes", "Needs Changes", 2, nil},
		{"needs-changes", "## assessment: **needs-changes**", "needs_changes", "needs-changes", 1, nil},
		{"unknown word", "## Assessment: maybe", "", "maybe", 1, []string{CodeAssessmentMissing}},
		{"soundness is not sound", "## Assessment: soundness", "", "soundness", 1, []string{CodeAssessmentMissing}},
		{"absent", "## Findings", "", "", 0, []string{CodeAssessmentMissing}},
		{"level one ignored", "# Assessment: sound", "", "", 0, []string{CodeAssessmentMissing}},
		{"disagreeing headings", "## Assessment: sound\n## Assessment: needs changes", "needs_changes", "needs changes", 2, []string{CodeAssessmentConflict}},
		{"later unknown word", "## Assessment: sound\n## Assessment: tbd", "sound", "sound", 1, []string{CodeAssessmentConflict}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, probs := ParseAssessment(ParseDocument("review.md", []byte(tt.text)))
			if a.Value != tt.value || a.Raw != tt.raw || a.Line != tt.line || a.File != "review.md" {
				t.Errorf("assessment %+v, want %q %q line %d", a, tt.value, tt.raw, tt.line)
			}
			checkCodes(t, probs, tt.codes)
		})
	}
	a, probs := ParseAssessment(loadDoc(t, "review.md", "review.md"))
	if a.Value != "sound" || a.Line != 4 || len(probs) != 0 {
		t.Errorf("review.md: %+v %v", a, probs)
	}
}

// checkDocument holds for every parsed document.
func checkDocument(t *testing.T, d *Document) {
	t.Helper()
	for i, l := range d.Lines {
		if strings.Contains(l, "\n") {
			t.Errorf("line %d holds a newline: %q", i+1, l)
		}
	}
	prev := 0
	for _, h := range d.Headings {
		if h.Line < 1 || h.Line > len(d.Lines) || h.Line <= prev {
			t.Errorf("heading line %d out of order or range (%d lines)", h.Line, len(d.Lines))
		}
		prev = h.Line
		if h.Level < 1 || h.Level > 6 {
			t.Errorf("heading level %d", h.Level)
		}
	}
	for _, c := range d.Citations {
		if c.SourceLine < 1 || c.SourceLine > len(d.Lines) {
			t.Errorf("citation line %d out of range (%d lines)", c.SourceLine, len(d.Lines))
			continue
		}
		checkCitation(t, d.Lines[c.SourceLine-1], c)
	}
}

func FuzzParseDocument(f *testing.F) {
	for _, name := range []string{"plan.md", "change.md", "change-validation.md", "review.md", "review-rough.md"} {
		data, err := os.ReadFile(filepath.Join("testdata", "docs", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{"", "#", "```", "````\n```\n", "~~~\n#\n", "\r\n\r\n", "## Verdict:", "## Assessment:", "\ufeff",
		"Findings\n===\n", "a\r\nb\r\n---\r\n", "| a |\n|---|\n---\n", "> a\n---\n", "- a\n  ---\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d := ParseDocument("doc.md", data)
		checkDocument(t, d)
		ParsePlan(d)
		c, _ := ParseChange(d)
		if c.HeadSHA != "" && (c.HeadLine < 1 || c.HeadLine > len(d.Lines)) {
			t.Errorf("head line %d out of range", c.HeadLine)
		}
		v, o, _ := ParseVerdict(d)
		if v.Value != "" && v.Value != "pass" && v.Value != "fail" && v.Value != "blocked" {
			t.Errorf("verdict value %q", v.Value)
		}
		if o != nil && (o.Line < 1 || o.Line > len(d.Lines)) {
			t.Errorf("outcome line %d", o.Line)
		}
		a, _ := ParseAssessment(d)
		if a.Value != "" && a.Value != "sound" && a.Value != "needs_changes" {
			t.Errorf("assessment value %q", a.Value)
		}
		ParseFindings(d)
	})
}

// BenchmarkParseStructure20000 times the lines and headings of a review of
// 20,000 findings, what loading needs before the first screen.
func BenchmarkParseStructure20000(b *testing.B) {
	data := bigReview(20000)
	b.ReportAllocs()
	for b.Loop() {
		parseStructure("review.md", data)
	}
}

// Setext headings are headings, at the line of their text; what CommonMark
// does not make a heading (a rule after a blank line, a list item's dash, a
// fenced line, a table then a rule) is not one, and ATX headings keep their
// lines and text.
func TestSetextHeadings(t *testing.T) {
	text := strings.Join([]string{
		"Title",      // 1
		"=====",      // 2
		"",           // 3
		"## ATX ##",  // 4
		"Two lines",  // 5
		"of heading", // 6
		"---",        // 7
		"",           // 8
		"---",        // 9: a rule
		"",           // 10
		"- item",     // 11
		"-",          // 12: an empty list item, not an underline of a list item
		"",           // 13
		"```",        // 14
		"Fenced",     // 15
		"---",        // 16
		"```",        // 17
		"| a | b |",  // 18
		"|---|---|",  // 19
		"| 1 | 2 |",  // 20
		"---",        // 21: a rule after a table
		"",           // 22
		"> Quoted",   // 23
		"> ---",      // 24
	}, "\n") + "\n"
	d := ParseDocument("doc.md", []byte(text))
	checkDocument(t, d)
	want := []Heading{{1, "Title", 1}, {2, "ATX", 4}, {2, "Two lines of heading", 5}, {2, "Quoted", 23}}
	if !reflect.DeepEqual(d.Headings, want) {
		t.Errorf("headings\n%+v\nwant\n%+v", d.Headings, want)
	}
	// The same with CRLF line ends and a byte-order mark.
	crlf := ParseDocument("doc.md", []byte("\ufeff"+strings.ReplaceAll(text, "\n", "\r\n")))
	if !reflect.DeepEqual(crlf.Headings, want) {
		t.Errorf("CRLF headings\n%+v\nwant\n%+v", crlf.Headings, want)
	}
}

// BenchmarkParseStructureSetext20000 is the same review with its findings
// under a setext heading: the block parser runs on the whole document.
func BenchmarkParseStructureSetext20000(b *testing.B) {
	data := bytes.Replace(bigReview(20000), []byte("## Findings\n"), []byte("Findings\n========\n"), 1)
	if d := parseStructure("review.md", data); len(d.Headings) != 2 || d.Headings[1].Text != "Findings" {
		b.Fatalf("headings %+v", d.Headings)
	}
	b.ReportAllocs()
	for b.Loop() {
		parseStructure("review.md", data)
	}
}
