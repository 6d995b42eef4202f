package review

import "github.com/vetter-dev/vetter/packet"

// originChecks adds the gate checks only the origin can answer.
func originChecks(p *packet.Packet, add func(name string, ok bool, detail string)) {
	o := p.Origin
	if o == nil || o.HeadSHA == "" {
		return
	}
	if o.Kind == packet.OriginKindPR {
		ok, detail := o.CI.Check()
		add(packet.CheckCI, ok, detail)
	}
	if !o.Moved() {
		add(packet.CheckPacketCurrent, true, o.HeadLine())
		return
	}
	f := p.Finding(o.AfterID())
	if f != nil {
		if state, stale, _ := TriageOf(p, f); state == packet.TriageAccepted && !stale {
			add(packet.CheckPacketCurrent, true, o.HeadLine()+"; the commits after it were reviewed")
			return
		}
	}
	if o.PacketHeadFrom == packet.PacketHeadFromRecord && len(o.CommitsAfterPacket) > 0 {
		add(packet.CheckPacketCurrent, false, o.HeadLine()+": "+o.AfterNames()+"; review them and accept "+o.AfterID())
		return
	}
	add(packet.CheckPacketCurrent, false, o.HeadLine()+"; review them and accept "+o.AfterID())
}

// logsIntactFromOrigin is the logs-intact check of a packet whose registry
// is an evidence record: there are no logs to check.
func logsIntactFromOrigin(p *packet.Packet) (detail string, ok bool) {
	if p.Origin == nil || !p.Origin.EvidenceRecordOnly {
		return "", false
	}
	return "not checkable: the PR carries the evidence record, not the logs", true
}
