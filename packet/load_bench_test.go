package packet

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/bench"
)

// The scale targets' packet (bench.Big: a 1,000-file 200,000-line diff, 2,000
// findings, a 1 GiB log) is generated once into VETTER_BENCH_DIR, by default
// $TMPDIR/vetter-bench-big, and reused while it has the right shape: writing
// a gigabyte takes longer than loading it. bench/load.sh uses the same place.
//
//	go test -run '^$' -bench LoadBigPacket -benchtime 5x ./packet/

// bigPacketDir is where the big packet lives.
func bigPacketDir() string {
	if d := os.Getenv("VETTER_BENCH_DIR"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "vetter-bench-big")
}

var (
	bigOnce sync.Once
	bigErr  error
)

// bigPacket returns the big packet's directory, generating it when absent or
// of another shape.
func bigPacket(b *testing.B) (dir string, logSize int64) {
	b.Helper()
	dir = bigPacketDir()
	bigOnce.Do(func() {
		if bigPacketReady(dir) {
			return
		}
		b.Logf("generating the big packet in %s (about 1 GiB; reused by later runs)", dir)
		bigErr = bench.Generate(dir, bench.Big)
		if bigErr == nil && !bigPacketReady(dir) {
			bigErr = os.ErrInvalid
		}
	})
	if bigErr != nil {
		b.Fatalf("generating the big packet in %s: %v", dir, bigErr)
	}
	fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(bench.BigLogName)))
	if err != nil {
		b.Fatal(err)
	}
	return dir, fi.Size()
}

// bigPacketReady reports whether dir holds a complete bench.Big packet: the
// log (written last) at its full size and a diff of as many files.
func bigPacketReady(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(bench.BigLogName)))
	// The generator stops at the first whole line past LogBytes, then adds
	// two closing lines.
	if err != nil || fi.Size() < bench.Big.LogBytes || fi.Size() > bench.Big.LogBytes+4096 {
		return false
	}
	diff, err := os.ReadFile(filepath.Join(dir, DiffPath))
	if err != nil {
		return false
	}
	return bytes.Count(diff, []byte("\ndiff --git "))+1 == bench.Big.Files
}

// heapSampler records the largest heap seen while it runs: Go has no
// high-water mark for the heap, so it reads runtime/metrics every
// millisecond. The heap counted is the bytes in heap objects, live or not
// yet swept, which is what the process must hold in memory.
type heapSampler struct {
	stop chan struct{}
	done chan struct{}
	peak uint64
}

const heapObjects = "/memory/classes/heap/objects:bytes"

func readMetric(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

func startHeapSampler() *heapSampler {
	h := &heapSampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(h.done)
		s := []metrics.Sample{{Name: heapObjects}}
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			h.peak = max(h.peak, s[0].Value.Uint64())
			select {
			case <-h.stop:
				return
			case <-t.C:
			}
		}
	}()
	return h
}

// Stop ends sampling and returns the peak in bytes.
func (h *heapSampler) Stop() uint64 {
	close(h.stop)
	<-h.done
	return max(h.peak, readMetric(heapObjects))
}

func benchmarkLoadBig(b *testing.B, opts Options) {
	dir, logSize := bigPacket(b)
	if !opts.DeferLogIndex {
		// Bytes per op is the log, so MB/s compares with `wc -l` on it.
		b.SetBytes(logSize)
	}
	b.ReportAllocs()
	var peak, retained uint64
	var findings, lines int
	for b.Loop() {
		b.StopTimer()
		runtime.GC() // each load starts from the same clean heap
		b.StartTimer()
		h := startHeapSampler()
		p, err := Load(dir, opts)
		if err != nil {
			b.Fatal(err)
		}
		peak = max(peak, h.Stop())
		b.StopTimer()
		runtime.GC()
		retained = readMetric("/gc/heap/live:bytes")
		findings = len(p.Findings)
		if l := p.Log(bench.BigLogName); l != nil {
			lines = l.LineCount()
		}
		if errs, _, _ := p.Counts(); errs > 0 {
			b.Fatalf("the big packet has %d errors: %+v", errs, p.Problems[0])
		}
		p.Close()
		b.StartTimer()
	}
	b.StopTimer()
	if findings != bench.Big.Findings {
		b.Fatalf("%d findings, want %d", findings, bench.Big.Findings)
	}
	// The generator writes lines of about 110 bytes.
	if !opts.DeferLogIndex && int64(lines) < logSize/200 {
		b.Fatalf("the big log indexed to %d lines, want about %d", lines, logSize/110)
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(retained)/(1<<20), "retained-heap-MiB")
	b.ReportMetric(float64(logSize)/(1<<20), "log-MiB")
}

// BenchmarkLoadBigPacket loads the big packet as `vetter check` and `vetter
// summary` do: every log indexed before Load returns.
func BenchmarkLoadBigPacket(b *testing.B) {
	benchmarkLoadBig(b, Options{})
}

// BenchmarkLoadBigPacketDeferred loads it as the screens do: logs opened but
// indexed later in the background, so the first screen shows at once.
func BenchmarkLoadBigPacketDeferred(b *testing.B) {
	benchmarkLoadBig(b, Options{DeferLogIndex: true})
}
