//go:build unix

package tui

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/packet"
)

// runAll runs a command and every command of its batches to completion and
// returns their messages.
func runAll(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch m := cmd().(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range m {
			out = append(out, runAll(c)...)
		}
		return out
	default:
		return []tea.Msg{m}
	}
}

// updateNow calls Update, failing the test when it does not return: Update
// that waited for the lock would never return while the test holds it.
func updateNow(t *testing.T, r *Workbench, msg tea.Msg) tea.Cmd {
	t.Helper()
	got := make(chan tea.Cmd, 1)
	go func() {
		_, cmd := r.Update(msg)
		got <- cmd
	}()
	select {
	case cmd := <-got:
		return cmd
	case <-time.After(10 * time.Second):
		t.Fatalf("Update(%v) blocked while another vetter holds the store's lock", msg)
		return nil
	}
}

// Another vetter saving holds the store folder's lock; triage and a gate
// decision made meanwhile leave Update free (the screen keeps drawing) and
// are saved once the lock is released.
func TestStoreLockDoesNotFreezeUpdate(t *testing.T) {
	screentest.InBubble(t, testStoreLockDoesNotFreezeUpdate)
}

func testStoreLockDoesNotFreezeUpdate(t *testing.T) {
	r, _ := newTriageRoot(t)
	dir := filepath.Dir(r.ctx.Store.Where())
	lock, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	// The lock the store takes (packet's lockDir): flock on the folder.
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	locked := true
	defer func() {
		if locked {
			syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
		}
	}()

	pressKeys(r, "4") // the findings screen
	save := updateNow(t, r, screentest.KeyMsg("a"))
	if save == nil {
		t.Fatal("accepting a finding returned no command")
	}
	pressKeys(r, "7", "H") // opens the note prompt; nothing is saved yet
	if r.prompt == nil {
		t.Fatal("H did not ask for a note")
	}
	decide := updateNow(t, r, screentest.KeyMsg("enter"))
	if decide == nil {
		t.Fatal("a hold returned no command")
	}
	_ = r.View() // and the screen still draws

	done := make(chan []tea.Msg, 1)
	go func() { done <- append(runAll(save), runAll(decide)...) }()
	select {
	case <-done:
		t.Fatal("the save finished while another vetter held the lock")
	default:
	}
	if _, err := os.Stat(r.ctx.Store.Where()); !os.IsNotExist(err) {
		t.Fatalf("triage.json was written under another vetter's lock: %v", err)
	}
	syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	locked = false

	var msgs []tea.Msg
	select {
	case msgs = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the save did not finish after the lock was released")
	}
	saved := 0
	for _, m := range msgs {
		if _, ok := m.(TriageSavedMsg); ok {
			saved++
		}
		drive(r, updateNow(t, r, m))
	}
	if saved != 2 {
		t.Fatalf("%d saves came back, want 2: %#v", saved, msgs)
	}
	p := r.ctx.Packet
	if state, _, _ := review.TriageOf(p, p.Finding("review.md#1")); state != packet.TriageAccepted {
		t.Errorf("#1 = %s after the save, want accepted", state)
	}
	if g := p.Triage.Gate; g == nil || g.Decision != review.DecisionHold {
		t.Errorf("gate decision after the save: %+v", g)
	}
	if !strings.HasPrefix(r.status, "recorded hold for") {
		t.Errorf("the status does not confirm the decision: %q", r.status)
	}
}
