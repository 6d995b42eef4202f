package packet

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"time"
)

// ReviewedFile holds the reviewer's "looked at" marks on attention items,
// beside triage.json in the work item's state folder: like triage, it is the
// reviewer's and never the packet's, and every round of the work item sees
// it. Marks are keyed by Attention.Key (rule, path and the line's text), so
// a line that moved keeps its mark and a line whose text changed loses it.
const ReviewedFile = "reviewed.json"

// reviewedLimit caps how much of reviewed.json is read.
const reviewedLimit = 16 << 20

// ReviewMark says who marked an item reviewed and when.
type ReviewMark struct {
	User string    `json:"user,omitempty"`
	Time time.Time `json:"time"`
	// Rule, Path and Text describe the item for a person reading the file.
	Rule string `json:"rule,omitempty"`
	Path string `json:"path,omitempty"`
	Text string `json:"text,omitempty"`
}

type reviewedState struct {
	Version int                   `json:"version"`
	Items   map[string]ReviewMark `json:"items"`
}

// ReviewedPath is where the marks are kept.
func (s *Store) ReviewedPath() string { return filepath.Join(s.dir, ReviewedFile) }

// ReadReviewed reads the marks; a missing file is no marks.
func (s *Store) ReadReviewed() (map[string]ReviewMark, error) {
	path := s.ReviewedPath()
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]ReviewMark{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("reading %s: not a regular file (a link or device); vetter will not read or replace it", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, reviewedLimit+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(data) > reviewedLimit {
		return nil, fmt.Errorf("reading %s: larger than %d MiB; vetter did not write this", path, reviewedLimit>>20)
	}
	var st reviewedState
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("reading %s: %v; fix or move the file, vetter will not overwrite it", path, err)
	}
	if st.Items == nil {
		st.Items = map[string]ReviewMark{}
	}
	return st.Items, nil
}

// SetReviewed marks items reviewed (or, with on false, not reviewed) and
// returns every mark now saved. It rereads the file under the folder's lock
// and changes only these items, so two vetters marking different items keep
// both. It does not touch the packet: the caller, which may be a background
// command, hands the result to whoever owns the packet.
func (s *Store) SetReviewed(items []Attention, on bool, user string, now time.Time) (map[string]ReviewMark, error) {
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
		marks[a.Key] = ReviewMark{User: user, Time: stamp(now), Rule: a.Rule, Path: a.Path, Text: a.Text}
	}
	data, err := json.MarshalIndent(reviewedState{Version: 1, Items: marks}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("saving review marks to %s: %w", path, err)
	}
	if err := writeStateFile(path, append(data, '\n')); err != nil {
		return nil, fmt.Errorf("saving review marks to %s: %w", path, err)
	}
	return marks, nil
}
