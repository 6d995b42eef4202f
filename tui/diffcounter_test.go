package tui

import (
	"regexp"
	"testing"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	"github.com/vetter-dev/vetter/tui/common"
)

// The diff's finding counter counts a finding reached by a jump to its
// line as . counts it when it lands on it.
func TestDiffFindingCounterAgrees(t *testing.T) { screentest.InBubble(t, testDiffFindingCounterAgrees) }

func testDiffFindingCounterAgrees(t *testing.T) {
	r := newTestRoot(t, 120, 40)
	counter := regexp.MustCompile(`finding \d+/\d+`)
	pressKeys(r, "4", "enter")
	jumped := counter.FindString(r.Screen(common.ScreenDiff).Status())
	pressKeys(r, ".") // onto the finding under the line
	dotted := counter.FindString(r.Screen(common.ScreenDiff).Status())
	if jumped == "" || jumped != dotted {
		t.Errorf("after the jump %q, after . %q", jumped, dotted)
	}
	if jumped == "finding 0/16" {
		t.Errorf("a jump to a finding's line counts %q", jumped)
	}
}
