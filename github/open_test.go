package github

import (
	"context"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/github/fakeapi"
	"github.com/vetter-dev/vetter/internal/reviewtest"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/report"
	"github.com/vetter-dev/vetter/review"
)

const (
	packetHead = "1f0c3a9d2b7e4c6a8f1d3e5b7a9c0d2e4f6a8b1c"
	prHead     = "7e2d4b6f8a0c1e3d5f7b9a2c4e6d8f0b1a3c5e7d"
)

var fixtureRef = Ref{Host: "github.com", Owner: "acme", Repo: "depot", Number: 42}

// countingTransport counts the requests that reach the network.
type countingTransport struct{ n atomic.Int64 }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultTransport.RoundTrip(r)
}

func newFake(t testing.TB) (*fakeapi.Server, Options) {
	t.Helper()
	s, url := fakeapi.Serve(t, "testdata/pr", 2)
	return s, Options{
		Config:   Config{Host: "github.com", Token: "test-token", APIURL: url, Timeout: 10 * time.Second, Retries: 2, Transport: &countingTransport{}},
		CacheDir: t.TempDir(),
		Now:      func() time.Time { return time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC) },
	}
}

func openFixture(t *testing.T, s *fakeapi.Server, opts Options) (*Opened, *packet.Packet) {
	t.Helper()
	o, err := Open(context.Background(), fixtureRef, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	p, err := packet.Load(o.Dir, packet.Options{OriginRoot: opts.CacheDir})
	if err != nil {
		t.Fatalf("loading the rebuilt packet: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return o, p
}

func TestOpenRebuildsThePacketFromThePR(t *testing.T) {
	s, opts := newFake(t)
	o, p := openFixture(t, s, opts)

	if want := filepath.Join(opts.CacheDir, "github.com", "acme", "depot", "42", prHead); o.Dir != want {
		t.Errorf("cached at %s, want %s", o.Dir, want)
	}
	// Every list is longer than a page of 2: each was read past its Link header.
	for _, path := range []string{"/repos/acme/depot/issues/42/comments", "/repos/acme/depot/pulls/42/commits",
		"/repos/acme/depot/pulls/42/reviews", "/repos/acme/depot/pulls/42/comments",
		"/repos/acme/depot/commits/" + prHead + "/check-runs"} {
		if s.ByPath[path] < 2 {
			t.Errorf("%s was read %d times; its pages were not followed", path, s.ByPath[path])
		}
	}
	if s.ByPath["/graphql"] != 2 {
		t.Errorf("the review threads took %d GraphQL pages, want 2 (3 threads, 2 a page)", s.ByPath["/graphql"])
	}

	if p.Plan.ID != "ACME-77" || p.Change.HeadSHA != packetHead {
		t.Errorf("plan id %q, change head %q: the plan or change comment was not read", p.Plan.ID, p.Change.HeadSHA)
	}
	if p.Verdict.Value != "pass" {
		t.Errorf("verdict %q, want pass from the bold-named validation comment", p.Verdict.Value)
	}
	if p.Assessment.Value != "sound" {
		t.Errorf("assessment %q: the latest review by its own heading should win over the draft and the stranger's", p.Assessment.Value)
	}
	if p.Change.URL != "https://github.com/acme/depot/pull/42" {
		t.Errorf("change.md's PR URL = %q", p.Change.URL)
	}
	if p.Evidence.Validated != 3 || p.Evidence.Total != 3 {
		t.Errorf("evidence %d/%d, want 3/3 from the evidence record", p.Evidence.Validated, p.Evidence.Total)
	}
	codes := map[string]int{}
	for _, pr := range p.Problems {
		codes[pr.Code]++
	}
	if codes[packet.CodeLogMissing] != 0 || codes[packet.CodeLogsNotAvailable] != 1 || codes[packet.CodeDocumentIgnored] != 1 {
		t.Errorf("problems %v: want logs-not-available and document-ignored (the stranger's review.md) once, and no log-missing", codes)
	}

	or := p.Origin
	if or == nil {
		t.Fatal("the packet has no origin")
	}
	if got := or.HeadLine(); got != "the packet describes 1f0c3a9; the PR head is 7e2d4b6, 1 commit later" {
		t.Errorf("HeadLine = %q", got)
	}
	if len(or.CommitsAfterPacket) != 1 || !strings.HasPrefix(or.CommitsAfterPacket[0].Message, "retry: name the deadline") {
		t.Errorf("commits after the packet = %+v", or.CommitsAfterPacket)
	}
	ci := or.CI
	// The lintbot commit status counts with the check runs.
	if ci.Success != 3 || ci.Failure != 1 || ci.Skipped != 1 || ci.Pending != 1 || len(ci.Failing) != 1 || ci.Failing[0] != "lint" {
		t.Errorf("CI = %+v, want 3 success, 1 failure (lint), 1 skipped, 1 pending", ci)
	}
	if len(or.OkToTest) != 1 || or.OkToTest[0].By != "dana-maintainer" || or.OkToTest[0].Current {
		t.Errorf("ok to test = %+v, want only the member's, on the older SHA", or.OkToTest)
	}

	diff, err := os.ReadFile(filepath.Join(o.Dir, packet.DiffPath))
	if err != nil || !strings.Contains(string(diff), "return ctx.Err()") || strings.Contains(string(diff), "giving up after") {
		t.Errorf("change.diff is not the diff at the packet's head (err %v)", err)
	}
	after, err := os.ReadFile(filepath.Join(o.Dir, packet.AfterPacketDiff))
	if err != nil || !strings.Contains(string(after), "+\t\t\treturn fmt.Errorf(\"giving up after") {
		t.Errorf("after-packet.diff does not hold the later commit (err %v):\n%s", err, after)
	}

	if d := p.Doc(packet.AfterPacketDoc); d == nil || !strings.Contains(d.Text, "- `7e2d4b6` retry: name the deadline") || !strings.Contains(d.Text, "```diff\n") {
		t.Errorf("after-packet.md does not list the later commit and its diff: %+v", d)
	}
	if f := p.Finding(or.AfterID()); f == nil || len(f.Citations) != 1 || f.Citations[0].Kind != packet.CitePacket {
		t.Errorf("the after-packet item does not lead to after-packet.md: %+v", f)
	}

	threads := map[string]*packet.Finding{}
	for _, f := range p.Findings {
		if strings.HasPrefix(f.ID, "thread:") {
			threads[f.ID] = f
		}
	}
	if len(threads) != 3 {
		t.Fatalf("%d thread findings, want 3", len(threads))
	}
	t2 := threads["thread:PRRT_kwDOthread2"]
	if t2 == nil || !t2.Resolved || t2.Outdated || t2.Source != "lintbot[bot]" || !strings.Contains(t2.Evidence, "Fixed in 7e2d4b6") {
		t.Errorf("thread 2 = %+v, want resolved, from lintbot[bot], with the agent's reply", t2)
	}
	if t3 := threads["thread:PRRT_kwDOthread3"]; t3 == nil || !t3.Outdated || t3.Location != "internal/retry/retry_test.go:47" {
		t.Errorf("thread 3 = %+v, want outdated, at its original line", t3)
	}
	if t1 := threads["thread:PRRT_kwDOthread1"]; t1 == nil || len(t1.Citations) == 0 || t1.Citations[0].Kind != packet.CiteDiff {
		t.Errorf("thread 1's citation does not lead into the diff: %+v", t1)
	}

	g := review.Gate(p)
	checks := map[string]packet.GateCheck{}
	for _, c := range g.Checks {
		checks[c.Name] = c
	}
	if c := checks[packet.CheckPacketCurrent]; c.OK || !strings.Contains(c.Detail, "1 commit later") {
		t.Errorf("packet-current = %+v, want failing until the later commit is reviewed", c)
	}
	if c := checks[review.CheckLogsIntact]; c.Detail != "not checkable: the PR carries the evidence record, not the logs" {
		t.Errorf("logs-intact = %+v", c)
	}
	if g.Command != "/ok to test "+prHead {
		t.Errorf("the gate's command is %q, want the PR head in full", g.Command)
	}

	// Accepting the after-packet item for this pair of heads satisfies it.
	st, err := review.OpenStore(p, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Set([]string{or.AfterID()}, packet.TriageAccepted, "read the one commit", "vet", time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, c := range review.Gate(p).Checks {
		if c.Name == packet.CheckPacketCurrent && !c.OK {
			t.Errorf("packet-current still fails after %s was accepted: %s", or.AfterID(), c.Detail)
		}
	}
}

func TestSummaryJSONSource(t *testing.T) {
	s, opts := newFake(t)
	_, p := openFixture(t, s, opts)
	sum := report.Summarize(p)
	if sum.Source == nil || sum.Source.Kind != "github-pr" || sum.Source.Number != 42 || sum.Source.HeadSHA != prHead || sum.Source.PacketHeadSHA != packetHead {
		t.Fatalf("summary source = %+v", sum.Source)
	}
	var own, thread bool
	for _, f := range sum.Findings {
		switch {
		case f.ID == "review.md#1":
			own = f.Source == "review.md" && f.Resolved == nil
		case f.ID == "thread:PRRT_kwDOthread2":
			thread = f.Source == "lintbot[bot]" && f.Resolved != nil && *f.Resolved && f.Outdated != nil && !*f.Outdated
		}
	}
	if !own || !thread {
		t.Errorf("finding sources: review.md's row ok=%v, thread ok=%v", own, thread)
	}
}

func TestDiffTooLargeIsRebuiltFromFiles(t *testing.T) {
	s, opts := newFake(t)
	s.DiffTooLarge = true
	c, err := NewClient(opts.Config)
	if err != nil {
		t.Fatal(err)
	}
	d, err := c.Fetch(context.Background(), fixtureRef)
	if err != nil {
		t.Fatal(err)
	}
	if !d.DiffRebuilt || len(d.DiffNoPatch) != 1 || d.DiffNoPatch[0] != "internal/retry/testdata/trace.bin" {
		t.Errorf("rebuilt %v, files without a patch %v", d.DiffRebuilt, d.DiffNoPatch)
	}
	pd, probs := packet.ParseDiff([]byte(d.Diff))
	if len(probs) != 0 || len(pd.Files) != 3 || pd.Insertions != 13 {
		t.Errorf("the rebuilt diff parses to %d files, +%d, problems %v", len(pd.Files), pd.Insertions, probs)
	}
	if s.ByPath["/repos/acme/depot/pulls/42/files"] < 2 {
		t.Error("the files list was not read past its first page")
	}
	_, p := openFixture(t, s, opts)
	said := false
	for _, pr := range p.Problems {
		said = said || (pr.Code == packet.CodeFileTooLarge && strings.Contains(pr.Message, "internal/retry/testdata/trace.bin"))
	}
	if !said {
		t.Errorf("the packet does not say which file had no patch: %v", p.Problems)
	}
}

func TestFailuresSayWhatToDo(t *testing.T) {
	reset := time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)
	for _, tc := range []struct {
		name  string
		setup func(*fakeapi.Server, *Options)
		kind  ErrorKind
		says  string
		tries int // requests to the PR, when it matters
	}{
		{"no token", func(s *fakeapi.Server, o *Options) { o.Config.Token = "" }, KindNoToken, "run `gh auth login` or set GH_TOKEN", 0},
		{"401", func(s *fakeapi.Server, o *Options) {
			s.Fail["/pulls/42"] = fakeapi.Failure{Status: 401, Message: "Bad credentials"}
		}, KindUnauthorized, "run `gh auth login` or set GH_TOKEN", 0},
		{"404", func(s *fakeapi.Server, o *Options) { s.F.Number = 41 }, KindNotFound, "does not exist, or the token cannot see it", 0},
		{"rate limited 403", func(s *fakeapi.Server, o *Options) {
			s.Fail["/issues/42/comments"] = fakeapi.Failure{Status: 403, Message: "API rate limit exceeded",
				Header: map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1796117400"}}
		}, KindRateLimited, "resets at 09:30:00 UTC (in 30m0s)", 0},
		{"rate limited 429", func(s *fakeapi.Server, o *Options) {
			s.Fail["/reviews"] = fakeapi.Failure{Status: 429, Message: "secondary rate limit", Header: map[string]string{"Retry-After": "90"}}
		}, KindRateLimited, "in 1m30s", 0},
		{"5xx after retries", func(s *fakeapi.Server, o *Options) {
			s.Fail["/pulls/42/commits"] = fakeapi.Failure{Status: 502, Message: "Server Error"}
		}, KindServer, "3 times", 0},
		{"malformed", func(s *fakeapi.Server, o *Options) { s.Garbage = "/pulls/42/reviews" }, KindMalformed, "not what its API documents", 0},
		{"timeout", func(s *fakeapi.Server, o *Options) {
			s.Latency = 300 * time.Millisecond
			o.Config.Timeout = 50 * time.Millisecond
		}, KindTimeout, "--timeout", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, opts := newFake(t)
			opts.Now = nil
			opts.Config.Now = func() time.Time { return reset.Add(-30 * time.Minute) }
			tc.setup(s, &opts)
			_, err := Open(context.Background(), fixtureRef, opts)
			if !IsKind(err, tc.kind) {
				t.Fatalf("error = %v, want kind %d", err, tc.kind)
			}
			if !strings.Contains(err.Error(), tc.says) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q should be one line saying %q", err, tc.says)
			}
			if entries, _ := os.ReadDir(filepath.Join(opts.CacheDir, "github.com", "acme", "depot", "42")); len(entries) > 0 {
				t.Errorf("a failed open left %d entries in the cache", len(entries))
			}
			if tc.kind == KindServer && s.ByPath["/repos/acme/depot/pulls/42/commits"] != 3 {
				t.Errorf("a 502 was tried %d times, want 3 (two retries)", s.ByPath["/repos/acme/depot/pulls/42/commits"])
			}
		})
	}
}

func TestReopenAsksWithETags(t *testing.T) {
	s, opts := newFake(t)
	openFixture(t, s, opts)
	if s.NotModified != 0 {
		t.Fatalf("%d answers were 304 on a first visit", s.NotModified)
	}
	first := s.Requests
	o, p := openFixture(t, s, opts)
	if s.NotModified == 0 || s.NotModified < (s.Requests-first)/2 {
		t.Errorf("a second visit got %d 304s out of %d requests", s.NotModified, s.Requests-first)
	}
	if p.Assessment.Value != "sound" || len(p.Findings) != 5 {
		t.Errorf("the re-opened packet lost content: assessment %q, %d findings", p.Assessment.Value, len(p.Findings))
	}
	off, err := Open(context.Background(), fixtureRef, Options{CacheDir: opts.CacheDir, Offline: true})
	if err != nil || off.Dir != o.Dir {
		t.Errorf("offline open = %+v, %v; want the cached %s", off, err, o.Dir)
	}
	if _, err := Open(context.Background(), Ref{Host: "github.com", Owner: "acme", Repo: "depot", Number: 9}, Options{CacheDir: opts.CacheDir, Offline: true}); err == nil || !strings.Contains(err.Error(), "without --offline") {
		t.Errorf("offline open of an uncached PR: %v", err)
	}
}

func TestPacketHeadForcePushedAway(t *testing.T) {
	s, opts := newFake(t)
	s.Fail["/compare/"+packetHead+"..."] = fakeapi.Failure{Status: 404, Message: "Not Found"}
	_, p := openFixture(t, s, opts)
	if got := p.Origin.HeadLine(); !strings.Contains(got, "the packet describes 1f0c3a9, which the repository no longer has") {
		t.Errorf("HeadLine = %q", got)
	}
	for _, c := range review.Gate(p).Checks {
		if c.Name == packet.CheckPacketCurrent && c.OK {
			t.Error("packet-current holds for a packet whose head is gone")
		}
	}
}

func TestLocalPacketDiffMismatch(t *testing.T) {
	s, opts := newFake(t)
	o, _ := openFixture(t, s, opts)
	local := t.TempDir()
	for _, n := range []string{packet.PlanFile, packet.ChangeFile, packet.ReviewFile, packet.ValidationFile} {
		data, _ := os.ReadFile(filepath.Join(o.Dir, n))
		os.WriteFile(filepath.Join(local, n), data, 0o644)
	}
	diff, _ := os.ReadFile(filepath.Join(o.Dir, packet.DiffPath))
	os.WriteFile(filepath.Join(local, packet.DiffPath), []byte(strings.Replace(string(diff), "+\t_ = Do(", "+\t_ = DoAgain(", 1)), 0o644)
	os.MkdirAll(filepath.Join(local, "validation", "logs"), 0o755)
	os.WriteFile(filepath.Join(local, "validation", "logs", "u.log"), []byte("ok\n[exit 0 after 1 s]\n"), 0o644)
	os.WriteFile(filepath.Join(local, packet.RegistryFile), []byte(`{"seq":1,"recipe":"01-unit-tests","status":"validated","log":"validation/logs/u.log","exit_code":0}`+"\n"), 0o644)

	opts.LocalPacket = local
	o2, err := Open(context.Background(), fixtureRef, opts)
	if err != nil {
		t.Fatal(err)
	}
	p, err := packet.Load(o2.Dir, packet.Options{OriginRoot: opts.CacheDir})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var mismatch string
	for _, pr := range p.Problems {
		if pr.Code == packet.CodeDiffMismatch {
			mismatch = pr.Message
		}
		if pr.Code == packet.CodeLogsNotAvailable {
			t.Error("logs-not-available with a local packet's logs at hand")
		}
	}
	if !strings.Contains(mismatch, "internal/retry/retry_test.go") || strings.Contains(mismatch, "internal/retry/retry.go,") {
		t.Errorf("packet-diff-mismatch = %q, want it to name retry_test.go only", mismatch)
	}
	if p.Log("validation/logs/u.log") == nil {
		t.Error("the local packet's log was not carried over")
	}
}

func TestRefreshInPlaceRewritesOnlyWhatChanged(t *testing.T) {
	s, opts := newFake(t)
	o, _ := openFixture(t, s, opts)
	plan := filepath.Join(o.Dir, packet.PlanFile)
	before, _ := os.Stat(plan)
	// The agent edits its review: the comment's body is what GitHub returns now.
	for _, c := range s.F.Comments {
		if strings.Contains(c["body"].(string), "## Assessment: sound\n\n## Findings") {
			c["body"] = strings.Replace(c["body"].(string), "## Assessment: sound", "## Assessment: needs_changes", 1)
		}
	}
	opts.InPlace = true
	o2, err := Open(context.Background(), fixtureRef, opts)
	if err != nil {
		t.Fatal(err)
	}
	if o2.Dir != o.Dir {
		t.Fatalf("refreshed into %s, want the same folder %s", o2.Dir, o.Dir)
	}
	review, _ := os.ReadFile(filepath.Join(o.Dir, packet.ReviewFile))
	if !strings.Contains(string(review), "## Assessment: needs_changes") {
		t.Error("the edited review was not written")
	}
	if after, _ := os.Stat(plan); !after.ModTime().Equal(before.ModTime()) || !os.SameFile(before, after) {
		t.Error("plan.md was rewritten although it did not change")
	}
}

func TestRefreshIntoTheShownFolderWhenTheHeadMoved(t *testing.T) {
	s, opts := newFake(t)
	o, _ := openFixture(t, s, opts)
	moved := "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432"
	s.F.Pull["head"].(map[string]any)["sha"] = moved
	opts.InPlace, opts.RefreshInto = true, o.Dir
	if _, err := Open(context.Background(), fixtureRef, opts); err != nil {
		t.Fatal(err)
	}
	shown, err := packet.Load(o.Dir, packet.Options{OriginRoot: opts.CacheDir})
	if err != nil {
		t.Fatal(err)
	}
	defer shown.Close()
	if shown.Origin.HeadSHA != moved {
		t.Errorf("the folder on screen still says the head is %s", shown.Origin.HeadSHA)
	}
	if got := Cached(opts.CacheDir, fixtureRef); filepath.Base(got) != moved {
		t.Errorf("the cache's newest head is %s, want the moved one", got)
	}
}

func TestTriageCarriesToANewHead(t *testing.T) {
	s, opts := newFake(t)
	o, p := openFixture(t, s, opts)
	// The reviewer's state is keyed by the work item (the PR's repository
	// and the packet id), not by the cache folder of one head.
	state := t.TempDir()
	st := reviewtest.OpenStoreIn(t, p, state)
	reviewtest.MustSet(t, st, []string{"review.md#1"}, packet.TriageAccepted, "", "vet", time.Now())
	// The babysitter pushes again.
	s.F.Pull["head"].(map[string]any)["sha"] = "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432"
	o2, p2 := openFixture(t, s, opts)
	if o2.Dir == o.Dir {
		t.Fatal("a new head was cached in the old head's folder")
	}
	for _, n := range []string{packet.TriageFile, packet.DecisionsFile} {
		if _, err := os.Stat(filepath.Join(o2.Dir, n)); err == nil {
			t.Errorf("%s was written into the cached packet", n)
		}
	}
	if _, err := review.OpenStore(p2, state); err != nil {
		t.Fatal(err)
	}
	if state, stale, _ := review.TriageOf(p2, p2.Finding("review.md#1")); state != packet.TriageAccepted || stale {
		t.Errorf("review.md#1 at the new head is %s (stale %v), want the accepted carried over", state, stale)
	}
}

// A refresh of an unchanged PR asks every GET with the ETag of the last
// visit, all of them before any answer is in (the benchmark counts the
// rounds), and every one is answered 304.
func TestRefreshIsAllConditional(t *testing.T) {
	s, opts := newFake(t)
	openFixture(t, s, opts)
	before, posts, cond, nm := s.Requests, s.ByPath["/graphql"], s.Conditional, s.NotModified
	openFixture(t, s, opts)
	gets := s.Requests - before - (s.ByPath["/graphql"] - posts)
	// The one GET that is neither: the branch protection the fake does
	// not have (a 404 with no ETag, asked again in the first round).
	if s.ByPath["/repos/acme/depot/branches/main/protection/required_status_checks"] == 0 || s.Conditional-cond != gets-1 || s.NotModified-nm != gets-1 {
		t.Errorf("a refresh sent %d GETs, %d with If-None-Match, %d answered 304", gets, s.Conditional-cond, s.NotModified-nm)
	}
}

// A compare of the PR's base with the packet's head that fails leaves the
// PR head's diff as change.diff, and pr.json says so and names the commit
// that diff is at.
func TestFailedCompareIsSaid(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		says   string
	}{
		{"force-pushed away", 404, "GitHub does not know the packet's head (404)"},
		{"too large", 406, "GitHub refused the diff as too large (406)"},
		{"server error", 502, "GitHub answered 502"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, opts := newFake(t)
			s.Fail["/compare/"] = fakeapi.Failure{Status: tc.status, Message: "nope", Method: http.MethodGet}
			if tc.status != 404 {
				// Only the diff's compare fails; the JSON one answers.
				base := s.F.Pull["base"].(map[string]any)["sha"].(string)
				s.Fail = map[string]fakeapi.Failure{"/compare/" + base: {Status: tc.status, Message: "nope"}}
			}
			o, p := openFixture(t, s, opts)
			if p.Origin.CompareFailed == "" || !strings.Contains(p.Origin.CompareFailed, tc.says) {
				t.Errorf("compare_failed = %q, want it to say %q", p.Origin.CompareFailed, tc.says)
			}
			if p.Origin.DiffSHA != prHead {
				t.Errorf("diff_sha = %s, want the PR head whose diff stands in", p.Origin.DiffSHA)
			}
			diff, _ := os.ReadFile(filepath.Join(o.Dir, packet.DiffPath))
			if string(diff) != s.F.PRDiff {
				t.Error("change.diff is not the PR head's diff")
			}
		})
	}
}

// The cache holds what the API answered with the reviewer's token; no one
// else on the machine may read it: every folder 0700, every file 0600.
func TestCacheIsPrivate(t *testing.T) {
	s, opts := newFake(t)
	openFixture(t, s, opts)
	n := 0
	err := filepath.WalkDir(opts.CacheDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == opts.CacheDir {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		want := fs.FileMode(0o600)
		if d.IsDir() {
			want = 0o700
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s is %v, want %v", path, fi.Mode().Perm(), want)
		}
		n++
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("walking the cache: %v (%d entries)", err, n)
	}
}
