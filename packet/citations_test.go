package packet

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// cite is the part of a Citation the extractor fills and the tests compare.
type cite struct {
	Text      string
	Path      string
	Line, End int
	Suffix    bool
}

func cites(cs []Citation) []cite {
	var out []cite
	for _, c := range cs {
		out = append(out, cite{c.Text, c.Path, c.Line, c.EndLine, c.Suffix})
	}
	return out
}

func TestExtractCitations(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []cite
	}{
		{"path and line in backticks", "see `crates/cache/src/sweep.rs:97` here",
			[]cite{{"crates/cache/src/sweep.rs:97", "crates/cache/src/sweep.rs", 97, 97, false}}},
		{"range with hyphen", "`change-validation.md:27-28`",
			[]cite{{"change-validation.md:27-28", "change-validation.md", 27, 28, false}}},
		{"range with en dash, bold", "**`crates/cache/src/shard.rs:212–230`**",
			[]cite{{"crates/cache/src/shard.rs:212–230", "crates/cache/src/shard.rs", 212, 230, false}}},
		{"range with dots", "lib.rs:10..20", []cite{{"lib.rs:10..20", "lib.rs", 10, 20, false}}},
		{"backwards range keeps the start", "lib.rs:20-10", []cite{{"lib.rs:20-10", "lib.rs", 20, 20, false}}},
		{"line list takes the first", "at `shard.rs:535,560` twice",
			[]cite{{"shard.rs:535,560", "shard.rs", 535, 535, false}}},
		{"column is ignored", "main.go:12:5: undefined", []cite{{"main.go:12:5", "main.go", 12, 12, false}}},
		{"registry line", "row `validation/registry.jsonl:5`.",
			[]cite{{"validation/registry.jsonl:5", "validation/registry.jsonl", 5, 5, false}}},
		{"bare log name in prose", "the log 2031-02-11T08-02-10.114Z-bash-a1f3.log shows it",
			[]cite{{"2031-02-11T08-02-10.114Z-bash-a1f3.log", "2031-02-11T08-02-10.114Z-bash-a1f3.log", 0, 0, false}}},
		{"log shortened with ellipsis", "(`…08-04-55.730Z-bash-7c0e.log`, part D)",
			[]cite{{"…08-04-55.730Z-bash-7c0e.log", "08-04-55.730Z-bash-7c0e.log", 0, 0, true}}},
		{"log shortened with three dots", "Log: ...08-15-02.004Z-bash-e519.log.",
			[]cite{{"...08-15-02.004Z-bash-e519.log", "08-15-02.004Z-bash-e519.log", 0, 0, true}}},
		{"inner ellipsis keeps the end", "`crates/…/sweep.rs:9`",
			[]cite{{"crates/…/sweep.rs:9", "/sweep.rs", 9, 9, true}}},
		{"repository doc without line", "the page `docs/cache/design.mdx` says",
			[]cite{{"docs/cache/design.mdx", "docs/cache/design.mdx", 0, 0, false}}},
		{"packet doc without line", "see compute-env.md for the host",
			[]cite{{"compute-env.md", "compute-env.md", 0, 0, false}}},
		{"github-style anchor", "shard.rs#L12-L20 and notes.md#usage",
			[]cite{{"shard.rs#L12-L20", "shard.rs", 12, 20, false}, {"notes.md#usage", "notes.md", 0, 0, false}}},
		{"leading ./ dropped", "./tools/run.sh:3", []cite{{"./tools/run.sh:3", "tools/run.sh", 3, 3, false}}},
		{"dockerfile with slash and line", "docker/Dockerfile:12", []cite{{"docker/Dockerfile:12", "docker/Dockerfile", 12, 12, false}}},
		{"dotfile", "edit .gitignore now", []cite{{".gitignore", ".gitignore", 0, 0, false}}},
		{"possessive and parentheses", "(sweep.rs’s guard) [plan.md:4]",
			[]cite{{"sweep.rs", "sweep.rs", 0, 0, false}, {"plan.md:4", "plan.md", 4, 4, false}}},
		{"trailing colon and comma", "In args.py: it, and util.py, too",
			[]cite{{"args.py", "args.py", 0, 0, false}, {"util.py", "util.py", 0, 0, false}}},

		// Relative ":N" references.
		{"relative refs in one sentence", "`args.py:535` (the none branch) and `:560` raise; so does `:544-546`.",
			[]cite{{"args.py:535", "args.py", 535, 535, false}, {":560", "args.py", 560, 560, false}, {":544-546", "args.py", 544, 546, false}}},
		{"relative ref after a sentence ends is dropped", "`args.py:535` raises. Only `:544` differs.",
			[]cite{{"args.py:535", "args.py", 535, 535, false}}},
		{"abbreviation does not end the sentence", "`args.py:535`, e.g. `:560`",
			[]cite{{"args.py:535", "args.py", 535, 535, false}, {":560", "args.py", 560, 560, false}}},
		{"relative ref without a path", "the fence at `:88` shows", nil},
		{"relative ref follows the last path", "`a.rs:1` then `b.rs:2` and `:3`",
			[]cite{{"a.rs:1", "a.rs", 1, 1, false}, {"b.rs:2", "b.rs", 2, 2, false}, {":3", "b.rs", 3, 3, false}}},
		{"table cell boundary ends the sentence", "| `a.rs:1` | `:3` |",
			[]cite{{"a.rs:1", "a.rs", 1, 1, false}}},

		// Dedupe.
		{"identical citations once", "`plan.md:4` and plan.md:4 and `plan.md:4-4`",
			[]cite{{"plan.md:4", "plan.md", 4, 4, false}}},
		{"same path, different lines kept", "plan.md:4 plan.md:5",
			[]cite{{"plan.md:4", "plan.md", 4, 4, false}, {"plan.md:5", "plan.md", 5, 5, false}}},

		// Noise that must not count.
		{"abbreviations", "e.g. this, i.e. that, etc. and a.m. vs. p.m.", nil},
		{"version numbers", "v2.8.1 and 1.4.0 and python3.12 and 1.4.0rc1", nil},
		{"times and durations", "at 14:33 for 5.22s and 0.5x", nil},
		{"urls", "https://git.example.test/a/b.py#L3 and http://x.test/y.log", nil},
		{"scheme-less host", "github.com/acme/widgets/blob/main/x.py and nvidia.com", nil},
		{"email", "svc-bot@example.test", nil},
		{"sha", "1a954628a960aaef81d7b2d4521929579f3541e6 and `d0941e68d`", nil},
		{"absolute paths", "/tmp/probe.py and ~/notes.md and /opt/venv/bin/python:3", nil},
		{"words with slashes", "and/or, lint/pytest/inspection, pass/fail, N/A", nil},
		{"branch names", "`release/3.x` and `fix/acme-4411-sweeper-race--5d1c0e`", nil},
		{"glob", "validation/logs/*.log and *.md", nil},
		{"method calls and modules", "os.path, self.config, AsyncEngineArgs.kv_transfer_config, dynamo._core", nil},
		{"product names", "Node.js and Vue.js", nil},
		{"host and port", "localhost:8080 and 127.0.0.1:8080 and example.com:443", nil},
		{"bare extension", "`.mdx` files", nil},
		{"line zero", "foo.py:0", nil},
		{"junk after the line", "foo.py:12abc", nil},
		{"huge line number", "foo.py:12345678901", nil},
		{"tld-only name", "see acme.io", nil},
		{"emoji shortcode", ":smile: :12:", nil},
		{"sentence run-on", "done.Next we go", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := cites(ExtractCitations(tt.text, "review.md", 7))
			if !slices.Equal(got, tt.want) {
				t.Errorf("ExtractCitations(%q)\n got %+v\nwant %+v", tt.text, got, tt.want)
			}
		})
	}
}

