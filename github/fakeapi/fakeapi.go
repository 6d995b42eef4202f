// Package fakeapi is a fake GitHub API, REST and GraphQL, serving one pull
// request from fixture files written to GitHub's documented response shapes.
// The tests drive it with net/http/httptest; github/fakegh runs it alone for
// a walk through the workbench.
package fakeapi

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Fixture is one pull request's answers.
type Fixture struct {
	Owner, Repo string
	Number      int
	Pull        map[string]any
	Commits     []any
	Comments    []map[string]any
	Reviews     []any
	RevComments []any
	Threads     []any
	CheckRuns   json.RawMessage
	Status      json.RawMessage
	// Protection is the base branch's required status checks
	// (GET .../branches/{branch}/protection/required_status_checks); nil
	// answers 404 "Branch not protected", as GitHub does for an unprotected
	// branch or a token that may not read it.
	Protection json.RawMessage
	Files      []any
	Compare    json.RawMessage
	PRDiff     string // the PR's diff at its head
	PacketDiff string // base...packet head
}

// Load reads a fixture folder (github/testdata/pr).
func Load(dir string) (*Fixture, error) {
	f := &Fixture{Owner: "acme", Repo: "depot", Number: 42}
	readJSON := func(name string, v any) error {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return fmt.Errorf("reading the fixture %s: %w", name, err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			return fmt.Errorf("reading the fixture %s: %w", name, err)
		}
		return nil
	}
	for name, v := range map[string]any{"pull.json": &f.Pull, "commits.json": &f.Commits, "reviews.json": &f.Reviews,
		"review_comments.json": &f.RevComments, "threads.json": &f.Threads, "check_runs.json": &f.CheckRuns,
		"status.json": &f.Status, "files.json": &f.Files, "compare.json": &f.Compare} {
		if err := readJSON(name, v); err != nil {
			return nil, err
		}
	}
	for name, dst := range map[string]*string{"pr.diff": &f.PRDiff, "packet.diff": &f.PacketDiff} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("reading the fixture %s: %w", name, err)
		}
		*dst = string(data)
	}
	names, err := filepath.Glob(filepath.Join(dir, "comments", "*.md"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	for i, n := range names {
		c, err := readComment(n, int64(9000+i))
		if err != nil {
			return nil, err
		}
		f.Comments = append(f.Comments, c)
	}
	return f, nil
}

// readComment reads a comment file: "key: value" lines (user, association,
// created, updated), a "---" line, then the body.
func readComment(path string, id int64) (map[string]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the fixture comment %s: %w", path, err)
	}
	head, body, ok := strings.Cut(string(data), "\n---\n")
	if !ok {
		return nil, fmt.Errorf("reading the fixture comment %s: no --- line after the header", path)
	}
	meta := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(head))
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), ":")
		meta[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	updated := meta["updated"]
	if updated == "" {
		updated = meta["created"]
	}
	return map[string]any{
		"id": id, "node_id": fmt.Sprintf("IC_%d", id), "body": body,
		"user":               map[string]any{"login": meta["user"]},
		"author_association": meta["association"],
		"created_at":         meta["created"], "updated_at": updated,
		"html_url": fmt.Sprintf("https://github.com/acme/depot/pull/42#issuecomment-%d", id),
	}, nil
}

