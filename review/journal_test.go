package review

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/packet"
)

// journal reads decisions.jsonl, failing the test on a line that does not
// parse or a file that does not end in a newline.
func journal(t *testing.T, path string) []DecisionRecord {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		t.Fatalf("%s ends in a torn line: %q", path, data[max(0, len(data)-80):])
	}
	var out []DecisionRecord
	for i, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var rec DecisionRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatalf("%s line %d does not parse: %v: %q", path, i+1, err, line)
		}
		out = append(out, rec)
	}
	return out
}

func appendBytes(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

func TestJournalTornLineRepaired(t *testing.T) {
	_, p := samplePacket(t, nil)
	state := t.TempDir()
	s := openStoreIn(t, p, state)
	for i := range 2 {
		if _, _, err := s.Decide(DecisionHold, fmt.Sprint("n=", i), "ana", "", t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	log := s.DecisionsLog()
	whole, _ := os.ReadFile(log)
	// A decision cut short by a crash or a full disk: no newline.
	appendBytes(t, log, `{"time":"2026-10-15T09:05:00Z","user":"ana","sha":"1bb1`)

	s2 := openStoreIn(t, p, state)
	if got, _ := os.ReadFile(log); !bytes.Equal(got, whole) {
		t.Errorf("after repair decisions.jsonl =\n%s\nwant\n%s", got, whole)
	}
	if r := s2.Repaired(); !strings.Contains(r, "torn line") || !strings.Contains(r, packet.DecisionsFile) {
		t.Errorf("Repaired() = %q, want it to report the torn line", r)
	}
	if r := s.Repaired(); r != "" {
		t.Errorf("the first store repaired %q", r)
	}

	// A complete last line that does not parse is cut too.
	appendBytes(t, log, "{garbage\n")
	s3 := openStoreIn(t, p, state)
	if got, _ := os.ReadFile(log); !bytes.Equal(got, whole) || s3.Repaired() == "" {
		t.Errorf("an unparseable last line was kept (%q) or not reported (%q)", got, s3.Repaired())
	}

	// A store already open when another vetter tore the journal does not
	// glue its decision onto the torn line.
	appendBytes(t, log, `{"time":"2026-10`)
	if _, _, err := s3.Decide(DecisionRequestChanges, "n=2", "ana", "", t0.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	recs := journal(t, log)
	if len(recs) != 3 || recs[2].Note != "n=2" {
		t.Errorf("after a torn line and a decision the journal holds %+v", recs)
	}
	if !strings.Contains(s3.Repaired(), "torn line") {
		t.Errorf("the append's repair was not reported: %q", s3.Repaired())
	}
}

// refuseWrites makes the store's writes to files whose name contains which
// fail like a full disk, after writing half of what they were given.
func refuseWrites(t *testing.T, which string) {
	t.Helper()
	orig := diskWrite
	diskWrite = func(f *os.File, b []byte) (int, error) {
		if !strings.Contains(filepath.Base(f.Name()), which) {
			return orig(f, b)
		}
		n, _ := orig(f, b[:len(b)/2])
		return n, syscall.ENOSPC
	}
	t.Cleanup(func() { diskWrite = orig })
}

func TestJournalFullDisk(t *testing.T) {
	for _, which := range []string{packet.DecisionsFile, "." + packet.TriageFile} {
		t.Run(which, func(t *testing.T) {
			_, p := samplePacket(t, nil)
			s := openStore(t, p)
			if _, _, err := s.Decide(DecisionHold, "first", "ana", "", t0); err != nil {
				t.Fatal(err)
			}
			mustSet(t, s, []string{"1"}, packet.TriageAccepted, "", "ana", t0)
			log, tri := s.DecisionsLog(), s.Where()
			logBefore, _ := os.ReadFile(log)
			triBefore, _ := os.ReadFile(tri)
			gateBefore := *p.Triage.Gate

			refuseWrites(t, which)
			_, _, err := s.Decide(DecisionRequestChanges, "second", "ana", "", t0.Add(time.Minute))
			if err == nil || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "the disk refused") ||
				!strings.Contains(err.Error(), "nothing was recorded") {
				t.Fatalf("Decide on a full disk: %v", err)
			}
			if which != packet.DecisionsFile {
				// Triage alone is refused the same way.
				if _, err := s.Set([]string{"2"}, packet.TriageDeferred, "", "ana", t0.Add(time.Minute)); err == nil ||
					!strings.Contains(err.Error(), "the disk refused") {
					t.Errorf("Set on a full disk: %v", err)
				}
			}
			if got, _ := os.ReadFile(log); !bytes.Equal(got, logBefore) {
				t.Errorf("decisions.jsonl changed:\n%s\nwas\n%s", got, logBefore)
			}
			if got, _ := os.ReadFile(tri); !bytes.Equal(got, triBefore) {
				t.Errorf("triage.json changed:\n%s\nwas\n%s", got, triBefore)
			}
			if g := p.Triage.Gate; g == nil || !sameGate(g, &gateBefore) {
				t.Errorf("the refused decision shows in memory: %+v", g)
			}
			entries, _ := os.ReadDir(filepath.Dir(tri))
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), "."+packet.TriageFile) {
					t.Errorf("temporary file %s left behind", e.Name())
				}
			}
		})
	}
}

