// Layout helpers every screen uses to fit text to cells.

package common

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

func ClipTo(s string, w int) string {
	if w <= 1 {
		return ""
	}
	return ansi.Truncate(s, w, "…")
}

func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

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

// Fit truncates or pads styled s to exactly w cells.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		sw = ansi.StringWidth(s)
	}
	if strings.IndexByte(s, 0x1b) >= 0 {
		s += ansi.ResetStyle
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
