package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"

	"github.com/vetter-dev/vetter/hostile"
	"github.com/vetter-dev/vetter/tui/common"
)

// goldenStyled is golden with the styles kept, for the frames where colour
// carries meaning: testdata/<name>.styled.golden holds the frame with each
// escape written "\e" so it reads in an editor. The profile is pinned by
// what the screens draw: Lip Gloss writes its full-colour SGR and the
// program, not the screen, downsamples it for the terminal, so a frame is
// the same on every machine and a changed colour, a lost style or a
// placeholder drawn plain fails here.
func goldenStyled(t *testing.T, name, got string) {
	t.Helper()
	compareGolden(t, name, filepath.Join("testdata", name+".styled.golden"), strings.ReplaceAll(got, "\x1b", `\e`))
}

// The findings screen: each severity's badge in its colour.
func TestStyledFindingsBadges(t *testing.T) {
	f, ctx := newSampleFindings(t, 80, 24)
	v := f.View()
	for _, sev := range []string{"major", "minor", "nit"} {
		if badge := ctx.Styles.SeverityBadge(sev); !strings.Contains(v, badge) {
			t.Errorf("the %s badge is not drawn in its style %q", sev, badge)
		}
	}
	goldenStyled(t, "TestStyledFindings80x24", v)
}

// The diff at the major finding's line: changed words emphasised on the
// added and removed lines.
func TestStyledDiffEmphasis(t *testing.T) {
	d, _ := newSampleDiff(t, 80, 24)
	st := d.ctx.Styles
	shows := func(v string) bool {
		return strings.Contains(v, opens(t, st.AddedEmphasis)) && strings.Contains(v, opens(t, st.RemovedEmphasis))
	}
	// The first hunk that changes words within lines.
	v := d.View()
	for range 40 {
		if shows(v) {
			break
		}
		press(d, "}")
		v = d.View()
	}
	if !shows(v) {
		t.Fatal("no hunk of the sample emphasises words on its added and removed lines")
	}
	goldenStyled(t, "TestStyledDiffEmphasis80x24", v)
}

// The escape-injection packet's unit log: what the sanitiser neutralised
// shows as placeholders in their own colour.
func TestStyledLogPlaceholders(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		p := loadDir(t, hostile.Escape())
		r := hostileRoot(p)
		_, cmd := r.Update(common.FollowMsg{To: common.Target{Screen: common.ScreenLogs, Path: hostile.UnitLog, File: -1, Hunk: -1, DiffLine: -1}})
		drive(r, cmd)
		v := r.Render()
		if !strings.Contains(v, opens(t, r.ctx.Styles.Placeholder)+"␛") {
			t.Errorf("no ␛ placeholder drawn in the placeholder style:\n%s", v)
		}
		goldenStyled(t, "TestStyledLogPlaceholders120x40", v)
	})
}

// opens is the sequence a style opens with (sgrOf), which must not be empty.
func opens(t *testing.T, st lipgloss.Style) string {
	t.Helper()
	s := sgrOf(st)
	if s == "" {
		t.Fatal("the style draws no escape")
	}
	return s
}
