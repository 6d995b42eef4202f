//go:build linux

package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"

	"github.com/vetter-dev/vetter/packet"
)

// vtScreen is what a person sees of vetter in a pseudo-terminal: its output
// fed to a terminal emulator, read as text.
type vtScreen struct {
	out *ptyReader
	emu *vt.Emulator
	fed int // how much of out.buf the emulator has been fed
}

func (s *vtScreen) text() string {
	if b := s.out.buf.Bytes(); len(b) > s.fed {
		s.emu.Write(b[s.fed:])
		s.fed = len(b)
	}
	return s.emu.String()
}

// until reads vetter's output until the screen satisfies ok; false when
// vetter writes nothing for the deadline before it does (a hung program).
func (s *vtScreen) until(ok func(string) bool, deadline time.Duration) bool {
	return s.out.read(func() bool { return ok(s.text()) }, false, deadline)
}

// keyName is how the report writes a key.
var keyName = map[string]string{" ": "space", "\r": "enter", "\x1b[6~": "pgdown"}

// walkPTY is vetter's workbench on a packet in a pseudo-terminal of 80×24,
// with the state in state: the keys typed, counted, and the screens seen.
type walkPTY struct {
	t      *testing.T
	ptmx   *os.File
	screen *vtScreen
	keys   []string
}

func startWalkPTY(t *testing.T, bin, dir, state string) *walkPTY {
	t.Helper()
	cmd := exec.Command(bin, "--theme", "dark", "--watch=false", dir)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "XDG_STATE_HOME="+state, "VETTER_USER=ana")
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Skipf("no pseudo-terminal can be opened here: %v", err)
	}
	emu := vt.NewEmulator(80, 24)
	// The terminal's answers (its colours, its attributes) go back to vetter.
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		io.Copy(ptmx, emu)
	}()
	w := &walkPTY{t: t, ptmx: ptmx, screen: &vtScreen{out: readPTY(ptmx), emu: emu}}
	t.Cleanup(func() {
		ptmx.Write([]byte("q"))
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		w.screen.out.rest(10 * time.Second)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
		ptmx.Close()
		// The copy waits in the emulator's Read, which its Close would race
		// with: a question the emulator answers ends the wait, and the
		// answer's write to the closed terminal ends the copy.
		emu.Write([]byte("\x1b[c"))
		<-copied
	})
	return w
}

// typeKey types key (one key, or one paste counted as one) and counts it.
func (w *walkPTY) typeKey(key string) {
	w.t.Helper()
	name := key
	if n, ok := keyName[key]; ok {
		name = n
	} else if strings.HasPrefix(key, "\x1b[200~") {
		name = "note"
	}
	w.keys = append(w.keys, name)
	if _, err := w.ptmx.Write([]byte(key)); err != nil {
		w.t.Fatal(err)
	}
}

// press types key and reads until the screen shows want.
func (w *walkPTY) press(key, want string) string {
	w.t.Helper()
	w.typeKey(key)
	return w.waitFor(want)
}

func (w *walkPTY) waitFor(want string) string {
	w.t.Helper()
	if !w.screen.until(func(s string) bool { return strings.Contains(s, want) }, 20*time.Second) {
		w.t.Fatalf("after %v the screen never showed %q:\n%s", w.keys, want, w.screen.text())
	}
	return w.screen.text()
}

// marked is the row the walk draws for line n of a cited file, marked.
func marked(n int) string { return fmt.Sprintf("▌ %4d ", n) }

// citedLines are the lines the walk marks for a finding: of each cited
// line of the diff, the packet and the logs, the first the finding quotes
// (where the quote really is when the citation drifted or named no line).
func citedLines(f *packet.Finding) []string {
	var out []string
	diff, log := false, false
	for _, c := range f.Citations {
		if !c.Resolved {
			continue
		}
		n := c.Line
		if c.Anchor.Drift || c.Line == 0 && c.Anchor.Marked() {
			n = c.Anchor.Line
		}
		if n <= 0 {
			continue
		}
		switch {
		case (c.Kind == packet.CiteDiff || c.Kind == packet.CitePacket) && !diff:
			diff = true
			out = append(out, marked(n))
		case c.Kind == packet.CiteLog && !log:
			log = true
			out = append(out, marked(n))
		}
	}
	return out
}

