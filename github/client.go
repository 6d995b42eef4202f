package github

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cli/go-gh/v2/pkg/api"
	"github.com/cli/go-gh/v2/pkg/auth"
)

// Config says where and how to talk to GitHub. FromEnv fills it as gh and
// GitHub Actions would.
type Config struct {
	Host  string // the pull request's host: github.com or an enterprise host
	Token string // "" looks it up as gh does (GH_TOKEN, GITHUB_TOKEN, gh auth login)
	// APIURL and GraphQLURL override where requests go (GITHUB_API_URL,
	// GITHUB_GRAPHQL_URL); "" means the host's own API.
	APIURL, GraphQLURL string
	Timeout            time.Duration // whole fetch; 30 s when zero
	// Transport carries every request (tests count round trips with it).
	Transport http.RoundTripper
	// Retries is how many times a 5xx or a dropped connection is tried
	// again, waiting Backoff, then twice that, between tries.
	Retries int
	Backoff time.Duration
	// Now is the clock rate-limit messages are written against.
	Now func() time.Time
}

// FromEnv completes cfg from the environment: GH_HOST when no host was
// named, GITHUB_API_URL and GITHUB_GRAPHQL_URL (which defaults to
// GITHUB_API_URL + "/graphql", as Actions sets them), and the token.
func (cfg Config) FromEnv() Config {
	if cfg.Host == "" {
		cfg.Host, _ = auth.DefaultHost()
	}
	if cfg.APIURL == "" {
		cfg.APIURL = os.Getenv("GITHUB_API_URL")
	}
	if cfg.GraphQLURL == "" {
		cfg.GraphQLURL = os.Getenv("GITHUB_GRAPHQL_URL")
	}
	if cfg.Token == "" {
		cfg.Token, _ = auth.TokenForHost(cfg.Host)
	}
	return cfg
}

// DefaultHost is GH_HOST, else gh's configured default, else github.com.
func DefaultHost() string {
	h, _ := auth.DefaultHost()
	return h
}

// Client reads and writes one host's API through go-gh's HTTP client, which
// adds the token (only to the API host), gh's headers and GH_DEBUG logging.
type Client struct {
	http    *http.Client
	rest    string // base URL ending in "/"
	graphql string
	retries int
	backoff time.Duration
	now     func() time.Time
	timeout time.Duration

	// cache holds the ETag and body of every GET answered before, so a
	// repeat visit asks with If-None-Match and a 304 costs no rate limit.
	mu    sync.Mutex
	cache map[string]cachedResponse
}

type cachedResponse struct {
	ETag string `json:"etag"`
	Link string `json:"link,omitempty"`
	Body []byte `json:"body"`
}

// NewClient builds a client for cfg (see Config.FromEnv).
func NewClient(cfg Config) (*Client, error) {
	if cfg.Token == "" {
		return nil, &Error{Kind: KindNoToken, Msg: fmt.Sprintf("no GitHub token for %s: run `gh auth login` or set GH_TOKEN", orGitHub(cfg.Host))}
	}
	host := orGitHub(cfg.Host)
	rest := restBase(host)
	if cfg.APIURL != "" {
		rest = strings.TrimRight(cfg.APIURL, "/") + "/"
	}
	graphql := cfg.GraphQLURL
	if graphql == "" {
		graphql = strings.TrimRight(rest, "/") + "/graphql"
		if cfg.APIURL == "" && host != "github.com" {
			graphql = "https://" + host + "/api/graphql"
		}
	}
	opts := api.ClientOptions{Host: host, AuthToken: cfg.Token, Transport: cfg.Transport, LogIgnoreEnv: false}
	if opts.Transport == nil {
		opts.Transport = http.DefaultTransport
	}
	// go-gh sends the token only to the host and to APIHost: pointing APIHost
	// at GITHUB_API_URL's host is how a proxy or a test server gets it.
	if cfg.APIURL != "" {
		u, err := url.Parse(rest)
		if err != nil || u.Hostname() == "" {
			return nil, fmt.Errorf("reading GITHUB_API_URL %q: not a URL", cfg.APIURL)
		}
		if !strings.EqualFold(u.Hostname(), host) && !strings.HasSuffix(strings.ToLower(u.Hostname()), "."+strings.ToLower(host)) {
			opts.APIHost = u.Hostname()
		}
	}
	hc, err := api.NewHTTPClient(opts)
	if err != nil {
		return nil, fmt.Errorf("setting up the GitHub client for %s: %w", host, err)
	}
	c := &Client{http: hc, rest: rest, graphql: graphql, retries: cfg.Retries, backoff: cfg.Backoff,
		now: cfg.Now, timeout: cfg.Timeout, cache: map[string]cachedResponse{}}
	if c.now == nil {
		c.now = time.Now
	}
	if c.timeout == 0 {
		c.timeout = 30 * time.Second
	}
	return c, nil
}

