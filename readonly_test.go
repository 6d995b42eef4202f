package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/internal/testenv"
)

// Reading never needs writing: summary, check, export and triage --list run
// on a read-only state disk for a packet with a head vetter has not seen,
// and say that the round could not be remembered.
func TestReadingCommandsOnAReadOnlyStateDisk(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	dir := samplePacketDir(t, "", nil)
	if _, errs, code := run(t, "triage", dir, "2", "--accept"); code != 0 {
		t.Fatalf("triage: %d %s", code, errs)
	}
	next := samplePacketDir(t, "change.md", func(s string) string {
		return strings.ReplaceAll(s, "1bb1c70f4285cf39d8ebaf61573f0095423d52b1", "3333333333333333333333333333333333333333")
	})
	testenv.ReadOnly(t, state)
	for _, args := range [][]string{
		{"summary", next}, {"summary", "--json", next}, {"triage", next, "--list"},
		{"check", next}, {"export", "--format", "markdown", next},
	} {
		out, errs, code := run(t, args...)
		if code == 2 {
			t.Errorf("%v on a read-only state disk: exit 2\n%s", args, errs)
			continue
		}
		if args[0] != "check" && !strings.Contains(errs, "could not be remembered") {
			t.Errorf("%v does not say the round was not kept: %q", args, errs)
		}
		if args[0] == "triage" && !strings.Contains(out, "#2   minor   accepted") {
			t.Errorf("triage --list lost the decision on a read-only disk:\n%s", out)
		}
	}
	if entries, _ := filepath.Glob(filepath.Join(state, "vetter", "*", "rounds", "3333*")); len(entries) > 0 {
		t.Errorf("a copy of the round was left: %v", entries)
	}
}
