package tui

import (
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/internal/screentest"

	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/screens/findings"
)

// The decision screen's O on a pull request asks before posting, and only y
// posts; the post runs in a command and its outcome is the status line.
func TestOkToTestAsksBeforePosting(t *testing.T) {
	screentest.InBubble(t, testOkToTestAsksBeforePosting)
}

func testOkToTestAsksBeforePosting(t *testing.T) {
	for _, tc := range []struct {
		answer string
		posts  int
	}{{"y", 1}, {"n", 0}, {"", 0}} {
		r := newTestRoot(t, 120, 40)
		r.ctx.Packet.Origin = &packet.Origin{Kind: packet.OriginKindPR, Owner: "acme", Repo: "depot", Number: 2318, HeadSHA: r.ctx.Packet.Change.HeadSHA}
		var posted []string
		r.ctx.PostOkToTest = func(sha string) (string, error) {
			posted = append(posted, sha)
			return "https://github.com/acme/depot/pull/2318#issuecomment-1", nil
		}
		drive(r, r.askPost(r.ctx.Packet.Change.HeadSHA))
		if r.prompt == nil || !strings.Contains(r.prompt.title, "post `/ok to test "+r.ctx.Packet.Change.HeadSHA+"` to acme/depot#2318? y/N") {
			t.Fatalf("no question before posting: %+v", r.prompt)
		}
		for _, k := range tc.answer {
			pressKeys(r, string(k))
		}
		pressKeys(r, "enter")
		if len(posted) != tc.posts {
			t.Errorf("answer %q: posted %d times, want %d", tc.answer, len(posted), tc.posts)
		}
		if tc.posts == 1 && !strings.Contains(r.status, "posted /ok to test") {
			t.Errorf("the status line does not say it was posted: %q", r.status)
		}
	}
}

func TestOkToTestKeyLeadsToTheQuestion(t *testing.T) {
	screentest.InBubble(t, testOkToTestKeyLeadsToTheQuestion)
}

func testOkToTestKeyLeadsToTheQuestion(t *testing.T) {
	r := newTestRoot(t, 120, 40)
	r.ctx.Packet.Origin = &packet.Origin{Kind: packet.OriginKindPR, Owner: "acme", Repo: "depot", Number: 2318, HeadSHA: r.ctx.Packet.Change.HeadSHA}
	st, err := review.OpenStore(r.ctx.Packet, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r.ctx.Store = st
	posted := 0
	r.ctx.PostOkToTest = func(sha string) (string, error) { posted++; return "", nil }
	pressKeys(r, "7", "O")
	for _, k := range "why" { // the sample's gate is not ready: a reason first
		pressKeys(r, string(k))
	}
	pressKeys(r, "enter")
	if r.prompt == nil || !strings.Contains(r.prompt.title, "y/N") {
		t.Fatalf("after ok-to-test the question is not asked: %+v", r.prompt)
	}
	pressKeys(r, "y", "enter")
	if posted != 1 {
		t.Errorf("posted %d times, want 1", posted)
	}
}

// Another reviewer's findings say whose they are in the list, and searching
// for the account finds them.
func TestFindingsShowAndFindTheirSource(t *testing.T) {
	screentest.InBubble(t, testFindingsShowAndFindTheirSource)
}

func testFindingsShowAndFindTheirSource(t *testing.T) {
	r := newTestRoot(t, 160, 40)
	p := r.ctx.Packet
	p.Findings = append(p.Findings, &packet.Finding{ID: "thread:T1", Location: "internal/upload/client.go:97", Severity: "thread",
		Claim: "Clamp the wait.", Source: "coderabbitai[bot]"})
	f := findings.New(r.ctx)
	f.SetSize(160, 38)
	if n := f.Search("coderabbit"); n != 1 {
		t.Fatalf("searching for the account matched %d findings, want 1", n)
	}
	if got := f.Selected().ID; got != "thread:T1" {
		t.Errorf("the search selected %s", got)
	}
	if view := ansi.Strip(f.View()); !strings.Contains(view, "coderabbitai[bot]: Clamp") {
		t.Errorf("the list does not name the thread's source:\n%s", view)
	}
}