func orGitHub(h string) string {
	if h == "" {
		return "github.com"
	}
	return strings.ToLower(h)
}

// restBase is go-gh's REST prefix for a host: api.github.com, or /api/v3/ on
// an enterprise host.
func restBase(host string) string {
	if auth.IsEnterprise(host) {
		return "https://" + host + "/api/v3/"
	}
	return "https://api." + host + "/"
}

// ---- errors ----------------------------------------------------------------

// ErrorKind says which failure a user met, so the command can say what to do.
type ErrorKind int

const (
	KindNoToken ErrorKind = iota + 1
	KindUnauthorized
	KindNotFound
	KindForbidden
	KindRateLimited
	KindServer
	KindTimeout
	KindNetwork
	KindMalformed
	KindOther
)

// Error is one failure talking to GitHub, with a one-line message that says
// what to do.
type Error struct {
	Kind   ErrorKind
	Status int
	Msg    string
	// Reset is when a rate limit lifts (zero when unknown).
	Reset time.Time
}

func (e *Error) Error() string { return e.Msg }

// IsKind reports whether err is a GitHub error of kind k.
func IsKind(err error, k ErrorKind) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == k
}

// classify turns a non-2xx answer into an Error that says what to do.
func (c *Client) classify(what string, status int, h http.Header, body []byte, tries int) *Error {
	msg := apiMessage(body)
	if msg != "" {
		msg = ": " + msg
	}
	switch {
	case status == http.StatusUnauthorized:
		return &Error{Kind: KindUnauthorized, Status: status, Msg: fmt.Sprintf("GitHub refused the token reading %s (401%s): run `gh auth login` or set GH_TOKEN to a valid token", what, msg)}
	case (status == http.StatusForbidden || status == http.StatusTooManyRequests) && (h.Get("X-RateLimit-Remaining") == "0" || h.Get("Retry-After") != ""):
		reset := c.resetTime(h)
		when := "later"
		if !reset.IsZero() {
			when = fmt.Sprintf("at %s (in %s)", reset.UTC().Format("15:04:05 UTC"), reset.Sub(c.now()).Round(time.Second))
		}
		return &Error{Kind: KindRateLimited, Status: status, Reset: reset, Msg: fmt.Sprintf("GitHub's rate limit is spent reading %s (%d): it resets %s; try again then", what, status, when)}
	case status == http.StatusForbidden:
		return &Error{Kind: KindForbidden, Status: status, Msg: fmt.Sprintf("GitHub refused %s (403%s): the token lacks access; check `gh auth status` and the token's scopes", what, msg)}
	case status == http.StatusNotFound:
		return &Error{Kind: KindNotFound, Status: status, Msg: fmt.Sprintf("%s: not found (404): the pull request or repository does not exist, or the token cannot see it (check `gh auth status`)", what)}
	case status >= 500:
		times := "once"
		if tries > 1 {
			times = fmt.Sprintf("%d times", tries)
		}
		return &Error{Kind: KindServer, Status: status, Msg: fmt.Sprintf("GitHub answered %d to %s, %s: GitHub is having trouble; try again in a few minutes", status, what, times)}
	}
	return &Error{Kind: KindOther, Status: status, Msg: fmt.Sprintf("GitHub answered %d reading %s%s", status, what, msg)}
}

func (c *Client) resetTime(h http.Header) time.Time {
	if s := h.Get("Retry-After"); s != "" {
		if n, err := strconv.Atoi(s); err == nil {
			return c.now().Add(time.Duration(n) * time.Second)
		}
		if t, err := http.ParseTime(s); err == nil {
			return t
		}
	}
	if s := h.Get("X-RateLimit-Reset"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return time.Unix(n, 0)
		}
	}
	return time.Time{}
}

// apiMessage is GitHub's {"message": ...} from an error body, on one line.
func apiMessage(body []byte) string {
	var m struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &m) != nil {
		return ""
	}
	return strings.Join(strings.Fields(m.Message), " ")
}

// ---- requests ----------------------------------------------------------------

type response struct {
	Status int
	Header http.Header
	Body   []byte
	URL    string
}

// url makes an absolute URL of an API path; absolute URLs (Link headers)
// pass unchanged.
func (c *Client) url(pathOrURL string) string {
	if strings.HasPrefix(pathOrURL, "https://") || strings.HasPrefix(pathOrURL, "http://") {
		return pathOrURL
	}
	return c.rest + strings.TrimLeft(pathOrURL, "/")
}

// do sends one request, trying a 5xx or a dropped connection again with
// backoff, and returns any 2xx or 304 answer; anything else is an Error.
// what names the resource for the message.
func (c *Client) do(ctx context.Context, method, pathOrURL, accept string, body []byte, what string) (*response, error) {
	return c.send(ctx, method, pathOrURL, accept, body, what, c.retries, true)
}

