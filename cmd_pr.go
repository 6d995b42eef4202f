package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/cli/go-gh/v2/pkg/repository"
	"github.com/spf13/cobra"

	"github.com/vetter-dev/vetter/github"
	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/ui"
)

// prFlags are the options for a PACKET given as a pull request; they apply
// to every command that takes a PACKET.
type prFlags struct {
	offline     bool
	timeout     time.Duration
	localPacket string
	// cachedFirst opens a cached copy at once and refreshes it behind the
	// workbench, which reloads when the folder changes; the headless
	// commands read the pull request fresh.
	cachedFirst bool
	// fresh lets a read less than github.Fresh old answer (summary and
	// --print, which only report); refresh reads the pull request anyway.
	// Commands that decide or post always read it.
	fresh, refresh bool
	// refreshed, after a cached copy was opened first, waits for its
	// refresh and says what failed ("" when nothing did).
	refreshed func() string
}

// prOpts is set by the root command's persistent flags on each run.
var prOpts prFlags

func addPRFlags(root *cobra.Command) {
	// Only the workbench (root's RunE) opens a cached copy first.
	prOpts.cachedFirst = false
	prOpts.refreshed, prOpts.fresh = nil, false
	f := root.PersistentFlags()
	f.BoolVar(&prOpts.offline, "offline", false, "open a pull request from the cache without the network")
	f.DurationVar(&prOpts.timeout, "timeout", 30*time.Second, "how long reading a pull request may take")
	f.BoolVar(&prOpts.refresh, "refresh", false, fmt.Sprintf("with a pull request: read it from GitHub even when it was read less than %s ago (summary and --print answer from that read otherwise)", github.Fresh))
	f.StringVar(&prOpts.localPacket, "packet", "", "with a pull request: a packet folder or archive of the same work item, whose registry and logs are used and whose diff is checked against the PR's")
}

// currentRepo is the clone's GitHub repository, for "#N" and "N".
func currentRepo() (host, owner, repo string, err error) {
	r, err := repository.Current()
	if err != nil {
		return "", "", "", err
	}
	return r.Host, r.Owner, r.Name, nil
}

