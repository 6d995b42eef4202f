package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/screens/inbox"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

// loop drives an App with the driver (driver_test.go), counting messages
// by type name and noting a quit.
type loop struct {
	*driver
	t testing.TB
	a *App
}

func newLoop(t testing.TB, a *App) *loop {
	t.Helper()
	t.Cleanup(a.Close)
	d := newDriver(func(m tea.Msg) tea.Cmd {
		_, cmd := a.Update(m)
		return cmd
	})
	return &loop{driver: d, t: t, a: a}
}

// press sends keys one by one, each followed by everything it leads to.
func (l *loop) press(keys ...string) {
	for _, k := range keys {
		l.send(screentest.KeyMsg(k))
		l.settle()
	}
}

// realWait bounds a wait in real time only so that an event that never comes
// fails the test rather than hanging it: the file watcher's events come
// through the kernel, and a machine loaded with other work (or the race
// detector) can delay them by seconds, so the bound is no guess at speed.
const realWait = 2 * time.Minute

// until settles and fails the test unless cond then holds. In real time (a
// watch) it delivers messages until cond holds, within realWait.
func (l *loop) until(what string, cond func() bool) {
	l.t.Helper()
	if !l.real {
		l.settle()
		if !cond() {
			l.t.Fatalf("idle, and still not %s", what)
		}
		return
	}
	deadline := time.After(realWait)
	for !cond() {
		select {
		case m := <-l.msgs:
			l.send(m)
		case <-deadline:
			l.t.Fatalf("timed out after %v waiting for %s", realWait, what)
		}
	}
}

// ---- test packets ----------------------------------------------------------

const sampleHead = "1bb1c70f4285cf39d8ebaf61573f0095423d52b1"

