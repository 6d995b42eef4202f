package queue

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/cli/factory"
)

// A repository or an --awaiting that cannot be read is said before any
// request.
func TestQueueArguments(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	f := factory.New(factory.IOStreams{Out: io.Discard, ErrOut: io.Discard}, factory.Build{Version: "dev"}, "vetter")
	for _, c := range []struct {
		args     []string
		awaiting string
		want     string
	}{
		{[]string{"acme"}, "x", "not a repository"},
		{[]string{"acme/depot"}, "(", "is not a regular expression"},
	} {
		err := run(t.Context(), &Options{Factory: f, Args: c.args, Awaiting: c.awaiting})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v", c.args, err)
		}
	}
}

// The command line reaches the options as given, and --awaiting given
// says so (it wins over the config file's).
func TestQueueFlags(t *testing.T) {
	f := factory.New(factory.IOStreams{Out: io.Discard, ErrOut: io.Discard}, factory.Build{Version: "dev"}, "vetter")
	var got *Options
	cmd := NewCmdQueue(f, func(_ context.Context, o *Options) error { got = o; return nil })
	cmd.SetArgs([]string{"acme/depot", "-R", "acme/other", "--awaiting", "vet me", "--awaiting-me"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got == nil || strings.Join(got.Args, " ") != "acme/depot" || strings.Join(got.Repos, " ") != "acme/other" ||
		got.Awaiting != "vet me" || !got.AwaitingSet || !got.AwaitingMe {
		t.Errorf("options %+v", got)
	}
}
