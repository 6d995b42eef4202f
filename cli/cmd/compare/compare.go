// Package compare is `vetter compare OLD NEW`: what changed between two
// rounds of a packet.
package compare

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/vetter-dev/vetter/cli/cmdutil"
	"github.com/vetter-dev/vetter/cli/factory"
	"github.com/vetter-dev/vetter/compare"
)

// Options are compare's flags and arguments.
type Options struct {
	Factory  *factory.Factory
	Old, New string
	JSON     bool
	Markdown bool
	Format   cmdutil.JSONFormat
}

// NewCmdCompare is `vetter compare`; runF, when not nil, runs instead.
func NewCmdCompare(f *factory.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	cmd := &cobra.Command{
		Use:   "compare OLD NEW",
		Short: "Show what changed between two rounds of a packet",
		Long: `compare reads two rounds of one packet — the one you reviewed last time (OLD)
and the one the pipeline sent back (NEW) — and prints what changed since:

  - the head SHA, and whether a gate decision made for the old head still stands;
  - the change itself: files and hunks added, removed or altered, each altered
    hunk shown as a diff of the two rounds' diffs;
  - documents added, removed or changed, word by word, at the new lines;
  - registry runs added or changed, recipes newly validated or failing;
  - findings new, resolved, changed or unchanged, with the triage each had;
  - verdict, assessment, evidence and gate, before and after.

OLD and NEW are packet folders or archives (.zip, .tar, .tar.gz, .tgz); the
word "sample" names the built-in sample packet (write ./sample for a folder
of that name), so
  vetter compare sample ROUND2
compares the sample with a later round of it.

Exit status: 0 when both were read (whatever changed), 2 when either cannot be
read as a packet.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Old, opts.New = args[0], args[1]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return run(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the comparison as JSON")
	opts.Format.AddFlags(cmd)
	cmd.Flags().BoolVar(&opts.Markdown, "markdown", false, "print a comment to paste into the pull request")
	return cmd
}

func run(ctx context.Context, opts *Options) error {
	f := opts.Factory
	if opts.JSON && opts.Markdown {
		return errors.New("compare: --json and --markdown are exclusive")
	}
	if err := opts.Format.Check("compare", opts.JSON); err != nil {
		return err
	}
	old, err := cmdutil.LoadRound(ctx, f, opts.Old, cmdutil.ReadFresh)
	if err != nil {
		return err
	}
	defer old.Close()
	cur, err := cmdutil.LoadRound(ctx, f, opts.New, cmdutil.ReadFresh)
	if err != nil {
		return err
	}
	defer cur.Close()
	if opts.Format.Set() {
		return opts.Format.Write(f.IO.Out, compare.Compare(old, cur))
	}
	return cmdutil.WriteReport(f.IO.Out, compare.Compare(old, cur), opts.JSON, opts.Markdown)
}
