package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/fsnotify/fsnotify"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/tui/screens/findings"
)

// openSampleCopy writes the sample to a folder and opens it in an App.
func openSampleCopy(t *testing.T, watch bool) (*App, *loop, string) {
	t.Helper()
	dir := sampleCopy(t, "pkt")
	opts := testAppOpts(t)
	opts.Watch = watch
	opts.WatchDebounce = 100 * time.Millisecond
	p, err := packet.Load(dir, opts.Load)
	if err != nil {
		t.Fatal(err)
	}
	a := NewApp(p, opts)
	l := newLoop(t, a)
	l.real = watch // fsnotify cannot run in a bubble
	l.run(a.Init())
	l.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	l.settle()
	return a, l, dir
}

const claim2 = "Off by one: `attempt >= c.policy.MaxRetries-1` makes"

func TestReloadKeepsPlaceAndTriage(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		a, l, dir := openSampleCopy(t, false)
		r := a.Workbench()
		ctx := r.Context()
		if _, err := ctx.Store.Set([]string{"review.md#2", "review.md#4"}, packet.TriageAccepted, "", "tester", time.Now()); err != nil {
			t.Fatal(err)
		}
		// The workbench's store is detached: Update publishes what it saved.
		ctx.Store.Publish()
		l.press("4", "j", "j") // findings, on #3
		f := r.Screen(common.ScreenFindings).(*findings.Findings)
		if f.Selected().ID != "review.md#3" {
			t.Fatalf("selected %s", f.Selected().ID)
		}
		// Something to go back to, to see history survive.
		l.send(common.FollowMsg{To: common.Target{Screen: common.ScreenDocs, Path: packet.ReviewFile, Line: 5, File: -1, Hunk: -1, DiffLine: -1}})
		l.settle()
		l.press("backspace")
		if r.Active() != common.ScreenFindings {
			t.Fatalf("back: active %v", r.Active())
		}
		l.send(common.FollowMsg{To: common.Target{Screen: common.ScreenDocs, Path: packet.ReviewFile, Line: 5, File: -1, Hunk: -1, DiffLine: -1}})
		l.settle()
		l.press("backspace")
		hereBefore := r.Screen(common.ScreenFindings).Here()
		l.send(common.FollowMsg{To: hereBefore}) // one history entry: back to the same place
		l.settle()
		histBefore := r.History()

		edit(t, filepath.Join(dir, packet.ReviewFile), claim2, "Off by two: `attempt >= c.policy.MaxRetries-1` makes")
		old := ctx.Packet
		l.run(a.reloadCmd())
		l.until("the reload", func() bool { return ctx.Packet != old })
		l.settle()

		if r.Active() != common.ScreenFindings {
			t.Errorf("active after reload: %v", r.Active())
		}
		nf := r.Screen(common.ScreenFindings).(*findings.Findings)
		if nf == f {
			t.Fatal("the findings screen was not rebuilt")
		}
		if nf.Selected().ID != "review.md#3" {
			t.Errorf("selected after reload: %s", nf.Selected().ID)
		}
		if got := nf.Here(); got != hereBefore {
			t.Errorf("place after reload %+v, want %+v", got, hereBefore)
		}
		if r.History() != histBefore {
			t.Errorf("history %d after reload, want %d", r.History(), histBefore)
		}
		p := ctx.Packet
		if _, stale, _ := review.TriageOf(p, p.Finding("review.md#2")); !stale {
			t.Error("#2 changed: its decision should be stale")
		}
		if state, stale, _ := review.TriageOf(p, p.Finding("review.md#4")); stale || state != packet.TriageAccepted {
			t.Errorf("#4 did not change: %s stale=%v", state, stale)
		}
		if ctx.Store == nil {
			t.Fatal("no store after reload")
		}
		// The new store saves against the new packet.
		if _, err := ctx.Store.Set([]string{"review.md#2"}, packet.TriageAccepted, "", "tester", time.Now()); err != nil {
			t.Fatal(err)
		}
		ctx.Store.Publish()
		if _, stale, _ := review.TriageOf(p, p.Finding("review.md#2")); stale {
			t.Error("confirming #2 again should clear stale")
		}
		s := ansi.Strip(a.Render())
		if !strings.Contains(s, "reloaded: review.md changed · 1 triaged finding now stale") {
			t.Errorf("status does not say what changed:\n%s", s)
		}
		screentest.CheckSize(t, a.Render(), 120, 40)
	})
}

