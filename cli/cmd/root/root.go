// Package root is vetter's root command, the workbench: vetter [PACKET |
// DIR], with the flags of a PACKET given as a pull request that every
// command shares.
package root

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/vetter-dev/vetter/cli/cmdutil"
	"github.com/vetter-dev/vetter/cli/factory"
	"github.com/vetter-dev/vetter/cli/workbench"
	"github.com/vetter-dev/vetter/github"
	"github.com/vetter-dev/vetter/report"
	"github.com/vetter-dev/vetter/review"
)

// Options are the workbench's flags and argument.
type Options struct {
	Factory *factory.Factory
	Packet  string // "" for the built-in sample
	Theme   string
	OpenAt  string
	Print   bool
	Since   string
	Watch   bool
	Web     bool
}

// NewCmdRoot is the root command; runF, when not nil, runs instead of the
// workbench (tests see the options parsed).
func NewCmdRoot(f *factory.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	cmd := &cobra.Command{
		Use:   "vetter [PACKET | DIR]",
		Short: "Walk a work-item packet and decide whether the change may run on CI",
		Long: `vetter loads a work-item packet — plan.md, change.md, change.diff,
change-validation.md, review.md, validation/registry.jsonl and its logs — from a
directory, a .zip, .tar, .tar.gz or .tgz, and opens it in a full-screen workbench.
With no PACKET it opens a built-in sample packet.

When PACKET is a folder of packets (sub-folders or archives) rather than a
packet, vetter opens an inbox: one row per packet, what needs a person first;
enter opens one, backspace returns to the inbox.`,
		Args:          cobra.MaximumNArgs(1),
		Version:       f.Build.Version,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Packet = args[0]
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return run(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Theme, "theme", "", "dark or light (default: detect the terminal's background)")
	fl.StringVar(&opts.OpenAt, "open", "", "start at a citation: change-validation.md:269, validation/logs/x.log:40-52, path/in/diff.go:120, review.md#2")
	fl.BoolVar(&opts.Print, "print", false, "print the summary instead of opening the workbench")
	fl.StringVar(&opts.Since, "since", "", "an earlier round of the same packet (a path, or sample): screen 8 shows what changed since")
	fl.BoolVar(&opts.Web, "web", false, "open the pull request in the browser instead of the workbench")
	fl.BoolVar(&opts.Watch, "watch", true, "reload a folder packet in place when its files change (--watch=false to keep what was read)")
	cmd.SetOut(f.IO.Out)
	cmd.SetErr(f.IO.ErrOut)
	// --version prints what `vetter version` prints.
	cmd.SetVersionTemplate(f.Build.Line + "\n")
	pf := cmd.PersistentFlags()
	pf.BoolVar(&f.PR.Offline, "offline", false, "open a pull request from the cache without the network")
	pf.DurationVar(&f.PR.Timeout, "timeout", f.PR.Timeout, "how long reading a pull request may take")
	pf.BoolVar(&f.PR.Refresh, "refresh", false, fmt.Sprintf("with a pull request: read it from GitHub even when it was read less than %s ago (summary and --print answer from that read otherwise)", github.Fresh))
	pf.StringVar(&f.PR.LocalPacket, "packet", "", "with a pull request: a packet folder or archive of the same work item, whose registry and logs are used and whose diff is checked against the PR's")
	return cmd
}

func run(ctx context.Context, opts *Options) error {
	f := opts.Factory
	theme := opts.Theme
	if theme != "" && theme != "dark" && theme != "light" {
		return fmt.Errorf("--theme takes dark or light, not %q", theme)
	}
	if opts.Web {
		return web(ctx, opts)
	}
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	if theme == "" {
		theme = cfg.Theme // the config file's, where --theme does not say
	}
	var args []string
	if opts.Packet != "" {
		args = []string{opts.Packet}
	}
	if opts.Packet != "" && review.IsInboxDir(opts.Packet) {
		if opts.Print || opts.OpenAt != "" {
			return fmt.Errorf("%s is a folder of packets: --print and --open take one packet", opts.Packet)
		}
		return workbench.RunInbox(f, opts.Packet, theme, opts.Watch)
	}
	if opts.OpenAt != "" && !opts.Print && opts.Since == "" && opts.Packet != "" {
		if pv, t, ok := workbench.Preview(opts.Packet, opts.OpenAt); ok {
			return workbench.RunPreview(f, pv, t, theme, opts.Watch)
		}
	}
	if opts.Print {
		// The summary's own loading, the reviewer's state included:
		// --print and summary print one value for one state.
		p, _, err := cmdutil.LoadReviewed(ctx, f, args, cmdutil.ReadRecent)
		if err != nil {
			return err
		}
		defer p.Close()
		return cmdutil.WriteReport(f.IO.Out, report.Summarize(p), false, false)
	}
	if opts.OpenAt == "" && opts.Since == "" && opts.Packet != "" {
		if pv, t, ok := workbench.FirstScreen(f, opts.Packet); ok {
			return workbench.RunPreview(f, pv, t, theme, opts.Watch)
		}
	}
	p, refresh, err := cmdutil.LoadCachedFirst(ctx, f, args, cmdutil.ReadCachedFirst, workbench.Load())
	if err != nil {
		return err
	}
	defer p.Close()
	w := workbench.Packet{Theme: theme, OpenAt: opts.OpenAt, Watch: opts.Watch, Refresh: refresh}
	if opts.Since != "" {
		// An earlier round opens from the cache when it is there, as the
		// packet does; it is what was read then, and is not refreshed.
		if w.Since, err = cmdutil.LoadRound(ctx, f, opts.Since, cmdutil.ReadCachedFirst); err != nil {
			return err
		}
		defer w.Since.Close()
	}
	return workbench.Run(ctx, f, p, w)
}

// web opens the pull request PACKET names in the browser (go-gh's, which
// follows GH_BROWSER, gh's browser setting and BROWSER). The address is
// made from the reference alone, host, owner, repository and number, and
// nothing is read from GitHub.
func web(ctx context.Context, opts *Options) error {
	f := opts.Factory
	if opts.Print || opts.OpenAt != "" || opts.Since != "" {
		return errors.New("--web opens the pull request in the browser: it takes no --print, --open or --since")
	}
	if opts.Packet == "" {
		cmdutil.Say(f.IO.ErrOut, "vetter: the built-in sample is not a pull request: there is nothing to open in the browser")
		return cmdutil.ExitError{Code: 2}
	}
	ref, ok, err := cmdutil.PullRequest(ctx, f, opts.Packet)
	if err != nil {
		return err
	}
	if !ok {
		cmdutil.Say(f.IO.ErrOut, "vetter: %s is a packet, not a pull request read from GitHub: there is nothing to open in the browser", opts.Packet)
		return cmdutil.ExitError{Code: 2}
	}
	url := ref.URL()
	cmdutil.Say(f.IO.ErrOut, "Opening %s in your browser.", url)
	if err := f.Browser.Browse(url); err != nil {
		return fmt.Errorf("opening %s in the browser: %w", url, err)
	}
	return nil
}
