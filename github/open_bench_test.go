package github

import (
	"context"
	"net/http"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/report"
)

// The benchmarks read a PR of 300 comments (3 pages of 100) from the fake
// API with 150 ms added to every answer, and report beside the time the
// requests sent and the rounds they took (the longest chain of requests each
// sent only after the one before it was answered): rounds × 150 ms is the
// floor no client can beat, and the targets are written against it.
const benchLatency = 150 * time.Millisecond

func benchFake(b *testing.B) (Options, *roundsTransport) {
	s, opts := newFake(b)
	s.F.AddComments(300 - len(s.F.Comments))
	s.PageSize = 100
	s.Latency = benchLatency
	rt := &roundsTransport{}
	opts.Config.Transport = rt
	return opts, rt
}

// roundsTransport records when each request was sent and answered.
type roundsTransport struct {
	mu    sync.Mutex
	spans [][2]time.Time
}

func (t *roundsTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := http.DefaultTransport.RoundTrip(r)
	t.mu.Lock()
	t.spans = append(t.spans, [2]time.Time{start, time.Now()})
	t.mu.Unlock()
	return resp, err
}

func (t *roundsTransport) reset() {
	t.mu.Lock()
	t.spans = nil
	t.mu.Unlock()
}

// rounds is the number of requests sent and the longest chain among them.
func (t *roundsTransport) rounds() (requests, rounds int) {
	t.mu.Lock()
	spans := append([][2]time.Time(nil), t.spans...)
	t.mu.Unlock()
	sort.Slice(spans, func(i, j int) bool { return spans[i][0].Before(spans[j][0]) })
	depth := make([]int, len(spans))
	for j := range spans {
		depth[j] = 1
		for i := range j {
			if !spans[i][1].After(spans[j][0]) && depth[i]+1 > depth[j] {
				depth[j] = depth[i] + 1
			}
		}
		rounds = max(rounds, depth[j])
	}
	return len(spans), rounds
}

// reportFigures adds the figures of the last iteration's requests and the target.
func reportFigures(b *testing.B, rt *roundsTransport, perOp time.Duration, targetRounds int, slack time.Duration) {
	req, rounds := rt.rounds()
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(perOp), "ms/op-wall")
	b.ReportMetric(float64(req), "requests")
	b.ReportMetric(float64(rounds), "rounds")
	b.ReportMetric(ms(time.Duration(rounds)*benchLatency), "ms-floor")
	b.ReportMetric(ms(time.Duration(targetRounds)*benchLatency+slack), "ms-target")
}

func loadCached(b *testing.B, dir, root string) *packet.Packet {
	p, err := packet.Load(dir, packet.Options{DeferLogIndex: true, DeferAbove: packet.SmallLog, OriginRoot: root})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkOpenPR is a first visit, to the first useful screen: every
// request, the packet written and loaded. Target: 2 round trips + 60 ms.
func BenchmarkOpenPR(b *testing.B) {
	opts, rt := benchFake(b)
	var last time.Duration
	for b.Loop() {
		opts.CacheDir = b.TempDir()
		rt.reset()
		start := time.Now()
		o, err := Open(context.Background(), fixtureRef, opts)
		if err != nil {
			b.Fatal(err)
		}
		loadCached(b, o.Dir, opts.CacheDir).Close()
		last = time.Since(start)
	}
	reportFigures(b, rt, b.Elapsed()/time.Duration(b.N), 2, 60*time.Millisecond)
	_ = last
}

// BenchmarkReopenCached is the cached copy shown before any request (the
// workbench's first screen on a warm cache). Target: 50 ms.
func BenchmarkReopenCached(b *testing.B) {
	opts, rt := benchFake(b)
	if _, err := Open(context.Background(), fixtureRef, opts); err != nil {
		b.Fatal(err)
	}
	rt.reset()
	for b.Loop() {
		dir := Cached(opts.CacheDir, fixtureRef)
		if dir == "" {
			b.Fatal("nothing cached")
		}
		loadCached(b, dir, opts.CacheDir).Close()
	}
	reportFigures(b, rt, b.Elapsed()/time.Duration(b.N), 0, 50*time.Millisecond)
}

// BenchmarkRefreshPR is a second visit's refresh: every page, check and
// compare of the last visit asked again at once with its ETag, each
// answered 304. Target: one round.
func BenchmarkRefreshPR(b *testing.B) {
	opts, rt := benchFake(b)
	if _, err := Open(context.Background(), fixtureRef, opts); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		rt.reset()
		if _, err := Open(context.Background(), fixtureRef, opts); err != nil {
			b.Fatal(err)
		}
	}
	reportFigures(b, rt, b.Elapsed()/time.Duration(b.N), 1, 50*time.Millisecond)
}

// BenchmarkSummaryWarm is `vetter summary` on a PR read before, whose cache
// is older than the freshness rule allows: one round of 304s, the packet
// written, loaded and summarised. Target: 1 round trip + 50 ms.
func BenchmarkSummaryWarm(b *testing.B) {
	opts, rt := benchFake(b)
	if _, err := Open(context.Background(), fixtureRef, opts); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		rt.reset()
		o, err := Open(context.Background(), fixtureRef, opts)
		if err != nil {
			b.Fatal(err)
		}
		p := loadCached(b, o.Dir, opts.CacheDir)
		_ = report.Summarize(p)
		p.Close()
	}
	reportFigures(b, rt, b.Elapsed()/time.Duration(b.N), 1, 50*time.Millisecond)
}
