package diff

import (
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

// When the terminal turns out to be light, the diff redraws in the light
// colours instead of keeping the dark ones it cached.
func TestDiffFollowsThemeChange(t *testing.T) {
	ctx := common.NewContext(packet.LoadSample(packet.Options{}), true, false)
	d := New(ctx)
	d.SetSize(120, 30)
	dark := d.View()
	ctx.SetDark(false)
	d.Update(common.ThemeChangedMsg{})
	light := d.View()
	if dark == light {
		t.Fatal("the diff kept its dark colours after the theme changed")
	}
	if ansi.Strip(dark) != ansi.Strip(light) {
		t.Error("the text changed with the theme")
	}
	// The added lines' background is the light palette's.
	if want := (ansi.Style{}).BackgroundColor(ctx.Styles.Palette.AddedBg).String(); d.sgr().addBg != want {
		t.Errorf("added-line background %q, want the light one %q", d.sgr().addBg, want)
	}
}
