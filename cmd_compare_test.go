package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

const round2 = "packet/testdata/rounds/round2"

func TestCompareGolden(t *testing.T) {
	// Decisions on the embedded sample live under the state directory; an
	// empty one keeps the golden independent of the machine.
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	out, errOut, code := run(t, "compare", "--markdown", "sample", round2)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	golden(t, "compare.md", out)
}

func TestCompareCommand(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	out, _, code := run(t, "compare", "--json", "sample", round2)
	if code != 0 {
		t.Fatalf("compare --json: exit %d", code)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	head := m["head"].(map[string]any)
	if head["moved"] != true || head["new"] != "5e2f0c7a9d14b38e6f1a2c0b7d9e4a3f81c6b250" {
		t.Errorf("head = %v", head)
	}
	out, _, code = run(t, "compare", "sample", round2)
	if code != 0 || !strings.Contains(out, "Since the last round (1bb1c70f4285 → 5e2f0c7a9d14)") {
		t.Errorf("compare (text): exit %d\n%s", code, out)
	}
	// The same round twice: nothing changed, still exit 0.
	out, _, code = run(t, "compare", round2, round2)
	if code != 0 || !strings.Contains(out, "The head did not move") || !strings.Contains(out, "Findings: 5 unchanged") {
		t.Errorf("a round against itself: exit %d\n%s", code, out)
	}
	if _, errOut, code := run(t, "compare", "sample", filepath.Join(t.TempDir(), "nope")); code != 2 || !strings.Contains(errOut, "not a packet") {
		t.Errorf("missing NEW: exit %d, stderr %q", code, errOut)
	}
	if _, _, code := run(t, "compare", filepath.Join(t.TempDir(), "nope"), "sample"); code != 2 {
		t.Errorf("missing OLD: exit %d, want 2", code)
	}
	if _, _, code := run(t, "compare", "--json", "--markdown", "sample", "sample"); code == 0 {
		t.Error("--json with --markdown was accepted")
	}
	if _, _, code := run(t, "compare", "sample"); code == 0 {
		t.Error("compare with one packet was accepted")
	}
}
