package review

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
)

// recordLimit is the size of every JSON record of the reviewer's state
// (triage.json, rounds.json, reviewed.json): vetter reads no more than it
// writes, and writes no more than it reads. A write that would pass it is
// summarised first (boundRounds, boundTriage), so nothing a packet holds can
// make a record vetter then refuses to read.
const recordLimit = 16 << 20

// The summaries that keep a record under recordLimit. Rounds and per-finding
// history are what a reviewer reads least; the journal, the latest triage
// and the gate decision are never summarised.
const (
	// maxRounds is how many rounds of a work item rounds.json keeps whole.
	// A work item that went round a hundred times is compared with its
	// last few; the older ones are counted.
	maxRounds = 100
	// maxRoundRuns is how many registry runs one round remembers.
	maxRoundRuns = 1_000
	// maxNoteBytes is how much of one finding's note is kept: notes two
	// writers made are joined on merge, and that history is cut, oldest
	// part first, past 16 KiB.
	maxNoteBytes = 16 << 10
)

// errRecordTooLarge is a record larger than recordLimit: not one vetter wrote.
var errRecordTooLarge = fmt.Errorf("larger than %d MiB, more than vetter ever writes", recordLimit>>20)

// loadRecord reads one JSON record of the reviewer's state into v, with
// no side effect. A missing file leaves v alone (found false). A record
// that is not a regular file is an error: it is neither read nor replaced.
// A record too large or not understood is returned as bad, v left alone.
func loadRecord(name string, v any) (found bool, bad, err error) {
	fi, err := os.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil, nil
	}
	if err != nil {
		return false, nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if !fi.Mode().IsRegular() {
		return false, nil, fmt.Errorf("reading %s: not a regular file (a link or device); vetter will not read or replace it", name)
	}
	f, err := os.Open(name)
	if err != nil {
		return false, nil, fmt.Errorf("reading %s: %w", name, err)
	}
	data, err := io.ReadAll(io.LimitReader(f, recordLimit+1))
	f.Close()
	if err != nil {
		return false, nil, fmt.Errorf("reading %s: %w", name, err)
	}
	switch {
	case len(data) > recordLimit:
		return true, errRecordTooLarge, nil
	case len(strings.TrimSpace(string(data))) == 0:
		return true, nil, nil
	}
	return true, json.Unmarshal(data, v), nil
}

// readRecord is loadRecord for a store that may write: a record too large
// or not understood is set aside beside itself under a name that says
// when, so that nothing is lost and vetter starts a new one; the error
// (a *setAsideError) names it. When it cannot be set aside (a read-only
// disk), the error says so and the file stays as it was.
func readRecord(name string, v any) (found bool, aside string, err error) {
	found, bad, err := loadRecord(name, v)
	if err != nil || bad == nil {
		return found, "", err
	}
	aside, err = setAside(name)
	if err != nil {
		return false, "", fmt.Errorf("reading %s: %v; and setting it aside to start a new one: %w", name, bad, err)
	}
	return false, aside, &setAsideError{name: name, aside: aside, why: bad}
}

// readOnlyRecord reads a record for a listing that writes nothing; a record
// that cannot be read is an error naming it (set aside when the work item
// is next opened).
func readOnlyRecord[T any](name string) (*T, error) {
	v := new(T)
	_, bad, err := loadRecord(name, v)
	if err != nil {
		return nil, err
	}
	if bad != nil {
		return nil, fmt.Errorf("reading %s: %v; vetter sets it aside and starts a new one when the work item is next opened", name, bad)
	}
	return v, nil
}

// refusedWrite reports whether err is the disk refusing a write (full,
// read-only, over quota, not permitted), as opposed to a record that is
// wrong: a reading command carries on past the first, never the second.
func refusedWrite(err error) bool {
	for _, e := range []error{syscall.ENOSPC, syscall.EROFS, syscall.EACCES, syscall.EPERM, syscall.EDQUOT, fs.ErrPermission} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// rootCause is the innermost error, for a status line that has no room for
// every layer that wrapped it.
func rootCause(err error) error {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err
		}
		err = u
	}
}

