package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// An agent's pull request whose required pre-commit check fails is not
// ready, on every command, and ok-to-test is refused without an override;
// a failing commit status (the older API Jenkins uses) counts with the check
// runs.
func TestFailingRequiredCheckHoldsTheGate(t *testing.T) {
	s := fakeGitHub(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	s.F.CheckRuns = json.RawMessage(`{"total_count": 3, "check_runs": [
	  {"id": 1, "name": "build", "status": "completed", "conclusion": "success"},
	  {"id": 2, "name": "pre-commit", "status": "completed", "conclusion": "failure"},
	  {"id": 3, "name": "docs-preview", "status": "completed", "conclusion": "failure"},
	  {"id": 4, "name": "e2e", "status": "queued", "conclusion": null}]}`)
	s.F.Status = json.RawMessage(`{"state": "failure", "total_count": 2, "statuses": [
	  {"context": "jenkins/required-build", "state": "failure"},
	  {"context": "build", "state": "success"}]}`)
	s.F.Protection = json.RawMessage(`{"contexts": ["build", "pre-commit", "jenkins/required-build"]}`)
	triageAll(t)

	text := mustRun(t, "summary", fixturePR)
	for _, want := range []string{
		"ci        1 success, 3 failure (pre-commit required, docs-preview, jenkins/required-build required), 1 pending (e2e)",
		"✗ ci                 pre-commit and jenkins/required-build are required and failing",
		"Gate        NOT READY",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
	_, errOut, code := run(t, "decide", fixturePR, "--ok-to-test")
	if code != 1 || !strings.Contains(errOut, "ci (pre-commit and jenkins/required-build are required and failing") {
		t.Errorf("decide --ok-to-test on failing required checks: exit %d, %s", code, errOut)
	}

	// Only the optional one failing: shown, and the gate holds without it.
	s.F.CheckRuns = json.RawMessage(`{"total_count": 2, "check_runs": [
	  {"id": 1, "name": "pre-commit", "status": "completed", "conclusion": "success"},
	  {"id": 3, "name": "docs-preview", "status": "completed", "conclusion": "failure"},
	  {"id": 4, "name": "e2e", "status": "in_progress", "conclusion": null}]}`)
	s.F.Status = json.RawMessage(`{"state": "success", "statuses": [{"context": "jenkins/required-build", "state": "success"}]}`)
	// Within a minute of the last read, summary answers from it: --refresh.
	text = mustRun(t, "summary", fixturePR, "--refresh")
	for _, want := range []string{"✓ ci                 no required check fails; optional: docs-preview; 2 success, 1 failure (docs-preview), 1 pending (e2e)",
		"Gate        READY"} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
}

// Without a readable branch protection every failing check counts, a
// commit status included.
func TestEveryFailureCountsWithoutProtection(t *testing.T) {
	s := fakeGitHub(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	s.F.CheckRuns = json.RawMessage(`{"total_count": 1, "check_runs": [{"id": 1, "name": "build", "status": "completed", "conclusion": "success"}]}`)
	s.F.Status = json.RawMessage(`{"state": "failure", "statuses": [{"context": "jenkins/required-build", "state": "error"}]}`)
	triageAll(t)
	text := mustRun(t, "summary", fixturePR)
	want := "✗ ci                 1 check failing (the required checks could not be read, so every failure counts): jenkins/required-build; 1 success, 1 failure (jenkins/required-build)"
	if !strings.Contains(text, want) {
		t.Errorf("summary lacks %q:\n%s", want, text)
	}
}

// A thread resolved on GitHub is shown resolved, by whom, and counts as
// triaged; reopened in vetter it needs triage again.
func TestResolvedThreadDoesNotBlock(t *testing.T) {
	s := fakeGitHub(t)
	lintOptional(s)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	mustRun(t, "triage", fixturePR, "review.md#1", fixtureThread+"1", fixtureThread+"3", fixtureAfter, "--accept", "--note", "read")
	text := mustRun(t, "summary", fixturePR)
	for _, want := range []string{
		"thread:PRRT_kwDOthread2  thread resolved  internal/retry/retry.go:29  by lintbot[bot], resolved by sam-reviewer",
		"thread:PRRT_kwDOthread3  thread accepted  internal/retry/retry_test.go:47  by lintbot[bot], outdated",
		"✓ findings-triaged   all 5 findings triaged (1 resolved on GitHub)",
		"Gate        READY",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
	mustRun(t, "triage", fixturePR, fixtureThread+"2", "--reopen")
	text = mustRun(t, "summary", fixturePR)
	if !strings.Contains(text, "✗ findings-triaged   1 of 5 findings untriaged") {
		t.Errorf("a resolved thread reopened in vetter should need triage:\n%s", text)
	}
}
