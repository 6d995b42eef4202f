package diff

import (
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/tui/internal/screentest"

	"charm.land/lipgloss/v2"
)

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
	screentest.GoldenStyled(t, "TestStyledDiffEmphasis80x24", v)
}

// opens is the sequence a style opens with (common.SGROf), which must not be empty.
func opens(t *testing.T, st lipgloss.Style) string {
	t.Helper()
	s := common.SGROf(st)
	if s == "" {
		t.Fatal("the style draws no escape")
	}
	return s
}
