package review

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/packet/source"
)

// snapshotLimit caps what is copied of a round for comparing later rounds
// with it: the documents, the diff and the registry, not the logs.
const snapshotLimit = 8 << 20

// recordRound reads the work item's rounds and adds what this packet shows:
// a new round for a head not seen before, or runs and findings that appeared
// while the head stayed. A round's documents, diff and registry are copied
// into the state directory the first time its head is seen (when small
// enough), so a later round can be compared with it wherever the packet went.
//
// Reading never needs writing: on a disk that refuses the write (full,
// read-only) the round is added in memory only and the store says so
// (Unsaved), and a record that cannot be read is set aside for a new one.
func (s *Store) recordRound() (*packet.History, error) {
	p := s.p
	name := filepath.Join(s.Dir, packet.RoundsFile)
	unlock, err := s.lockFolder("recording the round in " + s.Dir)
	canWrite := err == nil
	if err != nil {
		if !refusedWrite(err) {
			return nil, err
		}
		// No folder can be made: read what is there, if anything, and
		// remember nothing.
		unlock = func() {}
	}
	defer unlock()
	h := &packet.History{}
	if _, _, err := readRecord(name, h); err != nil {
		msg, aside := asSetAside(err)
		if !aside {
			return nil, err
		}
		h = &packet.History{}
		s.noteRepair(msg)
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
		h.Rounds = append(h.Rounds, packet.Round{Head: head, FirstSeen: stamp(time.Now())})
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
		if k := packet.RunKey(run); !seen[k] {
			r.Runs, seen[k], changed = append(r.Runs, k), true, true
		}
	}
	if keys := RegistryKeys(p); !slices.Equal(keys, r.Registry) {
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
	if !changed {
		return h, nil
	}
	if !canWrite {
		s.noteUnsaved(fmt.Sprintf("this round could not be remembered (%v)", rootCause(err)))
		return h, nil
	}
	if r.Snapshot == "" && head != "" && commitid.Valid(head) {
		if dir, ok := s.snapshot(head); ok {
			r.Snapshot = dir
		}
	}
	said, err := boundRounds(h, head, recordLimit)
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", name, err)
	}
	if said != "" {
		s.noteRepair(packet.RoundsFile + ": " + said)
	}
	out, err := json.MarshalIndent(h, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", name, err)
	}
	if len(out) >= recordLimit {
		return nil, fmt.Errorf("writing %s: %d bytes even after summarising; vetter reads no more than %d MiB", name, len(out), recordLimit>>20)
	}
	if err := writeStateFile(name, append(out, '\n')); err != nil {
		if !refusedWrite(err) {
			return nil, err
		}
		s.noteUnsaved(fmt.Sprintf("this round could not be remembered (%v)", rootCause(err)))
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
	want := []string{packet.PlanFile, packet.ChangeFile, packet.DiffPath, packet.ValidationFile, packet.ReviewFile, packet.RegistryFile}
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
	dir := filepath.Join(s.Dir, rel)
	for _, n := range names {
		data, _, err := source.ReadCapped(p.FS, n, snapshotLimit)
		if err == nil {
			dst := filepath.Join(dir, filepath.FromSlash(n))
			if err = os.MkdirAll(filepath.Dir(dst), 0o700); err == nil {
				err = writeStateFile(dst, data)
			}
		}
		if err != nil {
			// A copy cut short is no copy: a full disk must not leave an
			// empty or partial rounds/<head>/ behind to be compared with.
			os.RemoveAll(dir)
			os.Remove(filepath.Dir(dir)) // rounds/, when this was its first
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
func (s *Store) LoadRound(r packet.Round) (*packet.Packet, error) {
	if r.Snapshot == "" {
		return nil, fmt.Errorf("no copy of round %s was kept", r.Head)
	}
	old, err := packet.Load(filepath.Join(s.Dir, r.Snapshot), packet.Options{})
	if err != nil {
		return nil, err
	}
	old.Problems = nil // a copy without its logs; its problems are not the reviewer's concern here
	return old, nil
}

// EarlierRoundKnown is the round LoadRound compares with, and whether
// there is one with a copy kept; it reads nothing, so a screen can say at
// once that an earlier round is coming.
func (s *Store) EarlierRoundKnown() (packet.Round, bool) {
	p := s.p
	r, ok := p.History.Previous(strings.ToLower(p.Change.HeadSHA))
	return r, ok && r.Snapshot != ""
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
func ReadReviewerState(p *packet.Packet, stateDir string) error {
	if stateDir == "" {
		d, err := DefaultStateDir()
		if err != nil {
			return err
		}
		stateDir = d
	}
	w := p.WorkItem()
	s := &Store{p: p, Dir: filepath.Join(stateDir, "vetter", w.Dir), readOnly: true}
	if former := filepath.Join(stateDir, "vetter", w.Former); w.Former != "" && !exists(s.Dir) && exists(former) {
		// Not moved yet (a listing writes nothing): read it where it is.
		s.Dir = former
	}
	s.path = filepath.Join(s.Dir, packet.TriageFile)
	st, _, err := s.read()
	if err != nil {
		return err
	}
	p.Triage = clone(st)
	p.Triage.Where = s.path
	if p.Reviewed, err = s.ReadReviewed(); err != nil {
		return err
	}
	h, err := readOnlyRecord[packet.History](filepath.Join(s.Dir, packet.RoundsFile))
	if err != nil {
		return err
	}
	p.History = h
	return nil
}
