// Package prref reads the ways a pull request is named in text: its web
// address and the short OWNER/REPO#N form. It is a leaf, so that the GitHub
// client, the review's work-item key and the exports all read a reference the
// same way; what may be done with one (posting, fetching) is the github
// package's business.
package prref

import (
	"fmt"
	"strconv"
	"strings"
)

// Ref names one pull request. Host is lower case and never starts with
// "www."; an empty Host means github.com.
type Ref struct {
	Host   string
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

// URL is the pull request's canonical web address.
func (r Ref) URL() string {
	return fmt.Sprintf("https://%s/%s/%s/pull/%d", r.HostOr(), r.Owner, r.Repo, r.Number)
}

// RepositoryURL is the repository's web address.
func (r Ref) RepositoryURL() string {
	return fmt.Sprintf("https://%s/%s/%s", r.HostOr(), r.Owner, r.Repo)
}

// HostOr is Host, or github.com when it is empty.
func (r Ref) HostOr() string {
	if r.Host == "" {
		return "github.com"
	}
	return r.Host
}

const (
	ownerRe  = `([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))`
	repoRe   = `([A-Za-z0-9._-]{1,100})`
	numberRe = `([1-9][0-9]{0,9})`
	hostRe   = `([A-Za-z0-9.-]+(?::[0-9]{1,5})?)`
	// A pull request's page has tabs (/files, /commits, /checks) and may
	// carry a query or an anchor; none of it changes which pull request the
	// address names, and none of it is kept.
	tailRe = `(?:/[A-Za-z0-9._/-]*)?(?:[?#][^\s]*)?`
	// nameRe is what the short form allows in a host, owner or repository
	// name: the characters GitHub and its enterprise hosts use.
	nameRe = `[A-Za-z0-9_.-]+`
)

var (
	canonical = lazyRegexp(`^https://github\.com/` + ownerRe + `/` + repoRe + `/pull/` + numberRe + `/?$`)
	anyURL    = lazyRegexp(`^(?i:https?)://` + hostRe + `/` + ownerRe + `/` + repoRe + `/pull/` + numberRe + tailRe + `$`)
	short     = lazyRegexp(`^(?:(` + nameRe + `)/)?(` + nameRe + `)/(` + nameRe + `)#([0-9]+)$`)
	// A GitLab merge request: the project sits under a namespace of one or
	// more groups, and the page is under /-/ (older addresses leave it out).
	mergeRequest = lazyRegexp(`^(?i:https?)://` + hostRe + `/((?:` + nameRe + `/)+)(` + nameRe + `)/merge_requests/` + numberRe + tailRe + `$`)
)

// ParseGitHubURL accepts exactly https://github.com/OWNER/REPO/pull/N (an
// optional trailing slash, spaces around it trimmed). It is the strict door,
// for an address that comes from an untrusted packet and decides where
// something is posted: anything else is not a pull request.
func ParseGitHubURL(s string) (Ref, bool) {
	m := canonical().FindStringSubmatch(strings.TrimSpace(s))
	if m == nil || badRepo(m[2]) {
		return Ref{}, false
	}
	n, err := strconv.Atoi(m[3])
	if err != nil {
		return Ref{}, false
	}
	return Ref{Host: "github.com", Owner: m[1], Repo: m[2], Number: n}, true
}

// ParseURL reads a pull request's address however its host is spelled
// (GitHub.com, www.github.com, http://, an enterprise host with a port) and
// whichever tab of the page it points at. It is the lenient door, for
// addresses a person typed or for commands printed for a person to run.
func ParseURL(s string) (Ref, bool) {
	m := anyURL().FindStringSubmatch(strings.TrimSpace(s))
	if m == nil || badRepo(m[3]) {
		return Ref{}, false
	}
	n, err := strconv.Atoi(m[4])
	if err != nil {
		return Ref{}, false
	}
	host, ok := hostOf(m[1])
	if !ok {
		return Ref{}, false
	}
	return Ref{Host: host, Owner: m[2], Repo: m[3], Number: n}, true
}

// ParseAnyURL reads the address of a change under review on any forge
// vetter knows: a pull request as ParseURL does, or a GitLab merge request
// (https://HOST/GROUP[/SUBGROUP...]/PROJECT/-/merge_requests/N and its
// tabs). A merge request's Owner is its namespace ("group/subgroup"). It
// says which change a packet is about, for keeping the reviewer's record;
// it is no door to an API, which ParseURL and ParseGitHubURL keep.
func ParseAnyURL(s string) (Ref, bool) {
	if r, ok := ParseURL(s); ok {
		return r, true
	}
	m := mergeRequest().FindStringSubmatch(strings.Replace(strings.TrimSpace(s), "/-/merge_requests/", "/merge_requests/", 1))
	if m == nil || badRepo(m[3]) || m[3] == "-" {
		return Ref{}, false
	}
	owner := strings.TrimSuffix(m[2], "/")
	for _, seg := range strings.Split(owner, "/") {
		if badRepo(seg) {
			return Ref{}, false
		}
	}
	n, err := strconv.Atoi(m[4])
	if err != nil {
		return Ref{}, false
	}
	host, ok := hostOf(m[1])
	if !ok {
		return Ref{}, false
	}
	return Ref{Host: host, Owner: owner, Repo: m[3], Number: n}, true
}

// hostOf is an address's host as a work item keeps it: lower case, without
// any "www." (every one, so that the host it gives reads back as itself).
// A host that is nothing but "www." names no host.
func hostOf(raw string) (string, bool) {
	host := strings.ToLower(raw)
	for strings.HasPrefix(host, "www.") {
		host = host[len("www."):]
	}
	return host, host != ""
}

// ParseShort reads [HOST/]OWNER/REPO#N; a missing host is defaultHost. A
// number that is not a positive integer is an error: the text has the shape
// of a reference, so it is not a path either.
func ParseShort(s, defaultHost string) (r Ref, ok bool, err error) {
	m := short().FindStringSubmatch(s)
	if m == nil {
		return Ref{}, false, nil
	}
	n, err := strconv.Atoi(m[4])
	if err != nil || n <= 0 {
		return Ref{}, true, fmt.Errorf("%q: %q is not a pull-request number", s, m[4])
	}
	host := defaultHost
	if m[1] != "" {
		host = strings.ToLower(m[1])
	}
	return Ref{Host: host, Owner: m[2], Repo: m[3], Number: n}, true, nil
}

// Same reports whether two references name one pull request (GitHub's
// names are not case-sensitive; a host left empty is github.com).
func (r Ref) Same(o Ref) bool {
	return strings.EqualFold(r.HostOr(), o.HostOr()) && strings.EqualFold(r.Owner, o.Owner) &&
		strings.EqualFold(r.Repo, o.Repo) && r.Number == o.Number
}

var nameOnly = lazyRegexp(`^` + nameRe + `$`)

// ValidName reports whether s may be an owner or repository name in a
// reference: the short form's characters, and not a path step.
func ValidName(s string) bool { return s != "." && s != ".." && nameOnly().MatchString(s) }

// badRepo rejects the repository names that are path steps, not names.
func badRepo(repo string) bool { return repo == "" || repo == "." || repo == ".." }
