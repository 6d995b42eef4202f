package tui

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/internal/screentest"
	"github.com/vetter-dev/vetter/tui/screens/logs"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/tui/screens/walk"
)

// newWalkRoot is the workbench as vetter opens it on a writable copy of
// the sample whose gate is not ready: on the walk, at 80×24. sound turns
// the reviewer's assessment to sound first (a packet whose only open items
// are its findings).
func newWalkRoot(t *testing.T, sound bool) (*Workbench, string) {
	t.Helper()
	dir := sampleCopy(t, "p")
	if sound {
		review := filepath.Join(dir, packet.ReviewFile)
		b, err := os.ReadFile(review)
		if err != nil {
			t.Fatal(err)
		}
		b = bytes.Replace(b, []byte("Assessment: needs_changes"), []byte("Assessment: sound"), 1)
		if err := os.WriteFile(review, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := loadCopy(t, dir)
	if sound && p.Assessment.Value != "sound" {
		t.Fatalf("the variant's assessment is %q", p.Assessment.Value)
	}
	ctx := storeContext(t, p, time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	start := walk.Target()
	r := NewWorkbench(ctx, Options{ForceTheme: "dark", Start: &start})
	r.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	drive(r, r.Init())
	return r, dir
}

// walker types keys into the workbench and counts them.
type walker struct {
	t     *testing.T
	r     *Workbench
	keys  []string
	shots []string // the screen after each key, for the report
}

func (w *walker) press(keys ...string) {
	for _, k := range keys {
		w.keys = append(w.keys, k)
		pressKeys(w.r, k)
		if os.Getenv("VETTER_WALK_SHOTS") != "" {
			w.shots = append(w.shots, fmt.Sprintf("after %q (key %d):\n%s", k, len(w.keys), ansi.Strip(w.r.Render())))
		}
	}
}

// paste pastes a reason into the open prompt: one paste, counted as one key.
func (w *walker) paste(text string) {
	w.keys = append(w.keys, "paste")
	_, cmd := w.r.Update(tea.PasteMsg{Content: text})
	drive(w.r, cmd)
}

// onFinding asserts the walk shows a finding at 80×24, and looks at it as
// a person does: it reads the screen, and while a marked line (the cited
// diff or packet line, the first cited log line) has not been on screen it
// pages down (pgdown, a key counted like any other). Every marked line must
// have been on screen, with the triage keys, before it returns.
func (w *walker) onFinding(id string) {
	w.t.Helper()
	wk := w.r.Screen(common.ScreenWalk).(*walk.Walk)
	if w.r.Active() != common.ScreenWalk || wk.Current() != id {
		w.t.Fatalf("after %v: active %v, walk on %q; want the walk on %s\n%s", w.keys, w.r.Active(), wk.Current(), id, ansi.Strip(w.r.Render()))
	}
	c := wk.Place()
	if c == nil {
		w.t.Fatalf("%s: no cited place", id)
	}
	// What must be seen: the place's name, its first marked line (the
	// cited one, or where the quote really is when the citation drifted or
	// gave no line), and the first marked line of the cited log.
	wants := map[string]bool{}
	placeName := []string{c.Text, common.ClipPath(c.Text, 60)}
	if from, _ := walk.MarkedLines(c); c.Kind == packet.CiteDiff || c.Kind == packet.CitePacket {
		wants[fmt.Sprintf("▌ %4d ", from)] = false
	}
	if lc := wk.LogCitation(); lc != nil {
		from, _ := walk.MarkedLines(lc)
		wants[fmt.Sprintf("▌ %4d ", from)] = false
	}
	placeSeen := false
	for {
		screen := ansi.Strip(w.r.Render())
		screentest.CheckSize(w.t, w.r.Render(), 80, 24)
		placeSeen = placeSeen || strings.Contains(screen, placeName[0]) || strings.Contains(screen, placeName[1])
		for k := range wants {
			wants[k] = wants[k] || strings.Contains(screen, k)
		}
		for _, k := range []string{"a accept", "x dismiss", "f defer", "space pass"} {
			if !strings.Contains(screen, k) {
				w.t.Errorf("%s: the walk does not show %q:\n%s", id, k, screen)
			}
		}
		missing := !placeSeen
		for _, seen := range wants {
			missing = missing || !seen
		}
		at, last := wk.Scrolled()
		if !missing || at >= last {
			break
		}
		if !strings.Contains(screen, "pgdn/pgup page") {
			w.t.Errorf("%s: the step scrolls but the screen does not say how:\n%s", id, screen)
		}
		w.press("pgdown")
	}
	if !placeSeen {
		w.t.Errorf("%s: the cited place %s was never on screen", id, c.Text)
	}
	for k, seen := range wants {
		if !seen {
			w.t.Errorf("%s: the marked line %q was never on screen", id, k)
		}
	}
}

// The walk on the sample as it ships: read the verdict and the
// evidence, judge each of the five findings against its diff line and log
// line, triage them, record ok-to-test. The reviewer assessed
// needs_changes, so ok-to-test is an override and needs its reason: the
// realistic walk accepts the two findings that are right about the code
// (#1 major, #2 minor), defers the three that can wait (#3 and the nits),
// and lets the tests run because running them is safe whatever the review
// asks to change. The reason is written once, pasted or typed; it counts
// as one key here (the test below has a packet that needs no reason).
func TestWalkSampleToOkToTest(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r, dir := newWalkRoot(t, false)
		w := &walker{t: t, r: r}
		if r.Active() != common.ScreenWalk || !r.Screen(common.ScreenWalk).(*walk.Walk).OnVerdict() {
			t.Fatalf("the workbench opens on %v, not the walk's verdict step", r.Active())
		}
		screen := ansi.Strip(r.Render())
		for _, want := range []string{"Verdict", "Assessment", "needs_changes", "Evidence", "01-go-unit-tests", "00-go-toolchain-setup", "space next"} {
			if !strings.Contains(screen, want) {
				t.Errorf("the verdict step lacks %q:\n%s", want, screen)
			}
		}
		w.press("space")
		w.onFinding("review.md#1")
		w.press("a")
		w.onFinding("review.md#2")
		w.press("a")
		w.onFinding("review.md#3")
		w.press("f")
		w.onFinding("review.md#4")
		w.press("f")
		w.onFinding("review.md#5")
		w.press("f")
		if r.Active() != common.ScreenDecision {
			t.Fatalf("after the last finding the walk is on %v, not the decision", r.Active())
		}
		screen = ansi.Strip(r.Render())
		if !strings.Contains(screen, "/ok to test "+r.ctx.Packet.DecisionSHA()) {
			t.Errorf("the decision screen at 80×24 does not show the /ok to test line:\n%s", screen)
		}
		w.press("O")
		if r.prompt == nil || !strings.Contains(ansi.Strip(r.Render()), "gate is not ready") {
			t.Fatalf("O on a gate that is not ready does not ask for the reason:\n%s", ansi.Strip(r.Render()))
		}
		w.paste("running the tests is safe: nothing in the diff runs at build time; the review's changes are requested separately")
		w.press("enter")

		// A justified ok-to-test: every finding seen with its cited lines
		// marked (onFinding), triaged, and the gate seen, in at most 12
		// keys, the reason the override needs counted as one.
		if n := len(w.keys); n > 12 {
			t.Errorf("the walk took %d keys (%v), more than 12", n, w.keys)
		}
		t.Logf("keys (%d): %s", len(w.keys), strings.Join(w.keys, " "))
		p := reload(t, dir)
		if g := p.Triage.Gate; g == nil || g.Decision != review.DecisionOkToTest || g.Override == "" {
			t.Fatalf("recorded gate decision: %+v", g)
		}
		for _, f := range p.Findings {
			if !review.Triaged(p, f) {
				t.Errorf("%s is not triaged after the walk", f.ID)
			}
		}
		if os.Getenv("VETTER_WALK_SHOTS") != "" {
			for _, s := range w.shots {
				fmt.Println(s)
			}
		}
	})
}

// The same walk on a packet whose only open items are its findings: no
// reason to write, every key counted.
func TestWalkSoundVariantToOkToTest(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r, dir := newWalkRoot(t, true)
		w := &walker{t: t, r: r}
		w.press("space")
		for _, step := range []struct{ id, key string }{
			{"review.md#1", "a"}, {"review.md#2", "a"}, {"review.md#3", "f"}, {"review.md#4", "f"}, {"review.md#5", "f"},
		} {
			w.onFinding(step.id)
			w.press(step.key)
		}
		if r.Active() != common.ScreenDecision || !review.Gate(r.ctx.Packet).Ready {
			t.Fatalf("after the findings: active %v, gate ready %v", r.Active(), review.Gate(r.ctx.Packet).Ready)
		}
		w.press("O", "enter")
		// A justified ok-to-test: every finding seen with its cited lines
		// marked (onFinding), triaged, and the gate seen, in at most 12
		// keys, the reason the override needs counted as one.
		if n := len(w.keys); n > 12 {
			t.Errorf("the walk took %d keys (%v), more than 12", n, w.keys)
		}
		t.Logf("keys (%d): %s", len(w.keys), strings.Join(w.keys, " "))
		p := reload(t, dir)
		if g := p.Triage.Gate; g == nil || g.Decision != review.DecisionOkToTest || g.Override != "" {
			t.Fatalf("recorded gate decision: %+v", g)
		}
		if got := r.ExitLines(); len(got) == 0 || got[0] != "/ok to test "+p.DecisionSHA() {
			t.Errorf("exit lines %q", got)
		}
	})
}

