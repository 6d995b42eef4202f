package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/vetter-dev/vetter/github"
	"github.com/vetter-dev/vetter/report"
	"github.com/vetter-dev/vetter/tui"
	"github.com/vetter-dev/vetter/tui/screens/inbox"
)

// queueFlags are vetter queue's options.
type queueFlags struct {
	repos    []string
	all      bool
	awaiting string
	asJSON   bool
	jf       jsonFormat
	// awaitingSet says --awaiting was given: it wins over the config file.
	awaitingSet bool
	author      string
	hasPacket   bool
	awaitingMe  bool
	theme       string
}

func addQueueCommand(root *cobra.Command, stdout, stderr io.Writer) {
	root.AddCommand(newQueueCmd(stdout, stderr))
}

func newQueueCmd(stdout, stderr io.Writer) *cobra.Command {
	var f queueFlags
	cmd := &cobra.Command{
		Use:   "queue [OWNER/REPO]",
		Short: "The open pull requests of a repository that wait for /ok to test, what needs you first",
		Long: `queue lists the open pull requests of OWNER/REPO (the current clone's
repository by default; -R adds more), one row each: whether the agent's packet
was found in its comments and what it says, CI on the head, the last
/ok to test and whether it names the head, and your own decision. Rows are
ordered by what needs you: awaiting vetting with a ready gate, awaiting with
work left, vetted for an older head, vetted at the head, the rest, drafts.

A pull request awaits vetting when the last /ok to test from an owner, member
or collaborator does not name its head and a comment matches --awaiting
(copy-pr-bot's sentence by default), or --all is given.`,
		Args:          cobra.MaximumNArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			f.awaitingSet = cmd.Flags().Changed("awaiting")
			return runQueue(args, f, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&f.repos, "repo", "R", nil, "a repository, [HOST/]OWNER/REPO (repeatable)")
	fl.BoolVar(&f.all, "all", false, "count every pull request without a current /ok to test as awaiting, marker or not")
	fl.StringVar(&f.awaiting, "awaiting", github.DefaultAwaiting, "the regular expression a comment must match to mark its pull request as awaiting vetting")
	fl.BoolVar(&f.asJSON, "json", false, "print the rows as JSON (docs/packet-format.md) instead of opening the queue")
	f.jf.addFlags(cmd)
	fl.StringVar(&f.author, "author", "", "only the pull requests of this account")
	fl.BoolVar(&f.hasPacket, "has-packet", false, "only the pull requests whose comments carry a packet")
	fl.BoolVar(&f.awaitingMe, "awaiting-me", false, "only the pull requests awaiting vetting with no decision of yours for their head")
	fl.StringVar(&f.theme, "theme", "", "dark or light (default: detect the terminal's background)")
	return cmd
}

// parseRepo reads [HOST/]OWNER/REPO.
func parseRepo(s string) (github.Ref, error) {
	parts := strings.Split(strings.Trim(s, "/"), "/")
	switch {
	case len(parts) == 2 && parts[0] != "" && parts[1] != "":
		return github.Ref{Host: github.DefaultHost(), Owner: parts[0], Repo: parts[1]}, nil
	case len(parts) == 3 && parts[0] != "" && parts[1] != "" && parts[2] != "":
		return github.Ref{Host: strings.ToLower(parts[0]), Owner: parts[1], Repo: parts[2]}, nil
	}
	return github.Ref{}, fmt.Errorf("%q is not a repository: want OWNER/REPO or HOST/OWNER/REPO", s)
}

func runQueue(args []string, f queueFlags, stdout, stderr io.Writer) error {
	if f.theme != "" && f.theme != "dark" && f.theme != "light" {
		return fmt.Errorf("--theme takes dark or light, not %q", f.theme)
	}
	if err := f.jf.check("queue", f.asJSON); err != nil {
		return err
	}
	// The config file's settings stand where no flag or argument says
	// otherwise.
	cfg, err := loadConfig()
	if err != nil {
		return err
	}
	if f.theme == "" {
		f.theme = cfg.Theme
	}
	if !f.awaitingSet && cfg.Awaiting != nil {
		f.awaiting = cfg.AwaitingText
	}
	if len(args) == 0 && len(f.repos) == 0 {
		args = cfg.Repositories
	}
	awaiting, err := regexp.Compile(f.awaiting)
	if err != nil {
		return fmt.Errorf("--awaiting %q is not a regular expression: %w", f.awaiting, err)
	}
	names := append(slices.Clone(args), f.repos...)
	var refs []github.Ref
	if len(names) == 0 {
		host, owner, repo, err := currentRepo()
		if err != nil {
			return fmt.Errorf("no repository named and none found in the current folder (%v): give OWNER/REPO or -R OWNER/REPO", err)
		}
		refs = append(refs, github.Ref{Host: host, Owner: owner, Repo: repo})
	}
	for _, n := range names {
		ref, err := parseRepo(n)
		if err != nil {
			return err
		}
		refs = append(refs, ref)
	}
	queues := map[string]*github.Queue{}
	var order []*github.Queue
	// One bound for every repository's requests: they are read at once.
	meter := github.NewMeter(nil, github.MaxInFlight)
	for _, ref := range refs {
		cfg := github.Config{Host: ref.Host, Timeout: prOpts.timeout, Retries: 2, Backoff: 500 * time.Millisecond}.FromEnv()
		q, err := github.NewQueue(ref, github.QueueOptions{Config: cfg, Awaiting: awaiting, All: f.all, Meter: meter})
		if err != nil {
			return err
		}
		if queues[q.Name()] == nil {
			queues[q.Name()] = q
			order = append(order, q)
		}
	}
	keep := func(r *report.QueueRow) bool {
		return (f.author == "" || strings.EqualFold(r.Author, f.author)) && (!f.hasPacket || r.Packet) && (!f.awaitingMe || r.AwaitingMe())
	}
	if f.asJSON {
		return queueJSON(order, keep, &f.jf, stdout, stderr)
	}
	feed := queueFeed(order, queues)
	feed.Author, feed.HasPacket, feed.AwaitingMe = f.author, f.hasPacket, f.awaitingMe
	opts := workbenchOptions(f.theme, true)
	opts.PosterFor = workbenchPoster
	err = runApp(tui.NewSourceApp(inbox.NewQueueSource(feed), opts), stdout)
	// What was read so far is the next visit's first screen, even when the
	// program ended before the fill did.
	for _, q := range order {
		_ = q.Save()
	}
	return err
}

// queueJSON reads every queue at once (their requests share one bound) and
// prints the rows in the screen's order; with --offline, the cache of the
// last visit.
func queueJSON(order []*github.Queue, keep func(*report.QueueRow) bool, jf *jsonFormat, stdout, stderr io.Writer) error {
	rows := []report.QueueRow{}
	if prOpts.offline {
		for _, q := range order {
			rows = append(rows, q.Cached()...)
		}
	} else {
		var mu sync.Mutex
		err := fillAll(context.Background(), order, func(ev github.QueueEvent) {
			if ev.Row != nil {
				mu.Lock()
				rows = append(rows, *ev.Row)
				mu.Unlock()
			}
		})
		if err != nil {
			say(stderr, "vetter: reading the queue: %s", sanitizedErr(err))
			return exitError{2}
		}
	}
	out := rows[:0]
	for i := range rows {
		if keep(&rows[i]) {
			out = append(out, rows[i])
		}
	}
	slices.SortFunc(out, func(a, b report.QueueRow) int { return report.CompareQueueRows(&a, &b) })
	for i := range out {
		out[i].SchemaVersion = report.QueueSchemaVersion
	}
	return jf.write(stdout, out)
}

// fillAll fills every queue at once; the errors name their repository.
func fillAll(ctx context.Context, order []*github.Queue, emit func(github.QueueEvent)) error {
	errs := make([]error, len(order))
	var wg sync.WaitGroup
	for i, q := range order {
		wg.Go(func() {
			if err := q.Fill(ctx, emit); err != nil {
				errs[i] = fmt.Errorf("%s: %w", q.Name(), err)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// queueFeed wires the queue screen to the github package.
func queueFeed(order []*github.Queue, queues map[string]*github.Queue) inbox.QueueFeed {
	feed := inbox.QueueFeed{}
	for _, q := range order {
		feed.Repos = append(feed.Repos, q.Name())
	}
	feed.Cached = func() []report.QueueRow {
		var out []report.QueueRow
		for _, q := range order {
			out = append(out, q.Cached()...)
		}
		slices.SortFunc(out, func(a, b report.QueueRow) int { return report.CompareQueueRows(&a, &b) })
		return out
	}
	if prOpts.offline {
		return feed
	}
	feed.Fill = func(ctx context.Context, list func(string, []report.QueueRow), row func(report.QueueRow)) error {
		var mu sync.Mutex // list and row are called one at a time
		return fillAll(ctx, order, func(ev github.QueueEvent) {
			mu.Lock()
			defer mu.Unlock()
			switch {
			case ev.List != nil:
				list(ev.Repo, ev.List)
			case ev.Row != nil:
				row(*ev.Row)
			}
		})
	}
	feed.ReadOne = func(ctx context.Context, repo string, n int) (report.QueueRow, error) {
		q := queues[repo]
		if q == nil {
			return report.QueueRow{}, fmt.Errorf("%s is not in the queue", repo)
		}
		return q.ReadOne(ctx, n)
	}
	feed.Open = func(repo string, n int) (string, error) {
		q := queues[repo]
		if q == nil {
			return "", fmt.Errorf("%s is not in the queue", repo)
		}
		ref := github.Ref{Host: q.Ref.Host, Owner: q.Ref.Owner, Repo: q.Ref.Repo, Number: n}
		cfg := github.Config{Host: ref.Host, Timeout: prOpts.timeout, Retries: 2, Backoff: 500 * time.Millisecond}.FromEnv()
		opts := github.Options{Config: cfg}
		if root, err := github.DefaultCacheDir(); err == nil {
			if dir := github.Cached(root, ref); dir != "" {
				// As for `vetter OWNER/REPO#N`: the cached copy at once, the
				// refresh behind it (the workbench reloads when it lands).
				opts.InPlace, opts.RefreshInto = true, dir
				go github.Open(context.Background(), ref, opts)
				return dir, nil
			}
		}
		o, err := github.Open(context.Background(), ref, opts)
		if err != nil {
			return "", err
		}
		return o.Dir, nil
	}
	feed.Rate = func() string {
		for _, q := range order {
			if st := q.Stats(); st.RateLow() {
				s := fmt.Sprintf("rate limit %d of %d left", st.RateRemaining, st.RateLimit)
				if !st.RateReset.IsZero() {
					s += ", resets " + st.RateReset.UTC().Format("15:04 UTC")
				}
				return s
			}
		}
		return ""
	}
	return feed
}
