package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/packet"
)

// A review whose body would pass GitHub's 65,536-character limit lists what
// fits and says how many it left out.
func TestGitHubReviewBodyLimit(t *testing.T) {
	p := packet.LoadSample(packet.Options{})
	claim := strings.Repeat("a long claim about the plan ", 40)
	for i := range 200 {
		p.Findings = append(p.Findings, &packet.Finding{
			ID: fmt.Sprintf("review.md#%d", 100+i), Number: 100 + i, Location: "plan.md:1",
			Severity: "nit", Claim: claim,
		})
	}
	r := BuildGitHubReview(p)
	if len(r.Body) > GitHubBodyLimit {
		t.Fatalf("body is %d bytes", len(r.Body))
	}
	if !strings.Contains(r.Body, "more, left out to stay under GitHub's 65,536-character limit") {
		t.Errorf("the body does not say what it left out:\n%s", r.Body[len(r.Body)-400:])
	}
	small := BuildGitHubReview(packet.LoadSample(packet.Options{}))
	if strings.Contains(small.Body, "left out") {
		t.Error("a small review leaves something out")
	}
}

// The gh command is printed for a pull request however its host is spelled,
// and for an enterprise host with GH_HOST.
func TestGitHubReviewCommandHosts(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"https://github.com/acme/depot/pull/2318", "gh api repos/acme/depot/pulls/2318/reviews --input r.json"},
		{"https://GitHub.com/acme/depot/pull/2318/", "gh api repos/acme/depot/pulls/2318/reviews --input r.json"},
		{"https://www.github.com/acme/depot/pull/2318", "gh api repos/acme/depot/pulls/2318/reviews --input r.json"},
		{"http://github.com/acme/depot/pull/2318", "gh api repos/acme/depot/pulls/2318/reviews --input r.json"},
		{"https://ghe.acme.dev/acme/depot/pull/7", "GH_HOST=ghe.acme.dev gh api repos/acme/depot/pulls/7/reviews --input r.json"},
		{"https://github.com/acme/depot/issues/7", ""},
		{"https://github.com/acme/../pull/7", ""},
		{"https://github.com/acme/depot/pull/7; rm -rf ~", ""},
	} {
		p := &packet.Packet{Change: packet.Change{URL: c.url}}
		got, ok := GitHubReviewCommand(p, "r.json")
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s: %q %v, want %q", c.url, got, ok, c.want)
		}
	}
}
