package tui

import (
	"testing"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

// Through the root: after each key and the commands it leaves, the async
// workbench shows what the synchronous one does.
func TestRootAsyncHighlightMatchesSync(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		sync := newTestRoot(t, 160, 48)
		p := packet.LoadSample(packet.Options{})
		ctx := common.NewContext(p, true, false)
		ctx.AsyncHighlight = true
		async := NewWorkbench(ctx, Options{ForceTheme: "dark"})
		drive(async, async.Init())
		async.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
		for _, k := range []string{"3", "}", "pgdown", "G", "g", "s"} {
			pressKeys(sync, k)
			pressKeys(async, k)
			if got, want := async.Render(), sync.Render(); got != want {
				t.Fatalf("after %q the async workbench differs:\n%s\nwant\n%s", k, got, want)
			}
		}
	})
}
