package logs

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/vetter-dev/vetter/tui/common"

	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
)

// logsEntryRows is how many rows one log takes in the list.
const logsEntryRows = 2

// syncList tells the list how many logs there are and how many rows it
// has under its title.
func (s *Logs) syncList() {
	s.list.SetRowsPerItem(logsEntryRows)
	s.list.SetLen(len(s.ctx.Packet.Logs))
	s.list.SetHeight(s.height - 1)
}

// keepListSelection scrolls the list so the selected log is on it.
func (s *Logs) keepListSelection() {
	s.syncList()
	s.list.KeepInView()
}

// View draws the list of logs beside the selected log. It reads only the
// lines on screen (through the pane's source window).
func (s *Logs) View() string {
	if s.width <= 0 || s.height <= 0 {
		return ""
	}
	v := s.view()
	if v == nil {
		msg := s.ctx.Styles.Muted.Render("This packet has no logs under " + packet.LogsDir + ".")
		return strings.Join(common.PadLines([]string{"", "  " + msg}, s.width, s.height), "\n")
	}
	x, pw, ph := s.paneRect()
	right := make([]string, 0, s.height)
	right = append(right, common.FitCell(s.header(v), pw))
	if ph > 0 {
		// The pane's rows are exactly pw wide already; measuring them
		// again would double the frame's cost.
		right = append(right, strings.Split(v.pane.View(), "\n")...)
	}
	if s.gotoOpen {
		prompt := s.ctx.Styles.Accent.Render(":") + s.gotoBuf + s.ctx.Styles.Cursor.Render("█")
		hint := s.ctx.Styles.Muted.Render(fmt.Sprintf("   go to line (1-%d), enter · esc", v.src.Len()))
		right = append(right, common.FitCell(prompt+hint, pw))
	}
	for len(right) < s.height {
		right = append(right, strings.Repeat(" ", pw))
	}
	right = right[:s.height]
	if x == 0 {
		return strings.Join(right, "\n")
	}
	left := s.listLines(x - 1)
	rule := s.ctx.Styles.Muted.Render("│")
	var b strings.Builder
	b.Grow(s.height * (s.width + 32))
	for i := range s.height {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(left[i])
		b.WriteString(rule)
		b.WriteString(right[i])
	}
	return b.String()
}

// header names the log above its pane: file name, size, exit, who cites it.
func (s *Logs) header(v *logsView) string {
	st := s.ctx.Styles
	info := []string{logsSize(v.log.Size)}
	if v.log.Truncated {
		info = append(info, "cut short")
	}
	if v.log.Exit != nil {
		info = append(info, fmt.Sprintf("exit %d", v.log.Exit.Code))
	}
	if c := s.citation(v.log.Path); c != "" {
		info = append(info, c)
	}
	rest := " · " + strings.Join(info, " · ")
	_, pw, _ := s.paneRect()
	name := common.Flat(logsBase(v.log.Path))
	if ansi.StringWidth(name)+ansi.StringWidth(rest) > pw {
		// Short enough to leave room for the size and exit after it.
		name = logsShortName(v.log.Path, min(ansi.StringWidth(name), max(pw/2, 12)))
	}
	return st.Title.Render(name) + st.Muted.Render(rest)
}

// citation says which recipe and run cite a log: "03-python-unit-tests #5"
// (the latest run), with "+N" when more runs cite it.
func (s *Logs) citation(p string) string {
	runs := s.citedBy[p]
	if len(runs) == 0 {
		return ""
	}
	c := fmt.Sprintf("%s #%d", common.Flat(runs[0].Recipe), runs[0].Seq)
	if len(runs) > 1 {
		c += fmt.Sprintf(" +%d", len(runs)-1)
	}
	return c
}

// listLines draws the list column, exactly w wide and the screen's height;
// it is drawn again only when the selection, scroll or size changed.
func (s *Logs) listLines(w int) []string {
	key := [4]int{w, s.height, s.list.Cursor, s.list.Offset}
	if s.listCache != nil && key == s.listKey {
		return s.listCache
	}
	s.listKey, s.listCache = key, s.drawList(w)
	return s.listCache
}

func (s *Logs) drawList(w int) []string {
	st := s.ctx.Styles
	logs := s.ctx.Packet.Logs
	lines := []string{common.FitCell(st.Subtitle.Render(fmt.Sprintf("Logs %d", len(logs))), w)}
	for i := s.list.Offset; i < len(logs) && len(lines) < s.height; i++ {
		l := logs[i]
		name := logsShortName(l.Path, w-2)
		info := []string{logsSize(l.Size)}
		if l.Exit != nil {
			info = append(info, fmt.Sprintf("exit %d", l.Exit.Code))
		}
		if c := s.citation(l.Path); c != "" {
			info = append(info, c)
		}
		detail := "  " + strings.Join(info, " · ")
		if i == s.list.Cursor {
			lines = append(lines,
				st.Selection.Render(common.FitCell("▸ "+name, w)),
				st.Selection.Render(common.FitCell(detail, w)))
			continue
		}
		nameStyle := st.Base
		if l.Exit != nil && l.Exit.Code != 0 {
			nameStyle = st.Error
		}
		lines = append(lines,
			common.FitCell("  "+nameStyle.Render(name), w),
			common.FitCell(st.Muted.Render(detail), w))
	}
	return common.PadLines(lines, w, s.height)
}

// logsRecorderName matches the recorder's log names,
// 2026-10-14T10-27-13.951Z-bash-d24a.log.
var logsRecorderName = regexp.MustCompile(`^\d{4}-\d\d-\d\dT(\d\d)-(\d\d)-(\d\d)(?:\.\d+)?Z-(.+)\.log$`)

// logsShortName fits a log's file name into w cells: a recorder's name as
// "10:27:13 bash-d24a", any other name cut at the front, where names
// usually share a prefix.
func logsShortName(p string, w int) string {
	base := common.Flat(logsBase(p))
	if m := logsRecorderName.FindStringSubmatch(base); m != nil && ansi.StringWidth(base) > w {
		base = fmt.Sprintf("%s:%s:%s %s", m[1], m[2], m[3], m[4])
	}
	if n := ansi.StringWidth(base); n > w && w > 1 {
		base = "…" + ansi.TruncateLeft(base, n-(w-1), "")
	}
	return base
}

// logsSize writes a byte count for people.
func logsSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f, suffix := float64(n)/unit, "KiB"
	for _, s := range []string{"MiB", "GiB", "TiB"} {
		if f < unit {
			break
		}
		f, suffix = f/unit, s
	}
	return fmt.Sprintf("%.1f %s", f, suffix)
}
