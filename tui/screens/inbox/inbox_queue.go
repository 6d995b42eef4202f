package inbox

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/report"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/common"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/packet"
)

// QueueFeed is how the queue screen reads GitHub. main wires it to the
// github package (github.Queue): the screens see rows and packets, not an
// API.
type QueueFeed struct {
	// Repos are the repositories shown, OWNER/REPO.
	Repos []string
	// Cached returns the rows of the last visit, at once and without a
	// request: the first screen.
	Cached func() []report.QueueRow
	// Fill lists every repository's open pull requests (list, once per
	// repository) and reads their rows (row, as each is read); both may be
	// called from any goroutine, one call at a time.
	Fill func(ctx context.Context, list func(repo string, rows []report.QueueRow), row func(report.QueueRow)) error
	// ReadOne reads one row again.
	ReadOne func(ctx context.Context, repo string, number int) (report.QueueRow, error)
	// Open lays the pull request out as a packet folder and returns it.
	Open func(repo string, number int) (string, error)
	// Rate says the remaining rate limit when it runs low, "" otherwise.
	Rate func() string
	// The filters the queue starts with (--author, --has-packet,
	// --awaiting-me).
	Author     string
	HasPacket  bool
	AwaitingMe bool
	// Now is the clock ages are counted against (time.Now when nil).
	Now func() time.Time
}

// queueSource is the inbox's source for the vetting queue: a repository's
// open pull requests, each row filled as its requests return.
type queueSource struct {
	feed QueueFeed

	gen     int // bumped by every fill (r): events of an older one are dropped
	filling bool
	done    bool            // a fill has ended
	listed  int             // rows listed by this fill
	filled  map[string]bool // rows read by this fill
	err     error

	author     string
	hasPacket  bool
	awaitingMe bool
	keys       queueKeys
}

// queueKeys are the queue's own keys, beside the inbox's.
type queueKeys struct {
	Refresh, Author, Packet, Mine key.Binding
}

func defaultQueueKeys() queueKeys {
	b := func(k, desc string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, desc)) }
	return queueKeys{Refresh: b("r", "refresh"), Author: b("a", "author"), Packet: b("p", "packet"), Mine: b("m", "awaiting me")}
}

// NewQueueSource is the vetting queue as an inbox source.
func NewQueueSource(feed QueueFeed) InboxSource {
	if feed.Now == nil {
		feed.Now = time.Now
	}
	return &queueSource{feed: feed, author: feed.Author, hasPacket: feed.HasPacket, awaitingMe: feed.AwaitingMe,
		filled: map[string]bool{}, keys: defaultQueueKeys()}
}

// queueEventMsg is one thing a fill learned: a repository's list, a row,
// or that it ended (with its error).
type queueEventMsg struct {
	gen  int
	repo string
	list []report.QueueRow
	row  *report.QueueRow
	done bool
	err  error
	next chan queueEventMsg
}

// queueRowMsg is one row read again.
type queueRowMsg struct {
	row report.QueueRow
	err error
}

func (queueEventMsg) SourceMsg() {}
func (queueRowMsg) SourceMsg()   {}

func (s *queueSource) Title() string { return "Queue" }
func (s *queueSource) Where() string { return strings.Join(s.feed.Repos, ", ") }

func rowName(repo string, n int) string { return fmt.Sprintf("%s#%d", repo, n) }

func queueInboxRow(q report.QueueRow) *InboxRow {
	r := &InboxRow{Name: rowName(q.Repo, q.Number), InboxEntry: review.InboxEntry{Loaded: true, Title: q.Title, Head: q.HeadSHA,
		Verdict: q.Verdict, Assessment: q.Assessment, Validated: q.Evidence.Validated, Total: q.Evidence.Total,
		Open: q.FindingsOpen, Findings: q.FindingsTotal, GateReady: q.GateReady}}
	if q.Decision != nil {
		r.Decision, r.DecisionSHA = q.Decision.Decision, q.Decision.SHA
	}
	r.PR = &q
	return r
}

func (s *queueSource) Rows() ([]*InboxRow, error) {
	var rows []*InboxRow
	if s.feed.Cached != nil {
		for _, q := range s.feed.Cached() {
			rows = append(rows, queueInboxRow(q))
		}
	}
	return rows, nil
}

