package text

import (
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
