package packet

import (
	"path/filepath"
	"testing"
)

// packetSampleDir writes the sample to a folder called name in a new
// temporary directory: a copy the test may change.
func packetSampleDir(t testing.TB, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := WriteSample(dir); err != nil {
		t.Fatalf("writing the sample to %s: %v", dir, err)
	}
	return dir
}

// loadPacket loads a packet, closing it when the test ends.
func loadPacket(t *testing.T, dir string) *Packet {
	t.Helper()
	p, err := Load(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}
