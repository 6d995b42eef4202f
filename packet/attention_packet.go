package packet

import (
	"sync"
	"sync/atomic"

	"github.com/vetter-dev/vetter/packet/source"
)

// attentionScan is a packet's attention scan, made once: the decision
// screen makes it behind the first screen, and the gate, the summary and
// the exports read the same result.
type attentionScan struct {
	once  sync.Once
	done  atomic.Bool
	items []Attention
}

// Attention returns what a vetter must look at in the packet's diff (the
// registered scan, attention.Scan), scanning on the first call. Safe for
// concurrent use.
func (p *Packet) Attention() []Attention {
	if p.Partial {
		return nil // a preview has no diff yet; the full load scans it
	}
	if p.attention == nil {
		items, _ := p.scanAttention() // a packet not made by Load: nothing to keep it in
		return items
	}
	p.attention.once.Do(func() {
		p.attention.items, _ = p.scanAttention()
		p.attention.done.Store(true)
	})
	return p.attention.items
}

// scanAttention scans the packet's diff and, for a packet from a pull
// request whose head moved on, the diff of the commits pushed after it
// (AfterPacketDiff): no review saw those, so they are scanned the same way,
// and come first where they are as severe.
func (p *Packet) scanAttention() ([]Attention, bool) {
	items, scanned := p.scanDiff(p.Diff)
	if p.Origin == nil || !scanned {
		return items, scanned
	}
	data, _, err := source.ReadCapped(p.FS, AfterPacketDiff, DiffLimit)
	if err != nil || len(data) == 0 {
		return items, scanned
	}
	after, _ := ParseDiff(data)
	var late []Attention
	afterItems, _ := p.scanDiff(after)
	for _, a := range afterItems {
		a.AfterPacket = true
		a.File, a.Hunk, a.Line = -1, -1, -1
		a.Title = "after the packet: " + a.Title
		a.Why += " It came in a commit pushed after the packet was written, which no review saw."
		a.Key = "after|" + a.Key
		late = append(late, a)
	}
	out := make([]Attention, 0, len(items)+len(late))
	for _, sev := range []string{AttentionHigh, AttentionMedium, AttentionLow} {
		for _, group := range [][]Attention{late, items} {
			for _, a := range group {
				if a.Severity == sev {
					out = append(out, a)
				}
			}
		}
	}
	return out, scanned
}

// scannedAttention returns the scan if it has been made, without making it:
// the gate must not hold up the first screen for a big diff.
func (p *Packet) ScannedAttention() ([]Attention, bool) {
	if p.Partial {
		return nil, false // a preview's diff is not read: nothing is scanned yet
	}
	if p.attention == nil {
		return p.Attention(), true
	}
	if !p.attention.done.Load() {
		return nil, false
	}
	return p.attention.items, true
}

// HighAttention returns the high items, in order.
func HighAttention(items []Attention) []Attention {
	var out []Attention
	for _, a := range items {
		if a.Severity == AttentionHigh {
			out = append(out, a)
		}
	}
	return out
}
