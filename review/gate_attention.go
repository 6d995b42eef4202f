package review

import (
	"fmt"

	"github.com/vetter-dev/vetter/packet"
)

// HighReviewed counts the high items and those the reviewer marked reviewed.
func HighReviewed(p *packet.Packet, items []packet.Attention) (reviewed, total int) {
	for _, a := range items {
		if a.Severity != packet.AttentionHigh {
			continue
		}
		total++
		if _, ok := p.Reviewed[a.Key]; ok {
			reviewed++
		}
	}
	return reviewed, total
}

// attentionCheck is the gate's informational attention-reviewed check: it
// does not make the gate not ready (the gate is about the packet's evidence,
// and `vetter decide` has no way to look at a line), but the decision
// screen asks for confirmation before ok-to-test while it is not ok.
func attentionCheck(p *packet.Packet) packet.GateCheck {
	c := packet.GateCheck{Name: CheckAttentionReviewed, OK: true, Info: true}
	items, ok := p.ScannedAttention()
	switch r, n := HighReviewed(p, items); {
	case !ok:
		// Nothing is known of the diff's lines yet: a ✓ here would say
		// they were looked at.
		c.Unproven = true
		c.Detail = "scanning the diff"
	case !packet.AttentionScanRegistered():
		c.Unproven = true
		c.Detail = "the diff was not scanned: this build of vetter has no attention scan"
	case n == 0:
		c.Detail = "no high items in the diff"
	default:
		c.OK = r == n
		c.Detail = fmt.Sprintf("%d of %d high items reviewed", r, n)
	}
	return c
}
