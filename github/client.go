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

// orHost is cfg for host when cfg names no host of its own.
func (cfg Config) orHost(host string) Config {
	if cfg.Host == "" {
		cfg.Host = host
	}
	return cfg
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

	// origins are the API's scheme://host:port (REST and GraphQL): the only
	// places a request, and so the token, may go.
	origins []string

	// cache holds the ETag and body of every GET answered before, so a
	// repeat visit asks with If-None-Match and a 304 costs no rate limit.
	mu    sync.Mutex
	cache map[string]cachedResponse
	// ahead holds GETs sent before anyone asked for them (the pages of the
	// last visit, a compare guessed from the first page of comments): the
	// first request for the same URL takes the answer instead of a round
	// trip of its own. Each is taken once, so nothing goes stale.
	ahead map[string]*pending
	// used are the cache keys this client read, the ones worth keeping;
	// dirty says the cache changed since it was loaded.
	used  map[string]bool
	dirty bool
}

// pending is a GET in flight for whoever asks for it first.
type pending struct {
	done chan struct{}
	r    *response
	err  error
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
	origins, err := apiOrigins(rest, graphql)
	if err != nil {
		return nil, err
	}
	next := cfg.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	// go-gh adds the token to any request whose host name is the API's, on
	// any port and scheme; the guard under it lets only the API's own
	// origins through, so a Link, a redirect or a URL in an answer can
	// never carry the token elsewhere.
	opts := api.ClientOptions{Host: host, AuthToken: cfg.Token, Transport: originGuard{origins: origins, next: next}, LogIgnoreEnv: false,
		// A redirect within the API is followed (GitHub moves a renamed
		// repository's requests with a 301); one anywhere else is refused
		// before it is sent, saying where it pointed.
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if !allowedOrigin(origins, req.URL) {
				return &offOriginError{to: originOf(req.URL), how: "a redirect"}
			}
			if len(via) >= 10 {
				return errors.New("stopped after 10 redirects")
			}
			return nil
		}}
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
		now: cfg.Now, timeout: cfg.Timeout, cache: map[string]cachedResponse{}, origins: origins,
		ahead: map[string]*pending{}, used: map[string]bool{}}
	if c.now == nil {
		c.now = time.Now
	}
	if c.timeout == 0 {
		c.timeout = 30 * time.Second
	}
	return c, nil
}

// originOf is a URL's scheme://host:port, the port always written (443
// and 80 for https and http), so two spellings of one origin compare equal
// and another port of the same host does not.
func originOf(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(net.JoinHostPort(u.Hostname(), port))
}

// apiOrigins are the origins of the REST and GraphQL bases.
func apiOrigins(bases ...string) ([]string, error) {
	var out []string
	for _, b := range bases {
		u, err := url.Parse(b)
		if err != nil || u.Hostname() == "" || (u.Scheme != "https" && u.Scheme != "http") {
			return nil, fmt.Errorf("reading the API address %q: not an http(s) URL", b)
		}
		out = append(out, originOf(u))
	}
	return out, nil
}

func allowedOrigin(origins []string, u *url.URL) bool {
	o := originOf(u)
	for _, a := range origins {
		if o == a {
			return true
		}
	}
	return false
}

// offOriginError is a request vetter refused to send because it would
// leave the API's origin.
type offOriginError struct {
	to  string // the origin it pointed at
	how string // "a redirect", "the next page's Link", ...
}

func (e *offOriginError) Error() string {
	return fmt.Sprintf("%s points to %s, outside GitHub's API", e.how, e.to)
}

// originGuard refuses every request outside the API's origins; it sits
// under go-gh's transport, so it sees each request with its token.
type originGuard struct {
	origins []string
	next    http.RoundTripper
}

func (g originGuard) RoundTrip(r *http.Request) (*http.Response, error) {
	if !allowedOrigin(g.origins, r.URL) {
		if r.Body != nil {
			r.Body.Close()
		}
		return nil, &offOriginError{to: originOf(r.URL), how: "a request"}
	}
	return g.next.RoundTrip(r)
}