// Start fills the rows: one goroutine reads GitHub and hands what it
// learns over a channel, one message at a time.
func (s *queueSource) Start(in *Inbox) tea.Cmd {
	s.gen++
	s.filling, s.listed, s.err = true, 0, nil
	clear(s.filled)
	gen, feed := s.gen, s.feed
	if feed.Fill == nil {
		// Offline: the cache is all there is.
		s.filling, s.done = false, true
		return nil
	}
	return func() tea.Msg {
		ch := make(chan queueEventMsg, 64)
		go func() {
			var mu sync.Mutex
			send := func(m queueEventMsg) {
				mu.Lock()
				defer mu.Unlock()
				m.gen, m.next = gen, ch
				ch <- m
			}
			err := feed.Fill(context.Background(),
				func(repo string, rows []report.QueueRow) { send(queueEventMsg{repo: repo, list: slices.Clone(rows)}) },
				func(r report.QueueRow) { send(queueEventMsg{row: &r}) })
			send(queueEventMsg{done: true, err: err})
			close(ch)
		}()
		return <-ch
	}
}

func waitQueue(ch chan queueEventMsg) tea.Cmd {
	return func() tea.Msg {
		m, ok := <-ch
		if !ok {
			return nil
		}
		return m
	}
}

func (s *queueSource) Handle(in *Inbox, msg tea.Msg) (tea.Cmd, bool) {
	switch m := msg.(type) {
	case queueEventMsg:
		var next tea.Cmd
		if !m.done {
			next = waitQueue(m.next)
		}
		if m.gen != s.gen {
			return next, true
		}
		switch {
		case m.done:
			s.filling, s.done, s.err = false, true, m.err
			if m.err != nil {
				in.SetStatus("reading the queue: " + m.err.Error())
			}
		case m.list != nil:
			s.list(in, m.repo, m.list)
		case m.row != nil:
			s.filled[rowName(m.row.Repo, m.row.Number)] = true
			in.putRow(queueInboxRow(*m.row))
		}
		return next, true
	case queueRowMsg:
		if m.err != nil {
			in.SetStatus("reading " + rowName(m.row.Repo, m.row.Number) + " again: " + m.err.Error())
			return nil, true
		}
		in.putRow(queueInboxRow(m.row))
		return nil, true
	}
	return nil, false
}

// list puts a repository's open pull requests on screen: a row whose head
// is unchanged keeps what the last visit knew until it is read again, and
// the rows of pull requests no longer open leave.
func (s *queueSource) list(in *Inbox, repo string, rows []report.QueueRow) {
	s.listed += len(rows)
	open := map[string]bool{}
	for _, q := range rows {
		name := rowName(q.Repo, q.Number)
		open[name] = true
		if old := in.byKey[name]; old != nil && old.PR != nil && old.PR.HeadSHA == q.HeadSHA {
			continue
		}
		in.putRowQuiet(queueInboxRow(q))
	}
	kept := in.all[:0]
	for _, r := range in.all {
		if r.PR != nil && r.PR.Repo == repo && !open[r.Name] {
			delete(in.byKey, r.Name)
			continue
		}
		kept = append(kept, r)
	}
	in.all = kept
	slices.SortStableFunc(in.all, in.src.Compare)
	in.refilter()
}

// putRow puts a row in its place (replacing the row of the same name),
// keeping the selection on the same row.
func (in *Inbox) putRow(r *InboxRow) {
	in.putRowQuiet(r)
	slices.SortStableFunc(in.all, in.src.Compare)
	in.refilter()
}

func (in *Inbox) putRowQuiet(r *InboxRow) {
	if old := in.byKey[r.Name]; old != nil {
		*old = *r
		return
	}
	in.all = append(in.all, r)
	in.byKey[r.Name] = r
}

func (s *queueSource) Reread(in *Inbox, r *InboxRow) tea.Cmd {
	if r.PR == nil || s.feed.ReadOne == nil {
		return nil
	}
	repo, n, read := r.PR.Repo, r.PR.Number, s.feed.ReadOne
	return func() tea.Msg {
		row, err := read(context.Background(), repo, n)
		if err != nil {
			row.Repo, row.Number = repo, n
		}
		return queueRowMsg{row: row, err: err}
	}
}

func (s *queueSource) Open(r *InboxRow) tea.Cmd {
	if r.PR == nil || s.feed.Open == nil {
		return nil
	}
	repo, n, name, open := r.PR.Repo, r.PR.Number, r.Name, s.feed.Open
	return func() tea.Msg {
		return InboxOpenMsg{Name: name, Resolve: func() (string, error) { return open(repo, n) }}
	}
}

func (s *queueSource) Compare(a, b *InboxRow) int {
	if a.PR == nil || b.PR == nil {
		return cmp.Compare(a.Name, b.Name)
	}
	return report.CompareQueueRows(a.PR, b.PR)
}

func (s *queueSource) Keep(r *InboxRow) bool {
	q := r.PR
	if q == nil {
		return true
	}
	return (s.author == "" || strings.EqualFold(q.Author, s.author)) &&
		(!s.hasPacket || q.Packet) && (!s.awaitingMe || q.AwaitingMe())
}

