package review

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/packet"
)

// The packet's own load-test helpers, for the gate's load tests here.

const packetsDir = "../packet/testdata/packets"

// wantProblem is the part of a problem a test pins down; the message is for
// people and free to change.
type wantProblem struct {
	Code string
	File string
	Line int
}

func (w wantProblem) String() string { return fmt.Sprintf("%s@%s:%d", w.Code, w.File, w.Line) }

func problemSet(ps []packet.Problem) []wantProblem {
	out := make([]wantProblem, len(ps))
	for i, p := range ps {
		out[i] = wantProblem{p.Code, p.File, p.Line}
	}
	slices.SortFunc(out, func(a, b wantProblem) int { return strings.Compare(a.String(), b.String()) })
	return out
}

// checkProblems requires exactly the wanted problems (by code, file and line).
func checkProblems(t *testing.T, p *packet.Packet, want []wantProblem) {
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
		if pr.Severity != packet.SeverityOf(pr.Code) {
			t.Errorf("problem %s has severity %s, want %s", pr.Code, pr.Severity, packet.SeverityOf(pr.Code))
		}
		if pr.Message == "" {
			t.Errorf("problem %s at %s:%d has no message", pr.Code, pr.File, pr.Line)
		}
	}
}

func hasProblem(p *packet.Packet, code, file string, line int) bool {
	for _, pr := range p.Problems {
		if pr.Code == code && pr.File == file && pr.Line == line {
			return true
		}
	}
	return false
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

func mustLoad(t *testing.T, path string, opts packet.Options) *packet.Packet {
	t.Helper()
	p, err := packet.Load(path, opts)
	if err != nil {
		t.Fatalf("packet.Load(%s): %v", path, err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// anchoredNewLine is the new-side line number of the diff line a citation is
// anchored to, or -1.
func anchoredNewLine(p *packet.Packet, c packet.Citation) int {
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

// outsideMark is written into every file outside the packet; it must never
// show up in anything loaded.
const outsideMark = "CONTENT-FROM-OUTSIDE-THE-PACKET"

// checkNothingFromOutside fails if the mark (or /etc/passwd's first field)
// appears in any document, finding or log line of p.
func checkNothingFromOutside(t *testing.T, p *packet.Packet) {
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
func checkRestLoads(t *testing.T, p *packet.Packet) {
	t.Helper()
	if p.Verdict.Value != "pass" || p.Assessment.Value != "sound" {
		t.Errorf("verdict %q, assessment %q; want pass, sound", p.Verdict.Value, p.Assessment.Value)
	}
	if len(p.Findings) != 2 {
		t.Errorf("%d findings, want 2", len(p.Findings))
	}
	for _, n := range []string{packet.PlanFile, packet.ChangeFile, packet.ValidationFile, packet.ReviewFile} {
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

func writeFile(t *testing.T, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlinkOrSkip(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symbolic links unavailable: %v", err)
	}
}

func sortedWant(ws []wantProblem) []wantProblem {
	out := slices.Clone(ws)
	slices.SortFunc(out, func(a, b wantProblem) int { return strings.Compare(a.String(), b.String()) })
	return out
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
