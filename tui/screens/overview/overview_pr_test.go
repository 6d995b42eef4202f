package overview

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/github"
	"github.com/vetter-dev/vetter/github/fakeapi"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

// A pull request whose change.md names another: the overview's pr line is
// the pull request's own, and the mismatch is a problem on it.
func TestOverviewPRLineIsThePRs(t *testing.T) {
	s, url := fakeapi.Serve(t, "../../../github/testdata/pr", 2)
	for _, c := range s.F.Comments {
		if b := c["body"].(string); strings.Contains(b, "PR URL: https://github.com/acme/depot/pull/42") {
			c["body"] = strings.Replace(b, "https://github.com/acme/depot/pull/42", "https://github.com/acme/depot/pull/12568", 1)
		}
	}
	cache := t.TempDir()
	o, err := github.Open(context.Background(), github.Ref{Host: "github.com", Owner: "acme", Repo: "depot", Number: 42},
		github.Options{Config: github.Config{Host: "github.com", Token: "t", APIURL: url, Timeout: 10 * time.Second}, CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	p, err := packet.Load(o.Dir, packet.Options{OriginRoot: cache})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ov := New(common.NewContext(p, true, false))
	ov.SetSize(160, 60)
	v := ansi.Strip(ov.View())
	if !strings.Contains(v, "pr   https://github.com/acme/depot/pull/42") || strings.Contains(v, "pr   https://github.com/acme/depot/pull/12568") {
		t.Errorf("the overview's pr line is not the PR's own:\n%s", v)
	}
	if !strings.Contains(v, "warning change.md change.md names https://github.com/acme/depot/pull/12568, but the packet was read from") {
		t.Errorf("the overview does not report the mismatch:\n%s", v)
	}
}