// Keys: a keeps the selected row's author (again: everyone's), p keeps
// the rows with a packet, m the rows awaiting you, r refreshes.
func (s *queueSource) Keys(in *Inbox) common.KeyTable {
	filter := func(f func()) func(tea.KeyPressMsg) tea.Cmd {
		return func(tea.KeyPressMsg) tea.Cmd {
			f()
			in.refilter()
			return nil
		}
	}
	return common.KeyTable{
		{Key: s.keys.Author, Handler: filter(func() {
			switch r := in.Selected(); {
			case s.author != "":
				s.author = ""
			case r != nil && r.PR != nil:
				s.author = r.PR.Author
			}
		})},
		{Key: s.keys.Packet, Handler: filter(func() { s.hasPacket = !s.hasPacket })},
		{Key: s.keys.Mine, Handler: filter(func() { s.awaitingMe = !s.awaitingMe })},
		{Key: s.keys.Refresh, Handler: func(tea.KeyPressMsg) tea.Cmd {
			if s.feed.Fill == nil {
				in.SetStatus("offline: the rows are the last visit's")
				return nil
			}
			in.SetStatus("refreshing…")
			return s.Start(in)
		}},
	}
}

func (s *queueSource) Count(in *Inbox) string {
	out := fmt.Sprintf("%d pull requests", len(in.all))
	if s.filling {
		out = fmt.Sprintf("reading… %d/%d", len(s.filled), s.listed)
		if s.listed == 0 {
			out = "listing the open pull requests…"
		}
	}
	if s.feed.Rate != nil {
		if r := s.feed.Rate(); r != "" {
			out = r + " · " + out
		}
	}
	return out
}

func (s *queueSource) Empty(*Inbox) string {
	if !s.done {
		return "listing the open pull requests…"
	}
	return "no open pull requests"
}

func (s *queueSource) Filters() string {
	var on []string
	if s.author != "" {
		on = append(on, "author "+s.author)
	}
	if s.hasPacket {
		on = append(on, "with a packet")
	}
	if s.awaitingMe {
		on = append(on, "awaiting me")
	}
	return strings.Join(on, ", ")
}

// queueHaystack is what / finds in a queue row.
func queueHaystack(q *report.QueueRow) []string {
	parts := []string{q.Repo, fmt.Sprintf("#%d", q.Number), q.Author, q.Class, q.HeadSHA}
	if q.Awaiting {
		parts = append(parts, "awaiting")
	}
	if q.Draft {
		parts = append(parts, "draft")
	}
	if !q.Packet {
		parts = append(parts, "no packet")
	}
	parts = append(parts, q.CI.Failing...)
	return parts
}

