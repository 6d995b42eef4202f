package review

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/vetter-dev/vetter/internal/atomicfile"
	"github.com/vetter-dev/vetter/packet"
)

// decisions.jsonl is the journal of gate decisions and triage.json follows
// it: a decision is appended first (one write, then fsync) and triage.json is
// replaced after, both under the folder's lock. A kill between the two leaves
// the journal ahead, and the next open brings triage.json up to date from it;
// a kill inside the append leaves a torn last line, which the next open (or
// the next append) cuts back to the last newline.

// privateMode is the mode of every file the store writes: the notes in them
// are the reviewer's, not the world's.
const privateMode = 0o600

// diskWrite writes bytes to decisions.jsonl or triage.json's temporary file.
// Tests replace it to play a disk that refuses a write (ENOSPC) without
// needing a full file system.
var diskWrite = func(f *os.File, b []byte) (int, error) { return f.Write(b) }

// refused wraps a failed write so the person is told what happened to the
// record: nothing of it was kept.
func refused(doing, path string, err error) error {
	return fmt.Errorf("%s %s: the disk refused the write: %w; nothing was recorded, %s and %s are as they were",
		doing, path, err, packet.DecisionsFile, packet.TriageFile)
}

// writeTriageFile replaces triage.json atomically (writeState).
func writeTriageFile(path string, data []byte) error {
	return writeState("saving triage to", path, data, func(err error) error { return refused("saving triage to", path, err) })
}

// writeState replaces a file of the reviewer's state atomically, through a
// temporary file beside it, mode 0600. onDiskError says what a
// failed write left.
func writeState(doing, path string, data []byte, onDiskError func(error) error) error {
	pf, err := atomicfile.Create(path, privateMode)
	if err != nil {
		return fmt.Errorf("%s %s: creating its temporary file: %w", doing, path, err)
	}
	defer pf.Cleanup()
	if _, err := diskWrite(pf.File, data); err != nil {
		return onDiskError(err)
	}
	if err := pf.Commit(); err != nil {
		return onDiskError(err)
	}
	// The rename is durable only once the folder's entry is on disk: a
	// finding's triage is in triage.json alone (the journal holds gate
	// decisions), so a rename lost to a power cut would lose it.
	if err := syncDir(filepath.Dir(path)); err != nil {
		return onDiskError(err)
	}
	return nil
}

