package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Overstrike returns what a terminal would show of line after its carriage
// returns: each \r sends the cursor back to column 0 and the text after it
// overwrites the cells before (a progress bar redrawing itself). Colours
// (SGR) stay with the cells they were written to and are restated in the
// result; erase-in-line (ESC [ K) and cursor-column moves (ESC [ n G/C/D) are
// applied; any other sequence is kept at its column so TranslateSGR shows it.
// overwritten says whether anything written was overwritten or erased. A
// line without \r is returned unchanged. The result is still untrusted text:
// pass it to TranslateSGR or Sanitize.
func Overstrike(line string) (shown string, overwritten bool) {
	if !strings.Contains(line, "\r") {
		return line, false
	}
	if strings.Contains(line, "\n") {
		var b strings.Builder
		for i, l := range strings.Split(line, "\n") {
			if i > 0 {
				b.WriteByte('\n')
			}
			s, o := Overstrike(l)
			b.WriteString(s)
			overwritten = overwritten || o
		}
		return b.String(), overwritten
	}
	var sc screenLine
	parts := strings.Split(line, "\r")
	for pi, part := range parts {
		if sc.work > maxOverstrikeWork && pi < len(parts)-1 {
			// A hostile line could make the simulation quadratic; skip to
			// the last part, which is what ends up on top anyway.
			continue
		}
		sc.col = 0
		sc.part = pi
		sc.write(part)
	}
	return sc.String(), sc.overwritten
}

// maxOverstrikeWork bounds the cell updates one line may cost.
const maxOverstrikeWork = 1 << 22

// maxColumn bounds where a cursor move may put the cursor.
const maxColumn = 4096

// maxCellExtra bounds the text a cell collects from zero-width graphemes
// and overwritten sequences.
const maxCellExtra = 256

// cell is one column of the simulated line.
type cell struct {
	text  string // a grapheme; "" for the second half of a wide one
	pre   string // sequences written at this column, kept to be shown
	width int    // columns text takes; 0 for a continuation
	attr  Attr
	part  int // which \r-separated part wrote it; -1 for padding
}

// screenLine is a one-line terminal just capable enough for progress output.
type screenLine struct {
	cells       []cell
	col         int
	part        int
	attr        Attr
	pending     strings.Builder // sequences waiting for the next grapheme
	overwritten bool
	work        int // cell updates so far, against maxOverstrikeWork
}

func (sc *screenLine) write(s string) {
	for len(s) > 0 {
		t, n := nextToken(s)
		s = s[n:]
		switch {
		case t.sgr:
			sc.attr = applySGR(sc.attr, t.raw[2:len(t.raw)-1])
		case t.kind == tokSeq && sc.cursorSeq(t.raw):
		case t.kind == tokText:
			sc.text(t.raw)
		default:
			sc.pending.WriteString(t.raw)
		}
	}
}

// text writes printable text grapheme by grapheme.
func (sc *screenLine) text(s string) {
	var state byte
	for len(s) > 0 {
		if s[0] == '\t' {
			sc.col += 4 - sc.col%4
			s = s[1:]
			continue
		}
		g, w, n, st := ansi.DecodeSequence(s, state, nil)
		state = st
		s = s[n:]
		if w == 0 {
			// A zero-width grapheme joins the cell before it.
			if sc.col > 0 && sc.col <= len(sc.cells) {
				if h := sc.head(sc.col - 1); len(sc.cells[h].text) < maxCellExtra {
					sc.cells[h].text += g
				}
			} else {
				sc.pending.WriteString(g)
			}
			continue
		}
		sc.put(g, w)
	}
}

// put writes grapheme g of width w at the cursor and advances it.
func (sc *screenLine) put(g string, w int) {
	for len(sc.cells) < sc.col+w {
		sc.cells = append(sc.cells, cell{text: " ", width: 1, part: -1})
		sc.work++
	}
	for k := sc.col; k < sc.col+w; k++ {
		sc.split(k)
		if c := sc.cells[k]; c.part >= 0 && c.part < sc.part {
			sc.overwritten = true
		}
	}
	pre := sc.pending.String()
	sc.pending.Reset()
	if old := sc.cells[sc.col].pre; old != "" && len(old) < maxCellExtra {
		pre = old + pre
	}
	sc.work += w
	sc.cells[sc.col] = cell{text: g, pre: pre, width: w, attr: sc.attr, part: sc.part}
	for k := sc.col + 1; k < sc.col+w; k++ {
		sc.cells[k] = cell{attr: sc.attr, part: sc.part, pre: sc.cells[k].pre}
	}
	sc.col += w
}

// head returns the column where the grapheme covering column k starts.
func (sc *screenLine) head(k int) int {
	for k > 0 && sc.cells[k].width == 0 {
		k--
	}
	return k
}

// split replaces a wide grapheme that covers column k by spaces, as a
// terminal does when half of it is overwritten.
func (sc *screenLine) split(k int) {
	h := sc.head(k)
	c := sc.cells[h]
	if c.width <= 1 {
		return
	}
	for j := h; j < h+c.width && j < len(sc.cells); j++ {
		sc.cells[j] = cell{text: " ", width: 1, attr: c.attr, part: c.part, pre: sc.cells[j].pre}
	}
}

// cursorSeq applies erase-in-line and horizontal cursor moves, reporting
// whether raw was one of them.
func (sc *screenLine) cursorSeq(raw string) bool {
	if len(raw) < 3 || raw[0] != 0x1b || raw[1] != '[' {
		return false
	}
	final := raw[len(raw)-1]
	p := raw[2 : len(raw)-1]
	if p != "" && strings.Trim(p, "0123456789") != "" {
		return false
	}
	n, _ := strconv.Atoi(p)
	if len(p) > 6 {
		n = 1 << 20
	}
	switch final {
	case 'K':
		sc.erase(n)
	case 'G':
		sc.col = max(n, 1) - 1
	case 'C':
		sc.col += max(n, 1)
	case 'D':
		sc.col = max(sc.col-max(n, 1), 0)
	default:
		return false
	}
	// Bound the cursor so a hostile count cannot make the line huge.
	sc.col = min(sc.col, maxColumn)
	return true
}

// erase clears to the end of the line (0), to the start (1) or all of it (2).
func (sc *screenLine) erase(mode int) {
	from, to := sc.col, len(sc.cells)
	switch mode {
	case 1:
		from, to = 0, min(sc.col+1, len(sc.cells))
	case 2:
		from = 0
	}
	if from >= to {
		return
	}
	sc.split(from)
	if to < len(sc.cells) && sc.cells[to].width == 0 {
		sc.split(to)
	}
	sc.work += to - from
	for k := from; k < to; k++ {
		if sc.cells[k].part >= 0 {
			sc.overwritten = true
		}
	}
	if to == len(sc.cells) {
		sc.cells = sc.cells[:from]
		return
	}
	for k := from; k < to; k++ {
		sc.cells[k] = cell{text: " ", width: 1, part: -1}
	}
}

// String renders the cells, restating the SGR state wherever it changes.
func (sc *screenLine) String() string {
	var (
		b   strings.Builder
		cur Attr
	)
	for _, c := range sc.cells {
		if c.width == 0 && c.text == "" && c.pre == "" {
			continue
		}
		if c.attr != cur {
			encodeSGR(&b, c.attr)
			cur = c.attr
		}
		b.WriteString(c.pre)
		b.WriteString(c.text)
	}
	b.WriteString(sc.pending.String())
	if cur != (Attr{}) {
		b.WriteString("\x1b[0m")
	}
	return b.String()
}
