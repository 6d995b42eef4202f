package main

import (
	"strings"
	"testing"
)

// check reports a finding whose quoted text is two lines off the line it
// cites as citation-drift, a warning: the exit code stays 0.
func TestCheckReportsCitationDrift(t *testing.T) {
	out, _, code := run(t, "check", "testdata/drift")
	if code != 0 {
		t.Errorf("check exited %d, want 0 for warnings only:\n%s", code, out)
	}
	for _, want := range []string{"citation-drift", "quoted text is on line 61; the finding cites 63"} {
		if !strings.Contains(out, want) {
			t.Errorf("check lacks %q:\n%s", want, out)
		}
	}
}
