package common

import (
	"slices"
	"strings"
	"testing"

	"github.com/sergi/go-diff/diffmatchpatch"
)

func TestIntraLine(t *testing.T) {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	for _, tc := range []struct {
		a, b   string
		sa, sb []Span
	}{
		{"old := compute(1, 1)", "new := compute(1, 2) + offset",
			[]Span{{0, 3}, {18, 19}}, []Span{{0, 3}, {18, 19}, {20, 29}}},
		{"same", "same", nil, nil},
		{"completely different words", "nothing alike here at all!", nil, nil},
		{"\tx = 1", "\tx = 2", []Span{{8, 9}}, []Span{{8, 9}}},
	} {
		a, b := strings.ReplaceAll(tc.a, "\t", "    "), strings.ReplaceAll(tc.b, "\t", "    ")
		sa, sb := IntraLine(dmp, a, b)
		if !slices.Equal(sa, tc.sa) || !slices.Equal(sb, tc.sb) {
			t.Errorf("intraLine(%q, %q) = %v, %v; want %v, %v", tc.a, tc.b, sa, sb, tc.sa, tc.sb)
		}
	}
}
