package packet

import "testing"

// HunkAt and LineAt answer nil for any index out of range, never panic:
// indices come from citations and targets that may outlive their diff.
func TestDiffHunkAtLineAt(t *testing.T) {
	d := LoadSample(Options{}).Diff
	h := d.HunkAt(0, 0)
	if h == nil || h != d.Files[0].Hunks[0] {
		t.Fatalf("HunkAt(0, 0) = %p, want the first hunk", h)
	}
	if l := d.LineAt(0, 0, 0); l != &h.Lines[0] {
		t.Errorf("LineAt(0, 0, 0) is not the first line of the first hunk")
	}
	for _, at := range [][3]int{{-1, 0, 0}, {len(d.Files), 0, 0}, {0, -1, 0}, {0, len(d.Files[0].Hunks), 0}, {0, 0, -1}, {0, 0, len(h.Lines)}} {
		if l := d.LineAt(at[0], at[1], at[2]); l != nil {
			t.Errorf("LineAt%v = %+v, want nil", at, *l)
		}
	}
	var none *Diff
	if none.HunkAt(0, 0) != nil || none.LineAt(0, 0, 0) != nil {
		t.Error("a packet without a diff has a hunk")
	}
}
