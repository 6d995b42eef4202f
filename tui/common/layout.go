// Layout helpers every screen uses to fit text to cells.

package common

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/ui"
)

// ClipTo cuts styled s to fewer than w cells, ending in "…"; nothing fits
// in one cell.
func ClipTo(s string, w int) string {
	if w <= 1 {
		return ""
	}
	return ansi.Truncate(s, w, "…")
}

// OneLine folds white space into single spaces (text.OneLine).
func OneLine(s string) string { return text.OneLine(s) }

// PadBetween puts left and right on one line of width w.
func PadBetween(left, right string, w int) string {
	lw, rw := ansi.StringWidth(left), ansi.StringWidth(right)
	if lw+rw+1 > w {
		right = ""
		rw = 0
	}
	if lw > w {
		return ansi.Truncate(left, w, "…")
	}
	return left + strings.Repeat(" ", w-lw-rw) + right
}

// FitBlock pads or cuts a block to exactly w×h cells.
func FitBlock(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	out := make([]string, h)
	for i := range out {
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		out[i] = Fit(l, w)
	}
	return strings.Join(out, "\n")
}

// Fit truncates or pads styled s to exactly w cells (text.Fit).
func Fit(s string, w int) string { return text.Fit(s, w) }

// Plural counts a word: "1 finding", "3 findings" (text.Plural).
func Plural(n int, word string) string { return text.Plural(n, word) }

// PadLine is lines[i] or a blank row of width w.
func PadLine(lines []string, i, w int) string {
	if i < len(lines) {
		return FitCell(lines[i], w)
	}
	return strings.Repeat(" ", w)
}

// FitCell cuts a (possibly styled) line to w cells with an ellipsis and pads
// it with spaces to exactly w.
func FitCell(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) > w {
		s = ansi.Truncate(s, w, "…")
	}
	if n := ansi.StringWidth(s); n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// PadLines makes exactly h lines of exactly w cells.
func PadLines(lines []string, w, h int) []string {
	out := make([]string, h)
	for i := range out {
		out[i] = PadLine(lines, i, w)
	}
	return out
}

// Flat sanitises packet text for a one-line cell: newlines shown as ␤
// and tabs as spaces, so a cell never breaks the table.
func Flat(s string) string {
	s = ui.Sanitize(s)
	if strings.ContainsAny(s, "\n\t") {
		s = strings.NewReplacer("\r\n", "␤", "\n", "␤", "\t", " ").Replace(s)
	}
	return s
}

// Wide is the width from which the detail pane sits beside the table.
const Wide = 100

// OrDash is s, or a dash where there is nothing to show.
func OrDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
