// Package factory hands every command what it takes from outside itself:
// the standard streams, the clock, the config file, the state and cache
// directories, GitHub clients and the browser. Each is made on first use,
// so a command that never reads the config or talks to GitHub never pays
// for it, and a test builds a Factory with its own streams and clock
// instead of setting anything shared.
package factory

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	ghbrowser "github.com/cli/go-gh/v2/pkg/browser"
	"github.com/cli/go-gh/v2/pkg/repository"

	"github.com/vetter-dev/vetter/config"
	"github.com/vetter-dev/vetter/github"
	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/ui"
)

// IOStreams are the command's standard streams.
type IOStreams struct {
	In          io.Reader
	Out, ErrOut io.Writer
}

// Browser opens a URL in the user's web browser.
type Browser interface {
	Browse(url string) error
}

// PROptions are the options of a PACKET given as a pull request, the root
// command's persistent flags: every command that takes a PACKET reads them.
type PROptions struct {
	Offline     bool
	Timeout     time.Duration
	Refresh     bool
	LocalPacket string
}

// Build says which vetter this is.
type Build struct {
	// Version is the module version exports name ("v1.2.3", "dev+1bb1c70f4285").
	Version string
	// Line is what `vetter version` prints.
	Line string
}

// Factory is what a command is built with.
type Factory struct {
	IO    IOStreams
	Clock func() time.Time
	Build Build
	// Executable is vetter as the user runs it, for usage lines and hints:
	// "vetter", or "gh vetter" when gh runs it as an extension.
	Executable string
	// Browser opens the pull request for --web: go-gh's, which follows
	// GH_BROWSER, gh's browser setting and BROWSER.
	Browser Browser
	// PR is filled by the root command's flags when the command line is
	// parsed, before any command runs.
	PR PROptions
	// CurrentRepo is the clone's GitHub repository, for "#N", "N" and a
	// queue with no repository named.
	CurrentRepo func() (github.Ref, error)

	config   func() configRead
	stateDir func() (string, error)
	cacheDir func() (string, error)
}

// New is the Factory of a vetter process started as argv0 (os.Args[0]).
func New(streams IOStreams, build Build, argv0 string) *Factory {
	f := &Factory{
		IO:         streams,
		Clock:      time.Now,
		Build:      build,
		Executable: executable(argv0),
		PR:         PROptions{Timeout: 30 * time.Second},
		CurrentRepo: func() (github.Ref, error) {
			r, err := repository.Current()
			if err != nil {
				return github.Ref{}, err
			}
			return github.Ref{Host: r.Host, Owner: r.Owner, Repo: r.Name}, nil
		},
	}
	f.Browser = &lazyBrowser{open: sync.OnceValue(func() Browser {
		return ghbrowser.New("", f.IO.Out, f.IO.ErrOut)
	})}
	f.config = sync.OnceValue(readConfig)
	f.stateDir = sync.OnceValues(review.DefaultStateDir)
	f.cacheDir = sync.OnceValues(github.DefaultCacheDir)
	return f
}

// executable is how the user runs vetter: gh runs an extension as the
// binary gh-NAME it installed (gh-vetter, gh-vetter.exe on Windows), and
// its user types `gh vetter`.
func executable(argv0 string) string {
	base := strings.TrimSuffix(filepath.Base(argv0), ".exe")
	if name, ok := strings.CutPrefix(base, "gh-"); ok && name != "" {
		return "gh " + name
	}
	return "vetter"
}

// lazyBrowser looks the launcher up (GH_BROWSER, gh's config file,
// BROWSER) only when a URL is opened.
type lazyBrowser struct{ open func() Browser }

func (b *lazyBrowser) Browse(url string) error { return b.open().Browse(url) }

// Config is the config file (config.Path), read once. A file with
// mistakes is an error listing each at its line, the key bindings that name
// no action or clash among them too; the command exits 2 with it.
func (f *Factory) Config() (*config.Config, error) {
	r := f.config()
	return r.c, r.err
}

// KeyMap is the default key map with the config file's remaps applied, in
// the file's order; nil when the file remaps nothing.
func (f *Factory) KeyMap() (*ui.KeyMap, error) {
	r := f.config()
	return r.km, r.err
}

// configRead is the config file as read once: the settings, the key map
// they make, or what is wrong with them.
type configRead struct {
	c   *config.Config
	km  *ui.KeyMap
	err error
}

func readConfig() configRead {
	c, err := config.Load(config.Path())
	var errs config.Errors
	if err != nil && !errors.As(err, &errs) {
		return configRead{err: err}
	}
	// The bindings the file's sound lines name are checked against the
	// key map even when other lines are wrong, so one run shows every
	// mistake.
	km, kerrs := keyMap(c)
	errs = append(errs, kerrs...)
	if len(errs) > 0 {
		sort.SliceStable(errs, func(i, j int) bool { return errs[i].Line < errs[j].Line })
		return configRead{err: fmt.Errorf("the config file has %s:\n%w", text.Plural(len(errs), "mistake"), errs)}
	}
	return configRead{c: c, km: km}
}

func keyMap(c *config.Config) (*ui.KeyMap, config.Errors) {
	if c == nil || len(c.Keys) == 0 {
		return nil, nil
	}
	km := ui.DefaultKeyMap()
	var errs config.Errors
	for _, b := range c.Keys {
		if err := km.Remap(b.Action, b.Keys); err != nil {
			errs = append(errs, &config.Error{Path: c.Path, Line: b.Line, Msg: "keys: " + err.Error()})
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return &km, nil
}

// StateDir is where the reviewer's state lives ($XDG_STATE_HOME, else
// ~/.local/state; packet.OpenStore adds vetter/<work item>).
func (f *Factory) StateDir() (string, error) { return f.stateDir() }

// CacheDir is where vetter keeps the packets it builds from pull requests:
// only there is a packet's pr.json its own (packet.Options.OriginRoot).
// Empty when there is no home to put it in.
func (f *Factory) CacheDir() string {
	d, err := f.cacheDir()
	if err != nil {
		return ""
	}
	return d
}

// GitHubConfig is how a command reads from host: gh's token and host
// settings, the --timeout, and a retry of what failed for the server's
// reasons.
func (f *Factory) GitHubConfig(host string) github.Config {
	return github.Config{Host: host, Timeout: f.PR.Timeout, Retries: 2, Backoff: 500 * time.Millisecond}.FromEnv()
}

// GitHubClient is a client for posting to host: no retry, since a second
// try could post twice.
func (f *Factory) GitHubClient(host string) (*github.Client, error) {
	return github.NewClient(github.Config{Host: host, Timeout: f.PR.Timeout}.FromEnv())
}
