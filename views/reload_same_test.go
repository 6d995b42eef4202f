package views

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"vetter/packet"
)

// Files written again byte for byte (a checkout, a copy over the packet)
// are no change: the reload says nothing changed.
func TestDescribeChangesSameBytes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pkt")
	if err := packet.WriteSample(dir); err != nil {
		t.Fatal(err)
	}
	load := func() (*packet.Packet, Stamps) {
		p, err := packet.Load(dir, packet.Options{DeferLogIndex: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		return p, StampFiles(p)
	}
	p0, s0 := load()
	later := time.Now().Add(time.Hour)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return err
		}
		return os.Chtimes(path, later, later)
	})
	if err != nil {
		t.Fatal(err)
	}
	p1, s1 := load()
	if got := DescribeChanges(p0, p1, s0, s1); got != noChange {
		t.Errorf("byte-identical files: %q", got)
	}
}
