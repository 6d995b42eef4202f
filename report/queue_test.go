package report

import (
	"testing"

	"github.com/vetter-dev/vetter/packet"
)

func TestAwaitingRule(t *testing.T) {
	head := "7e2d4b6f8a0c1e3d5f7b9a2c4e6d8f0b1a3c5e7d"
	ok := func(sha string) *packet.OriginOkToTest { return &packet.OriginOkToTest{SHA: sha, By: "dana"} }
	for _, c := range []struct {
		name        string
		last        *packet.OriginOkToTest
		marker, all bool
		want        bool
	}{
		{"marker, never vetted", nil, true, false, true},
		{"no marker, never vetted", nil, false, false, false},
		{"no marker, --all", nil, false, true, true},
		{"vetted at the head", ok(head), true, true, false},
		{"a short SHA of the head counts", ok("7e2d4b6"), true, false, false},
		{"vetted for an older head", ok("1f0c3a9"), true, false, true},
		{"too short to name anything", ok("7e2d"), true, false, true},
	} {
		if got := Awaiting(c.last, head, c.marker, c.all); got != c.want {
			t.Errorf("%s: Awaiting = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestQueueClasses(t *testing.T) {
	head := "7e2d4b6f8a0c1e3d5f7b9a2c4e6d8f0b1a3c5e7d"
	for _, c := range []struct {
		name string
		row  QueueRow
		want string
	}{
		{"ready", QueueRow{Marker: true, Packet: true, GateReady: true}, QueueReady},
		{"failing CI is work", QueueRow{Marker: true, Packet: true, GateReady: true, CI: packet.OriginCI{Failure: 1}}, QueueWork},
		{"no packet is work", QueueRow{Marker: true}, QueueWork},
		{"moved", QueueRow{OkToTest: &packet.OriginOkToTest{SHA: "1f0c3a9"}}, QueueMoved},
		{"vetted", QueueRow{Marker: true, OkToTest: &packet.OriginOkToTest{SHA: head[:7]}}, QueueVetted},
		{"other", QueueRow{}, QueueOther},
		{"draft wins", QueueRow{Draft: true, Marker: true, Packet: true, GateReady: true}, QueueDraft},
	} {
		r := c.row
		r.HeadSHA = head
		r.Settle(false)
		if r.Class != c.want {
			t.Errorf("%s: class %s, want %s", c.name, r.Class, c.want)
		}
	}
	a := &QueueRow{Class: QueueWork, CreatedAt: "2026-11-25T00:00:00Z", Number: 9}
	b := &QueueRow{Class: QueueWork, CreatedAt: "2026-11-28T00:00:00Z", Number: 3}
	r := &QueueRow{Class: QueueReady, CreatedAt: "2026-11-30T00:00:00Z"}
	if CompareQueueRows(a, b) >= 0 || CompareQueueRows(r, a) >= 0 {
		t.Error("ready first, then the oldest first within a class")
	}
}
