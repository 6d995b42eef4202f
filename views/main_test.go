package views

import (
	"fmt"
	"os"
	"testing"
)

// TestMain keeps the reviewer's state of every test in a folder of its own,
// never in the user's ~/.local/state, and pins who decided.
func TestMain(m *testing.M) {
	state, err := os.MkdirTemp("", "vetter-views-state-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("XDG_STATE_HOME", state)
	if os.Getenv("VETTER_USER") == "" {
		os.Setenv("VETTER_USER", "tester")
	}
	code := m.Run()
	os.RemoveAll(state)
	os.Exit(code)
}
