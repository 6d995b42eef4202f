package workbench

import (
	"math"
	"os"
	"runtime/debug"
	"time"
)

// startGC is the collector's target while vetter starts: the start-up's
// allocations (loading a packet allocates ~35 MB of short-lived parse state
// on a big one and keeps ~20; the first screens) are mostly garbage at once,
// and at the default 100 the collector ran through most of them: a third of
// loading a big packet (bench/loadtime: 55 -> 35 ms) and three cycles of
// ~4 ms before a log preview's first frame. settleGC puts the default back
// once the workbench is up; the headless commands end first.
const startGC = 400

// startMemoryLimit caps the heap while the target is relaxed: at 400 a
// start-up that keeps 25 MB (a big packet, its first screens) could grow
// to 125 MB of heap before collecting, and vetter's peak memory target is
// 150 MB. Near the cap the collector runs as if GOGC were lower.
const startMemoryLimit = 96 << 20

// RelaxGC raises the collector's target for the start-up, unless GOGC or
// GOMEMLIMIT says otherwise.
func RelaxGC() {
	if gcSetByUser() {
		return
	}
	debug.SetGCPercent(startGC)
	debug.SetMemoryLimit(startMemoryLimit)
}

// settleGC returns the collector to Go's default a second after the
// workbench started: the packet is read and the first screens drawn by then,
// and a long session keeps its heap near twice what it holds.
func settleGC() {
	if gcSetByUser() {
		return
	}
	time.AfterFunc(time.Second, func() {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	})
}

// gcSetByUser reports whether GOGC or GOMEMLIMIT is set: then vetter leaves
// the collector alone.
func gcSetByUser() bool {
	_, gogc := os.LookupEnv("GOGC")
	_, limit := os.LookupEnv("GOMEMLIMIT")
	return gogc || limit
}
