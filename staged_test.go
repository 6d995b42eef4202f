package main

import (
	"io"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/cli/cmdutil"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
)

// The workbench's path on a pull request not cached opens it staged: the
// documents and diff at once, pr.json saying what is pending, and a refresh
// that reads the rest into the same folder. A headless command run between
// the two never takes the staged folder for a read: it reads everything.
func TestWorkbenchOpensAColdPullRequestStaged(t *testing.T) {
	s := fakeGitHub(t)
	f := testFactory(io.Discard, io.Discard)
	p, refresh, err := cmdutil.LoadCachedFirst(t.Context(), f, []string{fixturePR}, cmdutil.ReadCachedFirst, packet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := p.Path
	if len(p.Origin.Pending) != 3 || review.Gate(p).Ready || refresh == nil {
		t.Fatalf("a cold open: pending %v, gate ready %v, refresh %v", p.Origin.Pending, review.Gate(p).Ready, refresh != nil)
	}
	p.Close()
	if n := s.ByPath["/graphql"]; n != 0 {
		t.Errorf("the first screen asked for the threads (%d requests)", n)
	}

	sum := mustRun(t, "summary", fixturePR, "--json")
	if strings.Contains(sum, "origin-pending") || strings.Contains(sum, "not read yet") {
		t.Errorf("summary took the staged folder:\n%s", sum)
	}

	if msg := refresh(); msg != "" {
		t.Fatalf("the refresh behind: %s", msg)
	}
	p, err = packet.Load(dir, packet.Options{OriginRoot: f.CacheDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if len(p.Origin.Pending) != 0 || len(p.Origin.Threads) == 0 {
		t.Errorf("after the refresh: pending %v, %d threads", p.Origin.Pending, len(p.Origin.Threads))
	}
}
