package review

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vetter-dev/vetter/packet"
)

// mergedNoteSep joins two notes that two writers made on one finding, so
// neither is lost and a person can see where one ends.
const mergedNoteSep = "\n— merged: "

var (
	// ErrNoteRequired is returned when a finding would be dismissed without a
	// note saying why.
	ErrNoteRequired = errors.New("a dismissal needs a note saying why")
	// ErrUnknownFinding is returned for a finding id the packet does not have.
	ErrUnknownFinding = errors.New("no such finding")
	// ErrBadState is returned for a triage state other than the four words.
	ErrBadState = errors.New("not a triage state (open, accepted, dismissed, deferred)")
)

// Store keeps a packet's triage decisions in triage.json, saving every change
// at once by atomic replacement and merging with changes another vetter made
// to the same file in the meantime.
type Store struct {
	p    *packet.Packet
	Dir  string
	path string
	// base is the state as last read from or written to the file, and baseSum
	// the hash of those bytes ("" when the file did not exist); a different
	// hash on the next read means someone else wrote it.
	base    *packet.TriageState
	baseSum string

	// mu makes one save at a time of this store, and guards cur and the
	// base: the screens save in commands, off the goroutine that draws.
	mu sync.Mutex
	// cur is the state as this store last saved or read it. A detached
	// store keeps it to itself until Publish puts it in the packet.
	cur      *packet.TriageState
	detached bool

	repairMu sync.Mutex
	repaired []string // what opening (or an append) repaired, for Repaired

	// journalGate is the journal's last decision when triage.json lags it
	// and could not be written: shown all the same.
	journalGate *packet.GateDecision
	// readOnly is a store that only reads (ReadReviewerState): a record it
	// cannot read is reported, never set aside.
	readOnly bool
	// unsaved says why what opening found could not be written (a full or
	// read-only disk): the packet shows it all the same.
	unsaved []string
}

// MergeReport says what a save took from another writer's changes.
type MergeReport struct {
	// Findings whose decision came from, or was combined with, a change made
	// to the file by someone else since this store last read it.
	Findings []string
	// Conflicts are the findings both writers changed: the later decision
	// won and differing notes were both kept.
	Conflicts []string
	// GateChanged is set when another writer changed the gate decision.
	GateChanged bool
}

// Merged reports whether anything came from another writer.
func (m MergeReport) Merged() bool { return len(m.Findings) > 0 || m.GateChanged }

// String tells a person what was merged, or "" when nothing was.
func (m MergeReport) String() string {
	if !m.Merged() {
		return ""
	}
	var parts []string
	if len(m.Findings) > 0 {
		parts = append(parts, "decisions on "+strings.Join(m.Findings, ", "))
	}
	if len(m.Conflicts) > 0 {
		parts = append(parts, "both changed "+strings.Join(m.Conflicts, ", ")+" (the later decision stands, both notes kept)")
	}
	if m.GateChanged {
		parts = append(parts, "the gate decision")
	}
	return "merged changes someone else saved meanwhile: " + strings.Join(parts, "; ")
}

// DefaultStateDir is $XDG_STATE_HOME, else ~/.local/state.
func DefaultStateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("finding the state directory: %w", err)
	}
	return filepath.Join(home, ".local", "state"), nil
}

