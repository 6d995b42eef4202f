package views

import (
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"strings"
	"time"

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

// Stamps are the size and modification time of each log and of
// change.diff, taken when a packet is loaded, so a reload can tell which
// changed without holding their bytes.
type Stamps struct {
	Logs map[string]fileStamp
	Diff fileStamp
}

type fileStamp struct {
	size int64
	mod  time.Time
	sum  uint64 // logSum of the bytes, so a rewrite with the same bytes is no change
}

// differs: a new size, or a new time and new bytes. A file written again
// byte for byte (a copy, a checkout) is not reported as changed.
func (a fileStamp) differs(b fileStamp) bool {
	return a.size != b.size || (!a.mod.Equal(b.mod) && a.sum != b.sum)
}

// StampFiles stats every log of a packet and its diff.
func StampFiles(p *packet.Packet) Stamps {
	out := Stamps{Logs: make(map[string]fileStamp, len(p.Logs))}
	for _, l := range p.Logs {
		st := fileStamp{size: l.Size}
		if fi, err := fs.Stat(p.FS, l.Path); err == nil {
			st.size, st.mod = fi.Size(), fi.ModTime()
			st.sum = logSum(p.FS, l.Path, st.size)
		}
		out.Logs[l.Path] = st
	}
	if fi, err := fs.Stat(p.FS, packet.DiffPath); err == nil {
		out.Diff = fileStamp{size: fi.Size(), mod: fi.ModTime()}
	}
	return out
}

// noChange is what DescribeChanges says when the packet is the same.
const noChange = "reloaded: nothing in the packet changed"

// DescribeChanges says what differs between two loads of a packet, for
// the status line: "review.md and 2 logs changed". Documents are compared
// by text, the diff by its lines and its size, the registry by its runs and
// the logs by size and modification time.
func DescribeChanges(old, cur *packet.Packet, oldSt, curSt Stamps) string {
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
	case diffSum(old.Diff) != diffSum(cur.Diff) || oldSt.Diff.size != curSt.Diff.size:
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
		case o.differs(st):
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
		return noChange
	}
	return "reloaded: " + strings.Join(parts, "; ")
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

// staleCount counts the findings whose decision was made on another text.
func staleCount(p *packet.Packet) int {
	n := 0
	for _, f := range p.Findings {
		if _, stale, _ := p.TriageOf(f); stale {
			n++
		}
	}
	return n
}

// carryTriage gives a reloaded packet the decisions of the one it replaces
// when it found none of its own: its triage lives outside the packet
// (an archive or a read-only folder) under an identity that includes the
// head SHA, so a new head would otherwise start empty. Decisions are by
// finding id and fingerprint, so a finding whose text changed shows stale.
func carryTriage(old, cur *packet.Packet) {
	if old.Triage == nil || (len(old.Triage.Findings) == 0 && old.Triage.Gate == nil) {
		return
	}
	if cur.Triage != nil && (len(cur.Triage.Findings) > 0 || cur.Triage.Gate != nil) {
		return
	}
	st := &packet.TriageState{Version: old.Triage.Version, Findings: make(map[string]*packet.Decision, len(old.Triage.Findings))}
	if cur.Triage != nil {
		st.Where = cur.Triage.Where
	}
	for id, d := range old.Triage.Findings {
		if d != nil {
			c := *d
			st.Findings[id] = &c
		}
	}
	if old.Triage.Gate != nil {
		g := *old.Triage.Gate
		g.GateFailing = append([]string(nil), old.Triage.Gate.GateFailing...)
		st.Gate = &g
	}
	cur.Triage = st
}

// logSumWhole is the size up to which a log is summed whole; a larger one
// is summed by its first and last logSumEnd bytes, which a log that grew or
// was rewritten differs in, at the cost of one read of each end.
const (
	logSumWhole = 1 << 20
	logSumEnd   = 64 << 10
)

// logSum is an FNV-1a sum of a log's bytes (its ends, when large); 0 when
// it cannot be read, which then counts as a change if the time moved.
func logSum(fsys fs.FS, path string, size int64) uint64 {
	f, err := fsys.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	h := fnv.New64a()
	if size <= logSumWhole {
		if _, err := io.Copy(h, f); err != nil {
			return 0
		}
		return h.Sum64()
	}
	ra, ok := f.(io.ReaderAt)
	if !ok {
		return 0
	}
	buf := make([]byte, logSumEnd)
	for _, off := range []int64{0, size - logSumEnd} {
		n, err := ra.ReadAt(buf, off)
		if err != nil && err != io.EOF {
			return 0
		}
		h.Write(buf[:n])
	}
	return h.Sum64()
}
