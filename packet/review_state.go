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
	// Registry is the content keys (RunContentKey) of every run of the
	// round's registry: a run found unchanged in an older round's registry
	// ran on that round's head or before.
	Registry []string `json:"registry,omitempty"`
	// Findings maps a finding id to its Fingerprint in this round.
	Findings map[string]string `json:"findings,omitempty"`
	// Snapshot is the copy of the round's documents, diff and registry,
	// relative to the work item's state folder ("" when none was kept).
	Snapshot string `json:"snapshot,omitempty"`
	// FindingsOmitted and RunsOmitted count the fingerprints and runs past
	// what one round keeps (boundRounds).
	FindingsOmitted int `json:"findings_omitted,omitempty"`
	RunsOmitted     int `json:"runs_omitted,omitempty"`
}

// History is every round of a work item vetter has seen, oldest first.
type History struct {
	Rounds []Round `json:"rounds"`
	// Summarised counts the oldest rounds no longer kept (boundRounds).
	Summarised int `json:"summarised,omitempty"`
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

// Previous is the round a reviewer compares the one with this head with:
// the latest round first seen before it (the latest of all when head was
// never seen), and whether there is one.
func (h *History) Previous(head string) (Round, bool) {
	if h == nil {
		return Round{}, false
	}
	end := len(h.Rounds)
	for i, r := range h.Rounds {
		if r.Head == head {
			end = i
			break
		}
	}
	for i := end - 1; i >= 0; i-- {
		if r := h.Rounds[i]; r.Head != head {
			return r, true
		}
	}
	return Round{}, false
}

// RoundOf is the 1-based number of the round with this head among the rounds
// seen, and how many there are; 0 when the head was never seen.
func (h *History) RoundOf(head string) (n, of int) {
	if h == nil {
		return 0, 0
	}
	head = strings.ToLower(head)
	for i, r := range h.Rounds {
		if r.Head == head {
			n = i + 1
		}
	}
	return n, len(h.Rounds)
}

// ReviewedFile holds the reviewer's "looked at" marks on attention items,
// beside triage.json in the work item's state folder: like triage, it is the
// reviewer's and never the packet's, and every round of the work item sees
// it. Marks are keyed by Attention.Key (rule, path and the line's text), so
// a line that moved keeps its mark and a line whose text changed loses it.
const ReviewedFile = "reviewed.json"

// ReviewMark says who marked an item reviewed and when.
type ReviewMark struct {
	User string    `json:"user,omitempty"`
	Time time.Time `json:"time"`
	// Rule, Path and Text describe the item for a person reading the file.
	Rule string `json:"rule,omitempty"`
	Path string `json:"path,omitempty"`
	Text string `json:"text,omitempty"`
}

// RoundsFile keeps the rounds of a work item vetter has seen, beside
// triage.json in the reviewer's state directory.
const RoundsFile = "rounds.json"

// DecisionsFile is the append-only log of gate decisions, kept beside triage.json.
const DecisionsFile = "decisions.jsonl"
