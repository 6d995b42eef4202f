package review

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vetter-dev/vetter/packet"
)

// ImportReport says what an import took and what it left.
type ImportReport struct {
	// Imported are the findings that took a decision from the file.
	Imported []string
	// Kept are the findings that already had a current decision of the
	// reviewer's own, which an import never replaces.
	Kept []string
	// Unmatched counts decisions in the file on no finding of this round
	// (a finding whose text changed, or one this round does not have).
	Unmatched int
	// GateSkipped is set when the file held a gate decision: that is the
	// reviewer's own act, never imported.
	GateSkipped bool
}

// Import takes another reviewer's triage (a triage.json, as vetter writes
// it) as the reviewer's explicit act: each decision is matched to this
// round's findings by fingerprint, recorded as made by user now, and keeps
// where it came from (file, who decided it, when). A finding the reviewer
// already decided keeps their decision; a gate decision is never imported.
func (s *Store) Import(data []byte, file, user string, now time.Time) (ImportReport, MergeReport, error) {
	var rep ImportReport
	var in packet.TriageState
	if err := json.Unmarshal(data, &in); err != nil {
		return rep, MergeReport{}, fmt.Errorf("importing %s: not a triage file vetter wrote: %v", file, err)
	}
	rep.GateSkipped = in.Gate != nil
	byFP := map[string]*packet.Finding{}
	for _, f := range s.p.Findings {
		byFP[packet.Fingerprint(f)] = f
	}
	now = stamp(now)
	ids := make([]string, 0, len(in.Findings))
	for id := range in.Findings {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, packet.CompareFindingIDs)
	merge, err := s.save(func(st *packet.TriageState) error {
		for _, id := range ids {
			d := in.Findings[id]
			if d == nil || d.State == "" || d.State == packet.TriageOpen {
				continue
			}
			switch d.State {
			case packet.TriageAccepted, packet.TriageDismissed, packet.TriageDeferred:
			default:
				return fmt.Errorf("importing %s: %s has %q: %w", file, id, d.State, ErrBadState)
			}
			f := byFP[d.Fingerprint]
			if f == nil {
				rep.Unmatched++
				continue
			}
			if own := st.Findings[f.ID]; own != nil && own.State != packet.TriageOpen && own.Fingerprint == d.Fingerprint {
				rep.Kept = append(rep.Kept, f.ID)
				continue
			}
			if d.State == packet.TriageDismissed && strings.TrimSpace(d.Note) == "" {
				rep.Unmatched++ // a dismissal with no reason is not a decision vetter records
				continue
			}
			st.Findings[f.ID] = &packet.Decision{State: d.State, Note: d.Note, Time: now, User: user,
				Fingerprint: d.Fingerprint, Imported: &packet.ImportedFrom{File: file, By: d.User, At: d.Time}}
			rep.Imported = append(rep.Imported, f.ID)
		}
		return nil
	}, nil)
	if err != nil {
		return ImportReport{}, merge, err
	}
	return rep, merge, nil
}
