package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/github/fakeapi"
)

const (
	fixturePR     = "acme/depot#42"
	fixtureHead   = "7e2d4b6f8a0c1e3d5f7b9a2c4e6d8f0b1a3c5e7d"
	fixtureAfter  = "after:1f0c3a9..7e2d4b6"
	fixtureThread = "thread:PRRT_kwDOthread"
)

// fakeGitHub serves the fixture pull request and points vetter at it the way
// GitHub Actions would, with a token and an empty cache.
func fakeGitHub(t *testing.T) *fakeapi.Server {
	t.Helper()
	pinned(t)
	s, url := fakeapi.Serve(t, "github/testdata/pr", 2)
	t.Setenv("GITHUB_API_URL", url)
	t.Setenv("GITHUB_GRAPHQL_URL", "")
	t.Setenv("GH_TOKEN", "test-token")
	t.Setenv("GH_HOST", "")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("GH_CONFIG_DIR", t.TempDir())
	return s
}

// triageAll makes the fixture's gate ready: every finding triaged and the
// commit after the packet reviewed.
func triageAll(t *testing.T) {
	mustRun(t, "triage", fixturePR, "review.md#1", fixtureThread+"1", fixtureThread+"2", fixtureThread+"3", fixtureAfter, "--accept", "--note", "read")
}

func TestSummaryOfAPullRequest(t *testing.T) {
	fakeGitHub(t)
	out := mustRun(t, "summary", "https://github.com/acme/depot/pull/42", "--json")
	var s struct {
		Source struct {
			Kind, URL, Owner, Repo string
			Number                 int
			HeadSHA                string                          `json:"head_sha"`
			PacketHeadSHA          string                          `json:"packet_head_sha"`
			CommitsAfter           []struct{ SHA, Message string } `json:"commits_after_packet"`
			CI                     struct {
				Success, Failure, Skipped, Pending, Other int
				Failing                                   []string
			}
			OkToTest []struct {
				SHA, By, At string
				Current     bool
			} `json:"ok_to_test"`
		}
		Findings []struct {
			ID, Source string
			Resolved   *bool
		}
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("summary --json: %v\n%s", err, out)
	}
	src := s.Source
	if src.Kind != "github-pr" || src.Owner != "acme" || src.Number != 42 || src.HeadSHA != fixtureHead || len(src.CommitsAfter) != 1 ||
		src.CI.Failure != 1 || src.CI.Failing[0] != "lint" || len(src.OkToTest) != 1 || src.OkToTest[0].Current {
		t.Errorf("source = %+v", src)
	}
	text := mustRun(t, "summary", fixturePR)
	for _, want := range []string{"the packet describes 1f0c3a9; the PR head is 7e2d4b6, 1 commit later",
		"after: 7e2d4b6 retry: name the deadline", "3 success, 1 failure (lint), 1 skipped, 1 pending (docs-preview)",
		"last /ok to test 1f0c3a9 by dana-maintainer", "✗ packet-current"} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
}

// lintOptional has the base branch require build and unit-tests only, so
// the fixture's failing lint does not hold the gate.
func lintOptional(s *fakeapi.Server) {
	s.F.Protection = json.RawMessage(`{"strict": true, "contexts": ["build", "unit-tests"], "checks": [{"context": "build", "app_id": 15368}, {"context": "unit-tests", "app_id": 15368}]}`)
}

func TestPostOkToTestOnlyWhenAllowed(t *testing.T) {
	s := fakeGitHub(t)
	lintOptional(s)
	// Without --post nothing is posted, whatever the gate.
	_, errOut, code := run(t, "decide", fixturePR, "--ok-to-test", "--post")
	if code != 1 || len(s.Posted) != 0 || !strings.Contains(errOut, "packet-current") {
		t.Fatalf("a gate that is not ready: exit %d, posted %q, stderr %s", code, s.Posted, errOut)
	}
	triageAll(t)
	if out := mustRun(t, "decide", fixturePR, "--ok-to-test"); !strings.HasPrefix(out, "/ok to test "+fixtureHead+"\n") {
		t.Errorf("decide prints %q, want the PR head's command first", out)
	}
	if len(s.Posted) != 0 {
		t.Fatalf("decide without --post posted %q", s.Posted)
	}
	_, errOut, code = run(t, "decide", fixturePR, "--ok-to-test", "--post")
	if code != 0 || len(s.Posted) != 1 || s.Posted[0] != "/ok to test "+fixtureHead {
		t.Fatalf("a ready gate: exit %d, posted %q, stderr %s", code, s.Posted, errOut)
	}
	if !strings.Contains(errOut, "posted /ok to test "+fixtureHead) {
		t.Errorf("stderr does not say what was posted: %s", errOut)
	}
}

