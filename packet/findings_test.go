package packet

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestParseFindingsReview(t *testing.T) {
	fs, probs := ParseFindings(loadDoc(t, "review.md", "review.md"))
	if len(probs) != 0 {
		t.Errorf("problems: %+v", probs)
	}
	if len(fs) != 3 {
		t.Fatalf("got %d findings, want 3", len(fs))
	}
	want := []struct {
		id, loc, sev string
		line         int
		claimHas     string
		evidenceHas  string
		cites        []string
	}{
		{"review.md#1", "crates/cache/src/sweep.rs:118", "nit", 19,
			`"dropped before unlink"`, "`:118` drops it",
			[]string{"crates/cache/src/sweep.rs:118", "crates/cache/src/sweep.rs:97", ":104", "change.md:14"}},
		{"review.md#2", "validation/registry.jsonl:3", "minor", 20,
			`"0 lost | 0 duplicated"`, "`awk -F'|' '{print $2}'`, so a `dup|N` column",
			[]string{"validation/registry.jsonl:3", "…08-15-02.004Z-bash-e519.log", "change-validation.md:27-28"}},
		{"review.md#3", "crates/cache/src/shard.rs:212-230", "major", 21,
			"e.g. on the fast path", "https://git.example.test/",
			// The en-dash range in the evidence is the location's range again.
			[]string{"crates/cache/src/shard.rs:212-230", "docs/cache/design.mdx", "plan.md:15-16"}},
	}
	for i, w := range want {
		f := fs[i]
		if f.ID != w.id || f.Number != i+1 || f.Location != w.loc || f.Severity != w.sev || f.Line != w.line {
			t.Errorf("finding %d = %s #%d %q %q line %d", i, f.ID, f.Number, f.Location, f.Severity, f.Line)
		}
		if !strings.Contains(f.Claim, w.claimHas) || !strings.Contains(f.Evidence, w.evidenceHas) {
			t.Errorf("finding %d cells:\nclaim %q\nevidence %q", i, f.Claim, f.Evidence)
		}
		if f.Extra != nil {
			t.Errorf("finding %d extra %v", i, f.Extra)
		}
		var got []string
		for _, c := range f.Citations {
			got = append(got, c.Text)
			if c.SourceFile != "review.md" || c.SourceLine != w.line {
				t.Errorf("citation %q at %s:%d", c.Text, c.SourceFile, c.SourceLine)
			}
		}
		if !reflect.DeepEqual(got, w.cites) {
			t.Errorf("finding %d citations\n got %q\nwant %q", i, got, w.cites)
		}
	}
	if c := fs[1].Citations[1]; !c.Suffix || c.Path != "08-15-02.004Z-bash-e519.log" {
		t.Errorf("shortened log citation %+v", c)
	}
}

func TestParseFindingsRough(t *testing.T) {
	fs, probs := ParseFindings(loadDoc(t, "review-rough.md", "review.md"))
	type row struct {
		id, loc, sev, claim, evidence string
		line                          int
		extra                         map[string]string
	}
	want := []row{
		{"review.md#1", "src/a.rs:3", "minor", "claim one", "`a.rs:3`", 11, map[string]string{"Reviewer note": "keep"}},
		{"review.md#2", "src/b.rs:9", "cosmetic", "claim two", "`b.rs:9`", 12, map[string]string{"Reviewer note": "later", "col 7": "surplus cell"}},
		{"review.md#3", "", "nit", "", "short row", 13, nil},
		{"review.md#4", "src/c.rs:1", "nit", "claim four | with a pipe", "`c.rs:1`", 14, map[string]string{"Reviewer note": "ok"}},
		{"review.md#4~2", "src/d.rs:2", "blocker", "a second number four", "`d.rs:2`", 15, map[string]string{"Reviewer note": "dup"}},
		{"review.md#6", "src/e.rs:5", "", "empty severity", "`e.rs:5`", 17, map[string]string{"Reviewer note": "-"}},
	}
	var got []row
	for _, f := range fs {
		got = append(got, row{f.ID, f.Location, f.Severity, f.Claim, f.Evidence, f.Line, f.Extra})
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findings\n got %+v\nwant %+v", got, want)
	}
	wantProbs := []struct {
		code string
		line int
		has  string
	}{
		{CodeUnknownSeverity, 12, `"cosmetic"`},
		{CodeFindingsMalformed, 13, "has 3 cell(s); the header has 6"},
		{CodeFindingsMalformed, 15, "finding number 4 appears again"},
		{CodeFindingsMalformed, 16, `"n/a" where the finding number belongs`},
		{CodeUnknownSeverity, 17, `severity ""`},
	}
	if len(probs) != len(wantProbs) {
		t.Fatalf("problems %+v", probs)
	}
	for i, w := range wantProbs {
		p := probs[i]
		if p.Code != w.code || p.Line != w.line || p.File != "review.md" || !strings.Contains(p.Message, w.has) {
			t.Errorf("problem %d = %+v, want %s at %d with %q", i, p, w.code, w.line, w.has)
		}
	}
	if probs[0].Severity != SevWarning || probs[1].Severity != SevError {
		t.Errorf("severities %s %s", probs[0].Severity, probs[1].Severity)
	}
}

