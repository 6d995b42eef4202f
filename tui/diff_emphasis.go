package tui

import (
	"strings"
	"unicode"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/sergi/go-diff/diffmatchpatch"
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
		addEm: sgrOf(st.AddedEmphasis), remEm: sgrOf(st.RemovedEmphasis),
		gutter: paint(sgrOf(st.Gutter)), gutterCur: paint(sgrOf(st.GutterCursor)), highlight: paint(sgrOf(st.Highlight)),
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

// sgrOf is the sequence a style opens with ("" for a plain style).
func sgrOf(s lipgloss.Style) string {
	r := s.Inline(true).Render("x")
	if i := strings.IndexByte(r, 'x'); i > 0 {
		return r[:i]
	}
	return ""
}

// maxEmphasisBytes is the longest line worth an intra-line diff.
const maxEmphasisBytes = 1000

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
	sa, sb := intraLine(d.dmp, a, b)
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

// intraLine diffs a removed line against its added partner word by word and
// returns the changed cells of each. Lines sharing less than half their
// text (white space aside) get no emphasis: marking most words says nothing.
func intraLine(dmp *diffmatchpatch.DiffMatchPatch, a, b string) (sa, sb []span) {
	if a == b || len(a) > maxEmphasisBytes || len(b) > maxEmphasisBytes {
		return nil, nil
	}
	ta, tb := tokens(a), tokens(b)
	ids := map[string]rune{}
	var vocab []string
	encode := func(toks []string) []rune {
		rs := make([]rune, len(toks))
		for i, t := range toks {
			id, ok := ids[t]
			if !ok {
				id = rune(0xE000 + len(vocab)) // private use: never in the lines themselves
				ids[t] = id
				vocab = append(vocab, t)
			}
			rs[i] = id
		}
		return rs
	}
	ra, rb := encode(ta), encode(tb)
	// Widths without white space, so shared indentation does not make two
	// unrelated lines look alike.
	colA, colB, common, inkA, inkB := 0, 0, 0, 0, 0
	add := func(sp []span, from, to int) []span {
		if n := len(sp); n > 0 && sp[n-1].to == from {
			sp[n-1].to = to
			return sp
		}
		return append(sp, span{from, to})
	}
	for _, df := range dmp.DiffMainRunes(ra, rb, false) {
		for _, id := range df.Text {
			tok := vocab[id-0xE000]
			w := ansi.StringWidth(tok)
			ink := w
			if strings.TrimSpace(tok) == "" {
				ink = 0
			}
			switch df.Type {
			case diffmatchpatch.DiffEqual:
				colA += w
				colB += w
				common += ink
				inkA += ink
				inkB += ink
			case diffmatchpatch.DiffDelete:
				sa = add(sa, colA, colA+w)
				colA += w
				inkA += ink
			case diffmatchpatch.DiffInsert:
				sb = add(sb, colB, colB+w)
				colB += w
				inkB += ink
			}
		}
	}
	if common == 0 || common*2 < max(inkA, inkB) {
		return nil, nil
	}
	return sa, sb
}

// tokens splits s into words (letters, digits, underscores), runs of space,
// and single other characters.
func tokens(s string) []string {
	var out []string
	start, prev := 0, -1
	class := func(r rune) int {
		switch {
		case r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			return 0
		case unicode.IsSpace(r):
			return 1
		}
		return 2
	}
	for i, r := range s {
		c := class(r)
		if i > start && (c != prev || c == 2) {
			out = append(out, s[start:i])
			start = i
		}
		prev = c
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
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
		for si < len(spans) && spans[si].to <= col {
			si++
		}
		want := si < len(spans) && col >= spans[si].from
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
