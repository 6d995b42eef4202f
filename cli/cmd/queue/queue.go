// Package queue is `vetter queue [OWNER/REPO]`: the open pull requests
// that wait for /ok to test, what needs you first, on screen or as JSON.
package queue

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/vetter-dev/vetter/cli/cmdutil"
	"github.com/vetter-dev/vetter/cli/factory"
	"github.com/vetter-dev/vetter/cli/workbench"
	"github.com/vetter-dev/vetter/github"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/report"
	"github.com/vetter-dev/vetter/tui"
	"github.com/vetter-dev/vetter/tui/screens/inbox"
)

// Options are queue's flags and arguments.
type Options struct {
	Factory  *factory.Factory
	Args     []string
	Repos    []string
	All      bool
	Awaiting string
	// AwaitingSet says --awaiting was given: it wins over the config file.
	AwaitingSet bool
	JSON        bool
	Format      cmdutil.JSONFormat
	Author      string
	HasPacket   bool
	AwaitingMe  bool
	Theme       string
}

// NewCmdQueue is `vetter queue`; runF, when not nil, runs instead.
func NewCmdQueue(f *factory.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{Factory: f}
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
			opts.Args = args
			opts.AwaitingSet = cmd.Flags().Changed("awaiting")
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return run(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&opts.Repos, "repo", "R", nil, "a repository, [HOST/]OWNER/REPO (repeatable)")
	fl.BoolVar(&opts.All, "all", false, "count every pull request without a current /ok to test as awaiting, marker or not")
	fl.StringVar(&opts.Awaiting, "awaiting", github.DefaultAwaiting, "the regular expression a comment must match to mark its pull request as awaiting vetting")
	fl.BoolVar(&opts.JSON, "json", false, "print the rows as JSON (docs/packet-format.md) instead of opening the queue")
	opts.Format.AddFlags(cmd)
	fl.StringVar(&opts.Author, "author", "", "only the pull requests of this account")
	fl.BoolVar(&opts.HasPacket, "has-packet", false, "only the pull requests whose comments carry a packet")
	fl.BoolVar(&opts.AwaitingMe, "awaiting-me", false, "only the pull requests awaiting vetting with no decision of yours for their head")
	fl.StringVar(&opts.Theme, "theme", "", "dark or light (default: detect the terminal's background)")
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

// settle applies the config file's settings where no flag or argument
// says otherwise, and checks what was given.
func (o *Options) settle() (*regexp.Regexp, error) {
	if o.Theme != "" && o.Theme != "dark" && o.Theme != "light" {
		return nil, fmt.Errorf("--theme takes dark or light, not %q", o.Theme)
	}
	if err := o.Format.Check("queue", o.JSON); err != nil {
		return nil, err
	}
	cfg, err := o.Factory.Config()
	if err != nil {
		return nil, err
	}
	if o.Theme == "" {
		o.Theme = cfg.Theme
	}
	if !o.AwaitingSet && cfg.Awaiting != nil {
		o.Awaiting = cfg.AwaitingText
	}
	if len(o.Args) == 0 && len(o.Repos) == 0 {
		o.Args = cfg.Repositories
	}
	awaiting, err := regexp.Compile(o.Awaiting)
	if err != nil {
		return nil, fmt.Errorf("--awaiting %q is not a regular expression: %w", o.Awaiting, err)
	}
	return awaiting, nil
}

// refs are the repositories named, else the clone's.
func (o *Options) refs() ([]github.Ref, error) {
	names := append(slices.Clone(o.Args), o.Repos...)
	var refs []github.Ref
	if len(names) == 0 {
		ref, err := o.Factory.CurrentRepo()
		if err != nil {
			return nil, fmt.Errorf("no repository named and none found in the current folder (%v): give OWNER/REPO or -R OWNER/REPO", err)
		}
		refs = append(refs, ref)
	}
	for _, n := range names {
		ref, err := parseRepo(n)
		if err != nil {
			return nil, err
		}
		refs = append(refs, ref)
	}
	return refs, nil
}

// keep is the filter of --author, --has-packet and --awaiting-me.
func (o *Options) keep(r *report.QueueRow) bool {
	return (o.Author == "" || strings.EqualFold(r.Author, o.Author)) && (!o.HasPacket || r.Packet) && (!o.AwaitingMe || r.AwaitingMe())
}

func run(ctx context.Context, opts *Options) error {
	f := opts.Factory
	awaiting, err := opts.settle()
	if err != nil {
		return err
	}
	refs, err := opts.refs()
	if err != nil {
		return err
	}
	queues := map[string]*github.Queue{}
	var order []*github.Queue
	// One bound for every repository's requests: they are read at once.
	meter := github.NewMeter(nil, github.MaxInFlight)
	for _, ref := range refs {
		q, err := github.NewQueue(ref, github.QueueOptions{Config: f.GitHubConfig(ref.Host), Awaiting: awaiting, All: opts.All, Meter: meter})
		if err != nil {
			return err
		}
		if queues[q.Name()] == nil {
			queues[q.Name()] = q
			order = append(order, q)
		}
	}
	if opts.JSON {
		return writeJSON(ctx, f, order, opts.keep, &opts.Format)
	}
	feed := newFeed(ctx, f, order, queues)
	feed.Author, feed.HasPacket, feed.AwaitingMe = opts.Author, opts.HasPacket, opts.AwaitingMe
	wopts := workbench.Options(f, opts.Theme, true)
	wopts.PosterFor = func(p *packet.Packet) func(string) (string, error) {
		return cmdutil.WorkbenchPoster(ctx, f, p)
	}
	err = workbench.RunApp(f, tui.NewSourceApp(inbox.NewQueueSource(feed), wopts))
	// What was read so far is the next visit's first screen, even when the
	// program ended before the fill did.
	for _, q := range order {
		_ = q.Save()
	}
	return err
}

// writeJSON reads every queue at once (their requests share one bound) and
// prints the rows in the screen's order; with --offline, the cache of the
// last visit.
func writeJSON(ctx context.Context, f *factory.Factory, order []*github.Queue, keep func(*report.QueueRow) bool, jf *cmdutil.JSONFormat) error {
	rows := []report.QueueRow{}
	if f.PR.Offline {
		for _, q := range order {
			rows = append(rows, q.Cached()...)
		}
	} else {
		var mu sync.Mutex
		err := fillAll(ctx, order, func(ev github.QueueEvent) {
			if ev.Row != nil {
				mu.Lock()
				rows = append(rows, *ev.Row)
				mu.Unlock()
			}
		})
		if err != nil {
			cmdutil.Say(f.IO.ErrOut, "vetter: reading the queue: %s", cmdutil.SanitizedErr(err))
			return cmdutil.ExitError{Code: 2}
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
	return jf.Write(f.IO.Out, out)
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

// newFeed wires the queue screen to the github package; what it reads runs
// under ctx.
func newFeed(ctx context.Context, f *factory.Factory, order []*github.Queue, queues map[string]*github.Queue) inbox.QueueFeed {
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
	if f.PR.Offline {
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
		opts := github.Options{Config: f.GitHubConfig(ref.Host)}
		if dir, _, refresh := cmdutil.CachedFirst(ctx, f.CacheDir(), ref, opts); dir != "" {
			// As for `vetter OWNER/REPO#N`: the cached copy at once, the
			// refresh behind it (the workbench reloads when it lands).
			go refresh()
			return dir, nil
		}
		o, err := github.Open(ctx, ref, opts)
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
