package tui

import (
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

// previewApp opens the sample's second log as a preview, the way
// vetter --open validation/logs/LOG:3 DIR does, with complete as the load
// behind it.
func previewApp(t *testing.T, complete func(dir string, reuse map[string]*packet.Log) (*packet.Packet, error)) (*App, string, *packet.Log) {
	t.Helper()
	dir := sampleCopy(t, "pkt")
	full := loadCopy(t, dir)
	name := full.Logs[1].Path
	full.Close()
	pv, err := packet.OpenLogPreview(dir, name)
	if err != nil {
		t.Fatal(err)
	}
	opts := testAppOpts(t)
	opts.Start = &common.Target{Screen: common.ScreenLogs, Path: name, Line: 3, File: -1, Hunk: -1, DiffLine: -1}
	opts.Complete = func(reuse map[string]*packet.Log) (*packet.Packet, error) { return complete(dir, reuse) }
	a := NewApp(pv, opts)
	t.Cleanup(a.Close)
	a.Presize(120, 30)
	return a, name, pv.Logs[0]
}

// The preview draws the cited log line before the packet is read; keys typed
// meanwhile wait, and act once the packet is there, on the same log object.
func TestPreviewThenPacket(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		a, name, l := previewApp(t, func(dir string, reuse map[string]*packet.Log) (*packet.Packet, error) {
			o := testAppOpts(t).Load
			o.Reuse = reuse
			return packet.Load(dir, o)
		})
		first := ansi.Strip(a.Render())
		if !strings.Contains(first, "Logs") || !strings.Contains(first, filepath.Base(name)) || !strings.Contains(first, "line 3/") {
			t.Fatalf("the preview's first screen:\n%s", first)
		}
		// "1" would go to the overview: while the packet loads it waits.
		if _, cmd := a.Update(screentest.KeyMsg("1")); cmd != nil || a.Workbench().Active() != common.ScreenLogs {
			t.Fatalf("a key acted on the preview (active %v)", a.Workbench().Active())
		}
		drive(a, a.Init())
		p := a.Workbench().Context().Packet
		if p.Partial || len(p.Findings) == 0 || p.Log(name) != l {
			t.Fatalf("after loading: partial %v, %d findings, same log %v", p.Partial, len(p.Findings), p.Log(name) == l)
		}
		if a.Workbench().Active() != common.ScreenOverview {
			t.Errorf("the key typed during the preview was not played: active %v", a.Workbench().Active())
		}
		pressKeys(a, "6")
		if got := ansi.Strip(a.Render()); !strings.Contains(got, "line 3/") {
			t.Errorf("the log lost its place across the load:\n%s", got)
		}
	})
}

// When the packet behind a preview cannot be read, the program ends with
// the reason.
func TestPreviewLoadFails(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		boom := errors.New("boom")
		a, _, _ := previewApp(t, func(string, map[string]*packet.Log) (*packet.Packet, error) { return nil, boom })
		msg := a.completeCmd()()
		_, cmd := a.Update(msg)
		if !errors.Is(a.Err(), boom) {
			t.Fatalf("Err() = %v", a.Err())
		}
		if _, quit := cmd().(tea.QuitMsg); !quit {
			t.Error("a failed load should end the program")
		}
	})
}

// A findings preview draws the finding with its citations pending ("…", not
// "unresolved"), and resolves them once the packet is read.
func TestFindingsPreviewThenPacket(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		dir := sampleCopy(t, "pkt")
		pv, err := packet.OpenFindingsPreview(dir)
		if err != nil {
			t.Fatal(err)
		}
		opts := testAppOpts(t)
		opts.Start = &common.Target{Screen: common.ScreenFindings, Finding: "review.md#2", File: -1, Hunk: -1, DiffLine: -1}
		opts.Complete = func(reuse map[string]*packet.Log) (*packet.Packet, error) {
			o := testAppOpts(t).Load
			o.Reuse = reuse
			return packet.Load(dir, o)
		}
		a := NewApp(pv, opts)
		t.Cleanup(a.Close)
		a.Presize(160, 40)
		first := ansi.Strip(a.Render())
		if !strings.Contains(first, "Finding 2") || !regexp.MustCompile(`internal/upload/client\.go:91 +→ …`).MatchString(first) {
			t.Fatalf("the preview's first screen:\n%s", first)
		}
		if strings.Contains(first, "unresolved") {
			t.Errorf("the preview calls pending citations unresolved:\n%s", first)
		}
		drive(a, a.Init())
		after := ansi.Strip(a.Render())
		if a.Workbench().Context().Packet.Partial || !strings.Contains(after, "Finding 2") || !regexp.MustCompile(`internal/upload/client\.go:91 +→ diff internal/upload/client\.go:91`).MatchString(after) {
			t.Errorf("after loading:\n%s", after)
		}
	})
}

// A packet read but for its diff opens on the walk, which says the diff is
// still being read rather than holding packet-valid; a key typed meanwhile
// waits, and acts once the packet is there, whose gate then says what the
// diff held.
func TestDiffPendingPreviewThenPacket(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		dir := sampleCopy(t, "pkt")
		opts := testAppOpts(t)
		pv, err := packet.OpenPreview(dir, opts.Load)
		if err != nil {
			t.Fatal(err)
		}
		opts.Start = &common.Target{Screen: common.ScreenWalk, File: -1, Hunk: -1, DiffLine: -1}
		opts.Complete = func(reuse map[string]*packet.Log) (*packet.Packet, error) {
			o := testAppOpts(t).Load
			o.Reuse = reuse
			return packet.Load(dir, o)
		}
		a := NewApp(pv, opts)
		t.Cleanup(a.Close)
		a.Presize(160, 40)
		first := ansi.Strip(a.Render())
		if !strings.Contains(first, "Verdict") || !strings.Contains(first, "packet-valid waits for change.diff, still being read") {
			t.Fatalf("the preview's first screen:\n%s", first)
		}
		if _, cmd := a.Update(screentest.KeyMsg("3")); cmd != nil || a.Workbench().Active() != common.ScreenWalk {
			t.Fatalf("a key acted on the preview (active %v)", a.Workbench().Active())
		}
		drive(a, a.Init())
		p := a.Workbench().Context().Packet
		if p.Partial || p.DiffPending || p.Diff == nil {
			t.Fatalf("after loading: partial %v, diff pending %v, diff %v", p.Partial, p.DiffPending, p.Diff != nil)
		}
		if a.Workbench().Active() != common.ScreenDiff {
			t.Errorf("the key typed during the preview was not played: active %v", a.Workbench().Active())
		}
		pressKeys(a, "W")
		if got := ansi.Strip(a.Render()); strings.Contains(got, "waits for change.diff") || !strings.Contains(got, "not ready: assessment-sound") {
			t.Errorf("the walk after loading:\n%s", got)
		}
	})
}