func TestReloadNothingChangedKeepsScreens(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		a, l, _ := openSampleCopy(t, false)
		r := a.Workbench()
		before := r.Screen(common.ScreenOverview)
		old := r.Context().Packet
		l.run(a.reloadCmd())
		l.until("the reload message", func() bool { return l.count("appReloadedMsg") == 1 })
		if r.Context().Packet != old || r.Screen(common.ScreenOverview) != before {
			t.Error("a reload that found nothing new rebuilt the screens")
		}
	})
}

// TestWatchBurstReloadsOnce writes review.md ten times at once with a
// real watcher: one reload follows, and the files vetter writes itself
// (triage.json, the writability probe of the new store) cause none.
func TestWatchBurstReloadsOnce(t *testing.T) {
	a, l, dir := openSampleCopy(t, true)
	if a.watch == nil {
		t.Fatal("a folder packet is not watched")
	}
	review := filepath.Join(dir, packet.ReviewFile)
	orig, err := os.ReadFile(review)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for i := range 10 {
		text := strings.Replace(string(orig), claim2, "Off by "+strings.Repeat("x", i+1), 1)
		if err := os.WriteFile(review, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A machine too loaded to write ten small files within the quiet period
	// has split the burst itself, and two reloads are then right: the count
	// is checked only for a burst that was one (TestWatcherDebounceBurst
	// checks the debounce itself in fake time).
	oneBurst := time.Since(start) < WatchQuiet
	l.until("a reload", func() bool { return l.count("appReloadedMsg") >= 1 })
	// Well past the quiet period: no second reload, even though the new
	// store probed the folder.
	l.settle()
	reloads := l.count("appReloadedMsg")
	if n := reloads; n != 1 && oneBurst {
		t.Errorf("%d reloads for one burst, want 1", n)
	}
	if !strings.Contains(ansi.Strip(a.Render()), "reloaded: review.md changed") {
		t.Errorf("status after the burst:\n%s", ansi.Strip(a.Render()))
	}
	// Triage is saved in the reviewer's state, never in the packet: no
	// file appears there and nothing reloads.
	l.press("4", "a")
	l.settle()
	if _, err := os.Stat(filepath.Join(dir, packet.TriageFile)); err == nil {
		t.Fatal("triage was saved in the packet")
	}
	if n := l.count("appReloadedMsg"); n != reloads {
		t.Errorf("saving triage caused a reload (%d reloads, %d before)", n, reloads)
	}
}

// The debounce, in fake time: a burst of writes spread over 36 ms fires
// once, 80 ms after its last write, and vetter's own files fire nothing.
func TestWatcherDebounceBurst(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		dir := t.TempDir()
		w := &Watcher{dir: dir, quiet: 80 * time.Millisecond, fired: make(chan struct{}, 1), done: make(chan struct{})}
		events := make(chan fsnotify.Event)
		go w.loop(events, nil)
		defer w.Close()
		fired := func() bool {
			synctest.Wait()
			select {
			case <-w.Fired():
				return true
			default:
				return false
			}
		}
		review := filepath.Join(dir, packet.ReviewFile)
		for i := range 10 {
			events <- fsnotify.Event{Name: review, Op: fsnotify.Write}
			time.Sleep(4 * time.Millisecond) // fake time: the burst's pace
			if i < 9 && fired() {
				t.Fatalf("fired during the burst, after write %d", i+1)
			}
		}
		time.Sleep(75 * time.Millisecond) // 79 ms after the last write
		if fired() {
			t.Fatal("fired before the quiet period after the last write ended")
		}
		time.Sleep(2 * time.Millisecond) // 81 ms
		if !fired() {
			t.Fatal("no change reported after the quiet period")
		}
		time.Sleep(time.Second)
		if fired() {
			t.Fatal("a second change reported for one burst")
		}
		events <- fsnotify.Event{Name: review, Op: fsnotify.Chmod}
		time.Sleep(time.Second)
		if fired() {
			t.Fatal("a change of mode was reported")
		}
		// vetter writes nothing into a packet, so a triage.json appearing
		// there is a change like any other: the reload reports it as the
		// packet speaking for the reviewer (packet-ships-decisions).
		events <- fsnotify.Event{Name: filepath.Join(dir, packet.TriageFile), Op: fsnotify.Create}
		time.Sleep(time.Second)
		if !fired() {
			t.Fatal("a triage.json appearing in the packet was not reported")
		}
	})
}