// offOrigin is the error a refused request becomes: which answer pointed
// where, and that nothing was sent there.
func (c *Client) offOrigin(what string, e *offOriginError) *Error {
	return &Error{Kind: KindOffOrigin, Msg: fmt.Sprintf("GitHub's answer for %s: %s; vetter sends the token only to %s and did not follow it (check GITHUB_API_URL and any proxy in between)",
		what, e.Error(), strings.Join(uniq(c.origins), " and "))}
}

func uniq(s []string) []string {
	var out []string
	for _, x := range s {
		if len(out) == 0 || out[len(out)-1] != x {
			out = append(out, x)
		}
	}
	return out
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
	// KindOffOrigin: an answer pointed outside the API's origin (a Link or
	// a redirect); nothing was sent there.
	KindOffOrigin
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
	if method == http.MethodGet && useCache {
		key := accept + " " + c.url(pathOrURL)
		c.mu.Lock()
		p := c.ahead[key]
		delete(c.ahead, key)
		c.used[key] = true
		c.mu.Unlock()
		if p != nil {
			select {
			case <-p.done:
				switch {
				case p.err == nil:
					return p.r, nil
				case p.r != nil && p.r.Status < 500:
					// GitHub's answer stands (a 404 is a 404); its message
					// names what this request reads.
					return p.r, c.classify(what, p.r.Status, p.r.Header, p.r.Body, 1)
				}
				// No answer, or a 5xx: asked again with this request's
				// retries.
			case <-ctx.Done():
			}
		}
	}
	return c.sendNow(ctx, method, pathOrURL, accept, body, what, retries, useCache)
}

// prefetch sends the GETs named by cache keys (accept + " " + URL) at once,
// for send to take; a key already asked for is left alone.
func (c *Client) prefetch(ctx context.Context, keys []string) {
	for _, key := range keys {
		accept, u, ok := strings.Cut(key, " ")
		if !ok {
			continue
		}
		c.mu.Lock()
		_, asked := c.ahead[key]
		if asked {
			c.mu.Unlock()
			continue
		}
		p := &pending{done: make(chan struct{})}
		c.ahead[key] = p
		c.mu.Unlock()
		go func() {
			defer close(p.done)
			p.r, p.err = c.sendNow(ctx, http.MethodGet, u, accept, nil, "a page read before", 0, true)
		}()
	}
}

func (c *Client) sendNow(ctx context.Context, method, pathOrURL, accept string, body []byte, what string, retries int, useCache bool) (*response, error) {
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
			var off *offOriginError
			if errors.As(err, &off) {
				return nil, c.offOrigin(what, off)
			}
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
				c.dirty = true
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
		if method == http.MethodGet && useCache && r.Status < 500 {
			// Asked, answered without a body to keep (a 404 for a branch
			// without protection): kept with no ETag, so the next visit
			// asks it again in its first round.
			c.mu.Lock()
			if _, ok := c.cache[accept+" "+u]; !ok {
				c.cache[accept+" "+u] = cachedResponse{}
				c.dirty = true
			}
			c.mu.Unlock()
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

// maxPages caps how many pages of one list are read. An agent's pull
// request carries tens of comments, a few reviews and under a hundred check
// runs; 30 pages of 100 is 3,000 items, far past any of them, while a Link
// chain that never ends costs at most 30 round trips (4.5 s at 150 ms)
// rather than the whole timeout. A list longer than that is cut, and the
// cut is said (see cutNote).
const maxPages = 30

// getAll reads every page of a list, following the Link header: when the
// first page names the last one by a page number, the remaining pages are
// read at once rather than one after another. cut is "" when the whole list
// was read, else the sentence that says where it stopped.
func getAll[T any](ctx context.Context, c *Client, path, what string) (items []T, cut string, err error) {
	return getAllThen[T](ctx, c, path, what, nil)
}

// getAllThen is getAll that hands the first page to first as soon as it is
// read, before the rest: what it tells may start other requests early.
func getAllThen[T any](ctx context.Context, c *Client, path, what string, first func([]T)) (items []T, cut string, err error) {
	return getPages(ctx, c, path, what, func(b []byte) ([]T, error) {
		var page []T
		err := json.Unmarshal(b, &page)
		return page, err
	}, first)
}

// getAllIn reads every page of a list that each page wraps in an object,
// under field (the check runs: {"total_count": N, "check_runs": [...]}).
func getAllIn[T any](ctx context.Context, c *Client, path, field, what string) (items []T, cut string, err error) {
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
	}, nil)
}

