package tui

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/github"
	"github.com/vetter-dev/vetter/github/fakeapi"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/tui/internal/screentest"
	"github.com/vetter-dev/vetter/tui/screens/walk"
)

// An agent's pull request on the fake GitHub whose required pre-commit
// check fails (and a required Jenkins commit status with it): once every
// finding is triaged on the walk, the decision screen shows the gate not
// ready on ci alone, O asks for the override's reason and records and posts
// nothing without one (enter on an empty reason, esc); with the reason it
// records ok-to-test with it as the override, asks before posting, and y
// posts exactly "/ok to test <the full head SHA>" to the pull request.
func TestFailingRequiredCheckNeedsAnOverrideToPost(t *testing.T) {
	s, url := fakeapi.Serve(t, "../github/testdata/pr", 2)
	s.F.CheckRuns = json.RawMessage(`{"total_count": 3, "check_runs": [
	  {"id": 1, "name": "build", "status": "completed", "conclusion": "success"},
	  {"id": 2, "name": "pre-commit", "status": "completed", "conclusion": "failure"},
	  {"id": 3, "name": "docs-preview", "status": "completed", "conclusion": "success"}]}`)
	s.F.Status = json.RawMessage(`{"state": "failure", "total_count": 1, "statuses": [{"context": "jenkins/required-build", "state": "failure"}]}`)
	s.F.Protection = json.RawMessage(`{"contexts": ["build", "pre-commit", "jenkins/required-build"]}`)
	cfg := github.Config{Host: "github.com", Token: "t", APIURL: url, Timeout: 10 * time.Second}
	ref := github.Ref{Host: "github.com", Owner: "acme", Repo: "depot", Number: 42}
	cache := t.TempDir()
	o, err := github.Open(context.Background(), ref, github.Options{Config: cfg, CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	p, err := packet.Load(o.Dir, packet.Options{OriginRoot: cache})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	head := p.Origin.HeadSHA
	if !strings.Contains(review.Gate(p).Command, head) || len(head) != 40 {
		t.Fatalf("the pull request's head %q is not the gate's command %q", head, review.Gate(p).Command)
	}

	// The post goes over the network from outside the test's bubble (a
	// connection's goroutines would never be idle inside it), as the
	// workbench's poster does: one comment on the pull request.
	client, err := github.NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	type posted struct {
		url string
		err error
	}
	asks, answers := make(chan string), make(chan posted)
	go func() {
		for body := range asks {
			u, err := client.PostComment(context.Background(), ref, body)
			answers <- posted{u, err}
		}
	}()
	defer close(asks)

	screentest.InBubble(t, func(t *testing.T) {
		ctx := storeContext(t, p, time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
		ctx.PostOkToTest = func(sha string) (string, error) {
			asks <- "/ok to test " + sha
			a := <-answers
			return a.url, a.err
		}
		start := walk.Target()
		r := NewWorkbench(ctx, Options{ForceTheme: "dark", Start: &start})
		r.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		drive(r, r.Init())
		w := &walker{t: t, r: r}
		w.press("space")
		wk := r.Screen(common.ScreenWalk).(*walk.Walk)
		for i := 0; wk.Current() != "" && i < len(p.Findings); i++ {
			w.press("a")
		}
		if r.Active() != common.ScreenDecision {
			t.Fatalf("after triaging every finding (%v) the walk is on %v, not the decision:\n%s", w.keys, r.Active(), ansi.Strip(r.Render()))
		}
		g := review.Gate(p)
		if g.Ready || !slices.Equal(review.FailingChecks(g), []string{packet.CheckCI}) {
			t.Fatalf("the gate: ready %v, failing %v; want not ready on ci alone", g.Ready, review.FailingChecks(g))
		}
		screenHas(t, "the decision", ansi.Strip(r.Render()), "not ready", "✗ ci                 pre-commit and jenkins/required-build are required")

		noPost := func(step string) {
			t.Helper()
			if len(s.Posted) != 0 || p.Triage != nil && p.Triage.Gate != nil {
				t.Fatalf("%s: posted %q, recorded %+v; want nothing", step, s.Posted, p.Triage.Gate)
			}
		}
		pressKeys(r, "O")
		if r.prompt == nil || !strings.Contains(r.prompt.title, "The gate is not ready (ci). To give ok-to-test anyway, write why:") {
			t.Fatalf("O on failing required CI does not ask for the override's reason:\n%s", ansi.Strip(r.Render()))
		}
		pressKeys(r, "enter")
		if r.prompt == nil || !strings.Contains(ansi.Strip(r.Render()), "a reason is required") {
			t.Errorf("enter on an empty reason closed the prompt:\n%s", ansi.Strip(r.Render()))
		}
		noPost("enter without a reason")
		pressKeys(r, "esc")
		noPost("esc")

		const why = "pre-commit fails on a formatter version bump unrelated to this change; running the tests is safe"
		pressKeys(r, "O")
		w.paste(why)
		pressKeys(r, "enter")
		if len(s.Posted) != 0 {
			t.Fatalf("posted %q before the question was answered", s.Posted)
		}
		if r.prompt == nil || !strings.Contains(r.prompt.title, "post `/ok to test "+head+"` to acme/depot#42? y/N") {
			t.Fatalf("after the override no question before posting: %+v\n%s", r.prompt, ansi.Strip(r.Render()))
		}
		pressKeys(r, "y", "enter")
		if !slices.Equal(s.Posted, []string{"/ok to test " + head}) {
			t.Errorf("posted %q; want exactly [/ok to test %s]", s.Posted, head)
		}
		gd := p.Triage.Gate
		if gd == nil || gd.Decision != review.DecisionOkToTest || gd.SHA != head || gd.Override != why {
			t.Errorf("recorded %+v; want ok-to-test for %s with the override %q", gd, head, why)
		}
		if !strings.Contains(r.status, "posted /ok to test "+head) {
			t.Errorf("the status line does not say it was posted: %q", r.status)
		}
	})
}
