package packet

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// One character of every hidden class, and its neighbours just outside the
// table, so a range off by one fails.
func TestHiddenClassOf(t *testing.T) {
	for r, want := range map[rune]HiddenClass{
		0x061C: HiddenBidi, 0x200E: HiddenBidi, 0x202E: HiddenBidi, 0x2066: HiddenBidi, 0x2069: HiddenBidi,
		0x200B: HiddenZeroWidth, 0x200D: HiddenZeroWidth, 0x2060: HiddenZeroWidth, 0xFEFF: HiddenZeroWidth,
		0x2061: HiddenInvisibleOperator, 0x2064: HiddenInvisibleOperator,
		0xE0000: HiddenTag, 0xE0041: HiddenTag, 0xE007F: HiddenTag,
		'a': NotHidden, 0x061B: NotHidden, 0x200A: NotHidden, 0x2010: NotHidden, 0x2065: NotHidden,
		0x206A: NotHidden, 0xFE0F: NotHidden, 0xFEFE: NotHidden, 0xFF00: NotHidden,
		0xDFFFF: NotHidden, 0xE0080: NotHidden, 0x1F600: NotHidden, 0x10FFFF: NotHidden,
	} {
		if got := HiddenClassOf(r); got != want {
			t.Errorf("HiddenClassOf(%U) = %v, want %v", r, got, want)
		}
		if IsHidden(r) != (want != NotHidden) {
			t.Errorf("IsHidden(%U) = %v", r, IsHidden(r))
		}
	}
	// The table is in order and its ranges do not overlap: HiddenClassOf
	// stops at the first range past r.
	for i := 1; i < len(hiddenTable); i++ {
		if hiddenTable[i].lo <= hiddenTable[i-1].hi {
			t.Errorf("hiddenTable[%d] %U starts before the end of the one before", i, hiddenTable[i].lo)
		}
	}
	if got := HiddenTag.Ranges(); got != "U+E0000–U+E007F" {
		t.Errorf("HiddenTag.Ranges() = %q", got)
	}
}

func TestEscapeHidden(t *testing.T) {
	for in, want := range map[string]string{
		"":                         "",
		"plain":                    "plain",
		"é世😀\uFE0F":                "é世😀\uFE0F",
		"a\u202Eb":                 "a<U+202E>b",
		"\u061C\u200B\u2062":       "<U+061C><U+200B><U+2062>",
		"tag \U000E0041\U000E007F": "tag <U+E0041><U+E007F>",
		"bad \xff\u2060":           "bad \xff<U+2060>",
	} {
		if got := EscapeHidden(in); got != want {
			t.Errorf("EscapeHidden(%q) = %q, want %q", in, got, want)
		}
	}
}

// A surrogate pair decodes back to the character; a BMP escape is what
// encoding/json would write.
func TestAppendJSONEscape(t *testing.T) {
	for r, want := range map[rune]string{0xE0041: `\udb40\udc41`, 0x202E: `\u202e`, 0x85: `\u0085`, 0x7F: `\u007f`} {
		got := string(AppendJSONEscape(nil, r))
		if got != want {
			t.Errorf("AppendJSONEscape(%U) = %s, want %s", r, got, want)
		}
		var back string
		if err := json.Unmarshal([]byte(`"`+got+`"`), &back); err != nil || back != string(r) {
			t.Errorf("%s decodes to %q (%v), want %q", got, back, err, string(r))
		}
	}
}

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
		if !utf8.ValidString(pr.Message) || EscapeHidden(pr.Message) != pr.Message {
			t.Errorf("the message itself carries hidden text: %q", pr.Message)
		}
	}
	if seen != len(want) {
		t.Errorf("%d hidden-characters problems, want one per class (%d): %v", seen, len(want), p.Problems)
	}
}

func BenchmarkHiddenClassOf(b *testing.B) {
	s := []rune(strings.Repeat("plain ascii é 世界 😀 \u202E\U000E0041", 64))
	b.ResetTimer()
	for range b.N {
		n := 0
		for i := range s {
			if IsHidden(s[i]) {
				n++
			}
		}
		if n == 0 {
			b.Fatal("none found")
		}
	}
}
