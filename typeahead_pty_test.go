//go:build linux

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/creack/pty"
)

// Keys typed ahead land on the finding they were typed against: the whole
// burst is written to the pseudo-terminal in one write, 100 times, half
// "space a a a" (pass the verdict, accept #1, #2 and #3) and half "space f a"
// (defer #1, accept #2). Every burst must leave exactly those decisions.
func TestTypeAheadBurstsPTY(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vetter and runs it in a pseudo-terminal 100 times")
	}
	bin := buildVetter(t)
	abs, err := filepath.Abs(dynRound1)
	if err != nil {
		t.Fatal(err)
	}
	const bursts = 100
	var good atomic.Int32
	// Two bursts at a time: each spends most of its time waiting for the
	// program to start and draw, so the pairs take half the wall time, and
	// a neighbour's load varies the timing the keys arrive with.
	t.Run("bursts", func(t *testing.T) {
		for i := range bursts {
			burst, want, settled := "  a a a", map[string]string{"review.md#1": "accepted", "review.md#2": "accepted", "review.md#3": "accepted"}, "O ok to test"
			if i%2 == 1 {
				// #3 stays open: the walk shows it once #1 and #2 are saved.
				burst, want, settled = " fa", map[string]string{"review.md#1": "deferred", "review.md#2": "accepted"}, "The heading could name disaggregation"
			}
			burst = burst[:1] + stripSpaces(burst[1:])
			t.Run(strconv.Itoa(i), func(t *testing.T) {
				t.Parallel()
				got, screen := runBurst(t, bin, abs, burst, settled)
				if !sameStates(got, want) {
					t.Errorf("burst %q: decisions %v, want %v\n%s", burst, got, want, screen)
					return
				}
				good.Add(1)
			})
		}
	})
	t.Logf("%d of %d bursts applied every key to the right finding", good.Load(), bursts)
}

func stripSpaces(s string) string {
	out := make([]byte, 0, len(s))
	for i := range len(s) {
		if s[i] != ' ' {
			out = append(out, s[i])
		}
	}
	return string(out)
}

// runBurst opens the workbench on the packet with a fresh state, writes the
// burst in one write once the walk shows the verdict, waits for the screen
// the burst leads to, quits and reads the triage it saved.
func runBurst(t *testing.T, bin, packet, burst, settled string) (map[string]string, string) {
	t.Helper()
	state := t.TempDir()
	cmd := exec.Command(bin, "--theme", "dark", "--watch=false", packet)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "XDG_STATE_HOME="+state, "VETTER_USER=ana")
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		t.Skipf("no pseudo-terminal can be opened here: %v", err)
	}
	defer ptmx.Close()
	defer cmd.Process.Kill()
	out := readPTY(ptmx)
	if !out.until("open the verdict", 20*time.Second) {
		t.Fatalf("the walk did not open on the verdict:\n%q", out.buf.String())
	}
	if _, err := ptmx.Write([]byte(burst)); err != nil {
		t.Fatal(err)
	}
	out.until(settled, 20*time.Second)
	ptmx.Write([]byte("q"))
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	out.rest(10 * time.Second)
	<-exited
	matches, _ := filepath.Glob(filepath.Join(state, "vetter", "*", "triage.json"))
	got := map[string]string{}
	for _, m := range matches {
		data, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		var st struct {
			Findings map[string]struct {
				State string `json:"state"`
			} `json:"findings"`
		}
		if err := json.Unmarshal(data, &st); err != nil {
			t.Fatal(err)
		}
		for id, d := range st.Findings {
			got[id] = d.State
		}
	}
	return got, out.buf.String()[max(0, out.buf.Len()-2000):]
}

func sameStates(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
