package packet

import "sync/atomic"

// Attention items answer "what must a vetter look at before letting this
// change run on the project's runners?". The scan that finds them is the
// attention package: it reads this package's diff, so this package cannot
// import it, yet the gate, the summary and the exports here read what it
// found. It registers itself when imported (RegisterAttentionScanner), as a
// database/sql driver does; a program that never imports it gets no items
// and a gate check that says the diff was not scanned.

// AttentionKind says why an item needs a vetter's look.
type AttentionKind string

// Attention severities.
const (
	AttentionHigh   = "high"
	AttentionMedium = "medium"
	AttentionLow    = "low"
)

// Attention is one thing a vetter must look at.
type Attention struct {
	Kind AttentionKind
	// Rule is the id of the rule that found the item
	// ("gha-script-injection"); docs/packet-format.md lists every rule.
	Rule  string
	Title string // for people: "CI workflow changed", "downloads and pipes to a shell"
	// Why says in one sentence why it matters on the runner that
	// /ok to test lets the change run on.
	Why  string
	Path string // the diff file's path (DiffFile.Path)
	// Indexes into Diff.Files, the file's Hunks and the hunk's Lines; Hunk and
	// Line are -1 for an item about the whole file.
	File, Hunk, Line int
	NewLine          int    // new-side line number; 0 for a whole-file item
	Text             string // the added line, raw (the UI sanitises); "" for a file item
	Severity         string // AttentionHigh, AttentionMedium or AttentionLow
	// Source is the new-side line the data came from, for an item found by
	// following data within the file (downloaded on one line, run on
	// another); 0 when the line alone says it. SourceText is that line.
	Source     int
	SourceText string
	// AfterPacket marks an item found in the commits pushed after the
	// packet was written (AfterPacketDiff): File, Hunk and Line are -1, as
	// it is not in the packet's diff.
	AfterPacket bool
	// Key identifies the item across reloads and rounds so "reviewed" marks
	// survive: rule, path and a hash of the line's text (and which of equal
	// lines it is), not the line number, which moves when lines are added
	// above. For a whole-file item the hash covers the file's changed lines,
	// so a mark is dropped when the file's change is not the one reviewed.
	Key string
	// More is the number of line items this one stands for beyond the cap
	// ("and N more"); 0 for an ordinary item.
	More int
}

// AttentionScanner scans a packet: its diff, and what the packet holds
// beside it that the scan may read (the pinned actions GitHub was asked
// about).
type AttentionScanner func(p *Packet, d *Diff) []Attention

var attentionScanner atomic.Pointer[AttentionScanner]

// RegisterAttentionScanner makes scan the packet's attention scan; the
// attention package calls it when imported.
func RegisterAttentionScanner(scan AttentionScanner) { attentionScanner.Store(&scan) }

// scanDiff runs the registered scan, or finds nothing when there is none.
func (p *Packet) scanDiff(d *Diff) ([]Attention, bool) {
	s := attentionScanner.Load()
	if s == nil || d == nil {
		return nil, s != nil
	}
	return (*s)(p, d), true
}

// AttentionScanRegistered reports whether a scan was registered: without one
// the gate says the diff was not scanned rather than that it holds nothing.
func AttentionScanRegistered() bool { return attentionScanner.Load() != nil }
