package packet

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Files written again byte for byte (a checkout, a copy over the packet)
// are no change: the reload says nothing changed.
func TestDescribeReloadSameBytes(t *testing.T) {
	dir, load := sampleReloads(t)
	p0, s0 := load()
	later := time.Now().Add(time.Hour)
	for rel, body := range readTree(t, dir) {
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, later, later); err != nil {
			t.Fatal(err)
		}
	}
	p1, s1 := load()
	if note, changed := DescribeReload(p0, p1, s0, s1); changed {
		t.Errorf("byte-identical files: %q", note)
	}
	// A log whose bytes changed at the same size is a change.
	logs, _ := filepath.Glob(filepath.Join(dir, "validation", "logs", "*.log"))
	b, _ := os.ReadFile(logs[0])
	b[0] ^= 1
	os.WriteFile(logs[0], b, 0o644)
	os.Chtimes(logs[0], later.Add(time.Hour), later.Add(time.Hour))
	p2, s2 := load()
	if _, changed := DescribeReload(p1, p2, s1, s2); !changed {
		t.Error("a log rewritten with other bytes was not reported")
	}
}