// Server serves a fixture. Its knobs may be changed between requests.
type Server struct {
	mu sync.Mutex
	F  *Fixture
	// PageSize caps every list page (2 in the tests, so every list crosses
	// a Link header).
	PageSize int
	// Latency is added to every response (the benchmark's 150 ms).
	Latency time.Duration
	// DiffTooLarge answers the diff with 406, as GitHub does past its limit.
	DiffTooLarge bool
	// Fail answers every request whose path contains the key with the
	// given status and headers (a 401, 404, rate limit or 5xx).
	Fail map[string]Failure
	// Garbage answers the paths containing this with malformed JSON.
	Garbage string
	// HeadAfterReads is a head SHA the PR moves to once it has been read
	// this many times (a push between review and post); 0 for never.
	HeadAfterReads int
	NewHead        string

	Requests    int              // every request
	Posts       int              // every POST but GraphQL's
	ByPath      map[string]int   // requests by path
	Posted      []string         // bodies of the comments posted
	Reviews     []map[string]any // reviews posted
	NotModified int              // 304s answered
	Conditional int              // requests that carried If-None-Match
	pullReads   int

	// More are the repository's other pull requests (the queue's list);
	// F is always one of the open ones.
	More []*Fixture
	// RateRemaining, when set, is sent as X-RateLimit-Remaining and
	// counts down with every answer that is not a 304 (which costs none).
	RateRemaining int

	// LinkOrigin names, for the lists whose path contains a key, another
	// origin (scheme://host:port) in their Link headers: a proxy or an
	// answer that points the client somewhere else.
	LinkOrigin map[string]string
	// Redirect answers the GETs whose path contains a key with a 302 to
	// the value followed by the request's own path and query.
	Redirect map[string]string
	// Endless makes the lists whose path contains it name a next page
	// always and never a last one: a chain with no end.
	Endless string
}

// Failure is a canned error answer.
type Failure struct {
	Status  int
	Header  map[string]string
	Message string
	// Times fails only the first Times requests (0: always).
	Times int
	// Method fails only requests of this method ("" any).
	Method string
	seen   int
}

// New serves f with pages of pageSize.
func New(f *Fixture, pageSize int) *Server {
	return &Server{F: f, PageSize: pageSize, Fail: map[string]Failure{}, ByPath: map[string]int{}}
}