// OpenStore binds a store to a packet. The reviewer's state — triage.json,
// decisions.jsonl and the rounds seen — lives in
// <stateDir>/vetter/<work item>/ (stateDir "" means DefaultStateDir), never in
// the packet: the packet is written by the automation under review and may
// not speak for the reviewer (docs/security.md). Every round of one work item
// shares that folder, so triage carries from round to round by finding
// fingerprint. The decisions there replace p.Triage, and the round is
// recorded in p.History.
func OpenStore(p *packet.Packet, stateDir string) (*Store, error) {
	if p == nil {
		return nil, errors.New("opening triage: no packet")
	}
	if stateDir == "" {
		d, err := DefaultStateDir()
		if err != nil {
			return nil, err
		}
		stateDir = d
	}
	w := p.WorkItem()
	s := &Store{p: p, Dir: filepath.Join(stateDir, "vetter", w.Dir)}
	s.adoptFormer(w)
	s.path = filepath.Join(s.Dir, packet.TriageFile)
	if err := s.recoverStore(); err != nil {
		return nil, err
	}
	st, sum, err := s.read()
	if err != nil {
		return nil, err
	}
	s.base, s.baseSum = st, sum
	if s.journalGate != nil {
		st = clone(st)
		st.Gate = s.journalGate
	}
	p.Triage = clone(st)
	p.Triage.Where = s.path
	if p.Reviewed, err = s.ReadReviewed(); err != nil {
		return nil, err
	}
	if !p.Partial {
		h, err := s.recordRound()
		if err != nil {
			return nil, err
		}
		p.History = h
	}
	s.cur = clone(p.Triage)
	return s, nil
}

// Where is the file the decisions are saved to, for the status line.
func (s *Store) Where() string { return s.path }

// DecisionsLog is the path of decisions.jsonl.
func (s *Store) DecisionsLog() string { return filepath.Join(s.Dir, packet.DecisionsFile) }

// Reload rereads triage.json, replacing the packet's decisions with it (a
// detached store's own copy, until Publish).
func (s *Store) Reload() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, sum, err := s.read()
	if err != nil {
		return err
	}
	s.base, s.baseSum = st, sum
	s.cur = clone(st)
	s.cur.Where = s.path
	if !s.detached {
		s.p.Triage = clone(s.cur)
	}
	return nil
}

// Detach stops the store from changing the packet's decisions itself: a
// save, which may then run on any goroutine, changes only the store's copy,
// and Publish, called where the packet is read (a Bubble Tea Update), puts
// that copy in the packet. It lets the screens save in a command without
// racing the drawing. Call it before handing the store to another goroutine.
func (s *Store) Detach() {
	s.mu.Lock()
	s.detached = true
	s.mu.Unlock()
}

// Publish puts the store's decisions, as last saved or read, in the packet.
func (s *Store) Publish() {
	s.mu.Lock()
	st := clone(s.cur)
	s.mu.Unlock()
	st.Where = s.path
	s.p.Triage = st
}

