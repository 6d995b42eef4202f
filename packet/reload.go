package packet

import (
	"io/fs"
	"time"
)

// What a reload of a packet needs to know of the load before it. Moved
// from views/reload.go as they were.

// Stamps are the size and modification time of each log and of
// change.diff, taken when a packet is loaded, so a reload can tell which
// changed without holding their bytes.
type Stamps struct {
	Logs map[string]FileStamp
	Diff FileStamp
}

// FileStamp is one file's size and modification time.
type FileStamp struct {
	Size int64
	Mod  time.Time
}

// Differs reports whether the file changed between the two stamps.
func (a FileStamp) Differs(b FileStamp) bool { return a.Size != b.Size || !a.Mod.Equal(b.Mod) }

// StampFiles stats every log of a packet and its diff.
func StampFiles(p *Packet) Stamps {
	out := Stamps{Logs: make(map[string]FileStamp, len(p.Logs))}
	for _, l := range p.Logs {
		st := FileStamp{Size: l.Size}
		if fi, err := fs.Stat(p.FS, l.Path); err == nil {
			st.Size, st.Mod = fi.Size(), fi.ModTime()
		}
		out.Logs[l.Path] = st
	}
	if fi, err := fs.Stat(p.FS, DiffPath); err == nil {
		out.Diff = FileStamp{Size: fi.Size(), Mod: fi.ModTime()}
	}
	return out
}

// StaleCount counts the findings whose decision was made on another text.
func StaleCount(p *Packet) int {
	n := 0
	for _, f := range p.Findings {
		if _, stale, _ := p.TriageOf(f); stale {
			n++
		}
	}
	return n
}

// CarryTriage gives a reloaded packet the decisions of the one it replaces
// when it found none of its own: its triage lives outside the packet
// (an archive or a read-only folder) under an identity that includes the
// head SHA, so a new head would otherwise start empty. Decisions are by
// finding id and fingerprint, so a finding whose text changed shows stale.
func CarryTriage(old, cur *Packet) {
	if old.Triage == nil || (len(old.Triage.Findings) == 0 && old.Triage.Gate == nil) {
		return
	}
	if cur.Triage != nil && (len(cur.Triage.Findings) > 0 || cur.Triage.Gate != nil) {
		return
	}
	st := &TriageState{Version: old.Triage.Version, Findings: make(map[string]*Decision, len(old.Triage.Findings))}
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