// resolvePacketArg turns a PACKET argument into a path packet.Load reads:
// a path that exists is itself; a pull-request reference is read from
// GitHub (or the cache) into a packet folder, and src says which PR it is.
func resolvePacketArg(arg string) (path string, src *github.Opened, err error) {
	if _, statErr := os.Stat(arg); statErr == nil {
		return arg, nil, nil
	}
	ref, err := github.ParseRef(arg, github.DefaultHost(), currentRepo)
	if errors.Is(err, github.ErrNotARef) {
		return arg, nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	cfg := github.Config{Host: ref.Host, Timeout: prOpts.timeout, Retries: 2, Backoff: 500 * time.Millisecond}.FromEnv()
	opts := github.Options{Config: cfg, Offline: prOpts.offline, LocalPacket: prOpts.localPacket}
	if prOpts.fresh && !prOpts.refresh {
		opts.FreshFor = github.Fresh
	}
	if prOpts.cachedFirst && !prOpts.offline {
		if root, err := github.DefaultCacheDir(); err == nil {
			if dir, at := github.CachedAt(root, ref); dir != "" {
				// The cached copy is on screen at once; the workbench
				// starts the refresh once it has loaded it (the two would
				// only slow each other), and says on the status line when
				// it failed, with when the copy was read.
				opts.InPlace, opts.RefreshInto, opts.FreshFor = true, dir, 0
				prOpts.refreshed = func() string {
					if _, err := github.Open(context.Background(), ref, opts); err != nil {
						return github.RefreshFailed(err, at, time.Now())
					}
					return ""
				}
				return dir, &github.Opened{Ref: ref, Dir: dir, FromCache: true}, nil
			}
		}
	}
	o, err := github.Open(context.Background(), ref, opts)
	if err != nil {
		return "", nil, err
	}
	return o.Dir, o, nil
}

// poster posts "/ok to test <sha>" on the pull request a packet came from.
type poster struct {
	c      *github.Client
	ref    github.Ref
	sha    string // the head that was reviewed
	stderr io.Writer
}

// newPoster refuses --post before anything is recorded: it needs a pull
// request, and a head that is still the one reviewed.
func newPoster(p *packet.Packet, stderr io.Writer) (*poster, error) {
	o := p.Origin
	if o == nil || o.Kind != packet.OriginKindPR {
		say(stderr, "vetter: --post needs a pull request (https://github.com/OWNER/REPO/pull/N or OWNER/REPO#N), not a packet folder")
		return nil, exitError{2}
	}
	ref := github.Ref{Host: "github.com", Owner: o.Owner, Repo: o.Repo, Number: o.Number}
	if r, err := github.ParseRef(o.URL, github.DefaultHost(), nil); err == nil {
		ref = r
	}
	c, err := github.NewClient(github.Config{Host: ref.Host, Timeout: prOpts.timeout}.FromEnv())
	if err != nil {
		say(stderr, "vetter: nothing posted: %s", sanitizedErr(err))
		return nil, exitError{2}
	}
	return &poster{c: c, ref: ref, sha: o.HeadSHA, stderr: stderr}, nil
}

// checkHead re-reads the PR's head: one that moved since the review is
// refused, --force or not, since the new commits were never vetted.
func (pp *poster) checkHead() error {
	head, err := pp.c.HeadSHA(context.Background(), pp.ref)
	if err != nil {
		say(pp.stderr, "vetter: nothing posted: %s", sanitizedErr(err))
		return exitError{2}
	}
	if !commitid.Same(head, pp.sha) {
		say(pp.stderr, "vetter: refusing to post: the head of %s moved from %s to %s since the review; nothing posted (open it again and review the new commits)",
			pp.ref, commitid.Short(pp.sha), commitid.Short(head))
		return exitError{1}
	}
	return nil
}

// post re-reads the head once more, just before posting, and posts.
func (pp *poster) post() error {
	if err := pp.checkHead(); err != nil {
		return err
	}
	url, err := pp.c.PostComment(context.Background(), pp.ref, "/ok to test "+pp.sha)
	if err != nil {
		say(pp.stderr, "vetter: posting to %s: %s", pp.ref, sanitizedErr(err))
		return exitError{2}
	}
	say(pp.stderr, "posted /ok to test %s to %s %s", pp.sha, pp.ref, url)
	return nil
}

// postReview posts an exported github-review as it is: one request, never
// repeated (a second try could post the review twice).
func (pp *poster) postReview(body []byte) error {
	url, err := pp.c.PostReview(context.Background(), pp.ref, body)
	if err != nil {
		say(pp.stderr, "vetter: posting the review to %s: %s", pp.ref, sanitizedErr(err))
		return exitError{2}
	}
	say(pp.stderr, "posted the review to %s %s", pp.ref, url)
	return nil
}

// workbenchPoster is how the decision screen posts /ok to test on the pull
// request p came from (after a y to its question); nil for a plain packet.
func workbenchPoster(p *packet.Packet) func(sha string) (string, error) {
	if p.Origin == nil || p.Origin.Kind != packet.OriginKindPR {
		return nil
	}
	return func(sha string) (string, error) {
		pp, err := newPoster(p, io.Discard)
		if err != nil {
			return "", errors.New("no GitHub client: run `gh auth login` or set GH_TOKEN")
		}
		head, err := pp.c.HeadSHA(context.Background(), pp.ref)
		if err != nil {
			return "", err
		}
		if !commitid.Same(head, sha) {
			return "", fmt.Errorf("the head of %s moved from %s to %s since the review", pp.ref, commitid.Short(sha), commitid.Short(head))
		}
		return pp.c.PostComment(context.Background(), pp.ref, "/ok to test "+sha)
	}
}

func sanitizedErr(err error) string { return ui.Sanitize(err.Error()) }
