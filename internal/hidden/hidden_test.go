package hidden

import (
	"encoding/json"
	"strings"
	"testing"
)

// One character of every hidden class, and its neighbours just outside the
// table, so a range off by one fails.
func TestHiddenClassOf(t *testing.T) {
	for r, want := range map[rune]Class{
		0x061C: Bidi, 0x200E: Bidi, 0x202E: Bidi, 0x2066: Bidi, 0x2069: Bidi,
		0x200B: ZeroWidth, 0x200D: ZeroWidth, 0x2060: ZeroWidth, 0xFEFF: ZeroWidth,
		0x2061: InvisibleOperator, 0x2064: InvisibleOperator,
		0xE0000: Tag, 0xE0041: Tag, 0xE007F: Tag,
		'a': None, 0x061B: None, 0x200A: None, 0x2010: None, 0x2065: None,
		0x206A: None, 0xFE0F: None, 0xFEFE: None, 0xFF00: None,
		0xDFFFF: None, 0xE0080: None, 0x1F600: None, 0x10FFFF: None,
	} {
		if got := ClassOf(r); got != want {
			t.Errorf("ClassOf(%U) = %v, want %v", r, got, want)
		}
		if Is(r) != (want != None) {
			t.Errorf("Is(%U) = %v", r, Is(r))
		}
	}
	// The table is in order and its ranges do not overlap: ClassOf
	// stops at the first range past r.
	for i := 1; i < len(table); i++ {
		if table[i].lo <= table[i-1].hi {
			t.Errorf("table[%d] %U starts before the end of the one before", i, table[i].lo)
		}
	}
	if got := Tag.Ranges(); got != "U+E0000–U+E007F" {
		t.Errorf("Tag.Ranges() = %q", got)
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
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
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

func BenchmarkHiddenClassOf(b *testing.B) {
	s := []rune(strings.Repeat("plain ascii é 世界 😀 \u202E\U000E0041", 64))
	b.ResetTimer()
	for range b.N {
		n := 0
		for i := range s {
			if Is(s[i]) {
				n++
			}
		}
		if n == 0 {
			b.Fatal("none found")
		}
	}
}
