package tui

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	docsscreen "github.com/vetter-dev/vetter/tui/screens/docs"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

// Every message of this package that a workbench's command sends says by
// its type how a reload treats it: a rule a renamed type cannot change.
func TestWorkbenchMessagesAreMarked(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		a, l, _ := openSampleCopy(t, false)
		seen := map[reflect.Type]bool{}
		update := l.update
		l.update = func(m tea.Msg) tea.Cmd {
			if rm, ok := m.(rootMsg); ok {
				seen[reflect.TypeOf(rm.msg)] = true
			}
			return update(m)
		}
		l.press("2", "3", "4", "enter", "5", "6", "/", "e", "enter", "7", "?", "?", "ctrl+p", "esc", "1", "enter")
		l.send(common.FollowMsg{To: common.Target{Screen: common.ScreenLogs, Path: a.Workbench().Context().Packet.Logs[0].Path, File: -1, Hunk: -1, DiffLine: -1}})
		l.settle()
		viewsPkg := reflect.TypeFor[common.Target]().PkgPath()
		marked := 0
		for ty := range seen {
			_, bound := reflect.Zero(ty).Interface().(common.EpochBound)
			_, routed := reflect.Zero(ty).Interface().(common.WorkbenchMsg)
			if bound || routed {
				marked++
			} else if ty.PkgPath() == viewsPkg {
				t.Errorf("%v is neither epochBound nor a workbenchMsg", ty)
			}
		}
		if marked < 2 {
			t.Errorf("only %d marked message types seen: the walk sent too little (%v)", marked, seen)
		}
	})
}

// TestAppDropsWhatOldScreensSend: after a reload, a screen's own message
// from the earlier read is dropped while the root's messages still arrive;
// after the workbench is replaced, nothing of the old one arrives; Bubble
// Tea's own messages go back to the runtime.
func TestAppDropsWhatOldScreensSend(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		a, l, _ := openSampleCopy(t, false)
		r := a.Workbench()
		l.press("2")
		docs := r.Screen(common.ScreenDocs).(*docsscreen.Docs)
		status := func() string { return ansi.Strip(a.Render()) }

		a.Update(rootMsg{epoch: a.epoch, msg: common.StatusMsg{Text: "from now"}})
		if !strings.Contains(status(), "from now") {
			t.Error("a message of the current epoch was not delivered")
		}
		earlier := a.epoch
		a.epoch++ // as a reload does
		a.Update(rootMsg{epoch: earlier, msg: common.StatusMsg{Text: "from the earlier read"}})
		if !strings.Contains(status(), "from the earlier read") {
			t.Error("a root message of an earlier read of the same workbench was dropped")
		}
		a.Update(rootMsg{epoch: earlier, msg: docs.RenderedMsg(packet.PlanFile, []string{"STALE RENDERING"})})
		stale := func() bool { return docs.HoldsRendering("STALE RENDERING") }
		if stale() {
			t.Error("a rendering from an earlier read reached the new screens")
		}
		a.rootEpoch = a.epoch // as a new workbench does
		a.Update(rootMsg{epoch: earlier, msg: common.StatusMsg{Text: "from another packet"}})
		if strings.Contains(status(), "from another packet") {
			t.Error("a message of an earlier workbench was delivered")
		}
		_, cmd := a.Update(rootMsg{epoch: earlier, msg: tea.QuitMsg{}})
		if cmd == nil {
			t.Fatal("a runtime message was swallowed")
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Error("a runtime message was not given back untagged")
		}
	})
}

func TestTagCmdBatches(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		cmd := tagCmd(7, tea.Batch(func() tea.Msg { return common.StatusMsg{Text: "a"} }, func() tea.Msg { return common.StatusMsg{Text: "b"} }))
		batch, ok := cmd().(tea.BatchMsg)
		if !ok || len(batch) != 2 {
			t.Fatalf("a batch should stay a batch of tagged commands: %#v", batch)
		}
		for _, c := range batch {
			if m, ok := c().(rootMsg); !ok || m.epoch != 7 {
				t.Errorf("untagged: %#v", m)
			}
		}
		if tagCmd(1, nil) != nil {
			t.Error("nil command")
		}
	})
}

