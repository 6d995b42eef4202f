package main

import (
	"strings"
	"testing"
)

// The refusal says what it refuses once ("refusing ok-to-test: the gate is
// not ready ..."), and triage --list never cuts a location.
func TestRefusalAndListWording(t *testing.T) {
	pinned(t)
	dir := samplePacketDir(t, "", nil)
	_, errOut, code := run(t, "decide", dir, "--ok-to-test")
	if code != 1 || strings.Contains(errOut, "deciding ok-to-test") || !strings.Contains(errOut, "refusing ok-to-test: the gate is not ready") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	out, _, code := run(t, "triage", dir, "--list")
	if code != 0 || !strings.Contains(out, "docs/uploading-artifacts.md:61-62\n") || strings.Contains(out, "…") {
		t.Errorf("triage --list (exit %d):\n%s", code, out)
	}
}
