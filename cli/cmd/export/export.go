// Package export is `vetter export PACKET --format F`: the triage and the
// decision for other tools, and on a pull request the review posted.
package export

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vetter-dev/vetter/cli/cmdutil"
	"github.com/vetter-dev/vetter/cli/factory"
	"github.com/vetter-dev/vetter/github/rules"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/report"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/ui"
)

// Options are export's flags and argument.
type Options struct {
	Factory *factory.Factory
	Packet  string
	Format  string
	Output  string
	Post    bool
}

// NewCmdExport is `vetter export`; runF, when not nil, runs instead.
func NewCmdExport(f *factory.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	cmd := &cobra.Command{
		Use:   "export PACKET --format markdown|sarif|rdjsonl|github-review [-o FILE] [--post]",
		Short: "Write the triage and decision for other tools",
		Long: `export writes the findings with their triage and the gate decision:

  markdown       a review comment ready to paste
  sarif          SARIF 2.1.0 (code scanning); triage as external suppressions
  rdjsonl        reviewdog diagnostics, one a line, for findings not dismissed
  github-review  the JSON body of a pull-request review

For github-review, the gh command that posts the review is printed to standard
error when the JSON goes to standard output (it reads the review from "-"), and
to standard output when -o FILE is given (it reads FILE).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Packet = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return run(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Format, "format", "", "markdown, sarif, rdjsonl or github-review")
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "write to FILE instead of standard output (- is standard output)")
	cmd.Flags().BoolVar(&opts.Post, "post", false, "on a pull request, with --format github-review: post the review")
	cmd.MarkFlagRequired("format")
	return cmd
}

func run(ctx context.Context, opts *Options) error {
	f := opts.Factory
	stdout, stderr := f.IO.Out, f.IO.ErrOut
	format, out := opts.Format, opts.Output
	known := false
	for _, ef := range report.ExportFormats {
		known = known || ef == format
	}
	if !known {
		return fmt.Errorf("export: --format takes %s, not %q", strings.Join(report.ExportFormats, ", "), format)
	}
	p, _, err := cmdutil.LoadReviewed(ctx, f, []string{opts.Packet}, cmdutil.ReadFresh)
	if err != nil {
		return err
	}
	defer p.Close()
	var raw bytes.Buffer
	if err := report.Export(p, &raw, format, report.ExportOptions{ToolVersion: f.Build.Version}); err != nil {
		return err
	}
	if opts.Post {
		if format != report.FormatGitHubReview {
			return errors.New("export: --post posts --format github-review only")
		}
		pp, err := cmdutil.NewPoster(f, p)
		if err != nil {
			return err
		}
		return pp.PostReview(ctx, raw.Bytes())
	}
	var text bytes.Buffer
	if format == report.FormatMarkdown {
		cmdutil.WriteSanitized(&text, func(w io.Writer) { w.Write(raw.Bytes()) })
	} else {
		text.Write(cmdutil.EscapeJSONText(raw.Bytes()))
	}
	if out == "" || out == "-" {
		if _, err := stdout.Write(text.Bytes()); err != nil {
			return err
		}
		if format == report.FormatGitHubReview {
			postHint(stderr, p, "-")
		}
		return nil
	}
	if err := os.WriteFile(out, text.Bytes(), 0o644); err != nil {
		return fmt.Errorf("export: writing %s: %w", out, err)
	}
	cmdutil.Say(stderr, "wrote %s (%s)", out, format)
	if format == report.FormatGitHubReview {
		postHint(stdout, p, out)
	}
	return nil
}

// postHint prints the gh command that posts the review, or why there is none.
func postHint(w io.Writer, p *packet.Packet, input string) {
	if c, ok := rules.ReviewCommand(p, input); ok {
		cmdutil.Say(w, "%s", c)
		return
	}
	if u := strings.TrimSpace(review.PRURL(p)); u != "" {
		cmdutil.Say(w, "# the change's URL %s is not a pull request address (https://HOST/OWNER/REPO/pull/N); post the review with %s", rules.ShellQuote(ui.Sanitize(u)), rules.ReviewCommandPattern(input))
		return
	}
	cmdutil.Say(w, "# the change names no pull request URL; post the review with %s", rules.ReviewCommandPattern(input))
}
