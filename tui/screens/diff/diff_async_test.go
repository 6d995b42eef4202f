package diff

import (
	"testing"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

// With AsyncHighlight the diff draws a new screen's text at once, uncoloured,
// and leaves a command; once it has run the screen is exactly what the
// synchronous diff draws, and nothing more is left to do.
func TestDiffAsyncHighlight(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		deferred := 0
		for _, sz := range [][2]int{{80, 24}, {200, 60}} {
			sync, _ := newSampleDiff(t, sz[0], sz[1])
			p := packet.LoadSample(packet.Options{})
			ctx := common.NewContext(p, true, false)
			ctx.AsyncHighlight = true
			d := New(ctx)
			d.SetSize(sz[0], sz[1])
			for _, keys := range [][]string{nil, {"}"}, {"pgdown"}, {"G"}, {"s"}} {
				press(sync, keys...)
				press(d, keys...)
				want := sync.View()
				first := d.View()
				if ansi.Strip(first) != ansi.Strip(want) {
					t.Fatalf("%v after %v: the uncoloured frame's text differs:\n%s\nwant\n%s", sz, keys, ansi.Strip(first), ansi.Strip(want))
				}
				cmd := d.PendingCmd()
				if first != want {
					deferred++
				}
				if first != want && cmd == nil {
					t.Fatalf("%v after %v: an uncoloured frame and nothing left to colour it", sz, keys)
				}
				if cmd != nil {
					if again := d.PendingCmd(); again != nil {
						t.Errorf("%v after %v: the lines being coloured were asked for twice", sz, keys)
					}
					d.Update(cmd())
				}
				if got := d.View(); got != want {
					t.Errorf("%v after %v: coloured frame differs from the synchronous one", sz, keys)
				}
				if d.PendingCmd() != nil {
					t.Errorf("%v after %v: work left after colouring", sz, keys)
				}
			}
		}
		if deferred == 0 {
			t.Error("no frame was drawn before its colours: the test shows nothing")
		}
	})
}

// Without AsyncHighlight (the tests' screens) nothing is left pending.
func TestDiffSyncHighlightLeavesNothing(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		d, _ := newSampleDiff(t, 120, 40)
		_ = d.View()
		if d.PendingCmd() != nil {
			t.Error("a synchronous diff left a colouring command")
		}
	})
}

// BenchmarkDiffPageDownAsync is page down through the big diff with
// AsyncHighlight, as the workbench runs: what the key waits for before its
// frame (the colouring command is not run, so every page is new).
func BenchmarkDiffPageDownAsync(b *testing.B) {
	ctx := common.NewContext(screentest.BigDiff(b), true, false)
	ctx.AsyncHighlight = true
	d := New(ctx)
	d.SetSize(200, 60)
	if d.sbs {
		press(d, "s")
	}
	benchPageDown(b, d, func() { d.colouring = nil })
}
