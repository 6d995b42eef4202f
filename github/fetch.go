package github

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/packet"
)

// The shapes below are the parts of GitHub's REST and GraphQL answers vetter
// uses (docs.github.com/rest/pulls, /rest/issues/comments, /rest/checks).

// User is an account.
type User struct {
	Login string `json:"login"`
}

// Pull is GET /repos/{o}/{r}/pulls/{n}.
type Pull struct {
	Number  int    `json:"number"`
	Title   string `json:"title"`
	Body    string `json:"body"`
	State   string `json:"state"`
	HTMLURL string `json:"html_url"`
	User    User   `json:"user"`
	Head    struct {
		SHA string `json:"sha"`
		Ref string `json:"ref"`
	} `json:"head"`
	Base struct {
		SHA string `json:"sha"`
		Ref string `json:"ref"`
		// Repo is the repository the PR is opened on, as GitHub names it
		// now (a renamed repository answers under its new name).
		Repo struct {
			Name  string `json:"name"`
			Owner User   `json:"owner"`
		} `json:"repo"`
	} `json:"base"`
}

// Commit is one entry of /pulls/{n}/commits or of a compare.
type Commit struct {
	SHA    string `json:"sha"`
	Commit struct {
		Message string `json:"message"`
		// When it was made: the committer's date, else the author's.
		Author    commitDate `json:"author"`
		Committer commitDate `json:"committer"`
	} `json:"commit"`
}

type commitDate struct {
	Date time.Time `json:"date"`
}

// IssueComment is one entry of /issues/{n}/comments.
type IssueComment struct {
	ID                int64     `json:"id"`
	Body              string    `json:"body"`
	User              User      `json:"user"`
	AuthorAssociation string    `json:"author_association"`
	CreatedAt         time.Time `json:"created_at"`
	UpdatedAt         time.Time `json:"updated_at"`
	HTMLURL           string    `json:"html_url"`
}

// Review is one entry of /pulls/{n}/reviews.
type Review struct {
	ID          int64     `json:"id"`
	User        User      `json:"user"`
	Body        string    `json:"body"`
	State       string    `json:"state"`
	CommitID    string    `json:"commit_id"`
	SubmittedAt time.Time `json:"submitted_at"`
}

// ReviewComment is one entry of /pulls/{n}/comments (a comment on a line).
type ReviewComment struct {
	ID     int64  `json:"id"`
	NodeID string `json:"node_id"`
	Body   string `json:"body"`
	User   User   `json:"user"` // null (the zero User) for a deleted account
	Path   string `json:"path"`
	Line   int    `json:"line"` // null once the line is outdated
	// OriginalLine is the line in the commit the comment was made on.
	OriginalLine int       `json:"original_line"`
	StartLine    int       `json:"start_line"`
	Side         string    `json:"side"`
	InReplyToID  int64     `json:"in_reply_to_id"`
	CommitID     string    `json:"commit_id"`
	CreatedAt    time.Time `json:"created_at"`
}

// lineOr is the comment's line now, else the line it was made on.
func (c ReviewComment) lineOr() int {
	if c.Line == 0 {
		return c.OriginalLine
	}
	return c.Line
}

// Thread is a GraphQL PullRequestReviewThread.
type Thread struct {
	ID         string `json:"id"`
	IsResolved bool   `json:"isResolved"`
	IsOutdated bool   `json:"isOutdated"`
	// ResolvedBy is who resolved it; null while it is not resolved.
	ResolvedBy *User  `json:"resolvedBy"`
	Path       string `json:"path"`
	Line       int    `json:"line"`
	StartLine  int    `json:"startLine"`
	OrigLine   int    `json:"originalLine"`
	Comments   struct {
		Nodes []struct {
			DatabaseID int64  `json:"databaseId"`
			Author     User   `json:"author"` // null (the zero User) for a deleted account
			Body       string `json:"body"`
			CreatedAt  string `json:"createdAt"`
		} `json:"nodes"`
	} `json:"comments"`
}

// CheckRun is one entry of /commits/{sha}/check-runs.
type CheckRun struct {
	Name       string `json:"name"`
	Status     string `json:"status"`     // queued, in_progress, completed
	Conclusion string `json:"conclusion"` // success, failure, ... or null
}

// Status is one context of the combined status.
type Status struct {
	Context string `json:"context"`
	State   string `json:"state"` // success, failure, error, pending
}

