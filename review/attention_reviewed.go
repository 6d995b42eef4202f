package review

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"time"

	"github.com/vetter-dev/vetter/packet"
)

type reviewedState struct {
	Version int                          `json:"version"`
	Items   map[string]packet.ReviewMark `json:"items"`
}

// ReviewedPath is where the marks are kept.
func (s *Store) ReviewedPath() string { return filepath.Join(s.Dir, packet.ReviewedFile) }

// ReadReviewed reads the marks; a missing file is no marks.
func (s *Store) ReadReviewed() (map[string]packet.ReviewMark, error) {
	path := s.ReviewedPath()
	var st reviewedState
	if s.readOnly {
		got, err := readOnlyRecord[reviewedState](path)
		if err != nil {
			return nil, err
		}
		st = *got
	} else if _, _, err := readRecord(path, &st); err != nil {
		msg, aside := asSetAside(err)
		if !aside {
			return nil, err
		}
		s.noteRepair(msg)
		st = reviewedState{}
	}
	if st.Items == nil {
		st.Items = map[string]packet.ReviewMark{}
	}
	return st.Items, nil
}

// SetReviewed marks items reviewed (or, with on false, not reviewed) and
// returns every mark now saved. It rereads the file under the folder's lock
// and changes only these items, so two vetters marking different items keep
// both. It does not touch the packet: the caller, which may be a background
// command, hands the result to whoever owns the packet.
func (s *Store) SetReviewed(items []packet.Attention, on bool, user string, now time.Time) (map[string]packet.ReviewMark, error) {
	path := s.ReviewedPath()
	unlock, err := s.lockFolder("saving review marks to " + path)
	if err != nil {
		return nil, err
	}
	defer unlock()
	marks, err := s.ReadReviewed()
	if err != nil {
		return nil, err
	}
	marks = maps.Clone(marks)
	for _, a := range items {
		if !on {
			delete(marks, a.Key)
			continue
		}
		marks[a.Key] = packet.ReviewMark{User: user, Time: stamp(now), Rule: a.Rule, Path: a.Path, Text: a.Text}
	}
	data, err := json.MarshalIndent(reviewedState{Version: 1, Items: marks}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("saving review marks to %s: %w", path, err)
	}
	if len(data) >= recordLimit {
		return nil, fmt.Errorf("saving review marks to %s: %d marks would make it larger than the %d MiB vetter reads; nothing was saved", path, len(marks), recordLimit>>20)
	}
	if err := writeStateFile(path, append(data, '\n')); err != nil {
		return nil, fmt.Errorf("saving review marks to %s: %w", path, err)
	}
	return marks, nil
}
