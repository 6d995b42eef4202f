package tui

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/fsnotify/fsnotify"

	"github.com/vetter-dev/vetter/packet"
)

// WatchQuiet is how long a packet folder must stay quiet after a change
// before it is reloaded: a pipeline writing a review and five logs causes
// one reload, not six.
const WatchQuiet = 250 * time.Millisecond

// Watcher reports, debounced, that a packet folder changed on disk. It
// watches the folder, validation/ and validation/logs/ (fsnotify is not
// recursive) and ignores the files vetter itself writes there.
type Watcher struct {
	dir   string
	quiet time.Duration
	fsw   *fsnotify.Watcher
	fired chan struct{} // holds at most one pending "changed"
	done  chan struct{}
	once  sync.Once

	mu  sync.Mutex
	err error // the last error fsnotify reported
}

// NewWatcher starts watching a packet folder. quiet <= 0 means WatchQuiet.
func NewWatcher(dir string, quiet time.Duration) (*Watcher, error) {
	if quiet <= 0 {
		quiet = WatchQuiet
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w := &Watcher{dir: dir, quiet: quiet, fsw: fsw, fired: make(chan struct{}, 1), done: make(chan struct{})}
	if err := fsw.Add(dir); err != nil {
		fsw.Close()
		return nil, err
	}
	// The sub-folders may not exist yet; they are added when they appear.
	for _, sub := range []string{"validation", packet.LogsDir} {
		_ = fsw.Add(filepath.Join(dir, filepath.FromSlash(sub)))
	}
	go w.loop(fsw.Events, fsw.Errors)
	return w, nil
}

// Fired delivers one value per burst of changes.
func (w *Watcher) Fired() <-chan struct{} { return w.fired }

// Err is the last error the watcher saw (a queue overflow), or nil.
func (w *Watcher) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Close stops watching; Wait commands still waiting return nil.
func (w *Watcher) Close() error {
	var err error
	w.once.Do(func() {
		close(w.done)
		if w.fsw != nil { // nil when a test feeds the loop itself
			err = w.fsw.Close()
		}
	})
	return err
}

// loop debounces: every relevant event restarts the quiet period, and the
// end of a quiet period after at least one event fires once. It takes the
// events as channels so a test can feed it in a synctest bubble, where
// the quiet period passes in fake time.
func (w *Watcher) loop(events <-chan fsnotify.Event, errs <-chan error) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-w.done:
			timer.Stop()
			return
		case ev, ok := <-events:
			if !ok {
				return
			}
			if !w.relevant(ev) {
				continue
			}
			w.follow(ev)
			timer.Reset(w.quiet)
		case err, ok := <-errs:
			if !ok {
				return
			}
			w.mu.Lock()
			w.err = err
			w.mu.Unlock()
			// An overflow lost events: reload to be sure.
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				timer.Reset(w.quiet)
			}
		case <-timer.C:
			select {
			case w.fired <- struct{}{}:
			default: // one is already pending: the reload will see it all
			}
		}
	}
}

// follow adds validation/ and validation/logs/ when they are created after
// the watch began.
func (w *Watcher) follow(ev fsnotify.Event) {
	if !ev.Has(fsnotify.Create) {
		return
	}
	rel, err := filepath.Rel(w.dir, ev.Name)
	if err != nil {
		return
	}
	rel = filepath.ToSlash(rel)
	if rel != "validation" && rel != packet.LogsDir {
		return
	}
	if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() && w.fsw != nil {
		_ = w.fsw.Add(ev.Name)
		if rel == "validation" {
			_ = w.fsw.Add(filepath.Join(ev.Name, "logs"))
		}
	}
}

// relevant drops events that are not changes to the packet: a change of
// mode alone. vetter writes nothing into a packet (the reviewer's state is
// in the state directory), so every other event is a change, a triage.json
// the packet gains included: the reload reports it (packet-ships-decisions).
func (w *Watcher) relevant(ev fsnotify.Event) bool {
	return ev.Op != fsnotify.Chmod
}

// watchFiredMsg says a watched packet changed; W names the watcher so one
// that was replaced (the packet was closed) is ignored.
type watchFiredMsg struct{ W *Watcher }

// Wait returns a command that waits for the next burst of changes.
func (w *Watcher) Wait() tea.Cmd {
	return func() tea.Msg {
		select {
		case <-w.fired:
			return watchFiredMsg{W: w}
		case <-w.done:
			return nil
		}
	}
}
