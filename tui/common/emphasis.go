package common

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// This file holds what the diff and the since screen share: which words of
// a changed line changed.

// Span is a run of cells [From, To) of a drawn line.
type Span struct{ From, To int }

// MaxEmphasisBytes is the longest line worth an intra-line diff.
const MaxEmphasisBytes = 1000

// IntraLine diffs a removed line against its added partner word by word and
// returns the changed cells of each. Lines sharing less than half their
// text (white space aside) get no emphasis: marking most words says nothing.
func IntraLine(dmp *diffmatchpatch.DiffMatchPatch, a, b string) (sa, sb []Span) {
	if a == b || len(a) > MaxEmphasisBytes || len(b) > MaxEmphasisBytes {
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
	add := func(sp []Span, from, to int) []Span {
		if n := len(sp); n > 0 && sp[n-1].To == from {
			sp[n-1].To = to
			return sp
		}
		return append(sp, Span{from, to})
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
