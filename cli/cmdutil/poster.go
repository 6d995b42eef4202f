package cmdutil

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/vetter-dev/vetter/cli/factory"
	"github.com/vetter-dev/vetter/github"
	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
)

// Poster posts on the pull request a packet came from.
type Poster struct {
	c      *github.Client
	ref    github.Ref
	sha    string // the head that was reviewed
	stderr io.Writer
}

// NewPoster refuses --post before anything is recorded: it needs a pull
// request and a GitHub client.
func NewPoster(f *factory.Factory, p *packet.Packet) (*Poster, error) {
	return newPoster(f, p, f.IO.ErrOut)
}

func newPoster(f *factory.Factory, p *packet.Packet, stderr io.Writer) (*Poster, error) {
	ref, ok := PRRef(p)
	if !ok {
		Say(stderr, "vetter: --post needs a pull request (https://github.com/OWNER/REPO/pull/N or OWNER/REPO#N), not a packet folder")
		return nil, ExitError{2}
	}
	c, err := f.GitHubClient(ref.Host)
	if err != nil {
		Say(stderr, "vetter: nothing posted: %s", SanitizedErr(err))
		return nil, ExitError{2}
	}
	return &Poster{c: c, ref: ref, sha: p.Origin.HeadSHA, stderr: stderr}, nil
}

// PRRef is the pull request a packet was read from; ok is false for a
// packet folder or archive.
func PRRef(p *packet.Packet) (ref github.Ref, ok bool) {
	o := p.Origin
	if o == nil || o.Kind != packet.OriginKindPR {
		return github.Ref{}, false
	}
	ref = github.Ref{Host: "github.com", Owner: o.Owner, Repo: o.Repo, Number: o.Number}
	if r, err := github.ParseRef(o.URL, github.DefaultHost(), nil); err == nil {
		ref = r
	}
	return ref, true
}

// Login is the account the client posts as.
func (pp *Poster) Login(ctx context.Context) (string, error) { return pp.c.Login(ctx) }

// HeadMovedError is a pull request whose head is no longer the one
// reviewed: nothing is posted for it, --force or not, since the new commits
// were never vetted.
type HeadMovedError struct {
	Ref            github.Ref
	Reviewed, Head string
}

func (e *HeadMovedError) Error() string {
	return fmt.Sprintf("the head of %s moved from %s to %s since the review", e.Ref, commitid.Short(e.Reviewed), commitid.Short(e.Head))
}

// postError is a post GitHub refused or never answered, as against a head
// that could not be read before it.
type postError struct{ err error }

func (e *postError) Error() string { return e.err.Error() }
func (e *postError) Unwrap() error { return e.err }

// headIs re-reads the pull request's head: nil when it is still sha, a
// *HeadMovedError when it moved, or why it could not be read.
func (pp *Poster) headIs(ctx context.Context, sha string) error {
	head, err := pp.c.HeadSHA(ctx, pp.ref)
	if err != nil {
		return err
	}
	if !commitid.Same(head, sha) {
		return &HeadMovedError{Ref: pp.ref, Reviewed: sha, Head: head}
	}
	return nil
}

// OkToTest posts "/ok to test <sha>" when the pull request's head, re-read
// just before, is still sha; it returns the comment's address.
func (pp *Poster) OkToTest(ctx context.Context, sha string) (string, error) {
	if err := pp.headIs(ctx, sha); err != nil {
		return "", err
	}
	url, err := pp.c.PostComment(ctx, pp.ref, review.OkToTestBody(sha))
	if err != nil {
		return "", &postError{err}
	}
	return url, nil
}

// refusal says on standard error why nothing was posted, and is the exit
// status: 1 for a head that moved, 2 for GitHub's failures.
func (pp *Poster) refusal(err error) error {
	var moved *HeadMovedError
	var perr *postError
	switch {
	case errors.As(err, &moved):
		Say(pp.stderr, "vetter: refusing to post: %s; nothing posted (open it again and review the new commits)", moved)
		return ExitError{1}
	case errors.As(err, &perr):
		Say(pp.stderr, "vetter: posting to %s: %s", pp.ref, SanitizedErr(perr.err))
	default:
		Say(pp.stderr, "vetter: nothing posted: %s", SanitizedErr(err))
	}
	return ExitError{2}
}

// CheckHead refuses, before anything is recorded, a head that moved since
// the review.
func (pp *Poster) CheckHead(ctx context.Context) error {
	if err := pp.headIs(ctx, pp.sha); err != nil {
		return pp.refusal(err)
	}
	return nil
}

// Post posts /ok to test for the reviewed head, re-reading it once more
// just before.
func (pp *Poster) Post(ctx context.Context) error {
	url, err := pp.OkToTest(ctx, pp.sha)
	if err != nil {
		return pp.refusal(err)
	}
	Say(pp.stderr, "posted /ok to test %s to %s %s", pp.sha, pp.ref, url)
	return nil
}

// PostReview posts an exported github-review as it is: one request, never
// repeated (a second try could post the review twice).
func (pp *Poster) PostReview(ctx context.Context, body []byte) error {
	url, err := pp.c.PostReview(ctx, pp.ref, body)
	if err != nil {
		Say(pp.stderr, "vetter: posting the review to %s: %s", pp.ref, SanitizedErr(err))
		return ExitError{2}
	}
	Say(pp.stderr, "posted the review to %s %s", pp.ref, url)
	return nil
}

// WorkbenchPoster is how the decision screen posts /ok to test on the pull
// request p came from (after a y to its question), under ctx; nil for a
// plain packet.
func WorkbenchPoster(ctx context.Context, f *factory.Factory, p *packet.Packet) func(sha string) (string, error) {
	if _, ok := PRRef(p); !ok {
		return nil
	}
	return func(sha string) (string, error) {
		pp, err := newPoster(f, p, io.Discard)
		if err != nil {
			return "", errors.New("no GitHub client: run `gh auth login` or set GH_TOKEN")
		}
		return pp.OkToTest(ctx, sha)
	}
}
