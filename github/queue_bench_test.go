package github

import (
	"context"
	"testing"

	"github.com/vetter-dev/vetter/github/fakeapi"
)

// The figures for the queue: 60 open pull requests, 150 ms added to
// every response; the first screen from the cache within 100 ms, every row
// filled within 3 s, and a refresh where nothing changed issuing only
// conditional requests.
const benchPRs = 60

func benchQueue(b *testing.B) (*fakeapi.Server, QueueOptions) {
	s, opts := newFake(b)
	s.AddQueue(fakeapi.BenchSpecs(benchPRs - 1))
	s.PageSize = 100
	s.Latency = benchLatency
	return s, QueueOptions{Config: opts.Config, CacheDir: opts.CacheDir, StateDir: b.TempDir()}
}

func fillAll(b *testing.B, q *Queue) int {
	rows := 0
	if err := q.Fill(context.Background(), func(ev QueueEvent) {
		if ev.Row != nil {
			rows++
		}
	}); err != nil {
		b.Fatal(err)
	}
	if rows != benchPRs {
		b.Fatalf("%d rows filled, want %d", rows, benchPRs)
	}
	return rows
}

// BenchmarkQueueFill is a first visit: the list, then every row.
func BenchmarkQueueFill(b *testing.B) {
	s, opts := benchQueue(b)
	var st Stats
	for b.Loop() {
		opts.CacheDir = b.TempDir()
		q := mustQueue(b, opts)
		fillAll(b, q)
		st = q.Stats()
	}
	if st.MaxInFlight > MaxInFlight {
		b.Fatalf("%d requests in flight, more than %d", st.MaxInFlight, MaxInFlight)
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/fill")
	b.ReportMetric(float64(st.Requests), "requests")
	b.ReportMetric(float64(st.MaxInFlight), "max-in-flight")
	_ = s
}

// BenchmarkQueueCached is the first screen of a repeat visit: the rows of
// the last one, read from the cache without a request.
func BenchmarkQueueCached(b *testing.B) {
	s, opts := benchQueue(b)
	q := mustQueue(b, opts)
	fillAll(b, q)
	before := s.Requests
	for b.Loop() {
		q := mustQueue(b, opts)
		if n := len(q.Cached()); n != benchPRs {
			b.Fatalf("%d cached rows", n)
		}
	}
	if s.Requests != before {
		b.Fatalf("the cached first screen sent %d requests", s.Requests-before)
	}
}

// BenchmarkQueueRefresh is a refresh where nothing changed: every request
// carries If-None-Match and is answered 304, and no GraphQL query is sent.
func BenchmarkQueueRefresh(b *testing.B) {
	s, opts := benchQueue(b)
	q := mustQueue(b, opts)
	fillAll(b, q)
	var st Stats
	graphql := s.ByPath["/graphql"]
	for b.Loop() {
		q := mustQueue(b, opts)
		fillAll(b, q)
		st = q.Stats()
	}
	if st.Conditional != st.Requests || st.NotModified != st.Requests || s.ByPath["/graphql"] != graphql {
		b.Fatalf("refresh: %d requests, %d conditional, %d answered 304, %d GraphQL", st.Requests, st.Conditional, st.NotModified, s.ByPath["/graphql"]-graphql)
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/refresh")
	b.ReportMetric(float64(st.Requests), "requests")
	b.ReportMetric(float64(st.NotModified), "304s")
}

// mustQueue is the fixture repository's queue with opts.
func mustQueue(b *testing.B, opts QueueOptions) *Queue {
	b.Helper()
	q, err := NewQueue(fixtureRef, opts)
	if err != nil {
		b.Fatalf("opening the queue of %v: %v", fixtureRef, err)
	}
	return q
}
