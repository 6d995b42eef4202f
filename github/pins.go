package github

import (
	"context"
	"encoding/json"

	"github.com/vetter-dev/vetter/attention"
	"github.com/vetter-dev/vetter/packet"
)

// maxPins bounds the actions one read asks GitHub about; the rest stay
// "not checked" on the decision screen.
const maxPins = 20

// askPins asks GitHub, while the client is at hand, whether each action the
// diffs newly pin to a commit is in its repository (an impostor commit is
// not), and keeps the answers in pins.json: the attention scan reads them
// there and never touches the network, and a packet read offline, or before
// this existed, says its pins were not checked.
func (b *built) askPins(ctx context.Context, c *Client) {
	var pins []attention.Pin
	for _, name := range []string{packet.DiffPath, packet.AfterPacketDiff} {
		data, ok := b.files[name]
		if !ok {
			continue
		}
		d, _ := packet.ParseDiff(data)
		pins = append(pins, attention.PinnedActions(d)...)
	}
	if len(pins) == 0 {
		return
	}
	answers := attention.AskPins(ctx, pins, c, maxPins)
	if data, err := json.MarshalIndent(answers, "", "  "); err == nil {
		b.files[attention.PinsFile] = append(data, '\n')
	}
}