// space passes over a finding without triaging it; W from another screen
// comes back to the next thing not looked at, and when nothing is left it
// goes to the decision.
func TestWalkPassAndReturn(t *testing.T) { screentest.InBubble(t, testWalkPassAndReturn) }

func testWalkPassAndReturn(t *testing.T) {
	r := newTestRoot(t, 80, 24)
	pressKeys(r, "W")
	wk := r.Screen(common.ScreenWalk).(*walk.Walk)
	if r.Active() != common.ScreenWalk || !wk.OnVerdict() {
		t.Fatalf("W from the overview: active %v", r.Active())
	}
	pressKeys(r, "space", "space")
	if wk.Current() != "review.md#2" {
		t.Fatalf("after passing over #1 the walk shows %q", wk.Current())
	}
	pressKeys(r, "3", "W")
	if r.Active() != common.ScreenWalk || wk.Current() != "review.md#2" {
		t.Fatalf("W from the diff: active %v on %q, want the walk on review.md#2", r.Active(), wk.Current())
	}
	pressKeys(r, "W", "W", "W")
	if wk.Current() != "review.md#5" {
		t.Fatalf("W on the walk passes over: on %q", wk.Current())
	}
	pressOn(t, r, common.ScreenDecision, "passing over the last finding", "W")
	pressOn(t, r, common.ScreenDecision, "W with nothing left", "1", "W")
	pressOn(t, r, common.ScreenOverview, "backspace after W", "backspace")
}

