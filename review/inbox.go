package review

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/packet/source"
)

// A folder of packets (an inbox), and what its list shows of each packet,
// read without a terminal. Moved from views/inbox_load.go as they were.

// InboxEntry is what an inbox row shows of one packet.
type InboxEntry struct {
	Loaded    bool
	Err       error // the packet could not be read; the row says why
	NotPacket bool  // a folder that turned out not to be a packet: not shown

	ID, Title           string
	Verdict, Assessment string
	Validated, Total    int
	Open, Findings      int // findings not (or no longer) triaged, of all
	Stale               int // of Open, decisions made on an older text
	GateReady           bool
	Failing             []string // the gate checks that do not hold
	Head                string
	// Round is which round of its work item this head is (1-based; 0 when
	// vetter has not seen it), of Rounds seen.
	Round, Rounds    int
	Decision         string // ok-to-test, hold, request-changes, or ""
	DecisionSHA      string
	Errors, Warnings int
	Infos            int
}

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

// IsArchiveName reports whether a file name is one an archive packet may have.
func IsArchiveName(name string) bool {
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
		if IsArchiveName(e.Name()) && !e.IsDir() {
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

// ReadInboxEntry reads what an inbox row shows from the packet at path: the
// packet is loaded with its logs unindexed (cheap at any log size), its
// triage is found where the workbench would keep it, and it is closed again.
func ReadInboxEntry(path, stateDir string) InboxEntry {
	row := &InboxEntry{Loaded: true}
	p, err := packet.Load(path, packet.Options{DeferLogIndex: true})
	if err != nil {
		// A folder without a packet (notes, a checkout) is not one of the
		// inbox's packets; an archive that cannot be read still is, broken.
		if fi, serr := os.Stat(path); errors.Is(err, source.ErrNotAPacket) && serr == nil && fi.IsDir() {
			row.NotPacket = true
		}
		row.Err = err
		return *row
	}
	defer p.Close()
	// The reviewer's triage and rounds, as the workbench's store would read
	// them, without writing anything. A state file that cannot be read
	// makes the row say so rather than show every finding open.
	if err := ReadReviewerState(p, stateDir); err != nil {
		row.Err = err
		return *row
	}
	row.Fill(p)
	return *row
}

// fill takes a row's facts from a loaded packet.
func (r *InboxEntry) Fill(p *packet.Packet) {
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
		state, stale, _ := TriageOf(p, f)
		switch {
		case stale:
			r.Open++
			r.Stale++
		case state == packet.TriageOpen:
			r.Open++
		}
	}
	g := Gate(p)
	r.GateReady = g.Ready
	r.Failing = FailingChecks(g)
	r.Head = p.Change.HeadSHA
	r.Round, r.Rounds = p.History.RoundOf(p.Change.HeadSHA)
	if d, _ := DecisionStands(p); d != nil {
		r.Decision = d.Decision
		r.DecisionSHA = d.SHA
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

// InboxRound is a packet of an inbox as EarlierRound weighs it.
type InboxRound struct {
	Path     string
	ID, Head string
	Loaded   bool
}

// EarlierRound is the round before self among others: a loaded packet with
// the same work-item id and a different head, modified before self (the
// latest such). "" when there is none. It stats the packets, so it runs in
// a command, not in Update. Moved from views (App.earlierRound).
func EarlierRound(self InboxRound, others []InboxRound) string {
	if self.ID == "" {
		return ""
	}
	mtime := func(p string) time.Time {
		if fi, err := os.Stat(p); err == nil {
			return fi.ModTime()
		}
		return time.Time{}
	}
	mine := mtime(self.Path)
	best, bestT := "", time.Time{}
	for _, r := range others {
		if r.Path == self.Path || !r.Loaded || r.ID != self.ID || r.Head == self.Head {
			continue
		}
		if t := mtime(r.Path); !t.After(mine) && (best == "" || t.After(bestT)) {
			best, bestT = r.Path, t
		}
	}
	return best
}