// A kill between the two writes leaves the journal ahead; opening the store
// brings triage.json up to date from it.
func TestJournalWinsOverTriage(t *testing.T) {
	_, p := samplePacket(t, nil)
	state := t.TempDir()
	s := openStoreIn(t, p, state)
	if _, _, err := s.Decide(DecisionHold, "first", "ana", "", t0); err != nil {
		t.Fatal(err)
	}
	rec := DecisionRecord{Time: t0.Add(time.Minute), User: "bo", SHA: p.Change.HeadSHA, Decision: DecisionRequestChanges,
		GateFailing: []string{"assessment-sound"}, Note: "journal only"}
	line, _ := json.Marshal(rec)
	appendBytes(t, s.DecisionsLog(), string(line)+"\n")

	s2 := openStoreIn(t, p, state)
	if g := p.Triage.Gate; g == nil || !sameGate(g, rec.gate()) {
		t.Errorf("after open the gate is %+v, want the journal's %+v", g, rec)
	}
	var st packet.TriageState
	data, _ := os.ReadFile(s2.Where())
	if err := json.Unmarshal(data, &st); err != nil || st.Gate == nil || st.Gate.Note != "journal only" {
		t.Errorf("triage.json was not brought up to date: %s", data)
	}
	if !strings.Contains(s2.Repaired(), "brought it up to date") {
		t.Errorf("Repaired() = %q", s2.Repaired())
	}
	// In step now: the next open repairs nothing.
	s3, err := OpenStore(p, state)
	if err != nil || s3.Repaired() != "" {
		t.Errorf("a third open: %v, repaired %q", err, s3.Repaired())
	}
}

