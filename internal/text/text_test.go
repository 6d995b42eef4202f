package text

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 findings"}, {1, "1 finding"}, {2, "2 findings"}, {-1, "-1 findings"}} {
		if got := Plural(c.n, "finding"); got != c.want {
			t.Errorf("Plural(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	if got := PluralOf(2, "entry", "entries"); got != "2 entries" {
		t.Errorf("PluralOf = %q", got)
	}
	if got := PluralOf(1, "entry", "entries"); got != "1 entry" {
		t.Errorf("PluralOf = %q", got)
	}
}

func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"":                 "",
		"  a\n\tb  c \r\n": "a b c",
		"one":              "one",
		"\n\n":             "",
	} {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClip(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"abcdef", 3, "abc…"},
		{"abc", 3, "abc"},
		{"ééé", 2, "éé…"}, // runes, not bytes
		{"ééé", 3, "ééé"}, // 6 bytes but 3 runes: not cut
		{"", 0, ""},
	} {
		if got := Clip(c.in, c.n); got != c.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestFit(t *testing.T) {
	for _, c := range []struct {
		in   string
		w    int
		want string
	}{
		{"abc", 5, "abc  "},
		{"abcdef", 4, "abc…"},
		{"abc", 0, ""},
		{"abc", -1, ""},
		{"世界世界", 5, "世界…"}, // wide runes count two cells
		{"abc", 3, "abc"},
	} {
		got := Fit(c.in, c.w)
		if got != c.want {
			t.Errorf("Fit(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
		if c.w > 0 && ansi.StringWidth(got) != c.w {
			t.Errorf("Fit(%q, %d) is %d cells wide", c.in, c.w, ansi.StringWidth(got))
		}
	}
	styled := Fit("\x1b[31mabcdef\x1b[0m", 4)
	if ansi.StringWidth(styled) != 4 || ansi.Strip(styled) != "abc…" {
		t.Errorf("styled Fit = %q", styled)
	}
	if styled[len(styled)-len(ansi.ResetStyle):] != ansi.ResetStyle {
		t.Errorf("a styled cut must end in a reset: %q", styled)
	}
}

func TestThousandsAndBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1999: "1,999", -1234567: "-1,234,567"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
	for n, want := range map[int64]string{0: "0 bytes", 9999: "9,999 bytes", 64 << 10: "64 KiB", 200_000_000: "190.7 MiB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestWrapKeepsFlagsWhole(t *testing.T) {
	got := Wrap("After this diff its sole occupant is --model-express-url, which has no replacement", 40)
	for _, l := range got {
		if ansi.StringWidth(l) > 40 {
			t.Errorf("line %q is wider than 40", l)
		}
		if strings.HasSuffix(l, "-") || strings.HasPrefix(l, "-model") {
			t.Errorf("line %q splits a flag", l)
		}
	}
	if !strings.Contains(strings.Join(got, "\n"), "--model-express-url,") {
		t.Errorf("Wrap = %q: the flag is not whole on one line", got)
	}
}

func TestWrapCutsAWordWiderThanTheLine(t *testing.T) {
	got := Wrap("see aaaaaaaaaaaaaaaaaaaa end", 10)
	want := []string{"see", "aaaaaaaaa…", "end"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("Wrap = %q, want %q", got, want)
	}
	whole := WrapWhole("run /a/very/long/path/to/a/binary --flag", 12)
	if strings.Join(whole, "") != "run/a/very/long/path/to/a/binary--flag" {
		t.Fatalf("WrapWhole lost text: %q", whole)
	}
	for _, l := range whole {
		if ansi.StringWidth(l) > 12 {
			t.Errorf("WrapWhole line %q is wider than 12", l)
		}
	}
}

func TestWrapStyled(t *testing.T) {
	s := "\x1b[1mbold words\x1b[0m and --a-flag-name"
	for _, l := range Wrap(s, 12) {
		if ansi.StringWidth(l) > 12 {
			t.Errorf("line %q is wider than 12", l)
		}
	}
}

func TestWrapKeepsIndentation(t *testing.T) {
	if got := Wrap("    indented code", 40); len(got) != 1 || got[0] != "    indented code" {
		t.Fatalf("Wrap = %q, want the indentation kept", got)
	}
}

func TestOrDash(t *testing.T) {
	for in, want := range map[string]string{"": "-", " ": " ", "abc": "abc", "-": "-"} {
		if got := OrDash(in); got != want {
			t.Errorf("OrDash(%q) = %q, want %q", in, got, want)
		}
	}
}
