package review

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/internal/packettest"
	"github.com/vetter-dev/vetter/packet"
)

// test name -> state directory

func TestTriageRoundTrip(t *testing.T) {
	dir, p := samplePacket(t, nil)
	s := openStore(t, p)
	if s.Where() != filepath.Join(packettest.State(t), "vetter", p.WorkItem().Dir, packet.TriageFile) {
		t.Fatalf("where = %s", s.Where())
	}
	mustSet(t, s, []string{"1"}, packet.TriageAccepted, "valid: the clamp is missing", "ana", t0)
	for _, n := range []string{packet.TriageFile, packet.DecisionsFile, packet.RoundsFile} {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			t.Errorf("%s was written into the packet", n)
		}
	}
	mustSet(t, s, []string{"#4"}, packet.TriageDismissed, "the next sentence says it is a bound", "ana", t0.Add(time.Minute))
	mustSet(t, s, []string{"review.md#3"}, packet.TriageDeferred, "", "ana", t0.Add(2*time.Minute))
	// A state change with no note keeps the note.
	mustSet(t, s, []string{"1"}, packet.TriageDeferred, "", "bo", t0.Add(3*time.Minute))
	if st, _, d := TriageOf(p, p.Finding("review.md#1")); st != packet.TriageDeferred || d.Note != "valid: the clamp is missing" {
		t.Errorf("in memory: %s %+v", st, d)
	}

	fresh := load(t, dir)
	want := map[string]struct{ state, note, user string }{
		"review.md#1": {packet.TriageDeferred, "valid: the clamp is missing", "bo"},
		"review.md#2": {packet.TriageOpen, "", ""},
		"review.md#3": {packet.TriageDeferred, "", "ana"},
		"review.md#4": {packet.TriageDismissed, "the next sentence says it is a bound", "ana"},
	}
	for id, w := range want {
		st, stale, d := TriageOf(fresh, fresh.Finding(id))
		if st != w.state || stale {
			t.Errorf("%s after reload: %s stale=%v, want %s", id, st, stale, w.state)
		}
		if d != nil && (d.Note != w.note || d.User != w.user) {
			t.Errorf("%s after reload: %+v", id, d)
		}
	}
	if d := fresh.Triage.Findings["review.md#1"]; !d.Time.Equal(t0.Add(3 * time.Minute)) {
		t.Errorf("time = %v", d.Time)
	}
	// Reload on a store sees another store's writes.
	other := openStore(t, load(t, dir))
	mustSet(t, other, []string{"2"}, packet.TriageAccepted, "", "cy", t0.Add(time.Hour))
	if err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	if st, _, _ := TriageOf(p, p.Finding("review.md#2")); st != packet.TriageAccepted {
		t.Errorf("after Reload #2 is %s", st)
	}
}

func TestTriageRejects(t *testing.T) {
	_, p := samplePacket(t, nil)
	s := openStore(t, p)
	if _, err := s.Set([]string{"4"}, packet.TriageDismissed, "  ", "ana", t0); !errors.Is(err, ErrNoteRequired) {
		t.Errorf("dismiss without a note: %v", err)
	}
	if _, err := s.Set([]string{"9"}, packet.TriageAccepted, "", "ana", t0); !errors.Is(err, ErrUnknownFinding) {
		t.Errorf("unknown finding: %v", err)
	}
	if _, err := s.Set([]string{"1"}, "valid", "", "ana", t0); !errors.Is(err, ErrBadState) {
		t.Errorf("bad state: %v", err)
	}
	mustSet(t, s, []string{"4"}, packet.TriageDismissed, "reason", "ana", t0)
	if _, err := s.SetNote("4", "", "ana", t0); !errors.Is(err, ErrNoteRequired) {
		t.Errorf("clearing a dismissal's note: %v", err)
	}
	// A dismissal whose finding already carries a note needs no new one.
	mustSet(t, s, []string{"4"}, packet.TriageOpen, "", "ana", t0)
	mustSet(t, s, []string{"4"}, packet.TriageDismissed, "", "ana", t0)
	if _, err := os.Stat(s.Where()); err != nil {
		t.Fatal(err)
	}
	if p.Triage.Findings["review.md#4"].Note != "reason" {
		t.Errorf("note lost: %+v", p.Triage.Findings["review.md#4"])
	}
}

