package tui

import (
	"testing"

	"github.com/vetter-dev/vetter/tui/screens/evidence"

	"github.com/vetter-dev/vetter/tui/screens/logs"

	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

// When the terminal turns out to be light, the diff redraws in the light
// colours instead of keeping the dark ones it cached.
func TestDiffFollowsThemeChange(t *testing.T) {
	ctx := common.NewContext(packet.LoadSample(packet.Options{}), true, false)
	d := NewDiff(ctx)
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

// The log and evidence screens also redraw in the detected theme.
func TestLogsAndEvidenceFollowThemeChange(t *testing.T) {
	ctx := common.NewContext(packet.LoadSample(packet.Options{}), true, false)
	for _, s := range []common.Screen{logs.New(ctx), evidence.New(ctx)} {
		s.SetSize(120, 30)
		ctx.SetDark(true)
		s.Update(common.ThemeChangedMsg{})
		dark := s.View()
		ctx.SetDark(false)
		s.Update(common.ThemeChangedMsg{})
		light := s.View()
		if dark == light {
			t.Errorf("%T kept its dark colours after the theme changed", s)
		}
		if ansi.Strip(dark) != ansi.Strip(light) {
			t.Errorf("%T: the text changed with the theme", s)
		}
	}
}
