package logs

import (
	"context"
	"errors"
	"math"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/ui"
)

// Background work on logs: indexing, searching a large log and scanning
// for error lines. Each runs in a tea.Cmd; its progress lives in atomics a
// 100 ms tick reads while, and only while, some job is running.

type logsJobKind int

const (
	logsJobIndex logsJobKind = iota
	logsJobSearch
	logsJobErrors
)

// logsJob is one running piece of work. Commands capture the job (and the
// log), never the screen.
type logsJob struct {
	kind        logsJobKind
	gen         int
	log         *packet.Log
	dir         int // searches and scans: 1 down, -1 up
	done, total atomic.Int64
	finished    atomic.Bool
	cancel      context.CancelFunc
	// work runs the job in a slot; between blocks the job lets other
	// background work go first (see ui.Background), unless hurry says a
	// person waits for this index: then it leaves the slot and goes on.
	work  *ui.Background
	slot  *ui.Slot // while the job runs; only its own goroutine touches it
	hurry func() bool
}

// progress records how far the job has come after each block, and yields
// its slot to work waiting for one: indexing a 1 GiB log takes a third of a
// second, which a document's rendering should not wait behind. An index a
// person waits for leaves the slot instead: it should not wait behind the
// renderings either, nor leave them piled up for when it ends.
func (j *logsJob) progress(done, total int64) {
	j.done.Store(done)
	j.total.Store(total)
	if j.slot == nil {
		return
	}
	if j.hurry != nil && j.hurry() {
		j.slot.Leave()
	} else {
		j.slot.Yield()
	}
}

// percent is how far the job has come, 0-100.
func (j *logsJob) percent() int {
	t := j.total.Load()
	if t <= 0 {
		return 0
	}
	return int(min(j.done.Load()*100/t, 100))
}

func (j *logsJob) running() bool { return j != nil && !j.finished.Load() }

// logsIndexProgressMsg is the tick that refreshes progress while a job runs.
type IndexProgressMsg struct{}

func (IndexProgressMsg) EpochBound() {}

// LogIndexed: the walk redraws a step waiting on a log.
func (IndexProgressMsg) LogIndexed() {}

// logsIndexDoneMsg says an index job ended (completed, failed or cancelled).
type IndexDoneMsg struct {
	job *logsJob
	err error
}

func (IndexDoneMsg) EpochBound() {}

// LogIndexed: the walk redraws a step waiting on a log.
func (IndexDoneMsg) LogIndexed() {}

// logsFoundMsg is the result of a search or an error scan: the 1-based line
// found, or -1.
type logsFoundMsg struct {
	gen  int
	kind logsJobKind
	dir  int
	line int
	err  error
}

func (logsFoundMsg) EpochBound() {}

const logsTickEvery = 100 * time.Millisecond

// tick arms the progress tick unless it is already armed.
func (s *Logs) tick() tea.Cmd {
	if s.ticking {
		return nil
	}
	s.ticking = true
	return tea.Tick(logsTickEvery, func(time.Time) tea.Msg { return IndexProgressMsg{} })
}

// busy reports whether any job is still running, so the tick goes on.
func (s *Logs) busy() bool {
	return s.index.running() || s.find.running() || s.indexWait != nil || s.openPending != nil
}

// logsSyncReadMax is how far past the index (in bytes, estimated) a line
// may lie and still be read at once: scanning 8 MiB takes a few ms.
const logsSyncReadMax = 8 << 20

// farPastIndex reports whether reaching line means scanning more than
// logsSyncReadMax past what the index has counted (estimated).
func farPastIndex(l *packet.Log, line int) bool {
	n := l.LineCount()
	if l.Indexed() || line <= n {
		return false
	}
	return int64(line-n)*l.LineBytes() > logsSyncReadMax
}

// pendingOpen opens the target that waited for the index once the index
// has reached it (or the whole log is counted).
func (s *Logs) pendingOpen() tea.Cmd {
	t := s.openPending
	v := s.view()
	if t == nil || v == nil || v.log.Path != t.Path {
		s.openPending = nil
		return nil
	}
	if farPastIndex(v.log, max(t.EndLine, t.Line)+v.pane.Height()) {
		return nil
	}
	s.openPending = nil
	return s.Open(*t)
}

// waitedIndex follows, at a tick, the log another job was indexing: still
// at it, look again later; done or stopped, go on as if this screen's own
// job had ended (the exit line, a pending G, the next log, the citations).
func (s *Logs) waitedIndex() tea.Cmd {
	l := s.indexWait
	if l.Indexing() {
		return s.tick()
	}
	s.indexWait = nil
	return s.indexDone(IndexDoneMsg{job: &logsJob{kind: logsJobIndex, log: l}})
}

