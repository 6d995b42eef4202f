package review

import "github.com/vetter-dev/vetter/packet"

// StaleCount counts the findings whose decision was made on another text.
func StaleCount(p *packet.Packet) int {
	n := 0
	for _, f := range p.Findings {
		if _, stale, _ := TriageOf(p, f); stale {
			n++
		}
	}
	return n
}

// CarryTriage gives a reloaded packet the decisions of the one it replaces
// until its store is opened (in a command) and reads them from the
// reviewer's state; a finding whose text changed shows its decision stale.
func CarryTriage(old, cur *packet.Packet) {
	if old.Triage == nil || (len(old.Triage.Findings) == 0 && old.Triage.Gate == nil) {
		return
	}
	if cur.Triage != nil && (len(cur.Triage.Findings) > 0 || cur.Triage.Gate != nil) {
		return
	}
	st := clone(old.Triage)
	st.Where = ""
	if cur.Triage != nil {
		st.Where = cur.Triage.Where
	}
	cur.Triage = st
}
