package ui

import (
	"runtime"

	tea "charm.land/bubbletea/v2"
)

// Background lets at most one goroutine fewer than there are Ps
// (GOMAXPROCS, at least one) do CPU-heavy work for commands at a time:
// rendering markdown, indexing and searching logs, scanning the diff,
// loading packets. Go's scheduler lets a busy goroutine keep its P for up to
// 10 ms before it is preempted, so with every P busy the event loop, the
// renderer and the input reader each waited that long for one: a key typed
// while the 1 GiB log was being indexed and a document rendered took 30 ms
// to show on two cores. With one P kept free they never wait for a P.
//
// A nil *Background limits nothing (tests, and screens built without an App).
type Background struct {
	slots chan struct{}
}

// NewBackground sizes the limit from GOMAXPROCS.
func NewBackground() *Background {
	return &Background{slots: make(chan struct{}, max(1, runtime.GOMAXPROCS(0)-1))}
}

// Run runs f once a slot is free.
func (b *Background) Run(f func()) { b.RunSlot(func(*Slot) { f() }) }

// RunSlot runs f once a slot is free, with the slot, which a long job can
// yield between steps or leave.
func (b *Background) RunSlot(f func(*Slot)) {
	if b == nil {
		f(&Slot{})
		return
	}
	b.slots <- struct{}{}
	s := &Slot{b: b, held: true}
	defer func() {
		if s.held {
			<-b.slots
		}
	}()
	f(s)
}

// Slot is a job's turn at the background, held while RunSlot's f runs.
type Slot struct {
	b    *Background
	held bool
}

// Yield lets work waiting for a slot go first: the slot is handed to the
// first waiter, and the job goes on once a slot is free again.
func (s *Slot) Yield() {
	if s.b == nil || !s.held {
		return
	}
	<-s.b.slots
	s.b.slots <- struct{}{}
}

// Leave gives the slot up for the rest of the job, which goes on beside
// whatever takes it: for a job a person is waiting for, which should
// neither wait for other work nor leave it piled up behind it.
func (s *Slot) Leave() {
	if s.b == nil || !s.held {
		return
	}
	s.held = false
	<-s.b.slots
}

// Cmd wraps a command so that it runs in a slot.
func (b *Background) Cmd(cmd tea.Cmd) tea.Cmd {
	if b == nil || cmd == nil {
		return cmd
	}
	return func() tea.Msg {
		var msg tea.Msg
		b.Run(func() { msg = cmd() })
		return msg
	}
}
