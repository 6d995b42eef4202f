package ui

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// allStyles returns every lipgloss.Style in st, badges included, by name.
func allStyles(st *Styles) map[string]lipgloss.Style {
	out := map[string]lipgloss.Style{}
	var walk func(prefix string, v reflect.Value)
	walk = func(prefix string, v reflect.Value) {
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			name := prefix + v.Type().Field(i).Name
			switch s := f.Interface().(type) {
			case lipgloss.Style:
				out[name] = s
			case BadgeStyles:
				walk(name+".", f)
			}
		}
	}
	v := reflect.ValueOf(st).Elem()
	for i := 0; i < v.NumField(); i++ {
		if !v.Type().Field(i).IsExported() {
			continue
		}
		f := v.Field(i)
		name := v.Type().Field(i).Name
		switch s := f.Interface().(type) {
		case lipgloss.Style:
			out[name] = s
		case BadgeStyles:
			walk(name+".", f)
		}
	}
	return out
}

// sgrCodes returns the top-level parameters of every SGR sequence in s.
func sgrCodes(s string) []string {
	var codes []string
	for len(s) > 0 {
		tok, n := nextToken(s)
		s = s[n:]
		if tok.sgr {
			codes = append(codes, strings.Split(tok.raw[2:len(tok.raw)-1], ";")...)
		}
	}
	return codes
}

// colourCode reports whether an SGR parameter sets a colour.
var colourCode = regexp.MustCompile(`^(3[0-9]|4[0-9]|9[0-7]|10[0-7])(:.*)?$`)

func TestNoColorDrawsNoColour(t *testing.T) {
	st := NewStyles(true, true)
	for name, s := range allStyles(st) {
		out := s.Render("x")
		for _, c := range sgrCodes(out) {
			if colourCode.MatchString(c) {
				t.Errorf("%s draws colour code %s: %q", name, c, out)
			}
		}
	}
	log := st.RenderSGR(TranslateSGR("\x1b[1;31;44mred\x1b[0m \x1b[38;5;200;4mx\x1b[38;2;1;2;3my"))
	for _, c := range sgrCodes(log) {
		if colourCode.MatchString(c) {
			t.Errorf("log line draws colour code %s: %q", c, log)
		}
	}
	if !strings.Contains(log, "\x1b[1mred") || !strings.Contains(log, "\x1b[4mx") {
		t.Errorf("bold and underline should survive NO_COLOR: %q", log)
	}
	for _, v := range []any{st.Palette.Accent, st.Palette.Added, st.Palette.Blocker} {
		if v != nil {
			t.Errorf("NO_COLOR palette should be empty, has %v", v)
		}
	}
}

func TestStylesDistinguishSeverityWithoutColour(t *testing.T) {
	st := NewStyles(false, true)
	seen := map[string]string{}
	for _, w := range []string{"blocker", "major", "minor"} {
		out := st.Severity(w).Render(w)
		if out == w {
			t.Errorf("%s is drawn plain under NO_COLOR", w)
		}
		if other, ok := seen[strings.ReplaceAll(out, w, "")]; ok {
			t.Errorf("%s and %s look the same under NO_COLOR", w, other)
		}
		seen[strings.ReplaceAll(out, w, "")] = w
	}
}

func TestDarkAndLightDiffer(t *testing.T) {
	d, l := NewStyles(true, false), NewStyles(false, false)
	if d.Palette.Accent == l.Palette.Accent || d.Palette.AddedBg == l.Palette.AddedBg {
		t.Errorf("dark and light palettes share tokens")
	}
	for name, s := range allStyles(d) {
		if strings.HasPrefix(name, "Base") {
			continue
		}
		if s.Render("x") == "x" && name != "Base" {
			t.Errorf("dark style %s draws nothing", name)
		}
	}
}