func TestTriageStale(t *testing.T) {
	dir, p := samplePacket(t, nil)
	s := openStore(t, p)
	mustSet(t, s, []string{"1", "2", "3", "4", "5"}, packet.TriageAccepted, "", "ana", t0)
	if g := Gate(p); !checkOK(g, CheckFindingsTriaged) {
		t.Fatalf("all triaged, yet %v", g.Checks)
	}

	// Re-wrapping a claim's white space keeps the decision current.
	packettest.EditReview(t, dir, func(s string) string { return strings.Replace(s, "Off by one: ", "Off  by   one: ", 1) })
	if p2 := load(t, dir); !Triaged(p2, p2.Finding("review.md#2")) {
		t.Error("a white-space change made the decision stale")
	}

	// Changing what it says makes it stale: kept, shown stale, untriaged.
	packettest.EditReview(t, dir, func(s string) string { return strings.Replace(s, "Off  by   one: ", "Off by two: ", 1) })
	p2 := load(t, dir)
	s2 := openStore(t, p2)
	f := p2.Finding("review.md#2")
	st, stale, d := TriageOf(p2, f)
	if st != packet.TriageAccepted || !stale || d == nil {
		t.Fatalf("changed finding: %s stale=%v", st, stale)
	}
	g := Gate(p2)
	if checkOK(g, CheckFindingsTriaged) || !strings.Contains(checkDetail(g, CheckFindingsTriaged), "1 stale") {
		t.Errorf("a stale decision counts as triaged: %v", g.Checks)
	}
	// Confirming it again records the new fingerprint.
	mustSet(t, s2, []string{"2"}, packet.TriageAccepted, "", "ana", t0.Add(time.Minute))
	if !Triaged(p2, f) || !checkOK(Gate(p2), CheckFindingsTriaged) {
		t.Error("confirming the decision again did not make it current")
	}
}

func checkOK(g packet.Gate, name string) bool {
	for _, c := range g.Checks {
		if c.Name == name {
			return c.OK
		}
	}
	return false
}

func checkDetail(g packet.Gate, name string) string {
	for _, c := range g.Checks {
		if c.Name == name {
			return c.Detail
		}
	}
	return ""
}