// Head is the PR's head SHA as the server would answer now.
func (s *Server) Head() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.F.Pull["head"].(map[string]any)["sha"].(string)
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.Latency > 0 {
		time.Sleep(s.Latency)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Requests++
	s.ByPath[r.URL.Path]++
	if r.Method == http.MethodPost && !strings.HasSuffix(r.URL.Path, "/graphql") {
		s.Posts++
	}
	for k, f := range s.Fail {
		if strings.Contains(r.URL.Path, k) && (f.Times == 0 || f.seen < f.Times) && (f.Method == "" || f.Method == r.Method) {
			f.seen++
			s.Fail[k] = f
			for hk, hv := range f.Header {
				w.Header().Set(hk, hv)
			}
			writeJSON(w, f.Status, map[string]any{"message": f.Message, "documentation_url": "https://docs.github.com/rest"})
			return
		}
	}
	if s.Garbage != "" && strings.Contains(r.URL.Path, s.Garbage) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200)
		w.Write([]byte(`{"number": 42, "head": [`))
		return
	}
	for k, to := range s.Redirect {
		if strings.Contains(r.URL.Path, k) && r.Method == http.MethodGet {
			http.Redirect(w, r, to+r.URL.RequestURI(), http.StatusFound)
			return
		}
	}
	if !strings.HasPrefix(r.Header.Get("Authorization"), "token ") && !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
		writeJSON(w, 401, map[string]any{"message": "Requires authentication"})
		return
	}
	if r.URL.Path == "/graphql" || strings.HasSuffix(r.URL.Path, "/graphql") {
		s.graphql(w, r)
		return
	}
	if strings.HasSuffix(r.URL.Path, "/user") && r.Method == http.MethodGet {
		// The signed-in account, as GET /user answers (the fields vetter reads).
		writeJSON(w, 200, map[string]any{"login": "you", "id": 1, "type": "User"})
		return
	}
	prefix := fmt.Sprintf("/repos/%s/%s/", s.F.Owner, s.F.Repo)
	i := strings.Index(r.URL.Path, prefix)
	if i < 0 {
		writeJSON(w, 404, map[string]any{"message": "Not Found"})
		return
	}
	rest := r.URL.Path[i+len(prefix):]
	if r.Method == http.MethodGet && rest == "pulls" {
		s.list(w, r, s.openPulls(r.URL.Query().Get("state")))
		return
	}
	f := s.pick(rest)
	n := strconv.Itoa(f.Number)
	accept := r.Header.Get("Accept")
	switch {
	case r.Method == http.MethodPost && rest == "issues/"+n+"/comments":
		var in struct {
			Body string `json:"body"`
		}
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Body == "" {
			writeJSON(w, 422, map[string]any{"message": "Validation Failed"})
			return
		}
		s.Posted = append(s.Posted, in.Body)
		id := 10000 + len(s.Posted)
		// The comment is the PR's from now on, as a member's, so a later
		// read (the queue's row) sees it.
		now := time.Now().UTC().Format(time.RFC3339)
		f.Comments = append(f.Comments, map[string]any{"id": id, "node_id": fmt.Sprintf("IC_%d", id), "body": in.Body,
			"user": map[string]any{"login": "you"}, "author_association": "MEMBER", "created_at": now, "updated_at": now,
			"html_url": fmt.Sprintf("https://github.com/%s/%s/pull/%s#issuecomment-%d", f.Owner, f.Repo, n, id)})
		writeJSON(w, 201, map[string]any{"id": id, "body": in.Body, "user": map[string]any{"login": "you"},
			"html_url": fmt.Sprintf("https://github.com/%s/%s/pull/%s#issuecomment-%d", f.Owner, f.Repo, n, id)})
	case r.Method == http.MethodPost && rest == "pulls/"+n+"/reviews":
		var in map[string]any
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in["event"] == nil {
			writeJSON(w, 422, map[string]any{"message": "Validation Failed"})
			return
		}
		s.Reviews = append(s.Reviews, in)
		id := 20000 + len(s.Reviews)
		writeJSON(w, 200, map[string]any{"id": id, "state": in["event"], "html_url": fmt.Sprintf("https://github.com/%s/%s/pull/%s#pullrequestreview-%d", f.Owner, f.Repo, n, id)})
	case r.Method != http.MethodGet:
		writeJSON(w, 405, map[string]any{"message": "Method Not Allowed"})
	case rest == "pulls/"+n && strings.Contains(accept, "diff"):
		if s.DiffTooLarge {
			writeJSON(w, 406, map[string]any{"message": "Sorry, the diff exceeded the maximum number of lines (20000)", "errors": []any{map[string]any{"resource": "PullRequest", "field": "diff", "code": "too_large"}}})
			return
		}
		s.text(w, r, f.PRDiff)
	case rest == "pulls/"+n:
		s.pullReads++
		if f == s.F && s.HeadAfterReads > 0 && s.pullReads > s.HeadAfterReads && s.NewHead != "" {
			f.Pull["head"].(map[string]any)["sha"] = s.NewHead
		}
		s.object(w, r, f.Pull)
	case rest == "pulls/"+n+"/commits":
		s.list(w, r, f.Commits)
	case rest == "issues/"+n+"/comments":
		items := make([]any, len(f.Comments))
		for i, c := range f.Comments {
			items[i] = c
		}
		s.list(w, r, items)
	case rest == "pulls/"+n+"/reviews":
		s.list(w, r, f.Reviews)
	case rest == "pulls/"+n+"/comments":
		s.list(w, r, f.RevComments)
	case rest == "pulls/"+n+"/files":
		s.list(w, r, f.Files)
	case strings.HasPrefix(rest, "commits/") && strings.HasSuffix(rest, "/check-runs"):
		var cr struct {
			Total int   `json:"total_count"`
			Runs  []any `json:"check_runs"`
		}
		json.Unmarshal(f.CheckRuns, &cr)
		s.listIn(w, r, "check_runs", cr.Runs)
	case strings.HasPrefix(rest, "commits/") && strings.HasSuffix(rest, "/status"):
		s.object(w, r, f.Status)
	case strings.HasPrefix(rest, "branches/") && strings.HasSuffix(rest, "/protection/required_status_checks"):
		if f.Protection == nil {
			writeJSON(w, 404, map[string]any{"message": "Branch not protected", "documentation_url": "https://docs.github.com/rest/branches/branch-protection#get-status-checks-protection"})
			return
		}
		s.object(w, r, f.Protection)
	case strings.HasPrefix(rest, "compare/"):
		base, head, _ := strings.Cut(strings.TrimPrefix(rest, "compare/"), "...")
		if len(f.Commits) < 2 {
			writeJSON(w, 404, map[string]any{"message": "Not Found"})
			return
		}
		pk := f.Commits[len(f.Commits)-2].(map[string]any)["sha"].(string) // the packet describes the commit before the head
		switch {
		case strings.Contains(accept, "diff") && strings.HasPrefix(pk, head):
			s.text(w, r, f.PacketDiff)
		case strings.HasPrefix(pk, base):
			s.object(w, r, f.Compare)
		default:
			writeJSON(w, 404, map[string]any{"message": "Not Found"})
		}
	default:
		writeJSON(w, 404, map[string]any{"message": "Not Found"})
	}
}

