// Package attention answers "what must a vetter look at before letting this
// change run on the project's runners?". It reads the diff the way the
// runner will: shell wherever shell runs (workflow run: steps, Makefile
// recipes, Dockerfile RUN, scripts, package.json scripts, go:generate) is
// parsed with mvdan.cc/sh, a workflow whose whole text the diff holds is
// read with a YAML parser, data is followed within a file (downloaded or
// decoded and then run, secrets read and then sent), and what no parser
// covers (a hunk that starts in the middle of a block, code in other
// languages) is matched line by line.
//
// Every item comes from a rule in the registry (package attention/rules): an id, a kind, a
// severity, why it matters and the cases that define it. Severity is what
// the line can do with the runner's token and network: "high" means it could
// take over the runner or leak its secrets with no further step; a trigger
// or a permission alone is not high, what it exposes is.
//
// A deleted file (or one renamed away from a name that runs) is one step
// lower: it no longer runs, but removing a CI check still matters.
// Documentation is checked for hidden characters only: it does not run, and
// its install examples ("curl ... | sh") would otherwise be the commonest
// false alarm.
package attention

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/vetter-dev/vetter/attention/rules"
	"github.com/vetter-dev/vetter/packet"
)

// MaxLinesPerFile caps the line items of one file; the rest become
// one "and N more" item so a hostile file cannot flood the decision screen.
const MaxLinesPerFile = 50

// Item is one thing a vetter must look at: packet's Attention, which the
// screens, the summary and the exports read.
type Item = packet.Attention

func compareItems(a, b Item) int {
	return cmp.Or(
		cmp.Compare(severityRank(a.Severity), severityRank(b.Severity)),
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Hunk, b.Hunk),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.More, b.More),
		cmp.Compare(a.Kind, b.Kind),
	)
}

func severityRank(s string) int {
	switch s {
	case rules.High:
		return 0
	case rules.Medium:
		return 1
	}
	return 2
}

// attentionKey is rule|path|hash, then #n for the n-th item with the same
// three (a line repeated in one file). A "more" item is keyed by its count
// too, so reviewing it does not cover lines added later.
func attentionKey(a *Item, d *packet.Diff, seen map[string]int) string {
	h := fnvOffset
	if a.Hunk < 0 {
		f := d.Files[a.File]
		h = fnvAdd(h, string(f.Status))
		for _, hk := range f.Hunks {
			if hk == nil {
				continue
			}
			for _, l := range hk.Lines {
				if l.Kind != packet.LineContext {
					h = fnvAdd(h, string(l.Kind))
					h = fnvAdd(h, l.Text)
					h = fnvAdd(h, "\n")
				}
			}
		}
	} else {
		h = fnvAdd(h, a.Text)
	}
	rule := a.Rule
	if rule == "" {
		rule = string(a.Kind)
	}
	var buf [256]byte // on the stack: the key's one allocation is the string
	b := buf[:0]
	b = append(b, rule...)
	b = append(b, '|')
	b = append(b, a.Path...)
	b = append(b, '|')
	if a.Hunk < 0 {
		b = append(b, "file|"...)
	}
	if a.More > 0 {
		b = append(b, "more"...)
		b = strconv.AppendInt(b, int64(a.More), 10)
		b = append(b, '|')
	}
	const hex = "0123456789abcdef"
	for shift := 60; shift >= 0; shift -= 4 {
		b = append(b, hex[h>>uint(shift)&0xf])
	}
	k := string(b)
	if n := seen[k]; n > 0 {
		seen[k] = n + 1
		return k + "#" + strconv.Itoa(n)
	}
	seen[k] = 1
	return k
}

// FNV-1a, 64 bits, written out so hashing a line allocates nothing.
const (
	fnvOffset uint64 = 14695981039346656037
	fnvPrime  uint64 = 1099511628211
)

func fnvAdd(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return h
}

func itoa(n int) string { return strconv.Itoa(n) }

// sortItems puts items in the order Scan returns them.
func sortItems(items []Item) { slices.SortStableFunc(items, compareItems) }