// noteUnsaved records that something opening found could not be written.
func (s *Store) noteUnsaved(msg string) {
	s.repairMu.Lock()
	if !slices.Contains(s.unsaved, msg) {
		s.unsaved = append(s.unsaved, msg)
	}
	s.repairMu.Unlock()
}

// Unsaved says what opening could not write because the disk refused it
// (full, read-only): the packet is shown all the same, and this is the
// status line's to say. "" when everything was saved.
func (s *Store) Unsaved() string {
	s.repairMu.Lock()
	defer s.repairMu.Unlock()
	return strings.Join(s.unsaved, "; ")
}

// setAsideError says that a record could not be read and where it now is.
// Callers note it for the person and carry on with a new record.
type setAsideError struct {
	name, aside string
	why         error
}

func (e *setAsideError) Error() string {
	return fmt.Sprintf("%s could not be read (%v); it was set aside as %s and a new one started", e.name, e.why, filepath.Base(e.aside))
}

// asSetAside reports whether err is a record set aside, and its message.
func asSetAside(err error) (string, bool) {
	var sa *setAsideError
	if errors.As(err, &sa) {
		return sa.Error(), true
	}
	return "", false
}

// setAside renames a record that cannot be read to NAME.unreadable-TIME
// beside it, so a new one can start without the old one being lost.
func setAside(name string) (string, error) {
	stamp := time.Now().UTC().Format("20060102T150405.000000000Z")
	aside := name + ".unreadable-" + stamp
	if err := os.Rename(name, aside); err != nil {
		return "", err
	}
	if err := syncDir(filepath.Dir(name)); err != nil {
		return aside, err
	}
	return aside, nil
}

// boundRounds keeps a work item's rounds within what rounds.json holds:
// the latest maxRounds rounds whole, each with at most MaxFindings
// fingerprints and maxRoundRuns runs; then, while the record would still be
// larger than limit, half of the older rounds again. The current round
// (head) is always kept. It says what it summarised, or "".
func boundRounds(h *packet.History, head string, limit int) (string, error) {
	var said []string
	if drop := len(h.Rounds) - maxRounds; drop > 0 {
		h.Rounds = keepRound(h.Rounds[drop:], h.Rounds[:drop], head)
		h.Summarised += drop
		said = append(said, fmt.Sprintf("%s older rounds are counted, not kept", text.Thousands(int64(drop))))
	}
	for i := range h.Rounds {
		r := &h.Rounds[i]
		if n := len(r.Findings) - packet.MaxFindings; n > 0 {
			ids := make([]string, 0, len(r.Findings))
			for id := range r.Findings {
				ids = append(ids, id)
			}
			slices.SortFunc(ids, packet.CompareFindingIDs)
			for _, id := range ids[packet.MaxFindings:] {
				delete(r.Findings, id)
			}
			r.FindingsOmitted += n
			said = append(said, fmt.Sprintf("round %s keeps the fingerprints of its first %s findings", shortHead(r.Head), text.Thousands(packet.MaxFindings)))
		}
		if n := len(r.Runs) - maxRoundRuns; n > 0 {
			r.Runs = r.Runs[:maxRoundRuns]
			r.RunsOmitted += n
			said = append(said, fmt.Sprintf("round %s keeps its first %s runs", shortHead(r.Head), text.Thousands(maxRoundRuns)))
		}
	}
	for {
		data, err := json.Marshal(h)
		if err != nil {
			return "", err
		}
		if len(data)*2 <= limit || len(h.Rounds) <= 1 {
			// Half the limit leaves room for the indentation vetter
			// writes with.
			break
		}
		drop := len(h.Rounds) / 2
		h.Rounds = keepRound(h.Rounds[drop:], h.Rounds[:drop], head)
		h.Summarised += drop
		said = append(said, fmt.Sprintf("%s older rounds are counted, not kept, to keep %s under %d MiB", text.Thousands(int64(drop)), packet.RoundsFile, limit>>20))
	}
	return strings.Join(said, "; "), nil
}

