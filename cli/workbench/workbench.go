// Package workbench runs the full-screen workbench for the commands that
// open it (vetter PACKET, a folder of packets, the queue): the options they
// share, --open's starting place, the terminal, and the signals that end it.
package workbench

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
	"github.com/vetter-dev/vetter/cli/cmdutil"
	"github.com/vetter-dev/vetter/cli/factory"
	"github.com/vetter-dev/vetter/compare"
	"github.com/vetter-dev/vetter/internal/hidden"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/ui"
)

// Load is how the workbench loads a packet (and reloads it): logs above
// SmallLog are indexed in the background.
func Load() packet.Options {
	return packet.Options{DeferLogIndex: true, DeferAbove: packet.SmallLog}
}

// Options are what every way into the workbench shares.
func Options(f *factory.Factory, theme string, watch bool) tui.AppOptions {
	_, noColor := os.LookupEnv("NO_COLOR")
	load := Load()
	load.OriginRoot = f.CacheDir()
	opts := tui.AppOptions{Theme: theme, NoColor: noColor, Watch: watch, Load: load, AsyncHighlight: true}
	// The commands that open the workbench read the config file first and
	// stop at a mistake in it, so here it is sound.
	if km, err := f.KeyMap(); err == nil {
		opts.Keys = km
	}
	return opts
}

// Packet is what opens the workbench on one loaded packet.
type Packet struct {
	Theme, OpenAt string
	// Watch reloads a folder packet in place when its files change.
	Watch bool
	// Since is an earlier round: screen 8 shows what changed since.
	Since *packet.Packet
	// Refresh reads a pull request opened from the cache again, behind
	// the screen, and says what failed.
	Refresh func() string
}

// Run opens the full-screen workbench on a loaded packet.
func Run(ctx context.Context, f *factory.Factory, p *packet.Packet, w Packet) error {
	theme, openAt, since := w.Theme, w.OpenAt, w.Since
	opts := Options(f, theme, w.Watch)
	opts.PostOkToTest = cmdutil.WorkbenchPoster(ctx, f, p)
	opts.Refresh = w.Refresh
	if since != nil {
		c := compare.Compare(since, p)
		opts.Since = &c
		if openAt == "" {
			opts.Start = &common.Target{Screen: common.ScreenSince, File: -1, Hunk: -1, DiffLine: -1}
		}
	}
	if openAt != "" {
		t, err := OpenTarget(p, openAt)
		if err != nil {
			return err
		}
		opts.Start = &t
	}
	if opts.Start == nil && !review.Gate(p).Ready {
		// A packet that still needs a person opens on the guided walk:
		// the verdict, then each finding not yet triaged, then the gate.
		opts.Start = &common.Target{Screen: common.ScreenWalk, File: -1, Hunk: -1, DiffLine: -1}
	}
	return RunApp(f, tui.NewApp(p, opts))
}

// FirstScreen reads a packet folder but its diff (packet.OpenPreview) when
// that is enough to know where the workbench opens and to draw it: the gate
// fails on what was read (a verdict, an assessment, evidence, findings not
// triaged), whatever the diff holds, so the workbench opens on the walk,
// whose first step shows none of the diff. The packet is then loaded behind
// that screen (RunPreview). It returns false for anything else (an
// archive, a pull request's folder, a gate only the diff can settle), which
// is loaded whole before the first screen as before.
func FirstScreen(f *factory.Factory, dir string) (*packet.Packet, common.Target, bool) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, common.Target{}, false
	}
	o := Load()
	o.OriginRoot = f.CacheDir()
	pv, err := packet.OpenPreview(dir, o)
	if err != nil {
		return nil, common.Target{}, false
	}
	// A pull request's folder posts to it (WorkbenchPoster) and refreshes:
	// that path reads it whole.
	if pv.Origin != nil || !review.NotReadyWhatever(review.Gate(pv)) {
		pv.Close()
		return nil, common.Target{}, false
	}
	return pv, common.Target{Screen: common.ScreenWalk, File: -1, Hunk: -1, DiffLine: -1}, true
}

// Preview opens what --open cites in a packet folder, and nothing else,
// when it is a log under validation/logs or a finding of review.md: the
// workbench then draws it before the packet is read (a log line or a
// finding is what a reviewer most often comes to see, and a big packet
// takes tens of milliseconds to read).
func Preview(dir, openAt string) (*packet.Packet, common.Target, bool) {
	var pv *packet.Packet
	var err error
	want := common.ScreenLogs
	if m := findingRef.FindStringSubmatch(openAt); m != nil && m[1] == packet.ReviewFile {
		pv, err = packet.OpenFindingsPreview(dir)
		want = common.ScreenFindings
	} else {
		cs := packet.ExtractCitations(openAt, "--open", 0)
		if len(cs) != 1 || !strings.HasPrefix(cs[0].Path, packet.LogsDir+"/") {
			return nil, common.Target{}, false
		}
		pv, err = packet.OpenLogPreview(dir, cs[0].Path)
	}
	if err != nil {
		return nil, common.Target{}, false
	}
	t, err := OpenTarget(pv, openAt)
	if err != nil || t.Screen != want {
		pv.Close()
		return nil, common.Target{}, false
	}
	return pv, t, true
}

