package tui

import (
	"testing"

	"github.com/vetter-dev/vetter/tui/screens/evidence"

	"github.com/vetter-dev/vetter/tui/screens/logs"

	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

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