// nextIndex starts indexing the selected log if it needs it, else the first
// log that does; nil when every log is indexed or one is being indexed.
func (s *Logs) nextIndex() tea.Cmd {
	if s.index.running() || s.indexWait != nil {
		return nil
	}
	var pick *packet.Log
	if l := s.current(); l != nil && !l.Indexed() && !s.indexFailed[l.Path] {
		pick = l
	}
	for _, l := range s.ctx.Packet.Logs {
		if pick != nil {
			break
		}
		if !l.Indexed() && !s.indexFailed[l.Path] {
			pick = l
		}
	}
	if pick == nil {
		return nil
	}
	if pick.Indexing() {
		// Another screen's job (the preview's, before the packet was
		// loaded) is indexing this log; a second would wait for it while
		// holding a background slot that job needs. The tick looks again,
		// and its end counts as this screen's (waitedIndex).
		s.indexWait = pick
		s.indexedAny = true
		return s.tick()
	}
	return s.startIndex(pick)
}

func (s *Logs) startIndex(l *packet.Log) tea.Cmd {
	ctx, cancel := context.WithCancel(context.Background())
	vc := s.ctx
	j := &logsJob{kind: logsJobIndex, log: l, cancel: cancel, work: vc.Work, hurry: func() bool { return vc.Hurried(l) }}
	j.total.Store(l.Size)
	s.index = j
	s.indexedAny = true
	run := func() tea.Msg {
		var err error
		j.work.RunSlot(func(s *ui.Slot) { j.slot = s; err = l.Index(ctx, j.progress) })
		j.finished.Store(true)
		cancel()
		return IndexDoneMsg{job: j, err: err}
	}
	return tea.Batch(run, s.tick())
}

// prioritise moves indexing to the selected log when another is being
// indexed: the other's Index stops and resumes later where it stopped.
func (s *Logs) prioritise() tea.Cmd {
	l := s.current()
	if l == nil || l.Indexed() || s.indexFailed[l.Path] {
		return nil
	}
	if s.index.running() && s.index.log != l {
		s.index.cancel()
		s.index = nil
	}
	return s.nextIndex()
}

// indexDone follows an index job's end: the exit line is now placed, the
// next log is started, and once every log is counted the packet's
// citations are checked again against the real line counts.
func (s *Logs) indexDone(msg IndexDoneMsg) tea.Cmd {
	var cmds []tea.Cmd
	if msg.job == s.index {
		s.index = nil
	}
	l := msg.job.log
	switch {
	case errors.Is(msg.err, context.Canceled):
	case msg.err != nil:
		s.indexFailed[l.Path] = true
		cmds = append(cmds, common.ReportError(msg.err))
	}
	if v := s.views[l.Path]; v != nil && v.src.checkExit() {
		v.pane.Invalidate()
	}
	if v := s.view(); v != nil && v.log == l && l.Indexed() && s.bottomPending {
		s.bottomPending = false
		v.pane.Bottom()
	}
	if s.openPending != nil {
		cmds = append(cmds, s.pendingOpen())
	}
	next := s.nextIndex()
	cmds = append(cmds, next)
	if next == nil && !s.index.running() && s.indexedAny {
		s.indexedAny = false
		s.ctx.Packet.Reresolve()
		cmds = append(cmds, common.Status("logs indexed; citations checked against their line counts"))
	}
	return tea.Batch(cmds...)
}

// An error line reports an error *outcome*, not the word (a passing test
// may be named after the error it checks): a non-zero exit,
// FAILED or a FAIL line, "Error:"/"error:"/"fatal:"/"panic:" opening the
// line, a traceback, an exception or error type opening the line, a count
// of failures. A line that only mentions a word ("agg : PARSED (no
// ValueError)", "attempt 1/5 failed; retrying") is not one. Plain
// substring tests come first: a regular expression over every line of a
// ten-million-line log would take minutes.
var (
	logsErrorWords  = []string{"error", "fail", "panic", "traceback", "exception", "exit", "fatal"}
	logsErrorStarts = []string{"error:", "error ", "error[", "[error]", "fatal:", "fatal error", "panic:", "traceback (most recent call last)", "err!", "--- fail", "fail\t", "fail "}
	logsExitRe      = regexp.MustCompile(`\bexit(?:ed)?(?: with)?(?: status| code)? [1-9]|non-?zero exit`)
	logsTypeRe      = regexp.MustCompile(`^(?:[\w$]+\.)*[A-Z][\w$]*(?:Error|Exception)\b`)
	logsCountRe     = regexp.MustCompile(`(?:^|[\s,=(])[1-9]\d* (?:failed|errors?)\b`)
	logsWhereRe     = regexp.MustCompile(`:\d+: (?:[\w$]+\.)*[A-Z][\w$]*(?:Error|Exception)$`)
)

