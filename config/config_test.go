package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseEverySetting(t *testing.T) {
	c, err := Parse("config.yml", []byte(`# mine
theme: light
awaiting: '(?i)please vet'
queue:
  repositories: [octo/app, ghe.example.com/team/svc]
keys:
  triage.accept: A
  global.quit: [q, ctrl+c]
`))
	if err != nil {
		t.Fatal(err)
	}
	if c.Theme != "light" || c.AwaitingText != "(?i)please vet" || !c.Awaiting.MatchString("Please VET this") {
		t.Errorf("theme %q, awaiting %q", c.Theme, c.AwaitingText)
	}
	if !slices.Equal(c.Repositories, []string{"octo/app", "ghe.example.com/team/svc"}) {
		t.Errorf("repositories %q", c.Repositories)
	}
	want := []Binding{{"triage.accept", []string{"A"}, 7}, {"global.quit", []string{"q", "ctrl+c"}, 8}}
	if len(c.Keys) != 2 {
		t.Fatalf("keys %+v", c.Keys)
	}
	for i, b := range c.Keys {
		if b.Action != want[i].Action || !slices.Equal(b.Keys, want[i].Keys) || b.Line != want[i].Line {
			t.Errorf("binding %d: %+v, want %+v", i, b, want[i])
		}
	}
}

// Every mistake is reported, each at its line, in one go.
func TestParseErrorsNameTheirLines(t *testing.T) {
	_, err := Parse("/home/ana/.config/vetter/config.yml", []byte(`theme: blue
awaiting: '(unclosed'
colour: red
queue:
  repositories:
    - octo/app
    - not a repo
keys:
  triage.accept: ctrl+
  Findings: a
  findings.dismiss: [d, {x: 1}]
theme: dark
`))
	var errs Errors
	if !errors.As(err, &errs) {
		t.Fatalf("error %v is not Errors", err)
	}
	want := []string{
		`config.yml:1: theme: "blue" is not dark, light or auto`,
		`config.yml:2: awaiting: "(unclosed" is not a regular expression`,
		`config.yml:3: unknown setting "colour"`,
		`config.yml:7: queue.repositories: "not a repo" is not OWNER/REPO`,
		`config.yml:9: keys.triage.accept: "ctrl+" is not a key`,
		`config.yml:10: keys: "Findings" is not screen.action`,
		`config.yml:11: keys.findings.dismiss: want a list of plain values`,
		`config.yml:12: "theme" is set twice (first on line 1)`,
	}
	if len(errs) != len(want) {
		t.Fatalf("%d errors, want %d:\n%v", len(errs), len(want), err)
	}
	for i, w := range want {
		if !strings.Contains(errs[i].Error(), w) {
			t.Errorf("error %d: %q, want it to contain %q", i, errs[i].Error(), w)
		}
	}
}

func TestParseNotYAML(t *testing.T) {
	_, err := Parse("config.yml", []byte("theme: dark\nkeys:\n  a: [b\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "config.yml:") || !strings.Contains(err.Error(), "not YAML") {
		t.Fatalf("error %v, want config.yml:LINE: not YAML", err)
	}
	if _, err := Parse("config.yml", []byte("- a\n- b\n")); err == nil || !strings.Contains(err.Error(), "config.yml:1: the file must be a mapping") {
		t.Errorf("a list: %v", err)
	}
}

func TestLoadMissingAndEmpty(t *testing.T) {
	dir := t.TempDir()
	c, err := Load(filepath.Join(dir, "none.yml"))
	if err != nil || c.Theme != "" || c.Keys != nil {
		t.Errorf("a missing file: %+v, %v", c, err)
	}
	empty := filepath.Join(dir, "empty.yml")
	os.WriteFile(empty, []byte("# nothing yet\n"), 0o600)
	if c, err := Load(empty); err != nil || c.Path != empty {
		t.Errorf("an empty file: %+v, %v", c, err)
	}
}

func TestPath(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/cfg")
	if got := Path(); got != filepath.Join("/cfg", "vetter", "config.yml") {
		t.Errorf("Path() = %s", got)
	}
	t.Setenv("XDG_CONFIG_HOME", "relative/ignored")
	t.Setenv("HOME", "/home/ana")
	if got := Path(); got != filepath.Join("/home/ana", ".config", "vetter", "config.yml") {
		t.Errorf("Path() with a relative XDG_CONFIG_HOME = %s", got)
	}
}

func TestCheckKey(t *testing.T) {
	for _, k := range []string{"a", "A", "?", "/", "ctrl+a", "alt+shift+x", "enter", "f12", "space", "é"} {
		if err := CheckKey(k); err != nil {
			t.Errorf("%q: %v", k, err)
		}
	}
	for _, k := range []string{"", "ctrl+", "ab", "f13", "ctrl", " ", "meta+a"} {
		if CheckKey(k) == nil {
			t.Errorf("%q accepted", k)
		}
	}
}
