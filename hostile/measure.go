package hostile

import (
	"runtime"
	"runtime/metrics"
	"time"
)

// PeakHeap runs fn and returns the most heap its run held above what was
// live before it (sampled every millisecond) and how long it took: how the
// size classes show that a bomb is never held whole.
func PeakHeap(fn func()) (peak uint64, took time.Duration) {
	const name = "/memory/classes/heap/objects:bytes"
	runtime.GC()
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	base := s[0].Value.Uint64()
	stop, done := make(chan struct{}), make(chan uint64)
	go func() {
		var top uint64
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		s := []metrics.Sample{{Name: name}}
		for {
			metrics.Read(s)
			top = max(top, s[0].Value.Uint64())
			select {
			case <-stop:
				done <- top
				return
			case <-tick.C:
			}
		}
	}()
	start := time.Now()
	fn()
	took = time.Since(start)
	close(stop)
	if top := <-done; top > base {
		peak = top - base
	}
	return peak, took
}
