package diff

import (
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/tui/internal/screentest"
)

// The diff at the major finding's line: changed words emphasised on the
// added and removed lines.
func TestStyledDiffEmphasis(t *testing.T) {
	d, _ := newSampleDiff(t, 80, 24)
	st := d.ctx.Styles
	shows := func(v string) bool {
		return strings.Contains(v, screentest.Opens(t, st.AddedEmphasis)) && strings.Contains(v, screentest.Opens(t, st.RemovedEmphasis))
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
