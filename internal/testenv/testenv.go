// Package testenv sets up what every test binary of vetter shares: a
// reviewer's state directory of its own and a pinned user, so no test reads
// or writes the reviewer's real ~/.local/state.
package testenv

import (
	"fmt"
	"os"
)

// IsolateState points XDG_STATE_HOME at a new temporary folder and pins
// VETTER_USER (unless set), for a TestMain to call before m.Run; the
// returned function removes the folder.
func IsolateState() (cleanup func()) {
	state, err := os.MkdirTemp("", "vetter-state-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "testenv:", err)
		os.Exit(2)
	}
	os.Setenv("XDG_STATE_HOME", state)
	if os.Getenv("VETTER_USER") == "" {
		os.Setenv("VETTER_USER", "tester")
	}
	return func() { os.RemoveAll(state) }
}