// PRFile is one entry of /pulls/{n}/files or of a compare's files.
type PRFile struct {
	Filename         string `json:"filename"`
	PreviousFilename string `json:"previous_filename"`
	Status           string `json:"status"`
	Patch            string `json:"patch"`
}

// Data is everything read from one pull request.
type Data struct {
	Ref            Ref
	Pull           Pull
	Commits        []Commit
	Comments       []IssueComment
	Reviews        []Review
	ReviewComments []ReviewComment
	Threads        []Thread
	CheckRuns      []CheckRun
	Statuses       []Status
	// Required are the checks the base branch's protection requires, when
	// RequiredKnown (the token could read it).
	Required      []string
	RequiredKnown bool
	// Diff is the pull request's diff at its head; DiffNoPatch names files
	// GitHub gave no patch for when the diff was rebuilt from the files list
	// after a 406 (too large).
	Diff        string
	DiffRebuilt bool
	DiffNoPatch []string
	// When the packet names an older head than the PR's: the diff of
	// base...packet head (what the packet describes), and the commits and
	// diff of packet head...PR head (what came after).
	PacketDiff  string
	After       []Commit
	AfterDiff   string
	AfterNoDiff []string
	// PacketHeadMissing: GitHub does not know the packet's head (it was
	// force-pushed away), so there is no compare.
	PacketHeadMissing bool
	// CompareFailed says why the diff at the packet's head could not be
	// read; Diff (the PR head's) stands in for it, and says so.
	CompareFailed string
	// Cut says, a line each, which lists were not read to their end (past
	// maxPages, or a Link chain that loops).
	Cut   []string
	cutMu sync.Mutex
}

// cut records a list that was not read whole; "" is a whole list.
func (d *Data) cut(note string) {
	if note == "" {
		return
	}
	d.cutMu.Lock()
	defer d.cutMu.Unlock()
	d.Cut = append(d.Cut, note)
}

// Fetch reads the pull request in three rounds at most: everything that
// needs only the number at once; then the checks for the head and the
// pages the first pages announced; then the compares the packet's head
// calls for.
func (c *Client) Fetch(ctx context.Context, ref Ref) (*Data, error) {
	return c.fetch(ctx, ref, false)
}

// FetchFirst reads only what a pull request's first screen needs: the pull
// request, its comments (the packet's documents) and its diff, in one round
// and the comments' further pages. The checks, commits, reviews, review
// comments, threads and the compare are left for a full read behind it.
func (c *Client) FetchFirst(ctx context.Context, ref Ref) (*Data, error) {
	return c.fetch(ctx, ref, true)
}

