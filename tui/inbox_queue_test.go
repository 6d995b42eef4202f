package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/report"
	"github.com/vetter-dev/vetter/tui/screens/inbox"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/github"
	"github.com/vetter-dev/vetter/github/fakeapi"
	"github.com/vetter-dev/vetter/packet"
)

// queueApp serves the fake GitHub's queue (PR 42 and the queue fixture) and
// returns a queue app on it, with its cache and state in temporary folders.
func queueApp(t *testing.T, cacheDir string) (*App, *fakeapi.Server, *github.Queue) {
	t.Helper()
	s, url := fakeapi.Serve(t, "../github/testdata/pr", 2)
	s.AddQueue(fakeapi.QueueSpecs())
	cfg := github.Config{Host: "github.com", Token: "t", APIURL: url, Timeout: 10 * time.Second}
	state := t.TempDir()
	q, err := github.NewQueue(github.Ref{Host: "github.com", Owner: "acme", Repo: "depot"}, github.QueueOptions{Config: cfg, CacheDir: cacheDir, StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	feed := inbox.QueueFeed{
		Repos:  []string{q.Name()},
		Cached: q.Cached,
		Fill: func(ctx context.Context, list func(string, []report.QueueRow), row func(report.QueueRow)) error {
			return q.Fill(ctx, func(ev github.QueueEvent) {
				if ev.List != nil {
					list(ev.Repo, ev.List)
				}
				if ev.Row != nil {
					row(*ev.Row)
				}
			})
		},
		ReadOne: func(ctx context.Context, _ string, n int) (report.QueueRow, error) { return q.ReadOne(ctx, n) },
		Open: func(_ string, n int) (string, error) {
			o, err := q.OpenPR(context.Background(), n, github.Options{Config: cfg})
			if err != nil {
				return "", err
			}
			return o.Dir, nil
		},
		Now: func() time.Time { return time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC) },
		Rate: func() string {
			if st := q.Stats(); st.RateLow() {
				return fmt.Sprintf("rate limit %d of %d left", st.RateRemaining, st.RateLimit)
			}
			return ""
		},
	}
	opts := AppOptions{Theme: "dark", StateDir: state, Load: packet.Options{DeferLogIndex: true, OriginRoot: cacheDir}}
	// As main wires it: the workbench posts to the pull request it shows.
	opts.PosterFor = func(p *packet.Packet) func(string) (string, error) {
		return func(sha string) (string, error) {
			c, err := github.NewClient(cfg)
			if err != nil {
				return "", err
			}
			ref := github.Ref{Host: "github.com", Owner: p.Origin.Owner, Repo: p.Origin.Repo, Number: p.Origin.Number}
			return c.PostComment(context.Background(), ref, "/ok to test "+sha)
		}
	}
	a := NewSourceApp(inbox.NewQueueSource(feed), opts)
	t.Cleanup(a.Close)
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	return a, s, q
}

// drainQueue runs cmd to completion, delivering to the app only the
// messages of the queue and of opening a row (the workbench's own commands
// are not needed here and some never end).
func drainQueue(a *App, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch m := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range m {
			drainQueue(a, c)
		}
	case inbox.SourceMsg, inbox.InboxOpenMsg, appOpenedMsg:
		_, next := a.Update(m)
		drainQueue(a, next)
	}
}

func queueNames(in *inbox.Inbox) string {
	var out []string
	for _, r := range in.Rows() {
		out = append(out, r.Name+" "+r.PR.Class)
	}
	return strings.Join(out, ", ")
}