// y on the decision screen writes the /ok to test line to the terminal as
// OSC 52, and says so.
func TestCopyOkToTestOSC52(t *testing.T) {
	p := packet.LoadSample(packet.Options{})
	start := walk.DecisionTarget()
	r := NewWorkbench(common.NewContext(p, true, false), Options{ForceTheme: "dark", Start: &start})
	tm := teatest.NewTestModel(t, r, teatest.WithInitialTermSize(80, 24))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("Gate")) },
		teatest.WithDuration(5*time.Second))
	tm.Send(screentest.KeyMsg("y"))
	want := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte("/ok to test "+p.DecisionSHA())) + "\x07"
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(want)) },
		teatest.WithDuration(5*time.Second))
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Workbench)
	// The confirmation is on the status line at 80 columns.
	last := strings.Split(ansi.Strip(final.Render()), "\n")
	if s := last[len(last)-1]; !strings.Contains(s, "copied: /ok to test "+p.DecisionSHA()) {
		t.Errorf("status line after y: %q", s)
	}
}

// y on other screens copies what is selected there: a finding's location,
// a log line, a citation of the diff; packet text arrives sanitised.
func TestCopyWhatIsSelected(t *testing.T) { screentest.InBubble(t, testCopyWhatIsSelected) }

func testCopyWhatIsSelected(t *testing.T) {
	r := newTestRoot(t, 120, 40)
	pressKeys(r, "4")
	if text, _ := r.copyText(); text != "internal/upload/client.go:97-98" {
		t.Errorf("findings: copied %q", text)
	}
	pressKeys(r, "W", "space")
	if text, _ := r.copyText(); text != "internal/upload/client.go:97-98" {
		t.Errorf("walk: copied %q", text)
	}
	pressKeys(r, "enter")
	if text, _ := r.copyText(); text != "internal/upload/client.go:97" {
		t.Errorf("diff: copied %q", text)
	}
	pressKeys(r, "1")
	if text, what := r.copyText(); text != r.ctx.Packet.DecisionSHA() || what != "the head SHA" {
		t.Errorf("overview: copied %q (%s)", text, what)
	}
	// Packet text is pasted somewhere: it goes out neutralised.
	r.ctx.Packet.Findings[0].Location = "a.go:1\x1b]52;c;cm0gLXJmIH4=\x07\u202e"
	pressKeys(r, "4")
	if text, _ := r.copyText(); strings.ContainsAny(text, "\x1b\x07\u202e") || !strings.HasPrefix(text, "a.go:1") {
		t.Errorf("a hostile location copied as %q", text)
	}
}

