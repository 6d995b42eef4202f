// Package github opens a GitHub pull request as a work-item packet: it reads
// the pull request, its comments, reviews, threads, checks and diff through
// go-gh, rebuilds the packet the agent posted as comments, and writes it as a
// folder that packet.Load reads. The packet package never imports this one,
// and the screens see a packet, not an API.
package github

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/vetter-dev/vetter/internal/prref"
)

// Ref names one pull request; the reading and spelling of references is
// prref's, shared with the review's work-item key.
type Ref = prref.Ref

// ErrNotARef says an argument is not a pull-request reference at all, so the
// caller should treat it as a path.
var ErrNotARef = errors.New("not a pull-request reference")

var (
	numberRe = regexp.MustCompile(`^#?([0-9]+)$`)
)

// CurrentRepo is the repository of the clone vetter runs in (go-gh's
// repository.Current in production), for "#N" and "N".
type CurrentRepo func() (host, owner, repo string, err error)

// ParseRef reads https://HOST/OWNER/REPO/pull/N, [HOST/]OWNER/REPO#N, or
// #N / N inside a clone (through current). defaultHost is GH_HOST's value or
// github.com. It returns ErrNotARef when arg has none of these shapes.
func ParseRef(arg, defaultHost string, current CurrentRepo) (Ref, error) {
	if defaultHost == "" {
		defaultHost = "github.com"
	}
	if strings.HasPrefix(arg, "https://") || strings.HasPrefix(arg, "http://") {
		if r, ok := prref.ParseURL(arg); ok {
			return r, nil
		}
		return Ref{}, fmt.Errorf("%q is not a pull-request URL: want https://HOST/OWNER/REPO/pull/N", arg)
	}
	if r, ok, err := prref.ParseShort(arg, defaultHost); ok {
		return r, err
	}
	if m := numberRe.FindStringSubmatch(arg); m != nil {
		n, err := strconv.Atoi(m[1])
		if err != nil || n <= 0 {
			return Ref{}, fmt.Errorf("%q is not a pull-request number", arg)
		}
		if current == nil {
			return Ref{}, fmt.Errorf("%s names a pull request by number only: run vetter inside a clone of its repository, or give OWNER/REPO#%d", arg, n)
		}
		host, owner, repo, err := current()
		if err != nil {
			return Ref{}, fmt.Errorf("%s names a pull request by number only, and the current directory is not a clone with a GitHub remote (%v): give OWNER/REPO#%d", arg, err, n)
		}
		return Ref{Host: host, Owner: owner, Repo: repo, Number: n}, nil
	}
	return Ref{}, ErrNotARef
}

// namesRef reports whether a pull-request address (as a packet writes it:
// any case, www., a trailing slash) is this pull request.
func namesRef(r Ref, url string) bool {
	o, ok := prref.ParseURL(url)
	return ok && r.Same(o)
}
