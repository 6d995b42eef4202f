package tui

import (
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"
	"github.com/dlclark/regexp2/v2"

	"github.com/vetter-dev/vetter/internal/testenv"
)

// The one way these tests drive a model: as Bubble Tea does, every command
// in its own goroutine and every message it returns back through Update on
// the test's goroutine, inside a synctest bubble. synctest.Wait returns when
// every command has either finished or is waiting for time to pass (a tick,
// a blinking cursor) or for an event that will not come (a watch); the
// first kind is delivered, the second left, so a test sees what the program
// would show once it is idle, however slow the machine, with no deadline.
//
// Every test that drives a model runs in a bubble: wrap its body in
// synctest.Test. A watch over a real folder cannot (fsnotify's reads are
// system calls, never "durably blocked"): those tests use the real-time
// mode of loop, below.

// updater is a model: the App, the workbench, or a screen.
type updater interface {
	Update(tea.Msg) (tea.Model, tea.Cmd)
}

// drive runs cmd and everything it leads to until only commands waiting for
// time remain. It must run inside a synctest bubble.
func drive(m updater, cmd tea.Cmd) {
	d := newDriver(func(msg tea.Msg) tea.Cmd {
		_, next := m.Update(msg)
		return next
	})
	d.run(cmd)
	d.settle()
}

// press sends keys to the model one by one, each followed by everything it
// leads to.
func pressKeys(m updater, keys ...string) {
	for _, k := range keys {
		_, cmd := m.Update(screentest.KeyMsg(k))
		drive(m, cmd)
	}
}

// driver delivers what commands return to update.
type driver struct {
	update func(tea.Msg) tea.Cmd
	msgs   chan tea.Msg
	// real: not in a bubble; settle waits for a quiet period of real time
	// instead (a watch over a real folder).
	real bool

	mu     sync.Mutex
	counts map[string]int // messages delivered, by type name
	quit   bool
}

func newDriver(update func(tea.Msg) tea.Cmd) *driver {
	// Large enough that a command left waiting (a tick) which fires after
	// the test has stopped reading never blocks: the bubble then ends.
	return &driver{update: update, msgs: make(chan tea.Msg, 1<<14), counts: map[string]int{}}
}

// run runs a command in its own goroutine, expanding batches and sequences.
func (d *driver) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if cmds, ok := screentest.Expand(msg); ok {
			for _, c := range cmds {
				d.run(c)
			}
			return
		}
		if msg != nil {
			d.msgs <- msg
		}
	}()
}

// send delivers a message now and runs what it returns.
func (d *driver) send(m tea.Msg) {
	d.mu.Lock()
	d.counts[msgName(m)]++
	d.mu.Unlock()
	if _, ok := m.(tea.QuitMsg); ok {
		d.quit = true
		return
	}
	d.run(d.update(m))
}

// settle delivers messages until every command left is waiting for time.
func (d *driver) settle() {
	if d.real {
		d.quiet(600 * time.Millisecond) // six debounce periods of the watch tests
		return
	}
	for {
		synctest.Wait()
		select {
		case m := <-d.msgs:
			d.send(m)
		default:
			return
		}
	}
}

// quiet, in real time, delivers messages until none has come for q: only
// for a watch over a real folder, where the question is whether something
// more happens.
func (d *driver) quiet(q time.Duration) {
	for {
		select {
		case m := <-d.msgs:
			d.send(m)
		case <-time.After(q):
			return
		}
	}
}

// count is how many messages of a type name were delivered.
func (d *driver) count(name string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.counts[name]
}

func msgName(m tea.Msg) string {
	if rm, ok := m.(rootMsg); ok {
		return "root:" + msgName(rm.msg)
	}
	// The bare type name: a message keeps its name when its screen moves
	// to a package of its own.
	name := strings.TrimPrefix(reflect.TypeOf(m).String(), "*")
	return name[strings.LastIndex(name, ".")+1:]
}

// TestMain keeps regexp2's timeout clock running outside every bubble.
// Chroma gives its lexers' expressions a match timeout, for which regexp2
// starts one global clock goroutine when none runs and stops it a second
// after the last match: started inside a bubble it would outlive the bubble
// (a deadlock panic) or, with its start time taken from one bubble's fake
// clock, run for years of another's. Matching once every half second from
// here keeps the one clock this goroutine's.
func TestMain(m *testing.M) {
	re := regexp2.MustCompile("a", regexp2.None)
	re.MatchTimeout = time.Second
	re.MatchString("a")
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				re.MatchString("a")
			case <-done:
				return
			}
		}
	}()
	cleanup := testenv.IsolateState()
	code := m.Run()
	close(done)
	cleanup()
	os.Exit(code)
}
