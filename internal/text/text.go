// Package text holds the small facts about words and widths that the
// commands and the screens share: plurals, folding to one line, and cutting
// to a width.
package text

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Plural counts a word: "1 finding", "3 findings". Words whose plural is not
// one more "s" go through PluralOf.
func Plural(n int, word string) string { return PluralOf(n, word, word+"s") }

// PluralOf counts with both forms given: "1 entry", "2 entries".
func PluralOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// OneLine folds any run of white space, newlines included, into one space
// and trims the ends, for a table cell or a one-line message.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Clip keeps the first n runes of s and marks the cut with "…" (so the
// result is at most n+1 runes); s of n runes or fewer is returned unchanged.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// Fit cuts or pads s, which may carry ANSI styles, to exactly w terminal
// cells; a cut ends in "…", and a styled cut is closed with a reset so its
// style does not run into what follows.
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

// Bytes says a byte count the way a person reads it: "1,234 bytes",
// "64 KiB", "190.7 MiB".
func Bytes(n int64) string {
	switch {
	case n < 10<<10:
		return Thousands(n) + " bytes"
	case n < 10<<20:
		return trimZero(strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64)) + " KiB"
	default:
		return trimZero(strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64)) + " MiB"
	}
}

func trimZero(s string) string {
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		return s[:len(s)-2]
	}
	return s
}

// Thousands writes n with a comma between each group of three digits.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var b []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}

// Wrap folds s, which may carry ANSI styles, into lines of at most w cells,
// breaking only at spaces: a word is never split at a hyphen or inside a
// flag ("--model-express-url" stays whole). A word wider than a whole line
// is cut to it, the cut ending in "…". Newlines in s start new lines.
func Wrap(s string, w int) []string { return wrap(s, w, true) }

// WrapWhole is Wrap for text that must be read whole (a command): a word
// wider than a line goes on over the next lines, broken after a slash when
// it has one, instead of being cut.
func WrapWhole(s string, w int) []string { return wrap(s, w, false) }

func wrap(s string, w int, cut bool) []string {
	w = max(w, 1)
	var out []string
	for _, para := range strings.Split(s, "\n") {
		// started: the line holds a word, even an empty one (the runs of
		// spaces that indent a line are kept).
		line, lineW, started := "", 0, false
		for _, word := range strings.Split(para, " ") {
			ww := ansi.StringWidth(word)
			switch {
			case started && lineW+1+ww <= w:
				line += " " + word
				lineW += 1 + ww
				continue
			case started:
				out = append(out, line)
			}
			started = true
			if ww > w && cut {
				word = ansi.Truncate(word, w, "…")
				ww = ansi.StringWidth(word)
			}
			for ww > w {
				head := ansi.Truncate(word, w, "")
				if i := strings.LastIndexByte(head, '/'); i > 0 {
					head = head[:i+1]
				}
				if head == "" {
					// A character wider than the whole line goes alone.
					head, _ = ansi.FirstGraphemeCluster(word, ansi.GraphemeWidth)
				}
				out = append(out, head)
				word = word[len(head):]
				ww = ansi.StringWidth(word)
			}
			line, lineW = word, ww
		}
		out = append(out, line)
	}
	return out
}

// OrDash is s, or "-" when s is empty: a table cell that says nothing is known.
func OrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
