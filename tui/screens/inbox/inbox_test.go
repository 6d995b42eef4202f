package inbox

import (
	"slices"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/internal/screentest"
)

func TestCompareInboxRows(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		mk := func(name, id string, group int) *InboxRow {
			r := &InboxRow{Name: name, InboxEntry: review.InboxEntry{ID: id, Loaded: true, Verdict: "fail"}}
			switch group {
			case GroupReady:
				r.GateReady = true
			case GroupTriage:
				r.Verdict, r.Assessment = "pass", "sound"
			case GroupDecided:
				r.Decision, r.DecisionSHA, r.Head = "hold", "abc1234", "abc1234"
			}
			r.settle()
			return r
		}
		rows := []*InboxRow{
			mk("z", "ACME-10", GroupNeedsChanges),
			mk("y", "ACME-9", GroupNeedsChanges),
			mk("x", "", GroupNeedsChanges),
			mk("w", "ACME-1", GroupDecided),
			mk("v", "ACME-7", GroupReady),
			mk("u", "ACME-8", GroupTriage),
			mk("t", "ACME-9", GroupNeedsChanges),
		}
		slices.SortStableFunc(rows, CompareInboxRows)
		var got []string
		for _, r := range rows {
			got = append(got, r.Name)
		}
		want := "v u t y z x w"
		if strings.Join(got, " ") != want {
			t.Errorf("order %v, want %s", got, want)
		}
	})
}
