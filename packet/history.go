package packet

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// Round is what vetter saw of one head of a work item: the head SHA, when it
// was first seen, the registry runs and the findings of that round. Rounds
// are kept in the reviewer's state directory beside the triage (rounds.json),
// so a later round can tell what is new without being told where the earlier
// one is.
type Round struct {
	Head      string    `json:"head"`
	FirstSeen time.Time `json:"first_seen"`
	// Runs are the RunKeys of the registry runs first seen in this round.
	Runs []string `json:"runs,omitempty"`
	// Findings maps a finding id to its Fingerprint in this round.
	Findings map[string]string `json:"findings,omitempty"`
}

// History is every round of a work item vetter has seen, oldest first.
type History struct {
	Rounds []Round `json:"rounds"`
}

// RunKey identifies a registry run across rounds: a run carried into a later
// round's registry keeps its recipe, sequence number, log, start time and
// command, so it keeps its key.
func RunKey(r *Run) string {
	h := sha256.New()
	for _, part := range []string{r.Recipe, strconv.Itoa(r.Seq), r.Log, r.StartedAt, r.Command} {
		h.Write([]byte(strings.TrimSpace(part)))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Heads are the head SHAs of every round, oldest first.
func (h *History) Heads() []string {
	if h == nil {
		return nil
	}
	out := make([]string, 0, len(h.Rounds))
	for _, r := range h.Rounds {
		out = append(out, r.Head)
	}
	return out
}

// FirstSeenHead is the head of the round in which vetter first saw the run
// with this key, and whether it has seen it at all.
func (h *History) FirstSeenHead(runKey string) (string, bool) {
	if h == nil {
		return "", false
	}
	for _, r := range h.Rounds {
		for _, k := range r.Runs {
			if k == runKey {
				return r.Head, true
			}
		}
	}
	return "", false
}

// Previous is the latest round whose head is not head, and whether there is
// one: the round a reviewer compares the current one with.
func (h *History) Previous(head string) (Round, bool) {
	if h == nil {
		return Round{}, false
	}
	for i := len(h.Rounds) - 1; i >= 0; i-- {
		if r := h.Rounds[i]; r.Head != head {
			return r, true
		}
	}
	return Round{}, false
}
