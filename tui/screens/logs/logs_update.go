package logs

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/ui"
)

// Update handles keys, the mouse, and the results of background work.
func (s *Logs) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if s.gotoOpen {
			return s.gotoKey(msg)
		}
		return s.handleKey(msg)
	case tea.MouseWheelMsg:
		s.wheel(msg.Mouse())
	case tea.MouseClickMsg:
		return s.click(msg.Mouse())
	case common.ThemeChangedMsg:
		for _, v := range s.views {
			v.src.setStyles(s.ctx.Styles)
			v.pane.SetStyles(s.ctx.Styles)
		}
	case IndexProgressMsg:
		s.ticking = false
		var cmd tea.Cmd
		if s.indexWait != nil {
			cmd = s.waitedIndex()
		}
		if s.openPending != nil {
			cmd = tea.Batch(cmd, s.pendingOpen())
		}
		if s.busy() {
			return tea.Batch(cmd, s.tick())
		}
		return cmd
	case IndexDoneMsg:
		return s.indexDone(msg)
	case logsFoundMsg:
		return s.found(msg)
	}
	return nil
}

func (s *Logs) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	v := s.view()
	s.bottomPending = false // any key after G means the user moved on
	s.openPending = nil
	if cmd, ok := s.keyTable(v).Dispatch(msg); ok {
		return cmd
	}
	if v != nil {
		s.note = ""
		v.pane.HandleKey(msg, s.ctx.Keys)
	}
	return nil
}

// keyTable is the screen's keys in the order help lists them, acting on
// the selected log's view v (nil when there is no log, and then only the
// keys that choose a log or stop a search are answered). The go-to-line
// prompt takes every key while it is open (gotoKey): its table only lists.
func (s *Logs) keyTable(v *logsView) common.KeyTable {
	km := s.ctx.Keys
	if s.gotoOpen {
		return common.KeyTable{
			{Key: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "go"))},
			{Key: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))},
		}
	}
	// on acts on the view, when there is one.
	on := func(f func(v *logsView) tea.Cmd) func(tea.KeyPressMsg) tea.Cmd {
		return func(tea.KeyPressMsg) tea.Cmd {
			if v == nil {
				return nil
			}
			return f(v)
		}
	}
	// pane is the pane's own movement.
	pane := func(msg tea.KeyPressMsg) tea.Cmd {
		if v != nil {
			s.note = ""
			v.pane.HandleKey(msg, km)
		}
		return nil
	}
	none := s.current() == nil
	t := common.KeyTable{
		{Key: km.Down, Unlisted: none, Handler: pane},
		{Key: km.Up, Unlisted: none, Handler: pane},
		{Key: km.HalfPageDown, Unlisted: none, Handler: pane},
		{Key: km.HalfPageUp, Unlisted: none, Handler: pane},
		{Key: km.Top, Unlisted: none, Handler: pane},
		{Key: km.Bottom, Unlisted: none, Handler: on(func(v *logsView) tea.Cmd {
			v.pane.Bottom()
			// The end is not known until the index has counted to it.
			s.bottomPending = !v.log.Indexed()
			if s.bottomPending {
				s.ctx.HurryIndex(v.log)
			}
			return nil
		})},
		{Key: km.NextError, Unlisted: none, Handler: on(func(v *logsView) tea.Cmd { return s.scanErrors(v, 1) })},
		{Key: km.PrevError, Unlisted: none, Handler: on(func(v *logsView) tea.Cmd { return s.scanErrors(v, -1) })},
		{Key: km.GotoLine, Unlisted: none, Handler: on(func(v *logsView) tea.Cmd {
			s.gotoOpen, s.gotoBuf = true, ""
			s.sizePane(v)
			return nil
		})},
		{Key: km.Left, Unlisted: none, Handler: pane},
		{Key: km.Right, Unlisted: none, Handler: pane},
		{Key: km.ToggleWrap, Unlisted: none, Handler: on(func(v *logsView) tea.Cmd {
			s.wrap = !s.wrap
			v.pane.SetWrap(s.wrap)
			return nil
		})},
		{Key: km.Search, Unlisted: none},
	}
	if !none && s.query != "" && s.count != 0 {
		t = append(t, common.Binding{Key: km.NextMatch}, common.Binding{Key: km.PrevMatch})
	}
	oneLog := none || len(s.ctx.Packet.Logs) < 2
	return append(t,
		common.Binding{Key: s.keys.NextLog, Unlisted: oneLog, Handler: func(tea.KeyPressMsg) tea.Cmd { return s.selectLog(s.list.Cursor + 1) }},
		common.Binding{Key: s.keys.PrevLog, Unlisted: oneLog, Handler: func(tea.KeyPressMsg) tea.Cmd { return s.selectLog(s.list.Cursor - 1) }},
		common.Binding{Key: s.keys.Cancel, Unlisted: none || !s.find.running(), Handler: func(tea.KeyPressMsg) tea.Cmd {
			if s.cancelFind() {
				s.note = "stopped"
			}
			return nil
		}},
	)
}