// appendDecision appends one record to decisions.jsonl in a single write and
// syncs it. It returns undo, which cuts the journal back to where it was,
// for when triage.json cannot follow. A write that fails is cut back at once,
// so a full disk leaves no partial line to glue the next decision onto.
// The caller holds the folder's lock.
func (s *Store) appendDecision(rec DecisionRecord) (undo func() error, err error) {
	log := s.DecisionsLog()
	line, err := json.Marshal(rec)
	if err != nil {
		return nil, fmt.Errorf("appending to %s: %w", log, err)
	}
	// Another vetter killed mid-append may have left a torn line.
	if msg, err := repairJournal(log); err != nil {
		return nil, err
	} else if msg != "" {
		s.noteRepair(msg)
	}
	created := !exists(log)
	f, err := openAppend(log)
	if err != nil {
		return nil, fmt.Errorf("appending to %s: %w", log, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("appending to %s: %w", log, err)
	}
	size := fi.Size()
	undo = func() error {
		g, err := openAppend(log)
		if err == nil {
			err = g.Truncate(size)
			if err == nil {
				err = g.Sync()
			}
			if cerr := g.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			return fmt.Errorf("cutting %s back to %d bytes: %w", log, size, err)
		}
		return nil
	}
	_, err = diskWrite(f, append(line, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if err == nil && created {
		// A new journal's name must be on disk too, or a power cut
		// loses the file with the decision synced inside it.
		err = syncDir(s.Dir)
	}
	if err != nil {
		if uerr := undo(); uerr != nil {
			return nil, fmt.Errorf("appending to %s: the disk refused the write: %w; and %v: the journal may end in a torn line, cut back when vetter next opens it", log, err, uerr)
		}
		return nil, refused("appending to", log, err)
	}
	return undo, nil
}

// recoverStore is run once when a store opens: it removes temporary files a
// killed run left, cuts a torn last line off the journal, and brings
// triage.json up to date with the journal's last decision when a kill came
// between the two writes. What it repaired is kept for Repaired.
func (s *Store) recoverStore() error {
	if fi, err := os.Stat(s.Dir); err != nil || !fi.IsDir() {
		return nil // nothing saved here yet
	}
	unlock, err := lockDir(s.Dir)
	if err != nil {
		return fmt.Errorf("opening triage in %s: locking its folder: %w", s.Dir, err)
	}
	defer unlock()
	removeStaleTemps(s.Dir)
	if fi, err := os.Lstat(s.DecisionsLog()); err != nil || !fi.Mode().IsRegular() {
		return nil // none yet; or a link, which is neither read nor written (appending refuses it)
	}
	msg, err := repairJournal(s.DecisionsLog())
	if err != nil {
		if !refusedWrite(err) {
			return err
		}
		// A read-only disk: the torn line stays until vetter may write,
		// and lastDecision reads past it.
		s.noteUnsaved(fmt.Sprintf("%s ends in a torn line that could not be cut (%v)", packet.DecisionsFile, rootCause(err)))
	} else if msg != "" {
		s.noteRepair(msg)
	}
	rec, ok, err := lastDecision(s.DecisionsLog())
	if err != nil || !ok {
		return err
	}
	st, _, err := s.read()
	if err != nil {
		return err
	}
	// Every decision is appended to the journal before triage.json is
	// replaced, under one lock, so the journal's last line is the latest
	// decision: triage.json is in step only when its gate is that line.
	// Clocks decide nothing here.
	if g := st.Gate; g != nil && sameGate(g, rec.gate()) {
		return nil
	}
	st.Gate = rec.gate()
	if rec.SHA != "" {
		// The round of that head shows it too.
		if st.Heads == nil {
			st.Heads = map[string]*packet.GateDecision{}
		}
		st.Heads[strings.ToLower(rec.SHA)] = rec.gate()
	}
	data, err := marshalTriage(st)
	if err != nil {
		return err
	}
	if err := writeTriageFile(s.path, data); err != nil {
		if !refusedWrite(err) {
			return err
		}
		// Shown from the journal, written when the disk allows.
		s.journalGate = rec.gate()
		s.noteUnsaved(fmt.Sprintf("%s lacks the last decision in %s and could not be brought up to date (%v); it is shown from the journal",
			packet.TriageFile, packet.DecisionsFile, rootCause(err)))
		return nil
	}
	s.noteRepair(fmt.Sprintf("%s lacked the last decision in %s (%s for %s: vetter stopped between the two writes); brought it up to date",
		packet.TriageFile, packet.DecisionsFile, rec.Decision, rec.SHA))
	return nil
}

// Repaired says what opening the store (or a later append) repaired: a torn
// line cut from decisions.jsonl, triage.json brought up to date from it. It
// is "" when nothing needed repair.
func (s *Store) Repaired() string {
	s.repairMu.Lock()
	defer s.repairMu.Unlock()
	return strings.Join(s.repaired, "; ")
}

func (s *Store) noteRepair(msg string) {
	s.repairMu.Lock()
	s.repaired = append(s.repaired, msg)
	s.repairMu.Unlock()
}

// gate is the decision a record says, as triage.json holds it.
func (rec DecisionRecord) gate() *packet.GateDecision {
	var failing []string
	if len(rec.GateFailing) > 0 {
		failing = append(failing, rec.GateFailing...)
	}
	return &packet.GateDecision{Decision: rec.Decision, SHA: rec.SHA, Note: rec.Note, Time: rec.Time, User: rec.User,
		Override: rec.Override, GateReady: rec.GateReady, GateFailing: failing, Seq: rec.Seq}
}

// marshalTriage is triage.json's bytes for a state.
func marshalTriage(st *packet.TriageState) ([]byte, error) {
	st.Version = 1
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", packet.TriageFile, err)
	}
	return append(data, '\n'), nil
}

// removeStaleTemps removes the temporary files a killed run left in the
// store's folder: atomicfile's .triage.json* and the writability probe. It is
// called under the folder's lock, so no live writer's file is among them.
func removeStaleTemps(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		stale := strings.HasPrefix(name, "."+packet.TriageFile) || strings.HasPrefix(name, "."+packet.RoundsFile) || strings.HasPrefix(name, "."+packet.ReviewedFile) || strings.HasPrefix(name, ".vetter-probe-")
		if stale && e.Type().IsRegular() {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

// journalChunk is how much of the journal's end is read at a time when
// looking for its last lines.
const journalChunk = 4 << 10

// journalTail finds the journal's last line breaks: end is the length up to
// and including the last '\n' (0 when there is none), and start the offset
// of the last complete line (the one ending at end).
func journalTail(f io.ReaderAt, size int64) (start, end int64, err error) {
	end, start = -1, -1
	buf := make([]byte, journalChunk)
	for off := size; off > 0 && start < 0; {
		n := min(int64(len(buf)), off)
		off -= n
		if _, err := f.ReadAt(buf[:n], off); err != nil && !errors.Is(err, io.EOF) {
			return 0, 0, err
		}
		for i := n - 1; i >= 0; i-- {
			if buf[i] != '\n' {
				continue
			}
			if end < 0 {
				end = off + i + 1
			} else {
				start = off + i + 1
				break
			}
		}
	}
	if end < 0 {
		return 0, 0, nil
	}
	if start < 0 {
		start = 0
	}
	return start, end, nil
}

// repairJournal cuts a torn last line off decisions.jsonl: bytes after the
// last newline (an append cut short), and a last line that does not parse.
// It says what it cut, or "" when the journal was whole.
func repairJournal(path string) (string, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("reading %s: not a regular file (a link or device); vetter will not read or append to it", path)
	}
	r, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	defer r.Close()
	if fi, err = r.Stat(); err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	size := fi.Size()
	if size == 0 {
		return "", nil
	}
	start, end, err := journalTail(r, size)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	cut := end
	if end > 0 {
		line := make([]byte, end-start)
		if _, err := r.ReadAt(line, start); err != nil {
			return "", fmt.Errorf("reading %s: %w", path, err)
		}
		var rec DecisionRecord
		if json.Unmarshal(bytes.TrimSpace(line), &rec) != nil {
			cut = start
		}
	}
	if cut == size {
		return "", nil
	}
	// Write access only for the cut, so a whole journal reads on a
	// read-only disk; never following a link.
	f, err := openAppend(path)
	if err != nil {
		return "", fmt.Errorf("repairing %s: %w", path, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Size() != size {
		return "", fmt.Errorf("repairing %s: it changed while being read", path)
	}
	if err := f.Truncate(cut); err != nil {
		return "", fmt.Errorf("cutting the torn last line off %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return "", fmt.Errorf("cutting the torn last line off %s: %w", path, err)
	}
	return fmt.Sprintf("%s ended in a torn line (%d bytes of a decision cut short by a crash or a full disk); cut back to the last complete decision",
		path, size-cut), nil
}

// lastDecision reads the journal's last line; ok is false when there is
// none. The journal has been repaired, so the line is whole.
func lastDecision(path string) (DecisionRecord, bool, error) {
	var rec DecisionRecord
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return rec, false, nil
	}
	if err != nil {
		return rec, false, fmt.Errorf("reading %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return rec, false, fmt.Errorf("reading %s: %w", path, err)
	}
	start, end, err := journalTail(f, fi.Size())
	if err != nil || end == 0 {
		return rec, false, err
	}
	line := make([]byte, end-start)
	if _, err := f.ReadAt(line, start); err != nil {
		return rec, false, fmt.Errorf("reading %s: %w", path, err)
	}
	if err := json.Unmarshal(bytes.TrimSpace(line), &rec); err != nil {
		return rec, false, fmt.Errorf("reading %s's last line: %w", path, err)
	}
	return rec, true, nil
}

// nextSeq is the number the next decision appended to the journal takes:
// one past the last line's, or, for a journal written before decisions
// were numbered, one past its count of lines. The caller holds the lock.
func nextSeq(path string) (int, error) {
	if _, err := repairJournal(path); err != nil && !refusedWrite(err) {
		return 0, err
	}
	last, ok, err := lastDecision(path)
	if err != nil || !ok {
		return 1, err
	}
	if last.Seq > 0 {
		return last.Seq + 1, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("reading %s: %w", path, err)
	}
	return bytes.Count(data, []byte{'\n'}) + 1, nil
}