// read returns the file's state and the hash of its bytes; a missing file is
// an empty state and "". A file that is there but cannot be understood is an
// error: writing over it would lose whatever it holds.
func (s *Store) read() (*packet.TriageState, string, error) {
	empty := &packet.TriageState{Version: 1, Findings: map[string]*packet.Decision{}}
	fi, err := os.Lstat(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return empty, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("reading %s: %w", s.path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, "", fmt.Errorf("reading %s: not a regular file (a link or device); vetter will not read or replace it", s.path)
	}
	f, err := os.Open(s.path)
	if err != nil {
		return nil, "", fmt.Errorf("reading %s: %w", s.path, err)
	}
	data, err := io.ReadAll(io.LimitReader(f, recordLimit+1))
	f.Close()
	if err != nil {
		return nil, "", fmt.Errorf("reading %s: %w", s.path, err)
	}
	var bad error
	var parsed packet.TriageState
	if len(data) > recordLimit {
		bad = errRecordTooLarge
	} else if len(bytes.TrimSpace(data)) > 0 {
		bad = json.Unmarshal(data, &parsed)
	}
	if bad != nil {
		return s.unreadable(bad, empty)
	}
	sum := sha256.Sum256(data)
	st := empty
	if len(bytes.TrimSpace(data)) > 0 {
		st = &parsed
	}
	if st.Findings == nil {
		st.Findings = map[string]*packet.Decision{}
	}
	for id, d := range st.Findings {
		if d == nil {
			delete(st.Findings, id)
		}
	}
	if st.Version == 0 {
		st.Version = 1
	}
	st.Where = s.path
	return st, hex.EncodeToString(sum[:]), nil
}

// unreadable handles a triage.json that cannot be read: a reading store
// says so and goes no further (nothing may be written over it); any other
// sets it aside beside itself, notes that for the person and starts a new
// record, so one bad file never locks a work item.
func (s *Store) unreadable(bad error, empty *packet.TriageState) (*packet.TriageState, string, error) {
	if s.readOnly {
		return nil, "", fmt.Errorf("reading %s: %v; vetter sets it aside and starts a new one when the work item is next opened", s.path, bad)
	}
	aside, err := setAside(s.path)
	if err != nil {
		return nil, "", fmt.Errorf("reading %s: %v; and it could not be set aside to start a new one: %w", s.path, bad, err)
	}
	s.noteRepair((&setAsideError{name: s.path, aside: aside, why: bad}).Error())
	return empty, "", nil
}

// Set gives the findings a triage state. A note "" keeps each finding's
// existing note; a dismissal must end up with a note. It confirms a stale
// decision again, since it records the finding's current fingerprint.
func (s *Store) Set(ids []string, state, note, user string, now time.Time) (MergeReport, error) {
	switch state {
	case packet.TriageOpen, packet.TriageAccepted, packet.TriageDismissed, packet.TriageDeferred:
	default:
		return MergeReport{}, fmt.Errorf("triage %q: %w", state, ErrBadState)
	}
	found, err := s.findings(ids)
	if err != nil {
		return MergeReport{}, err
	}
	now = stamp(now)
	return s.save(func(st *packet.TriageState) error {
		for _, f := range found {
			d := &packet.Decision{State: state, Note: note, Time: now, User: user, Fingerprint: packet.Fingerprint(f)}
			if old := st.Findings[f.ID]; old != nil && note == "" {
				d.Note = old.Note
			}
			if state == packet.TriageDismissed && strings.TrimSpace(d.Note) == "" {
				return fmt.Errorf("dismissing %s: %w", f.ID, ErrNoteRequired)
			}
			st.Findings[f.ID] = d
		}
		return nil
	}, nil)
}

// SetNote writes or replaces a finding's note, keeping its state (and its
// fingerprint, so a stale decision stays stale until confirmed).
func (s *Store) SetNote(id, note, user string, now time.Time) (MergeReport, error) {
	found, err := s.findings([]string{id})
	if err != nil {
		return MergeReport{}, err
	}
	f := found[0]
	now = stamp(now)
	return s.save(func(st *packet.TriageState) error {
		d := &packet.Decision{State: packet.TriageOpen, Fingerprint: packet.Fingerprint(f)}
		if old := st.Findings[f.ID]; old != nil {
			c := *old
			d = &c
		}
		if d.State == packet.TriageDismissed && strings.TrimSpace(note) == "" {
			return fmt.Errorf("clearing the note of %s: %w", f.ID, ErrNoteRequired)
		}
		d.Note, d.Time, d.User = note, now, user
		st.Findings[f.ID] = d
		return nil
	}, nil)
}

// findings looks up finding references (review.md#2, #2, 2).
func (s *Store) findings(ids []string) ([]*packet.Finding, error) {
	if len(ids) == 0 {
		return nil, errors.New("triage: no finding given")
	}
	var out []*packet.Finding
	for _, id := range ids {
		f := s.p.LookupFinding(id)
		if f == nil {
			return nil, fmt.Errorf("triage %q: %w", id, ErrUnknownFinding)
		}
		out = append(out, f)
	}
	return out, nil
}

// stamp drops the monotonic reading and the zone, so a time survives the
// round trip through JSON unchanged.
func stamp(t time.Time) time.Time { return t.UTC().Round(0) }

// save applies a change to the current decisions and writes them, merging
// first with whatever another writer saved since the last read. rec, when
// given, is a gate decision: it is appended to the journal (decisions.jsonl)
// before triage.json is replaced, and cut off again when triage.json cannot
// be written, so a failed save leaves both files as they were.
func (s *Store) save(apply func(*packet.TriageState) error, rec *DecisionRecord) (MergeReport, error) {
	var rep MergeReport
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, err := s.lockFolder("saving triage to " + s.path)
	if err != nil {
		return rep, err
	}
	defer unlock()
	disk, sum, err := s.read()
	if err != nil {
		return rep, err
	}
	// A store that is not detached starts from the packet's decisions, as
	// it always has, in case its caller changed them.
	from := s.cur
	if !s.detached {
		from = s.p.Triage
	}
	ours := clone(from)
	if err := apply(ours); err != nil {
		return rep, err
	}
	if rec != nil {
		// Number the decision before merging, so another writer's
		// decision, appended before this one, is the earlier.
		seq, err := nextSeq(s.DecisionsLog())
		if err != nil {
			return rep, err
		}
		rec.Seq = seq
		if ours.Gate != nil {
			ours.Gate.Seq = seq
			if h := ours.Heads[strings.ToLower(ours.Gate.SHA)]; h != nil {
				h.Seq = seq
			}
		}
	}
	if sum != s.baseSum {
		ours, rep = mergeTriage(s.base, disk, ours)
	}
	said, err := boundTriage(ours, func(id string) bool { return s.p.Finding(id) != nil }, recordLimit)
	if err != nil {
		return rep, fmt.Errorf("saving triage to %s: %w", s.path, err)
	}
	if said != "" {
		s.noteRepair(packet.TriageFile + ": " + said)
	}
	data, err := marshalTriage(ours)
	if err != nil {
		return rep, fmt.Errorf("saving triage to %s: %w", s.path, err)
	}
	if rec != nil {
		undo, err := s.appendDecision(*rec)
		if err != nil {
			return rep, err
		}
		if err := writeTriageFile(s.path, data); err != nil {
			if uerr := undo(); uerr != nil {
				return rep, fmt.Errorf("%w; and %v: the decision is in %s only", err, uerr, packet.DecisionsFile)
			}
			return rep, err
		}
	} else if err := writeTriageFile(s.path, data); err != nil {
		return rep, err
	}
	h := sha256.Sum256(data)
	s.base, s.baseSum = clone(ours), hex.EncodeToString(h[:])
	ours.Where = s.path
	ours.Reindex()
	s.cur = ours
	if !s.detached {
		s.p.Triage = clone(ours)
	}
	return rep, nil
}

// lockFolder makes the work item's state folder (0700) and takes its lock,
// so two vetters writing the reviewer's state take turns; doing names the
// write for the error.
func (s *Store) lockFolder(doing string) (unlock func(), err error) {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("%s: %w", doing, err)
	}
	unlock, err = lockDir(s.Dir)
	if err != nil {
		return nil, fmt.Errorf("%s: locking its folder: %w", doing, err)
	}
	return unlock, nil
}

