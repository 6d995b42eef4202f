package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/internal/packettest"
	"github.com/vetter-dev/vetter/packet"
)

// What `vetter summary` prints for round 2 once round 1 is known: the gate
// is not ready and says which recipes ran on the old head, in every format.
func TestSummaryRound2StaleEvidence(t *testing.T) {
	p1 := packet.LoadSample(packet.Options{})
	p2 := packettest.Round2(t)
	seen := map[string]bool{}
	p2.History = &packet.History{Rounds: []packet.Round{roundOf(p1, seen), roundOf(p2, seen)}}
	s := Summarize(p2)
	var text, md, js bytes.Buffer
	s.WriteText(&text)
	s.WriteMarkdown(&md)
	if err := s.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	stale := "02-lint, 03-python-unit-tests and 00-go-toolchain-setup last ran on 1bb1c70; the head is 5e2f0c7"
	for name, want := range map[string]string{
		"text":     "✗ evidence-current   " + stale,
		"markdown": "- [ ] `evidence-current` — " + stale,
		"json":     `"name": "evidence-current",` + "\n        \"ok\": false,\n        \"detail\": \"" + stale + `"`,
	} {
		got := map[string]string{"text": text.String(), "markdown": md.String(), "json": js.String()}[name]
		if !strings.Contains(got, want) {
			t.Errorf("%s summary lacks %q:\n%s", name, want, got)
		}
	}
	if s.Gate.Ready {
		t.Error("round 2's summary says the gate is ready")
	}
	if testing.Verbose() {
		t.Logf("vetter summary of round 2 with round 1 known:\n%s", text.String())
	}
}