// onFinding checks the walk shows finding f with every line it cites marked
// on screen, paging down (a key counted) while the step scrolls and a line
// has not been on screen yet.
func (w *walkPTY) onFinding(f *packet.Finding, screen string) {
	w.t.Helper()
	if !strings.Contains(screen, f.ID) || !strings.Contains(screen, "a accept") {
		w.t.Fatalf("after %v the walk does not show %s with its keys:\n%s", w.keys, f.ID, screen)
	}
	want := citedLines(f)
	if len(want) == 0 {
		w.t.Fatalf("%s cites no line; the test would prove nothing", f.ID)
	}
	seen := map[string]bool{}
	for {
		for _, m := range want {
			seen[m] = seen[m] || strings.Contains(screen, m)
		}
		if len(seen) == len(want) && !slicesContainsFalse(seen) {
			return
		}
		if !strings.Contains(screen, "↓/j more") {
			w.t.Fatalf("after %v, %s: the cited lines %q are not all on screen and the step does not scroll:\n%s", w.keys, f.ID, want, screen)
		}
		before := screen
		w.typeKey("\x1b[6~")
		w.screen.until(func(s string) bool { return s != before }, 20*time.Second)
		screen = w.screen.text()
	}
}

func slicesContainsFalse(m map[string]bool) bool {
	for _, v := range m {
		if !v {
			return true
		}
	}
	return false
}

// walkHeader finds the finding the walk shows: "… open · review.md#2".
var walkHeader = regexp.MustCompile(`Walk  \d+ of \d+ open · (\S+)`)

// A justified ok-to-test on the real two-round DYN-3726 work item, typed
// into vetter running in a pseudo-terminal of 80×24: each open finding is
// seen with the lines it cites marked on screen (checked at every key,
// paging down where a step scrolls), triaged, the gate seen on the decision
// screen, and the decision recorded, in at most 12 keys plus the note
// where the gate needs one. Round 2 is walked twice: after round 1 in the
// same state, where it carries three runs proven to be round 1's (its gate
// holds on evidence-current, ok-to-test needs a reason) and its findings,
// unchanged, were triaged in round 1 and are not shown again; and alone.
func TestJustifiedOkToTestKeysPTY(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vetter and runs it in a pseudo-terminal")
	}
	bin := buildVetter(t)
	shared := t.TempDir()
	for _, round := range []struct {
		name, dir, head string
		state           string
		note, findings  bool
	}{
		{"round1", dynRound1, dynHead1, shared, false, true},
		{"round2 after round1", dynRound2, dynHead2, shared, true, false},
		// Alone, nothing proves where the carried runs ran: on the
		// packet's word, the gate is ready.
		{"round2 alone", dynRound2, dynHead2, t.TempDir(), false, true},
	} {
		t.Run(round.name, func(t *testing.T) {
			abs, err := filepath.Abs(round.dir)
			if err != nil {
				t.Fatal(err)
			}
			p, err := packet.Load(abs, packet.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			w := startWalkPTY(t, bin, abs, round.state)
			screen := w.waitFor("open the verdict")
			if !strings.Contains(screen, "Gate        not ready") {
				t.Fatalf("the walk's first step does not show the gate not ready:\n%s", screen)
			}
			const decision = "What a vetter must look at"
			key := " "
			var seen []string
			for {
				before := screen
				w.typeKey(key)
				// The next step: another finding, or the decision.
				w.screen.until(func(s string) bool {
					m := walkHeader.FindStringSubmatch(s)
					return strings.Contains(s, decision) || m != nil && (len(seen) == 0 || m[1] != seen[len(seen)-1]) && s != before
				}, 20*time.Second)
				screen = w.screen.text()
				if strings.Contains(screen, decision) {
					break
				}
				m := walkHeader.FindStringSubmatch(screen)
				if m == nil {
					t.Fatalf("after %v neither a finding nor the decision:\n%s", w.keys, screen)
				}
				f := p.Finding(m[1])
				if f == nil {
					t.Fatalf("the walk shows %s, which the packet does not have", m[1])
				}
				w.onFinding(f, screen)
				seen = append(seen, f.ID)
				key = "a"
			}
			if round.findings != (len(seen) == len(p.Findings)) || !round.findings && len(seen) > 0 {
				t.Errorf("the walk showed %v of the %d findings", seen, len(p.Findings))
			}
			ready := !round.note
			if strings.Contains(screen, "Gate   ready") != ready || !strings.Contains(screen, "/ok to test "+round.head) {
				t.Fatalf("after %v the decision screen does not show the gate (ready %v) and /ok to test %s:\n%s", w.keys, ready, round.head, screen)
			}
			if round.note {
				w.press("O", "To give ok-to-test anyway, write why:")
				w.press("\x1b[200~the re-lint is the only new run; the carried runs are round 1's, read there\x1b[201~", "the re-lint")
			} else {
				w.press("O", "note (optional)")
			}
			w.press("\r", "ok-to-test for "+round.head[:7]+" by ana stands")

			keys := len(w.keys)
			if round.note {
				keys-- // the note is counted apart
			}
			t.Logf("%s: findings %v; %d keys%s: %s", round.name, seen, keys, map[bool]string{true: " plus a note", false: ""}[round.note], strings.Join(w.keys, " "))
			if keys > 12 {
				t.Errorf("a justified ok-to-test took %d keys, more than 12: %v", keys, w.keys)
			}
		})
	}
}