// clone copies a state deeply enough that changing the copy's decisions
// leaves the original alone.
func clone(st *packet.TriageState) *packet.TriageState {
	if st == nil {
		return &packet.TriageState{Version: 1, Findings: map[string]*packet.Decision{}}
	}
	c := &packet.TriageState{Version: st.Version, Where: st.Where, Summarised: st.Summarised, Findings: make(map[string]*packet.Decision, len(st.Findings))}
	for id, d := range st.Findings {
		if d != nil {
			dc := *d
			c.Findings[id] = &dc
		}
	}
	c.Gate = cloneGate(st.Gate)
	if st.Heads != nil {
		c.Heads = make(map[string]*packet.GateDecision, len(st.Heads))
		for sha, g := range st.Heads {
			if g != nil {
				c.Heads[sha] = cloneGate(g)
			}
		}
	}
	c.Reindex()
	return c
}

func sameDecision(a, b *packet.Decision) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.State == b.State && a.Note == b.Note && a.Time.Equal(b.Time) && a.User == b.User && a.Fingerprint == b.Fingerprint
}

func cloneGate(g *packet.GateDecision) *packet.GateDecision {
	if g == nil {
		return nil
	}
	c := *g
	c.GateFailing = slices.Clone(g.GateFailing)
	return &c
}

// mergeGate is one gate decision both writers may have changed: theirs is
// taken when they changed it and ours did not, or theirs is the later.
func mergeGate(bg, tg, og *packet.GateDecision) (*packet.GateDecision, bool) {
	if tg != nil && !sameGate(tg, og) && !sameGate(bg, tg) {
		if og == nil || sameGate(bg, og) || laterGate(tg, og) {
			return cloneGate(tg), true
		}
		return og, true
	}
	return og, false
}

