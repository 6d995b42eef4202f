package github

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/vetter-dev/vetter/packet"
)

// elsewhere is another server on the same host, another port: what a Link
// header or a redirect might point at. It answers every request with a
// well-formed empty list, so an answer used from it would pass unnoticed.
type elsewhere struct {
	mu       sync.Mutex
	requests int
	tokens   []string
	url      string
}

func newElsewhere(t *testing.T) *elsewhere {
	e := &elsewhere{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		e.requests++
		if a := r.Header.Get("Authorization"); a != "" {
			e.tokens = append(e.tokens, a)
		}
		e.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`[]`))
	}))
	t.Cleanup(ts.Close)
	e.url = ts.URL
	return e
}

func (e *elsewhere) check(t *testing.T) {
	t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.tokens) > 0 {
		t.Errorf("the token left the API: %d requests to %s carried %q", len(e.tokens), e.url, e.tokens[0])
	}
	if e.requests > 0 {
		t.Errorf("%d requests went to %s, outside the API", e.requests, e.url)
	}
}

func TestLinkOutsideTheAPIIsRefused(t *testing.T) {
	s, opts := newFake(t)
	e := newElsewhere(t)
	s.LinkOrigin = map[string]string{"/issues/42/comments": e.url}
	_, err := Open(context.Background(), fixtureRef, opts)
	e.check(t)
	if !IsKind(err, KindOffOrigin) {
		t.Fatalf("Open = %v, want the Link refused", err)
	}
	for _, want := range []string{"the comments of acme/depot#42", "the next page's Link points to " + strings.ToLower(e.url), "sends the token only to " + opts.Config.APIURL} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if Cached(opts.CacheDir, fixtureRef) != "" {
		t.Error("a refused answer still wrote the cache")
	}
}

func TestRedirectOutsideTheAPIIsRefused(t *testing.T) {
	for _, path := range []string{"/pulls/42/reviews", "/repos/acme/depot/pulls/42"} {
		t.Run(path, func(t *testing.T) {
			s, opts := newFake(t)
			e := newElsewhere(t)
			s.Redirect = map[string]string{path: e.url}
			_, err := Open(context.Background(), fixtureRef, opts)
			e.check(t)
			if !IsKind(err, KindOffOrigin) || !strings.Contains(err.Error(), "a redirect points to "+strings.ToLower(e.url)) {
				t.Fatalf("Open = %v, want the redirect refused, naming where it pointed", err)
			}
		})
	}
}

// A request that goes out already off the API (an absolute URL in an
// answer) is stopped under go-gh's transport, where the token was added.
func TestNoRequestLeavesTheAPI(t *testing.T) {
	_, opts := newFake(t)
	e := newElsewhere(t)
	c, err := NewClient(opts.Config)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.do(context.Background(), http.MethodGet, e.url+"/repos/acme/depot/pulls/42", "application/json", nil, "acme/depot#42")
	e.check(t)
	if !IsKind(err, KindOffOrigin) {
		t.Fatalf("a request to %s: %v, want it refused", e.url, err)
	}
}

func TestEndlessLinkChainIsCutAndSaid(t *testing.T) {
	s, opts := newFake(t)
	s.Endless = "/issues/42/comments"
	_, p := openFixture(t, s, opts)
	if n := s.ByPath["/repos/acme/depot/issues/42/comments"]; n != maxPages {
		t.Errorf("the endless chain was read %d pages, want %d", n, maxPages)
	}
	var cut []string
	for _, pr := range p.Problems {
		if pr.Code == packet.CodeOriginListCut {
			cut = append(cut, pr.Message)
		}
	}
	if len(cut) != 1 || !strings.Contains(cut[0], "the comments of acme/depot#42: vetter read 30 pages") || !strings.Contains(cut[0], "still names a next page") {
		t.Errorf("the cut is said as %q, want one line naming the comments", cut)
	}
	if p.Plan.ID != "ACME-77" {
		t.Error("the documents on the pages read were lost")
	}
}

// A list whose last page is named is read at once up to the cap; the
// rest is cut and said.
func TestLongListIsCutAtTheCap(t *testing.T) {
	s, opts := newFake(t)
	s.F.AddComments(2*maxPages + 10)
	_, p := openFixture(t, s, opts)
	if n := s.ByPath["/repos/acme/depot/issues/42/comments"]; n != maxPages {
		t.Errorf("read %d pages of comments, want %d", n, maxPages)
	}
	said := false
	for _, pr := range p.Problems {
		said = said || (pr.Code == packet.CodeOriginListCut && strings.Contains(pr.Message, "GitHub lists 41 pages, more than the 30 vetter reads"))
	}
	if !said {
		t.Errorf("the cut list is not said: %v", p.Problems)
	}
}

// A Link that leads back to a page already read stops at once.
func TestLinkLoopIsCut(t *testing.T) {
	_, opts := newFake(t)
	var n int
	loop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		w.Header().Set("Link", `<http://`+r.Host+`/repos/acme/depot/pulls/42/commits?per_page=100&page=2>; rel="next"`)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`[]`))
	}))
	defer loop.Close()
	opts.Config.APIURL = loop.URL
	c, err := NewClient(opts.Config)
	if err != nil {
		t.Fatal(err)
	}
	_, cut, err := getAll[Commit](context.Background(), c, "repos/acme/depot/pulls/42/commits", "the commits")
	if err != nil || !strings.Contains(cut, "names a page already read") || n != 2 {
		t.Errorf("cut %q, err %v after %d requests; want the loop cut after 2", cut, err, n)
	}
}
