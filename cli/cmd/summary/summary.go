// Package summary is `vetter summary PACKET`: header, verdict, evidence,
// diff stats, findings and the gate, as text, JSON or a Markdown comment.
package summary

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/vetter-dev/vetter/cli/cmdutil"
	"github.com/vetter-dev/vetter/cli/factory"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/report"
)

// Options are summary's flags and argument.
type Options struct {
	Factory    *factory.Factory
	Packet     string
	JSON       bool
	Markdown   bool
	ExitStatus bool
	Format     cmdutil.JSONFormat
}

// NewCmdSummary is `vetter summary`; runF, when not nil, runs instead.
func NewCmdSummary(f *factory.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	cmd := &cobra.Command{
		Use:   "summary PACKET",
		Short: "Print the header, verdict, evidence, diff stats, findings and gate",
		Args:  cmdutil.NeedPacket("summary"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Packet = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return run(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the JSON contract of PACKET.md")
	cmd.Flags().BoolVar(&opts.Markdown, "markdown", false, "print a comment to paste into the pull request")
	cmd.Flags().BoolVar(&opts.ExitStatus, "exit-status", false, "exit 0 when the gate is ready, 1 when it is not, 8 when it is ready but required CI is still pending")
	opts.Format.AddFlags(cmd)
	return cmd
}

func run(ctx context.Context, opts *Options) error {
	f := opts.Factory
	if opts.JSON && opts.Markdown {
		return errors.New("summary: --json and --markdown are exclusive")
	}
	if err := opts.Format.Check("summary", opts.JSON); err != nil {
		return err
	}
	p, _, err := cmdutil.LoadReviewed(ctx, f, []string{opts.Packet}, cmdutil.ReadRecent)
	if err != nil {
		return err
	}
	defer p.Close()
	sum := report.Summarize(p)
	if opts.Format.Set() {
		err = opts.Format.Write(f.IO.Out, sum)
	} else {
		err = cmdutil.WriteReport(f.IO.Out, sum, opts.JSON, opts.Markdown)
	}
	if err != nil || !opts.ExitStatus {
		return err
	}
	if code := gateExitStatus(p, sum.Gate); code != 0 {
		return cmdutil.ExitError{Code: code}
	}
	return nil
}

// gateExitStatus is summary --exit-status, gh pr checks' convention: 0 when
// the gate is ready, 1 when it is not, 8 when it is ready but a check of the
// pull request's CI that counts is still pending (its result may yet hold
// the gate).
func gateExitStatus(p *packet.Packet, g packet.Gate) int {
	switch {
	case !g.Ready:
		return 1
	case p.CIPending() > 0:
		return 8
	}
	return 0
}