func TestParseFindingsAbsentOrMalformed(t *testing.T) {
	tests := []struct {
		file  string
		codes []string
		line  int
	}{
		// A "Findings" section without a table, and a negated heading with one.
		{"review-nofindings.md", nil, 0},
		{"review-none.md", nil, 0},
		{"review-badcols.md", []string{CodeFindingsMalformed}, 5},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			fs, probs := ParseFindings(loadDoc(t, tt.file, "review.md"))
			if len(fs) != 0 {
				t.Errorf("findings %+v", fs)
			}
			if !checkCodes(t, probs, tt.codes) {
				t.FailNow()
			}
			if len(probs) > 0 && (probs[0].Line != tt.line || !strings.Contains(probs[0].Message, "evidence")) {
				t.Errorf("problem %+v", probs[0])
			}
		})
	}
	if fs, probs := ParseFindings(nil); fs != nil || probs != nil {
		t.Errorf("ParseFindings(nil) = %v %v", fs, probs)
	}
}

func TestParseFindingsInline(t *testing.T) {
	const header = "| # | file:line | Severity | Claim | Evidence |\n|---|---|---|---|---|\n"
	tests := []struct {
		name  string
		text  string
		ids   []string
		codes []string
	}{
		{"table after a rejected one",
			"## Findings\n| a | b |\n|---|---|\n| 1 | 2 |\n\n" + header + "| 1 | x | nit | c | e |\n",
			[]string{"review.md#1"}, nil},
		{"subsection under findings",
			"## Findings\n### Table\n" + header + "| 2 | x | nit | c | e |\n", []string{"review.md#2"}, nil},
		{"sibling section ends the findings, and its table is reported",
			"## Findings\n## Other\n" + header + "| 2 | x | nit | c | e |\n", nil, []string{CodeFindingsUnheaded}},
		{"table in a fence is not a table",
			"## Findings\n```\n" + header + "| 2 | x | nit | c | e |\n```\n", nil, nil},
		{"rows end at a blank line",
			"## Findings\n" + header + "| 1 | x | nit | c | e |\n\n| 2 | x | nit | c | e |\n", []string{"review.md#1"}, nil},
		{"rows end at a heading",
			"## Findings\n" + header + "| 1 | x | nit | c | e |\n## Next\n| 2 | x | nit | c | e |\n", []string{"review.md#1"}, nil},
		{"pipe-less line inside the table is a broken row",
			"## Findings\n" + header + "| 1 | x | nit | c | e |\nwrapped text\n| 2 | x | nit | c | e |\n",
			[]string{"review.md#1", "review.md#2"}, []string{CodeFindingsMalformed, CodeFindingsMalformed}},
		{"header aliases and no outer pipes",
			"# Findings (3)\nID | Path | sev | Issue | evidence\n--|--|--|--|--\nF7 | x | Minor | c | e\n",
			[]string{"review.md#7"}, nil},
		{"number forms",
			"## Findings\n" + header + "| **1** | x | nit | c | e |\n| 2. | x | nit | c | e |\n| [3] | x | nit | c | e |\n| R-4 | x | nit | c | e |\n",
			[]string{"review.md#1", "review.md#2", "review.md#3", "review.md#4"}, nil},
		{"no negation: 'Findings not yet fixed' still counts",
			"## Findings not yet fixed\n" + header + "| 1 | x | nit | c | e |\n", []string{"review.md#1"}, nil},
		{"no findings heading at all", header + "| 1 | x | nit | c | e |\n", nil, []string{CodeFindingsUnheaded}},
		{"setext === findings section",
			"Review\n======\n\nFindings\n========\n\n" + header + "| 1 | x | nit | c | e |\n", []string{"review.md#1"}, nil},
		{"setext --- findings section",
			"# Review\n\nFindings (1)\n---\n\n" + header + "| 1 | x | nit | c | e |\n", []string{"review.md#1"}, nil},
		{"a setext sibling ends the findings",
			"Findings\n--------\n" + header + "| 1 | x | nit | c | e |\n\nOther\n-----\n\n" + header + "| 2 | x | nit | c | e |\n", []string{"review.md#1"}, nil},
		{"a table then a rule is not a heading",
			"## Findings\n" + header + "| 1 | x | nit | c | e |\n---\n", []string{"review.md#1"}, nil},
		{"--- after a blank line is a rule, not a heading",
			"## Findings\n\n---\n\n" + header + "| 1 | x | nit | c | e |\n", []string{"review.md#1"}, nil},
		{"a findings-like table under a negated heading is deliberate",
			"## Notes not rising to findings\n" + header + "| 1 | x | nit | c | e |\n", nil, nil},
		{"a table of other columns is not findings-like",
			"## Timeline\n| when | what |\n|---|---|\n| 1 | x |\n", nil, nil},
		{"delimiter without pipes is a rule, not a table",
			"## Findings\n| # | file:line |\n---\n", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs, probs := ParseFindings(ParseDocument("review.md", []byte(tt.text)))
			var ids []string
			for _, f := range fs {
				ids = append(ids, f.ID)
			}
			if !reflect.DeepEqual(ids, tt.ids) {
				t.Errorf("ids %q, want %q", ids, tt.ids)
			}
			checkCodes(t, probs, tt.codes)
		})
	}
}