// The real watch, on a real folder: a write is reported, and
// validation/logs created after the watch began is followed.
func TestWatcherDebounce(t *testing.T) {
	dir := t.TempDir()
	w, err := NewWatcher(dir, 80*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	os.WriteFile(filepath.Join(dir, "review.md"), []byte("x"), 0o644)
	select {
	case <-w.Fired():
	case <-time.After(3 * time.Second):
		t.Fatal("no change reported")
	}
	// validation/logs created later is watched. (What is not reported is
	// TestWatcherDebounceBurst's, in fake time: here a late event of the
	// write above could still fire.)
	if err := os.MkdirAll(filepath.Join(dir, "validation", "logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The folders appearing; the watch follows each as its Create event
	// comes, before the quiet period that ends in Fired.
	<-w.Fired()
	os.WriteFile(filepath.Join(dir, "validation", "logs", "a.log"), []byte("x\n"), 0o644)
	select {
	case <-w.Fired():
	case <-time.After(3 * time.Second):
		t.Fatal("a new log in a folder created after the watch began was not reported")
	}
}

// Round 2 opened from its own folder, after round 1 was triaged and decided
// in another: the since screen is there without --since, says the decision
// no longer stands, and lists the findings with the triage each carried.
func TestSinceWithoutBeingTold(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	round1 := sampleCopy(t, "r1")
	p1 := loadCopy(t, round1)
	s1, err := review.OpenStore(p1, "")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	if _, err := s1.Set([]string{"3"}, packet.TriageAccepted, "", "ana", now); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s1.Decide(review.DecisionHold, "", "ana", "", now); err != nil {
		t.Fatal(err)
	}
	p1.Close()

	p2, err := packet.Load(filepath.Join("..", "packet", "testdata", "rounds", "round2"), packet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := NewApp(p2, AppOptions{Theme: "dark", Load: packet.Options{}})
	defer a.Close()
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if a.root.shown(common.ScreenSince) {
		t.Fatal("the since screen is there before the earlier round was read")
	}
	// The since screen's own start-up command reads the earlier round; it
	// is run to completion here rather than raced against a deadline.
	load := a.root.screens[common.ScreenSince].Init()
	if load == nil {
		t.Fatal("the since screen does not look for an earlier round")
	}
	// While it is read, 8 already leads there and says so: a key typed
	// at once is not lost.
	a.root.Update(screentest.KeyMsg("8"))
	if a.root.Active() != common.ScreenSince || !strings.Contains(ansi.Strip(a.Render()), "Reading the earlier round 1bb1c70f4285…") {
		t.Fatalf("8 before the earlier round was read:\n%s", ansi.Strip(a.Render()))
	}
	a.root.Update(load())
	if !a.root.shown(common.ScreenSince) {
		t.Fatal("round 2 opened alone has no since screen, though vetter saw round 1")
	}
	a.root.Update(screentest.KeyMsg("8"))
	screen := ansi.Strip(a.Render())
	for _, want := range []string{
		"Decision: hold was for 1bb1c70; the head is 5e2f0c7: it no longer stands",
		"Findings: 1 new, 1 resolved, 1 changed",
		"· accepted", // unchanged #3 carries round 1's decision
		"not re-run since the last round: 02-lint",
		"+␉RetryAfter string", // the interdiff itself
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("the since screen lacks %q:\n%s", want, screen)
		}
	}
	screentest.CheckSize(t, a.Render(), 120, 40)
}
