package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/tui/common"
)

// The status line at any width, down to 80 columns: the screen's name, then what
// was just done (a save, a copy, a reload) when there is news, else the
// keys of the screen's main actions. The news or the keys win the room:
// where the screen is ("file 2/6 · line 40/312") is cut first, so that a
// reload is announced at 80 columns as at 250.

// statusFit lays badge, left and right on one line of w cells: right whole
// if it can be, left with what remains.
func statusFit(badge, left, right string, w int) string {
	bw, rw := ansi.StringWidth(badge), ansi.StringWidth(right)
	avail := w - bw
	if avail <= 0 {
		return common.Fit(badge, w)
	}
	if rw > avail-1 {
		right = ansi.Truncate(right, max(avail-1, 0), "…")
		rw = ansi.StringWidth(right)
	}
	room := avail - rw - 1
	if room < 6 {
		left = ""
	} else if ansi.StringWidth(left) > room {
		left = cutWords(left, room)
	}
	line := badge + left
	gap := w - ansi.StringWidth(line) - rw
	return line + strings.Repeat(" ", max(gap, 0)) + right
}

// statusHints are the keys beside a badge and a screen status of those
// widths: beside the whole status when the screen's first three keys fit
// there, else beside a third of the line for it.
func (r *Workbench) statusHints(bw, lw int) string {
	s, n := r.fittedHints(r.width - bw - lw - 2)
	if n >= min(3, r.screenKeys()) {
		return s
	}
	s, _ = r.fittedHints(r.width - bw - min(lw, r.width/3) - 2)
	return s
}

func (r *Workbench) screenKeys() int {
	return min(len(r.mainKeys()), 5)
}

// fittedHints are the screen's main keys, then the global ones, as many as
// fit in w cells, and how many of the screen's keys are in: the globals go
// first, then the screen's last keys.
func (r *Workbench) fittedHints(w int) (string, int) {
	km := r.ctx.Keys
	screen := r.mainKeys()
	screen = screen[:min(len(screen), 5)]
	global := []key.Binding{km.Help, km.Walk, km.Back, km.Palette, km.Quit}
	for n := len(global); n >= 0; n-- {
		s := r.help.ShortHelpView(append(append([]key.Binding(nil), screen...), global[:n]...))
		if ansi.StringWidth(s) <= w {
			return s, len(screen)
		}
	}
	for n := len(screen) - 1; n > 0; n-- {
		s := r.help.ShortHelpView(screen[:n])
		if ansi.StringWidth(s) <= w {
			return s, n
		}
	}
	return "", 0
}

// cutWords cuts styled s to w cells at a word boundary, ending in "…"; a
// single word longer than w is cut inside.
func cutWords(s string, w int) string {
	cut := ansi.Truncate(s, w-1, "")
	plain := ansi.Strip(cut)
	if i := strings.LastIndexByte(plain, ' '); i > 0 && ansi.StringWidth(plain[:i]) > w/2 {
		cut = ansi.Truncate(cut, ansi.StringWidth(strings.TrimRight(plain[:i], " ·")), "")
	}
	return cut + "…"
}