func TestExtractCitationsFillsSourceAndAnchors(t *testing.T) {
	cs := ExtractCitations("`plan.md:3`", "review.md", 42)
	if len(cs) != 1 {
		t.Fatalf("got %d citations, want 1", len(cs))
	}
	c := cs[0]
	if c.SourceFile != "review.md" || c.SourceLine != 42 {
		t.Errorf("source = %s:%d, want review.md:42", c.SourceFile, c.SourceLine)
	}
	if c.Kind != "" || c.Resolved || c.Target != "" {
		t.Errorf("resolution fields filled: %+v", c)
	}
	if c.DiffFile != -1 || c.DiffHunk != -1 || c.DiffLine != -1 {
		t.Errorf("diff anchor = %d/%d/%d, want -1/-1/-1", c.DiffFile, c.DiffHunk, c.DiffLine)
	}
}

// checkCitation holds for every citation the extractor returns.
func checkCitation(t *testing.T, text string, c Citation) {
	t.Helper()
	if c.Path == "" {
		t.Errorf("empty path in %+v from %q", c, text)
	}
	if !strings.Contains(text, c.Text) {
		t.Errorf("citation text %q is not in the input %q", c.Text, text)
	}
	if c.Line < 0 || c.EndLine < c.Line || (c.Line == 0) != (c.EndLine == 0) {
		t.Errorf("bad lines %d-%d in %+v", c.Line, c.EndLine, c)
	}
	if !utf8.ValidString(c.Path) {
		t.Errorf("path %q is not UTF-8", c.Path)
	}
	if c.DiffFile != -1 || c.DiffHunk != -1 || c.DiffLine != -1 {
		t.Errorf("diff anchor set: %+v", c)
	}
}

func FuzzExtractCitations(f *testing.F) {
	for _, s := range []string{
		"`crates/cache/src/sweep.rs:97` and `:118`.",
		"**`a/b.rs:212–230`** (`…08-04-55.730Z-bash-7c0e.log`)",
		"...x.log e.g. i.e. 1.4.0 14:33 https://a.test/b.py",
		"shard.rs#L12-L20 x.py:1,2,3 y.go:1:2 :5",
		"| `a|b` | \\| c.md:1 |",
		"…", "...", ":", "#L", "a.py:", "a.py:1-", "a.py:1..", "\xff\xfe.py:1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, c := range ExtractCitations(text, "doc.md", 1) {
			checkCitation(t, text, c)
			if c.SourceLine != 1 || c.SourceFile != "doc.md" {
				t.Errorf("source = %s:%d", c.SourceFile, c.SourceLine)
			}
		}
	})
}
