package packet

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/packet/source"
	"github.com/vetter-dev/vetter/packet/source/sourcetest"
)

// These tests go through Load, the way the commands and screens read a packet,
// so they check the parts together: sources, documents, registry, logs,
// evidence, citations and the gate.

const packetsDir = "testdata/packets"

// wantProblem is the part of a problem a test pins down; the message is for
// people and free to change.
type wantProblem struct {
	Code string
	File string
	Line int
}

func (w wantProblem) String() string { return fmt.Sprintf("%s@%s:%d", w.Code, w.File, w.Line) }

func problemSet(ps []Problem) []wantProblem {
	out := make([]wantProblem, len(ps))
	for i, p := range ps {
		out[i] = wantProblem{p.Code, p.File, p.Line}
	}
	slices.SortFunc(out, func(a, b wantProblem) int { return strings.Compare(a.String(), b.String()) })
	return out
}

func sortedWant(ws []wantProblem) []wantProblem {
	out := slices.Clone(ws)
	slices.SortFunc(out, func(a, b wantProblem) int { return strings.Compare(a.String(), b.String()) })
	return out
}

// checkProblems requires exactly the wanted problems (by code, file and line).
func checkProblems(t *testing.T, p *Packet, want []wantProblem) {
	t.Helper()
	got := problemSet(p.Problems)
	if !slices.Equal(got, sortedWant(want)) {
		var b strings.Builder
		for _, pr := range p.Problems {
			fmt.Fprintf(&b, "\n  %s %s:%d %s", pr.Code, pr.File, pr.Line, pr.Message)
		}
		t.Errorf("problems:\n got %v\nwant %v\nfull:%s", got, sortedWant(want), b.String())
	}
	for _, pr := range p.Problems {
		if pr.Severity != SeverityOf(pr.Code) {
			t.Errorf("problem %s has severity %s, want %s", pr.Code, pr.Severity, SeverityOf(pr.Code))
		}
		if pr.Message == "" {
			t.Errorf("problem %s at %s:%d has no message", pr.Code, pr.File, pr.Line)
		}
	}
}

func hasProblem(p *Packet, code, file string, line int) bool {
	for _, pr := range p.Problems {
		if pr.Code == code && pr.File == file && pr.Line == line {
			return true
		}
	}
	return false
}

// copyTree copies the files under src into dst, replacing what is there.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
	if err != nil {
		t.Fatalf("copying %s to %s: %v", src, dst, err)
	}
}

// packetWith builds a packet in a temporary directory: the base packet with
// the files of testdata/packets/<overlay> laid over it ("" for base alone).
// Each overlay holds only the files that make its case.
func packetWith(t *testing.T, overlay string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pkt")
	copyTree(t, filepath.Join(packetsDir, "base"), dir)
	if overlay != "" {
		copyTree(t, filepath.Join(packetsDir, overlay), dir)
	}
	return dir
}

