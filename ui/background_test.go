package ui

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// At most GOMAXPROCS-1 (at least one) jobs run at once, however many wait.
func TestBackgroundLimit(t *testing.T) {
	b := NewBackground()
	limit := max(1, runtime.GOMAXPROCS(0)-1)
	var running, peak atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	for range limit + 3 {
		wg.Add(1)
		go b.Run(func() {
			defer wg.Done()
			n := running.Add(1)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			<-release
			running.Add(-1)
		})
	}
	// Wait until the first jobs hold every slot and the rest queue.
	for running.Load() < int32(limit) {
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
	if p := peak.Load(); p != int32(limit) {
		t.Fatalf("%d jobs ran at once, want %d", p, limit)
	}
}

// A long job that yields lets a waiting job run before it goes on.
func TestBackgroundYield(t *testing.T) {
	synctest.Test(t, testBackgroundYield)
}

func testBackgroundYield(t *testing.T) {
	b := &Background{slots: make(chan struct{}, 1)}
	var order []string
	var mu sync.Mutex
	note := func(s string) { mu.Lock(); order = append(order, s); mu.Unlock() }
	started := make(chan struct{})
	queued := make(chan struct{})
	done := make(chan struct{})
	go b.RunSlot(func(slot *Slot) {
		note("long: first block")
		close(started)
		<-queued
		// The short job signalled just before asking for the slot; in the
		// bubble, Wait returns once it is blocked there.
		synctest.Wait()
		slot.Yield()
		note("long: second block")
		close(done)
	})
	<-started
	shortDone := make(chan struct{})
	go func() {
		close(queued)
		b.Run(func() { note("short") })
		close(shortDone)
	}()
	<-done
	<-shortDone
	want := []string{"long: first block", "short", "long: second block"}
	if len(order) != 3 || order[0] != want[0] || order[1] != want[1] || order[2] != want[2] {
		t.Fatalf("order %q, want %q", order, want)
	}
}

// A nil Background runs everything at once, as tests and bare screens need.
func TestBackgroundNil(t *testing.T) {
	var b *Background
	ran := false
	b.RunSlot(func(s *Slot) { ran = true; s.Yield(); s.Leave() })
	if !ran || b.Cmd(nil) != nil {
		t.Fatal("a nil Background should run f and pass a nil command through")
	}
}

// A job that leaves its slot goes on beside the work that takes it, and
// the slot is not given back twice when it ends.
func TestBackgroundLeave(t *testing.T) {
	synctest.Test(t, testBackgroundLeave)
}

func testBackgroundLeave(t *testing.T) {
	b := &Background{slots: make(chan struct{}, 1)}
	left := make(chan struct{})
	finish := make(chan struct{})
	go b.RunSlot(func(s *Slot) {
		s.Leave()
		close(left)
		<-finish // still running
	})
	<-left
	ran := make(chan struct{})
	go b.Run(func() { close(ran) })
	synctest.Wait() // every goroutine done or blocked: no waiting on a clock
	select {
	case <-ran:
	default:
		t.Fatal("the slot a job left was not free for other work")
	}
	close(finish)
	// One slot, taken and given back once by each: a job can take it now.
	done := make(chan struct{})
	go b.Run(func() { close(done) })
	synctest.Wait()
	select {
	case <-done:
	default:
		t.Fatal("the slot is lost")
	}
	if n := len(b.slots); n != 0 {
		t.Fatalf("%d slots held after every job ended", n)
	}
}
