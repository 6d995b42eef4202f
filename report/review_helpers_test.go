package report

import (
	"path/filepath"
	"time"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
)

var t0 = time.Date(2026, 10, 15, 9, 0, 0, 0, time.UTC)

// roundOf is what vetter would have recorded for a round: its head and the
// keys of the runs it saw first.
func roundOf(p *packet.Packet, seen map[string]bool) packet.Round {
	r := packet.Round{Head: p.Change.HeadSHA, Registry: review.RegistryKeys(p)}
	for _, run := range p.Registry.Runs {
		if k := packet.RunKey(run); !seen[k] {
			seen[k] = true
			r.Runs = append(r.Runs, k)
		}
	}
	return r
}

func dyn3726(round string) string { return filepath.Join("..", "testdata", "dyn-3726", round) }
