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
