package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/internal/screentest"
)

// A cached copy whose refresh failed says so on the status line, with when
// it was read, and keeps saying it after keys clear the transient messages.
func TestFailedRefreshIsOnTheStatusLine(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		dir := sampleCopy(t, "pkt")
		opts := testAppOpts(t)
		release := make(chan struct{})
		opts.Refresh = func() string {
			<-release
			return "GitHub unreachable; showing what was read at 14:02"
		}
		p, err := packet.Load(dir, opts.Load)
		if err != nil {
			t.Fatal(err)
		}
		a := NewApp(p, opts)
		l := newLoop(t, a)
		l.run(a.Init())
		l.send(tea.WindowSizeMsg{Width: 120, Height: 40})
		l.settle()
		if strings.Contains(ansi.Strip(a.Render()), "GitHub unreachable") {
			t.Fatal("the failure is said before the refresh ended")
		}
		close(release)
		l.settle()
		l.press("j", "j")
		if !strings.Contains(ansi.Strip(a.Render()), "GitHub unreachable; showing what was read at 14:02") {
			t.Errorf("the status line does not say the refresh failed:\n%s", ansi.Strip(a.Render()))
		}
	})
}
