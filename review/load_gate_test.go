package review

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/internal/packettest"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/packet/source"
)

func gateCheck(g packet.Gate, name string) packet.GateCheck {
	for _, c := range g.Checks {
		if c.Name == name {
			return c
		}
	}
	return packet.GateCheck{Name: name + " (absent)"}
}

// failingChecks lists the gate checks that do not hold, in order.
func failingChecks(g packet.Gate) []string {
	var out []string
	for _, c := range g.Checks {
		if !c.OK {
			out = append(out, c.Name)
		}
	}
	return out
}

func TestLoadBase(t *testing.T) {
	p := packettest.Load(t, packettest.PacketWith(t, ""), packet.Options{})
	packettest.CheckProblems(t, p, nil)
	if p.Source != source.KindDir {
		t.Errorf("Source = %q, want %q", p.Source, source.KindDir)
	}
	if p.Plan.ID != "TEST-101" || !slices.Equal(p.Plan.Recipes, []string{"01-unit", "02-lint"}) {
		t.Errorf("plan = %q %v", p.Plan.ID, p.Plan.Recipes)
	}
	if p.Verdict.Value != "pass" || p.Assessment.Value != "sound" {
		t.Errorf("verdict %q, assessment %q", p.Verdict.Value, p.Assessment.Value)
	}
	if len(p.Findings) != 2 || p.Finding("review.md#2") == nil {
		t.Errorf("findings = %d", len(p.Findings))
	}
	if p.Evidence.Validated != 2 || p.Evidence.Total != 2 {
		t.Errorf("evidence %d/%d, want 2/2", p.Evidence.Validated, p.Evidence.Total)
	}
	var docs []string
	for _, d := range p.Docs {
		docs = append(docs, d.Path)
	}
	if want := []string{"plan.md", "change.md", "change-validation.md", "review.md", "compute-env.md"}; !slices.Equal(docs, want) {
		t.Errorf("docs = %v, want %v", docs, want)
	}
	for _, l := range p.Logs {
		if !l.Indexed() {
			t.Errorf("%s not indexed after Load", l.Path)
		}
	}
	g := Gate(p)
	if got := failingChecks(g); !slices.Equal(got, []string{CheckFindingsTriaged}) {
		t.Errorf("failing gate checks = %v, want only findings-triaged", got)
	}
	if g.Command != "/ok to test 9f8e7d6c5b4a39281706f5e4d3c2b1a098765432" {
		t.Errorf("gate command = %q", g.Command)
	}
}

