package github

import (
	"testing"

	"github.com/vetter-dev/vetter/github/fakeapi"
)

// pointChangeAt rewrites the agent's change.md comment to name another
// pull request.
func pointChangeAt(t *testing.T, s *fakeapi.Server, url string) {
	t.Helper()
	if !s.F.ReplaceInComment("PR URL: https://github.com/acme/depot/pull/42", "PR URL: "+url) {
		t.Fatal("no change.md comment names the PR")
	}
}

// The pull request is where things go: the one typed, as GitHub answers
// for it. A change.md naming another is kept only to be reported.
func TestThePRNotThePacketIsTheTarget(t *testing.T) {
	for _, url := range []string{
		"https://github.com/elsewhere/other/pull/42",
		"https://github.com/acme/depot/pull/12568",
		"https://proxy.example.net/acme/depot/pull/42",
	} {
		t.Run(url, func(t *testing.T) {
			s, opts := newFake(t)
			pointChangeAt(t, s, url)
			_, p := openFixture(t, s, opts)
			o := p.Origin
			if o.URL != "https://github.com/acme/depot/pull/42" || o.Owner != "acme" || o.Repo != "depot" || o.Number != 42 {
				t.Errorf("origin names %s (%s/%s#%d), want the typed PR as GitHub answered it", o.URL, o.Owner, o.Repo, o.Number)
			}
			if o.PacketURL != url {
				t.Errorf("packet_url = %q, want change.md's %q kept to be reported", o.PacketURL, url)
			}
		})
	}
}

// A repository renamed since the reference was typed: GitHub's base.repo
// names it now, and html_url agrees.
func TestRenamedRepositoryTakesGitHubsName(t *testing.T) {
	s, opts := newFake(t)
	base := s.F.Pull["base"].(map[string]any)
	base["repo"].(map[string]any)["name"] = "depot-renamed"
	s.F.Pull["html_url"] = "https://github.com/acme/depot-renamed/pull/42"
	_, p := openFixture(t, s, opts)
	if o := p.Origin; o.Repo != "depot-renamed" || o.URL != "https://github.com/acme/depot-renamed/pull/42" {
		t.Errorf("origin = %s/%s %s, want GitHub's new name", o.Owner, o.Repo, o.URL)
	}
	// change.md still names the old address: another name, reported.
	if p.Origin.PacketURL != "https://github.com/acme/depot/pull/42" {
		t.Errorf("packet_url = %q", p.Origin.PacketURL)
	}
}

// An html_url that names another pull request is not taken.
func TestHTMLURLOfAnotherPRIsNotTaken(t *testing.T) {
	s, opts := newFake(t)
	s.F.Pull["html_url"] = "https://github.com/elsewhere/other/pull/7"
	_, p := openFixture(t, s, opts)
	if p.Origin.URL != "https://github.com/acme/depot/pull/42" {
		t.Errorf("origin URL = %s", p.Origin.URL)
	}
}