// gotoKey edits the go-to-line prompt: digits, backspace, enter, esc.
func (s *Logs) gotoKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.Code {
	case tea.KeyEscape:
		s.closeGoto()
	case tea.KeyBackspace:
		if s.gotoBuf != "" {
			s.gotoBuf = s.gotoBuf[:len(s.gotoBuf)-1]
		} else {
			s.closeGoto()
		}
	case tea.KeyEnter:
		text := s.gotoBuf
		s.closeGoto()
		n, err := strconv.Atoi(text)
		if err != nil || n < 1 {
			return nil
		}
		return s.gotoLine(n)
	default:
		if msg.Mod&^tea.ModShift == 0 && msg.Code >= '0' && msg.Code <= '9' && len(s.gotoBuf) < 12 {
			s.gotoBuf += string(msg.Code)
		}
	}
	return nil
}

func (s *Logs) closeGoto() {
	if !s.gotoOpen {
		return
	}
	s.gotoOpen, s.gotoBuf = false, ""
	if v := s.view(); v != nil {
		s.sizePane(v)
	}
}

// gotoLine puts the cursor on line n (1-based), or on the last line when
// the log is shorter.
func (s *Logs) gotoLine(n int) tea.Cmd {
	v := s.view()
	if v == nil {
		return nil
	}
	if !v.src.probe(n, v.pane.Height()) {
		v.pane.Bottom()
		s.note = fmt.Sprintf("the log ends at line %d", v.src.Len())
		return nil
	}
	v.pane.CenterOn(n - 1)
	return nil
}

// wheel scrolls the list or the pane under the pointer; mouse positions
// are relative to the screen's body.
func (s *Logs) wheel(m tea.Mouse) {
	d := common.WheelStep(m.Button, 1)
	if d == 0 {
		return
	}
	if m.X < s.listWidth() {
		s.syncList()
		s.list.Scroll(d)
		return
	}
	v := s.view()
	if v == nil {
		return
	}
	const step = 3
	top := max(v.pane.Offset()+d*step, 0)
	cur := v.pane.Cursor()
	v.pane.ScrollTo(top)
	top = v.pane.Offset()
	v.pane.SetCursor(min(max(cur, top), top+v.pane.Height()-1))
}

// click selects a log in the list, or a line in the pane.
func (s *Logs) click(m tea.Mouse) tea.Cmd {
	if m.Button != tea.MouseLeft {
		return nil
	}
	if lw := s.listWidth(); m.X < lw {
		s.syncList()
		if i, ok := s.list.ItemAt(m.Y - 1); ok { // under the title
			return s.selectLog(i)
		}
		return nil
	}
	if v := s.view(); v != nil && m.Y >= 1 && m.Y <= v.pane.Height() && !v.pane.Wrap() {
		v.pane.SetCursor(v.pane.Offset() + m.Y - 1)
	}
	return nil
}

// scanErrors moves to the next (dir 1) or previous (dir -1) error line. A
// small log is scanned at once; a large one in a command.
func (s *Logs) scanErrors(v *logsView, dir int) tea.Cmd {
	from := v.pane.Cursor() + 1 + dir
	backward := dir < 0
	l := v.log
	if l.Size < logsSyncLimit {
		line, err := logsScan(context.Background(), l, from, backward, logsIsError, nil)
		return s.found(logsFoundMsg{gen: s.gen, kind: logsJobErrors, dir: dir, line: line, err: err})
	}
	return s.startFind(logsJobErrors, dir, l, func(ctx context.Context, j *logsJob) (int, error) {
		return logsScan(ctx, l, from, backward, logsIsError, j.progress)
	})
}

