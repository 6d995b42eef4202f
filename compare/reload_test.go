package compare

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/internal/packettest"
	"github.com/vetter-dev/vetter/packet"
)

// A reload's note, from Compare and the files' stamps.
func TestDescribeReload(t *testing.T) {
	dir, load := sampleReloads(t)
	p0, s0 := load()
	packettest.EditReview(t, dir, func(s string) string {
		return strings.Replace(s, "Off by one: `attempt >= c.policy.MaxRetries-1` makes", "Off by two", 1)
	})
	logs, _ := filepath.Glob(filepath.Join(dir, "validation", "logs", "*.log"))
	for _, lg := range logs[:2] {
		f, err := os.OpenFile(lg, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("more\n")
		f.Close()
	}
	p1, s1 := load()
	if got, _ := DescribeReload(p0, p1, s0, s1); got != "reloaded: review.md and 2 logs changed" {
		t.Errorf("got %q", got)
	}
	diff, _ := os.ReadFile(filepath.Join(dir, packet.DiffPath)) // parses the same with this; the bytes differ
	os.WriteFile(filepath.Join(dir, packet.DiffPath), []byte(strings.Replace(string(diff), "+++ b/docs", "+ ++ b/docs", 1)), 0o644)
	reg := filepath.Join(dir, filepath.FromSlash(packet.RegistryFile))
	data, _ := os.ReadFile(reg)
	data = append(data, []byte(`{"seq": 99, "recipe": "02-lint", "status": "validated", "command": "true", "log": "validation/logs/new.log", "exit_code": 0}`+"\n")...)
	os.WriteFile(reg, data, 0o644)
	os.WriteFile(filepath.Join(dir, "validation", "logs", "new.log"), []byte("ok\n[exit 0]\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.md"), []byte("# notes\n"), 0o644)
	p2, s2 := load()
	want := "reloaded: change.diff and the registry (1 run added) changed; notes.md and 1 log added"
	if got, changed := DescribeReload(p1, p2, s1, s2); got != want || !changed {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, changed := DescribeReload(p2, p2, s2, s2); changed || got != "" {
		t.Errorf("same packet: %q, changed %v", got, changed)
	}
}

// Files written again byte for byte (a checkout, a copy over the packet)
// are no change: the reload says nothing changed.
func TestDescribeReloadSameBytes(t *testing.T) {
	dir, load := sampleReloads(t)
	p0, s0 := load()
	later := time.Now().Add(time.Hour)
	for rel, body := range packettest.ReadTree(t, dir) {
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

// sampleReloads writes the sample to a temporary folder and returns it with
// a load that reads it again as the workbench's reload does (logs indexed
// lazily) and stamps its files.
func sampleReloads(t *testing.T) (string, func() (*packet.Packet, packet.Stamps)) {
	t.Helper()
	dir := packettest.SampleDir(t, "pkt")
	return dir, func() (*packet.Packet, packet.Stamps) {
		p, err := packet.Load(dir, packet.Options{DeferLogIndex: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		return p, packet.StampFiles(p)
	}
}