func TestSeverityAndStatus(t *testing.T) {
	st := NewStyles(true, false)
	tests := []struct {
		word string
		want lipgloss.Style
	}{
		{"blocker", st.Blocker}, {" Major ", st.Major}, {"MINOR", st.Minor}, {"nit", st.Nit}, {"cosmetic", st.Muted},
	}
	for _, tt := range tests {
		if got := st.Severity(tt.word).Render("w"); got != tt.want.Render("w") {
			t.Errorf("Severity(%q) = %q, want %q", tt.word, got, tt.want.Render("w"))
		}
	}
	statuses := []struct {
		word string
		want lipgloss.Style
	}{
		{"validated", st.OK}, {"pass", st.OK}, {"dispositioned", st.Warn}, {"failing", st.Error},
		{"missing", st.Error}, {"needs_changes", st.Error}, {"whatever", st.Muted},
	}
	for _, tt := range statuses {
		if got := st.Status(tt.word).Render("w"); got != tt.want.Render("w") {
			t.Errorf("Status(%q) = %q, want %q", tt.word, got, tt.want.Render("w"))
		}
	}
	if got := ansi.Strip(st.SeverityBadge("Major\x1b[2J")); got != " major␛[2j " {
		t.Errorf("SeverityBadge = %q", got)
	}
}

// TestRenderSGRGolden pins the exact bytes a log line is drawn with, so a
// change of colour handling is a visible diff.
func TestRenderSGRGolden(t *testing.T) {
	st := NewStyles(true, false)
	got := st.RenderSGR(TranslateSGR("\x1b[31mred\x1b[0m \x1b[1;4mbold\x1b[0m\tx\x1b[2J\x1b[38;5;200m2\x1b[38;2;1;2;3m3"))
	want := "\x1b[31mred\x1b[m \x1b[1;4mbold\x1b[m    x\x1b[38;2;209;156;255m␛[2J\x1b[m\x1b[38;5;200m2\x1b[m\x1b[38;2;1;2;3m3\x1b[m"
	if got != want {
		t.Errorf("RenderSGR =\n%q\nwant\n%q", got, want)
	}
	if s := ansi.Strip(got); s != "red bold    x␛[2J23" {
		t.Errorf("stripped = %q", s)
	}
}

func TestLogLine(t *testing.T) {
	st := NewStyles(true, false)
	checkShows(t, "LogLine", st.LogLine("10%\r\x1b[32m100%\x1b[0m done\x1b]0;t\x07"), "␍ 100% done␛]0;t␇", "")
}

func TestText(t *testing.T) {
	st := NewStyles(true, false)
	checkShows(t, "Text", st.Text("a\x1b[2Jb\u202Ec\nd", st.Muted), "a␛[2Jb⟦U+202E⟧c\nd", st.Placeholder.Render("␛[2J"))
}

// checkShows checks what a styling function drew: the text want once the
// styles are stripped, the placeholder drawn in its own style (styled, when
// given), and no escape but SGR.
func checkShows(t *testing.T, what, got, want, styled string) {
	t.Helper()
	if s := ansi.Strip(got); s != want {
		t.Errorf("%s shows %q, want %q", what, s, want)
	}
	if styled != "" && !strings.Contains(got, styled) {
		t.Errorf("%s: placeholder not styled as %q: %q", what, styled, got)
	}
	checkOnlySGR(t, got)
}

// TestNoColorLiteralsOutsideTheme keeps colour choices in one file.
func TestNoColorLiteralsOutsideTheme(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	literal := regexp.MustCompile(`lipgloss\.Color\(|"#[0-9a-fA-F]{3,6}"`)
	for _, f := range files {
		if f == "theme.go" || strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if loc := literal.FindIndex(b); loc != nil {
			t.Errorf("%s has a colour literal %q; colours belong in theme.go", f, b[loc[0]:loc[1]])
		}
	}
}

func TestLine(t *testing.T) {
	st := NewStyles(true, false)
	checkShows(t, "Line", st.Line("a\tb\x1b[2J\nc", st.Base), "a␉b␛[2J␤c", st.Placeholder.Render("␉"))
	if s := SanitizeLine("x\ty\nz\x1b]0;t\x07"); s != "x␉y␤z␛]0;t␇" {
		t.Errorf("SanitizeLine = %q", s)
	}
}

// What y copies of a log line is what LogLine shows, less its styles.
func TestLogLineTextIsWhatIsShown(t *testing.T) {
	st := NewStyles(true, false)
	for _, raw := range []string{"10%\r\x1b[32m100%\x1b[0m done", "plain \x1b[1mbold\x1b[0m", ""} {
		if got, want := LogLineText(raw), ansi.Strip(st.LogLine(raw)); got != want {
			t.Errorf("LogLineText(%q) = %q; the screen shows %q", raw, got, want)
		}
	}
}
