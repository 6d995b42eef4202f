package factory

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExecutable(t *testing.T) {
	for argv0, want := range map[string]string{
		"vetter":                "vetter",
		"./vetter":              "vetter",
		"/usr/local/bin/vetter": "vetter",
		// gh runs an extension as the binary it installed, gh-NAME.
		"/home/ana/.local/share/gh/extensions/gh-vetter/gh-vetter": "gh vetter",
		"gh-":         "vetter",
		"vetter.test": "vetter",
	} {
		if got := executable(filepath.FromSlash(argv0)); got != want {
			t.Errorf("executable(%q) = %q, want %q", argv0, got, want)
		}
	}
}

// A config file with a mistake in its settings still has its key bindings
// checked against the key map: one run shows every mistake, in line order.
func TestConfigReportsEveryMistake(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	if err := os.MkdirAll(filepath.Join(dir, "vetter"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := `keys:
  triage.nope: x
  triage.accept: A
  triage.defer: j
theme: blue
awaiting: '('
`
	if err := os.WriteFile(filepath.Join(dir, "vetter", "config.yml"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	f := New(IOStreams{Out: io.Discard, ErrOut: io.Discard}, Build{}, "vetter")
	_, err := f.Config()
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	want := []string{
		"the config file has 4 mistakes:",
		`config.yml:2: keys: no action "triage.nope"`,
		`config.yml:4: keys: triage.defer: "j" is move.down's key`,
		`config.yml:5: theme: "blue" is not dark, light or auto`,
		`config.yml:6: awaiting: "(" is not a regular expression`,
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), err)
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("line %d: %q, want it to contain %q", i, lines[i], w)
		}
	}
	if km, kerr := f.KeyMap(); km != nil || kerr == nil {
		t.Errorf("KeyMap of a file with mistakes: %v, %v", km, kerr)
	}
}
