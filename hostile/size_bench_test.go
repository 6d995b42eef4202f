package hostile_test

import (
	"path/filepath"
	"testing"

	"github.com/vetter-dev/vetter/hostile"
	"github.com/vetter-dev/vetter/packet"
)

// BenchmarkLoadHostileSize loads each packet of the size class the way the
// workbench does (logs indexed later, big ones deferred), beside the
// built-in sample as the reference in the same run: the figure to read is
// each case's time as a multiple of the sample's, which does not depend on
// how loaded the machine is. The screen tests (TestHostileSizeCheck in the root package, TestHostileSizeScreens in tui) check
// what is drawn and the peak heap; the time lives here.
func BenchmarkLoadHostileSize(b *testing.B) {
	dir := b.TempDir()
	sample := filepath.Join(dir, "sample")
	if err := packet.WriteSample(sample); err != nil {
		b.Fatal(err)
	}
	cases := []struct {
		name  string
		write func(string) error
	}{
		{"reference-sample", func(string) error { return nil }},
		{"long-diff-line", func(p string) error { return hostile.WriteLongDiffLine(p, hostile.LongDiffLine) }},
		{"many-findings", func(p string) error { return hostile.WriteManyFindings(p, hostile.ManyFindings) }},
		{"long-registry-line", func(p string) error { return hostile.WriteLongRegistryLine(p, hostile.LongRegistryLine) }},
		{"long-log-line", func(p string) error { return hostile.WriteLongLogLine(p, hostile.LongLogLine) }},
		{"bomb.zip", func(p string) error { return hostile.WriteZipBomb(p, hostile.BombSize, 1) }},
		{"bomb.tgz", func(p string) error { return hostile.WriteTgzBomb(p, hostile.BombSize) }},
		{"many-entries.zip", func(p string) error { return hostile.WriteManyEntries(p, hostile.ManyEntries, false) }},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.name)
		if c.name == "reference-sample" {
			path = sample
		} else if err := c.write(path); err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				p, err := packet.Load(path, packet.Options{DeferLogIndex: true, DeferAbove: packet.SmallLog})
				if err != nil {
					b.Fatal(err)
				}
				p.Close()
			}
		})
	}
}
