package diff

// The diff's wrap breaks lines between words, so a word reads whole, as the other
// panes do: a row ends after the last space that fits, and only a word
// longer than the row is cut inside. Lines of printable ASCII up to
// wordWrapMax cells are broken this way (code, nearly always); others are
// cut every row's width, which keeps a line of a million characters as
// cheap to draw as its first screen.

const wordWrapMax = 4096

// wordPieces is the width of each row a line wraps into at tw cells, or
// nil when the line is cut at fixed widths.
func wordPieces(pl plainLine, tw int) []int {
	if !pl.ascii || pl.width <= tw || pl.width > wordWrapMax || tw < 8 {
		return nil
	}
	s := pl.text
	var out []int
	for start := 0; start < len(s); {
		end := start + tw
		if end >= len(s) {
			out = append(out, len(s)-start)
			break
		}
		cut := end
		if s[end] != ' ' {
			// Break after the last space of the row, unless that leaves
			// less than half a row: a long word is then cut.
			for i := end - 1; i > start+tw/2; i-- {
				if s[i] == ' ' {
					cut = i + 1
					break
				}
			}
		}
		out = append(out, cut-start)
		start = cut
	}
	return out
}

// wrappedRows is how many rows a line of plain text takes at tw cells.
func wrappedRows(pl plainLine, tw int) int {
	if p := wordPieces(pl, tw); p != nil {
		return len(p)
	}
	return max((pl.width+tw-1)/tw, 1)
}

// wordSplit cuts a styled line into the pieces wordPieces measured, at
// most limit of them; ok is false when the line is cut at fixed widths.
func wordSplit(styled string, pl plainLine, tw, limit int) (pieces []string, widths []int, ok bool) {
	ws := wordPieces(pl, tw)
	if ws == nil {
		return nil, nil, false
	}
	from := 0
	for i, w := range ws {
		if i == limit {
			break
		}
		p, pw := splitCells(styled, from, w, 1)
		pieces, widths = append(pieces, p[0]), append(widths, pw[0])
		from += w
	}
	return pieces, widths, true
}
