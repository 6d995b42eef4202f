package packet

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vetter-dev/vetter/internal/hidden"
)

// check names every class a file holds, each at its first line.
func TestScanTextReportsEveryClass(t *testing.T) {
	lines := []string{"plain", "bidi \u202E here", "zero\u200Bwidth", "f\u2061(x)", "tag \U000E0041\U000E0042", "again \u2066"}
	p := &Packet{Docs: []*Document{{Path: "change.md", Lines: lines}}}
	p.scanText(nil)
	want := map[string]int{
		"bidirectional controls": 2, "zero-width characters": 3, "invisible operators": 4, "tag characters": 5,
	}
	seen := 0
	for _, pr := range p.Problems {
		if pr.Code != CodeHiddenCharacters {
			continue
		}
		seen++
		found := false
		for name, line := range want {
			if strings.Contains(pr.Message, name) {
				found = true
				if pr.Line != line || pr.File != "change.md" {
					t.Errorf("%s reported at %s:%d, want change.md:%d", name, pr.File, pr.Line, line)
				}
			}
		}
		if !found {
			t.Errorf("a hidden-characters problem names no class: %s", pr.Message)
		}
		if strings.Contains(pr.Message, "tag") && !strings.Contains(pr.Message, "2 tag characters") ||
			strings.Contains(pr.Message, "bidirectional") && !strings.Contains(pr.Message, "first U+202E at line 2") {
			t.Errorf("count or first character wrong: %s", pr.Message)
		}
		if !utf8.ValidString(pr.Message) || hidden.Escape(pr.Message) != pr.Message {
			t.Errorf("the message itself carries hidden text: %q", pr.Message)
		}
	}
	if seen != len(want) {
		t.Errorf("%d hidden-characters problems, want one per class (%d): %v", seen, len(want), p.Problems)
	}
}
