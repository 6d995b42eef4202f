package packet

// originChecks adds the gate checks only the origin can answer.
func (p *Packet) originChecks(add func(name string, ok bool, detail string)) {
	o := p.Origin
	if o == nil || o.HeadSHA == "" {
		return
	}
	if o.Kind == OriginKindPR {
		ok, detail := o.CI.Check()
		add(CheckCI, ok, detail)
	}
	if !o.Moved() {
		add(CheckPacketCurrent, true, o.HeadLine())
		return
	}
	f := p.Finding(o.AfterID())
	if f != nil {
		if state, stale, _ := p.TriageOf(f); state == TriageAccepted && !stale {
			add(CheckPacketCurrent, true, o.HeadLine()+"; the commits after it were reviewed")
			return
		}
	}
	if o.PacketHeadFrom == PacketHeadFromRecord && len(o.CommitsAfterPacket) > 0 {
		add(CheckPacketCurrent, false, o.HeadLine()+": "+o.afterNames()+"; review them and accept "+o.AfterID())
		return
	}
	add(CheckPacketCurrent, false, o.HeadLine()+"; review them and accept "+o.AfterID())
}

// logsIntactFromOrigin is the logs-intact check of a packet whose registry
// is an evidence record: there are no logs to check.
func (p *Packet) logsIntactFromOrigin() (detail string, ok bool) {
	if p.Origin == nil || !p.Origin.EvidenceRecordOnly {
		return "", false
	}
	return "not checkable: the PR carries the evidence record, not the logs", true
}