// etag answers 304 when the client already has this body.
func (s *Server) etag(w http.ResponseWriter, r *http.Request, body []byte) bool {
	tag := fmt.Sprintf(`"%x"`, fnv(body))
	w.Header().Set("ETag", tag)
	if r.Header.Get("If-None-Match") != "" {
		s.Conditional++
	}
	if r.Header.Get("If-None-Match") == tag {
		s.NotModified++
		s.rate(w, false)
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	s.rate(w, true)
	return false
}

// rate sends the rate-limit headers when RateRemaining is set; only an
// answer with a body costs one.
func (s *Server) rate(w http.ResponseWriter, costs bool) {
	if s.RateRemaining <= 0 {
		return
	}
	if costs && s.RateRemaining > 1 {
		s.RateRemaining--
	}
	w.Header().Set("X-RateLimit-Limit", "5000")
	w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(s.RateRemaining))
	w.Header().Set("X-RateLimit-Reset", "1796212800")
}

func fnv(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

func (s *Server) object(w http.ResponseWriter, r *http.Request, v any) {
	body, _ := json.Marshal(v)
	if s.etag(w, r, body) {
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Write(body)
}

func (s *Server) text(w http.ResponseWriter, r *http.Request, t string) {
	if s.etag(w, r, []byte(t)) {
		return
	}
	w.Header().Set("Content-Type", "application/vnd.github.diff; charset=utf-8")
	w.Write([]byte(t))
}

// list answers one page and links the others, as GitHub does.
func (s *Server) list(w http.ResponseWriter, r *http.Request, items []any) {
	s.listIn(w, r, "", items)
}

// listIn is list for an endpoint that wraps each page in an object under
// field, with the total count beside it ("" for a bare array).
func (s *Server) listIn(w http.ResponseWriter, r *http.Request, field string, items []any) {
	per := s.PageSize
	if v, err := strconv.Atoi(r.URL.Query().Get("per_page")); err == nil && v > 0 && v < per {
		per = v
	}
	if per <= 0 {
		per = 30
	}
	page := 1
	if v, err := strconv.Atoi(r.URL.Query().Get("page")); err == nil && v > 0 {
		page = v
	}
	last := (len(items) + per - 1) / per
	if last == 0 {
		last = 1
	}
	from, to := (page-1)*per, page*per
	from, to = min(from, len(items)), min(to, len(items))
	endless := s.Endless != "" && strings.Contains(r.URL.Path, s.Endless)
	if endless {
		// Past the items the pages are empty, and still name a next one.
		last = page + 1
	}
	origin := "http://" + r.Host
	for k, o := range s.LinkOrigin {
		if strings.Contains(r.URL.Path, k) {
			origin = o
		}
	}
	link := func(p int) string {
		u := *r.URL
		o, _ := url.Parse(origin)
		u.Scheme, u.Host = o.Scheme, o.Host
		q := u.Query()
		q.Set("page", strconv.Itoa(p))
		u.RawQuery = q.Encode()
		return u.String()
	}
	var links []string
	if page < last {
		links = append(links, fmt.Sprintf(`<%s>; rel="next"`, link(page+1)))
		if !endless {
			links = append(links, fmt.Sprintf(`<%s>; rel="last"`, link(last)))
		}
	}
	if page > 1 {
		links = append(links, fmt.Sprintf(`<%s>; rel="prev"`, link(page-1)), fmt.Sprintf(`<%s>; rel="first"`, link(1)))
	}
	if len(links) > 0 {
		w.Header().Set("Link", strings.Join(links, ", "))
	}
	if field != "" {
		s.object(w, r, map[string]any{"total_count": len(items), field: items[from:to]})
		return
	}
	s.object(w, r, items[from:to])
}

// graphql answers the reviewThreads query, a page of PageSize at a time.
func (s *Server) graphql(w http.ResponseWriter, r *http.Request) {
	var q struct {
		Query     string         `json:"query"`
		Variables map[string]any `json:"variables"`
	}
	if err := json.NewDecoder(r.Body).Decode(&q); err != nil {
		writeJSON(w, 400, map[string]any{"message": "Problems parsing JSON"})
		return
	}
	if q.Variables["owner"] != s.F.Owner || q.Variables["repo"] != s.F.Repo {
		writeJSON(w, 200, map[string]any{"data": map[string]any{"repository": nil},
			"errors": []any{map[string]any{"type": "NOT_FOUND", "message": "Could not resolve to a Repository."}}})
		return
	}
	per := s.PageSize
	if per <= 0 {
		per = 100
	}
	page := func(f *Fixture, start int) map[string]any {
		end := min(start+per, len(f.Threads))
		start = min(start, end)
		return map[string]any{
			"pageInfo": map[string]any{"hasNextPage": end < len(f.Threads), "endCursor": fmt.Sprintf("cursor:%d", end)},
			"nodes":    f.Threads[start:end],
		}
	}
	// The queue asks for the first page of several pull requests' threads
	// in one query, each under an alias: "pr43: pullRequest(number: 43)".
	if aliases := aliasRe.FindAllStringSubmatch(q.Query, -1); len(aliases) > 0 {
		repo := map[string]any{}
		for _, m := range aliases {
			num, _ := strconv.Atoi(m[2])
			if f := s.byNumber(num); f != nil {
				var commits []any
				for _, c := range f.Commits {
					sha, _ := c.(map[string]any)["sha"].(string)
					// committedDate as GitHub's GraphQL gives it; the
					// fixtures write the REST shape's commit.author.date.
					date, msg := "", ""
					if cm, ok := c.(map[string]any)["commit"].(map[string]any); ok {
						if a, ok := cm["author"].(map[string]any); ok {
							date, _ = a["date"].(string)
						}
						msg, _ = cm["message"].(string)
						msg, _, _ = strings.Cut(msg, "\n")
					}
					node := map[string]any{"oid": sha, "messageHeadline": msg}
					if date != "" {
						node["committedDate"] = date
					}
					commits = append(commits, map[string]any{"commit": node})
				}
				repo[m[1]] = map[string]any{"reviewThreads": page(f, 0), "commits": map[string]any{"nodes": commits}}
			} else {
				repo[m[1]] = nil
			}
		}
		writeJSON(w, 200, map[string]any{"data": map[string]any{"repository": repo}})
		return
	}
	num, _ := q.Variables["number"].(float64)
	f := s.byNumber(int(num))
	if f == nil {
		writeJSON(w, 200, map[string]any{"data": map[string]any{"repository": nil},
			"errors": []any{map[string]any{"type": "NOT_FOUND", "message": "Could not resolve to a Repository."}}})
		return
	}
	start := 0
	if a, ok := q.Variables["after"].(string); ok && a != "" {
		start, _ = strconv.Atoi(strings.TrimPrefix(a, "cursor:"))
	}
	writeJSON(w, 200, map[string]any{"data": map[string]any{"repository": map[string]any{"pullRequest": map[string]any{"reviewThreads": page(f, start)}}}})
}

var aliasRe = regexp.MustCompile(`(pr[0-9]+): pullRequest\(number: ([0-9]+)\)`)

// byNumber is the fixture of pull request n, or nil.
func (s *Server) byNumber(n int) *Fixture {
	if s.F.Number == n {
		return s.F
	}
	for _, f := range s.More {
		if f.Number == n {
			return f
		}
	}
	return nil
}

var numberInPath = regexp.MustCompile(`^(?:pulls|issues)/([0-9]+)(?:/|$)`)

// pick is the fixture a path is about: by number for pulls/N and issues/N,
// by head SHA for commits/SHA; F otherwise (so a path naming a number no
// fixture has answers 404).
func (s *Server) pick(rest string) *Fixture {
	if m := numberInPath.FindStringSubmatch(rest); m != nil {
		n, _ := strconv.Atoi(m[1])
		if f := s.byNumber(n); f != nil {
			return f
		}
		return s.F
	}
	if sha, ok := strings.CutPrefix(rest, "commits/"); ok {
		sha, _, _ = strings.Cut(sha, "/")
		for _, f := range append([]*Fixture{s.F}, s.More...) {
			if f.HeadSHA() == sha {
				return f
			}
		}
	}
	return s.F
}

// HeadSHA is the fixture's pull request head.
func (f *Fixture) HeadSHA() string {
	h, _ := f.Pull["head"].(map[string]any)
	sha, _ := h["sha"].(string)
	return sha
}

// openPulls lists the pull requests in state ("open", "closed", "all"; ""
// is open), newest first, as GET /repos/{o}/{r}/pulls does by default.
func (s *Server) openPulls(state string) []any {
	if state == "" {
		state = "open"
	}
	all := append([]*Fixture{s.F}, s.More...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].Number > all[j].Number })
	var out []any
	for _, f := range all {
		if st, _ := f.Pull["state"].(string); state == "all" || st == state || (st == "" && state == "open") {
			out = append(out, f.Pull)
		}
	}
	return out
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// ReplaceInComment replaces old with new in the first comment whose body
// holds old (an agent's comment rewritten, say to name another pull
// request); false when no comment holds it.
func (f *Fixture) ReplaceInComment(old, new string) bool {
	for _, c := range f.Comments {
		if b, _ := c["body"].(string); strings.Contains(b, old) {
			c["body"] = strings.Replace(b, old, new, 1)
			return true
		}
	}
	return false
}

// AddComments appends n filler comments (the benchmark's 300 comments).
func (f *Fixture) AddComments(n int) {
	for i := range n {
		f.Comments = append(f.Comments, map[string]any{"id": 20000 + i, "body": fmt.Sprintf("filler comment %d", i),
			"user": map[string]any{"login": "chatty"}, "author_association": "NONE",
			"created_at": "2026-11-30T08:00:00Z", "updated_at": "2026-11-30T08:00:00Z"})
	}
}

// LoadOverlay reads the base fixture and then what the overlay folder
// replaces: its comments/ (all of them, when present), body.md (the pull
// request's description), and any of the JSON files Load reads. One folder
// per shape of what an agent posts keeps each fixture to what differs.
func LoadOverlay(base, overlay string) (*Fixture, error) {
	f, err := Load(base)
	if err != nil {
		return nil, err
	}
	for name, v := range map[string]any{"pull.json": &f.Pull, "commits.json": &f.Commits, "reviews.json": &f.Reviews,
		"review_comments.json": &f.RevComments, "threads.json": &f.Threads, "compare.json": &f.Compare} {
		data, err := os.ReadFile(filepath.Join(overlay, name))
		if os.IsNotExist(err) {
			continue
		}
		if err == nil {
			err = json.Unmarshal(data, v)
		}
		if err != nil {
			return nil, fmt.Errorf("reading the fixture %s: %w", filepath.Join(overlay, name), err)
		}
	}
	if body, err := os.ReadFile(filepath.Join(overlay, "body.md")); err == nil {
		f.Pull["body"] = string(body)
	}
	names, err := filepath.Glob(filepath.Join(overlay, "comments", "*.md"))
	if err != nil {
		return nil, err
	}
	if len(names) > 0 {
		sort.Strings(names)
		f.Comments = nil
		for i, n := range names {
			c, err := readComment(n, int64(9000+i))
			if err != nil {
				return nil, err
			}
			f.Comments = append(f.Comments, c)
		}
	}
	return f, nil
}
