package packettest

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/packet"
)

// Problem is the part of a load's problem a test pins down; the message is
// for people and free to change.
type Problem struct {
	Code string
	File string
	Line int
}

func (w Problem) String() string { return fmt.Sprintf("%s@%s:%d", w.Code, w.File, w.Line) }

func sorted(ws []Problem) []Problem {
	out := slices.Clone(ws)
	slices.SortFunc(out, func(a, b Problem) int { return strings.Compare(a.String(), b.String()) })
	return out
}

// CheckProblems requires exactly the wanted problems (by code, file and
// line), each with its code's severity and a message.
func CheckProblems(t testing.TB, p *packet.Packet, want []Problem) {
	t.Helper()
	got := make([]Problem, len(p.Problems))
	for i, pr := range p.Problems {
		got[i] = Problem{Code: pr.Code, File: pr.File, Line: pr.Line}
	}
	if got, want := sorted(got), sorted(want); !slices.Equal(got, want) {
		var b strings.Builder
		for _, pr := range p.Problems {
			fmt.Fprintf(&b, "\n  %s %s:%d %s", pr.Code, pr.File, pr.Line, pr.Message)
		}
		t.Errorf("problems:\n got %v\nwant %v\nfull:%s", got, want, b.String())
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

// HasProblem reports whether the load reported a problem of this code at
// this file and line.
func HasProblem(p *packet.Packet, code, file string, line int) bool {
	for _, pr := range p.Problems {
		if pr.Code == code && pr.File == file && pr.Line == line {
			return true
		}
	}
	return false
}

// PacketWith builds a packet in a temporary directory: the base test
// packet with the files of packet/testdata/packets/<overlay> laid over it
// ("" for the base alone). Each overlay holds only the files that make its
// case.
func PacketWith(t testing.TB, overlay string) string {
	t.Helper()
	packets := Path(t, "packet/testdata/packets")
	dir := filepath.Join(t.TempDir(), "pkt")
	CopyTree(t, filepath.Join(packets, "base"), dir)
	if overlay != "" {
		CopyTree(t, filepath.Join(packets, overlay), dir)
	}
	return dir
}

// AnchoredNewLine is the new-side line number of the diff line a citation
// is anchored to, or -1.
func AnchoredNewLine(p *packet.Packet, c packet.Citation) int {
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

// OutsideMark is written into every file outside the packet; it must never
// show up in anything loaded.
const OutsideMark = "CONTENT-FROM-OUTSIDE-THE-PACKET"

// CheckNothingFromOutside fails if the mark (or /etc/passwd's first field)
// appears in any document, finding, log line or problem of p.
func CheckNothingFromOutside(t testing.TB, p *packet.Packet) {
	t.Helper()
	leaked := func(s string) bool {
		return strings.Contains(s, OutsideMark) || strings.Contains(s, "root:x:0:0")
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

// CheckRestLoads requires the base test packet's substance despite hostile
// parts.
func CheckRestLoads(t testing.TB, p *packet.Packet) {
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
