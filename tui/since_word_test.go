package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/compare"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/tui/internal/screentest"
)

// Two rounds whose only change is one word added to a long line of the
// diff: the since screen shows that word, marked, at 80 and at 200 columns
// (the line is wrapped, never cut), and lists no document as added.
func TestSinceShowsOneAddedWord(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r2 := filepath.Join(t.TempDir(), "r2")
		if err := os.CopyFS(r2, packet.SampleFS()); err != nil {
			t.Fatal(err)
		}
		diff := filepath.Join(r2, packet.DiffPath)
		b, err := os.ReadFile(diff)
		if err != nil {
			t.Fatal(err)
		}
		const line = "+Between attempts it waits 1 s, then 2 s, 4 s, 8 s and so on, doubling each time up"
		if !strings.Contains(string(b), line) {
			t.Fatal("the sample's diff lacks the line the test changes")
		}
		b = []byte(strings.Replace(string(b), line, strings.Replace(line, "each time up", "each time roughly up", 1), 1))
		if err := os.WriteFile(diff, b, 0o644); err != nil {
			t.Fatal(err)
		}
		p := loadCopy(t, r2)
		old := packet.LoadSample(packet.Options{})
		defer old.Close()
		c := compare.Compare(old, p)
		for _, d := range c.Documents {
			t.Errorf("document %s listed as %s; no document changed", d.Path, d.Status)
		}
		for _, width := range []int{80, 200} {
			ctx := common.NewContext(p, true, false)
			ctx.Since = &c
			r := NewWorkbench(ctx, Options{ForceTheme: "dark"})
			drive(r, r.Init())
			r.Update(tea.WindowSizeMsg{Width: width, Height: 60})
			pressOn(t, r, common.ScreenSince, "8", "8")
			styled := r.Render()
			screen := ansi.Strip(styled)
			if !strings.Contains(screen, "roughly") {
				t.Errorf("%d columns: the added word is not on screen:\n%s", width, screen)
			}
			em := r.ctx.Styles.AddedEmphasis.Render("roughly")
			if !strings.Contains(styled, em) {
				t.Errorf("%d columns: the added word is not marked as a changed word", width)
			}
			for _, l := range strings.Split(screen, "\n") {
				if strings.Contains(l, "Between attempts") && strings.HasSuffix(strings.TrimRight(l, " "), "…") {
					t.Errorf("%d columns: the changed line is cut: %q", width, l)
				}
			}
			if width == 80 {
				screentest.Golden(t, "TestSinceOneWord80x60", styled)
			}
		}
	})
}
