// Package github opens a GitHub pull request as a work-item packet: it reads
// the pull request, its comments, reviews, threads, checks and diff through
// go-gh, rebuilds the packet the agent posted as comments, and writes it as a
// folder that packet.Load reads. The packet package never imports this one,
// and the screens see a packet, not an API.
package github

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/vetter-dev/vetter/packet"
)

// Ref names one pull request.
type Ref struct {
	Host   string // github.com or an enterprise host
	Owner  string
	Repo   string
	Number int
}

// String is the short form people type: OWNER/REPO#N (HOST/ first off github.com).
func (r Ref) String() string {
	s := fmt.Sprintf("%s/%s#%d", r.Owner, r.Repo, r.Number)
	if r.Host != "" && r.Host != "github.com" {
		s = r.Host + "/" + s
	}
	return s
}

// URL is the pull request's web address, the one change.md names.
func (r Ref) URL() string {
	return fmt.Sprintf("https://%s/%s/%s/pull/%d", r.hostOr(), r.Owner, r.Repo, r.Number)
}

func (r Ref) hostOr() string {
	if r.Host == "" {
		return "github.com"
	}
	return r.Host
}

// ErrNotARef says an argument is not a pull-request reference at all, so the
// caller should treat it as a path.
var ErrNotARef = errors.New("not a pull-request reference")

var (
	nameRe     = `[A-Za-z0-9_.-]+`
	shortRefRe = regexp.MustCompile(`^(?:(` + nameRe + `)/)?(` + nameRe + `)/(` + nameRe + `)#([0-9]+)$`)
	numberRe   = regexp.MustCompile(`^#?([0-9]+)$`)
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
		u, err := url.Parse(arg)
		if err != nil {
			return Ref{}, fmt.Errorf("reading the pull-request URL %q: %w", arg, err)
		}
		parts := strings.Split(strings.Trim(u.Path, "/"), "/")
		if len(parts) < 4 || parts[2] != "pull" {
			return Ref{}, fmt.Errorf("%q is not a pull-request URL: want https://HOST/OWNER/REPO/pull/N", arg)
		}
		n, err := strconv.Atoi(parts[3])
		if err != nil || n <= 0 {
			return Ref{}, fmt.Errorf("%q is not a pull-request URL: %q is not a number", arg, parts[3])
		}
		return Ref{Host: strings.ToLower(u.Hostname()), Owner: parts[0], Repo: parts[1], Number: n}, nil
	}
	if m := shortRefRe.FindStringSubmatch(arg); m != nil {
		n, err := strconv.Atoi(m[4])
		if err != nil || n <= 0 {
			return Ref{}, fmt.Errorf("%q: %q is not a pull-request number", arg, m[4])
		}
		host := defaultHost
		if m[1] != "" {
			host = strings.ToLower(m[1])
		}
		return Ref{Host: host, Owner: m[2], Repo: m[3], Number: n}, nil
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

func validName(s string) bool { return s != "." && s != ".." && nameOnlyRe.MatchString(s) }

var nameOnlyRe = regexp.MustCompile(`^` + nameRe + `$`)

// same reports whether two references name one pull request (GitHub's
// names are not case-sensitive; a host left empty is github.com).
func (r Ref) same(o Ref) bool {
	return strings.EqualFold(r.hostOr(), o.hostOr()) && strings.EqualFold(r.Owner, o.Owner) &&
		strings.EqualFold(r.Repo, o.Repo) && r.Number == o.Number
}

// names reports whether a pull-request address (as a packet writes it:
// any case, www., a trailing slash) is this pull request.
func (r Ref) names(url string) bool {
	host, pr, ok := packet.AnyPullRequestURL(url)
	return ok && r.same(Ref{Host: host, Owner: pr.Owner, Repo: pr.Repo, Number: pr.Number})
}
