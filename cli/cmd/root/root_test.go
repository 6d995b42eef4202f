package root

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/cli/cmdutil"
	"github.com/vetter-dev/vetter/cli/factory"
	"github.com/vetter-dev/vetter/packet"
)

// browser records what it was asked to open.
type browser struct{ urls []string }

func (b *browser) Browse(url string) error {
	b.urls = append(b.urls, url)
	return nil
}

// runWeb runs `vetter ARGS --web` with b as the browser and returns stderr and
// the exit status.
func runWeb(t *testing.T, f *factory.Factory, args ...string) (string, int) {
	t.Helper()
	var errb bytes.Buffer
	f.IO.ErrOut = &errb
	cmd := NewCmdRoot(f, nil)
	cmd.SetArgs(append(args, "--web"))
	err := cmd.ExecuteContext(t.Context())
	var ee cmdutil.ExitError
	switch {
	case errors.As(err, &ee):
		return errb.String(), ee.Code
	case err != nil:
		return errb.String() + err.Error(), 2
	}
	return errb.String(), 0
}

func newFactory(t *testing.T) *factory.Factory {
	t.Setenv("GH_HOST", "")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	return factory.New(factory.IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, factory.Build{Version: "dev", Line: "vetter dev"}, "vetter")
}

// --web opens the pull request named, at the address made from the
// reference alone, without reading it.
func TestWebOpensThePullRequest(t *testing.T) {
	for arg, want := range map[string]string{
		"acme/depot#7": "https://github.com/acme/depot/pull/7",
		"https://github.com/acme/depot/pull/7/files?w=1": "https://github.com/acme/depot/pull/7",
		"ghe.example.com/acme/depot#7":                   "https://ghe.example.com/acme/depot/pull/7",
	} {
		f := newFactory(t)
		b := &browser{}
		f.Browser = b
		errOut, code := runWeb(t, f, arg)
		if code != 0 || strings.Join(b.urls, " ") != want {
			t.Errorf("%s --web: exit %d, opened %q, want %q; stderr %q", arg, code, b.urls, want, errOut)
		}
		if !strings.Contains(errOut, "Opening "+want+" in your browser.") {
			t.Errorf("%s --web: stderr %q does not say what it opens", arg, errOut)
		}
	}
}

// A packet folder has no pull request vetter read: nothing opens, whatever
// address its change.md gives, and the sample is not one either.
func TestWebFolderPacketHasNothingToOpen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p")
	if err := packet.WriteSample(dir); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{dir}, {}} {
		f := newFactory(t)
		b := &browser{}
		f.Browser = b
		errOut, code := runWeb(t, f, args...)
		if code != 2 || len(b.urls) != 0 || !strings.Contains(errOut, "there is nothing to open in the browser") {
			t.Errorf("%q --web: exit %d, opened %q, stderr %q", args, code, b.urls, errOut)
		}
	}
	f := newFactory(t)
	f.Browser = &browser{}
	if errOut, code := runWeb(t, f, "acme/depot#7", "--print"); code != 2 || !strings.Contains(errOut, "takes no --print") {
		t.Errorf("--web --print: exit %d, %q", code, errOut)
	}
}

// The factory's browser is go-gh's: GH_BROWSER names the program, and the
// address is its last argument.
func TestWebFollowsGHBrowser(t *testing.T) {
	out := filepath.Join(t.TempDir(), "opened")
	t.Setenv("GH_CONFIG_DIR", t.TempDir())
	t.Setenv("BROWSER", "false")
	t.Setenv("GH_BROWSER", `sh -c 'printf %s "$0" > `+out+`'`)
	f := newFactory(t)
	if errOut, code := runWeb(t, f, "acme/depot#7"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	got, err := os.ReadFile(out)
	if err != nil || string(got) != "https://github.com/acme/depot/pull/7" {
		t.Errorf("GH_BROWSER was given %q (%v)", got, err)
	}
}