// RunPreview opens the workbench on a preview at t and loads the packet
// behind it in the background; keys wait until it is there.
func RunPreview(f *factory.Factory, pv *packet.Packet, t common.Target, theme string, watch bool) error {
	opts := Options(f, theme, watch)
	opts.Start = &t
	path := pv.Path
	opts.Complete = func(reuse map[string]*packet.Log) (*packet.Packet, error) {
		o := Load()
		o.Reuse = reuse
		o.OriginRoot = f.CacheDir()
		return packet.Load(path, o)
	}
	return RunApp(f, tui.NewApp(pv, opts))
}

// RunInbox opens the inbox of a folder of packets.
func RunInbox(f *factory.Factory, dir, theme string, watch bool) error {
	return RunApp(f, tui.NewInboxApp(dir, Options(f, theme, watch)))
}

// fps is the rate Bubble Tea writes frames at.
const fps = 120

// RunApp runs app on the terminal until it quits or a signal ends it, and
// then prints the /ok to test lines it leaves.
func RunApp(f *factory.Factory, app *tui.App) error {
	stdout := f.IO.Out
	defer app.Close()
	settleGC()
	// Bubble Tea writes frames on a ticker at this rate, so a key's frame
	// waits at most one interval (8 ms at 120 fps, under a frame of a 60 Hz
	// display); the price is a renderer that wakes at that rate while idle.
	opts := []tea.ProgramOption{tea.WithFPS(fps)}
	// The first frame is written on the renderer's first tick, one
	// interval in; the background work waits two, so that it is out.
	app.HoldBackground(2 * time.Second / fps)
	screen, _ := stdout.(*os.File)
	// With standard output piped (vetter | pbcopy), the screen goes to the
	// terminal itself, so only the /ok to test lines reach the pipe.
	if screen != nil && !term.IsTerminal(screen.Fd()) {
		screen = nil
		if tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
			defer tty.Close()
			opts = append(opts, tea.WithInput(tty), tea.WithOutput(tty))
			screen = tty
		}
	}
	if screen != nil {
		if w, h, err := term.GetSize(screen.Fd()); err == nil {
			app.Presize(w, h)
		}
	}
	// vetter handles the signals that end it itself: Bubble Tea's handler
	// quits with status 0 on SIGTERM and knows nothing of SIGHUP or SIGQUIT,
	// whose default action kills the process with the terminal still in the
	// alternate screen, the cursor hidden, mouse reporting and echo off.
	opts = append(opts, tea.WithoutSignalHandler())
	prog := tea.NewProgram(app, opts...)
	caught := stopOnSignals(prog)
	_, err := prog.Run()
	if sig, ok := caught(); ok {
		// The terminal is restored: Kill shut the program down and Run
		// returned only after that.
		return cmdutil.ExitError{Code: 128 + int(sig)}
	}
	if err != nil {
		return err
	}
	if err := app.Err(); err != nil {
		return err
	}
	// After the terminal is restored: the /ok to test lines, to paste or pipe.
	for _, l := range app.ExitLines() {
		fmt.Fprintln(stdout, ui.Sanitize(hidden.Escape(l)))
	}
	return nil
}

// stopOnSignals kills prog, which restores the terminal, on SIGHUP,
// SIGTERM, SIGINT or SIGQUIT. Called once Run has returned, caught stops
// listening and reports the signal that ended the program, if one did.
func stopOnSignals(prog *tea.Program) (caught func() (syscall.Signal, bool)) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT, syscall.SIGQUIT)
	done, got := make(chan struct{}), make(chan syscall.Signal, 1)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		select {
		case s := <-sigs:
			sig, _ := s.(syscall.Signal)
			got <- sig // before Kill, so Run returning implies it is there
			// Kill rather than Quit: it does not wait for Update, which
			// might be what is stuck.
			prog.Kill()
		case <-done:
		}
	}()
	return func() (syscall.Signal, bool) {
		close(done)
		<-finished
		signal.Stop(sigs)
		select {
		case sig := <-got:
			return sig, true
		default:
			return 0, false
		}
	}
}

var findingRef = regexp.MustCompile(`^(.+)#(\d+)$`)

// OpenTarget turns --open's citation into where the workbench starts.
func OpenTarget(p *packet.Packet, s string) (common.Target, error) {
	if m := findingRef.FindStringSubmatch(s); m != nil {
		if f := p.Finding(s); f != nil {
			return common.Target{Screen: common.ScreenFindings, Finding: f.ID, File: -1, Hunk: -1, DiffLine: -1}, nil
		}
		return common.Target{}, fmt.Errorf("--open %s: the packet has no such finding", s)
	}
	c := p.ResolveText(s)
	if t, ok := common.TargetForCitation(c); ok {
		return t, nil
	}
	if c.Kind == packet.CiteExternal {
		return common.Target{}, fmt.Errorf("--open %s: that file is not in the packet or its diff", s)
	}
	return common.Target{}, fmt.Errorf("--open %s: %s", s, c.Note)
}