func edit(t testing.TB, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// samplePacket writes the sample under dir/name with work-item id id.
func samplePacket(t testing.TB, dir, name, id string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := packet.WriteSample(p); err != nil {
		t.Fatal(err)
	}
	edit(t, filepath.Join(p, "plan.md"), "ACME-4812", id)
	return p
}

func makeSound(t testing.TB, p string) {
	t.Helper()
	edit(t, filepath.Join(p, "review.md"), "## Assessment: needs_changes", "## Assessment: sound")
}

// triageAll accepts every finding, and decides when decision is given.
func triageAll(t testing.TB, p, decision string) {
	t.Helper()
	pk, err := packet.Load(p, packet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pk.Close()
	s, err := review.OpenStore(pk, "")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range pk.Findings {
		ids = append(ids, f.ID)
	}
	now := time.Date(2026, 10, 15, 9, 0, 0, 0, time.UTC)
	if _, err := s.Set(ids, packet.TriageAccepted, "", "tester", now); err != nil {
		t.Fatal(err)
	}
	if decision != "" {
		if _, _, err := s.Decide(decision, "", "tester", "", now); err != nil {
			t.Fatal(err)
		}
	}
}

// makeTestInbox builds an inbox whose folder order differs from the order
// the inbox must show:
//
//	a-old-decision  ACME-10  needs_changes, held for a head that moved
//	b-decided       ACME-3   ready and decided ok-to-test for its head
//	c-needs         ACME-2   needs_changes, untriaged
//	d-broken.zip    —        not an archive: cannot be read
//	e-triage        ACME-4   sound and pass, untriaged
//	f-ready         ACME-1   sound, pass, all triaged: ready, undecided
//	notes           —        a folder that is not a packet: not shown
func makeTestInbox(t testing.TB, dir string) {
	t.Helper()
	// The reviewer's state of these packets: triageAll writes it, the inbox
	// (testAppOpts) reads it.
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	old := samplePacket(t, dir, "a-old-decision", "ACME-10")
	triageAll(t, old, review.DecisionHold)
	edit(t, filepath.Join(old, "change.md"), "**`"+sampleHead, "**`2cc2d81f4285cf39d8ebaf61573f0095423d52b2")

	dec := samplePacket(t, dir, "b-decided", "ACME-3")
	makeSound(t, dec)
	triageAll(t, dec, review.DecisionOkToTest)

	samplePacket(t, dir, "c-needs", "ACME-2")

	if err := os.WriteFile(filepath.Join(dir, "d-broken.zip"), []byte("this is not a zip"), 0o644); err != nil {
		t.Fatal(err)
	}

	tri := samplePacket(t, dir, "e-triage", "ACME-4")
	makeSound(t, tri)

	ready := samplePacket(t, dir, "f-ready", "ACME-1")
	makeSound(t, ready)
	triageAll(t, ready, "")

	if err := os.MkdirAll(filepath.Join(dir, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes", "README.md"), []byte("# notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func testAppOpts(t testing.TB) AppOptions {
	return AppOptions{Theme: "dark", StateDir: os.Getenv("XDG_STATE_HOME"), Load: packet.Options{DeferLogIndex: true, DeferAbove: packet.SmallLog}}
}

// openInbox is the inbox on dir at 120×40, driven until every row is read
// (within realWait).
func openInbox(t *testing.T, dir string) (*App, *loop, *inbox.Inbox) {
	t.Helper()
	a := NewInboxApp(dir, testAppOpts(t))
	l := newLoop(t, a)
	l.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	l.run(a.Init())
	l.until("every row", a.Inbox().Done)
	return a, l, a.Inbox()
}

func rowNames(in *inbox.Inbox) []string {
	var out []string
	for _, r := range in.Rows() {
		out = append(out, r.Name)
	}
	return out
}

// ---- tests -----------------------------------------------------------------

func TestIsInboxDir(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		dir := t.TempDir()
		if review.IsInboxDir(dir) {
			t.Error("an empty folder is not an inbox")
		}
		samplePacket(t, dir, "one", "ACME-1")
		if !review.IsInboxDir(dir) {
			t.Error("a folder holding a packet is an inbox")
		}
		if review.IsInboxDir(filepath.Join(dir, "one")) {
			t.Error("a packet is not an inbox")
		}
		arch := t.TempDir()
		os.WriteFile(filepath.Join(arch, "x.tar.gz"), []byte("x"), 0o644)
		if !review.IsInboxDir(arch) {
			t.Error("a folder holding an archive is an inbox")
		}
	})
}

func TestInboxOrderAndBackgroundFill(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		wd, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		t.Chdir(t.TempDir()) // relative paths keep the golden screen the same on every machine
		makeTestInbox(t, "inbox")
		a := NewInboxApp("inbox", testAppOpts(t))
		l := newLoop(t, a)
		l.send(tea.WindowSizeMsg{Width: 120, Height: 40})

		// The first frame comes before any packet is read: every candidate is a
		// placeholder in folder order.
		in := a.Inbox()
		if read, total := in.Progress(); read != 0 || total != 7 {
			t.Fatalf("progress before reading: %d/%d", read, total)
		}
		first := ansi.Strip(a.Render())
		screentest.CheckSize(t, a.Render(), 120, 40)
		if !strings.Contains(first, "reading… 0/7") {
			t.Errorf("first frame should show the progress:\n%s", first)
		}
		for _, name := range []string{"a-old-decision", "d-broken.zip", "notes"} {
			if !strings.Contains(first, name+" · reading…") {
				t.Errorf("first frame should show a placeholder for %s:\n%s", name, first)
			}
		}
		wantListing := []string{"a-old-decision", "b-decided", "c-needs", "d-broken.zip", "e-triage", "f-ready", "notes"}
		if got := rowNames(in); strings.Join(got, " ") != strings.Join(wantListing, " ") {
			t.Errorf("placeholders %v, want folder order %v", got, wantListing)
		}

		// Rows arrive one message at a time, each starting the next read.
		l.run(a.Init())
		l.until("the first row", func() bool { r, _ := in.Progress(); return r >= 1 })
		if r, _ := in.Progress(); r < 7 {
			if s := ansi.Strip(a.Render()); !strings.Contains(s, "reading…") {
				t.Errorf("a partly read inbox shows no placeholder:\n%s", s)
			}
		}
		l.until("every row", in.Done)

		want := []string{"f-ready", "e-triage", "c-needs", "a-old-decision", "b-decided", "d-broken.zip"}
		if got := rowNames(in); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("order %v, want %v", got, want)
		}
		groups := []int{inbox.GroupReady, inbox.GroupTriage, inbox.GroupNeedsChanges, inbox.GroupNeedsChanges, inbox.GroupDecided, inbox.GroupUnreadable}
		for i, r := range in.Rows() {
			if r.Group() != groups[i] {
				t.Errorf("%s: group %d, want %d", r.Name, r.Group(), groups[i])
			}
		}
		dec := in.Rows()[4]
		if !dec.Decided() || dec.Decision != review.DecisionOkToTest || dec.Open != 0 || dec.Findings != 5 {
			t.Errorf("decided row: %+v", dec)
		}
		old := in.Rows()[3]
		if old.Decided() || old.Decision != review.DecisionHold {
			t.Errorf("a hold for an older head must not count as decided: %+v", old)
		}
		if s := in.Rows()[5]; s.Err == nil {
			t.Errorf("the broken archive has no error: %+v", s)
		}
		wide := a.Render()
		l.send(tea.WindowSizeMsg{Width: 80, Height: 24})
		narrow := a.Render()
		if err := os.Chdir(wd); err != nil { // the golden files are the package's
			t.Fatal(err)
		}
		screentest.CheckSize(t, wide, 120, 40)
		screentest.Golden(t, "TestInboxScreen_120x40", wide)
		screentest.CheckSize(t, narrow, 80, 24)
		screentest.Golden(t, "TestInboxScreen_80x24", narrow)
	})
}

