package logs

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/ui"
)

// logsSource is the log pane's LineSource. It reads a window of lines
// around what the pane asks for with Log.ReadLines, so a frame costs the
// same on a log of ten lines and one of ten million, and it draws each line
// once through Styles.LogLine (carriage returns resolved, colours
// translated, everything else neutralised).
type logsSource struct {
	st  *ui.Styles
	log *packet.Log

	// known is how many lines are known to exist from reading them, which
	// can run ahead of the index while it is still counting.
	known int

	from  int      // 0-based line of raw[0]
	raw   []string // the window's lines as read (capped at logsDrawCap)
	drawn []string // their drawn form, "" until asked for
	done  []bool

	exitIdx   int // 0-based line of the recorder's exit line, -1 until known
	exitDrawn string

	err   error // the last read error, shown in the status
	loads int   // windows read, for tests and benchmarks
}

const (
	// logsWindow is how many lines one read brings in around a miss: a few
	// screens, so scrolling reads the log once every few hundred lines.
	logsWindow = 512
	// logsDrawCap is how much of one line is kept for drawing. A line is
	// read whole up to packet.LineCap; more than this is never on screen
	// and would make a window of long lines cost hundreds of megabytes.
	logsDrawCap = 64 << 10
)

func newLogsSource(st *ui.Styles, l *packet.Log) *logsSource {
	s := &logsSource{st: st, log: l, exitIdx: -1}
	s.checkExit()
	return s
}

// checkExit learns where the exit line is once the index is complete (its
// line number is written by Index; Indexed orders the read after it).
func (s *logsSource) checkExit() bool {
	if s.exitIdx >= 0 || !s.log.Indexed() || s.log.Exit == nil || s.log.Exit.Line <= 0 {
		return false
	}
	s.exitIdx = s.log.Exit.Line - 1
	style := s.st.Badge.OK.UnsetPadding()
	if s.log.Exit.Code != 0 {
		style = s.st.Badge.Error.UnsetPadding()
	}
	s.exitDrawn = style.Render(ui.Sanitize(s.log.Exit.Text))
	return true
}

// Len is the lines counted by the index so far, or read, whichever is more.
func (s *logsSource) Len() int {
	return max(s.log.LineCount(), s.known)
}

// Line draws line i (0-based).
func (s *logsSource) Line(i int) string {
	if i == s.exitIdx {
		return s.exitDrawn
	}
	k, ok := s.at(i)
	if !ok {
		if s.err != nil {
			return s.st.Error.Render(ui.Sanitize(fmt.Sprintf("⟨%v⟩", s.err)))
		}
		return ""
	}
	if !s.done[k] {
		s.drawn[k] = s.st.LogLine(s.raw[k])
		s.done[k] = true
	}
	return s.drawn[k]
}

// rawLine is line i (0-based) as read, for searching and matching.
func (s *logsSource) rawLine(i int) (string, bool) {
	k, ok := s.at(i)
	if !ok {
		return "", false
	}
	return s.raw[k], true
}

// at returns line i's index in the window, reading a new window on a miss.
func (s *logsSource) at(i int) (int, bool) {
	if i < 0 {
		return 0, false
	}
	if k := i - s.from; k >= 0 && k < len(s.raw) {
		return k, true
	}
	s.load(i)
	if k := i - s.from; k >= 0 && k < len(s.raw) {
		return k, true
	}
	return 0, false
}

// load reads the window around line i: a quarter before it, the rest
// after, since reading goes down more often than up.
func (s *logsSource) load(i int) {
	from := max(i-logsWindow/4, 0)
	lines, err := s.log.ReadLines(from+1, logsWindow)
	s.loads++
	s.err = err
	s.from = from
	for k, l := range lines {
		lines[k] = logsCapLine(l)
	}
	s.raw = lines
	if cap(s.drawn) >= len(lines) {
		s.drawn, s.done = s.drawn[:len(lines)], s.done[:len(lines)]
		clear(s.drawn)
		clear(s.done)
	} else {
		s.drawn, s.done = make([]string, len(lines)), make([]bool, len(lines))
	}
	s.known = max(s.known, from+len(lines))
}

// drop forgets the window, for a log that is no longer on screen.
func (s *logsSource) drop() {
	s.raw, s.drawn, s.done, s.from = nil, nil, nil, 0
}

// probe makes sure line (1-based) is reachable before the index has
// counted that far, learning up to ahead lines after it too so the view can
// centre on it; it reports whether the line exists.
func (s *logsSource) probe(line, ahead int) bool {
	if line+ahead <= s.Len() {
		return true
	}
	lines, err := s.log.ReadLines(line, 1+max(ahead, 0))
	if err != nil {
		s.err = err
		return false
	}
	if len(lines) == 0 {
		return line <= s.Len()
	}
	s.known = max(s.known, line-1+len(lines))
	return true
}

// logsCapLine keeps at most logsDrawCap bytes of a line, cut at a rune
// boundary, saying so at the end.
func logsCapLine(l string) string {
	if len(l) <= logsDrawCap {
		return l
	}
	cut := logsDrawCap
	for cut > 0 && !utf8.RuneStart(l[cut]) {
		cut--
	}
	return l[:cut] + fmt.Sprintf(" …[%d more bytes not drawn]", len(l)-cut)
}

// logsPlain is a raw line without its SGR colours, for pattern matching.
func logsPlain(raw string) string {
	if strings.IndexByte(raw, 0x1b) < 0 {
		return raw
	}
	return logsStripSGR(raw)
}

// logsStripSGR drops ESC [ ... m sequences; anything else is left for the
// matcher to see as it is.
func logsStripSGR(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
				j++
			}
			if j < len(s) && s[j] == 'm' {
				i = j + 1
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// setStyles redraws the window with st (the theme changed).
func (s *logsSource) setStyles(st *ui.Styles) {
	s.st = st
	for i := range s.done {
		s.done[i] = false
	}
	if s.exitIdx >= 0 {
		s.exitIdx = -1 // checkExit draws the exit line again
		s.checkExit()
	}
}
