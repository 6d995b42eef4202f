package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"github.com/vetter-dev/vetter/compare"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/ui"
)

// workbenchLoad is how the workbench loads a packet (and reloads it): logs
// above SmallLog are indexed in the background.
var workbenchLoad = packet.Options{DeferLogIndex: true, DeferAbove: packet.SmallLog}

// workbenchOptions are what every way into the workbench shares.
func workbenchOptions(theme string, watch bool) tui.AppOptions {
	_, noColor := os.LookupEnv("NO_COLOR")
	load := workbenchLoad
	load.OriginRoot = originRoot()
	opts := tui.AppOptions{Theme: theme, NoColor: noColor, Watch: watch, Load: load, AsyncHighlight: true}
	// The commands that open the workbench read the config file first and
	// stop at a mistake in it, so here it is sound.
	if cfg, err := loadConfig(); err == nil && len(cfg.Keys) > 0 {
		if km, err := configKeyMap(cfg); err == nil {
			opts.Keys = km
		}
	}
	return opts
}

// runWorkbench opens the full-screen workbench on a loaded packet; with
// watch, a folder packet is reloaded in place when its files change.
func runWorkbench(p *packet.Packet, theme, openAt string, watch bool, since *packet.Packet, stdout io.Writer) error {
	opts := workbenchOptions(theme, watch)
	opts.PostOkToTest = workbenchPoster(p)
	opts.Refresh = prOpts.refreshed
	if since != nil {
		c := compare.Compare(since, p)
		opts.Since = &c
		if openAt == "" {
			opts.Start = &common.Target{Screen: common.ScreenSince, File: -1, Hunk: -1, DiffLine: -1}
		}
	}
	if openAt != "" {
		t, err := openTarget(p, openAt)
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
	return runApp(tui.NewApp(p, opts), stdout)
}

// previewFor opens what --open cites in a packet folder, and nothing else,
// when it is a log under validation/logs or a finding of review.md: the
// workbench then draws it before the packet is read (a log line or a
// finding is what a reviewer most often comes to see, and a big packet
// takes tens of milliseconds to read).
func previewFor(dir, openAt string) (*packet.Packet, common.Target, bool) {
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
	t, err := openTarget(pv, openAt)
	if err != nil || t.Screen != want {
		pv.Close()
		return nil, common.Target{}, false
	}
	return pv, t, true
}

// runPreview opens the workbench on a preview at t and loads the packet
// behind it in the background; keys wait until it is there.
func runPreview(pv *packet.Packet, t common.Target, theme string, watch bool, stdout io.Writer) error {
	opts := workbenchOptions(theme, watch)
	opts.Start = &t
	path := pv.Path
	opts.Complete = func(reuse map[string]*packet.Log) (*packet.Packet, error) {
		o := workbenchLoad
		o.Reuse = reuse
		o.OriginRoot = originRoot()
		return packet.Load(path, o)
	}
	return runApp(tui.NewApp(pv, opts), stdout)
}

// runInbox opens the inbox of a folder of packets.
func runInbox(dir, theme string, watch bool, stdout io.Writer) error {
	opts := workbenchOptions(theme, watch)
	return runApp(tui.NewInboxApp(dir, opts), stdout)
}

func runApp(app *tui.App, stdout io.Writer) error {
	defer app.Close()
	settleGC()
	// Bubble Tea writes frames on a ticker at this rate, so a key's frame
	// waits at most one interval (8 ms at 120 fps, under a frame of a 60 Hz
	// display); the price is a renderer that wakes at that rate while idle.
	opts := []tea.ProgramOption{tea.WithFPS(120)}
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
		return exitError{128 + int(sig)}
	}
	if err != nil {
		return err
	}
	if err := app.Err(); err != nil {
		return err
	}
	// After the terminal is restored: the /ok to test lines, to paste or pipe.
	for _, l := range app.ExitLines() {
		fmt.Fprintln(stdout, ui.Sanitize(packet.EscapeHidden(l)))
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

// openTarget turns --open's citation into where the workbench starts.
func openTarget(p *packet.Packet, s string) (common.Target, error) {
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
