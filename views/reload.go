package views

import (
	"fmt"
	"hash/fnv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"vetter/packet"
)

// Reload puts a newly loaded copy of the packet in place of the current one
// and rebuilds every screen on it, keeping where the person is: each screen
// is asked where it is before, and the new one is opened there, so the
// screen, the selection and the scroll stay where they still exist. History
// is kept. note is shown on the status line (what changed).
func (r *Root) Reload(p *packet.Packet, store *packet.Store, storeErr error, note string) tea.Cmd {
	var here [screenCount]Target
	for i, s := range r.screens {
		here[i] = s.Here()
	}
	r.ctx.P = p
	r.ctx.Store, r.ctx.StoreErr = store, storeErr
	r.screens = newScreens(r.ctx)
	cmds := make([]tea.Cmd, 0, 3*len(r.screens))
	for i, s := range r.screens {
		cmds = append(cmds, s.Init())
		if r.width > 0 && r.height > 0 {
			s.SetSize(r.width, r.bodyHeight())
			cmds = append(cmds, s.Update(tea.WindowSizeMsg{Width: r.width, Height: r.height}))
		}
		// What a screen says when it opens ("no finding #6") would hide
		// what changed; its errors still show.
		cmds = append(cmds, dropStatus(s.Open(here[i])))
	}
	r.matches = 0
	r.status = note
	return tea.Batch(cmds...)
}

// dropStatus runs a command but discards the StatusMsg it produces,
// looking inside batches.
func dropStatus(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		switch m := cmd().(type) {
		case StatusMsg:
			return nil
		case tea.BatchMsg:
			out := make(tea.BatchMsg, 0, len(m))
			for _, c := range m {
				out = append(out, dropStatus(c))
			}
			return out
		default:
			return m
		}
	}
}

// Idle reports whether no overlay, prompt or text input has the keys, so
// backspace at an empty history may leave the workbench.
func (r *Root) Idle() bool {
	if r.searching || r.prompt != nil || r.palette != nil || r.showHelp {
		return false
	}
	if c, ok := r.screens[r.active].(Capturer); ok && c.Capturing() {
		return false
	}
	return true
}

// Context returns the workbench's shared context.
func (r *Root) Context() *Context { return r.ctx }

// SetStatus shows a transient message on the status line.
func (r *Root) SetStatus(s string) { r.status = s }

// ---- what changed ----------------------------------------------------------

// DescribeChanges says what differs between two loads of a packet, for
// the status line: "review.md and 2 logs changed", and false when nothing
// does. Documents are compared
// by text, the diff by its lines and its size, the registry by its runs and
// the logs by size and modification time.
func DescribeChanges(old, cur *packet.Packet, oldSt, curSt packet.Stamps) (string, bool) {
	var changed, added, removed []string
	seen := map[string]bool{}
	for _, d := range old.Docs {
		seen[d.Path] = true
		switch n := cur.Doc(d.Path); {
		case n == nil:
			removed = append(removed, d.Path)
		case n.Text != d.Text:
			changed = append(changed, d.Path)
		}
	}
	for _, d := range cur.Docs {
		if !seen[d.Path] {
			added = append(added, d.Path)
		}
	}
	switch {
	case old.Diff == nil && cur.Diff != nil:
		added = append(added, packet.DiffPath)
	case old.Diff != nil && cur.Diff == nil:
		removed = append(removed, packet.DiffPath)
	case diffSum(old.Diff) != diffSum(cur.Diff) || oldSt.Diff.Size != curSt.Diff.Size:
		changed = append(changed, packet.DiffPath)
	}
	if reg := registryChange(old.Registry, cur.Registry); reg != "" {
		changed = append(changed, reg)
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
		changed = append(changed, plural(logsChanged, "log"))
	}
	if logsAdded > 0 {
		added = append(added, plural(logsAdded, "log"))
	}
	if logsRemoved > 0 {
		removed = append(removed, plural(logsRemoved, "log"))
	}
	var parts []string
	if len(changed) > 0 {
		parts = append(parts, joinAnd(changed)+" changed")
	}
	if len(added) > 0 {
		parts = append(parts, joinAnd(added)+" added")
	}
	if len(removed) > 0 {
		parts = append(parts, joinAnd(removed)+" removed")
	}
	if len(parts) == 0 {
		return "", false
	}
	return "reloaded: " + strings.Join(parts, "; "), true
}

// registryChange describes how the runs differ: "the registry (1 run
// added, 1 changed)", or "" when they are the same.
func registryChange(old, cur packet.Registry) string {
	if old.Present != cur.Present {
		if cur.Present {
			return "" // the file itself is new: its runs say so below
		}
	}
	byOld := map[int]*packet.Run{}
	for _, r := range old.Runs {
		byOld[r.Seq] = r
	}
	added, altered := 0, 0
	seen := map[int]bool{}
	for _, r := range cur.Runs {
		seen[r.Seq] = true
		o := byOld[r.Seq]
		switch {
		case o == nil:
			added++
		case runKey(o) != runKey(r):
			altered++
		}
	}
	removed := 0
	for _, r := range old.Runs {
		if !seen[r.Seq] {
			removed++
		}
	}
	var parts []string
	if added > 0 {
		parts = append(parts, plural(added, "run")+" added")
	}
	if altered > 0 {
		parts = append(parts, plural(altered, "run")+" changed")
	}
	if removed > 0 {
		parts = append(parts, plural(removed, "run")+" removed")
	}
	if len(parts) == 0 {
		return ""
	}
	return "the registry (" + strings.Join(parts, ", ") + ")"
}

func runKey(r *packet.Run) string {
	exit := "-"
	if r.ExitCode != nil {
		exit = fmt.Sprint(*r.ExitCode)
	}
	return strings.Join([]string{r.Recipe, r.Status, r.Command, r.Log, exit, r.Note, r.Disposition}, "\x00")
}

// diffSum hashes what the diff says: every file's paths and every line.
func diffSum(d *packet.Diff) uint64 {
	h := fnv.New64a()
	if d == nil {
		return 0
	}
	fmt.Fprintf(h, "%d\x00", d.Lines)
	for _, f := range d.Files {
		fmt.Fprintf(h, "%s\x00%s\x00%c\x00%s\x00", f.OldPath, f.NewPath, f.Status, strings.Join(f.Header, "\n"))
		for _, hk := range f.Hunks {
			fmt.Fprintf(h, "@%d,%d,%d,%d\x00", hk.OldStart, hk.OldLines, hk.NewStart, hk.NewLines)
			for _, l := range hk.Lines {
				h.Write([]byte{byte(l.Kind)})
				h.Write([]byte(l.Text))
				h.Write([]byte{0})
			}
		}
	}
	return h.Sum64()
}

// joinAnd joins "a", "b" and "c" as "a, b and c".
func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