// TestAppSinglePacketBackspace: without an inbox, backspace at an empty
// history stays in the workbench and says there is nothing to go back to.
func TestAppSinglePacketBackspace(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		a, l, _ := openSampleCopy(t, false)
		l.press("backspace")
		if a.Workbench() == nil {
			t.Fatal("backspace left the only packet")
		}
		if !strings.Contains(ansi.Strip(a.Render()), "nothing to go back to") {
			t.Errorf("status:\n%s", ansi.Strip(a.Render()))
		}
		l.press("q")
		if !l.quit {
			t.Error("q should quit the workbench")
		}
	})
}

// TestAppUnderBubbleTea runs the inbox in the real program loop: rows fill,
// enter opens the workbench (its commands pass through the epoch tags and
// back to the runtime), backspace returns, q quits.
func TestAppUnderBubbleTea(t *testing.T) {
	dir := t.TempDir()
	samplePacket(t, dir, "one", "ACME-1")
	samplePacket(t, dir, "two", "ACME-2")
	opts := testAppOpts(t)
	opts.Theme = "" // background detection goes through the tags too
	opts.Watch = true
	a := NewInboxApp(dir, opts)
	t.Cleanup(a.Close)
	tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(120, 40))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("2 packets")) },
		teatest.WithDuration(5*time.Second))
	tm.Send(screentest.KeyMsg("enter"))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("Overview")) },
		teatest.WithDuration(5*time.Second))
	tm.Send(screentest.KeyMsg("backspace"))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("enter open")) },
		teatest.WithDuration(5*time.Second))
	tm.Send(screentest.KeyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	final := tm.FinalModel(t).(*App)
	if final.Workbench() != nil || final.Inbox().Selected().ID != "ACME-1" {
		t.Errorf("final: root %v, selected %+v", final.Workbench(), final.Inbox().Selected())
	}
}

// Presize lays the workbench out before the program runs: its first View
// is the screen itself, not the empty frame drawn before Bubble Tea reports
// the size, and what the resize asked for still runs, from Init.
func TestAppPresize(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		p := packet.LoadSample(packet.Options{})
		t.Cleanup(func() { p.Close() })
		a := NewApp(p, testAppOpts(t))
		t.Cleanup(a.Close)
		if got := ansi.Strip(a.Render()); strings.Contains(got, "Overview") {
			t.Fatalf("unsized workbench drew its screen:\n%s", got)
		}
		a.Presize(100, 30)
		got := ansi.Strip(a.Render())
		if !strings.Contains(got, "1 Overview") || !strings.Contains(got, "ACME-4812") {
			t.Fatalf("presized first view:\n%s", got)
		}
		if lines := strings.Count(got, "\n") + 1; lines != 30 {
			t.Errorf("presized view is %d lines, want 30", lines)
		}
		if a.presized == nil {
			t.Fatal("the resize's commands were dropped")
		}
		drive(a, a.Init())
		if got2 := ansi.Strip(a.Render()); !strings.Contains(got2, "ACME-4812") {
			t.Errorf("after Init:\n%s", got2)
		}
	})
}

// HoldBackground holds what Init starts (the resize's commands, every
// screen's background work, the watch) until the hold is over, and then
// starts all of it; without a hold it starts at once.
func TestAppHoldBackground(t *testing.T) {
	for _, hold := range []time.Duration{0, 17 * time.Millisecond} {
		screentest.InBubble(t, func(t *testing.T) {
			p := packet.LoadSample(packet.Options{})
			t.Cleanup(func() { p.Close() })
			a := NewApp(p, testAppOpts(t))
			t.Cleanup(a.Close)
			a.Presize(100, 30)
			a.HoldBackground(hold)
			start := time.Now()
			msg := a.Init()()
			if waited := time.Since(start); waited != hold {
				t.Errorf("hold %v: Init's work started after %v", hold, waited)
			}
			if _, ok := msg.(tea.BatchMsg); !ok {
				t.Fatalf("hold %v: Init's command gave %T, not the batch of its work", hold, msg)
			}
			drive(a, func() tea.Msg { return msg })
			if got := ansi.Strip(a.Render()); !strings.Contains(got, "ACME-4812") {
				t.Errorf("hold %v: after Init's work:\n%s", hold, got)
			}
		})
	}
}
