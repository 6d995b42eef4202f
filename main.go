// Command vetter is a terminal workbench for deciding whether an automatically
// produced change is safe and sound: it loads a work-item packet (plan, change,
// diff, validation runs and logs, advisory review) and lets a person walk it.
//
// This file only builds the command tree (the commands live under cli/) and
// turns what a command returns into the process's exit status.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	// The attention scan registers itself with packet when imported: every
	// command that shows the gate, the summary or an export reads it.
	_ "github.com/vetter-dev/vetter/attention"
	"github.com/vetter-dev/vetter/cli/cmd/check"
	"github.com/vetter-dev/vetter/cli/cmd/compare"
	"github.com/vetter-dev/vetter/cli/cmd/config"
	"github.com/vetter-dev/vetter/cli/cmd/decide"
	"github.com/vetter-dev/vetter/cli/cmd/export"
	"github.com/vetter-dev/vetter/cli/cmd/queue"
	"github.com/vetter-dev/vetter/cli/cmd/root"
	"github.com/vetter-dev/vetter/cli/cmd/sample"
	"github.com/vetter-dev/vetter/cli/cmd/summary"
	"github.com/vetter-dev/vetter/cli/cmd/triage"
	versioncmd "github.com/vetter-dev/vetter/cli/cmd/version"
	"github.com/vetter-dev/vetter/cli/cmdutil"
	"github.com/vetter-dev/vetter/cli/factory"
	"github.com/vetter-dev/vetter/cli/workbench"
)

// version and commit are stamped by a release at link time, -ldflags
// "-X main.version=v1.2.3 -X main.commit=<revision>" (.goreleaser.yaml);
// a build without them says what its build info says.
var (
	version string
	commit  string
)

func main() {
	workbench.RelaxGC()
	ctx, stop := signalContext()
	f := factory.New(factory.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}, versioncmd.Build(version, commit), os.Args[0])
	err := newRootCmd(f).ExecuteContext(ctx)
	sig := stop()
	os.Exit(exitCode(err, sig, os.Stderr))
}

// newRootCmd is vetter's command tree.
func newRootCmd(f *factory.Factory) *cobra.Command {
	cmd := root.NewCmdRoot(f, nil)
	cmd.AddCommand(
		check.NewCmdCheck(f, nil),
		summary.NewCmdSummary(f, nil),
		sample.NewCmdSample(f),
		versioncmd.NewCmdVersion(f),
		config.NewCmdConfig(f),
		triage.NewCmdTriage(f, nil),
		decide.NewCmdDecide(f, nil),
		export.NewCmdExport(f, nil),
		compare.NewCmdCompare(f, nil),
		queue.NewCmdQueue(f, nil),
	)
	cmdutil.AddCompletions(cmd)
	cmdutil.StrictCompletion(cmd)
	cmdutil.NameAs(cmd, f.Executable)
	return cmd
}

// exitCode is the process's exit status for what the command returned: the
// status it carries, 128+N after signal N (as a shell reports a process the
// signal ended), else 2 with the error on stderr.
func exitCode(err error, sig syscall.Signal, stderr io.Writer) int {
	var ee cmdutil.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.Code
	case sig != 0:
		return 128 + int(sig)
	case err != nil:
		fmt.Fprintln(stderr, "vetter:", err)
		return 2
	}
	return 0
}

// signalContext is the context every command runs under: cancelled by the
// first SIGHUP, SIGTERM or SIGINT, so a read from GitHub stops at once. A
// second signal has its default action again, so a command that does not
// stop still ends. The workbench restores the terminal on these itself.
// stop returns the signal that cancelled the context, if one did.
func signalContext() (ctx context.Context, stop func() syscall.Signal) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT)
	got := make(chan syscall.Signal, 1)
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		select {
		case s := <-sigs:
			signal.Stop(sigs)
			sig, _ := s.(syscall.Signal)
			got <- sig
			cancel()
		case <-done:
		}
	}()
	return ctx, func() syscall.Signal {
		close(done)
		<-finished
		signal.Stop(sigs)
		cancel()
		select {
		case sig := <-got:
			return sig
		default:
			return 0
		}
	}
}