// found moves to the line a search or scan found.
func (s *Logs) found(msg logsFoundMsg) tea.Cmd {
	if msg.gen != s.gen {
		return nil // the user moved on
	}
	if s.find != nil && s.find.gen == msg.gen {
		s.find = nil
	}
	v := s.view()
	switch {
	case v == nil:
		return nil
	case errors.Is(msg.err, context.Canceled):
		return nil
	case msg.err != nil:
		return common.ReportError(msg.err)
	case msg.line < 1:
		switch {
		case msg.kind == logsJobErrors && msg.dir > 0:
			s.note = "no error line below"
		case msg.kind == logsJobErrors:
			s.note = "no error line above"
		default:
			s.note = "no match for " + strconv.Quote(ui.Sanitize(s.query))
		}
		return nil
	}
	s.note = ""
	v.src.probe(msg.line, v.pane.Height())
	v.pane.CenterOn(msg.line - 1)
	return nil
}

// Search looks for query (exact bytes, as Log.Search does) in the selected
// log and moves to the first line holding it at or after the cursor,
// wrapping. On a small log it counts the matching lines and returns the
// count; on a large one it starts a command (see PendingCmd) and returns
// -1, meaning "searching".
func (s *Logs) Search(query string) int {
	s.query = query
	s.count, s.matchLines = -1, nil
	s.note = ""
	v := s.view()
	if v == nil || query == "" {
		s.query = ""
		s.setMatcher(v)
		s.count = 0
		return 0
	}
	s.setMatcher(v)
	if v.log.Size >= logsSyncLimit {
		s.pending = s.findCmd(v, 0)
		return -1
	}
	s.recount()
	if s.count > 0 {
		s.findNow(v, 0)
	}
	return s.count
}

// recount counts the query's matches in a small log; a large log's count
// stays unknown (-1).
func (s *Logs) recount() {
	v := s.view()
	s.setMatcher(v)
	if v == nil || s.query == "" {
		return
	}
	s.count, s.matchLines = -1, nil
	if v.log.Size >= logsSyncLimit {
		return
	}
	n, at, err := logsCount(context.Background(), v.log, s.query)
	if err != nil {
		v.src.err = err
	}
	s.count, s.matchLines = n, at
}

// setMatcher marks matching lines in the pane's gutter (only lines on
// screen are ever asked).
func (s *Logs) setMatcher(v *logsView) {
	if v == nil {
		return
	}
	if s.query == "" {
		v.pane.SetMatch(nil)
		return
	}
	q, src := s.query, v.src
	v.pane.SetMatch(func(i int) bool {
		raw, ok := src.rawLine(i)
		return ok && logsContains(raw, q)
	})
}

// NextMatch moves to the next (dir 1) or previous (dir -1) line holding
// the query, with Log.Search from the line after (or before) the cursor,
// wrapping. On a large log the search runs in a command left for
// PendingCmd.
func (s *Logs) NextMatch(dir int) {
	v := s.view()
	if v == nil || s.query == "" || s.count == 0 {
		return
	}
	if v.log.Size >= logsSyncLimit {
		s.pending = s.findCmd(v, dir)
		return
	}
	s.findNow(v, dir)
}

// logsFindFrom is where a search starts: the cursor line itself for a new
// query (dir 0), the line after or before it for n and N.
func logsFindFrom(v *logsView, dir int) (int, bool) {
	return v.pane.Cursor() + 1 + dir, dir < 0
}

func (s *Logs) findNow(v *logsView, dir int) {
	from, backward := logsFindFrom(v, dir)
	line, err := logsFind(context.Background(), v.log, s.query, from, backward, nil)
	s.found(logsFoundMsg{gen: s.gen, kind: logsJobSearch, dir: dir, line: line, err: err})
}

func (s *Logs) findCmd(v *logsView, dir int) tea.Cmd {
	from, backward := logsFindFrom(v, dir)
	l, q := v.log, s.query
	return s.startFind(logsJobSearch, dir, l, func(ctx context.Context, j *logsJob) (int, error) {
		return logsFind(ctx, l, q, from, backward, j.progress)
	})
}

// logsContains is the match test the gutter marks use; it agrees with
// Log.Search, which compares bytes.
func logsContains(raw, q string) bool {
	return q != "" && strings.Contains(raw, q)
}
