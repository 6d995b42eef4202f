package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/vetter-dev/vetter/github/fakeapi"
)

// The workbench on a pull request, end to end: vetter built and run in a
// pseudo-terminal with GITHUB_API_URL pointing at the fake GitHub, as a
// maintainer would run it in CI's shell. The overview says which commit the
// packet describes against the PR head and what CI says; 7 shows the same
// beside the gate.
func TestPullRequestWorkbenchPTY(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vetter and runs it in a pseudo-terminal")
	}
	bin := buildVetter(t)
	_, url := fakeapi.Serve(t, "github/testdata/pr", 2)

	cmd := exec.Command(bin, "--theme", "dark", "acme/depot#42")
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "GITHUB_API_URL="+url, "GITHUB_GRAPHQL_URL=", "GH_TOKEN=x", "GH_HOST=",
		"XDG_CACHE_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "GH_CONFIG_DIR="+t.TempDir())
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		t.Skipf("no pseudo-terminal can be opened here: %v", err)
	}
	defer ptmx.Close()
	var out syncBuffer
	go io.Copy(&out, ptmx)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer cmd.Process.Kill()

	// A pull request not cached opens staged: the documents and heads at
	// once, CI said not read yet; the rest lands behind it and the screen
	// reloads (redrawing only what changed, so each is looked for alone).
	for _, want := range []string{"the packet describes 1f0c3a9; the PR head is 7e2d4b6", "not read yet: still reading the head's checks",
		"1 commit later", "1 failure (lint)", "packet-current"} {
		if !out.waitFor(want, 10*time.Second) {
			t.Fatalf("the overview never showed %q:\n%q", want, out.String())
		}
	}
	ptmx.Write([]byte("7"))
	if !out.waitFor("What a vetter must look at", 5*time.Second) {
		t.Fatalf("7 did not open the decision screen")
	}
	ptmx.Write([]byte("q"))
	waitQuit(t, exited)
}

// buildVetter builds the vetter binary into a temporary folder.
func buildVetter(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "vetter")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building vetter: %v\n%s", err, out)
	}
	return bin
}

// waitQuit waits for vetter, sent q, to exit cleanly.
func waitQuit(t *testing.T, exited <-chan error) {
	t.Helper()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("vetter exited with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("vetter did not quit on q within 5 s")
	}
}