func TestStoreTempFiles(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // on the same file system, where a temporary file must not go: it would hold the notes
	_, p := samplePacket(t, nil)
	state := t.TempDir()
	s := openStoreIn(t, p, state)
	if _, _, err := s.Decide(DecisionHold, "a private note", "ana", "", t0); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(s.Where())
	for _, path := range []string{s.Where(), s.DecisionsLog()} {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, %v; want 0600", path, fi.Mode().Perm(), err)
		}
	}

	// A killed run's leftovers go when the store opens; other files stay.
	stale := []string{"." + packet.TriageFile + "8312094", ".vetter-probe-1234"}
	for _, name := range append(stale, "keep.txt") {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(`{"note":"secret"}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := OpenStore(p, state); err != nil {
		t.Fatal(err)
	}
	for _, name := range stale {
		if _, err := os.Lstat(filepath.Join(dir, name)); !os.IsNotExist(err) {
			t.Errorf("stale %s was not removed: %v", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "keep.txt")); err != nil {
		t.Errorf("a file vetter did not write was removed: %v", err)
	}

	// Saving while a temporary file is open: it is beside triage.json, 0600,
	// and nothing is ever created in $TMPDIR.
	orig := diskWrite
	t.Cleanup(func() { diskWrite = orig })
	seen := 0
	diskWrite = func(f *os.File, b []byte) (int, error) {
		if strings.HasPrefix(filepath.Base(f.Name()), "."+packet.TriageFile) {
			seen++
			fi, err := f.Stat()
			if filepath.Dir(f.Name()) != dir || err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("temporary file %s: mode %v, %v; want 0600 beside %s", f.Name(), fi.Mode().Perm(), err, dir)
			}
		}
		return orig(f, b)
	}
	mustSet(t, s, []string{"1"}, packet.TriageDismissed, "a private note", "ana", t0)
	if seen == 0 {
		t.Error("no temporary file was written through the seam")
	}
	if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
		t.Errorf("files left in $TMPDIR: %v", entries)
	}
}

// The journal crash test's child: it makes gate decisions in a loop until it
// is killed, and prints "decided N" once Decide has returned for the N-th.
// With VETTER_JOURNAL_HALT=K it stops at its K-th write to the disk (the
// journal's append or triage.json's temporary file), prints "halt", and
// waits there to be killed: the parent knows where it was.
func TestHelperDecider(t *testing.T) {
	p, state := childPacket(t, "VETTER_JOURNAL_DIR", "VETTER_JOURNAL_STATE")
	s := openStoreIn(t, p, state)
	n := 0
	if g := p.Triage.Gate; g != nil {
		n, _ = strconv.Atoi(strings.TrimPrefix(g.Note, "n="))
	}
	if k, err := strconv.Atoi(os.Getenv("VETTER_JOURNAL_HALT")); err == nil && k > 0 {
		orig, writes := diskWrite, 0
		diskWrite = func(f *os.File, b []byte) (int, error) {
			if writes++; writes == k {
				fmt.Fprintln(os.Stdout, "halt")
				select {} // killed here
			}
			return orig(f, b)
		}
	}
	fmt.Fprintln(os.Stdout, "ready")
	decisions := []string{DecisionHold, DecisionRequestChanges}
	for i := n + 1; ; i++ {
		if _, _, err := s.Decide(decisions[i%2], "n="+strconv.Itoa(i), "writer", "", t0.Add(time.Duration(i)*time.Second)); err != nil {
			fmt.Fprintln(os.Stdout, "error", err)
			t.Fatal(err)
		}
		fmt.Fprintln(os.Stdout, "decided", i)
	}
}

// Killed 100 times, the decider leaves every decision it completed in both
// files, and the two agree once the store is opened. Each kill comes at a
// point the child was driven to, never at the end of a time window a loaded
// machine may not reach: half the runs stop the child at a chosen write of a
// save (inside the journal's append, between it and triage.json, inside
// triage.json's), the other half kill it at once after a chosen number of
// decisions completed, wherever the next one has got to.
func TestJournalSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a decider 100 times")
	}
	dir, _ := samplePacket(t, nil)
	state := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	completed := map[int]bool{}
	const kills = 100
	halted, decidedRuns := 0, 0
	for i := range kills {
		halt, target := 0, 0
		if i%2 == 0 {
			halt = 1 + rng.IntN(6) // writes alternate: journal, triage.json
		} else {
			target = 1 + rng.IntN(3)
		}
		cmd, out := startChild(t, "TestHelperDecider", "VETTER_JOURNAL_DIR="+dir, "VETTER_JOURNAL_STATE="+state,
			"VETTER_JOURNAL_HALT="+strconv.Itoa(halt))
		reached := make(chan bool, 1)
		lines := make(chan []string, 1)
		go func() {
			var got []string
			decided, signalled := 0, false
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				l := sc.Text()
				got = append(got, l)
				if strings.HasPrefix(l, "decided ") {
					decided++
				}
				if !signalled && ((halt > 0 && l == "halt") || (target > 0 && decided == target)) {
					reached <- true
					signalled = true
				}
			}
			if !signalled {
				close(reached)
			}
			lines <- got
		}()
		ok := <-reached
		cmd.Process.Kill() // SIGKILL: no deferred cleanup runs
		cmd.Wait()
		got := <-lines
		if !ok {
			t.Fatalf("kill %d: the child ended before the point it was driven to: %q", i, got)
		}
		if halt > 0 {
			halted++
		} else {
			decidedRuns++
		}
		for _, l := range got {
			if v, ok := strings.CutPrefix(l, "decided "); ok {
				k, _ := strconv.Atoi(v)
				completed[k] = true
			} else if strings.HasPrefix(l, "error") {
				t.Fatalf("kill %d: the child failed: %s", i, l)
			}
		}

		p := load(t, dir)
		s, err := OpenStore(p, state)
		if err != nil {
			t.Fatalf("kill %d: opening the store: %v", i, err)
		}
		recs := journal(t, s.DecisionsLog())
		inJournal := map[int]bool{}
		for j, rec := range recs {
			k, _ := strconv.Atoi(strings.TrimPrefix(rec.Note, "n="))
			if k != j+1 {
				t.Fatalf("kill %d: journal line %d is decision %d", i, j+1, k)
			}
			inJournal[k] = true
		}
		for k := range completed {
			if !inJournal[k] {
				t.Fatalf("kill %d: completed decision %d is not in %s", i, k, packet.DecisionsFile)
			}
		}
		if len(recs) == 0 {
			continue
		}
		last := recs[len(recs)-1]
		var st packet.TriageState
		data, err := os.ReadFile(s.Where())
		if err != nil || json.Unmarshal(data, &st) != nil {
			t.Fatalf("kill %d: reading %s: %v\n%s", i, s.Where(), err, data)
		}
		if st.Gate == nil || !sameGate(st.Gate, last.gate()) {
			t.Fatalf("kill %d: triage.json's gate %+v disagrees with the journal's last decision %+v", i, st.Gate, last)
		}
		if g := p.Triage.Gate; g == nil || !sameGate(g, last.gate()) {
			t.Fatalf("kill %d: the opened store shows %+v, not the journal's last decision", i, g)
		}
		entries, _ := os.ReadDir(filepath.Dir(s.Where()))
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), "."+packet.TriageFile) {
				t.Fatalf("kill %d: temporary file %s left after opening", i, e.Name())
			}
		}
	}
	t.Logf("%d kills: %d at a chosen write, %d after chosen decisions; %d decisions completed", kills, halted, decidedRuns, len(completed))
}

// A journal entry whose clock is behind triage.json's gate is still the
// later decision: a kill between the two writes is repaired by order.
func TestJournalReconciledBySequenceNotClock(t *testing.T) {
	_, p := samplePacket(t, nil)
	s := openStore(t, p)
	if _, _, err := s.Decide(DecisionRequestChanges, "first", "ana", "", t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	// The second decision reaches the journal, then vetter stops before
	// triage.json; its clock is behind the first's.
	rec := DecisionRecord{Time: t0, User: "ana", SHA: "1bb1c70f4285cf39d8ebaf61573f0095423d52b1", Decision: DecisionHold,
		GateFailing: []string{}, Note: "second", Seq: 2}
	line, _ := json.Marshal(rec)
	f, err := os.OpenFile(s.DecisionsLog(), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(append(line, '\n'))
	f.Close()
	again := load(t, p.Path)
	s2 := openStore(t, again)
	if g := again.Triage.Gate; g == nil || g.Note != "second" || g.Seq != 2 {
		t.Errorf("the journal's last decision was skipped for its clock: %+v", g)
	}
	if !strings.Contains(s2.Repaired(), "brought it up to date") {
		t.Errorf("repaired: %q", s2.Repaired())
	}
}
