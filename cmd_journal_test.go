package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
)

// decide cuts a torn line off the journal before it appends (so the new
// decision is not glued onto it) and says it did.
func TestDecideRepairsTornJournal(t *testing.T) {
	pinned(t)
	dir := samplePacketDir(t, "", nil)
	mustRun(t, "decide", dir, "--hold", "--note", "first")
	p, err := packet.Load(dir, packet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := review.OpenStore(p, "")
	p.Close()
	if err != nil {
		t.Fatal(err)
	}
	log := s.DecisionsLog()
	whole, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, append(bytes.Clone(whole), `{"time":"2026-10-15T09:3`...), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "decide", dir, "--request-changes", "--note", "second")
	if code != 0 || out != "" || !strings.Contains(errOut, "torn line") {
		t.Errorf("decide after a torn line: exit %d, out %q, err %q", code, out, errOut)
	}
	data, _ := os.ReadFile(log)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if !bytes.HasPrefix(data, whole) || len(lines) != 2 || !strings.Contains(lines[1], `"note":"second"`) {
		t.Errorf("decisions.jsonl after the repair:\n%s", data)
	}
}