func TestSplitRow(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"| a | b |", []string{"a", "b"}},
		{"a | b", []string{"a", "b"}},
		{"|a||b|", []string{"a", "", "b"}},
		{`| a \| b | c |`, []string{"a | b", "c"}},
		{"| `a|b` | c |", []string{"`a|b`", "c"}},
		{"| `` a ` | b `` | c |", []string{"`` a ` | b ``", "c"}},
		{"| `a\\|b` | c |", []string{"`a|b`", "c"}},
		{"| `open | c |", []string{"`open", "c"}},
		{"| ` x ` y ` | z |", []string{"` x ` y `", "z"}},
		// Eight backtick runs are searched in place, more by length: the
		// same cells either way.
		{"| `a` `b` `c` `d|e` | f |", []string{"`a` `b` `c` `d|e`", "f"}},
		{"| `a` `b` `c` `d` `` e | `` `f|g` | h |", []string{"`a` `b` `c` `d` `` e | `` `f|g`", "h"}},
		{"| ` `` ` `` ` `` ` `` ` | x |", []string{"` `` ` `` ` `` ` `` `", "x"}},
		{`| ends with escaped \|`, []string{"ends with escaped |"}},
		{"|", []string{""}},
		{"", []string{""}},
	}
	for _, tt := range tests {
		if got := splitRow(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("splitRow(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFindingNumber(t *testing.T) {
	tests := []struct {
		in string
		n  int
		ok bool
	}{
		{"1", 1, true}, {" 12 ", 12, true}, {"#3", 3, true}, {"**4**", 4, true}, {"5.", 5, true},
		{"6)", 6, true}, {"F7", 7, true}, {"R-8", 8, true}, {"[9]", 9, true}, {"`10`", 10, true},
		{"", 0, false}, {"n/a", 0, false}, {"one", 0, false}, {"1a", 0, false}, {"FIND1", 0, false},
		{"9999999", 0, false}, {"-1", 0, false}, {"1.2", 0, false},
	}
	for _, tt := range tests {
		n, ok := findingNumber(tt.in)
		if n != tt.n || ok != tt.ok {
			t.Errorf("findingNumber(%q) = %d %v, want %d %v", tt.in, n, ok, tt.n, tt.ok)
		}
	}
}

func TestSeverityWord(t *testing.T) {
	tests := []struct {
		in, want string
		known    bool
	}{
		{"nit", "nit", true}, {"**Major**", "major", true}, {"`BLOCKER`", "blocker", true},
		{"🟡 minor", "minor", true}, {"nit (wording)", "nit", true},
		{"cosmetic", "cosmetic", false}, {"Low Risk", "low risk", false}, {"", "", false},
		{"minority", "minority", false},
	}
	for _, tt := range tests {
		got, known := severityWord(tt.in)
		if got != tt.want || known != tt.known {
			t.Errorf("severityWord(%q) = %q %v, want %q %v", tt.in, got, known, tt.want, tt.known)
		}
	}
}

// bigReview builds a review.md with n findings rows, each with escaped pipes,
// code spans and citations, so the parser's cost per row is realistic.
func bigReview(n int) []byte {
	var b strings.Builder
	b.WriteString("## Assessment: needs_changes\n\n## Findings\n\n")
	b.WriteString("| # | file:line | Severity | Claim | Evidence |\n|---|---|---|---|---|\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "| %d | `src/mod%d/file.rs:%d` | minor | The `x|y` guard \\| is wrong at `:%d`, e.g. here. | See `validation/registry.jsonl:%d` and `…%04d-bash.log`; `change-validation.md:%d-%d`. |\n",
			i, i%97, i, i+1, i, i, i, i+3)
	}
	return []byte(b.String())
}

func TestParseFindingsManyRows(t *testing.T) {
	const n = MaxFindings
	// The claim's ":N" has no path earlier in its cell, so it is not a citation.
	fs, probs := ParseFindings(ParseDocument("review.md", bigReview(n)))
	if len(fs) != n || len(probs) != 0 {
		t.Fatalf("%d findings, %d problems; want %d, 0", len(fs), len(probs), n)
	}
	last := fs[n-1]
	if last.ID != fmt.Sprintf("review.md#%d", n) || len(last.Citations) != 4 {
		t.Errorf("last finding %s with citations %+v", last.ID, last.Citations)
	}

	// Past the cap the rows are counted, and the review says how many.
	fs, probs = ParseFindings(ParseDocument("review.md", bigReview(20000)))
	if len(fs) != MaxFindings || len(probs) != 1 || probs[0].Code != CodeTooManyFindings || probs[0].Severity != SevError ||
		!strings.Contains(probs[0].Message, "18,000 more findings rows") {
		t.Errorf("20,000 rows: %d findings, problems %+v", len(fs), probs)
	}
}

func BenchmarkParseFindings20000(b *testing.B) {
	d := ParseDocument("review.md", bigReview(20000))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		fs, _ := ParseFindings(d)
		if len(fs) != MaxFindings {
			b.Fatalf("%d findings", len(fs))
		}
	}
}

