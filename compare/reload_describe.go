package compare

import (
	"strings"

	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
)

// DescribeReload says what differs between two loads of one packet, for a
// status line: "reloaded: review.md and 2 logs changed", and false when
// nothing does. Documents, the diff and the registry's runs are what
// Compare says of them (the one answer to "what changed", also behind
// vetter compare and the since screen); the diff counts as changed too
// when its size did, and the logs, whose bytes are not held, by their
// stamps.
func DescribeReload(old, cur *packet.Packet, oldSt, curSt packet.Stamps) (string, bool) {
	c := Compare(old, cur)
	var changed, added, removed []string
	for _, d := range c.Documents {
		switch d.Status {
		case DocAdded:
			added = append(added, d.Path)
		case DocRemoved:
			removed = append(removed, d.Path)
		default:
			changed = append(changed, d.Path)
		}
	}
	ch := c.Change
	switch {
	case old.Diff == nil && cur.Diff != nil:
		added = append(added, packet.DiffPath)
	case old.Diff != nil && cur.Diff == nil:
		removed = append(removed, packet.DiffPath)
	case old.Diff != nil && (ch.Added+ch.Removed+ch.Altered > 0 || oldSt.Diff.Size != curSt.Diff.Size):
		changed = append(changed, packet.DiffPath)
	}
	// A registry that is new says so by its runs' logs; one whose runs
	// were added, changed or removed is named with how many.
	if reg := c.Registry; old.Registry.Present || !cur.Registry.Present {
		var parts []string
		for _, p := range []struct {
			n    int
			what string
		}{{len(reg.Added), "added"}, {len(reg.Changed), "changed"}, {len(reg.Removed), "removed"}} {
			if p.n > 0 {
				parts = append(parts, text.PluralOf(p.n, "run", "runs")+" "+p.what)
			}
		}
		if len(parts) > 0 {
			changed = append(changed, "the registry ("+strings.Join(parts, ", ")+")")
		}
	}
	logsChanged, logsAdded, logsRemoved := 0, 0, 0
	for path, st := range curSt.Logs {
		o, ok := oldSt.Logs[path]
		switch {
		case !ok:
			logsAdded++
		case o.Differs(st):
			logsChanged++
		}
	}
	for path := range oldSt.Logs {
		if _, ok := curSt.Logs[path]; !ok {
			logsRemoved++
		}
	}
	if logsChanged > 0 {
		changed = append(changed, text.PluralOf(logsChanged, "log", "logs"))
	}
	if logsAdded > 0 {
		added = append(added, text.PluralOf(logsAdded, "log", "logs"))
	}
	if logsRemoved > 0 {
		removed = append(removed, text.PluralOf(logsRemoved, "log", "logs"))
	}
	var parts []string
	for _, p := range []struct {
		items []string
		what  string
	}{{changed, "changed"}, {added, "added"}, {removed, "removed"}} {
		if len(p.items) > 0 {
			parts = append(parts, packet.JoinAnd(p.items)+" "+p.what)
		}
	}
	if len(parts) == 0 {
		return "", false
	}
	return "reloaded: " + strings.Join(parts, "; "), true
}