func TestInboxFillKeepsSelection(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		dir := t.TempDir()
		makeTestInbox(t, dir)
		a := NewInboxApp(dir, testAppOpts(t))
		a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		in := a.Inbox()
		// Select the last placeholder before anything is read; as the rows
		// arrive and sort, the cursor stays on that packet.
		a.Update(screentest.KeyMsg("G"))
		if in.Selected().Name != "notes" {
			t.Fatalf("G selected %s", in.Selected().Name)
		}
		a.Update(screentest.KeyMsg("k"))
		sel := in.Selected().Name
		if sel != "f-ready" {
			t.Fatalf("k selected %s", sel)
		}
		cmd := a.Init()
		drive(a, cmd)
		if !in.Done() {
			r, n := in.Progress()
			t.Fatalf("after draining: %d/%d read", r, n)
		}
		if in.Selected().Name != sel {
			t.Errorf("selection moved to %s, want %s", in.Selected().Name, sel)
		}
	})
}

func TestInboxFilter(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		dir := t.TempDir()
		makeTestInbox(t, dir)
		a, l, in := openInbox(t, dir)

		l.press("/")
		if !in.Filtering() {
			t.Fatal("/ did not open the filter")
		}
		for _, c := range "acme-3" {
			l.press(string(c))
		}
		if got := rowNames(in); len(got) != 1 || got[0] != "b-decided" {
			t.Errorf("filter acme-3: %v", got)
		}
		if s := ansi.Strip(a.Render()); !strings.Contains(s, "filter: acme-3") {
			t.Errorf("the filter input is not shown:\n%s", s)
		}
		l.press("enter")
		if in.Filtering() || in.Filter() != "acme-3" || len(in.Rows()) != 1 {
			t.Errorf("enter should keep the filter: editing %v, filter %q, rows %d", in.Filtering(), in.Filter(), len(in.Rows()))
		}
		// q quits only when the filter input is closed; here it is closed.
		l.press("esc")
		if in.Filter() != "" || len(in.Rows()) != 6 {
			t.Errorf("esc should clear the filter: %q, %d rows", in.Filter(), len(in.Rows()))
		}
		l.press("/")
		for _, c := range "ready" {
			l.press(string(c))
		}
		// "ready" matches the ready gate and "not ready" alike; a word of a
		// decision narrows it.
		l.press("ctrl+u")
		for _, c := range "ok-to-test" {
			l.press(string(c))
		}
		if got := rowNames(in); len(got) != 1 || got[0] != "b-decided" {
			t.Errorf("filter ok-to-test: %v", got)
		}
		l.press("esc")
		if in.Filtering() || in.Filter() != "" {
			t.Errorf("esc in the input should close and clear it")
		}
	})
}

