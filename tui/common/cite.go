package common

import (
	"fmt"
	"path"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/ui"
)

// This file holds what the documents and findings screens share: saying
// where a citation leads, following it, and fitting drawn cells to a width.

// WhereCited says, for people, where a citation resolves: "diff
// internal/upload/client.go:97 (hunk 3)", "log …d24a.log:36", "registry
// line 5", "document change.md:41-43", "outside the packet" or
// "unresolved: <note>". The result holds packet text: draw it through ui.
func WhereCited(c packet.Citation) string {
	if !c.Resolved || c.Kind == packet.CiteUnresolved {
		note := c.Note
		if note == "" {
			note = "not found"
		}
		return "unresolved: " + note
	}
	span := CiteSpan(c.Line, c.EndLine)
	switch c.Kind {
	case packet.CiteDiff:
		return fmt.Sprintf("diff %s:%d (hunk %d)", c.Target, c.Line, c.DiffHunk+1)
	case packet.CiteDiffFile:
		if c.Line > 0 {
			return fmt.Sprintf("diff %s (line %s is outside the hunks)", c.Target, span)
		}
		return "diff " + c.Target
	case packet.CiteLog:
		if span != "" {
			return "log " + ShortLogName(c.Target) + ":" + span
		}
		return "log " + ShortLogName(c.Target)
	case packet.CiteRegistry:
		switch {
		case c.EndLine > c.Line:
			return "registry lines " + span
		case c.Line > 0:
			return "registry line " + span
		}
		return "registry"
	case packet.CitePacket:
		if span != "" {
			return "document " + c.Target + ":" + span
		}
		return "document " + c.Target
	case packet.CiteExternal:
		return "outside the packet"
	}
	return string(c.Kind)
}

// CiteSpan writes a line range as "41-43", "41" or "" for none.
func CiteSpan(line, end int) string {
	switch {
	case line <= 0:
		return ""
	case end > line:
		return fmt.Sprintf("%d-%d", line, end)
	}
	return fmt.Sprint(line)
}

// ShortLogName keeps what tells logs apart: recorder names end in a short
// random tag ("…-bash-d24a.log"), and the timestamp before it is noise in a
// narrow column.
func ShortLogName(p string) string {
	base := path.Base(p)
	if len(base) <= 20 {
		return base
	}
	if i := strings.LastIndexByte(base, '-'); i >= 0 && len(base)-i <= 16 {
		return "…" + base[i+1:]
	}
	return "…" + base[len(base)-16:]
}

// CiteFollowable reports whether enter on a citation can lead somewhere.
func CiteFollowable(c packet.Citation) bool {
	if !c.Resolved {
		return false
	}
	_, ok := TargetForCitation(c)
	return ok
}

// FollowCitation returns the command that goes where c leads, or a status
// message saying why it leads nowhere. A citation of change.diff itself is
// sent to the diff screen, since the documents screen does not show it.
func FollowCitation(p *packet.Packet, c packet.Citation) tea.Cmd {
	if !c.Resolved || c.Kind == packet.CiteUnresolved {
		return Status("unresolved: " + ui.Sanitize(c.Text) + ": " + ui.Sanitize(c.Note))
	}
	if c.Kind == packet.CiteExternal {
		return Status(ui.Sanitize(c.Target) + " is outside the packet")
	}
	if c.Kind == packet.CitePacket && c.Target == packet.DiffPath {
		return Follow(DiffTargetForLine(p.Diff, c.Line))
	}
	t, ok := TargetForCitation(c)
	if !ok {
		return Status(ui.Sanitize(c.Text) + " leads nowhere vetter can show")
	}
	return Follow(t)
}

// DiffTargetForLine turns a line of change.diff into the diff screen's
// file, hunk and line, counting one diff line per hunk line after the @@
// header (a "\ No newline" marker can shift it by one, which is close enough
// to land on the right place).
func DiffTargetForLine(d *packet.Diff, line int) Target {
	t := Target{Screen: ScreenDiff, File: -1, Hunk: -1, DiffLine: -1}
	if d == nil || line <= 0 {
		return t
	}
	for fi, f := range d.Files {
		if f.Line > line {
			break
		}
		t.File, t.Hunk, t.DiffLine, t.Path = fi, -1, -1, f.Path()
		for hi, h := range f.Hunks {
			if h.Line > line {
				break
			}
			t.Hunk, t.DiffLine = hi, -1
			if k := line - h.Line - 1; k >= 0 && k < len(h.Lines) {
				t.DiffLine = k
			}
		}
	}
	return t
}

// FitDrawn cuts or pads a drawn (possibly styled) string to exactly w cells.
func FitDrawn(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if strings.ContainsAny(s, "\n\t") {
		s = strings.NewReplacer("\n", " ", "\t", " ").Replace(s)
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		if strings.Contains(s, "\x1b") {
			s += ansi.ResetStyle
		}
		sw = ansi.StringWidth(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// FitPlain fits unstyled text to exactly w cells, measuring plain ASCII
// by its length: a list frame fits hundreds of cells and the grapheme
// walk is the costly part.
func FitPlain(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if IsPlainASCII(s) {
		if len(s) > w {
			return s[:w-1] + "…"
		}
		return s + strings.Repeat(" ", w-len(s))
	}
	return FitDrawn(s, w)
}

func IsPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// PadRows makes a block of rows that are already w cells wide exactly h
// rows high, without measuring them again.
func PadRows(rows []string, w, h int) []string {
	if len(rows) > h {
		return rows[:h]
	}
	blank := strings.Repeat(" ", max(w, 0))
	for len(rows) < h {
		rows = append(rows, blank)
	}
	return rows
}

// CellPaint is a style split into what goes before and after the text, so
// drawing a cell is two concatenations instead of a lipgloss Render, which
// costs microseconds a call.
type CellPaint struct{ pre, post string }

func NewCellPaint(s lipgloss.Style) CellPaint {
	const mark = "\uE000"
	out := s.Render(mark)
	i := strings.Index(out, mark)
	if i < 0 {
		return CellPaint{}
	}
	return CellPaint{pre: out[:i], post: out[i+len(mark):]}
}

// On paints text, which must already be sanitised.
func (p CellPaint) On(text string) string {
	if text == "" || (p.pre == "" && p.post == "") {
		return text
	}
	return p.pre + text + p.post
}

// FitRows makes a block exactly w×h cells: lines cut or padded, rows
// dropped or added.
func FitRows(lines []string, w, h int) []string {
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = FitDrawn(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", max(w, 0))
		}
	}
	return out
}

// Beside joins two blocks of h rows with a one-cell separator.
func Beside(left, right []string, sep string) []string {
	out := make([]string, len(left))
	for i := range left {
		r := ""
		if i < len(right) {
			r = right[i]
		}
		out[i] = left[i] + sep + r
	}
	return out
}

// firstLine is the first non-blank line of s, trimmed.
func FirstTextLine(s string) string {
	for l := range strings.SplitSeq(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// SGROf is the sequence a style opens with ("" for a plain style).
func SGROf(s lipgloss.Style) string {
	r := s.Inline(true).Render("x")
	if i := strings.IndexByte(r, 'x'); i > 0 {
		return r[:i]
	}
	return ""
}
