package views

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"vetter/packet"
)

// packetMarkers are the files whose presence at a folder's root makes it a
// packet (PACKET.md, "Layout").
var packetMarkers = []string{packet.PlanFile, packet.ChangeFile, packet.DiffPath,
	packet.ValidationFile, packet.ReviewFile, packet.RegistryFile}

// archiveExts are the names an archive child of an inbox may have.
var archiveExts = []string{".zip", ".tar", ".tgz", ".tar.gz"}

// looksLikePacketDir reports whether a folder has a packet file at its root.
func looksLikePacketDir(dir string) bool {
	for _, n := range packetMarkers {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(n))); err == nil {
			return true
		}
	}
	return false
}

func isArchiveName(name string) bool {
	lower := strings.ToLower(name)
	for _, ext := range archiveExts {
		if strings.HasSuffix(lower, ext) {
			return true
		}
	}
	return false
}

// IsInboxDir reports whether path is a folder of packets rather than a
// packet: it is a folder without a packet file at its root, and at least
// one child is an archive or a folder that has one. It stops at the first
// such child, so a large inbox costs a few stats.
func IsInboxDir(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || !fi.IsDir() || looksLikePacketDir(path) {
		return false
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		full := filepath.Join(path, e.Name())
		if isArchiveName(e.Name()) && !e.IsDir() {
			return true
		}
		if isDirEntry(full, e) && looksLikePacketDir(full) {
			return true
		}
	}
	return false
}

// isDirEntry follows a symbolic link to say whether an entry is a folder.
func isDirEntry(full string, e os.DirEntry) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&os.ModeSymlink != 0 {
		fi, err := os.Stat(full)
		return err == nil && fi.IsDir()
	}
	return false
}

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
		if !e.IsDir() && !isArchiveName(name) && e.Type()&os.ModeSymlink == 0 {
			continue
		}
		if e.Type()&os.ModeSymlink != 0 && !isArchiveName(name) {
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

// ReadInboxRow reads what an inbox row shows from the packet at path: the
// packet is loaded with its logs unindexed (cheap at any log size), its
// triage is found where the workbench would keep it, and it is closed again.
func ReadInboxRow(name, path, stateDir string) *InboxRow {
	row := &InboxRow{Name: name, Path: path, Loaded: true}
	p, err := packet.Load(path, packet.Options{DeferLogIndex: true})
	if err != nil {
		// A folder without a packet (notes, a checkout) is not one of the
		// inbox's packets; an archive that cannot be read still is, broken.
		if fi, serr := os.Stat(path); errors.Is(err, packet.ErrNotAPacket) && serr == nil && fi.IsDir() {
			row.NotPacket = true
		}
		row.Err = err
		return row
	}
	defer p.Close()
	loadStateTriage(p, stateDir)
	row.fill(p)
	return row
}

// loadStateTriage reads the reviewer's triage and rounds of the packet's
// work item, as the workbench's store would, without writing anything.
func loadStateTriage(p *packet.Packet, stateDir string) {
	_ = packet.ReadReviewerState(p, stateDir)
}

// fill takes a row's facts from a loaded packet.
func (r *InboxRow) fill(p *packet.Packet) {
	r.ID = p.Plan.ID
	r.Title = shortTitle(p.Plan.Title, p.Plan.ID)
	r.Verdict = p.Verdict.Value
	r.Assessment = p.Assessment.Value
	if r.Assessment == "" {
		r.Assessment = p.Assessment.Raw
	}
	r.Validated, r.Total = p.Evidence.Validated, p.Evidence.Total
	r.Findings = len(p.Findings)
	for _, f := range p.Findings {
		state, stale, _ := p.TriageOf(f)
		switch {
		case stale:
			r.Open++
			r.Stale++
		case state == packet.TriageOpen:
			r.Open++
		}
	}
	g := p.Gate()
	r.GateReady = g.Ready
	r.Failing = g.FailingChecks()
	r.Head = p.Change.HeadSHA
	r.Round, r.Rounds = p.History.RoundOf(p.Change.HeadSHA)
	if p.Triage != nil && p.Triage.Gate != nil {
		r.Decision = p.Triage.Gate.Decision
		r.DecisionSHA = p.Triage.Gate.SHA
	}
	r.Errors, r.Warnings, r.Infos = p.Counts()
}

// shortTitle drops what the row shows elsewhere from a plan's title:
// "Plan — ACME-1: fix x" becomes "fix x".
func shortTitle(title, id string) string {
	t := strings.TrimSpace(title)
	for _, pre := range []string{"Plan —", "Plan -", "Plan:"} {
		if strings.HasPrefix(t, pre) {
			t = strings.TrimSpace(t[len(pre):])
			break
		}
	}
	if id != "" && strings.HasPrefix(t, id) {
		rest := strings.TrimLeft(t[len(id):], " :—-")
		if rest != "" {
			t = rest
		}
	}
	return t
}