func TestPostRefusesAMovedHeadEvenForced(t *testing.T) {
	s := fakeGitHub(t)
	triageAll(t)
	// The next read of the PR — the one just before posting — finds a push.
	s.HeadAfterReads = s.ByPath["/repos/acme/depot/pulls/42"] + 1
	s.NewHead = "9999999999999999999999999999999999999999"
	_, errOut, code := run(t, "decide", fixturePR, "--ok-to-test", "--post", "--force", "--note", "trust me")
	if code != 1 || len(s.Posted) != 0 || !strings.Contains(errOut, "moved from 7e2d4b6 to 9999999") {
		t.Fatalf("a moved head: exit %d, posted %q, stderr %s", code, s.Posted, errOut)
	}
}

func TestForcedPostIsJournaled(t *testing.T) {
	s := fakeGitHub(t)
	_, errOut, code := run(t, "decide", fixturePR, "--ok-to-test", "--post", "--force", "--note", "lint failure is the known flake")
	if code != 0 || len(s.Posted) != 1 || !strings.Contains(errOut, "override") {
		t.Fatalf("forced: exit %d, posted %q, stderr %s", code, s.Posted, errOut)
	}
	// Once a pull request is involved, the GitHub account is named beside
	// the person (GET /user).
	if !strings.Contains(errOut, "(github: you)") {
		t.Errorf("the decision does not name the GitHub login: %s", errOut)
	}
}

func TestPullRequestFailuresExit2(t *testing.T) {
	s := fakeGitHub(t)
	t.Setenv("GH_TOKEN", "")
	t.Setenv("GITHUB_TOKEN", "")
	t.Setenv("GH_ENTERPRISE_TOKEN", "")
	t.Setenv("PATH", "")
	_, errOut, code := run(t, "check", fixturePR)
	if code != 2 || !strings.Contains(errOut, "run `gh auth login` or set GH_TOKEN") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("no token: exit %d, stderr %q", code, errOut)
	}
	t.Setenv("GH_TOKEN", "test-token")
	_, errOut, code = run(t, "summary", "acme/depot#41")
	if code != 2 || !strings.Contains(errOut, "does not exist, or the token cannot see it") {
		t.Errorf("404: exit %d, stderr %q", code, errOut)
	}
	if _, _, code = run(t, "decide", fixturePR, "--ok-to-test", "--post"); code != 1 || len(s.Posted) != 0 {
		t.Errorf("exit %d, posted %q", code, s.Posted)
	}
}

func TestExportPostsTheReviewOnlyWithPost(t *testing.T) {
	s := fakeGitHub(t)
	mustRun(t, "triage", fixturePR, "review.md#1", "--accept", "--note", "assert the error")
	mustRun(t, "export", fixturePR, "--format", "github-review")
	if len(s.Reviews) != 0 {
		t.Fatalf("export without --post posted %d reviews", len(s.Reviews))
	}
	_, errOut, code := run(t, "export", fixturePR, "--format", "github-review", "--post")
	if code != 0 || len(s.Reviews) != 1 {
		t.Fatalf("export --post: exit %d, %d reviews posted, stderr %s", code, len(s.Reviews), errOut)
	}
	body, _ := json.Marshal(s.Reviews[0])
	if !strings.Contains(string(body), "vetter review") || strings.Contains(string(body), "channel is not drained") {
		t.Errorf("the posted review should be vetter's own, without lintbot's threads echoed: %s", body)
	}
	if _, _, code := run(t, "export", fixturePR, "--format", "sarif", "--post"); code != 2 || len(s.Reviews) != 1 {
		t.Errorf("--post with sarif: exit %d, reviews %d", code, len(s.Reviews))
	}
}

// A post GitHub answers with a 5xx is not tried again: it may have landed.
func TestPostIsNeverRetried(t *testing.T) {
	s := fakeGitHub(t)
	lintOptional(s)
	triageAll(t)
	s.Fail["/issues/42/comments"] = fakeapi.Failure{Status: 502, Message: "Server Error", Method: "POST"}
	_, errOut, code := run(t, "decide", fixturePR, "--ok-to-test", "--post")
	if code != 2 || s.Posts != 1 || !strings.Contains(errOut, "answered 502") || !strings.Contains(errOut, "once") {
		t.Errorf("a 502 on the post: exit %d, %d posts tried, stderr %s", code, s.Posts, errOut)
	}
}

func TestSummaryMarkdownOfAPullRequest(t *testing.T) {
	fakeGitHub(t)
	md := mustRun(t, "summary", fixturePR, "--markdown")
	for _, want := range []string{"| Pull request head | the packet describes 1f0c3a9; the PR head is 7e2d4b6, 1 commit later |",
		"| CI | 3 success, 1 failure (lint), 1 skipped, 1 pending (docs-preview) |", "| Vetting | last /ok to test 1f0c3a9 by dana-maintainer"} {
		if !strings.Contains(md, want) {
			t.Errorf("the markdown summary lacks %q:\n%s", want, md)
		}
	}
}