// age is how long ago an RFC 3339 time was, in its largest unit.
func age(now time.Time, at string) string {
	t, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return "—"
	}
	d := now.Sub(t)
	switch {
	case d < time.Hour:
		return fmt.Sprintf("%dm", max(int(d.Minutes()), 0))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

func ciCell(ci packet.OriginCI) (string, string) {
	switch {
	case ci.Failure > 0:
		return fmt.Sprintf("%d fail", ci.Failure), "fail"
	case ci.Pending > 0:
		return fmt.Sprintf("%d pend", ci.Pending), "warn"
	case ci.Success > 0:
		return fmt.Sprintf("%d ok", ci.Success), "ok"
	}
	return "—", ""
}

func (s *queueSource) Columns() []inboxCol {
	pr := func(f func(q *report.QueueRow) (string, string)) func(in *Inbox, r *InboxRow) (string, string) {
		return func(in *Inbox, r *InboxRow) (string, string) {
			if r.PR == nil {
				return "", ""
			}
			return f(r.PR)
		}
	}
	// A cell the PR's own read has not answered yet says so.
	read := func(f func(q *report.QueueRow) (string, string)) func(q *report.QueueRow) (string, string) {
		return func(q *report.QueueRow) (string, string) {
			if !q.Loaded {
				return "…", "muted"
			}
			return f(q)
		}
	}
	pk := func(f func(q *report.QueueRow) (string, string)) func(q *report.QueueRow) (string, string) {
		return read(func(q *report.QueueRow) (string, string) {
			if !q.Packet {
				return "—", ""
			}
			return f(q)
		})
	}
	return []inboxCol{
		{"PR", 6, 0, pr(func(q *report.QueueRow) (string, string) { return fmt.Sprintf("#%d", q.Number), "" })},
		{"Title", 0, 0, nil},
		{"Author", 12, 3, pr(func(q *report.QueueRow) (string, string) { return q.Author, "" })},
		{"Age", 4, 5, pr(func(q *report.QueueRow) (string, string) { return age(s.feed.Now(), q.CreatedAt), "" })},
		{"Class", 6, 0, pr(read(func(q *report.QueueRow) (string, string) {
			w := map[string]string{report.QueueReady: "ready", report.QueueWork: "warn", report.QueueMoved: "warn"}[q.Class]
			return q.Class, w
		}))},
		{"Head", 10, 2, pr(func(q *report.QueueRow) (string, string) {
			h := commitid.Short(q.HeadSHA)
			if q.CommitsSinceOK != nil && *q.CommitsSinceOK > 0 {
				h += fmt.Sprintf(" +%d", *q.CommitsSinceOK)
			}
			return h, ""
		})},
		{"Verdict", 7, 4, pr(pk(func(q *report.QueueRow) (string, string) { return common.OrDash(q.Verdict), q.Verdict }))},
		{"Valid", 5, 4, pr(pk(func(q *report.QueueRow) (string, string) {
			w := "validated"
			if q.Evidence.Validated < q.Evidence.Total || q.Evidence.Total == 0 {
				w = "failing"
			}
			return fmt.Sprintf("%d/%d", q.Evidence.Validated, q.Evidence.Total), w
		}))},
		{"Open", 5, 4, pr(pk(func(q *report.QueueRow) (string, string) {
			w := "ok"
			if q.FindingsOpen > 0 {
				w = "warn"
			}
			return fmt.Sprintf("%d/%d", q.FindingsOpen, q.FindingsTotal), w
		}))},
		{"CI", 6, 3, pr(read(func(q *report.QueueRow) (string, string) { return ciCell(q.CI) }))},
		{"/ok to test", 12, 1, pr(read(func(q *report.QueueRow) (string, string) {
			switch {
			case q.OkToTest == nil:
				return "—", ""
			case q.OkToTest.Current:
				return commitid.Short(q.OkToTest.SHA) + " head", "ok"
			}
			return commitid.Short(q.OkToTest.SHA) + " old", "warn"
		}))},
		{"Yours", 11, 2, pr(func(q *report.QueueRow) (string, string) {
			switch {
			case q.Decision == nil:
				return "—", ""
			case !q.Decision.Current:
				return decisionWord(q.Decision.Decision) + " (old)", ""
			}
			return decisionWord(q.Decision.Decision), q.Decision.Decision
		})},
	}
}

// Details says everything about the selected pull request on one line,
// what decides its place first: the columns already show the packet's
// figures, and a narrow terminal cuts the end.
func (s *queueSource) Details(in *Inbox, r *InboxRow) string {
	st := in.st
	q := r.PR
	if q == nil {
		return ""
	}
	parts := []string{rowName(q.Repo, q.Number), "by " + q.Author}
	if q.Draft {
		parts = append(parts, "draft")
	}
	parts = append(parts, "head "+commitid.Short(q.HeadSHA))
	if !q.Loaded {
		parts = append(parts, "reading…")
		return st.Line(strings.Join(parts, " · "), st.Muted)
	}
	switch {
	case q.Awaiting && q.Marker:
		parts = append(parts, "awaiting vetting")
	case q.Awaiting:
		parts = append(parts, "awaiting vetting (--all)")
	}
	if ok := q.OkToTest; ok != nil {
		l := fmt.Sprintf("last /ok to test %s by %s", commitid.Short(ok.SHA), ok.By)
		switch {
		case ok.Current:
			l += " (the head)"
		case q.CommitsSinceOK != nil && *q.CommitsSinceOK == 1:
			l += " (1 commit since)"
		case q.CommitsSinceOK != nil:
			l += fmt.Sprintf(" (%d commits since)", *q.CommitsSinceOK)
		default:
			l += " (not the head)"
		}
		parts = append(parts, l)
	} else {
		parts = append(parts, "never /ok to test")
	}
	if d := q.Decision; d != nil {
		parts = append(parts, fmt.Sprintf("your decision %s for %s", d.Decision, commitid.Short(d.SHA)))
	}
	parts = append(parts, "CI "+q.CI.CILine())
	if q.Packet {
		gate := "gate not ready"
		if q.GateReady {
			gate = "gate ready"
		}
		parts = append(parts, gate, fmt.Sprintf("%s/%s", common.OrDash(q.Verdict), common.OrDash(q.Assessment)),
			fmt.Sprintf("%d/%d validated", q.Evidence.Validated, q.Evidence.Total),
			fmt.Sprintf("%d of %d findings open", q.FindingsOpen, q.FindingsTotal))
	} else {
		parts = append(parts, "no packet in the comments")
	}
	return st.Line(strings.Join(parts, " · "), st.Muted)
}
