package inbox

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/vetter-dev/vetter/tui/common"
)

// InboxSource is where the inbox's rows come from: a folder of packets
// (vetter DIR) or the open pull requests of repositories (vetter queue).
// The screen is one: rows, order, the filter, the keys, opening a row in
// the workbench and returning to it; a source says what its rows are, how
// they are read and ordered, and which columns they show.
type InboxSource interface {
	// Title names the screen ("Inbox", "Queue"); Where is what it shows (a
	// folder, OWNER/REPO).
	Title() string
	Where() string
	// Rows are the rows shown at once, before anything is read in the
	// background (placeholders, or the cache of the last visit).
	Rows() ([]*InboxRow, error)
	// Start begins reading the rows in the background.
	Start(in *Inbox) tea.Cmd
	// Handle takes the source's own messages (rows arriving); ok is false
	// for a message that is not the source's.
	Handle(in *Inbox, msg tea.Msg) (cmd tea.Cmd, ok bool)
	// Reread reads one row again (after it was open in the workbench).
	Reread(in *Inbox, r *InboxRow) tea.Cmd
	// Open opens a row in the workbench.
	Open(r *InboxRow) tea.Cmd
	// Compare is the rows' order.
	Compare(a, b *InboxRow) int
	// Keep filters rows beyond the / text (the queue's author, packet and
	// awaiting-me filters).
	Keep(r *InboxRow) bool
	// Keys are the source's own keys, answered before the inbox's and
	// named on the status line after them.
	Keys(in *Inbox) common.KeyTable
	// Columns are the table's columns; Details says everything about the
	// selected row on one line.
	Columns() []inboxCol
	Details(in *Inbox, r *InboxRow) string
	// Count says how many rows there are, or how far reading is ("6
	// packets", "reading… 3/6"); Filters says what the source's filters
	// keep ("author octocat, with a packet"), "" when they keep every row.
	Count(in *Inbox) string
	Filters() string
	// Empty says why there are no rows at all.
	Empty(in *Inbox) string
}

// SourceMsg marks the messages a source sends itself, so the app
// routes them to the inbox even while the workbench is open.
type SourceMsg interface{ SourceMsg() }

func (inboxRowMsg) SourceMsg() {}

// folderSource is a folder of packets: one row per sub-folder or archive,
// read a few at a time.
type folderSource struct {
	dir      string
	stateDir string
	queue    *inboxQueue
}

func newFolderSource(dir, stateDir string) *folderSource {
	return &folderSource{dir: dir, stateDir: stateDir}
}

func (s *folderSource) Title() string { return "Inbox" }
func (s *folderSource) Where() string { return s.dir }

func (s *folderSource) Rows() ([]*InboxRow, error) {
	rows, err := listInbox(s.dir)
	s.queue = newInboxQueue(rows)
	return rows, err
}

// Start reads the packets, a few at a time.
func (s *folderSource) Start(in *Inbox) tea.Cmd {
	cmds := make([]tea.Cmd, 0, inboxWorkers())
	for range inboxWorkers() {
		cmds = append(cmds, s.queue.next(in.gen, s.stateDir))
	}
	return tea.Batch(cmds...)
}

func (s *folderSource) Handle(in *Inbox, msg tea.Msg) (tea.Cmd, bool) {
	m, ok := msg.(inboxRowMsg)
	if !ok {
		return nil, false
	}
	var next tea.Cmd
	if m.Worker && m.Gen == in.gen {
		// The row's arrival lets its worker take the next packet.
		next = s.queue.next(in.gen, s.stateDir)
	}
	in.arrive(m)
	return next, true
}

func (s *folderSource) Reread(in *Inbox, r *InboxRow) tea.Cmd {
	return readRowCmd(in.gen, r.Name, r.Path, s.stateDir)
}

func (s *folderSource) Open(r *InboxRow) tea.Cmd {
	name, path := r.Name, r.Path
	return func() tea.Msg { return InboxOpenMsg{Name: name, Path: path} }
}

func (s *folderSource) Compare(a, b *InboxRow) int            { return CompareInboxRows(a, b) }
func (s *folderSource) Keep(*InboxRow) bool                   { return true }
func (s *folderSource) Keys(*Inbox) common.KeyTable           { return nil }
func (s *folderSource) Columns() []inboxCol                   { return inboxCols }
func (s *folderSource) Details(in *Inbox, r *InboxRow) string { return in.packetDetails(r) }
func (s *folderSource) Empty(*Inbox) string                   { return "no packets in this folder" }
func (s *folderSource) Filters() string                       { return "" }

func (s *folderSource) Count(in *Inbox) string {
	read, total := in.Progress()
	if read < total {
		return fmt.Sprintf("reading… %d/%d", read, total)
	}
	return fmt.Sprintf("%d packets", len(in.all)-in.skipped)
}