func (c *Client) fetch(ctx context.Context, ref Ref, firstOnly bool) (*Data, error) {
	// The compare guessed below outlives this read: FetchAfter takes it.
	outer := ctx
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	pullRead := make(chan struct{})
	d := &Data{Ref: ref}
	repo := fmt.Sprintf("repos/%s/%s", ref.Owner, ref.Repo)
	pr := fmt.Sprintf("%s/pulls/%d", repo, ref.Number)
	name := ref.String()

	var first firstError
	fail := first.set
	var wg sync.WaitGroup
	run := func(f func() error) {
		wg.Go(func() {
			if err := f(); err != nil {
				fail(err)
			}
		})
	}
	run(func() error {
		err := c.getJSON(ctx, pr, name, &d.Pull)
		// The head becomes a folder name in the cache and a part of URLs:
		// only a hex commit id is taken.
		if err == nil && !commitid.Valid(d.Pull.Head.SHA) {
			err = malformed(name, fmt.Errorf("the pull request's head is not a commit id: %q", d.Pull.Head.SHA))
		}
		if err != nil {
			d.Pull = Pull{}
			close(pullRead)
			return err
		}
		close(pullRead)
		if firstOnly {
			return nil
		}
		// The checks need the head; they start as soon as it is known.
		var cw sync.WaitGroup
		cw.Go(func() {
			runs, cut, err := getAllIn[CheckRun](ctx, c, fmt.Sprintf("%s/commits/%s/check-runs", repo, d.Pull.Head.SHA), "check_runs", "the check runs of "+name)
			if err != nil {
				fail(err)
			}
			d.cut(cut)
			d.CheckRuns = runs
		})
		cw.Go(func() {
			var st struct {
				Statuses []Status `json:"statuses"`
			}
			if err := c.getJSON(ctx, fmt.Sprintf("%s/commits/%s/status", repo, d.Pull.Head.SHA), "the combined status of "+name, &st); err != nil {
				fail(err)
			}
			d.Statuses = st.Statuses
		})
		cw.Go(func() { d.Required, d.RequiredKnown = requiredChecks(ctx, c, repo, d.Pull.Base.Ref) })
		cw.Wait()
		return nil
	})
	if !firstOnly {
		run(func() (err error) {
			var cut string
			d.Commits, cut, err = getAll[Commit](ctx, c, pr+"/commits", "the commits of "+name)
			d.cut(cut)
			return
		})
	}
	run(func() (err error) {
		var cut string
		// The agent posts change.md among its first comments: the head it
		// names on the first page starts the compare now, a round before
		// all pages are read. A later change.md naming another head costs
		// the compare a round of its own (FetchAfter asks for it then).
		guess := func(page []IssueComment) {
			if firstOnly {
				return
			}
			go func() {
				select {
				case <-pullRead:
				case <-ctx.Done():
					return
				}
				if d.Pull.Head.SHA == "" {
					return
				}
				if head := packetHeadOf(page, d.Pull.User.Login); head != "" && !commitid.Same(head, d.Pull.Head.SHA) {
					var keys []string
					for _, rq := range compareRequests(d, head) {
						keys = append(keys, rq.accept+" "+c.url(rq.path))
					}
					c.prefetch(outer, keys)
				}
			}()
		}
		d.Comments, cut, err = getAllThen[IssueComment](ctx, c, fmt.Sprintf("%s/issues/%d/comments", repo, ref.Number), "the comments of "+name, guess)
		d.cut(cut)
		return
	})
	if !firstOnly {
		run(func() (err error) {
			var cut string
			d.Reviews, cut, err = getAll[Review](ctx, c, pr+"/reviews", "the reviews of "+name)
			d.cut(cut)
			return
		})
		run(func() (err error) {
			var cut string
			d.ReviewComments, cut, err = getAll[ReviewComment](ctx, c, pr+"/comments", "the review comments of "+name)
			d.cut(cut)
			return
		})
		run(func() (err error) {
			var cut string
			d.Threads, cut, err = c.threads(ctx, ref)
			d.cut(cut)
			return
		})
	}
	run(func() error { return c.diff(ctx, pr, name, d) })
	wg.Wait()
	if err := first.get(); err != nil {
		return nil, err
	}
	sort.SliceStable(d.Comments, func(i, j int) bool { return d.Comments[i].CreatedAt.Before(d.Comments[j].CreatedAt) })
	return d, nil
}

