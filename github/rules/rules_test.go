package rules

import (
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/packet"
)

func TestOkToTestCounts(t *testing.T) {
	for a, want := range map[string]bool{"OWNER": true, "member": true, "COLLABORATOR": true, "CONTRIBUTOR": false, "NONE": false, "FIRST_TIME_CONTRIBUTOR": false, "": false} {
		if OkToTestCounts(a) != want {
			t.Errorf("OkToTestCounts(%s) = %v", a, !want)
		}
	}
}

func TestOkToTestLines(t *testing.T) {
	sha := "1bb1c70f4285cf39d8ebaf61573f0095423d52b1"
	for _, c := range []struct {
		head, url string
		want      []string
	}{
		{sha, "https://github.com/acme/depot/pull/2318", []string{"/ok to test " + sha,
			"gh pr comment https://github.com/acme/depot/pull/2318 --body '/ok to test " + sha + "'"}},
		{sha, "https://github.com/acme/depot/pull/2318/", []string{"/ok to test " + sha,
			"gh pr comment https://github.com/acme/depot/pull/2318 --body '/ok to test " + sha + "'"}},
		{sha, "", []string{"/ok to test " + sha}},
		{sha, "https://gitlab.example.com/acme/depot/-/merge_requests/7", []string{"/ok to test " + sha}},
		{sha, "https://github.com/acme/depot/pull/2318; rm -rf ~", []string{"/ok to test " + sha}},
		{sha, "https://github.com/acme/$(id)/pull/1", []string{"/ok to test " + sha}},
		{sha, "https://github.com/acme/../pull/1", []string{"/ok to test " + sha}},
		{sha, "http://github.com/acme/depot/pull/1", []string{"/ok to test " + sha}},
		{sha, "https://github.com.evil/acme/depot/pull/1", []string{"/ok to test " + sha}},
		// No commit to bind the words to: nothing to post at all.
		{"HEAD", "https://github.com/acme/depot/pull/2318", nil},
		{"", "https://github.com/acme/depot/pull/2318", nil},
	} {
		p := &packet.Packet{Change: packet.Change{HeadSHA: c.head, URL: c.url}}
		got := OkToTestLines(p)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") || (c.want == nil) != (got == nil) {
			t.Errorf("%s %q:\n got %q\nwant %q", c.head, c.url, got, c.want)
		}
	}
}

// The gh command is printed for a pull request however its host is spelled,
// and for an enterprise host with GH_HOST.
func TestReviewCommandHosts(t *testing.T) {
	for _, c := range []struct{ url, input, want string }{
		{"https://github.com/acme/depot/pull/2318", "r.json", "gh api repos/acme/depot/pulls/2318/reviews --input r.json"},
		{"https://github.com/acme/depot/pull/2318", "review file.json", "gh api repos/acme/depot/pulls/2318/reviews --input 'review file.json'"},
		{"https://github.com/acme/depot/pull/2318", "-", "gh api repos/acme/depot/pulls/2318/reviews --input -"},
		{"https://GitHub.com/acme/depot/pull/2318/", "r.json", "gh api repos/acme/depot/pulls/2318/reviews --input r.json"},
		{"https://www.github.com/acme/depot/pull/2318", "r.json", "gh api repos/acme/depot/pulls/2318/reviews --input r.json"},
		{"http://github.com/acme/depot/pull/2318", "r.json", "gh api repos/acme/depot/pulls/2318/reviews --input r.json"},
		{"https://ghe.acme.dev/acme/depot/pull/7", "r.json", "GH_HOST=ghe.acme.dev gh api repos/acme/depot/pulls/7/reviews --input r.json"},
		{"https://github.com/acme/depot/issues/7", "r.json", ""},
		{"https://github.com/acme/../pull/7", "r.json", ""},
		{"https://github.com/acme/depot/pull/7; rm -rf ~", "r.json", ""},
	} {
		p := &packet.Packet{Change: packet.Change{URL: c.url}}
		got, ok := ReviewCommand(p, c.input)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s %s: %q %v, want %q", c.url, c.input, got, ok, c.want)
		}
	}
	if got := ReviewCommandPattern("r.json"); got != "gh api repos/OWNER/REPO/pulls/N/reviews --input r.json" {
		t.Errorf("pattern: %q", got)
	}
}

// A packet read from a pull request posts where the origin says, never
// where change.md points.
func TestReviewCommandFollowsTheOrigin(t *testing.T) {
	p := &packet.Packet{
		Change: packet.Change{URL: "https://github.com/evil/elsewhere/pull/1"},
		Origin: &packet.Origin{Kind: packet.OriginKindPR, URL: "https://github.com/acme/depot/pull/2318"},
	}
	if got, _ := ReviewCommand(p, "-"); got != "gh api repos/acme/depot/pulls/2318/reviews --input -" {
		t.Errorf("command = %q", got)
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"plain":        "plain",
		"/ok to test":  "'/ok to test'",
		"it's":         `'it'\''s'`,
		"":             "''",
		"$(id)":        "'$(id)'",
		"a/b.json":     "a/b.json",
		"x\ny":         "'x\ny'",
		"review*.json": "'review*.json'",
	} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
