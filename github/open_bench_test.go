package github

import (
	"context"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/packet"
)

// The figure: with 150 ms added to every response, the first screen
// of a PR with 300 comments (3 pages of 100) within 3 round trips plus
// 100 ms, and a cached re-open within 100 ms.
const benchLatency = 150 * time.Millisecond

func benchFake(b *testing.B) Options {
	s, opts := newFake(b)
	s.F.AddComments(300 - len(s.F.Comments))
	s.PageSize = 100
	s.Latency = benchLatency
	return opts
}

// BenchmarkOpenPR is a first visit: every request, then the packet loaded.
func BenchmarkOpenPR(b *testing.B) {
	opts := benchFake(b)
	for b.Loop() {
		opts.CacheDir = b.TempDir()
		o, err := Open(context.Background(), fixtureRef, opts)
		if err != nil {
			b.Fatal(err)
		}
		p, err := packet.Load(o.Dir, packet.Options{DeferLogIndex: true, DeferAbove: packet.SmallLog, OriginRoot: opts.CacheDir})
		if err != nil {
			b.Fatal(err)
		}
		p.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/open")
	b.ReportMetric(float64(3*benchLatency.Milliseconds()+100), "ms-budget")
}

// BenchmarkReopenCached is the cached copy shown before any request.
func BenchmarkReopenCached(b *testing.B) {
	opts := benchFake(b)
	if _, err := Open(context.Background(), fixtureRef, opts); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		dir := Cached(opts.CacheDir, fixtureRef)
		if dir == "" {
			b.Fatal("nothing cached")
		}
		p, err := packet.Load(dir, packet.Options{DeferLogIndex: true, DeferAbove: packet.SmallLog, OriginRoot: opts.CacheDir})
		if err != nil {
			b.Fatal(err)
		}
		p.Close()
	}
}

// BenchmarkRefreshPR is a second visit's refresh: the same requests, each
// answered 304 against the ETags of the first.
func BenchmarkRefreshPR(b *testing.B) {
	opts := benchFake(b)
	if _, err := Open(context.Background(), fixtureRef, opts); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Open(context.Background(), fixtureRef, opts); err != nil {
			b.Fatal(err)
		}
	}
}