func TestInboxOpenAndBack(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		dir := t.TempDir()
		makeTestInbox(t, dir)
		a, l, in := openInbox(t, dir)

		l.press("g", "j", "j") // c-needs
		sel := in.Selected()
		if sel.Name != "c-needs" {
			t.Fatalf("selected %s", sel.Name)
		}
		l.press("enter")
		l.until("the workbench", func() bool { return a.Workbench() != nil })
		r := a.Workbench()
		if r.Context().Packet.Plan.ID != "ACME-2" {
			t.Errorf("opened %s, want ACME-2", r.Context().Packet.Plan.ID)
		}
		screentest.CheckSize(t, a.Render(), 120, 40)
		if s := ansi.Strip(a.Render()); !strings.Contains(s, "ACME-2") || !strings.Contains(s, "Overview") {
			t.Errorf("the workbench does not show the packet:\n%s", s)
		}

		// Triage a finding in the workbench: back in the inbox, its row says so.
		l.press("4", "a")
		l.until("the triage saved", func() bool {
			f := r.Context().Packet.Findings[0]
			return review.Triaged(r.Context().Packet, f)
		})

		// Backspace after a follow goes back inside the workbench first.
		l.send(common.FollowMsg{To: common.Target{Screen: common.ScreenLogs, Path: r.Context().Packet.Logs[0].Path, File: -1, Hunk: -1, DiffLine: -1}})
		l.settle()
		l.press("backspace")
		if a.Workbench() == nil || a.Workbench().Active() != common.ScreenFindings {
			t.Fatalf("backspace with history should stay in the workbench")
		}
		l.press("backspace")
		if a.Workbench() != nil {
			t.Fatal("backspace at an empty history should return to the inbox")
		}
		if in.Selected().Name != "c-needs" {
			t.Errorf("selection after returning: %s", in.Selected().Name)
		}
		l.until("the row read again", func() bool {
			for _, row := range in.Rows() {
				if row.Name == "c-needs" {
					return row.Open == 4
				}
			}
			return false
		})
		if in.Selected().Name != "c-needs" {
			t.Errorf("selection after the row was read again: %s", in.Selected().Name)
		}
		if s := ansi.Strip(a.Render()); !strings.Contains(s, "4/5") {
			t.Errorf("the row does not show the new triage:\n%s", s)
		}
		l.press("q")
		if !l.quit {
			t.Error("q in the inbox should quit")
		}
	})
}

func TestInboxEmptyAndNarrow(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		dir := t.TempDir()
		a := NewInboxApp(dir, testAppOpts(t))
		for _, sz := range [][2]int{{80, 24}, {40, 10}, {200, 60}} {
			a.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			screentest.CheckSize(t, a.Render(), sz[0], sz[1])
		}
		if s := ansi.Strip(a.Render()); !strings.Contains(s, "no packets in this folder") {
			t.Errorf("empty inbox:\n%s", s)
		}
		a.Update(screentest.KeyMsg("enter"))
		a.Update(screentest.KeyMsg("j"))
	})
}

// Two rounds of one work item in the inbox: opening the later one shows what
// changed since the earlier one, on screen 8.
func TestInboxOpensLaterRoundWithSince(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		dir := t.TempDir()
		old := filepath.Join(dir, "round1")
		if err := packet.WriteSample(old); err != nil {
			t.Fatal(err)
		}
		past := time.Now().Add(-time.Hour)
		if err := os.Chtimes(old, past, past); err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(filepath.Join(dir, "round2"), os.DirFS("../packet/testdata/rounds/round2")); err != nil {
			t.Fatal(err)
		}
		a, l, in := openInbox(t, dir)
		if !in.Select("round2") {
			t.Fatal("no round2 row")
		}
		l.press("enter")
		l.until("the workbench", func() bool { return a.Workbench() != nil })
		r := a.Workbench()
		if r.Active() != common.ScreenSince || r.Context().Since == nil {
			t.Fatalf("opened on %v with since %v", r.Active(), r.Context().Since != nil)
		}
		if s := ansi.Strip(a.Render()); !strings.Contains(s, "1bb1c70f4285 → 5e2f0c7a9d14") {
			t.Errorf("the since screen does not name the rounds:\n%s", s)
		}
	})
}
