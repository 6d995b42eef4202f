package attention

import (
	"context"
	"errors"
	"testing"

	"github.com/vetter-dev/vetter/attention/rules"
)

type fakeChecker struct {
	own   map[string]bool // owner/repo@sha that are the repository's
	err   error
	calls int
}

func (f *fakeChecker) CommitInRepo(_ context.Context, owner, repo, sha string) (bool, error) {
	f.calls++
	return f.own[owner+"/"+repo+"@"+sha], f.err
}

// Pins are marked not checked by the scan, and CheckPins turns the marks
// into answers: a fork's commit is a high gha-impostor-commit item, the
// repository's own commit needs no look, an unanswered question says why.
func TestCheckPins(t *testing.T) {
	const good = "1111111111111111111111111111111111111111"
	const fork = "2222222222222222222222222222222222222222"
	diff := addedFile(".github/workflows/a.yml", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"+
		"      - uses: acme/setup@"+good+" # v1\n"+
		"      - uses: acme/setup@"+fork+" # v1\n"+
		"      - uses: acme/setup@"+fork+" # v1.0.0")
	_, items := scanDiff(t, "pins", []byte(diff))
	unchecked := 0
	for _, a := range items {
		if a.Rule == "gha-pinned-unchecked" {
			unchecked++
		}
	}
	if unchecked != 3 {
		t.Fatalf("want 3 gha-pinned-unchecked items offline, got %d", unchecked)
	}

	c := &fakeChecker{own: map[string]bool{"acme/setup@" + good: true}}
	got := CheckPins(context.Background(), items, c)
	var impostors []int
	for _, a := range got {
		switch a.Rule {
		case "gha-pinned-unchecked":
			t.Errorf("line %d still unchecked", a.NewLine)
		case "gha-impostor-commit":
			if a.Severity != rules.High {
				t.Errorf("impostor on line %d is %s", a.NewLine, a.Severity)
			}
			impostors = append(impostors, a.NewLine)
		}
	}
	if len(impostors) != 2 || impostors[0] != 7 || impostors[1] != 8 {
		t.Errorf("impostor lines %v, want [7 8]", impostors)
	}
	if c.calls != 2 {
		t.Errorf("asked %d times, want once per repository and commit (2)", c.calls)
	}
	if got[0].Rule != "gha-impostor-commit" {
		t.Errorf("the high items come first; got %s first", got[0].Rule)
	}

	failing := &fakeChecker{err: errors.New("rate limited\nretry later")}
	for _, a := range CheckPins(context.Background(), items, failing) {
		if a.Rule == "gha-pinned-unchecked" && a.Title != "pins an action to a commit SHA (could not check it: rate limited)" {
			t.Errorf("unanswered pin says %q", a.Title)
		}
		if a.Rule == "gha-impostor-commit" {
			t.Errorf("an unanswered question made an impostor of line %d", a.NewLine)
		}
	}
}