// doOnce sends a request that must not be repeated or answered from the
// cache: a post (a second try could post twice) or the head re-read before
// posting.
func (c *Client) doOnce(ctx context.Context, method, pathOrURL string, body []byte, what string) (*response, error) {
	return c.send(ctx, method, pathOrURL, "application/vnd.github+json", body, what, 0, false)
}

// bodyLimit caps one answer from GitHub; a larger one is an error, never
// a silently shortened diff.
const bodyLimit = 256 << 20

func (c *Client) send(ctx context.Context, method, pathOrURL, accept string, body []byte, what string, retries int, useCache bool) (*response, error) {
	u := c.url(pathOrURL)
	var cached cachedResponse
	if method == http.MethodGet && useCache {
		c.mu.Lock()
		cached = c.cache[accept+" "+u]
		c.mu.Unlock()
	}
	wait := c.backoff
	for attempt := 0; ; attempt++ {
		var rd io.Reader
		if body != nil {
			rd = bytes.NewReader(body)
		}
		req, err := http.NewRequestWithContext(ctx, method, u, rd)
		if err != nil {
			return nil, fmt.Errorf("building the request for %s: %w", what, err)
		}
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		if cached.ETag != "" {
			req.Header.Set("If-None-Match", cached.ETag)
		}
		resp, err := c.http.Do(req)
		var r *response
		if err == nil {
			var data []byte
			data, err = io.ReadAll(io.LimitReader(resp.Body, bodyLimit+1))
			resp.Body.Close()
			if err == nil && len(data) > bodyLimit {
				return nil, malformed(what, fmt.Errorf("the answer is larger than %d MiB; vetter reads no more", bodyLimit>>20))
			}
			r = &response{Status: resp.StatusCode, Header: resp.Header, Body: data, URL: u}
		}
		if err != nil {
			if ctx.Err() != nil || isTimeout(err) {
				return nil, &Error{Kind: KindTimeout, Msg: fmt.Sprintf("no answer from GitHub within %s reading %s: check the network, or give more time with --timeout", c.timeout, what)}
			}
			if attempt < retries {
				if !sleepCtx(ctx, wait) {
					continue
				}
				wait *= 2
				continue
			}
			return nil, &Error{Kind: KindNetwork, Msg: fmt.Sprintf("cannot reach GitHub reading %s: %v; check the network or GITHUB_API_URL", what, err)}
		}
		switch {
		case r.Status == http.StatusNotModified && cached.ETag != "":
			r.Body, r.Status = cached.Body, http.StatusOK
			if r.Header.Get("Link") == "" && cached.Link != "" {
				r.Header.Set("Link", cached.Link)
			}
			return r, nil
		case r.Status >= 200 && r.Status < 300:
			if et := r.Header.Get("ETag"); et != "" && method == http.MethodGet && useCache {
				c.mu.Lock()
				c.cache[accept+" "+u] = cachedResponse{ETag: et, Link: r.Header.Get("Link"), Body: r.Body}
				c.mu.Unlock()
			}
			return r, nil
		case r.Status >= 500 && attempt < retries:
			if !sleepCtx(ctx, wait) {
				continue
			}
			wait *= 2
			continue
		}
		return r, c.classify(what, r.Status, r.Header, r.Body, attempt+1)
	}
}

// sleepCtx waits d or until ctx ends; false when it ended (the next try
// then fails fast with the timeout).
func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// getJSON reads one resource into v.
func (c *Client) getJSON(ctx context.Context, path, what string, v any) error {
	r, err := c.do(ctx, http.MethodGet, path, "application/vnd.github+json", nil, what)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(r.Body, v); err != nil {
		return malformed(what, err)
	}
	return nil
}

func malformed(what string, err error) error {
	return &Error{Kind: KindMalformed, Msg: fmt.Sprintf("GitHub's answer for %s is not what its API documents (%v): retry, or report it if it persists", what, err)}
}

// getAll reads every page of a list, following the Link header: when the
// first page names the last one by a page number, the remaining pages are
// read at once rather than one after another.
func getAll[T any](ctx context.Context, c *Client, path, what string) ([]T, error) {
	return getPages(ctx, c, path, what, func(b []byte) ([]T, error) {
		var page []T
		err := json.Unmarshal(b, &page)
		return page, err
	})
}

// getAllIn reads every page of a list that each page wraps in an object,
// under field (the check runs: {"total_count": N, "check_runs": [...]}).
func getAllIn[T any](ctx context.Context, c *Client, path, field, what string) ([]T, error) {
	return getPages(ctx, c, path, what, func(b []byte) ([]T, error) {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(b, &obj); err != nil {
			return nil, err
		}
		var page []T
		if raw, ok := obj[field]; ok {
			if err := json.Unmarshal(raw, &page); err != nil {
				return nil, err
			}
		}
		return page, nil
	})
}