// cutNote is the one line that says a list was not read to its end.
func cutNote(what string, pages, items int, why string) string {
	return fmt.Sprintf("%s: vetter read %d pages (%d items) and stopped: %s; the rest is not shown", what, pages, items, why)
}

// checkLink refuses a page URL outside the API before anything is sent.
func (c *Client) checkLink(what, link string) error {
	u, err := url.Parse(link)
	if err != nil {
		return malformed(what, fmt.Errorf("the Link header names %q, not a URL", link))
	}
	if !allowedOrigin(c.origins, u) {
		return c.offOrigin(what, &offOriginError{to: originOf(u), how: "the next page's Link"})
	}
	return nil
}

func getPages[T any](ctx context.Context, c *Client, path, what string, decode func([]byte) ([]T, error), onFirst func([]T)) ([]T, string, error) {
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	first, err := c.do(ctx, http.MethodGet, path+sep+"per_page=100", "application/vnd.github+json", nil, what)
	if err != nil {
		return nil, "", err
	}
	out, err := decode(first.Body)
	if err != nil {
		return nil, "", malformed(what, err)
	}
	if onFirst != nil {
		onFirst(out)
	}
	links := parseLink(first.Header.Get("Link"))
	for _, l := range []string{links["next"], links["last"]} {
		if l == "" {
			continue
		}
		if err := c.checkLink(what, l); err != nil {
			return nil, "", err
		}
	}
	if pages, total := pageURLs(links["next"], links["last"], maxPages-1); pages != nil {
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
				return nil, "", errs[i]
			}
			out = append(out, rest[i]...)
		}
		if total > len(pages) {
			return out, cutNote(what, len(pages)+1, len(out), fmt.Sprintf("GitHub lists %d pages, more than the %d vetter reads", total+1, maxPages)), nil
		}
		return out, "", nil
	}
	seen := map[string]bool{path: true}
	read := 1
	for next := links["next"]; next != ""; read++ {
		if read == maxPages {
			return out, cutNote(what, read, len(out), fmt.Sprintf("GitHub's Link header still names a next page after %d", maxPages)), nil
		}
		if seen[next] {
			return out, cutNote(what, read, len(out), "GitHub's Link header names a page already read"), nil
		}
		seen[next] = true
		if err := c.checkLink(what, next); err != nil {
			return nil, "", err
		}
		r, err := c.do(ctx, http.MethodGet, next, "application/vnd.github+json", nil, what)
		if err != nil {
			return nil, "", err
		}
		page, err := decode(r.Body)
		if err != nil {
			return nil, "", malformed(what, err)
		}
		out = append(out, page...)
		next = parseLink(r.Header.Get("Link"))["next"]
	}
	return out, "", nil
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
// page number, so they can be read at once, at most limit of them; total is
// how many there are. nil when they cannot be listed (then next is followed
// page by page).
func pageURLs(next, last string, limit int) (pages []string, total int) {
	if next == "" || last == "" {
		return nil, 0
	}
	nu, err1 := url.Parse(next)
	lu, err2 := url.Parse(last)
	if err1 != nil || err2 != nil || originOf(nu) != originOf(lu) {
		return nil, 0
	}
	nq, lq := nu.Query(), lu.Query()
	from, err1 := strconv.Atoi(nq.Get("page"))
	to, err2 := strconv.Atoi(lq.Get("page"))
	if err1 != nil || err2 != nil || to < from {
		return nil, 0
	}
	nq.Del("page")
	lq.Del("page")
	if nu.Path != lu.Path || nq.Encode() != lq.Encode() {
		return nil, 0
	}
	total = to - from + 1
	for p := from; p <= to && len(pages) < limit; p++ {
		q := nu.Query()
		q.Set("page", strconv.Itoa(p))
		u := *nu
		u.RawQuery = q.Encode()
		pages = append(pages, u.String())
	}
	return pages, total
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
