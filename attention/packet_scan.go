package attention

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/packet/source"
)

func init() { packet.RegisterAttentionScanner(ScanPacket) }

// PinsFile is where a packet read from a pull request keeps GitHub's
// answers about the actions its diff pins to a commit (written by
// github.Open beside pr.json): the scan stays off the network and reads
// them, and a packet without the file says its pins were not checked.
const PinsFile = "pins.json"

// Pin is GitHub's answer about one pinned action.
type Pin struct {
	Owner  string `json:"owner"`
	Repo   string `json:"repo"`
	SHA    string `json:"sha"`
	InRepo bool   `json:"in_repo"`
	// Error says why GitHub could not answer; InRepo is then meaningless.
	Error string `json:"error,omitempty"`
}

// ScanPacket scans d, a diff of p, and answers its pinned actions from the
// packet's pins.json when there is one.
func ScanPacket(p *packet.Packet, d *packet.Diff) []Item {
	items := Scan(d)
	if p == nil || p.FS == nil {
		return items
	}
	data, _, err := source.ReadCapped(p.FS, PinsFile, 4<<20)
	if err != nil || len(data) == 0 {
		return items
	}
	var pins []Pin
	if json.Unmarshal(data, &pins) != nil {
		return items
	}
	return CheckPins(context.Background(), items, answered(pins))
}

// answered is a CommitChecker that replays recorded answers.
type answered []Pin

func (a answered) CommitInRepo(_ context.Context, owner, repo, sha string) (bool, error) {
	for _, p := range a {
		if strings.EqualFold(p.Owner, owner) && strings.EqualFold(p.Repo, repo) && commitid.Same(p.SHA, sha) {
			if p.Error != "" {
				return false, errors.New(p.Error)
			}
			return p.InRepo, nil
		}
	}
	return false, errors.New("GitHub was not asked about it")
}
