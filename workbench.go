package main

import (
	"fmt"
	"io"
	"os"
	"regexp"

	tea "charm.land/bubbletea/v2"

	"vetter/packet"
	"vetter/ui"
	"vetter/views"
)

// runWorkbench opens the full-screen workbench on a loaded packet.
func runWorkbench(p *packet.Packet, theme, openAt string, stdout io.Writer) error {
	_, noColor := os.LookupEnv("NO_COLOR")
	dark := theme != "light"
	ctx := views.NewContext(p, dark, noColor)
	ctx.Store, ctx.StoreErr = packet.OpenStore(p, "")
	ctx.AsyncHighlight = true
	opts := views.Options{ForceTheme: theme}
	if openAt != "" {
		t, err := openTarget(p, openAt)
		if err != nil {
			return err
		}
		opts.Start = &t
	}
	root := views.NewRoot(ctx, opts)
	prog := tea.NewProgram(root)
	if _, err := prog.Run(); err != nil {
		return err
	}
	// After the terminal is restored: the /ok to test line, to paste or pipe.
	for _, l := range root.ExitLines() {
		fmt.Fprintln(stdout, ui.Sanitize(l))
	}
	return nil
}

var findingRef = regexp.MustCompile(`^(.+)#(\d+)$`)

// openTarget turns --open's citation into where the workbench starts.
func openTarget(p *packet.Packet, s string) (views.Target, error) {
	if m := findingRef.FindStringSubmatch(s); m != nil {
		if f := p.Finding(s); f != nil {
			return views.Target{Screen: views.ScreenFindings, Finding: f.ID, File: -1, Hunk: -1, DiffLine: -1}, nil
		}
		return views.Target{}, fmt.Errorf("--open %s: the packet has no such finding", s)
	}
	c := p.ResolveText(s)
	if t, ok := views.TargetForCitation(c); ok {
		return t, nil
	}
	if c.Kind == packet.CiteExternal {
		return views.Target{}, fmt.Errorf("--open %s: that file is not in the packet or its diff", s)
	}
	return views.Target{}, fmt.Errorf("--open %s: %s", s, c.Note)
}