// keepRound returns kept, with the round of head moved back in from
// dropped when it was there.
func keepRound(kept, dropped []packet.Round, head string) []packet.Round {
	for _, r := range dropped {
		if r.Head == head && head != "" {
			return append([]packet.Round{r}, kept...)
		}
	}
	return kept
}

func shortHead(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	if h == "" {
		return "(no head)"
	}
	return h
}

// boundTriage keeps triage.json within limit: a note past maxNoteBytes
// keeps its latest part; then, while the record is still too large, the
// decisions on findings the packet no longer has go, oldest first. The gate
// decision and every decision on a current finding stay. It says what it
// summarised, or "", and fails when even that does not fit.
func boundTriage(st *packet.TriageState, current func(id string) bool, limit int) (string, error) {
	var said []string
	cut := 0
	for _, d := range st.Findings {
		if len(d.Note) > maxNoteBytes {
			d.Note = "⟪earlier notes cut⟫ " + validTail(d.Note, maxNoteBytes)
			cut++
		}
	}
	if cut > 0 {
		said = append(said, fmt.Sprintf("%s notes longer than %s keep their latest part", text.Thousands(int64(cut)), text.Bytes(maxNoteBytes)))
	}
	size := func() (int, error) {
		data, err := marshalTriage(st)
		return len(data), err
	}
	n, err := size()
	if err != nil {
		return "", err
	}
	if n <= limit {
		return strings.Join(said, "; "), nil
	}
	var gone []string
	for id := range st.Findings {
		if !current(id) {
			gone = append(gone, id)
		}
	}
	slices.SortFunc(gone, func(a, b string) int { return st.Findings[a].Time.Compare(st.Findings[b].Time) })
	dropped := 0
	for len(gone) > 0 && n > limit {
		// Drop a tenth at a time: measuring after each would be quadratic.
		k := max(len(gone)/10, 1)
		for _, id := range gone[:k] {
			delete(st.Findings, id)
		}
		gone, dropped = gone[k:], dropped+k
		if n, err = size(); err != nil {
			return "", err
		}
	}
	if dropped > 0 {
		st.Summarised += dropped
		said = append(said, fmt.Sprintf("%s decisions on findings no longer in the packet were dropped, oldest first", text.Thousands(int64(dropped))))
	}
	if n > limit {
		return "", fmt.Errorf("%s would be larger than %d MiB even with only the current findings' decisions", packet.TriageFile, limit>>20)
	}
	return strings.Join(said, "; "), nil
}

// validTail is the last n bytes of s or fewer, starting on a character.
func validTail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	t := s[len(s)-n:]
	for len(t) > 0 && t[0]&0xC0 == 0x80 {
		t = t[1:]
	}
	return t
}

// adoptFormer moves the folder an earlier vetter kept this work item's
// state in to the work item's own, the first time the work item is opened:
// the move is one rename, so two vetters opening at once cannot both take
// it, and a work item that already has a folder keeps it.
func (s *Store) adoptFormer(w packet.WorkItem) {
	if w.Former == "" || w.Former == w.Dir {
		return
	}
	former := filepath.Join(filepath.Dir(s.Dir), w.Former)
	if exists(s.Dir) || !exists(former) {
		return
	}
	if err := os.Rename(former, s.Dir); err != nil {
		if !errors.Is(err, fs.ErrNotExist) && !exists(s.Dir) {
			s.noteUnsaved(fmt.Sprintf("the record kept under the id alone (%s) could not be moved to this work item's own folder (%v); it is read from there", w.Former, rootCause(err)))
			s.Dir = former
		}
		return
	}
	syncDir(filepath.Dir(s.Dir))
	s.noteRepair(fmt.Sprintf("the record kept under the id alone (%s), from before vetter told repositories apart, is now this work item's (%s)", w.Former, w.Dir))
}

// exists reports whether name is there (a link counts).
func exists(name string) bool {
	_, err := os.Lstat(name)
	return err == nil
}
