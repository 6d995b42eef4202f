package packet

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vetter-dev/vetter/internal/commitid"
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

// RoundsFile keeps the rounds of a work item vetter has seen, beside
// triage.json in the reviewer's state directory.
const RoundsFile = "rounds.json"

// roundsLimit caps rounds.json; vetter writes a few hundred bytes a round.
const roundsLimit = 16 << 20

// snapshotLimit caps what is copied of a round for comparing later rounds
// with it: the documents, the diff and the registry, not the logs.
const snapshotLimit = 8 << 20

// recordRound reads the work item's rounds and adds what this packet shows:
// a new round for a head not seen before, or runs and findings that appeared
// while the head stayed. A round's documents, diff and registry are copied
// into the state directory the first time its head is seen (when small
// enough), so a later round can be compared with it wherever the packet went.
func (s *Store) recordRound() (*History, error) {
	p := s.p
	unlock, err := s.lockFolder("recording the round in " + s.dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	name := filepath.Join(s.dir, RoundsFile)
	h := &History{}
	data, err := readStateFile(name, roundsLimit)
	if err != nil {
		return nil, err
	}
	if len(data) > 0 {
		if err := json.Unmarshal(data, h); err != nil {
			return nil, fmt.Errorf("reading %s: %v; fix or move the file, vetter will not overwrite it", name, err)
		}
	}
	head := strings.ToLower(p.Change.HeadSHA)
	idx := -1
	for i, r := range h.Rounds {
		if r.Head == head {
			idx = i
		}
	}
	changed := false
	if idx < 0 {
		h.Rounds = append(h.Rounds, Round{Head: head, FirstSeen: stamp(time.Now())})
		idx, changed = len(h.Rounds)-1, true
	}
	r := &h.Rounds[idx]
	seen := map[string]bool{}
	for _, old := range h.Rounds {
		for _, k := range old.Runs {
			seen[k] = true
		}
	}
	for _, run := range p.Registry.Runs {
		if k := RunKey(run); !seen[k] {
			r.Runs, seen[k], changed = append(r.Runs, k), true, true
		}
	}
	if keys := p.RegistryKeys(); !slices.Equal(keys, r.Registry) {
		r.Registry, changed = keys, true
	}
	if r.Findings == nil {
		r.Findings = map[string]string{}
	}
	for _, f := range p.Findings {
		if fp := p.FingerprintOf(f); r.Findings[f.ID] != fp {
			r.Findings[f.ID], changed = fp, true
		}
	}
	if r.Snapshot == "" && head != "" && commitid.Valid(head) {
		if dir, ok := s.snapshot(head); ok {
			r.Snapshot, changed = dir, true
		}
	}
	if changed {
		out, err := json.MarshalIndent(h, "", "  ")
		if err != nil {
			return nil, fmt.Errorf("writing %s: %w", name, err)
		}
		if err := writeStateFile(name, append(out, '\n')); err != nil {
			return nil, fmt.Errorf("writing %s: %w", name, err)
		}
	}
	return h, nil
}

// snapshot copies the round's documents, diff and registry into
// rounds/<head>/ under the state folder and returns that folder relative to
// it; nothing is copied for a round larger than snapshotLimit.
func (s *Store) snapshot(head string) (string, bool) {
	p := s.p
	names := []string{}
	var total int64
	// Every document the packet holds is kept, not only the four it must
	// have: a round's documents are compared by content, and one missing
	// from the copy would read as added in the next round.
	want := []string{PlanFile, ChangeFile, DiffPath, ValidationFile, ReviewFile, RegistryFile}
	for _, d := range p.Docs {
		if !slices.Contains(want, d.Path) {
			want = append(want, d.Path)
		}
	}
	for _, n := range want {
		fi, err := fs.Stat(p.FS, n)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		total += fi.Size()
		names = append(names, n)
	}
	if len(names) == 0 || total > snapshotLimit {
		return "", false
	}
	rel := filepath.Join("rounds", head)
	dir := filepath.Join(s.dir, rel)
	for _, n := range names {
		data, _, err := ReadCapped(p.FS, n, snapshotLimit)
		if err != nil {
			return "", false
		}
		dst := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return "", false
		}
		if err := writeStateFile(dst, data); err != nil {
			return "", false
		}
	}
	return rel, true
}

// LoadRound loads the copy of a round kept in the state directory (one
// EarlierRoundKnown named), for comparing with. It reads only the state
// folder, never the open packet, so a background command may call it while
// the screens change the packet's triage; the caller gives the copy the
// reviewer's state it compares with.
func (s *Store) LoadRound(r Round) (*Packet, error) {
	if r.Snapshot == "" {
		return nil, fmt.Errorf("no copy of round %s was kept", r.Head)
	}
	old, err := Load(filepath.Join(s.dir, r.Snapshot), Options{})
	if err != nil {
		return nil, err
	}
	old.Problems = nil // a copy without its logs; its problems are not the reviewer's concern here
	return old, nil
}

// EarlierRoundKnown is the round LoadRound compares with, and whether
// there is one with a copy kept; it reads nothing, so a screen can say at
// once that an earlier round is coming.
func (s *Store) EarlierRoundKnown() (Round, bool) {
	p := s.p
	r, ok := p.History.Previous(strings.ToLower(p.Change.HeadSHA))
	return r, ok && r.Snapshot != ""
}

// readStateFile reads a file of the reviewer's state, refusing a link or
// device and anything larger than limit; a missing file is empty.
func readStateFile(name string, limit int64) ([]byte, error) {
	fi, err := os.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("reading %s: not a regular file (a link or device); vetter will not read or replace it", name)
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("reading %s: larger than %d MiB; vetter did not write this", name, limit>>20)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return data, nil
}

// writeStateFile replaces a file of the reviewer's state atomically, its
// temporary file beside it and mode 0600, as triage.json is.
func writeStateFile(name string, data []byte) error {
	return writeState("writing", name, data, func(err error) error {
		return fmt.Errorf("writing %s: the disk refused the write: %w; the file is as it was", name, err)
	})
}

// ReadReviewerState reads the reviewer's triage and the rounds seen of the
// packet's work item into p.Triage and p.History without writing anything
// (a listing such as the inbox reads many work items and decides none). A
// work item never opened has empty state.
func ReadReviewerState(p *Packet, stateDir string) error {
	if stateDir == "" {
		d, err := DefaultStateDir()
		if err != nil {
			return err
		}
		stateDir = d
	}
	s := &Store{p: p, dir: filepath.Join(stateDir, "vetter", p.WorkItem().Dir)}
	s.path = filepath.Join(s.dir, TriageFile)
	st, _, err := s.read()
	if err != nil {
		return err
	}
	p.Triage = st.clone()
	p.Triage.Where = s.path
	if p.Reviewed, err = s.ReadReviewed(); err != nil {
		return err
	}
	data, err := readStateFile(filepath.Join(s.dir, RoundsFile), roundsLimit)
	if err != nil {
		return err
	}
	h := &History{}
	if len(data) > 0 {
		if err := json.Unmarshal(data, h); err != nil {
			return fmt.Errorf("reading %s: %v", filepath.Join(s.dir, RoundsFile), err)
		}
	}
	p.History = h
	return nil
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