func FuzzParseFindings(f *testing.F) {
	f.Add(string(bigReview(3)))
	for _, name := range []string{"review.md", "review-rough.md", "review-badcols.md"} {
		f.Add(string(loadDocBytes(f, name)))
	}
	for _, s := range []string{
		"## Findings\n|#|file:line|severity|claim|evidence|\n|-|-|-|-|-|\n|1|``a|b``|nit|`x\\|y`|e|\n",
		"## Findings\n| # |\n|---|\n| 1 |\n",
		"# Findings\n|#|location|severity|claim|evidence\n:-:|\n1|",
		"## Findings\n```\n|a|\n|-|\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		d := ParseDocument("review.md", []byte(text))
		fs, probs := ParseFindings(d)
		ids := map[string]bool{}
		for _, x := range fs {
			if ids[x.ID] {
				t.Errorf("duplicate id %s", x.ID)
			}
			ids[x.ID] = true
			if x.Line < 1 || x.Line > len(d.Lines) || x.Number < 0 {
				t.Errorf("finding %s at line %d of %d, number %d", x.ID, x.Line, len(d.Lines), x.Number)
			}
			if strings.Contains(x.Location, "`") {
				t.Errorf("location keeps backticks: %q", x.Location)
			}
			for _, c := range x.Citations {
				if c.SourceLine != x.Line {
					t.Errorf("citation line %d, row %d", c.SourceLine, x.Line)
				}
				checkCitation(t, d.Lines[x.Line-1], c)
			}
		}
		for _, p := range probs {
			if p.Line < 0 || p.Line > len(d.Lines) || p.File != "review.md" || p.Message == "" {
				t.Errorf("problem %+v", p)
			}
		}
	})
}

func loadDocBytes(t testing.TB, name string) []byte {
	return []byte(loadDoc(t, name, name).Text)
}

func BenchmarkParseDocument20000(b *testing.B) {
	data := bigReview(20000)
	b.ReportAllocs()
	for b.Loop() {
		ParseDocument("review.md", data)
	}
}
