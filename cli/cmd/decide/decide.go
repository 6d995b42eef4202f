// Package decide is `vetter decide PACKET`: the gate decision for the head
// SHA, and on a pull request the /ok to test comment.
package decide

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vetter-dev/vetter/cli/cmdutil"
	"github.com/vetter-dev/vetter/cli/factory"
	"github.com/vetter-dev/vetter/github/rules"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
)

// Options are decide's flags and argument.
type Options struct {
	Factory                 *factory.Factory
	Packet                  string
	OkToTest, Hold, Changes bool
	Note                    string
	Force, Post             bool
}

// NewCmdDecide is `vetter decide`; runF, when not nil, runs instead.
func NewCmdDecide(f *factory.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	cmd := &cobra.Command{
		Use:   "decide PACKET --ok-to-test|--hold|--request-changes [--note TEXT] [--force]",
		Short: "Record the gate decision for the head SHA",
		Long: `decide records ok-to-test, hold or request-changes for the packet's head SHA in
triage.json and appends it to decisions.jsonl beside it, with who, when and the
gate's state.

--ok-to-test is refused (exit status 1) while the gate is not ready, unless
--force is given with --note saying why. On success it prints the line to post,
"/ok to test <sha>", and, when the pull request is on GitHub, the gh command
that posts it.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Packet = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return run(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.OkToTest, "ok-to-test", false, "the change may run on CI")
	fl.BoolVar(&opts.Hold, "hold", false, "not yet")
	fl.BoolVar(&opts.Changes, "request-changes", false, "the change must change first")
	fl.StringVar(&opts.Note, "note", "", "a note; with --force, why the gate is overridden")
	fl.BoolVar(&opts.Force, "force", false, "give ok-to-test although the gate is not ready (needs --note)")
	fl.BoolVar(&opts.Post, "post", false, "on a pull request: post /ok to test <head sha> once the decision is recorded, if the head is still the one reviewed")
	return cmd
}

// decision is the decision the flags ask for: exactly one, and what goes
// with it.
func (o *Options) decision() (string, error) {
	decision, n := "", 0
	for _, f := range []struct {
		on       bool
		decision string
	}{{o.OkToTest, review.DecisionOkToTest}, {o.Hold, review.DecisionHold}, {o.Changes, review.DecisionRequestChanges}} {
		if f.on {
			decision, n = f.decision, n+1
		}
	}
	switch {
	case n != 1:
		return "", errors.New("decide: give one of --ok-to-test, --hold, --request-changes")
	case o.Force && strings.TrimSpace(o.Note) == "":
		return "", errors.New("decide: --force needs --note saying why the gate is overridden")
	case o.Post && decision != review.DecisionOkToTest:
		return "", errors.New("decide: --post posts ok-to-test only")
	}
	return decision, nil
}

func run(ctx context.Context, opts *Options) error {
	decision, err := opts.decision()
	if err != nil {
		return err
	}
	f := opts.Factory
	stdout, stderr := f.IO.Out, f.IO.ErrOut
	p, s, err := cmdutil.OpenStore(ctx, f, opts.Packet)
	if err != nil {
		return err
	}
	defer p.Close()
	user := packet.CurrentUser()
	var pp *cmdutil.Poster
	if opts.Post {
		if pp, err = cmdutil.NewPoster(f, p); err != nil {
			return err
		}
		// A head that moved since the review refuses before anything is
		// recorded.
		if err := pp.CheckHead(ctx); err != nil {
			return err
		}
		// Once a pull request is involved, the account that posts is
		// named beside the person.
		if login, err := pp.Login(ctx); err == nil {
			user += " (github: " + login + ")"
		}
	}
	override := ""
	if opts.Force {
		override = opts.Note
	}
	gd, rep, err := s.Decide(decision, opts.Note, user, override, f.Clock())
	switch {
	case errors.Is(err, review.ErrGateNotReady):
		// The error says what it was deciding; the refusal says it once.
		cmdutil.Say(stderr, "vetter: refusing ok-to-test: %s\n(use --force --note REASON to override)", strings.TrimPrefix(err.Error(), "deciding ok-to-test: "))
		return cmdutil.ExitError{Code: 1}
	case errors.Is(err, review.ErrNoHead):
		cmdutil.Say(stderr, "vetter: refusing ok-to-test: %s", strings.TrimPrefix(err.Error(), "deciding ok-to-test: "))
		return cmdutil.ExitError{Code: 1}
	case err != nil:
		return err
	}
	cmdutil.ReportMerge(stderr, rep)
	msg := fmt.Sprintf("recorded %s for %s by %s in %s", gd.Decision, gd.SHA, gd.User, s.Where())
	if gd.Override != "" {
		msg += " (override: the gate was not ready)"
	}
	cmdutil.Say(stderr, "%s", msg)
	if pp != nil {
		return pp.Post(ctx)
	}
	if decision == review.DecisionOkToTest {
		return cmdutil.WriteSanitized(stdout, func(b io.Writer) {
			for _, l := range rules.OkToTestLines(p) {
				fmt.Fprintln(b, l)
			}
		})
	}
	return nil
}
