package inbox

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/review"
)

// listInbox lists the candidate packets of an inbox folder: every folder
// and every archive-named file, hidden ones excepted, in name order. It
// reads only the directory itself, so the first frame never waits for a
// packet; a folder that turns out not to be a packet leaves the list when
// it is read.
func listInbox(dir string) ([]*InboxRow, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	rows := make([]*InboxRow, 0, len(entries))
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		if !e.IsDir() && !review.IsArchiveName(name) && e.Type()&os.ModeSymlink == 0 {
			continue
		}
		if e.Type()&os.ModeSymlink != 0 && !review.IsArchiveName(name) {
			if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || !fi.IsDir() {
				continue
			}
		}
		rows = append(rows, &InboxRow{Name: name, Path: filepath.Join(dir, name), order: len(rows), group: GroupReading})
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Name < rows[j].Name })
	for i, r := range rows {
		r.order = i
	}
	return rows, nil
}

// inboxRowMsg carries one packet's row, read in the background. Gen drops
// rows read for an inbox that has since been rebuilt.
type inboxRowMsg struct {
	Gen int
	Row *InboxRow
	// Worker is set when the row came from the initial fill: its arrival
	// lets that worker take the next packet.
	Worker bool
}

// inboxWorkers is how many packets are read at once: enough to hide disk
// latency, few enough that the terminal stays responsive.
// Reading is CPU-bound, so one core is left to the terminal when there
// are more than two.
func inboxWorkers() int { return min(4, max(2, runtime.NumCPU()-1)) }

// inboxQueue hands out the packets still to read.
type inboxQueue struct {
	jobs chan inboxJob
}

type inboxJob struct{ name, path string }

func newInboxQueue(rows []*InboxRow) *inboxQueue {
	q := &inboxQueue{jobs: make(chan inboxJob, len(rows))}
	for _, r := range rows {
		q.jobs <- inboxJob{name: r.Name, path: r.Path}
	}
	close(q.jobs)
	return q
}

// next returns a command that reads the next packet in the queue, or nil
// when the queue is empty. At most inboxWorkers such commands run at once:
// each row that arrives starts the next.
func (q *inboxQueue) next(gen int, stateDir string) tea.Cmd {
	if q == nil || len(q.jobs) == 0 {
		return nil
	}
	return func() tea.Msg {
		j, ok := <-q.jobs
		if !ok {
			return nil
		}
		return inboxRowMsg{Gen: gen, Row: ReadInboxRow(j.name, j.path, stateDir), Worker: true}
	}
}

// readRowCmd reads one packet again (after it was open in the workbench).
func readRowCmd(gen int, name, path, stateDir string) tea.Cmd {
	return func() tea.Msg {
		return inboxRowMsg{Gen: gen, Row: ReadInboxRow(name, path, stateDir)}
	}
}

// ReadInboxRow reads what an inbox row shows from the packet at path
// (packet.ReadInboxEntry).
func ReadInboxRow(name, path, stateDir string) *InboxRow {
	return &InboxRow{Name: name, Path: path, InboxEntry: review.ReadInboxEntry(path, stateDir)}
}
