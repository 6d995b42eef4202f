package views

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"vetter/packet"
)

// openSampleCopy writes the sample to a folder and opens it in an App.
func openSampleCopy(t *testing.T, watch bool) (*App, *loop, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pkt")
	if err := packet.WriteSample(dir); err != nil {
		t.Fatal(err)
	}
	opts := testAppOpts(t)
	opts.Watch = watch
	opts.WatchDebounce = 100 * time.Millisecond
	p, err := packet.Load(dir, opts.Load)
	if err != nil {
		t.Fatal(err)
	}
	a := NewApp(p, opts)
	l := newLoop(t, a)
	l.run(a.Init())
	l.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	l.settle(30 * time.Millisecond)
	return a, l, dir
}

const claim2 = "Off by one: `attempt >= c.policy.MaxRetries-1` makes"

func TestReloadKeepsPlaceAndTriage(t *testing.T) {
	a, l, dir := openSampleCopy(t, false)
	r := a.Workbench()
	ctx := r.Context()
	if _, err := ctx.Store.Set([]string{"review.md#2", "review.md#4"}, packet.TriageAccepted, "", "tester", time.Now()); err != nil {
		t.Fatal(err)
	}
	// The workbench's store is detached: Update publishes what it saved.
	ctx.Store.Publish()
	l.press("4", "j", "j") // findings, on #3
	f := r.Screen(ScreenFindings).(*Findings)
	if f.Selected().ID != "review.md#3" {
		t.Fatalf("selected %s", f.Selected().ID)
	}
	// Something to go back to, to see history survive.
	l.send(FollowMsg{To: Target{Screen: ScreenDocs, Path: packet.ReviewFile, Line: 5, File: -1, Hunk: -1, DiffLine: -1}})
	l.settle(30 * time.Millisecond)
	l.press("backspace")
	if r.Active() != ScreenFindings {
		t.Fatalf("back: active %v", r.Active())
	}
	l.send(FollowMsg{To: Target{Screen: ScreenDocs, Path: packet.ReviewFile, Line: 5, File: -1, Hunk: -1, DiffLine: -1}})
	l.settle(30 * time.Millisecond)
	l.press("backspace")
	hereBefore := r.Screen(ScreenFindings).Here()
	l.send(FollowMsg{To: hereBefore}) // one history entry: back to the same place
	l.settle(30 * time.Millisecond)
	histBefore := r.History()

	edit(t, filepath.Join(dir, packet.ReviewFile), claim2, "Off by two: `attempt >= c.policy.MaxRetries-1` makes")
	old := ctx.Packet
	l.run(a.reloadCmd())
	l.until("the reload", func() bool { return ctx.Packet != old }, 5*time.Second)
	l.settle(30 * time.Millisecond)

	if r.Active() != ScreenFindings {
		t.Errorf("active after reload: %v", r.Active())
	}
	nf := r.Screen(ScreenFindings).(*Findings)
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
	if _, stale, _ := p.TriageOf(p.Finding("review.md#2")); !stale {
		t.Error("#2 changed: its decision should be stale")
	}
	if state, stale, _ := p.TriageOf(p.Finding("review.md#4")); stale || state != packet.TriageAccepted {
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
	if _, stale, _ := p.TriageOf(p.Finding("review.md#2")); stale {
		t.Error("confirming #2 again should clear stale")
	}
	s := ansi.Strip(a.Render())
	if !strings.Contains(s, "reloaded: review.md changed · 1 triaged finding now stale") {
		t.Errorf("status does not say what changed:\n%s", s)
	}
	checkSize(t, a.Render(), 120, 40)
}

func TestReloadNothingChangedKeepsScreens(t *testing.T) {
	a, l, _ := openSampleCopy(t, false)
	r := a.Workbench()
	before := r.Screen(ScreenOverview)
	old := r.Context().Packet
	l.run(a.reloadCmd())
	l.until("the reload message", func() bool { return l.count("appReloadedMsg") == 1 }, 5*time.Second)
	if r.Context().Packet != old || r.Screen(ScreenOverview) != before {
		t.Error("a reload that found nothing new rebuilt the screens")
	}
}

func TestDescribeChanges(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pkt")
	if err := packet.WriteSample(dir); err != nil {
		t.Fatal(err)
	}
	load := func() (*packet.Packet, Stamps) {
		p, err := packet.Load(dir, packet.Options{DeferLogIndex: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		return p, StampFiles(p)
	}
	p0, s0 := load()
	edit(t, filepath.Join(dir, packet.ReviewFile), claim2, "Off by two")
	logs, _ := filepath.Glob(filepath.Join(dir, "validation", "logs", "*.log"))
	for _, lg := range logs[:2] {
		f, err := os.OpenFile(lg, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("more\n")
		f.Close()
	}
	p1, s1 := load()
	if got, want := DescribeChanges(p0, p1, s0, s1), "reloaded: review.md and 2 logs changed"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	edit(t, filepath.Join(dir, packet.DiffPath), "+++ b/docs", "+ ++ b/docs") // parses the same; the bytes differ
	reg := filepath.Join(dir, filepath.FromSlash(packet.RegistryFile))
	data, _ := os.ReadFile(reg)
	data = append(data, []byte(`{"seq": 99, "recipe": "02-lint", "status": "validated", "command": "true", "log": "validation/logs/new.log", "exit_code": 0}`+"\n")...)
	os.WriteFile(reg, data, 0o644)
	os.WriteFile(filepath.Join(dir, "validation", "logs", "new.log"), []byte("ok\n[exit 0]\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.md"), []byte("# notes\n"), 0o644)
	p2, s2 := load()
	want := "reloaded: change.diff and the registry (1 run added) changed; notes.md and 1 log added"
	if got := DescribeChanges(p1, p2, s1, s2); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := DescribeChanges(p2, p2, s2, s2); got != noChange {
		t.Errorf("same packet: %q", got)
	}
}

// TestWatchBurstReloadsOnce writes review.md ten times within 50 ms with a
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
	for i := range 10 {
		text := strings.Replace(string(orig), claim2, "Off by "+strings.Repeat("x", i+1), 1)
		if err := os.WriteFile(review, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	l.until("a reload", func() bool { return l.count("appReloadedMsg") >= 1 }, 5*time.Second)
	// Well past the quiet period: no second reload, even though the new
	// store probed the folder.
	l.settle(600 * time.Millisecond)
	if n := l.count("appReloadedMsg"); n != 1 {
		t.Errorf("%d reloads for one burst, want 1", n)
	}
	if !strings.Contains(ansi.Strip(a.Render()), "reloaded: review.md changed") {
		t.Errorf("status after the burst:\n%s", ansi.Strip(a.Render()))
	}
	// Triage is saved in the reviewer's state, never in the packet: no
	// file appears there and nothing reloads.
	l.press("4", "a")
	l.settle(600 * time.Millisecond)
	if _, err := os.Stat(filepath.Join(dir, packet.TriageFile)); err == nil {
		t.Fatal("triage was saved in the packet")
	}
	if n := l.count("appReloadedMsg"); n != 1 {
		t.Errorf("saving triage caused a reload (%d reloads)", n)
	}
}

func TestWatcherDebounce(t *testing.T) {
	dir := t.TempDir()
	w, err := NewWatcher(dir, 80*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for i := range 10 {
		os.WriteFile(filepath.Join(dir, "review.md"), []byte(strings.Repeat("x", i)), 0o644)
		time.Sleep(4 * time.Millisecond)
	}
	select {
	case <-w.Fired():
	case <-time.After(3 * time.Second):
		t.Fatal("no change reported")
	}
	select {
	case <-w.Fired():
		t.Fatal("a second change reported for one burst")
	case <-time.After(300 * time.Millisecond):
	}
	// A triage.json appearing in the packet is a change like any other: the
	// reload reports it as the packet speaking for the reviewer.
	os.WriteFile(filepath.Join(dir, packet.TriageFile), []byte("{}"), 0o644)
	<-w.Fired()
	// validation/logs created later is watched.
	if err := os.MkdirAll(filepath.Join(dir, "validation", "logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	<-w.Fired() // the folders appearing
	time.Sleep(50 * time.Millisecond)
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
	round1 := filepath.Join(t.TempDir(), "r1")
	if err := packet.WriteSample(round1); err != nil {
		t.Fatal(err)
	}
	p1, err := packet.Load(round1, packet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s1, err := packet.OpenStore(p1, "")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	if _, err := s1.Set([]string{"3"}, packet.TriageAccepted, "", "ana", now); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s1.Decide(packet.DecisionHold, "", "ana", "", now); err != nil {
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
	if a.root.shown(ScreenSince) {
		t.Fatal("the since screen is there before the earlier round was read")
	}
	// The since screen's own start-up command reads the earlier round; it
	// is run to completion here rather than raced against a deadline.
	load := a.root.screens[ScreenSince].Init()
	if load == nil {
		t.Fatal("the since screen does not look for an earlier round")
	}
	a.root.Update(load())
	if !a.root.shown(ScreenSince) {
		t.Fatal("round 2 opened alone has no since screen, though vetter saw round 1")
	}
	a.root.Update(keyMsg("8"))
	screen := ansi.Strip(a.Render())
	for _, want := range []string{
		"hold was for 1bb1c70f4285; the head is 5e2f0c7a9d14: it no longer stands",
		"Findings: 1 new, 1 resolved, 1 changed",
		"· accepted", // unchanged #3 carries round 1's decision
		"not re-run since the last round: 02-lint",
		"+␉RetryAfter string", // the interdiff itself
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("the since screen lacks %q:\n%s", want, screen)
		}
	}
	checkSize(t, a.Render(), 120, 40)
}
