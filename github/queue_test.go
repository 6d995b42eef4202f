package github

import (
	"context"
	"regexp"
	"slices"
	"testing"

	"github.com/vetter-dev/vetter/github/fakeapi"
	"github.com/vetter-dev/vetter/report"
)

// newQueueFake serves the fixture PR 42 and the queue's other PRs, pages of
// two, so the list itself crosses Link headers.
func newQueueFake(t testing.TB) (*fakeapi.Server, QueueOptions) {
	t.Helper()
	s, opts := newFake(t)
	s.AddQueue(fakeapi.QueueSpecs())
	return s, QueueOptions{Config: opts.Config, CacheDir: opts.CacheDir, StateDir: t.TempDir()}
}

func fillQueue(t testing.TB, opts QueueOptions) (*Queue, []report.QueueRow) {
	t.Helper()
	q, err := NewQueue(Ref{Host: "github.com", Owner: "acme", Repo: "depot"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[int]report.QueueRow{}
	listed := 0
	err = q.Fill(context.Background(), func(ev QueueEvent) {
		if ev.List != nil {
			listed = len(ev.List)
		}
		if ev.Row != nil {
			rows[ev.Row.Number] = *ev.Row
		}
	})
	if err != nil {
		t.Fatalf("Fill: %v", err)
	}
	if len(rows) != listed {
		t.Fatalf("%d rows read of %d listed", len(rows), listed)
	}
	out := make([]report.QueueRow, 0, len(rows))
	for _, r := range rows {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b report.QueueRow) int { return report.CompareQueueRows(&a, &b) })
	return q, out
}

func byNumber(rows []report.QueueRow, n int) report.QueueRow {
	for _, r := range rows {
		if r.Number == n {
			return r
		}
	}
	return report.QueueRow{}
}

func TestQueueOrderAndTheAwaitingRule(t *testing.T) {
	s, opts := newQueueFake(t)
	_, rows := fillQueue(t, opts)
	var got []int
	var classes []string
	for _, r := range rows {
		got = append(got, r.Number)
		classes = append(classes, r.Class)
	}
	want := []int{43, 47, 44, 42, 45, 46}
	wantClasses := []string{report.QueueReady, report.QueueWork, report.QueueWork, report.QueueMoved, report.QueueVetted, report.QueueDraft}
	if !slices.Equal(got, want) || !slices.Equal(classes, wantClasses) {
		t.Fatalf("order %v %v, want %v %v", got, classes, want, wantClasses)
	}
	// Every page of the list was read: six PRs in pages of two.
	if n := s.ByPath["/repos/acme/depot/pulls"]; n != 3 {
		t.Errorf("the list was read in %d requests, want 3 pages", n)
	}

	ready := byNumber(rows, 43)
	if !ready.Packet || !ready.GateReady || !ready.Awaiting || ready.Verdict != "pass" || ready.Assessment != "sound" ||
		ready.Evidence != (report.QueueEvidence{Validated: 3, Total: 3}) || ready.OkToTest != nil {
		t.Errorf("PR 43: %+v", ready)
	}
	// An outside account's /ok to test naming the head does not count.
	outside := byNumber(rows, 44)
	if outside.Packet || outside.OkToTest != nil || !outside.Awaiting || outside.Verdict != "" {
		t.Errorf("PR 44 (no packet, an outside /ok to test): %+v", outside)
	}
	// A collaborator's short SHA names the head.
	vetted := byNumber(rows, 45)
	if vetted.OkToTest == nil || !vetted.OkToTest.Current || vetted.Awaiting || vetted.OkToTest.By != "kim-collab" || len(vetted.OkToTest.SHA) != 7 {
		t.Errorf("PR 45 (short SHA): %+v", vetted)
	}
	if vetted.CommitsSinceOK == nil || *vetted.CommitsSinceOK != 0 {
		t.Errorf("PR 45 commits since ok: %v", vetted.CommitsSinceOK)
	}
	work := byNumber(rows, 47)
	if work.CommitsSinceOK == nil || *work.CommitsSinceOK != 2 || work.CI.Failure != 1 || work.FindingsOpen != 2 || work.FindingsTotal != 2 {
		t.Errorf("PR 47: commits since ok %v, ci %+v, findings %d/%d", work.CommitsSinceOK, work.CI, work.FindingsOpen, work.FindingsTotal)
	}
	// PR 42: the gatekeeper's sentence is not copy-pr-bot's, so it is not
	// awaiting; a member said /ok to test for 1f0c3a9 (short), one commit
	// before the head. Its findings: the review's and lintbot's three threads.
	fx := byNumber(rows, 42)
	if fx.Marker || fx.Awaiting || fx.OkToTest == nil || fx.OkToTest.By != "dana-maintainer" || fx.CommitsSinceOK == nil || *fx.CommitsSinceOK != 1 {
		t.Errorf("PR 42: %+v", fx)
	}
	if fx.FindingsTotal != 4 {
		t.Errorf("PR 42 has %d findings, want the review's 1 and 3 threads", fx.FindingsTotal)
	}
	if d := byNumber(rows, 46); !d.Draft || d.Class != report.QueueDraft {
		t.Errorf("PR 46: %+v", d)
	}
}

func TestQueueAllAndTheMarkerPattern(t *testing.T) {
	_, opts := newQueueFake(t)
	opts.All = true
	_, rows := fillQueue(t, opts)
	if r := byNumber(rows, 42); !r.Awaiting || r.Class != report.QueueWork {
		t.Errorf("--all: PR 42 should await (its /ok to test is for an older head): %+v", r)
	}
	if r := byNumber(rows, 45); r.Awaiting {
		t.Errorf("--all: PR 45 is vetted at its head, not awaiting")
	}

	_, opts = newQueueFake(t)
	opts.Awaiting = regexp.MustCompile(`needs a maintainer's`)
	_, rows = fillQueue(t, opts)
	if r := byNumber(rows, 42); !r.Marker || !r.Awaiting {
		t.Errorf("--awaiting matching the gatekeeper's sentence: PR 42 %+v", r)
	}
	if r := byNumber(rows, 43); r.Marker || r.Awaiting {
		t.Errorf("--awaiting replaces copy-pr-bot's sentence: PR 43 %+v", r)
	}
}

func TestQueueRefreshIsConditionalAndCachedAtOnce(t *testing.T) {
	s, opts := newQueueFake(t)
	fillQueue(t, opts)
	first := s.Requests

	// A new visit: the rows of the last one at once, without a request.
	q, err := NewQueue(Ref{Host: "github.com", Owner: "acme", Repo: "depot"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	cached := q.Cached()
	if len(cached) != 6 || cached[0].Number != 43 || s.Requests != first {
		t.Fatalf("cached rows %d (first %d), requests %d -> %d", len(cached), cached[0].Number, first, s.Requests)
	}
	// Then the refresh: nothing changed, so every request is conditional
	// and answered 304, and no GraphQL query is sent.
	graphql := s.ByPath["/graphql"]
	const protection = "/repos/acme/depot/branches/main/protection/required_status_checks"
	unprotected := s.ByPath[protection]
	_, rows := fillQueue(t, opts)
	// A branch without protection answers 404, which carries no ETag: that
	// one read per visit cannot be conditional.
	st := s.Requests - first - (s.ByPath[protection] - unprotected)
	if s.ByPath["/graphql"] != graphql {
		t.Errorf("the refresh sent %d GraphQL queries", s.ByPath["/graphql"]-graphql)
	}
	if s.Conditional < st || s.NotModified < st {
		t.Errorf("refresh: %d requests, %d conditional, %d answered 304", st, s.Conditional, s.NotModified)
	}
	if byNumber(rows, 43).Class != report.QueueReady {
		t.Errorf("the refreshed rows lost their facts: %+v", byNumber(rows, 43))
	}
}

func TestQueueRowFollowsAPostedOkToTest(t *testing.T) {
	s, opts := newQueueFake(t)
	q, rows := fillQueue(t, opts)
	if byNumber(rows, 43).Class != report.QueueReady {
		t.Fatal("PR 43 should be ready")
	}
	head := byNumber(rows, 43).HeadSHA
	// The workbench posts /ok to test (the fake records it as posted by
	// "you"); it shows in the comments as a member's.
	f := s.More[0]
	f.Comments = append(f.Comments, map[string]any{"id": 99001, "body": "/ok to test " + head,
		"user": map[string]any{"login": "you"}, "author_association": "MEMBER",
		"created_at": "2026-12-01T10:00:00Z", "updated_at": "2026-12-01T10:00:00Z"})
	row, err := q.ReadOne(context.Background(), 43)
	if err != nil {
		t.Fatal(err)
	}
	if row.Class != report.QueueVetted || row.OkToTest == nil || row.OkToTest.By != "you" || row.Awaiting {
		t.Errorf("after the post: %+v", row)
	}
}

func TestQueueRateLimitShownWhenLow(t *testing.T) {
	s, opts := newQueueFake(t)
	s.RateRemaining = 60
	q, _ := fillQueue(t, opts)
	st := q.Stats()
	if st.RateRemaining <= 0 || st.RateRemaining >= 60 || !st.RateLow() || st.RateLimit != 5000 {
		t.Errorf("stats %+v", st)
	}
	if st.MaxInFlight > MaxInFlight {
		t.Errorf("%d requests in flight, more than %d", st.MaxInFlight, MaxInFlight)
	}
}
