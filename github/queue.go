package github

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/report"
	"github.com/vetter-dev/vetter/review"
)

// DefaultAwaiting matches the sentence copy-pr-bot posts on a pull request
// from outside the trusted set: such a PR waits for a maintainer's
// /ok to test.
const DefaultAwaiting = `(?i)requires additional validation before any workflows can run`

// MaxInFlight bounds the queue's requests in flight, for GitHub's secondary
// rate limits.
const MaxInFlight = 8

// QueueOptions say how a repository's queue is read.
type QueueOptions struct {
	Config Config
	// CacheDir is the cache root ("" for DefaultCacheDir); the queue keeps
	// its rows, ETags and rebuilt packets under HOST/OWNER/REPO/queue/.
	CacheDir string
	// StateDir is the reviewer's state root ("" for the default), read
	// for each row's triage and decision, never written.
	StateDir string
	// Awaiting matches the marker comment; nil is DefaultAwaiting.
	Awaiting *regexp.Regexp
	// All counts every PR without a current /ok to test as awaiting, marker
	// or not.
	All bool
	// InFlight bounds the requests in flight (0: MaxInFlight).
	InFlight int
	// Meter, when set, carries the requests instead of the queue's own:
	// queues of several repositories read at once share one bound.
	Meter *Meter
}

