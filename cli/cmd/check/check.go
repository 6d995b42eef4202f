// Package check is `vetter check PACKET`: the packet's problems by file.
package check

import (
	"context"
	"fmt"
	"io"
	"sort"

	"github.com/spf13/cobra"

	"github.com/vetter-dev/vetter/cli/cmdutil"
	"github.com/vetter-dev/vetter/cli/factory"
	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
)

// Options are check's flags and argument.
type Options struct {
	Factory *factory.Factory
	Packet  string
	JSON    bool
	Format  cmdutil.JSONFormat
}

// NewCmdCheck is `vetter check`; runF, when not nil, runs instead of check.
func NewCmdCheck(f *factory.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	cmd := &cobra.Command{
		Use:   "check PACKET",
		Short: "Audit a packet: is it complete, consistent and safe to read?",
		Long: `check lists the packet's problems grouped by file, with line numbers.
Exit status: 0 when there is no error-severity problem, 1 when there is one,
2 when PACKET cannot be read as a packet at all.`,
		Args: cmdutil.NeedPacket("check"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Packet = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return run(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, `print {"problems": [...]} as JSON`)
	opts.Format.AddFlags(cmd)
	return cmd
}

func run(ctx context.Context, opts *Options) error {
	f := opts.Factory
	if err := opts.Format.Check("check", opts.JSON); err != nil {
		return err
	}
	p, err := cmdutil.Load(ctx, f, []string{opts.Packet}, cmdutil.ReadFresh, packet.Options{})
	if err != nil {
		return err
	}
	defer p.Close()
	probs := append([]packet.Problem{}, p.Problems...)
	packet.SortProblems(probs)
	if opts.JSON {
		if err := opts.Format.Write(f.IO.Out, struct {
			Problems []packet.Problem `json:"problems"`
		}{probs}); err != nil {
			return err
		}
	} else {
		cmdutil.WriteSanitized(f.IO.Out, func(w io.Writer) { writeProblems(w, p.Path, probs) })
	}
	for _, pr := range probs {
		if pr.Severity == packet.SevError {
			return cmdutil.ExitError{Code: 1}
		}
	}
	return nil
}

// writeProblems prints problems grouped by file, packet-wide ones first.
func writeProblems(w io.Writer, path string, probs []packet.Problem) {
	if len(probs) == 0 {
		fmt.Fprintf(w, "%s: no problems\n", path)
		return
	}
	byFile := map[string][]packet.Problem{}
	var files []string
	for _, pr := range probs {
		if _, ok := byFile[pr.File]; !ok {
			files = append(files, pr.File)
		}
		byFile[pr.File] = append(byFile[pr.File], pr)
	}
	sort.Strings(files)
	for _, f := range files {
		name := f
		if name == "" {
			name = "(packet)"
		}
		fmt.Fprintln(w, name)
		for _, pr := range byFile[f] {
			line := "-"
			if pr.Line > 0 {
				line = fmt.Sprint(pr.Line)
			}
			fmt.Fprintf(w, "  %5s  %-7s  %-26s %s\n", line, pr.Severity, pr.Code, pr.Message)
		}
	}
	var e, wn, in int
	for _, pr := range probs {
		switch pr.Severity {
		case packet.SevError:
			e++
		case packet.SevWarning:
			wn++
		default:
			in++
		}
	}
	fmt.Fprintf(w, "\n%s, %s, %d info\n", text.PluralOf(e, "error", "errors"), text.PluralOf(wn, "warning", "warnings"), in)
}