func TestQueueScreenFillsThenShowsTheCacheAtOnce(t *testing.T) {
	cache := t.TempDir()
	a, s, _ := queueApp(t, cache)
	in := a.Inbox()
	if len(in.Rows()) != 0 || !strings.Contains(ansi.Strip(a.View().Content), "listing the open pull requests") {
		t.Fatalf("a first visit has nothing cached:\n%s", ansi.Strip(a.View().Content))
	}
	drainQueue(a, a.Init())
	want := "acme/depot#43 ready, acme/depot#47 work, acme/depot#44 work, acme/depot#42 moved, acme/depot#45 vetted, acme/depot#46 draft"
	if got := queueNames(in); got != want {
		t.Fatalf("rows %s\nwant %s", got, want)
	}
	screen := ansi.Strip(a.View().Content)
	for _, w := range []string{" Queue  acme/depot", "6 pull requests", "#47", "4b440b8 +2", "1f0c3a9 old", "1 fail"} {
		if !strings.Contains(screen, w) {
			t.Errorf("the screen lacks %q:\n%s", w, screen)
		}
	}

	// The next visit shows the last one's rows before any request.
	before := s.Requests
	b, _, _ := queueApp(t, cache)
	if got := queueNames(b.Inbox()); got != want || s.Requests != before {
		t.Errorf("cached first screen: %s (%d requests)", got, s.Requests-before)
	}
}

func TestQueueFilterKeys(t *testing.T) {
	a, _, _ := queueApp(t, t.TempDir())
	drainQueue(a, a.Init())
	in := a.Inbox()
	// The filters act in Update; their commands (the text input's cursor
	// blink) are not needed.
	press := func(k string) { a.Update(screentest.KeyMsg(k)) }
	press("p")
	if got := queueNames(in); strings.Contains(got, "#44") || strings.Contains(got, "#46") {
		t.Errorf("p keeps the rows with a packet: %s", got)
	}
	press("p")
	press("m")
	if got := queueNames(in); got != "acme/depot#43 ready, acme/depot#47 work, acme/depot#44 work" {
		t.Errorf("m keeps the rows awaiting me: %s", got)
	}
	press("m")
	in.Select("acme/depot#44")
	press("a")
	if got := queueNames(in); got != "acme/depot#44 work" {
		t.Errorf("a keeps the selected row's author: %s", got)
	}
	press("a")
	for _, k := range []string{"/", "d", "r", "a", "f", "t", "enter"} {
		press(k)
	}
	if got := queueNames(in); got != "acme/depot#46 draft" {
		t.Errorf("/draft: %s", got)
	}
}

func TestQueueOpenBackAndAPostedDecision(t *testing.T) {
	a, s, _ := queueApp(t, t.TempDir())
	drainQueue(a, a.Init())
	in := a.Inbox()
	if r := in.Selected(); r == nil || r.Name != "acme/depot#43" {
		t.Fatalf("selected %v", r)
	}
	_, cmd := a.Update(screentest.KeyMsg("enter"))
	drainQueue(a, cmd)
	if a.Workbench() == nil || a.Workbench().Context().Packet.Origin == nil || a.Workbench().Context().Packet.Origin.Number != 43 {
		t.Fatal("enter should open PR 43 in the workbench")
	}
	// The workbench posts /ok to test for the head (what O, y call).
	head := a.Workbench().Context().Packet.Origin.HeadSHA
	if _, err := a.Workbench().Context().PostOkToTest(head); err != nil {
		t.Fatal(err)
	}
	if len(s.Posted) != 1 || s.Posted[0] != "/ok to test "+head {
		t.Fatalf("posted %q", s.Posted)
	}
	_, cmd = a.Update(screentest.KeyMsg("backspace"))
	if a.Workbench() != nil {
		t.Fatal("backspace should return to the queue")
	}
	drainQueue(a, cmd)
	r := in.Selected()
	if r == nil || r.Name != "acme/depot#43" {
		t.Fatalf("the row is not kept selected: %v", r)
	}
	if r.PR.Class != report.QueueVetted || r.PR.OkToTest == nil || !r.PR.OkToTest.Current {
		t.Errorf("after the post the row should be vetted at the head: %+v", r.PR)
	}
}

func TestQueueShowsALowRateLimit(t *testing.T) {
	a, s, _ := queueApp(t, t.TempDir())
	s.RateRemaining = 40
	drainQueue(a, a.Init())
	top := strings.SplitN(ansi.Strip(a.View().Content), "\n", 2)[0]
	if !strings.Contains(top, "rate limit") || !strings.Contains(top, "of 5000 left") {
		t.Errorf("the top line should say the rate limit runs low: %q", top)
	}
}
