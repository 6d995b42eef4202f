package hidden

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// scanSlow is Scan byte by byte, without the eight-byte fast path.
func scanSlow(s string) Flags {
	var f Flags
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f {
				f.Controls++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			f.Invalid++
		case r >= 0x80 && r <= 0x9f:
			f.Controls++
		case Is(r):
			c := ClassOf(r)
			f.Hidden++
			if f.HiddenBy[c] == 0 {
				f.FirstHidden[c] = r
			}
			f.HiddenBy[c]++
		}
		i += size
	}
	return f
}

// The fast path must count exactly what the byte loop counts: every byte
// value at every position of a word, and runes straddling word boundaries.
func TestScanTextFastPathAgrees(t *testing.T) {
	base := "abcdefghijklmnopqrstuvwxyz0123456789"
	var cases []string
	for b := 0; b < 256; b++ {
		for pos := 0; pos < 17; pos++ {
			cases = append(cases, base[:pos]+string([]byte{byte(b)})+base[pos:])
		}
	}
	for _, r := range []rune{0x202E, 0x200B, 0xFEFF, 0x2062, 0xE0041, 0x85, 'é', '界', 0x1F600} {
		for pos := 0; pos < 17; pos++ {
			cases = append(cases, base[:pos]+string(r)+base[pos:])
		}
	}
	cases = append(cases, "", "\t\tx := 1", "\x1b[31mred\x1b[0m and more text here", strings.Repeat("~\x7f ", 9), "\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7")
	cases = append(cases, "\t\tx := value(0)\r\n", strings.Repeat("\tab\n", 9))
	plain := 0
	for _, c := range cases {
		want := scanSlow(c)
		if got := Scan(c); got != want {
			t.Errorf("Scan(%q) = %+v, byte by byte %+v", c, got, want)
		}
		if Plain(c) {
			plain++
			if want != (Flags{}) {
				t.Errorf("Plain(%q) passes over %+v", c, want)
			}
		}
	}
	if plain < 17*95 {
		t.Errorf("Plain passed over %d cases, fewer than the printable ones", plain)
	}
}

func FuzzScanTextFastPath(f *testing.F) {
	f.Add("plain ascii text of some length")
	f.Add("\x1b]52;c;aGk=\x07 \u202e tail")
	f.Add("\xc3\x28 invalid \xe2\x82 utf8")
	f.Fuzz(func(t *testing.T, s string) {
		want := scanSlow(s)
		if got := Scan(s); got != want {
			t.Errorf("Scan(%q) = %+v, byte by byte %+v", s, got, want)
		}
		if Plain(s) && want != (Flags{}) {
			t.Errorf("Plain(%q) passes over %+v", s, want)
		}
	})
}
