package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	versioncmd "github.com/vetter-dev/vetter/cli/cmd/version"
	"github.com/vetter-dev/vetter/cli/cmdutil"
	"github.com/vetter-dev/vetter/cli/factory"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/report"
	"github.com/vetter-dev/vetter/review"
)

var update = flag.Bool("update", false, "rewrite golden files")

// run executes the command line with args and returns stdout, stderr and the
// exit status main would use.
func run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := newRootCmd(testFactory(&out, &errb))
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(t.Context())
	return out.String(), errb.String(), exitCode(err, 0, io.Discard)
}

// testClock, when set (pinned), is the clock of the commands run.
var testClock func() time.Time

// testBuild is the build the tests' commands say they are.
func testBuild() factory.Build { return versioncmd.Build(version, commit) }

// testFactory is the factory of one command line run in the test, with
// stdout and stderr captured.
func testFactory(stdout, stderr io.Writer) *factory.Factory {
	f := factory.New(factory.IOStreams{In: strings.NewReader(""), Out: stdout, ErrOut: stderr}, testBuild(), "vetter")
	if testClock != nil {
		f.Clock = testClock
	}
	return f
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from golden:\n--- want\n%s\n--- got\n%s", name, want, got)
	}
}

func TestSummaryGolden(t *testing.T) {
	dir := samplePacketDir(t, "", nil)
	for _, c := range []struct{ name, flag string }{
		{"summary.txt", ""}, {"summary.json", "--json"}, {"summary.md", "--markdown"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"summary", dir}
			if c.flag != "" {
				args = append(args, c.flag)
			}
			out, errOut, code := run(t, args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			// The golden names the packet SAMPLE wherever the test wrote it.
			golden(t, c.name, strings.ReplaceAll(out, dir, "SAMPLE"))
		})
	}
}

// The JSON summary keeps the contract's names (PACKET.md).
func TestSummaryJSONContract(t *testing.T) {
	out, _, _ := run(t, "summary", "--json", samplePacketDir(t, "", nil))
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"packet", "plan", "change", "verdict", "assessment", "evidence", "diff", "findings", "problems", "gate"} {
		if _, ok := m[k]; !ok {
			t.Errorf("summary --json lacks %q", k)
		}
	}
	gate := m["gate"].(map[string]any)
	if gate["command"] != "/ok to test 1bb1c70f4285cf39d8ebaf61573f0095423d52b1" || gate["ready"] != false {
		t.Errorf("gate = %v", gate)
	}
	f := m["findings"].([]any)[0].(map[string]any)
	for _, k := range []string{"id", "number", "location", "severity", "claim", "evidence", "triage", "citations"} {
		if _, ok := f[k]; !ok {
			t.Errorf("finding lacks %q", k)
		}
	}
}

func TestCheckExitCodes(t *testing.T) {
	// The sample has only warnings: exit 0.
	out, _, code := run(t, "check", samplePacketDir(t, "", nil))
	if code != 0 || !strings.Contains(out, "citation-unresolved") {
		t.Errorf("check on the sample: exit %d\n%s", code, out)
	}
	// Not a packet at all: exit 2.
	if _, errOut, code := run(t, "check", filepath.Join(t.TempDir(), "nope")); code != 2 || !strings.Contains(errOut, "not a packet") {
		t.Errorf("missing path: exit %d, stderr %q", code, errOut)
	}
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("hello"), 0o644)
	if _, _, code := run(t, "check", empty); code != 2 {
		t.Errorf("folder with nothing of a packet: exit %d, want 2", code)
	}
	// A packet with only review.md loads, with missing-file errors: exit 1.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "review.md"), []byte("# Review\n\n## Assessment: sound\n"), 0o644)
	out, _, code = run(t, "check", "--json", dir)
	if code != 1 {
		t.Errorf("review-only packet: exit %d, want 1", code)
	}
	var got struct{ Problems []packet.Problem }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	missing := 0
	for _, p := range got.Problems {
		if p.Code == packet.CodeMissingFile {
			missing++
		}
	}
	if missing != 5 {
		t.Errorf("missing-file problems = %d, want 5 (plan, change, diff, validation, registry): %+v", missing, got.Problems)
	}
}

// Nothing a packet holds reaches the terminal raw, headless either.
func TestHeadlessOutputNeutralised(t *testing.T) {
	dir := t.TempDir()
	if err := packet.WriteSample(dir); err != nil {
		t.Fatal(err)
	}
	review, _ := os.ReadFile(filepath.Join(dir, "review.md"))
	hostile := strings.Replace(string(review), "A `Retry-After`", "A \x1b]0;pwned\x07\x1b[2J\u202e`Retry-After`", 1)
	os.WriteFile(filepath.Join(dir, "review.md"), []byte(hostile), 0o644)
	for _, args := range [][]string{{"summary", dir}, {"summary", "--markdown", dir}, {"summary", "--json", dir}, {"check", dir}, {"check", "--json", dir}} {
		out, _, _ := run(t, args...)
		if strings.ContainsAny(out, "\x1b\x07\u202e") {
			t.Errorf("%v printed a raw control or bidi character", args)
		}
	}
	out, _, _ := run(t, "check", dir)
	if !strings.Contains(out, "hidden-characters") || !strings.Contains(out, "control-sequences") {
		t.Errorf("check did not report the hostile bytes:\n%s", out)
	}
}

func TestSampleWritesAndReloads(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p")
	if _, _, code := run(t, "sample", dir); code != 0 {
		t.Fatalf("sample exit %d", code)
	}
	var embedded bytes.Buffer
	sample := packet.LoadSample(packet.Options{})
	// The same work item: the reviewer's state (rounds seen, triage) is the
	// same for both.
	if _, err := review.OpenStore(sample, ""); err != nil {
		t.Fatal(err)
	}
	if err := cmdutil.WriteJSON(&embedded, report.Summarize(sample)); err != nil {
		t.Fatal(err)
	}
	a := embedded.String()
	b, _, _ := run(t, "summary", "--json", dir)
	// Only the path and source differ between the embedded and written sample.
	strip := func(s string) string {
		var m map[string]any
		json.Unmarshal([]byte(s), &m)
		delete(m, "packet")
		out, _ := json.Marshal(m)
		return string(out)
	}
	if strip(a) != strip(b) {
		t.Error("the written sample does not load the same as the embedded one")
	}
	if _, _, code := run(t, "sample", dir); code == 0 {
		t.Error("sample overwrote an existing packet")
	}
}