// OpenPull is one entry of GET /repos/{o}/{r}/pulls.
type OpenPull struct {
	Pull
	Draft     bool   `json:"draft"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
}

// Queue reads the open pull requests of one repository and what each row
// shows. Its client keeps the ETags of every answer, so a refresh asks with
// If-None-Match; a row whose answers did not change is taken from the cache
// of the last visit without rebuilding its packet.
type Queue struct {
	Ref  Ref // Number is 0
	opts QueueOptions
	c    *Client
	m    *Meter
	root string // the cache root
	dir  string // HOST/OWNER/REPO/queue under it

	mu      sync.Mutex
	entries map[int]*queueEntry
	// building holds a lock per PR: a row read again (after the workbench)
	// while a fill reads it too must not swap its packet folder at once.
	building map[int]*sync.Mutex
	// required are the required checks of each base branch, read once per
	// queue (every row on one base shares them).
	required map[string]*requiredRead
	// listCut is the last fill's line saying the open pull requests were
	// not all listed ("" when they were). Its own lock: rows are made
	// while mu is held and while it is not.
	listCut atomic.Pointer[string]
}

// cutOfList is the last fill's line saying the list was cut, "" if none.
func (q *Queue) cutOfList() string {
	if p := q.listCut.Load(); p != nil {
		return *p
	}
	return ""
}

// requiredRead is one base branch's required checks, read once.
type requiredRead struct {
	once  sync.Once
	names []string
	known bool
}

// queueEntry is a row with what it was computed from.
type queueEntry struct {
	Row report.QueueRow `json:"row"`
	// Inputs is a hash of the answers the row came from: equal inputs,
	// equal row (but for the reviewer's state, read every time).
	Inputs string `json:"inputs"`
	// UpdatedAt is the PR's updated_at when the row was read: with the same
	// head, a PR whose updated_at did not move most likely needs no GraphQL.
	UpdatedAt string `json:"updated_at"`
}

// NewQueue prepares the queue of host/owner/repo (ref.Number is ignored).
func NewQueue(ref Ref, opts QueueOptions) (*Queue, error) {
	ref.Number = 0
	if ref.Host == "" {
		ref.Host = "github.com"
	}
	if opts.Awaiting == nil {
		opts.Awaiting = regexp.MustCompile(DefaultAwaiting)
	}
	if opts.InFlight <= 0 {
		opts.InFlight = MaxInFlight
	}
	root, err := cacheRoot(opts.CacheDir)
	if err != nil {
		return nil, err
	}
	q := &Queue{Ref: ref, opts: opts, root: root, entries: map[int]*queueEntry{}, building: map[int]*sync.Mutex{},
		dir: filepath.Join(root, orGitHub(ref.Host), ref.Owner, ref.Repo, "queue")}
	q.readCache()
	return q, nil
}

// Name is OWNER/REPO.
func (q *Queue) Name() string { return q.Ref.Owner + "/" + q.Ref.Repo }

// client makes the client on first use, so the cached rows show without a
// token; a missing token is an error only when the network is needed.
func (q *Queue) client() (*Client, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.c != nil {
		return q.c, nil
	}
	cfg := q.opts.Config.orHost(q.Ref.Host)
	q.m = q.opts.Meter
	if q.m == nil {
		q.m = NewMeter(cfg.Transport, q.opts.InFlight)
	}
	cfg.Transport = q.m
	c, err := NewClient(cfg)
	if err != nil {
		return nil, err
	}
	c.loadCache(filepath.Join(q.dir, "etags.json"))
	q.c = c
	return c, nil
}

// Cached returns the rows of the last visit, in the queue's order, at once
// (no request): the first screen.
func (q *Queue) Cached() []report.QueueRow {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]report.QueueRow, 0, len(q.entries))
	for _, e := range q.entries {
		r := e.Row
		r.Loaded = true
		r.Settle(q.opts.All)
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b report.QueueRow) int { return report.CompareQueueRows(&a, &b) })
	return out
}

func (q *Queue) readCache() {
	data, err := os.ReadFile(filepath.Join(q.dir, "queue.json"))
	if err != nil {
		return
	}
	var entries []*queueEntry
	if json.Unmarshal(data, &entries) != nil {
		return
	}
	for _, e := range entries {
		q.entries[e.Row.Number] = e
	}
}

// Save keeps the rows and the ETags for the next visit. Losing them costs
// only a slower first screen and full reads, so callers may ignore errors.
func (q *Queue) Save() error {
	q.mu.Lock()
	entries := make([]*queueEntry, 0, len(q.entries))
	for _, e := range q.entries {
		entries = append(entries, e)
	}
	q.mu.Unlock()
	slices.SortFunc(entries, func(a, b *queueEntry) int { return a.Row.Number - b.Row.Number })
	data, err := json.MarshalIndent(entries, "", "  ")
	if err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(q.dir, "queue.json"), data); err != nil {
		return fmt.Errorf("writing the queue cache %s: %w", filepath.Join(q.dir, "queue.json"), err)
	}
	q.mu.Lock()
	c := q.c
	q.mu.Unlock()
	if c != nil {
		c.saveCache(filepath.Join(q.dir, "etags.json"))
	}
	return nil
}

// QueueEvent is what a fill reports as it goes: the list (every open PR,
// rows not read yet marked so), then each row as it is read.
type QueueEvent struct {
	Repo string
	List []report.QueueRow
	// Cut, with List, is the line that says the list of open pull requests
	// was not read to its end ("" when it was); every row carries it too.
	Cut string
	Row *report.QueueRow
}

// Fill lists the open pull requests (every page) and reads each one's row,
// reporting to emit as answers come (emit is called from several
// goroutines, one call at a time). Rows of pull requests no longer open
// leave the cache.
func (q *Queue) Fill(ctx context.Context, emit func(QueueEvent)) error {
	c, err := q.client()
	if err != nil {
		return err
	}
	// --timeout bounds each step (the list, a row, a query), not the whole
	// queue, whose length has no bound.
	lctx, cancel := context.WithTimeout(ctx, c.timeout)
	pulls, listCut, err := getAll[OpenPull](lctx, c, fmt.Sprintf("repos/%s/%s/pulls?state=open", q.Ref.Owner, q.Ref.Repo), "the open pull requests of "+q.Name())
	cancel()
	if err != nil {
		return err
	}
	q.listCut.Store(&listCut)
	for _, p := range pulls {
		// A head goes into URLs and the cache's folder names: a commit id only.
		if !commitid.Valid(p.Head.SHA) {
			return malformed("the open pull requests of "+q.Name(), fmt.Errorf("#%d's head is not a commit id: %q", p.Number, p.Head.SHA))
		}
	}
	var emu sync.Mutex
	send := func(ev QueueEvent) {
		emu.Lock()
		defer emu.Unlock()
		ev.Repo = q.Name()
		emit(ev)
	}
	list := make([]report.QueueRow, len(pulls))
	open := map[int]bool{}
	var fresh []int // PRs new or changed since the last visit
	q.mu.Lock()
	for i, p := range pulls {
		open[p.Number] = true
		if e := q.entries[p.Number]; e == nil || e.Row.HeadSHA != p.Head.SHA || e.UpdatedAt != p.UpdatedAt || e.Inputs == "" {
			fresh = append(fresh, p.Number)
		}
		r := q.listRow(p)
		if e := q.entries[p.Number]; e != nil && e.Row.HeadSHA == p.Head.SHA {
			// What the last visit knew stays on screen until the row is read.
			r = e.Row
			r.Title, r.Draft, r.ListCut = p.Title, p.Draft, listCut
			r.Settle(q.opts.All)
		}
		list[i] = r
	}
	for n := range q.entries {
		if !open[n] {
			delete(q.entries, n)
		}
	}
	q.mu.Unlock()
	send(QueueEvent{List: list, Cut: listCut})

	// First round: each PR's comments and checks, all at once (the meter
	// keeps InFlight of them on the wire). PRs with a packet then need
	// their review threads, and PRs vetted for an older head their commits,
	// read for several PRs in one GraphQL query.
	type pending struct {
		pull OpenPull
		rd   *rowRead
	}
	var first firstError
	fail := first.set
	// The GraphQL queries for the PRs new or changed since the last visit
	// are sent at once, beside the first round, whether or not the comments
	// turn out to carry a packet: three queries for sixty PRs cost less
	// than the round trip they save. The others that need one (their
	// comments changed) are batched as soon as twenty do.
	const batch = 20
	type early struct {
		done chan struct{}
		more prMore
		err  error
	}
	var batches sync.WaitGroup
	ahead := map[int]*early{}
	for i := 0; i < len(fresh); i += batch {
		nums := fresh[i:min(i+batch, len(fresh))]
		group := make([]*early, len(nums))
		for j, n := range nums {
			group[j] = &early{done: make(chan struct{})}
			ahead[n] = group[j]
		}
		batches.Go(func() {
			bctx, cancel := context.WithTimeout(ctx, c.timeout)
			more, err := q.moreOf(bctx, c, nums)
			cancel()
			for j, n := range nums {
				group[j].more, group[j].err = more[n], err
				close(group[j].done)
			}
		})
	}
	needs := make(chan pending)
	runBatch := func(group []pending) {
		batches.Go(func() {
			nums := make([]int, len(group))
			for j, g := range group {
				nums[j] = g.pull.Number
			}
			bctx, cancel := context.WithTimeout(ctx, c.timeout)
			more, err := q.moreOf(bctx, c, nums)
			cancel()
			// Rebuilding and loading the packets is CPU work: the rows of
			// a batch are finished side by side.
			var fw sync.WaitGroup
			for _, g := range group {
				if err != nil {
					// The row shows without the other reviewers' findings
					// rather than not at all; the error is reported.
					g.rd.threadsErr = err
				}
				g.rd.commits, g.rd.dated = more[g.pull.Number].commits, more[g.pull.Number].dated
				fw.Go(func() { send(QueueEvent{Row: q.finish(g.pull, g.rd, more[g.pull.Number])}) })
			}
			fw.Wait()
			if err != nil {
				fail(err)
			}
		})
	}
	batcher := make(chan struct{})
	go func() {
		defer close(batcher)
		var group []pending
		for p := range needs {
			if group = append(group, p); len(group) == batch {
				runBatch(group)
				group = nil
			}
		}
		if len(group) > 0 {
			runBatch(group)
		}
	}()
	// Rows are read twice InFlight at a time (their requests, two a row,
	// keep the meter's slots full), so a row's timeout starts when it is
	// read, not while it waits behind the whole queue.
	rows := make(chan struct{}, 2*q.opts.InFlight)
	var wg sync.WaitGroup
	for _, p := range pulls {
		wg.Go(func() {
			rows <- struct{}{}
			rctx, cancel := context.WithTimeout(ctx, c.timeout)
			rd, err := q.readRow(rctx, c, p)
			cancel()
			<-rows
			if err != nil {
				fail(err)
				return
			}
			if row, ok := q.reuse(p, rd); ok {
				send(QueueEvent{Row: row})
				return
			}
			if !rd.packet && !rd.needCommits {
				send(QueueEvent{Row: q.finish(p, rd, prMore{})})
				return
			}
			if e := ahead[p.Number]; e != nil {
				<-e.done
				rd.commits, rd.dated, rd.threadsErr = e.more.commits, e.more.dated, e.err
				send(QueueEvent{Row: q.finish(p, rd, e.more)})
				if e.err != nil {
					fail(e.err)
				}
				return
			}
			needs <- pending{p, rd}
		})
	}
	wg.Wait()
	close(needs)
	<-batcher
	batches.Wait()
	_ = q.Save()
	return first.get()
}

// ReadOne reads one pull request's row again (after the workbench posted a
// decision on it, or triaged it): the PR, its comments and checks, with
// conditional requests.
func (q *Queue) ReadOne(ctx context.Context, number int) (report.QueueRow, error) {
	c, err := q.client()
	if err != nil {
		return report.QueueRow{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var p OpenPull
	if err := c.getJSON(ctx, fmt.Sprintf("repos/%s/%s/pulls/%d", q.Ref.Owner, q.Ref.Repo, number), q.prName(number), &p); err != nil {
		return report.QueueRow{}, err
	}
	rd, err := q.readRow(ctx, c, p)
	if err != nil {
		return report.QueueRow{}, err
	}
	if row, ok := q.reuse(p, rd); ok {
		return *row, nil
	}
	var more prMore
	if rd.packet || rd.needCommits {
		m, err := q.moreOf(ctx, c, []int{number})
		if err != nil {
			return report.QueueRow{}, err
		}
		more = m[number]
		rd.commits, rd.dated = more.commits, more.dated
	}
	row := q.finish(p, rd, more)
	_ = q.Save()
	return *row, nil
}

func (q *Queue) prName(n int) string {
	return Ref{Host: q.Ref.Host, Owner: q.Ref.Owner, Repo: q.Ref.Repo, Number: n}.String()
}

// listRow is what the list alone says of a pull request.
func (q *Queue) listRow(p OpenPull) report.QueueRow {
	r := report.QueueRow{Repo: q.Name(), Number: p.Number, Title: p.Title, Author: p.User.Login, URL: p.HTMLURL,
		Draft: p.Draft, CreatedAt: p.CreatedAt, HeadSHA: p.Head.SHA, CI: packet.OriginCI{Failing: []string{}}}
	r.ListCut = q.cutOfList()
	r.Settle(q.opts.All)
	return r
}

// rowRead is what one PR's requests returned.
type rowRead struct {
	comments []IssueComment
	checks   []CheckRun
	statuses []Status
	required *requiredRead
	// commits are the PR's commits (their SHAs, oldest first), read only
	// when a counting /ok to test names an older commit (needCommits).
	commits []string
	// dated are the same commits with when they were made, for the head
	// an evidence record speaks for.
	dated       []Commit
	needCommits bool
	packet      bool
	inputs      string
	threadsErr  error
	// cut are the lines saying which of the row's lists were not read to
	// their end.
	cut []string
}

// readRow reads a PR's comments and the head's check runs at once.
func (q *Queue) readRow(ctx context.Context, c *Client, p OpenPull) (*rowRead, error) {
	repo := fmt.Sprintf("repos/%s/%s", q.Ref.Owner, q.Ref.Repo)
	name := q.prName(p.Number)
	rd := &rowRead{}
	var wg sync.WaitGroup
	var errA, errB error
	var cutA, cutB string
	wg.Go(func() {
		rd.comments, cutA, errA = getAll[IssueComment](ctx, c, fmt.Sprintf("%s/issues/%d/comments", repo, p.Number), "the comments of "+name)
	})
	var errC error
	wg.Go(func() {
		rd.checks, cutB, errB = getAllIn[CheckRun](ctx, c, fmt.Sprintf("%s/commits/%s/check-runs", repo, p.Head.SHA), "check_runs", "the check runs of "+name)
	})
	wg.Go(func() {
		var st struct {
			Statuses []Status `json:"statuses"`
		}
		errC = c.getJSON(ctx, fmt.Sprintf("%s/commits/%s/status", repo, p.Head.SHA), "the combined status of "+name, &st)
		rd.statuses = st.Statuses
	})
	wg.Go(func() { rd.required = q.requiredOf(ctx, c, p.Base.Ref) })
	wg.Wait()
	for _, err := range []error{errA, errB, errC} {
		if err != nil {
			return nil, err
		}
	}
	for _, cut := range []string{cutA, cutB} {
		if cut != "" {
			rd.cut = append(rd.cut, cut)
		}
	}
	slices.SortStableFunc(rd.comments, func(a, b IssueComment) int { return a.CreatedAt.Compare(b.CreatedAt) })
	if last := lastCounting(rd.comments); last != nil && !commitid.Same(last.SHA, p.Head.SHA) {
		// How many commits came since is asked with the threads; the head
		// (in the inputs below) fixes them.
		rd.needCommits = true
	}
	rd.packet = hasPacket(&Data{Pull: p.Pull, Comments: rd.comments}, trustedFor(p.User.Login))
	h := sha256.New()
	enc := json.NewEncoder(h)
	enc.Encode([]any{p.Head.SHA, p.UpdatedAt, p.Title, p.Draft, p.User.Login})
	for _, ic := range rd.comments {
		enc.Encode([]any{ic.ID, ic.UpdatedAt, ic.Body, ic.User.Login, ic.AuthorAssociation})
	}
	enc.Encode(rd.checks)
	enc.Encode(rd.statuses)
	enc.Encode([]any{rd.required.names, rd.required.known, rd.cut})
	rd.inputs = hex.EncodeToString(h.Sum(nil))[:24]
	return rd, nil
}

// data is what the row read, as Build takes it.
func (rd *rowRead) data(p OpenPull) *Data {
	return &Data{Pull: p.Pull, Comments: rd.comments, CheckRuns: rd.checks, Statuses: rd.statuses,
		Required: rd.required.names, RequiredKnown: rd.required.known, Commits: rd.dated}
}

// requiredOf reads a base branch's required checks once for the queue.
func (q *Queue) requiredOf(ctx context.Context, c *Client, base string) *requiredRead {
	q.mu.Lock()
	if q.required == nil {
		q.required = map[string]*requiredRead{}
	}
	r := q.required[base]
	if r == nil {
		r = &requiredRead{}
		q.required[base] = r
	}
	q.mu.Unlock()
	r.once.Do(func() {
		r.names, r.known = requiredChecks(ctx, c, fmt.Sprintf("repos/%s/%s", q.Ref.Owner, q.Ref.Repo), base)
	})
	return r
}

func lastCounting(comments []IssueComment) *OkToTest {
	var last *OkToTest
	for _, ok := range OkToTests(comments) {
		if ok.Counts {
			last = &ok
		}
	}
	return last
}

// reuse returns the cached row when its answers did not change, with the
// reviewer's state read again from the packet kept in the cache.
func (q *Queue) reuse(p OpenPull, rd *rowRead) (*report.QueueRow, bool) {
	q.mu.Lock()
	e := q.entries[p.Number]
	q.mu.Unlock()
	if e == nil || e.Inputs != rd.inputs {
		return nil, false
	}
	row := e.Row
	row.Loaded = true
	row.ListCut = q.cutOfList()
	// The marker depends on --awaiting, which may differ from the last visit's.
	row.Marker = q.marker(rd.comments)
	if row.Packet {
		unlock := q.lockPR(p.Number)
		pk, err := q.loadPacket(p.Number)
		unlock()
		if err != nil {
			return nil, false
		}
		row.FromPacket(pk)
		pk.Close()
	}
	row.Settle(q.opts.All)
	return &row, true
}

// finish computes a row from what was read and the GraphQL answer (its
// threads); with a packet, it is rebuilt from the comments (as Open would,
// without the diff) into the queue's cache, loaded with the reviewer's
// state, and its facts taken.
func (q *Queue) finish(p OpenPull, rd *rowRead, more prMore) *report.QueueRow {
	threads := more.threads
	row := q.listRow(p)
	row.Loaded = true
	row.CI = ciOf(rd.data(p))
	row.Marker = q.marker(rd.comments)
	row.Cut = slices.Clone(rd.cut)
	if more.cut != "" {
		row.Cut = append(row.Cut, more.cut)
	}
	if last := lastCounting(rd.comments); last != nil {
		row.OkToTest = &packet.OriginOkToTest{SHA: last.SHA, By: last.By, At: last.At}
		if len(rd.commits) > 0 {
			for i, cm := range rd.commits {
				if commitid.Same(last.SHA, cm) {
					n := len(rd.commits) - 1 - i
					row.CommitsSinceOK = &n
				}
			}
		} else if commitid.Same(last.SHA, p.Head.SHA) {
			zero := 0
			row.CommitsSinceOK = &zero
		}
	}
	inputs := rd.inputs
	if rd.packet {
		row.Packet = true
		if pk, err := q.buildPacket(p, rd, threads); err == nil {
			row.FromPacket(pk)
			pk.Close()
		} else {
			inputs = "" // read it again next time
		}
		if rd.threadsErr != nil {
			inputs = ""
		}
	}
	row.Settle(q.opts.All)
	q.mu.Lock()
	q.entries[p.Number] = &queueEntry{Row: row, Inputs: inputs, UpdatedAt: p.UpdatedAt}
	q.mu.Unlock()
	return &row
}

// marker reports whether a comment matches the "awaiting vetting" pattern.
func (q *Queue) marker(comments []IssueComment) bool {
	for _, ic := range comments {
		if q.opts.Awaiting.MatchString(ic.Body) {
			return true
		}
	}
	return false
}

func (q *Queue) packetDir(n int) string { return filepath.Join(q.dir, strconv.Itoa(n)) }

// lockPR holds pull request n's packet folder until the returned func.
func (q *Queue) lockPR(n int) func() {
	q.mu.Lock()
	l := q.building[n]
	if l == nil {
		l = &sync.Mutex{}
		q.building[n] = l
	}
	q.mu.Unlock()
	l.Lock()
	return l.Unlock
}

func (q *Queue) loadPacket(n int) (*packet.Packet, error) {
	pk, err := packet.Load(q.packetDir(n), packet.Options{DeferLogIndex: true, OriginRoot: q.root})
	if err != nil {
		return nil, err
	}
	// Triage and decision are the reviewer's, read without writing.
	_ = review.ReadReviewerState(pk, q.opts.StateDir)
	return pk, nil
}

func (q *Queue) buildPacket(p OpenPull, rd *rowRead, threads []Thread) (*packet.Packet, error) {
	d := rd.data(p)
	d.Ref, d.Threads = Ref{Host: q.Ref.Host, Owner: q.Ref.Owner, Repo: q.Ref.Repo, Number: p.Number}, threads
	b, err := Build(d, "")
	if err != nil {
		return nil, err
	}
	// The commits after the packet's head, from the PR's own list: the
	// after-packet item then reads as it does for summary, and a triage of
	// it made there stands here (the diff is not read for a row).
	d.After = commitsAfter(rd.dated, b.packetHead)
	b.addAfter(d)
	defer q.lockPR(p.Number)()
	if err := b.write(q.packetDir(p.Number)); err != nil {
		return nil, err
	}
	return q.loadPacket(p.Number)
}

// prMore is what the queue reads of a pull request through GraphQL.
type prMore struct {
	threads []Thread
	commits []string // SHAs, oldest first (the last 100)
	dated   []Commit // the same, with their committed dates
	cut     string   // the line saying the threads were not all read
}

// moreOf reads the review threads and the last commits of several pull
// requests in one GraphQL query (an alias per PR); a PR with more than a
// page of threads is read on, page by page, on its own.
func (q *Queue) moreOf(ctx context.Context, c *Client, nums []int) (map[int]prMore, error) {
	var b strings.Builder
	b.WriteString("query queueRows($owner: String!, $repo: String!) {\n  repository(owner: $owner, name: $repo) {\n")
	for _, n := range nums {
		fmt.Fprintf(&b, "    pr%d: pullRequest(number: %d) { ...row }\n", n, n)
	}
	b.WriteString(`  }
}
fragment row on PullRequest {
  commits(last: 100) { nodes { commit { oid committedDate messageHeadline } } }
  reviewThreads(first: 100) {
    pageInfo { hasNextPage endCursor }
    nodes {
      id isResolved resolvedBy { login } isOutdated path line startLine originalLine
      comments(first: 100) { nodes { databaseId author { login } body createdAt } }
    }
  }
}`)
	type page struct {
		Commits struct {
			Nodes []struct {
				Commit struct {
					OID             string    `json:"oid"`
					CommittedDate   time.Time `json:"committedDate"`
					MessageHeadline string    `json:"messageHeadline"`
				} `json:"commit"`
			} `json:"nodes"`
		} `json:"commits"`
		ReviewThreads struct {
			PageInfo struct {
				HasNextPage bool `json:"hasNextPage"`
			} `json:"pageInfo"`
			Nodes []Thread `json:"nodes"`
		} `json:"reviewThreads"`
	}
	var data struct {
		Repository map[string]*page `json:"repository"`
	}
	if err := c.graphQL(ctx, b.String(), map[string]any{"owner": q.Ref.Owner, "repo": q.Ref.Repo}, "the review threads of "+q.Name(), &data); err != nil {
		return nil, err
	}
	out := map[int]prMore{}
	for _, n := range nums {
		pg := data.Repository[fmt.Sprintf("pr%d", n)]
		if pg == nil {
			continue
		}
		var m prMore
		for _, cm := range pg.Commits.Nodes {
			m.commits = append(m.commits, cm.Commit.OID)
			var dc Commit
			dc.SHA, dc.Commit.Committer.Date, dc.Commit.Message = cm.Commit.OID, cm.Commit.CommittedDate, cm.Commit.MessageHeadline
			m.dated = append(m.dated, dc)
		}
		m.threads = pg.ReviewThreads.Nodes
		if pg.ReviewThreads.PageInfo.HasNextPage {
			all, cut, err := c.threads(ctx, Ref{Host: q.Ref.Host, Owner: q.Ref.Owner, Repo: q.Ref.Repo, Number: n})
			if err != nil {
				return nil, err
			}
			m.threads, m.cut = all, cut
		}
		out[n] = m
	}
	return out, nil
}

// Stats are what the queue's requests cost.
type Stats struct {
	Requests    int // sent
	Conditional int // of them, with If-None-Match
	NotModified int // answered 304 (no rate limit spent)
	MaxInFlight int // the most at once
	// RateRemaining and RateLimit are GitHub's last X-RateLimit-* (-1 when
	// never said); RateReset is when it resets.
	RateRemaining, RateLimit int
	RateReset                time.Time
}

// RateLow reports whether the remaining rate limit is worth showing: under
// a tenth of the limit, or under 100.
func (s Stats) RateLow() bool {
	return s.RateRemaining >= 0 && (s.RateRemaining < 100 || (s.RateLimit > 0 && s.RateRemaining*10 < s.RateLimit))
}

// Stats returns what the requests so far cost.
func (q *Queue) Stats() Stats {
	q.mu.Lock()
	m := q.m
	q.mu.Unlock()
	if m == nil {
		return Stats{RateRemaining: -1, RateLimit: -1}
	}
	return m.stats()
}

// OpenPR opens one of the queue's pull requests as the workbench would
// (Open), with the same cache root; a cached copy is returned at once and
// refreshed behind, in place, when refresh is set.
func (q *Queue) OpenPR(ctx context.Context, number int, localOpts Options) (*Opened, error) {
	ref := Ref{Host: q.Ref.Host, Owner: q.Ref.Owner, Repo: q.Ref.Repo, Number: number}
	localOpts.CacheDir = q.root
	if localOpts.Config.Host == "" {
		localOpts.Config = q.opts.Config
	}
	return Open(ctx, ref, localOpts)
}

// Meter carries a queue's requests: at most a bound in flight, and it
// counts them and keeps GitHub's last word on the rate limit.
type Meter struct {
	base  http.RoundTripper
	slots chan struct{}

	mu               sync.Mutex
	inFlight         int
	st               Stats
	rateSeen         bool
	remaining, limit int
	reset            time.Time
}

// NewMeter bounds the requests through base (nil: http.DefaultTransport)
// to n in flight (0: MaxInFlight).
func NewMeter(base http.RoundTripper, n int) *Meter {
	if base == nil {
		base = http.DefaultTransport
	}
	if n <= 0 {
		n = MaxInFlight
	}
	return &Meter{base: base, slots: make(chan struct{}, n)}
}

// RoundTrip waits for a slot, then sends.
func (m *Meter) RoundTrip(req *http.Request) (*http.Response, error) {
	select {
	case m.slots <- struct{}{}:
	case <-req.Context().Done():
		return nil, req.Context().Err()
	}
	defer func() { <-m.slots }()
	m.mu.Lock()
	m.inFlight++
	m.st.Requests++
	m.st.MaxInFlight = max(m.st.MaxInFlight, m.inFlight)
	if req.Header.Get("If-None-Match") != "" {
		m.st.Conditional++
	}
	m.mu.Unlock()
	resp, err := m.base.RoundTrip(req)
	m.mu.Lock()
	m.inFlight--
	if err == nil {
		if resp.StatusCode == http.StatusNotModified {
			m.st.NotModified++
		}
		if v, e := strconv.Atoi(resp.Header.Get("X-RateLimit-Remaining")); e == nil {
			m.rateSeen, m.remaining = true, v
			if l, e := strconv.Atoi(resp.Header.Get("X-RateLimit-Limit")); e == nil {
				m.limit = l
			}
			if r, e := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64); e == nil {
				m.reset = time.Unix(r, 0)
			}
		}
	}
	m.mu.Unlock()
	return resp, err
}

func (m *Meter) stats() Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.st
	s.RateRemaining, s.RateLimit = -1, -1
	if m.rateSeen {
		s.RateRemaining, s.RateLimit, s.RateReset = m.remaining, m.limit, m.reset
	}
	return s
}

// commitsAfter are the commits that follow head in a PR's commit list
// (oldest first); none when head is the last or not among them.
func commitsAfter(commits []Commit, head string) []Commit {
	if head == "" {
		return nil
	}
	for i, c := range commits {
		if commitid.Same(c.SHA, head) {
			return commits[i+1:]
		}
	}
	return nil
}
