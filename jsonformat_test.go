package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --jq and --template work on every --json output, and what they print is
// sanitised like every text output.
func TestJQAndTemplate(t *testing.T) {
	dir := samplePacketDir(t, "", nil)
	if out := mustRun(t, "summary", dir, "--json", "--jq", ".gate.ready"); out != "false\n" {
		t.Errorf("--jq .gate.ready printed %q", out)
	}
	if out := mustRun(t, "summary", dir, "--json", "-q", "[.findings[].id] | length"); out != "5\n" {
		t.Errorf("--jq length printed %q", out)
	}
	out := mustRun(t, "summary", dir, "--json", "--template", `{{range .findings}}{{.id}} {{.severity}}{{"\n"}}{{end}}`)
	if !strings.HasPrefix(out, "review.md#1 major\nreview.md#2 minor\n") {
		t.Errorf("--template printed %q", out)
	}
	for _, args := range [][]string{
		{"check", dir, "--json", "--jq", ".problems | length"},
		{"triage", dir, "--list", "--json", "--jq", ".gate_ready"},
		{"compare", dir, dir, "--json", "--jq", "keys | length"},
	} {
		if out, errOut, code := run(t, args...); code > 1 || strings.TrimSpace(out) == "" || strings.HasPrefix(out, "{") {
			t.Errorf("%s: exit %d, %q, stderr %s", strings.Join(args, " "), code, out, errOut)
		}
	}
	for _, args := range [][]string{
		{"summary", dir, "--jq", ".x"},
		{"summary", dir, "--json", "--jq", ".x", "--template", "{{.}}"},
		{"summary", dir, "--json", "--jq", "{{{"},
		{"summary", dir, "--json", "--template", "{{.x"},
	} {
		if _, _, code := run(t, args...); code != 2 {
			t.Errorf("%s: exit %d, want 2", strings.Join(args, " "), code)
		}
	}
	// A claim carrying an escape sequence reaches the terminal neutralised,
	// raw string output or not.
	hostile := samplePacketDir(t, "review.md", func(s string) string {
		return strings.Replace(s, "Hyphenated", "Hyphen\x1b]0;pwned\x07ated", 1)
	})
	out = mustRun(t, "summary", hostile, "--json", "--jq", ".findings[].claim")
	if strings.ContainsRune(out, '\x1b') || strings.ContainsRune(out, '\x07') {
		t.Errorf("--jq printed a raw escape: %q", out)
	}
}

func TestSummaryExitStatus(t *testing.T) {
	t.Run("not ready", func(t *testing.T) {
		fakeGitHub(t)
		if _, _, code := run(t, "summary", fixturePR, "--exit-status"); code != 1 {
			t.Errorf("a gate that is not ready: exit %d, want 1", code)
		}
	})
	t.Run("ready", func(t *testing.T) {
		s := fakeGitHub(t)
		lintOptional(s)
		triageAll(t)
		if _, errOut, code := run(t, "summary", fixturePR, "--exit-status"); code != 0 {
			t.Errorf("a ready gate, the pending check optional: exit %d, want 0; %s", code, errOut)
		}
		if _, _, code := run(t, "summary", fixturePR); code != 0 {
			t.Errorf("without --exit-status: exit %d, want 0", code)
		}
	})
	t.Run("pending", func(t *testing.T) {
		s := fakeGitHub(t)
		s.F.Protection = json.RawMessage(`{"strict": true, "contexts": ["build", "unit-tests", "docs-preview"], "checks": [{"context": "build", "app_id": 15368}, {"context": "unit-tests", "app_id": 15368}, {"context": "docs-preview", "app_id": 15368}]}`)
		triageAll(t)
		if _, errOut, code := run(t, "summary", fixturePR, "--exit-status", "--json", "--jq", ".gate.ready"); code != 8 {
			t.Errorf("a ready gate with a required check pending: exit %d, want 8; %s", code, errOut)
		}
	})
}

func TestUsageErrorsExit2(t *testing.T) {
	dir := samplePacketDir(t, "", nil)
	for _, args := range [][]string{
		{"completion", "tcsh"},
		{"completion"},
		{"triage", dir, "99", "--accept"},
	} {
		out, _, code := run(t, args...)
		if code != 2 {
			t.Errorf("%s: exit %d, want 2; stdout %q", strings.Join(args, " "), code, out)
		}
	}
	if out, _, code := run(t, "completion", "bash"); code != 0 || !strings.Contains(out, "bash completion") {
		t.Errorf("completion bash: exit %d", code)
	}
}

func TestConfigFile(t *testing.T) {
	cfgHome := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfgHome)
	out := mustRun(t, "config")
	if !strings.Contains(out, "absent") || !strings.Contains(out, "theme: detected") {
		t.Errorf("no file: %q", out)
	}
	path := filepath.Join(cfgHome, "vetter", "config.yml")
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, []byte("theme: light\nqueue:\n  repositories: [octo/app]\nkeys:\n  triage.accept: A\n"), 0o600)
	out = mustRun(t, "config")
	for _, want := range []string{": ok", "theme: light", "queue.repositories: octo/app", "keys.triage.accept: A"} {
		if !strings.Contains(out, want) {
			t.Errorf("config lacks %q:\n%s", want, out)
		}
	}
	os.WriteFile(path, []byte("theme: light\nawaiting: '(x'\n"), 0o600)
	_, errOut, code := run(t, "config")
	if code != 2 {
		t.Errorf("a broken file: exit %d, want 2", code)
	}
	_ = errOut
	// The broken file stops the commands that read it, naming the line.
	if _, _, code := run(t, "queue", "octo/app", "--json"); code != 2 {
		t.Errorf("queue with a broken config: exit %d, want 2", code)
	}
}
