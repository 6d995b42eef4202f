package main

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/github/fakeapi"
)

// pointChangeAt rewrites the agent's change.md comment to name url.
func pointChangeAt(t *testing.T, s *fakeapi.Server, url string) {
	t.Helper()
	if !s.F.ReplaceInComment("PR URL: https://github.com/acme/depot/pull/42", "PR URL: "+url) {
		t.Fatal("no change.md comment names the PR")
	}
}

// The review goes to the pull request typed, whatever change.md says; the
// mismatch is reported.
func TestReviewGoesToTheTypedPR(t *testing.T) {
	for _, url := range []string{"https://github.com/elsewhere/other/pull/42", "https://ghe.proxy.example/acme/depot/pull/12568"} {
		t.Run(url, func(t *testing.T) {
			s := fakeGitHub(t)
			pointChangeAt(t, s, url)
			_, errOut, code := run(t, "export", fixturePR, "--format", "github-review")
			if code != 0 || !strings.Contains(errOut, "gh api repos/acme/depot/pulls/42/reviews --input -") || strings.Contains(errOut, "GH_HOST") ||
				strings.Contains(errOut, "elsewhere") || strings.Contains(errOut, "12568") {
				t.Errorf("exit %d; the gh api line is not the typed PR's:\n%s", code, errOut)
			}
			out, _, _ := run(t, "summary", fixturePR)
			if !strings.Contains(out, "pr        https://github.com/acme/depot/pull/42") || !strings.Contains(out, "change.md names "+url) {
				t.Errorf("summary's pr line or the mismatch:\n%s", out)
			}
			sum := mustRun(t, "summary", fixturePR, "--json")
			var s2 struct {
				Change   struct{ URL string }
				Problems []struct{ Code string }
			}
			json.Unmarshal([]byte(sum), &s2)
			mism := false
			for _, p := range s2.Problems {
				mism = mism || p.Code == "packet-pr-mismatch"
			}
			if s2.Change.URL != "https://github.com/acme/depot/pull/42" || !mism {
				t.Errorf("summary --json: change.url %q, packet-pr-mismatch reported %v", s2.Change.URL, mism)
			}
		})
	}
}

// reviewdog and code scanning get vetter's own findings only: another
// reviewer's threads would be posted again in vetter's name.
func TestMachineExportsLeaveOthersThreadsOut(t *testing.T) {
	fakeGitHub(t)
	rd := mustRun(t, "export", fixturePR, "--format", "rdjsonl")
	sc := bufio.NewScanner(strings.NewReader(rd))
	n := 0
	for sc.Scan() {
		n++
		if strings.Contains(sc.Text(), "thread:") || strings.Contains(sc.Text(), "channel is not drained") {
			t.Errorf("rdjsonl carries another reviewer's thread: %s", sc.Text())
		}
	}
	if n == 0 {
		t.Error("rdjsonl has no diagnostics at all")
	}
	sarif := mustRun(t, "export", fixturePR, "--format", "sarif")
	if strings.Contains(sarif, "thread:") || strings.Contains(sarif, "lintbot") {
		t.Error("SARIF carries another reviewer's thread")
	}
	md := mustRun(t, "export", fixturePR, "--format", "markdown")
	if !strings.Contains(md, "#### Other reviewers' threads (3, context)") ||
		!strings.Contains(md, "| lintbot[bot] | `internal/retry/retry.go:28` | open |") {
		t.Errorf("the markdown export does not list the threads as context with their source:\n%s", md)
	}
	if strings.Contains(md, "| 0 | `internal/retry") {
		t.Errorf("the markdown export still numbers threads as findings:\n%s", md)
	}
}

// A failed compare: the overview's problem, and the review anchored to the
// commit whose diff change.diff is.
func TestFailedCompareExportsMatchTheDiff(t *testing.T) {
	s := fakeGitHub(t)
	base := s.F.Pull["base"].(map[string]any)["sha"].(string)
	s.Fail["/compare/"+base] = fakeapi.Failure{Status: 502, Message: "Server Error"}
	out := mustRun(t, "export", fixturePR, "--format", "github-review")
	var r struct {
		CommitID string `json:"commit_id"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.CommitID != s.Head() {
		t.Errorf("commit_id %s, want the PR head %s whose diff change.diff is", r.CommitID, s.Head())
	}
	sum := mustRun(t, "summary", fixturePR)
	if !strings.Contains(sum, "packet-compare-failed") && !strings.Contains(sum, "could not be read: GitHub answered 502") {
		t.Errorf("the failed compare is not said:\n%s", sum)
	}
}

// summary and --print answer from a read less than a minute old; --refresh
// reads GitHub anyway.
func TestSummaryUsesAFreshRead(t *testing.T) {
	s := fakeGitHub(t)
	mustRun(t, "summary", fixturePR)
	first := s.Requests
	if first == 0 {
		t.Fatal("the first summary read nothing")
	}
	mustRun(t, "summary", fixturePR)
	mustRun(t, fixturePR, "--print")
	if s.Requests != first {
		t.Errorf("summary and --print within the minute sent %d requests", s.Requests-first)
	}
	mustRun(t, "summary", fixturePR, "--refresh")
	if s.Requests == first {
		t.Error("--refresh did not read GitHub")
	}
}
