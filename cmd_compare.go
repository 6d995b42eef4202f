package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/vetter-dev/vetter/compare"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/ui"
)

// addCompareCommand adds `vetter compare OLD NEW`.
func addCompareCommand(root *cobra.Command, stdout, stderr io.Writer) {
	root.AddCommand(newCompareCmd(stdout, stderr))
}

func newCompareCmd(stdout, stderr io.Writer) *cobra.Command {
	var asJSON, asMarkdown bool
	var jf jsonFormat
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
			if asJSON && asMarkdown {
				return errors.New("compare: --json and --markdown are exclusive")
			}
			if err := jf.check("compare", asJSON); err != nil {
				return err
			}
			old, err := loadRound(args[0], stderr)
			if err != nil {
				return err
			}
			defer old.Close()
			cur, err := loadRound(args[1], stderr)
			if err != nil {
				return err
			}
			defer cur.Close()
			if jf.set() {
				return jf.write(stdout, compare.Compare(old, cur))
			}
			return writeReport(stdout, compare.Compare(old, cur), asJSON, asMarkdown)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the comparison as JSON")
	jf.addFlags(cmd)
	cmd.Flags().BoolVar(&asMarkdown, "markdown", false, "print a comment to paste into the pull request")
	return cmd
}

// loadRound loads one side of a comparison with its triage decisions, which
// may live outside the packet (an archive's are under the state directory).
// A triage file that cannot be read is a warning: the comparison still shows
// the rounds, with their decisions as the packet carried them.
func loadRound(arg string, stderr io.Writer) (*packet.Packet, error) {
	var p *packet.Packet
	if arg == "sample" {
		p = packet.LoadSample(packet.Options{})
	} else {
		var err error
		if p, err = loadArg([]string{arg}, stderr); err != nil {
			return nil, err
		}
	}
	if _, err := review.OpenStore(p, ""); err != nil {
		fmt.Fprintln(stderr, "vetter: compare:", ui.Sanitize(err.Error()))
	}
	return p, nil
}