// FetchAfter reads what the packet's head does not cover: the diff the packet
// describes (base...packet head) and the commits and diff that came after
// (packet head...PR head). It does nothing when the heads agree.
func (c *Client) FetchAfter(ctx context.Context, d *Data, packetHead string) error {
	if packetHead == "" || commitid.Same(packetHead, d.Pull.Head.SHA) {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	name := d.Ref.String()
	rq := compareRequests(d, packetHead)
	var wg sync.WaitGroup
	var errA, errB error
	wg.Go(func() {
		r, err := c.do(ctx, http.MethodGet, rq[0].path, rq[0].accept, nil, "the diff of "+name+" at the packet's head")
		if err != nil {
			// Without the network or the token nothing read is to be
			// trusted; any other failure leaves the PR head's diff as the
			// packet's, and says so (CompareFailed).
			if IsKind(err, KindTimeout) || IsKind(err, KindNetwork) || IsKind(err, KindUnauthorized) || IsKind(err, KindRateLimited) || IsKind(err, KindOffOrigin) {
				errA = err
				return
			}
			why := err.Error()
			switch {
			case IsKind(err, KindNotFound):
				why = "GitHub does not know the packet's head (404)"
			case r != nil && r.Status == http.StatusNotAcceptable:
				why = "GitHub refused the diff as too large (406)"
			}
			d.CompareFailed = fmt.Sprintf("the diff of the PR's base %s...the packet's head %s could not be read: %s", commitid.Short(d.Pull.Base.SHA), commitid.Short(packetHead), why)
			return
		}
		d.PacketDiff = string(r.Body)
	})
	wg.Go(func() {
		var cmp struct {
			Commits []Commit `json:"commits"`
			Files   []PRFile `json:"files"`
		}
		what := fmt.Sprintf("the compare of %s...%s on %s", commitid.Short(packetHead), commitid.Short(d.Pull.Head.SHA), name)
		if err := c.getJSON(ctx, rq[1].path, what, &cmp); err != nil {
			// A head force-pushed away: the packet describes a commit
			// the repository no longer has, which is itself the news.
			if IsKind(err, KindNotFound) {
				d.PacketHeadMissing = true
				return
			}
			errB = err
			return
		}
		d.After = cmp.Commits
		d.AfterDiff, d.AfterNoDiff = rebuildDiff(cmp.Files)
	})
	wg.Wait()
	if errA != nil {
		return errA
	}
	return errB
}

type request struct{ accept, path string }

// compareRequests are the two compares a packet head older than the PR's
// calls for: the diff of base...packet head (what the packet describes) and
// packet head...PR head as JSON (what came after).
func compareRequests(d *Data, packetHead string) [2]request {
	repo := fmt.Sprintf("repos/%s/%s", d.Ref.Owner, d.Ref.Repo)
	return [2]request{
		{"application/vnd.github.diff", fmt.Sprintf("%s/compare/%s...%s", repo, d.Pull.Base.SHA, packetHead)},
		{"application/vnd.github+json", fmt.Sprintf("%s/compare/%s...%s", repo, packetHead, d.Pull.Head.SHA)},
	}
}

// packetHeadOf is the head the latest change.md among comments names, as
// Build reads it (the same documents, the same trust).
func packetHeadOf(comments []IssueComment, author string) string {
	dc, ok := Documents(comments, trustedFor(author))[packet.ChangeFile]
	if !ok {
		return ""
	}
	ch, _ := packet.ParseChange(packet.ParseDocument(packet.ChangeFile, []byte(dc.Text)))
	return ch.HeadSHA
}

// diff reads the PR's diff; when GitHub refuses it as too large (406) it is
// rebuilt from the files list's patches.
func (c *Client) diff(ctx context.Context, pr, name string, d *Data) error {
	r, err := c.do(ctx, http.MethodGet, pr, "application/vnd.github.diff", nil, "the diff of "+name)
	if err == nil {
		d.Diff = string(r.Body)
		return nil
	}
	if r == nil || r.Status != http.StatusNotAcceptable {
		return err
	}
	files, cut, err := getAll[PRFile](ctx, c, pr+"/files", "the files of "+name)
	if err != nil {
		return err
	}
	d.cut(cut)
	d.Diff, d.DiffNoPatch = rebuildDiff(files)
	d.DiffRebuilt = true
	return nil
}

// rebuildDiff writes a git diff from the files list's patches; files with no
// patch (binary, or too large for GitHub to show) are named, not invented.
func rebuildDiff(files []PRFile) (string, []string) {
	var b strings.Builder
	var none []string
	for _, f := range files {
		old := f.Filename
		if f.PreviousFilename != "" {
			old = f.PreviousFilename
		}
		fmt.Fprintf(&b, "diff --git a/%s b/%s\n", old, f.Filename)
		switch f.Status {
		case "added":
			b.WriteString("new file mode 100644\n")
		case "removed":
			b.WriteString("deleted file mode 100644\n")
		case "renamed":
			fmt.Fprintf(&b, "rename from %s\nrename to %s\n", old, f.Filename)
		}
		if f.Patch == "" {
			none = append(none, f.Filename)
			continue
		}
		from, to := "a/"+old, "b/"+f.Filename
		if f.Status == "added" {
			from = "/dev/null"
		}
		if f.Status == "removed" {
			to = "/dev/null"
		}
		fmt.Fprintf(&b, "--- %s\n+++ %s\n%s", from, to, f.Patch)
		if !strings.HasSuffix(f.Patch, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.String(), none
}

const threadsQuery = `query($owner: String!, $repo: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id isResolved resolvedBy { login } isOutdated path line startLine originalLine
          comments(first: 100) { nodes { databaseId author { login } body createdAt } }
        }
      }
    }
  }
}`

// threads reads every review thread, page by page (a GraphQL cursor names
// the next page only once the previous one is read), at most maxPages of
// them; cut says when there were more.
func (c *Client) threads(ctx context.Context, ref Ref) (out []Thread, cut string, err error) {
	what := "the review threads of " + ref.String()
	var after any
	seen := map[string]bool{}
	for page := 1; ; page++ {
		var data struct {
			Repository *struct {
				PullRequest *struct {
					ReviewThreads struct {
						PageInfo struct {
							HasNextPage bool   `json:"hasNextPage"`
							EndCursor   string `json:"endCursor"`
						} `json:"pageInfo"`
						Nodes []Thread `json:"nodes"`
					} `json:"reviewThreads"`
				} `json:"pullRequest"`
			} `json:"repository"`
		}
		vars := map[string]any{"owner": ref.Owner, "repo": ref.Repo, "number": ref.Number, "after": after}
		if err := c.graphQL(ctx, threadsQuery, vars, what, &data); err != nil {
			return nil, "", err
		}
		if data.Repository == nil || data.Repository.PullRequest == nil {
			return nil, "", &Error{Kind: KindNotFound, Msg: fmt.Sprintf("%s: not found: the pull request or repository does not exist, or the token cannot see it (check `gh auth status`)", ref)}
		}
		rt := data.Repository.PullRequest.ReviewThreads
		out = append(out, rt.Nodes...)
		if !rt.PageInfo.HasNextPage || rt.PageInfo.EndCursor == "" {
			return out, "", nil
		}
		if page == maxPages {
			return out, cutNote(what, page, len(out), fmt.Sprintf("GitHub still names a next page after %d", maxPages)), nil
		}
		if seen[rt.PageInfo.EndCursor] {
			return out, cutNote(what, page, len(out), "GitHub names a page already read"), nil
		}
		seen[rt.PageInfo.EndCursor] = true
		after = rt.PageInfo.EndCursor
	}
}

// HeadSHA re-reads the pull request's head, just before posting.
func (c *Client) HeadSHA(ctx context.Context, ref Ref) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	// No ETag here: a cached head is exactly what must not be trusted.
	r, err := c.doOnce(ctx, http.MethodGet, fmt.Sprintf("repos/%s/%s/pulls/%d", ref.Owner, ref.Repo, ref.Number), nil, ref.String())
	if err != nil {
		return "", err
	}
	var p Pull
	if err := json.Unmarshal(r.Body, &p); err != nil || p.Head.SHA == "" {
		return "", malformed(ref.String(), fmt.Errorf("no head SHA in the answer"))
	}
	return p.Head.SHA, nil
}

// Login is the account the token belongs to (GET /user), recorded beside a
// decision posted to a pull request.
func (c *Client) Login(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	r, err := c.doOnce(ctx, http.MethodGet, "user", nil, "the signed-in account")
	if err != nil {
		return "", err
	}
	var u struct {
		Login string `json:"login"`
	}
	if err := json.Unmarshal(r.Body, &u); err != nil || u.Login == "" {
		return "", malformed("the signed-in account", fmt.Errorf("no login in the answer"))
	}
	return u.Login, nil
}

// PostComment posts body as an issue comment on the pull request.
func (c *Client) PostComment(ctx context.Context, ref Ref, body string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	payload, err := json.Marshal(map[string]string{"body": body})
	if err != nil {
		return "", err
	}
	r, err := c.doOnce(ctx, http.MethodPost, fmt.Sprintf("repos/%s/%s/issues/%d/comments", ref.Owner, ref.Repo, ref.Number), payload, "posting a comment on "+ref.String())
	if err != nil {
		return "", err
	}
	var ic IssueComment
	_ = json.Unmarshal(r.Body, &ic)
	return ic.HTMLURL, nil
}

// PostReview posts a pull-request review (the JSON body of
// POST /repos/{o}/{r}/pulls/{n}/reviews) and returns its address.
func (c *Client) PostReview(ctx context.Context, ref Ref, body []byte) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	r, err := c.doOnce(ctx, http.MethodPost, fmt.Sprintf("repos/%s/%s/pulls/%d/reviews", ref.Owner, ref.Repo, ref.Number), body, "posting a review on "+ref.String())
	if err != nil {
		return "", err
	}
	var rv struct {
		HTMLURL string `json:"html_url"`
	}
	_ = json.Unmarshal(r.Body, &rv)
	return rv.HTMLURL, nil
}

// firstError keeps the first error the goroutines working on one answer
// report; the ones after it are its consequences or the same failure again.
type firstError struct {
	mu  sync.Mutex
	err error
}

func (f *firstError) set(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil {
		f.err = err
	}
}

func (f *firstError) get() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}