// Two vetters on one packet: each saves on top of what the other saved.
func TestStoreMerge(t *testing.T) {
	dir, pa := samplePacket(t, nil)
	a := openStore(t, pa)
	pb := load(t, dir)
	b := openStore(t, pb) // opened before a writes anything

	if rep := mustSet(t, a, []string{"1"}, packet.TriageAccepted, "a: valid, clamp missing", "ana", t0); rep.Merged() {
		t.Errorf("first write merged: %+v", rep)
	}
	mustSet(t, a, []string{"3"}, packet.TriageDeferred, "a: later", "ana", t0.Add(time.Second))

	// b changes #2 and, later than a, #1 with another note.
	rep := mustSet(t, b, []string{"2"}, packet.TriageAccepted, "", "bo", t0.Add(2*time.Second))
	if !rep.Merged() || strings.Join(rep.Findings, ",") != "review.md#1,review.md#3" || len(rep.Conflicts) != 0 {
		t.Errorf("b's first save: %+v", rep)
	}
	if !strings.Contains(rep.String(), "review.md#1") {
		t.Errorf("report text: %q", rep.String())
	}
	// b's in-memory state now carries a's decisions; change #1 without a
	// conflict (b saw a's note).
	if st, _, _ := TriageOf(pb, pb.Finding("review.md#1")); st != packet.TriageAccepted {
		t.Errorf("b did not take a's #1: %s", st)
	}

	// Now a real conflict: both change #5 from the same base.
	mustSet(t, a, []string{"5"}, packet.TriageAccepted, "a: the range check is cheap", "ana", t0.Add(3*time.Second))
	rep = mustSet(t, b, []string{"5"}, packet.TriageDeferred, "b: follow-up ticket", "bo", t0.Add(4*time.Second))
	if strings.Join(rep.Conflicts, ",") != "review.md#5" {
		t.Errorf("conflict not reported: %+v", rep)
	}
	d := pb.Triage.Findings["review.md#5"]
	if d.State != packet.TriageDeferred || d.User != "bo" || d.Note != "b: follow-up ticket"+mergedNoteSep+"a: the range check is cheap" {
		t.Errorf("merged #5 = %+v", d)
	}

	// a saves again: it takes b's work and loses none of its own.
	rep = mustSet(t, a, []string{"4"}, packet.TriageDismissed, "a: wording is fine", "ana", t0.Add(5*time.Second))
	if !rep.Merged() {
		t.Error("a did not notice b's writes")
	}
	final := load(t, dir)
	for id, want := range map[string]string{"review.md#1": packet.TriageAccepted, "review.md#2": packet.TriageAccepted,
		"review.md#3": packet.TriageDeferred, "review.md#4": packet.TriageDismissed, "review.md#5": packet.TriageDeferred} {
		if st, _, _ := TriageOf(final, final.Finding(id)); st != want {
			t.Errorf("final %s = %s, want %s", id, st, want)
		}
	}
	if n := final.Triage.Findings["review.md#5"].Note; !strings.Contains(n, "a: the range check") || !strings.Contains(n, "b: follow-up") {
		t.Errorf("a note was lost: %q", n)
	}

	// The gate: b decides after a, on a stale view; the later one stands and
	// b is told.
	if _, _, err := a.Decide(DecisionHold, "a: waiting for the fix", "ana", "", t0.Add(6*time.Second)); err != nil {
		t.Fatal(err)
	}
	gd, rep, err := b.Decide(DecisionRequestChanges, "b: finding 1", "bo", "", t0.Add(7*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if !rep.GateChanged || gd.Decision != DecisionRequestChanges || pb.Triage.Gate.Decision != DecisionRequestChanges {
		t.Errorf("gate merge: %+v, %+v", rep, pb.Triage.Gate)
	}
	// A decision made after another stands, whatever its machine's clock
	// says: decisions are ordered by the journal, never by clocks.
	_, rep, err = a.Decide(DecisionHold, "a: clock behind", "ana", "", t0.Add(-time.Hour))
	if err != nil || !rep.GateChanged || pa.Triage.Gate.User != "ana" || pa.Triage.Gate.Seq != 3 {
		t.Errorf("the decision made last did not stand: %v %+v %+v", err, rep, pa.Triage.Gate)
	}
	lines := readLines(t, a.DecisionsLog())
	if len(lines) != 3 {
		t.Errorf("decisions.jsonl has %d lines, want 3 (every decision appended)", len(lines))
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func TestMergeDecisionFields(t *testing.T) {
	b := &packet.Decision{State: packet.TriageAccepted, Note: "base", Time: t0, User: "ana", Fingerprint: "f1"}
	for _, c := range []struct {
		name          string
		theirs, ours  packet.Decision
		state, note   string
		user          string
		wantFromLater bool
	}{
		{"they change state, we change note later", packet.Decision{State: packet.TriageDeferred, Note: "base", Time: t0.Add(1), User: "bo", Fingerprint: "f1"},
			packet.Decision{State: packet.TriageAccepted, Note: "ours", Time: t0.Add(2), User: "ana", Fingerprint: "f1"}, packet.TriageDeferred, "ours", "ana", true},
		{"both change state, theirs later", packet.Decision{State: packet.TriageDismissed, Note: "base", Time: t0.Add(3), User: "bo"},
			packet.Decision{State: packet.TriageDeferred, Note: "base", Time: t0.Add(2), User: "ana"}, packet.TriageDismissed, "base", "bo", true},
		{"both change note", packet.Decision{State: packet.TriageAccepted, Note: "theirs", Time: t0.Add(1), User: "bo"},
			packet.Decision{State: packet.TriageAccepted, Note: "ours", Time: t0.Add(2), User: "ana"}, packet.TriageAccepted, "ours" + mergedNoteSep + "theirs", "ana", true},
		{"one note empties", packet.Decision{State: packet.TriageAccepted, Note: "", Time: t0.Add(3), User: "bo"},
			packet.Decision{State: packet.TriageAccepted, Note: "ours", Time: t0.Add(2), User: "ana"}, packet.TriageAccepted, "ours", "bo", true},
		{"note already merged once", packet.Decision{State: packet.TriageAccepted, Note: "x" + mergedNoteSep + "y", Time: t0.Add(1), User: "bo"},
			packet.Decision{State: packet.TriageAccepted, Note: "x", Time: t0.Add(2), User: "ana"}, packet.TriageAccepted, "x" + mergedNoteSep + "y", "ana", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := mergeDecision(b, &c.theirs, &c.ours)
			if m.State != c.state || m.Note != c.note || m.User != c.user {
				t.Errorf("merged = %+v", m)
			}
		})
	}
}

// A packet vetter cannot write to keeps its decisions under the state folder.
func TestStoreOutsideThePacket(t *testing.T) {
	p := packet.LoadSample(packet.Options{})
	state := t.TempDir()
	s, err := OpenStore(p, state)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.Where(), filepath.Join(state, "vetter", "ACME-4812-")) {
		t.Fatalf("where = %s", s.Where())
	}
	mustSet(t, s, []string{"2"}, packet.TriageAccepted, "", "ana", t0)
	if p.Triage.Where != s.Where() {
		t.Errorf("Triage.Where = %s", p.Triage.Where)
	}
	p2 := packet.LoadSample(packet.Options{})
	if err := ReadReviewerState(p2, state); err != nil || !Triaged(p2, p2.Finding("review.md#2")) {
		t.Errorf("ReadReviewerState does not see the decision: %v", err)
	}
	s2, _ := OpenStore(packet.LoadSample(packet.Options{}), state)
	if s2.Where() != s.Where() {
		t.Error("the same packet did not get the same identity")
	}
}

func TestStoreRefusesWhatItDidNotWrite(t *testing.T) {
	_, p := samplePacket(t, nil)
	dir := filepath.Join(packettest.State(t), "vetter", p.WorkItem().Dir)
	os.MkdirAll(dir, 0o700)
	path := filepath.Join(dir, packet.TriageFile)
	os.WriteFile(path, []byte("{not json"), 0o644)
	// A record vetter cannot read is set aside under a name that says so,
	// byte for byte, and a new one is started beside it; the person is told.
	s0, err := OpenStore(p, packettest.State(t))
	if err != nil {
		t.Fatalf("corrupt triage.json locked the work item: %v", err)
	}
	asides, _ := filepath.Glob(path + ".unreadable-*")
	if len(asides) != 1 {
		t.Fatalf("corrupt triage.json was not set aside: %v", asides)
	}
	if data, _ := os.ReadFile(asides[0]); string(data) != "{not json" {
		t.Error("the set-aside triage.json was changed")
	}
	if msg := s0.Repaired(); !strings.Contains(msg, "could not be read") || !strings.Contains(msg, filepath.Base(asides[0])) {
		t.Errorf("setting it aside was silent: %q", msg)
	}
	mustSet(t, s0, []string{"2"}, packet.TriageAccepted, "", "ana", t0)
	os.Remove(asides[0])

	// A link planted in the state folder is neither followed nor replaced.
	os.Remove(path)
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte(`{"version":1}`), 0o644)
	if err := os.Symlink(secret, path); err != nil {
		t.Skip("no symbolic links here")
	}
	if _, err := OpenStore(p, packettest.State(t)); err == nil {
		t.Error("a triage.json link was accepted")
	}
	os.Remove(path)
	if err := os.Symlink(secret, filepath.Join(dir, packet.DecisionsFile)); err != nil {
		t.Fatal(err)
	}
	s := openStore(t, p)
	if _, _, err := s.Decide(DecisionHold, "", "ana", "", t0); err == nil {
		t.Error("appending through a decisions.jsonl link succeeded")
	}
	if data, _ := os.ReadFile(secret); string(data) != `{"version":1}` {
		t.Errorf("the link's target was written: %q", data)
	}
}

func TestLookupFinding(t *testing.T) {
	p := packet.LoadSample(packet.Options{})
	for ref, want := range map[string]string{
		"review.md#2": "review.md#2", "#2": "review.md#2", "2": "review.md#2", " 5 ": "review.md#5",
		"review.md2": "review.md#2", "9": "", "": "", "#": "", "-1": "", "+2": "", "two": "", "review.md#": "",
	} {
		got := ""
		if f := p.LookupFinding(ref); f != nil {
			got = f.ID
		}
		if got != want {
			t.Errorf("LookupFinding(%q) = %q, want %q", ref, got, want)
		}
	}
}

// The crash test's writer: run as a child process, it saves decisions in a
// loop until it is killed. Every save sets every finding to the same note, a
// counter one higher than the last, so a torn or mixed file shows.
func TestHelperWriter(t *testing.T) {
	p, state := childPacket(t, "VETTER_CRASH_DIR", "VETTER_CRASH_STATE")
	s := openStoreIn(t, p, state)
	n, _ := crashCounter(p.Triage)
	ids := []string{"1", "2", "3", "4", "5"}
	states := []string{packet.TriageAccepted, packet.TriageDeferred}
	for i := n + 1; ; i++ {
		if _, err := s.Set(ids, states[i%2], strconv.Itoa(i), "writer", t0.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
		// The parent counts these lines to kill it in the middle of a
		// later save, however slowly this process starts (-race).
		fmt.Fprintln(os.Stdout, "saved", i)
	}
}

// childPacket is the start of a crash test's child (TestHelperWriter,
// TestHelperDecider): it loads the packet named by the environment variable
// dirVar and returns it with the state folder named by stateVar. Run by go
// test itself, not as a child, the test is skipped.
func childPacket(t *testing.T, dirVar, stateVar string) (*packet.Packet, string) {
	t.Helper()
	dir := os.Getenv(dirVar)
	if dir == "" {
		t.Skip("only run as a crash test's child process")
	}
	p, err := packet.Load(dir, packet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p, os.Getenv(stateVar)
}

// startChild runs this test binary again for the one child test named, with
// env added to its environment, and returns it started with its standard
// output to read: the crash tests count its lines, kill it and then check
// what it left on disk.
func startChild(t *testing.T, test string, env ...string) (*exec.Cmd, io.ReadCloser) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatalf("starting %s: %v", test, err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", test, err)
	}
	return cmd, out
}

// crashCounter checks that a state is one the writer saved whole and returns
// its counter.
func crashCounter(st *packet.TriageState) (int, error) {
	if len(st.Findings) == 0 {
		return 0, nil
	}
	if len(st.Findings) != 5 {
		return 0, errors.New("not every finding present: " + strconv.Itoa(len(st.Findings)))
	}
	n := -1
	for id, d := range st.Findings {
		v, err := strconv.Atoi(d.Note)
		if err != nil {
			return 0, errors.New(id + ": note " + strconv.Quote(d.Note))
		}
		if n >= 0 && v != n {
			return 0, errors.New("findings from two different saves")
		}
		n = v
		if want := []string{packet.TriageAccepted, packet.TriageDeferred}[v%2]; d.State != want || d.Fingerprint == "" {
			return 0, errors.New(id + ": state " + d.State)
		}
	}
	return n, nil
}

// Killed at any instant, the writer leaves the old state or a new one, whole.
func TestTriageSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a writer 200 times")
	}
	dir, p := samplePacket(t, nil)
	state := packettest.State(t)
	path := filepath.Join(state, "vetter", p.WorkItem().Dir, packet.TriageFile)
	rng := rand.New(rand.NewPCG(1, 2))
	last, saves := 0, 0
	const kills = 220
	for i := 0; i < kills; i++ {
		cmd, out := startChild(t, "TestHelperWriter", "VETTER_CRASH_DIR="+dir, "VETTER_CRASH_STATE="+state)
		// Kill it after a random number of whole saves (none, some times):
		// counting its lines rather than sleeping puts the kill in the middle
		// of the writer's next save on a fast machine and a slow one alike.
		lines := bufio.NewScanner(out)
		for range rng.IntN(4) {
			if !lines.Scan() {
				break
			}
		}
		cmd.Process.Kill()       // SIGKILL: no deferred cleanup runs
		io.Copy(io.Discard, out) // to its end, which the kill makes near
		cmd.Wait()

		data, err := os.ReadFile(path)
		if os.IsNotExist(err) && last == 0 {
			continue // killed before its first save
		}
		if err != nil {
			t.Fatalf("kill %d: %v", i, err)
		}
		var st packet.TriageState
		if err := json.Unmarshal(data, &st); err != nil {
			t.Fatalf("kill %d: triage.json does not parse: %v\n%s", i, err, data)
		}
		n, err := crashCounter(&st)
		if err != nil {
			t.Fatalf("kill %d: torn state: %v\n%s", i, err, data)
		}
		if n < last {
			t.Fatalf("kill %d: state went back from %d to %d", i, last, n)
		}
		if n > last {
			saves++
		}
		last = n
	}
	if saves < kills/4 {
		t.Errorf("only %d of %d runs saved anything; the kills did not exercise writing", saves, kills)
	}
	t.Logf("%d kills, %d runs saved, %d saves in all", kills, saves, last)
}
