package diff

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/tui/common"
)

// diffSGR holds the escape sequences of the +/- backgrounds and of the
// changed words, and the small pieces every row draws, taken once from the
// styles: lipgloss's Render is too slow to call a few times per row.
type diffSGR struct {
	addBg, remBg, addEm, remEm string

	gutter, gutterCur, highlight  paint // line numbers
	markCursor, markHL, markMatch string
	signAdd, signRem              string
	divider                       string
}

// paint is the escape sequence that opens a style.
type paint string

// on draws s in the style.
func (p paint) on(s string) string {
	if p == "" {
		return s
	}
	return string(p) + s + ansi.ResetStyle
}

// sgr returns the screen's escape sequences, built on first use.
func (d *Diff) sgr() *diffSGR {
	if d.sgrs != nil {
		return d.sgrs
	}
	st := d.ctx.Styles
	s := &diffSGR{
		addEm: common.SGROf(st.AddedEmphasis), remEm: common.SGROf(st.RemovedEmphasis),
		gutter: paint(common.SGROf(st.Gutter)), gutterCur: paint(common.SGROf(st.GutterCursor)), highlight: paint(common.SGROf(st.Highlight)),
		markCursor: st.Cursor.Render("▸"), markHL: st.Highlight.Render("┃"), markMatch: st.Match.Render("•"),
		signAdd: st.Added.Render("+"), signRem: st.Removed.Render("-"),
		divider: st.Muted.Render("│"),
	}
	if !st.NoColor {
		if c := st.Palette.AddedBg; c != nil {
			s.addBg = ansi.Style{}.BackgroundColor(c).String()
		}
		if c := st.Palette.RemovedBg; c != nil {
			s.remBg = ansi.Style{}.BackgroundColor(c).String()
		}
	}
	d.sgrs = s
	return s
}

// emphasis returns the changed cells of line k against its partner line,
// computing the pair once and caching both sides. Only drawn lines get
// here, so a 200,000-line diff costs no more than a small one.
func (d *Diff) emphasis(k lineKey, partner int32, removed bool) []span {
	if sp, ok := d.emph[k]; ok {
		return sp
	}
	pk := lineKey{k.file, k.hunk, partner}
	a, b := d.plainText(k).text, d.plainText(pk).text
	if !removed {
		a, b = b, a
	}
	sa, sb := common.IntraLine(d.dmp, a, b)
	if d.emph == nil || len(d.emph) > 8192 {
		d.emph = make(map[lineKey][]span)
	}
	if removed {
		d.emph[k], d.emph[pk] = sa, sb
		return sa
	}
	d.emph[k], d.emph[pk] = sb, sa
	return sb
}

// overlay puts a highlighted line on the line's background and draws the
// cells in spans with the emphasis style instead of the syntax colours.
// Every reset in the highlighted text re-opens the background, and leaving
// an emphasised run restores the syntax colour in force there.
func overlay(styled string, spans []span, bg, em string) string {
	var (
		b     strings.Builder
		syn   strings.Builder // the syntax SGRs since the last reset
		state byte
		col   int
		si    int
		inEm  bool
	)
	b.Grow(len(styled) + 32)
	b.WriteString(bg)
	for s := styled; len(s) > 0; {
		seq, w, n, st := ansi.DecodeSequence(s, state, nil)
		state = st
		s = s[n:]
		if w == 0 {
			if strings.HasPrefix(seq, "\x1b[") && strings.HasSuffix(seq, "m") {
				if seq == "\x1b[m" || seq == "\x1b[0m" {
					syn.Reset()
					if !inEm {
						b.WriteString(ansi.ResetStyle)
						b.WriteString(bg)
					}
				} else {
					syn.WriteString(seq)
					if !inEm {
						b.WriteString(seq)
					}
				}
				continue
			}
			b.WriteString(seq)
			continue
		}
		for si < len(spans) && spans[si].To <= col {
			si++
		}
		want := si < len(spans) && col >= spans[si].From
		switch {
		case want && !inEm:
			b.WriteString(ansi.ResetStyle)
			b.WriteString(em)
			inEm = true
		case !want && inEm:
			b.WriteString(ansi.ResetStyle)
			b.WriteString(bg)
			b.WriteString(syn.String())
			inEm = false
		}
		b.WriteString(seq)
		col += w
	}
	if inEm {
		b.WriteString(ansi.ResetStyle)
		b.WriteString(bg)
	}
	return b.String()
}
