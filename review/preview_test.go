package review

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/internal/packettest"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/packet/source"
)

// A preview opens one log of a packet folder and nothing else; Load with
// Reuse takes that very log over, its index included.
func TestOpenLogPreviewThenLoad(t *testing.T) {
	dir := packettest.SampleDir(t, "pkt")
	full, err := packet.Load(dir, packet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	name := full.Logs[0].Path
	wantLines := full.Logs[0].LineCount()
	full.Close()

	pv, err := packet.OpenLogPreview(dir, "./"+name)
	if err != nil {
		t.Fatal(err)
	}
	if !pv.Partial || len(pv.Logs) != 1 || pv.Logs[0].Path != name || len(pv.Docs) != 0 || pv.Diff != nil {
		t.Fatalf("preview: partial %v, logs %d (%v), docs %d, diff %v", pv.Partial, len(pv.Logs), pv.Logs, len(pv.Docs), pv.Diff)
	}
	l := pv.Logs[0]
	if err := l.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	p, err := packet.Load(dir, packet.Options{DeferLogIndex: true, Reuse: map[string]*packet.Log{name: l}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.Partial {
		t.Error("the loaded packet is marked partial")
	}
	if got := p.Log(name); got != l {
		t.Fatalf("Load opened %s again instead of taking the preview's log", name)
	}
	if !l.Indexed() || l.LineCount() != wantLines {
		t.Errorf("reused log: indexed %v, %d lines, want %d", l.Indexed(), l.LineCount(), wantLines)
	}
	if len(p.Logs) != len(full.Logs) || len(p.Findings) == 0 {
		t.Errorf("loaded %d logs (want %d), %d findings", len(p.Logs), len(full.Logs), len(p.Findings))
	}
	// The preview hands its log over: closing what is left of it must not
	// close the log.
	pv.Logs = nil
	pv.Close()
	if _, err := l.ReadLines(1, 1); err != nil {
		t.Errorf("the log was closed with the preview: %v", err)
	}
}

func TestOpenLogPreviewRefuses(t *testing.T) {
	dir := packettest.SampleDir(t, "pkt")
	notPacket := t.TempDir()
	if err := os.MkdirAll(filepath.Join(notPacket, "validation", "logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(notPacket, "validation", "logs", "a.log"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := packet.OpenLogPreview(notPacket, "validation/logs/a.log"); !errors.Is(err, source.ErrNotAPacket) {
		t.Errorf("a folder with a log and no packet file: %v, want ErrNotAPacket", err)
	}
	for _, name := range []string{"../outside.log", "/etc/passwd", "validation/logs/none.log"} {
		if p, err := packet.OpenLogPreview(dir, name); err == nil {
			p.Close()
			t.Errorf("OpenLogPreview(%q) succeeded", name)
		}
	}
	zip := filepath.Join(t.TempDir(), "p.zip")
	if err := os.WriteFile(zip, []byte("PK\x05\x06"+string(make([]byte, 18))), 0o644); err == nil {
		if p, err := packet.OpenLogPreview(zip, "validation/logs/a.log"); err == nil {
			p.Close()
			t.Error("OpenLogPreview opened an archive")
		}
	}
}

// A findings preview reads review.md's findings and the triage, as Load
// does, with the citations found but not resolved.
func TestOpenFindingsPreview(t *testing.T) {
	dir := packettest.SampleDir(t, "pkt")
	full, err := packet.Load(dir, packet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	st := openStoreIn(t, full, packettest.State(t))
	if _, err := st.Set([]string{full.Findings[1].ID}, packet.TriageAccepted, "yes", "t", time.Now()); err != nil {
		t.Fatal(err)
	}
	pv, err := packet.OpenFindingsPreview(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer pv.Close()
	if !pv.Partial || pv.Diff != nil || len(pv.Logs) != 0 {
		t.Fatalf("preview: partial %v, diff %v, %d logs", pv.Partial, pv.Diff != nil, len(pv.Logs))
	}
	if len(pv.Findings) != len(full.Findings) || pv.Assessment.Value != full.Assessment.Value {
		t.Fatalf("preview: %d findings, assessment %q; load: %d, %q", len(pv.Findings), pv.Assessment.Value, len(full.Findings), full.Assessment.Value)
	}
	for i, f := range pv.Findings {
		g := full.Findings[i]
		if f.ID != g.ID || f.Claim != g.Claim || f.Severity != g.Severity || len(f.Citations) != len(g.Citations) {
			t.Errorf("finding %d: preview %+v, load %+v", i, f, g)
		}
		for _, c := range f.Citations {
			if c.Resolved {
				t.Errorf("%s: citation %s resolved without the packet", f.ID, c.Text)
			}
		}
	}
	// The workbench opens the work item's store on the preview, before the
	// packet is read: plan.md and change.md name the work item.
	if _, err := OpenStore(pv, packettest.State(t)); err != nil {
		t.Fatal(err)
	}
	if pv.History != nil {
		t.Error("a preview recorded a round: it has not read the registry")
	}
	if state, _, _ := TriageOf(pv, pv.Findings[1]); state != packet.TriageAccepted {
		t.Errorf("the preview reads %s's triage as %q", pv.Findings[1].ID, state)
	}
}

// A preview of all but the diff and the citations reads what Load reads of
// the documents, findings, registry and logs, and its gate holds nothing it
// has not read:
// packet-valid waits for the diff, while the checks that read no diff say
// what Load's gate says.
func TestOpenPreviewAllButTheDiff(t *testing.T) {
	dir := packettest.SampleDir(t, "pkt")
	o := packet.Options{DeferLogIndex: true, DeferAbove: packet.SmallLog}
	full, err := packet.Load(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	pv, err := packet.OpenPreview(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	defer pv.Close()
	if !pv.Partial || !pv.DiffPending || pv.Diff != nil {
		t.Fatalf("preview: partial %v, diff pending %v, diff %v", pv.Partial, pv.DiffPending, pv.Diff != nil)
	}
	if len(pv.Docs) != len(full.Docs) || len(pv.Findings) != len(full.Findings) || len(pv.Logs) != len(full.Logs) ||
		len(pv.Registry.Runs) != len(full.Registry.Runs) || pv.Evidence.Total != full.Evidence.Total {
		t.Fatalf("preview: %d docs, %d findings, %d logs, %d runs, %d recipes; load: %d, %d, %d, %d, %d",
			len(pv.Docs), len(pv.Findings), len(pv.Logs), len(pv.Registry.Runs), pv.Evidence.Total,
			len(full.Docs), len(full.Findings), len(full.Logs), len(full.Registry.Runs), full.Evidence.Total)
	}
	for i, d := range pv.Docs {
		if d.Path != full.Docs[i].Path || len(d.Lines) != len(full.Docs[i].Lines) || len(d.Citations) != 0 {
			t.Errorf("document %s: %d lines, %d citations; load %s: %d lines", d.Path, len(d.Lines), len(d.Citations), full.Docs[i].Path, len(full.Docs[i].Lines))
		}
	}
	for i, f := range pv.Findings {
		if g := full.Findings[i]; f.ID != g.ID || f.Claim != g.Claim || f.Location != g.Location || packet.Fingerprint(f) != packet.Fingerprint(g) || len(f.Citations) != 0 {
			t.Errorf("finding %d: preview %+v, load %+v", i, f, g)
		}
	}
	pg, fg := Gate(pv), Gate(full)
	if pg.Ready || !NotReadyWhatever(pg) {
		t.Errorf("preview gate: ready %v, not ready whatever the diff holds %v", pg.Ready, NotReadyWhatever(pg))
	}
	if len(pg.Checks) != len(fg.Checks) {
		t.Fatalf("preview gate has %d checks, load's %d", len(pg.Checks), len(fg.Checks))
	}
	for i, c := range pg.Checks {
		switch c.Name {
		case CheckPacketValid:
			if c.OK || !c.Pending || c.Mark() == "✓" || c.Detail != packet.DiffNotReadYet {
				t.Errorf("preview's packet-valid = %+v (mark %s), want pending, not ok", c, c.Mark())
			}
		case CheckAttentionReviewed:
			// The preview has not read the diff, so nothing of it was
			// looked at: "?" (could not tell yet), never "✓".
			if c.Mark() != "?" || c.Detail != "scanning the diff" {
				t.Errorf("preview's attention-reviewed = %+v (mark %s), want ? scanning the diff", c, c.Mark())
			}
		default:
			if f := fg.Checks[i]; c.OK != f.OK || c.Pending || c.Detail != f.Detail {
				t.Errorf("preview's %s = %+v, load's %+v", c.Name, c, f)
			}
		}
	}
}

// The gate is not ready whatever its pending checks find only when a check
// that waits for nothing fails; informational checks do not count.
func TestNotReadyWhatever(t *testing.T) {
	pending := packet.GateCheck{Name: CheckPacketValid, Pending: true}
	info := packet.GateCheck{Name: CheckAttentionReviewed, Info: true}
	ok := packet.GateCheck{Name: CheckVerdictPass, OK: true}
	fails := packet.GateCheck{Name: CheckAssessmentSound}
	for _, c := range []struct {
		checks []packet.GateCheck
		want   bool
	}{
		{[]packet.GateCheck{ok, pending, info}, false},
		{[]packet.GateCheck{ok, info}, false},
		{[]packet.GateCheck{ok, pending, fails}, true},
		{[]packet.GateCheck{fails}, true},
	} {
		if got := NotReadyWhatever(packet.Gate{Checks: c.checks}); got != c.want {
			t.Errorf("NotReadyWhatever(%+v) = %v, want %v", c.checks, got, c.want)
		}
	}
}
