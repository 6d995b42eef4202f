package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/packet"
)

// TestInboxFolderRefusesPacketFlags: a folder of packets opens the inbox,
// so the flags that take one packet say so instead of failing to load it.
func TestInboxFolderRefusesPacketFlags(t *testing.T) {
	dir := t.TempDir()
	if err := packet.WriteSample(filepath.Join(dir, "one")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--print", dir}, {"--open", "review.md#1", dir}} {
		_, _, code := run(t, args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	// A packet inside it still prints as before.
	out, _, code := run(t, "--print", filepath.Join(dir, "one"))
	if code != 0 || !strings.Contains(out, "ACME-4812") {
		t.Errorf("--print on a packet: exit %d\n%s", code, out)
	}
	// --watch is a flag of the workbench; --print ignores it.
	if _, _, code := run(t, "--watch=false", "--print", filepath.Join(dir, "one")); code != 0 {
		t.Errorf("--watch=false --print: exit %d", code)
	}
}
