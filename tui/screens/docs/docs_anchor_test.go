package docs

import "testing"

// Source lines and rendered rows map onto each other exactly at a heading
// and in proportion between headings, in both directions.
func TestDocsAnchorMapping(t *testing.T) {
	r := &docsRender{lines: make([]string, 40), anchors: []docsAnchor{{2, 4}, {10, 20}}}
	const srcLen = 20
	for _, c := range []struct{ src, row int }{
		{0, 0}, {1, 2}, {2, 4}, {6, 12}, {10, 20}, {15, 30}, {20, 40},
	} {
		if got := r.srcToRow(c.src, srcLen); got != c.row {
			t.Errorf("srcToRow(%d) = %d, want %d", c.src, got, c.row)
		}
		if got := r.rowToSrc(c.row, srcLen); got != c.src {
			t.Errorf("rowToSrc(%d) = %d, want %d", c.row, got, c.src)
		}
	}
}