// A cited log line the index has not reached is not read in Update: the
// walk says the log is being indexed, and shows the line once it is.
func TestWalkWaitsForTheLogIndex(t *testing.T) { screentest.InBubble(t, testWalkWaitsForTheLogIndex) }

func testWalkWaitsForTheLogIndex(t *testing.T) {
	p := packet.LoadSample(packet.Options{DeferLogIndex: true})
	start := walk.Target()
	r := NewWorkbench(common.NewContext(p, true, false), Options{ForceTheme: "dark", Start: &start})
	r.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.OpenStart()
	pressKeys(r, "space")
	wk := r.Screen(common.ScreenWalk).(*walk.Walk)
	c := wk.LogCitation()
	l := p.Log(c.Target)
	if l.Indexed() {
		t.Skip("the sample's log was indexed at load")
	}
	if got := ansi.Strip(r.Render()); !strings.Contains(got, "the log is being indexed") {
		t.Fatalf("an unindexed log:\n%s", got)
	}
	if err := l.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	// The logs screen's indexing reports its progress to every screen.
	r.Update(logs.IndexProgressMsg{})
	pressKeys(r, "G") // the log is the step's last excerpt
	if got := ansi.Strip(r.Render()); !strings.Contains(got, fmt.Sprintf("▌ %4d ", c.Line)) {
		t.Errorf("the indexed log's line is not shown:\n%s", got)
	}
}

// y and v on the evidence screen: the recipe's name, the registry line of
// its latest run.
func TestCopyAndEditEvidence(t *testing.T) { screentest.InBubble(t, testCopyAndEditEvidence) }

func testCopyAndEditEvidence(t *testing.T) {
	r := newTestRoot(t, 120, 40)
	pressKeys(r, "5")
	row := r.ctx.Packet.Evidence.Rows[0]
	if text, _ := r.copyText(); text != row.Recipe {
		t.Errorf("y on a recipe copies %q, want %q", text, row.Recipe)
	}
	if rel, line := r.editTarget(); rel != packet.RegistryFile || line != row.Latest.Line {
		t.Errorf("v on a recipe opens %s:%d, want %s:%d", rel, line, packet.RegistryFile, row.Latest.Line)
	}
}