// logsIsError reports whether a raw log line is an error line.
func logsIsError(raw string) bool {
	plain := logsPlain(raw)
	low := strings.ToLower(plain)
	any := false
	for _, w := range logsErrorWords {
		if strings.Contains(low, w) {
			any = true
			break
		}
	}
	if !any {
		return false
	}
	if strings.Contains(plain, "FAILED") || strings.Contains(low, "level=error") {
		return true
	}
	// A log level in capitals ("2026-01-01T00:00:00Z ERROR ...").
	for _, lv := range []string{" ERROR ", "[ERROR]", " FATAL ", "[FATAL]", " CRITICAL "} {
		if strings.Contains(plain, lv) {
			return true
		}
	}
	start := strings.TrimLeft(low, " \t")
	for _, s := range logsErrorStarts {
		if strings.HasPrefix(start, s) {
			return true
		}
	}
	if start == "fail" || logsCountRe.MatchString(low) {
		return true
	}
	// An exception's type opening the line, after pytest's "E" column; or
	// closing it after a file:line (pytest's "x.py:102: AssertionError").
	typ := strings.TrimLeft(plain, " \t")
	if rest, ok := strings.CutPrefix(typ, "E "); ok {
		typ = strings.TrimLeft(rest, " ")
	}
	if logsTypeRe.MatchString(typ) || logsWhereRe.MatchString(strings.TrimRight(plain, " ")) {
		return true
	}
	// pytest's "===== FAILURES =====" and "===== ERRORS =====".
	if strings.HasPrefix(start, "===") && (strings.Contains(low, " failures ") || strings.Contains(low, " errors ")) {
		return true
	}
	return strings.Contains(low, "exit") && logsExitRe.MatchString(low)
}

// logsChunk is how many lines a scan reads at a time. Chunks start on
// multiples of it, which the index's checkpoints (every 256 lines) make
// cheap to find, and bound a scan's memory to logsChunk × packet.LineCap.
const logsChunk = 128

// logsScan finds the first line from line from (1-based, included) down
// (backward false) or up whose raw text satisfies match; -1 when none. It
// reads through ReadLines, so it works on a log still being indexed, and
// stops when ctx is done.
func logsScan(ctx context.Context, l *packet.Log, from int, backward bool, match func(string) bool, progress func(done, total int64)) (int, error) {
	if from < 1 {
		if backward {
			return -1, nil
		}
		from = 1
	}
	if !backward {
		total := int64(max(l.LineCount(), from))
		for line := from; ; {
			if err := ctx.Err(); err != nil {
				return -1, err
			}
			n := logsChunk - (line-1)%logsChunk
			lines, err := l.ReadLines(line, n)
			for k, raw := range lines {
				if match(raw) {
					return line + k, nil
				}
			}
			if err != nil {
				return -1, err
			}
			if len(lines) < n {
				return -1, nil
			}
			line += n
			if progress != nil {
				progress(int64(line-from), max(total-int64(from), 1))
			}
		}
	}
	for hi := from; hi >= 1; {
		if err := ctx.Err(); err != nil {
			return -1, err
		}
		lo := (hi-1)/logsChunk*logsChunk + 1
		lines, err := l.ReadLines(lo, hi-lo+1)
		if err != nil {
			return -1, err
		}
		for k := len(lines) - 1; k >= 0; k-- {
			if match(lines[k]) {
				return lo + k, nil
			}
		}
		hi = lo - 1
		if progress != nil {
			progress(int64(from-hi), int64(from))
		}
	}
	return -1, nil
}

// logsFind looks for needle from line from (1-based, included), down or
// up, wrapping around the end once; -1 when the log does not hold it.
func logsFind(ctx context.Context, l *packet.Log, needle string, from int, backward bool, progress func(done, total int64)) (int, error) {
	line, err := l.Search(ctx, []byte(needle), from, backward, progress)
	if err != nil || line > 0 {
		return line, err
	}
	if backward {
		return l.Search(ctx, []byte(needle), math.MaxInt32, true, progress)
	}
	return l.Search(ctx, []byte(needle), 1, false, progress)
}

// logsMatchCap bounds the match positions kept for a small log's "match
// i/n"; past it only the count is known.
const logsMatchCap = 100_000

// logsCount counts the lines of a (small) log holding needle, keeping the
// first logsMatchCap of their 1-based numbers.
func logsCount(ctx context.Context, l *packet.Log, needle string) (int, []int, error) {
	count := 0
	var at []int
	_, err := logsScan(ctx, l, 1, false, func() func(string) bool {
		line := 0
		return func(raw string) bool {
			line++
			if strings.Contains(raw, needle) {
				count++
				if len(at) < logsMatchCap {
					at = append(at, line)
				}
			}
			return false
		}
	}(), nil)
	return count, at, err
}

// cancelFind stops a running search or scan.
func (s *Logs) cancelFind() bool {
	if !s.find.running() {
		return false
	}
	s.find.cancel()
	s.find = nil
	s.gen++ // whatever it still sends is stale
	return true
}

// startFind runs a search or scan in a command; its result comes back as
// logsFoundMsg with the current generation.
func (s *Logs) startFind(kind logsJobKind, dir int, l *packet.Log, run func(ctx context.Context, j *logsJob) (int, error)) tea.Cmd {
	s.cancelFind()
	s.gen++
	ctx, cancel := context.WithCancel(context.Background())
	j := &logsJob{kind: kind, gen: s.gen, log: l, dir: dir, cancel: cancel, work: s.ctx.Work}
	s.find = j
	cmd := func() tea.Msg {
		var line int
		var err error
		j.work.RunSlot(func(s *ui.Slot) { j.slot = s; line, err = run(ctx, j) })
		j.finished.Store(true)
		cancel()
		return logsFoundMsg{gen: j.gen, kind: kind, dir: dir, line: line, err: err}
	}
	return tea.Batch(cmd, s.tick())
}
