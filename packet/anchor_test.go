package packet

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The drift packet is the sample with three findings written to test
// anchoring: a line number two lines off its quote, a log named by a
// shortened name and a marker but no line, and a registry line.
func loadDrift(t *testing.T) *Packet {
	t.Helper()
	p, err := Load(filepath.Join("..", "testdata", "drift"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func citationOf(t *testing.T, p *Packet, finding int, text string) Citation {
	t.Helper()
	for _, f := range p.Findings {
		if f.Number != finding {
			continue
		}
		for _, c := range f.Citations {
			if c.Text == text {
				return c
			}
		}
	}
	t.Fatalf("finding %d has no citation %q", finding, text)
	return Citation{}
}

func TestAnchorDriftedLine(t *testing.T) {
	p := loadDrift(t)
	c := citationOf(t, p, 1, "docs/uploading-artifacts.md:63")
	if !c.Anchor.Drift || c.Anchor.Line != 61 || c.Anchor.Quote != "waits 1 s, then 2 s, 4 s, 8 s and so on" {
		t.Fatalf("anchor = %+v, want the quote found on line 61, a drift from 63", c.Anchor)
	}
	if h := p.Diff.HunkAt(c.DiffFile, c.Anchor.DiffHunk); h == nil || h.Lines[c.Anchor.DiffLine].New != 61 {
		t.Fatalf("anchor's diff place %d/%d is not new line 61", c.Anchor.DiffHunk, c.Anchor.DiffLine)
	}
	var drift []Problem
	for _, pr := range p.Problems {
		if pr.Code == CodeCitationDrift {
			drift = append(drift, pr)
		}
	}
	if len(drift) != 1 || drift[0].Severity != SevWarning || drift[0].File != ReviewFile ||
		!strings.Contains(drift[0].Message, "quoted text is on line 61; the finding cites 63") {
		t.Fatalf("citation-drift problems = %+v, want one warning saying line 61 against 63", drift)
	}
}

func TestAnchorLogMarkerWithoutLine(t *testing.T) {
	p := loadDrift(t)
	c := citationOf(t, p, 2, "…T10-16-31.402Z-bash-a91f.log")
	if c.Kind != CiteLog || c.Line != 0 {
		t.Fatalf("citation = %+v, want a log cited with no line", c)
	}
	if c.Anchor.Line != 19 || c.Anchor.Drift {
		t.Fatalf("anchor = %+v, want line 19 (CLAIM D) with no drift: no line was cited", c.Anchor)
	}
}

func TestAnchorRegistryLine(t *testing.T) {
	p := loadDrift(t)
	c := citationOf(t, p, 3, "validation/registry.jsonl:5")
	if c.Kind != CiteRegistry || c.Anchor.Line != 5 || c.Anchor.Drift {
		t.Fatalf("citation = %+v, want the registry's line 5 marked", c)
	}
}

// A file named with no line and no quote found in it is shown from its
// start, and the anchor says so.
func TestAnchorNeitherLineNorQuote(t *testing.T) {
	p := loadDrift(t)
	c := citationOf(t, p, 2, "tools/acmeup/test_acmeup.py")
	if c.Anchor.Marked() || !strings.Contains(c.Anchor.Note, "start") || c.Anchor.DiffHunk != 0 || c.Anchor.DiffLine != 0 {
		t.Fatalf("anchor = %+v, want no mark, the file's start, and a note saying so", c.Anchor)
	}
}

// On the sample every quote is on the line its finding cites, or belongs to
// another citation of the same finding: no drift is reported.
func TestAnchorSampleHasNoDrift(t *testing.T) {
	p := LoadSample(Options{})
	defer p.Close()
	for _, pr := range p.Problems {
		if pr.Code == CodeCitationDrift {
			t.Errorf("sample: %s", pr.Message)
		}
	}
	c := citationOf(t, p, 4, "docs/uploading-artifacts.md:61-62")
	if c.Anchor.Line != 61 || c.Anchor.Drift {
		t.Fatalf("anchor = %+v, want the quote on the cited line 61", c.Anchor)
	}
}

func TestQuotesIn(t *testing.T) {
	got := quotesIn("The log (`…x-24c6.log`, CLAIM D) and MATCH show \"Each is mapped … at startup with a warning\"; see `ops/RUNBOOK.md` and `a b c`.")
	want := map[string]bool{"at startup with a warning": true, "CLAIM D": true, "MATCH": true, "a b c": false}
	seen := map[string]bool{}
	for _, q := range got {
		seen[q.text] = true
		if s, ok := want[q.text]; ok && s != q.strong {
			t.Errorf("%q strong = %v, want %v", q.text, q.strong, s)
		}
		if strings.Contains(q.text, "RUNBOOK") || strings.Contains(q.text, ".log") {
			t.Errorf("%q is a file name, not a quote", q.text)
		}
	}
	for q := range want {
		if !seen[q] {
			t.Errorf("quotes %v lack %q", got, q)
		}
	}
}

// fileText folds a line to its words with one space between, as
// strings.Fields splits them: Unicode spaces, invalid UTF-8 and empty lines
// included.
func TestFileTextFoldsLikeFields(t *testing.T) {
	lines := []string{"", "   ", "a", "  a  b\tc\n", "x\u00a0y\u2003z", "\u0085lead", "bad\xffbyte \xc0", "日本 語", "trail   "}
	var ft fileText
	var want []byte
	for i, l := range lines {
		ft.add(i+1, 0, l)
		if i > 0 {
			want = append(want, ' ')
		}
		want = append(want, strings.Join(strings.Fields(l), " ")...)
	}
	if string(ft.joined) != string(want) {
		t.Errorf("joined = %q, want %q", ft.joined, want)
	}
	for i, l := range lines {
		end := len(ft.joined)
		if i+1 < len(ft.starts) {
			end = ft.starts[i+1] - 1
		}
		if got := string(ft.joined[ft.starts[i]:end]); got != strings.Join(strings.Fields(l), " ") {
			t.Errorf("entry %d = %q, want the words of %q", i, got, l)
		}
	}
}

// Anchoring in a window around the cited lines finds what anchoring in the
// whole file finds, on every packet the tests keep: the windows are a
// shortcut, never a second answer.
func TestAnchorWindowsChangeNothing(t *testing.T) {
	dirs := []string{
		filepath.Join("..", "testdata", "drift"),
		filepath.Join("..", "testdata", "dyn-3726", "round1"),
		filepath.Join("..", "testdata", "dyn-3726", "round2"),
	}
	anchors := func(p *Packet) []Anchor {
		var out []Anchor
		for _, f := range p.Findings {
			for _, c := range f.Citations {
				out = append(out, c.Anchor)
			}
		}
		return out
	}
	load := func(dir string) *Packet {
		if dir == "" {
			return LoadSample(Options{})
		}
		p, err := Load(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, dir := range append(dirs, "") {
		withWindows := load(dir)
		anchorWindows = false
		whole := load(dir)
		anchorWindows = true
		a, b := anchors(withWindows), anchors(whole)
		if len(a) == 0 {
			t.Errorf("%s: no citations to compare", dir)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: anchors with windows differ from the whole file's:\n%+v\n%+v", dir, a, b)
		}
		withWindows.Close()
		whole.Close()
	}
}

// appendFolded is strings.Join(strings.Fields(s), " ") appended: finding
// fingerprints recorded by earlier versions depend on it folding exactly so.
func TestAppendFoldedIsJoinedFields(t *testing.T) {
	for _, s := range []string{
		"", " ", "a", "  a  b\t\tc\n", "a\u00a0b\u0085c\u2003d", "\u3000x\u3000", "bad\xffbyte \xc3", "ünï  cødé",
		"x\v\fy\r\nz", "\u200bzero-width is not space",
	} {
		want := "pre" + strings.Join(strings.Fields(s), " ")
		if got := string(appendFolded([]byte("pre"), s)); got != want {
			t.Errorf("appendFolded(%q) = %q, want %q", s, got, want)
		}
	}
}

// hasMarkerRun passes over only text in which markersIn finds nothing.
func TestHasMarkerRunKeepsEveryMarker(t *testing.T) {
	for _, s := range []string{
		"see CLAIM D in the log", "STEP 3 fails", "the MATCH line", "A_B_C_D", "x `CODE` y ABCD",
		"no markers here", "Finding 12: the `offset` overflow", "ABC DEF", "`ABCD`", "A1B2C3D4", "1234", "HEAD_1", "X9YZW",
	} {
		if got := markersIn(s); len(got) > 0 && !hasMarkerRun(s) {
			t.Errorf("%q has markers %q but hasMarkerRun says none", s, got)
		}
	}
	if hasMarkerRun("Finding 1234: the `offset` overflow; see change-validation.md:5 (HEA_1 B2)") {
		t.Error("a sentence without four capitals in a run of capitals, digits and underscores has a marker run")
	}
}