func getPages[T any](ctx context.Context, c *Client, path, what string, decode func([]byte) ([]T, error)) ([]T, error) {
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	first, err := c.do(ctx, http.MethodGet, path+sep+"per_page=100", "application/vnd.github+json", nil, what)
	if err != nil {
		return nil, err
	}
	out, err := decode(first.Body)
	if err != nil {
		return nil, malformed(what, err)
	}
	links := parseLink(first.Header.Get("Link"))
	if pages := pageURLs(links["next"], links["last"]); pages != nil {
		rest := make([][]T, len(pages))
		errs := make([]error, len(pages))
		var wg sync.WaitGroup
		for i, u := range pages {
			wg.Go(func() {
				r, err := c.do(ctx, http.MethodGet, u, "application/vnd.github+json", nil, what)
				if err == nil {
					if rest[i], err = decode(r.Body); err != nil {
						err = malformed(what, err)
					}
				}
				errs[i] = err
			})
		}
		wg.Wait()
		for i := range pages {
			if errs[i] != nil {
				return nil, errs[i]
			}
			out = append(out, rest[i]...)
		}
		return out, nil
	}
	for next := links["next"]; next != ""; {
		r, err := c.do(ctx, http.MethodGet, next, "application/vnd.github+json", nil, what)
		if err != nil {
			return nil, err
		}
		page, err := decode(r.Body)
		if err != nil {
			return nil, malformed(what, err)
		}
		out = append(out, page...)
		next = parseLink(r.Header.Get("Link"))["next"]
	}
	return out, nil
}

// parseLink reads an RFC 8288 Link header into rel -> URL.
func parseLink(h string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split(h, ",") {
		segs := strings.Split(part, ";")
		if len(segs) < 2 {
			continue
		}
		u := strings.TrimSpace(segs[0])
		if !strings.HasPrefix(u, "<") || !strings.HasSuffix(u, ">") {
			continue
		}
		u = u[1 : len(u)-1]
		for _, s := range segs[1:] {
			s = strings.TrimSpace(s)
			if rel, ok := strings.CutPrefix(s, "rel="); ok {
				for _, r := range strings.Fields(strings.Trim(rel, `"`)) {
					out[r] = u
				}
			}
		}
	}
	return out
}

// pageURLs lists the pages from next to last when both differ only in their
// page number, so they can be read at once; nil otherwise (then next is
// followed page by page).
func pageURLs(next, last string) []string {
	if next == "" || last == "" {
		return nil
	}
	nu, err1 := url.Parse(next)
	lu, err2 := url.Parse(last)
	if err1 != nil || err2 != nil {
		return nil
	}
	nq, lq := nu.Query(), lu.Query()
	from, err1 := strconv.Atoi(nq.Get("page"))
	to, err2 := strconv.Atoi(lq.Get("page"))
	if err1 != nil || err2 != nil || to < from || to-from > 50 {
		return nil
	}
	nq.Del("page")
	lq.Del("page")
	if nu.Path != lu.Path || nq.Encode() != lq.Encode() {
		return nil
	}
	var out []string
	for p := from; p <= to; p++ {
		q := nu.Query()
		q.Set("page", strconv.Itoa(p))
		u := *nu
		u.RawQuery = q.Encode()
		out = append(out, u.String())
	}
	return out
}

// graphQL posts one query and decodes its data into v.
func (c *Client) graphQL(ctx context.Context, query string, vars map[string]any, what string, v any) error {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return fmt.Errorf("encoding the query for %s: %w", what, err)
	}
	r, err := c.do(ctx, http.MethodPost, c.graphql, "application/json", body, what)
	if err != nil {
		return err
	}
	var env struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(r.Body, &env); err != nil {
		return malformed(what, err)
	}
	if len(env.Errors) > 0 {
		e := env.Errors[0]
		if e.Type == "NOT_FOUND" {
			return &Error{Kind: KindNotFound, Msg: fmt.Sprintf("%s: not found: the pull request or repository does not exist, or the token cannot see it (check `gh auth status`)", what)}
		}
		if e.Type == "RATE_LIMITED" {
			return &Error{Kind: KindRateLimited, Msg: fmt.Sprintf("GitHub's GraphQL rate limit is spent reading %s: try again in an hour", what)}
		}
		return &Error{Kind: KindOther, Msg: fmt.Sprintf("GitHub's GraphQL API refused %s: %s", what, strings.Join(strings.Fields(e.Message), " "))}
	}
	if err := json.Unmarshal(env.Data, v); err != nil {
		return malformed(what, err)
	}
	return nil
}