func sameGate(a, b *packet.GateDecision) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Decision == b.Decision && a.SHA == b.SHA && a.Note == b.Note && a.Time.Equal(b.Time) &&
		a.User == b.User && a.Override == b.Override && a.Seq == b.Seq
}

// mergeTriage merges two writers' states that both started from base, per
// finding: a side that did not change a decision yields to the side that did;
// when both changed it, each field takes the side that changed it, the later
// decision settles what both changed, and two different notes are both kept.
// A missing decision never wins over a present one, so deleting the file does
// not erase decisions.
func mergeTriage(base, theirs, ours *packet.TriageState) (*packet.TriageState, MergeReport) {
	var rep MergeReport
	if base == nil {
		base = &packet.TriageState{}
	}
	out := clone(ours)
	ids := map[string]bool{}
	for id := range theirs.Findings {
		ids[id] = true
	}
	for id := range ours.Findings {
		ids[id] = true
	}
	sorted := make([]string, 0, len(ids))
	for id := range ids {
		sorted = append(sorted, id)
	}
	slices.SortFunc(sorted, packet.CompareFindingIDs)
	for _, id := range sorted {
		b, t, o := base.Findings[id], theirs.Findings[id], ours.Findings[id]
		if t == nil || sameDecision(t, o) || sameDecision(b, t) {
			continue // nothing of theirs to take
		}
		rep.Findings = append(rep.Findings, id)
		if o == nil || sameDecision(b, o) {
			c := *t
			out.Findings[id] = &c
			continue
		}
		rep.Conflicts = append(rep.Conflicts, id)
		out.Findings[id] = mergeDecision(b, t, o)
	}
	var changed bool
	out.Gate, changed = mergeGate(base.Gate, theirs.Gate, out.Gate)
	rep.GateChanged = rep.GateChanged || changed
	for sha, tg := range theirs.Heads {
		var og *packet.GateDecision
		if out.Heads != nil {
			og = out.Heads[sha]
		}
		if g, changed := mergeGate(base.Heads[sha], tg, og); changed {
			if out.Heads == nil {
				out.Heads = map[string]*packet.GateDecision{}
			}
			out.Heads[sha] = g
			rep.GateChanged = true
		}
	}
	return out, rep
}

// laterGate reports whether a was decided after b: by journal order when
// both are numbered, by clock only for decisions older than the numbering.
func laterGate(a, b *packet.GateDecision) bool {
	if a.Seq > 0 && b.Seq > 0 {
		return a.Seq > b.Seq
	}
	return a.Time.After(b.Time)
}

// mergeDecision merges one finding both sides changed.
func mergeDecision(b, t, o *packet.Decision) *packet.Decision {
	if b == nil {
		b = &packet.Decision{}
	}
	win, lose := o, t
	if t.Time.After(o.Time) {
		win, lose = t, o
	}
	m := *win
	// The state (and the fingerprint it was decided on) goes to the side
	// that changed it; when both did, to the later one.
	switch {
	case t.State == o.State:
	case t.State == b.State:
		m.State, m.Fingerprint = o.State, o.Fingerprint
	case o.State == b.State:
		m.State, m.Fingerprint = t.State, t.Fingerprint
	}
	switch {
	case t.Note == o.Note:
	case t.Note == b.Note:
		m.Note = o.Note
	case o.Note == b.Note:
		m.Note = t.Note
	default:
		m.Note = joinNotes(win.Note, lose.Note)
	}
	return &m
}

// joinNotes keeps two different notes, the later first; it does not repeat
// a note already carried from an earlier merge.
func joinNotes(later, earlier string) string {
	switch {
	case strings.TrimSpace(earlier) == "" || strings.Contains(later, earlier):
		return later
	case strings.TrimSpace(later) == "" || strings.Contains(earlier, later):
		return earlier
	}
	return later + mergedNoteSep + earlier
}