func mustLoad(t *testing.T, path string, opts Options) *Packet {
	t.Helper()
	p, err := Load(path, opts)
	if err != nil {
		t.Fatalf("Load(%s): %v", path, err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// ---- the base packet -------------------------------------------------------

// ---- one problem at a time -------------------------------------------------

// ---- citations -------------------------------------------------------------

func TestLoadCitationKinds(t *testing.T) {
	p := mustLoad(t, packetWith(t, "citations"), Options{})
	notes := p.Doc("notes.md")
	if notes == nil {
		t.Fatal("notes.md not loaded")
	}
	byText := map[string]Citation{}
	for _, c := range notes.Citations {
		byText[c.Text] = c
	}
	cases := []struct {
		text     string
		kind     CitationKind
		target   string
		resolved bool
		newLine  int // the anchored diff line's new-side number, for kind diff
	}{
		{"compute-env.md:5", CitePacket, "compute-env.md", true, 0},
		{"compute-env.md:99", CiteUnresolved, "compute-env.md", false, 0},
		{"validation/registry.jsonl:2", CiteRegistry, RegistryFile, true, 0},
		{"validation/registry.jsonl:9", CiteUnresolved, RegistryFile, false, 0},
		{"01-unit.log", CiteLog, "validation/logs/01-unit.log", true, 0},
		{"…1-unit.log:2", CiteLog, "validation/logs/01-unit.log", true, 0},
		{"internal/fetch/fetch.go:15", CiteDiff, "internal/fetch/fetch.go", true, 15},
		{"internal/fetch/fetch.go:80", CiteDiffFile, "internal/fetch/fetch.go", true, 0},
		{"internal/other/other.go:5", CiteExternal, "internal/other/other.go", true, 0},
		{"validation/logs/nope.log", CiteUnresolved, "validation/logs/nope.log", false, 0},
		{"validation/logs/02-lint.log:99", CiteUnresolved, "validation/logs/02-lint.log", false, 0},
		{"change.diff:3", CitePacket, DiffPath, true, 0},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			c, ok := byText[tc.text]
			if !ok {
				t.Fatalf("citation %q not found in notes.md; found %v", tc.text, slices.Collect(maps.Keys(byText)))
			}
			if c.Kind != tc.kind || c.Target != tc.target || c.Resolved != tc.resolved {
				t.Errorf("got kind %s target %q resolved %v (%s), want %s %q %v",
					c.Kind, c.Target, c.Resolved, c.Note, tc.kind, tc.target, tc.resolved)
			}
			if !c.Resolved && c.Note == "" {
				t.Error("an unresolved citation has no note saying why")
			}
			if tc.kind == CiteDiff {
				if got := anchoredNewLine(p, c); got != tc.newLine {
					t.Errorf("anchored to new line %d, want %d", got, tc.newLine)
				}
			} else if c.DiffHunk >= 0 || c.DiffLine >= 0 {
				t.Errorf("a %s citation is anchored into the diff (%d/%d/%d)", c.Kind, c.DiffFile, c.DiffHunk, c.DiffLine)
			}
		})
	}
}

// TestLoadDeferredLogIndex checks the screen's path: logs are opened but not
// indexed, a past-the-end log line cannot be known yet, and Reresolve after
// indexing finds it.
func TestLoadDeferredLogIndex(t *testing.T) {
	p := mustLoad(t, packetWith(t, "citations"), Options{DeferLogIndex: true})
	for _, l := range p.Logs {
		if l.Indexed() {
			t.Errorf("%s indexed despite DeferLogIndex", l.Path)
		}
	}
	if hasProblem(p, CodeCitationUnresolved, "notes.md", 13) {
		t.Error("a log line was judged past the end before the log was indexed")
	}
	for _, l := range p.Logs {
		if err := l.Index(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
	}
	p.Reresolve()
	checkProblems(t, p, []wantProblem{
		{CodeCitationUnresolved, "notes.md", 4},
		{CodeCitationUnresolved, "notes.md", 6},
		{CodeCitationUnresolved, "notes.md", 12},
		{CodeCitationUnresolved, "notes.md", 13},
	})
}

// anchoredNewLine is the new-side line number of the diff line a citation is
// anchored to, or -1.
func anchoredNewLine(p *Packet, c Citation) int {
	if p.Diff == nil || c.DiffFile < 0 || c.DiffFile >= len(p.Diff.Files) {
		return -1
	}
	f := p.Diff.Files[c.DiffFile]
	if c.DiffHunk < 0 || c.DiffHunk >= len(f.Hunks) {
		return -1
	}
	h := f.Hunks[c.DiffHunk]
	if c.DiffLine < 0 || c.DiffLine >= len(h.Lines) {
		return -1
	}
	if f.Path() != c.Target {
		return -1
	}
	return h.Lines[c.DiffLine].New
}

// ---- partial and non-packets -----------------------------------------------

func TestLoadNotAPacket(t *testing.T) {
	tmp := t.TempDir()
	text := filepath.Join(tmp, "notes.txt")
	if err := os.WriteFile(text, []byte("just some notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	unrelated := filepath.Join(tmp, "repo")
	for name, body := range map[string]string{
		"main.go":        "package main\n",
		"data/input.csv": "a,b\n1,2\n",
		"Makefile":       "all:\n\tgo build\n",
		"logs/run.log":   "ok\n[exit 0 after 1 s]\n",
	} {
		p := filepath.Join(unrelated, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	empty := filepath.Join(tmp, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, path := range map[string]string{
		"missing":   filepath.Join(tmp, "no-such-packet"),
		"text file": text,
		"unrelated": unrelated,
		"empty dir": empty,
	} {
		t.Run(name, func(t *testing.T) {
			p, err := Load(path, Options{})
			if !errors.Is(err, source.ErrNotAPacket) {
				t.Fatalf("Load(%s) = %v, want an error wrapping ErrNotAPacket", path, err)
			}
			if p != nil {
				t.Error("Load returned a packet with its error")
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name %s", err, path)
			}
		})
	}
}

// ---- never reading outside the packet -------------------------------------

// outsideMark is written into every file outside the packet; it must never
// show up in anything loaded.
const outsideMark = "CONTENT-FROM-OUTSIDE-THE-PACKET"

// checkNothingFromOutside fails if the mark (or /etc/passwd's first field)
// appears in any document, finding or log line of p.
func checkNothingFromOutside(t *testing.T, p *Packet) {
	t.Helper()
	leaked := func(s string) bool {
		return strings.Contains(s, outsideMark) || strings.Contains(s, "root:x:0:0")
	}
	for _, d := range p.Docs {
		if leaked(d.Text) {
			t.Errorf("document %s holds text from outside the packet", d.Path)
		}
	}
	for _, f := range p.Findings {
		if leaked(f.Claim + f.Evidence + f.Location) {
			t.Errorf("finding %s holds text from outside the packet", f.ID)
		}
	}
	for _, l := range p.Logs {
		if strings.HasPrefix(l.Path, "/") || strings.Contains(l.Path, "..") {
			t.Errorf("log %q is outside the packet", l.Path)
		}
		lines, err := l.ReadLines(1, 1000)
		if err != nil {
			t.Errorf("reading %s: %v", l.Path, err)
		}
		for i, s := range lines {
			if leaked(s) {
				t.Errorf("log %s line %d holds text from outside the packet", l.Path, i+1)
			}
		}
	}
	for _, pr := range p.Problems {
		if leaked(pr.Message) {
			t.Errorf("problem %s quotes text from outside the packet", pr.Code)
		}
	}
}

// checkRestLoads requires the base packet's substance despite hostile parts.
func checkRestLoads(t *testing.T, p *Packet) {
	t.Helper()
	if p.Verdict.Value != "pass" || p.Assessment.Value != "sound" {
		t.Errorf("verdict %q, assessment %q; want pass, sound", p.Verdict.Value, p.Assessment.Value)
	}
	if len(p.Findings) != 2 {
		t.Errorf("%d findings, want 2", len(p.Findings))
	}
	for _, n := range []string{PlanFile, ChangeFile, ValidationFile, ReviewFile} {
		if p.Doc(n) == nil {
			t.Errorf("%s not loaded", n)
		}
	}
	if p.Diff == nil || len(p.Diff.Files) != 1 {
		t.Error("change.diff not loaded")
	}
	if l := p.Log("validation/logs/01-unit.log"); l == nil || l.LineCount() != 4 {
		t.Errorf("validation/logs/01-unit.log not loaded whole: %v", l)
	}
	if p.Change.HeadSHA == "" {
		t.Error("head SHA lost")
	}
}

func TestLoadArchiveNeverReadsOutside(t *testing.T) {
	var base []sourcetest.Entry
	files := readTree(t, filepath.Join(packetsDir, "base"))
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		base = append(base, sourcetest.Entry{Name: "pkt/" + rel, Body: files[rel]})
	}
	hostile := []sourcetest.Entry{
		{Name: "../evil.md", Body: "# " + outsideMark + "\n"},
		{Name: "pkt/../../evil2.md", Body: "# " + outsideMark + "\n"},
		{Name: "/abs.md", Body: "# " + outsideMark + "\n"},
		{Name: "pkt/link.md", Kind: tar.TypeSymlink, Link: "/etc/passwd"},
		{Name: "pkt/validation/logs/link.log", Kind: tar.TypeSymlink, Link: "../../../outside.log"},
	}
	wantUnsafe := []string{"../evil.md", "pkt/../../evil2.md", "/abs.md", "pkt/link.md", "pkt/validation/logs/link.log"}

	tmp := t.TempDir()
	for _, kind := range []string{"zip", "tar", "tgz"} {
		t.Run(kind, func(t *testing.T) {
			es := append(slices.Clone(base), hostile...)
			wantUnsafe := wantUnsafe
			if kind != "zip" {
				es = append(es, sourcetest.Entry{Name: "pkt/hard.md", Kind: tar.TypeLink, Link: "/etc/passwd"})
				wantUnsafe = append(slices.Clone(wantUnsafe), "pkt/hard.md")
			}
			path := filepath.Join(tmp, "packet."+kind)
			switch kind {
			case "zip":
				sourcetest.WriteZip(t, path, es)
			case "tar":
				sourcetest.WriteTar(t, path, es, false)
			case "tgz":
				sourcetest.WriteTar(t, path, es, true)
			}
			p := mustLoad(t, path, Options{})
			if p.Source != kind {
				t.Errorf("Source = %q, want %q", p.Source, kind)
			}
			var got []string
			for _, pr := range p.Problems {
				if pr.Code == CodeArchiveUnsafeEntry {
					got = append(got, pr.File)
				}
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(wantUnsafe))
			if !slices.Equal(got, want) {
				t.Errorf("archive-unsafe-entry problems for %v, want %v", got, want)
			}
			// Apart from the refused entries, the packet is the clean base.
			others := slices.DeleteFunc(slices.Clone(p.Problems), func(pr Problem) bool { return pr.Code == CodeArchiveUnsafeEntry })
			if len(others) > 0 {
				t.Errorf("other problems: %+v", others)
			}
			for _, d := range p.Docs {
				if strings.Contains(d.Path, "evil") || d.Path == "abs.md" || d.Path == "link.md" || d.Path == "hard.md" {
					t.Errorf("refused entry %s loaded as a document", d.Path)
				}
			}
			if p.Log("validation/logs/link.log") != nil {
				t.Error("a symbolic link entry was opened as a log")
			}
			checkNothingFromOutside(t, p)
			checkRestLoads(t, p)
			if p.Doc("compute-env.md") == nil {
				t.Error("compute-env.md not loaded from the archive")
			}
		})
	}
}

// ---- the built-in sample ---------------------------------------------------