func TestLoadProblems(t *testing.T) {
	const reg, val = packet.RegistryFile, packet.ValidationFile
	cases := []struct {
		overlay string
		want    []packettest.Problem
		check   func(t *testing.T, p *packet.Packet)
	}{
		{
			overlay: "log-exit-mismatch",
			want:    []packettest.Problem{{Code: packet.CodeLogExitMismatch, File: reg, Line: 1}},
			check: func(t *testing.T, p *packet.Packet) {
				if gateCheck(Gate(p), CheckLogsIntact).OK {
					t.Error("logs-intact holds despite an exit mismatch")
				}
			},
		},
		{
			overlay: "validated-with-nonzero-exit",
			want:    []packettest.Problem{{Code: packet.CodeLogExitMismatch, File: reg, Line: 2}},
		},
		{
			overlay: "log-empty",
			want:    []packettest.Problem{{Code: packet.CodeLogEmpty, File: "validation/logs/02-lint.log", Line: 0}},
			check: func(t *testing.T, p *packet.Packet) {
				if gateCheck(Gate(p), CheckLogsIntact).OK {
					t.Error("logs-intact holds despite an empty log")
				}
			},
		},
		{
			overlay: "log-missing",
			want:    []packettest.Problem{{Code: packet.CodeLogMissing, File: reg, Line: 2}},
			check: func(t *testing.T, p *packet.Packet) {
				if p.Log("validation/logs/gone.log") != nil {
					t.Error("a missing log is in p.Logs")
				}
				if gateCheck(Gate(p), CheckLogsIntact).OK {
					t.Error("logs-intact holds despite a missing log")
				}
			},
		},
		{
			overlay: "recipe-missing",
			want:    []packettest.Problem{{Code: packet.CodeRecipeMissing, File: packet.PlanFile, Line: 9}, {Code: packet.CodePassWithFailing, File: val, Line: 11}},
			check: func(t *testing.T, p *packet.Packet) {
				row := p.Evidence.Row("03-integration")
				if row == nil || row.Status != packet.StatusMissing || !row.Planned {
					t.Errorf("03-integration row = %+v", row)
				}
				if p.Evidence.Validated != 2 || p.Evidence.Total != 3 {
					t.Errorf("evidence %d/%d, want 2/3", p.Evidence.Validated, p.Evidence.Total)
				}
				if gateCheck(Gate(p), CheckEvidence).OK {
					t.Error("evidence-complete holds with a missing recipe")
				}
			},
		},
		{
			// An unplanned recipe failing is a warning, but the verdict does
			// not contradict the plan, so no pass-with-failing-evidence.
			overlay: "recipe-failing",
			want:    []packettest.Problem{{Code: packet.CodeRecipeFailing, File: reg, Line: 3}},
			check: func(t *testing.T, p *packet.Packet) {
				if row := p.Evidence.Row("09-bench"); row == nil || row.Status != packet.StatusFailing || row.Planned {
					t.Errorf("09-bench row = %+v", row)
				}
				if gateCheck(Gate(p), CheckEvidence).OK {
					t.Error("evidence-complete holds with a failing recipe")
				}
			},
		},
		{
			overlay: "pass-with-failing-evidence",
			want:    []packettest.Problem{{Code: packet.CodeRecipeFailing, File: reg, Line: 1}, {Code: packet.CodePassWithFailing, File: val, Line: 11}},
		},
		{
			overlay: "verdict-conflict",
			want:    []packettest.Problem{{Code: packet.CodeVerdictConflict, File: val, Line: 11}},
			check: func(t *testing.T, p *packet.Packet) {
				if p.Verdict.Value != "pass" || p.Verdict.Line != 11 {
					t.Errorf("verdict %q at %d, want the last one (pass at 11)", p.Verdict.Value, p.Verdict.Line)
				}
			},
		},
		{
			overlay: "assessment-missing",
			want:    []packettest.Problem{{Code: packet.CodeAssessmentMissing, File: packet.ReviewFile, Line: 0}},
			check: func(t *testing.T, p *packet.Packet) {
				if p.Assessment.Value != "" || len(p.Findings) != 1 {
					t.Errorf("assessment %q, %d findings; want none and 1", p.Assessment.Value, len(p.Findings))
				}
				if c := gateCheck(Gate(p), CheckAssessmentSound); c.OK {
					t.Errorf("assessment-sound holds: %+v", c)
				}
			},
		},
		{
			overlay: "citations",
			want: []packettest.Problem{
				{Code: packet.CodeCitationUnresolved, File: "notes.md", Line: 4},
				{Code: packet.CodeCitationUnresolved, File: "notes.md", Line: 6},
				{Code: packet.CodeCitationUnresolved, File: "notes.md", Line: 12},
				{Code: packet.CodeCitationUnresolved, File: "notes.md", Line: 13},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.overlay, func(t *testing.T) {
			p := packettest.Load(t, packettest.PacketWith(t, tc.overlay), packet.Options{})
			packettest.CheckProblems(t, p, tc.want)
			// Whatever is wrong, the rest of the packet still shows.
			if len(p.Docs) < 5 || p.Diff == nil || !p.Registry.Present || len(p.Findings) == 0 {
				t.Errorf("packet partly lost: %d docs, diff %v, registry %v, %d findings",
					len(p.Docs), p.Diff != nil, p.Registry.Present, len(p.Findings))
			}
			if tc.check != nil {
				tc.check(t, p)
			}
		})
	}
}

func TestLoadReviewOnly(t *testing.T) {
	p := packettest.Load(t, filepath.Join(packettest.Path(t, "packet/testdata/packets"), "review-only"), packet.Options{})
	for _, w := range []packettest.Problem{
		{Code: packet.CodeMissingFile, File: packet.PlanFile, Line: 0},
		{Code: packet.CodeMissingFile, File: packet.ChangeFile, Line: 0},
		{Code: packet.CodeMissingFile, File: packet.ValidationFile, Line: 0},
		{Code: packet.CodeMissingFile, File: packet.DiffPath, Line: 0},
		{Code: packet.CodeMissingFile, File: packet.RegistryFile, Line: 0},
		{Code: packet.CodeVerdictMissing, File: packet.ValidationFile, Line: 0},
	} {
		if !packettest.HasProblem(p, w.Code, w.File, w.Line) {
			t.Errorf("no %s", w)
		}
	}
	if packettest.HasProblem(p, packet.CodeMissingFile, packet.ReviewFile, 0) {
		t.Error("review.md reported missing")
	}
	if len(p.Findings) != 2 || p.Finding("review.md#1").Severity != "major" {
		t.Errorf("findings not parsed: %d", len(p.Findings))
	}
	if p.Assessment.Value != "needs_changes" {
		t.Errorf("assessment = %q", p.Assessment.Value)
	}
	// Citations into a diff that is absent are repository files, not errors.
	for _, c := range p.AllCitations() {
		if c.Kind != packet.CiteExternal {
			t.Errorf("%s resolved as %s, want external", c.Text, c.Kind)
		}
	}
	// `vetter check` exits non-zero on errors.
	if errs, _, _ := p.Counts(); errs == 0 {
		t.Error("a packet with only review.md has no errors")
	}
	if Gate(p).Ready {
		t.Error("the gate is ready for a packet with only review.md")
	}
}

func TestLoadDirNeverReadsOutside(t *testing.T) {
	pkt := packettest.PacketWith(t, "")
	tmp := filepath.Dir(pkt)
	outside := filepath.Join(tmp, "outside")
	// ../secret.log really exists next to the packet, so only the guard
	// stops it being read.
	packettest.WriteFile(t, filepath.Join(tmp, "secret.log"), packettest.OutsideMark+" parent\n[exit 0 after 1 s]\n")
	packettest.WriteFile(t, filepath.Join(outside, "outside.md"), "# "+packettest.OutsideMark+"\n\n## Verdict: fail\n")
	packettest.WriteFile(t, filepath.Join(outside, "target.log"), packettest.OutsideMark+" linked\n[exit 0 after 1 s]\n")
	packettest.WriteFile(t, filepath.Join(outside, "dir", "inner.log"), packettest.OutsideMark+" inner\n[exit 0 after 1 s]\n")

	logs := filepath.Join(pkt, "validation", "logs")
	packettest.SymlinkOrSkip(t, filepath.Join(outside, "target.log"), filepath.Join(logs, "abs-link.log"))
	packettest.SymlinkOrSkip(t, "../../../outside/target.log", filepath.Join(logs, "rel-link.log"))
	packettest.SymlinkOrSkip(t, filepath.Join(outside, "dir"), filepath.Join(logs, "sub"))
	packettest.SymlinkOrSkip(t, "01-unit.log", filepath.Join(logs, "alias.log")) // stays inside: fine
	if err := os.Remove(filepath.Join(pkt, "compute-env.md")); err != nil {
		t.Fatal(err)
	}
	packettest.SymlinkOrSkip(t, filepath.Join(outside, "outside.md"), filepath.Join(pkt, "compute-env.md"))
	packettest.SymlinkOrSkip(t, "../outside/outside.md", filepath.Join(pkt, "notes.md"))

	reg, err := os.ReadFile(filepath.Join(pkt, filepath.FromSlash(packet.RegistryFile)))
	if err != nil {
		t.Fatal(err)
	}
	reg = append(reg, `{"seq":3,"recipe":"03-parent","status":"validated","log":"../secret.log","exit_code":0}
{"seq":4,"recipe":"04-absolute","status":"validated","log":"/etc/passwd","exit_code":0}
{"seq":5,"recipe":"05-linked","status":"validated","log":"validation/logs/abs-link.log","exit_code":0}
{"seq":6,"recipe":"06-through-dir","status":"validated","log":"validation/logs/sub/inner.log","exit_code":0}
{"seq":7,"recipe":"07-dotdot-inside","status":"validated","log":"validation/logs/../logs/../../../secret.log","exit_code":0}
{"seq":8,"recipe":"08-alias","status":"validated","log":"validation/logs/alias.log","exit_code":0}
`...)
	packettest.WriteFile(t, filepath.Join(pkt, filepath.FromSlash(packet.RegistryFile)), string(reg))

	p := packettest.Load(t, pkt, packet.Options{})
	// Each way out is refused where it is written: the registry line naming
	// it, or the link itself. A document linked out is unreadable.
	packettest.CheckProblems(t, p, []packettest.Problem{
		{Code: packet.CodeLogOutsidePacket, File: packet.RegistryFile, Line: 3},
		{Code: packet.CodeLogOutsidePacket, File: packet.RegistryFile, Line: 4},
		{Code: packet.CodeLogOutsidePacket, File: packet.RegistryFile, Line: 5},
		{Code: packet.CodeLogOutsidePacket, File: packet.RegistryFile, Line: 6},
		{Code: packet.CodeLogOutsidePacket, File: packet.RegistryFile, Line: 7},
		{Code: packet.CodeLogOutsidePacket, File: "validation/logs/abs-link.log", Line: 0},
		{Code: packet.CodeLogOutsidePacket, File: "validation/logs/rel-link.log", Line: 0},
		{Code: packet.CodeLogOutsidePacket, File: "validation/logs/sub", Line: 0},
		{Code: packet.CodeLogOutsidePacket, File: "compute-env.md", Line: 0},
		{Code: packet.CodeLogOutsidePacket, File: "notes.md", Line: 0},
	})
	for _, pr := range p.Problems {
		if !strings.Contains(pr.Message, "outside the packet") {
			t.Errorf("%s at %s does not say it leads outside the packet: %s", pr.Code, pr.File, pr.Message)
		}
	}
	for _, doc := range []string{"compute-env.md", "notes.md"} {
		if p.Doc(doc) != nil {
			t.Errorf("%s, a link out of the packet, was loaded", doc)
		}
	}
	if l := p.Log("validation/logs/alias.log"); l == nil || l.LineCount() != 4 {
		t.Error("a link that stays inside the packet was not read")
	}
	if gateCheck(Gate(p), CheckLogsIntact).OK {
		t.Error("logs-intact holds with logs outside the packet")
	}
	packettest.CheckNothingFromOutside(t, p)
	packettest.CheckRestLoads(t, p)
}

func checkSample(t *testing.T, p *packet.Packet) {
	t.Helper()
	// The sample is built to have exactly one problem: review.md cites a line
	// of compute-env.md that does not exist.
	f3 := p.Finding("review.md#3")
	if f3 == nil {
		t.Fatal("no finding review.md#3")
	}
	packettest.CheckProblems(t, p, []packettest.Problem{{Code: packet.CodeCitationUnresolved, File: packet.ReviewFile, Line: f3.Line}})
	if len(p.Problems) == 1 && !strings.Contains(p.Problems[0].Message, "compute-env.md:41") {
		t.Errorf("the problem is not about compute-env.md:41: %s", p.Problems[0].Message)
	}

	if p.Evidence.Validated != 4 || p.Evidence.Total != 4 {
		t.Errorf("evidence %d/%d, want 4/4", p.Evidence.Validated, p.Evidence.Total)
	}
	if row := p.Evidence.Row("03-python-unit-tests"); row == nil || row.Status != packet.StatusDispositioned {
		t.Errorf("03-python-unit-tests row = %+v, want dispositioned", row)
	}
	if row := p.Evidence.Row("01-go-unit-tests"); row == nil || len(row.Runs) != 2 || row.Latest == nil || row.Latest.Seq != 3 {
		t.Errorf("01-go-unit-tests row = %+v, want 2 runs, latest seq 3", row)
	}
	if row := p.Evidence.Row("00-go-toolchain-setup"); row == nil || row.Planned {
		t.Errorf("00-go-toolchain-setup row = %+v, want an unplanned row", row)
	}

	g := Gate(p)
	if g.Ready {
		t.Error("the sample's gate is ready")
	}
	if got, want := failingChecks(g), []string{CheckAssessmentSound, CheckFindingsTriaged}; !slices.Equal(got, want) {
		t.Errorf("failing gate checks = %v, want %v", got, want)
	}

	// Every path:line a finding cites in a file of the diff lands on that very
	// line of the new side.
	anchored := 0
	for _, f := range p.Findings {
		for _, c := range f.Citations {
			if c.Line == 0 || (p.Diff.FileIndex(c.Target) < 0 && c.Kind != packet.CiteDiff && c.Kind != packet.CiteDiffFile) {
				continue
			}
			if c.Kind != packet.CiteDiff {
				t.Errorf("%s cites %s: kind %s, want diff", f.ID, c.Text, c.Kind)
				continue
			}
			if got := packettest.AnchoredNewLine(p, c); got != c.Line {
				t.Errorf("%s cites %s: anchored to new line %d, want %d", f.ID, c.Text, got, c.Line)
			}
			anchored++
		}
	}
	if anchored < 15 {
		t.Errorf("only %d finding citations anchored into the diff; the sample has more", anchored)
	}
	for _, c := range p.AllCitations() {
		if c.Kind == packet.CiteUnresolved && c.Text != "compute-env.md:41" {
			t.Errorf("%s:%d: %s unresolved: %s", c.SourceFile, c.SourceLine, c.Text, c.Note)
		}
	}
}

func TestLoadSampleExpectations(t *testing.T) {
	for _, opts := range []packet.Options{{}, {DeferLogIndex: true}} {
		t.Run(fmt.Sprintf("defer=%v", opts.DeferLogIndex), func(t *testing.T) {
			p := packet.LoadSample(opts)
			defer p.Close()
			if opts.DeferLogIndex {
				for _, l := range p.Logs {
					if err := l.Index(context.Background(), nil); err != nil {
						t.Fatal(err)
					}
				}
				p.Reresolve()
			}
			checkSample(t, p)
		})
	}
}
