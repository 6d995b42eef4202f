package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"text/template"

	"go.yaml.in/yaml/v3"
)

// `vetter version` and `vetter --version` say the same, and the SARIF export
// names the same version.
func TestVersionCommands(t *testing.T) {
	a, _, code := run(t, "version")
	b, _, code2 := run(t, "--version")
	if code != 0 || code2 != 0 || a != testBuild().Line+"\n" || a != b {
		t.Errorf("version %q (exit %d), --version %q (exit %d)", a, code, b, code2)
	}
	out := mustRun(t, "export", samplePacketDir(t, "", nil), "--format", "sarif")
	if v := testBuild().Version; !strings.Contains(out, `"version": "`+v+`"`) {
		t.Errorf("the SARIF export does not name version %q", v)
	}
}

// check and summary need a PACKET; the sample is for the workbench alone.
func TestCheckSummaryNeedPacket(t *testing.T) {
	for _, cmd := range []string{"check", "summary"} {
		out, errOut, code := run(t, cmd)
		if code != 2 || out != "" || !strings.Contains(errOut+errText(t, cmd), cmd+" needs a PACKET") {
			t.Errorf("%s without PACKET: exit %d, stdout %q, stderr %q", cmd, code, out, errOut)
		}
	}
}

// errText is the error a command line fails with (main prints it).
func errText(t *testing.T, args ...string) string {
	t.Helper()
	cmd := newRootCmd(testFactory(&strings.Builder{}, &strings.Builder{}))
	cmd.SetArgs(args)
	if err := cmd.ExecuteContext(t.Context()); err != nil {
		return err.Error()
	}
	return ""
}

func TestExportOutputDash(t *testing.T) {
	pinned(t)
	dir := samplePacketDir(t, "", nil)
	want := mustRun(t, "export", dir, "--format", "rdjsonl")
	got, errOut, code := run(t, "export", dir, "--format", "rdjsonl", "-o", "-")
	if code != 0 || got != want || errOut != "" {
		t.Errorf("-o -: exit %d, stderr %q, same as stdout: %v", code, errOut, got == want)
	}
	if _, err := os.Stat(filepath.Join(".", "-")); err == nil {
		os.Remove("-")
		t.Error("-o - wrote a file named -")
	}
}

// complete runs cobra's hidden completion command and returns the offered
// words and the directive number it ends with.
func complete(t *testing.T, args ...string) ([]string, string) {
	t.Helper()
	out, errOut, code := run(t, append([]string{"__complete"}, args...)...)
	if code != 0 {
		t.Fatalf("__complete %v: exit %d, %s", args, code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return lines[:len(lines)-1], lines[len(lines)-1]
}

func TestCompletion(t *testing.T) {
	dir := samplePacketDir(t, "", nil)
	// A folder with packets of each kind beside files that are not packets.
	tmp := t.TempDir()
	for _, name := range []string{"a.zip", "b.TAR.GZ", "c.tgz", "d.tar", "notes.txt", ".hidden.zip"} {
		os.WriteFile(filepath.Join(tmp, name), nil, 0o644)
	}
	os.Mkdir(filepath.Join(tmp, "round2"), 0o755)
	sep := string(filepath.Separator)
	packets := strings.Join([]string{tmp + sep + "a.zip", tmp + sep + "b.TAR.GZ", tmp + sep + "c.tgz", tmp + sep + "d.tar", tmp + sep + "round2" + sep}, " ")
	const (
		noFile     = ":4"  // cobra.ShellCompDirectiveNoFileComp
		intoDir    = ":6"  // NoFileComp | NoSpace: a directory is offered
		filterDirs = ":16" // cobra.ShellCompDirectiveFilterDirs
		shellFiles = ":0"  // the shell's own completion
	)
	for _, c := range []struct {
		args      []string
		words     string
		directive string
	}{
		{[]string{tmp + sep}, packets, intoDir},
		{[]string{"check", tmp + sep}, packets, intoDir},
		{[]string{"summary", "--json", tmp + sep + "r"}, tmp + sep + "round2" + sep, intoDir},
		{[]string{"export", tmp + sep + "a"}, tmp + sep + "a.zip", noFile},
		{[]string{"triage", dir, ""}, "", noFile},
		{[]string{"compare", dir, tmp + sep + "c"}, tmp + sep + "c.tgz", noFile},
		{[]string{"compare", dir, dir, ""}, "", noFile},
		{[]string{"check", "~/nowhere/"}, "", shellFiles},
		{[]string{"sample", ""}, "", filterDirs},
		{[]string{"export", dir, "--format", ""}, "markdown sarif rdjsonl github-review", noFile},
		{[]string{"--theme", ""}, "dark light", noFile},
		{[]string{"triage", dir, "--severity", ""}, "blocker major minor nit", noFile},
		{[]string{"--since", tmp + sep + "d"}, tmp + sep + "d.tar", noFile},
	} {
		words, directive := complete(t, c.args...)
		if strings.Join(words, " ") != c.words || directive != c.directive {
			t.Errorf("complete %q: %q %s, want %q %s", c.args, words, directive, c.words, c.directive)
		}
	}
}

// A release is built with .goreleaser.yaml's flags and ldflags, with no VCS
// stamping at all: --version must still name the version and the commit,
// and never dev. The flags are read from the file, so a rename of
// main.version or main.commit that the file does not follow fails here.
func TestReleaseBuildStampsVersionAndCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vetter")
	}
	raw, err := os.ReadFile(".goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Builds []struct {
			Ldflags []string `yaml:"ldflags"`
		} `yaml:"builds"`
	}
	if err := yaml.Unmarshal(raw, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Builds) != 1 {
		t.Fatalf(".goreleaser.yaml has %d builds, want 1", len(cfg.Builds))
	}
	fill := func(s string) string {
		var b strings.Builder
		tmpl := template.Must(template.New("").Parse(s))
		if err := tmpl.Execute(&b, map[string]string{"Version": "9.8.7", "FullCommit": "1bb1c70f4285cf39d8ebaf61573f0095423d52b1"}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	var ldflags []string
	for _, l := range cfg.Builds[0].Ldflags {
		ldflags = append(ldflags, fill(l))
	}
	// The release's other flags (-trimpath, CGO_ENABLED=0) would rebuild
	// every package instead of linking what the test build compiled; they
	// change nothing of the stamping.
	bin := filepath.Join(t.TempDir(), "vetter")
	args := []string{"build", "-buildvcs=false", "-o", bin, "-ldflags=" + strings.Join(ldflags, " "), "."}
	build := exec.Command("go", args...)
	build.Env = append(os.Environ(), "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	for _, arg := range []string{"--version", "version"} {
		out, err := exec.Command(bin, arg).Output()
		if err != nil {
			t.Fatalf("vetter %s: %v", arg, err)
		}
		if got, want := string(out), "vetter v9.8.7 (commit 1bb1c70f4285)\n"; got != want {
			t.Errorf("vetter %s printed %q, want %q", arg, got, want)
		}
	}
}
