package main

// What `vetter check` and `vetter summary` say about hostile packets (issue
// 5, docs/security.md), and what a real terminal receives from the
// workbench. The screens are tested in tui/hostile_test.go.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/creack/pty"
	"github.com/vetter-dev/vetter/hostile"
	"github.com/vetter-dev/vetter/internal/hidden"
	"github.com/vetter-dev/vetter/packet"
)

// The committed corpus is what the generator writes.
func TestHostileCorpusCommitted(t *testing.T) {
	for class, files := range hostile.Committed() {
		dir := filepath.Join("testdata", "hostile", class)
		if *update {
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			if err := files.Write(dir); err != nil {
				t.Fatal(err)
			}
			continue
		}
		var have []string
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(dir, p)
				have = append(have, filepath.ToSlash(rel))
			}
			return nil
		})
		slices.Sort(have)
		if want := files.Names(); !slices.Equal(have, want) {
			t.Errorf("%s holds %v, the generator writes %v (go test -run TestHostileCorpusCommitted -update .)", dir, have, want)
			continue
		}
		for _, n := range files.Names() {
			got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(n)))
			if err != nil || string(got) != files[n] {
				t.Errorf("%s/%s differs from the generator's (go test -run TestHostileCorpusCommitted -update .)", dir, n)
			}
		}
	}
}

// where is a problem's code and place, as a test names it.
type where struct {
	Code, File string
	Line       int
}

func (w where) String() string { return fmt.Sprintf("%s %s:%d", w.Code, w.File, w.Line) }

// checkJSON runs `vetter check --json path` and returns its problems and
// exit status, failing on anything in the output a terminal would act on.
func checkJSON(t *testing.T, path string) ([]packet.Problem, int) {
	t.Helper()
	out, errOut, code := run(t, "check", "--json", path)
	if errOut != "" {
		t.Errorf("check %s: stderr %q", path, errOut)
	}
	cliSafe(t, "check --json", out)
	var res struct {
		Problems []packet.Problem `json:"problems"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("check --json %s: %v\n%s", path, err, out)
	}
	return res.Problems, code
}

func places(ps []packet.Problem) []where {
	out := make([]where, len(ps))
	for i, p := range ps {
		out[i] = where{p.Code, p.File, p.Line}
	}
	return out
}

// wantPlaces fails for each want not among got.
func wantPlaces(t *testing.T, got []packet.Problem, wants ...where) {
	t.Helper()
	have := places(got)
	for _, w := range wants {
		if !slices.Contains(have, w) {
			t.Errorf("check does not report %v; it reports:\n%v", w, have)
		}
	}
}

// noCodes fails for each problem whose code is one of codes.
func noCodes(t *testing.T, got []packet.Problem, codes ...string) {
	t.Helper()
	for _, p := range got {
		if slices.Contains(codes, p.Code) {
			t.Errorf("check reports %s %s:%d: %s", p.Code, p.File, p.Line, p.Message)
		}
	}
}

// cliSafe fails on anything in a command's output that a terminal would act
// on or that hides text: an escape, a C0 control but newline and tab, a C1
// control, DEL, a bidirectional or zero-width character, invalid UTF-8.
func cliSafe(t *testing.T, what, out string) {
	t.Helper()
	for i := 0; i < len(out); {
		r, n := utf8.DecodeRuneInString(out[i:])
		bad := ""
		switch {
		case r == utf8.RuneError && n == 1:
			bad = "invalid UTF-8"
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f:
			bad = fmt.Sprintf("control %U", r)
		case hidden.Is(r):
			bad = fmt.Sprintf("hidden character %U", r)
		}
		if bad != "" {
			t.Errorf("%s prints %s at byte %d: %q", what, bad, i, out[max(i-20, 0):min(i+20, len(out))])
			return
		}
		i += n
	}
}

// everyOutput runs every command that prints the packet and checks each is
// safe for a terminal; it returns them all, for looking for what must not
// be there.
func everyOutput(t *testing.T, path string) string {
	t.Helper()
	var all strings.Builder
	for _, args := range [][]string{
		{"check", path}, {"check", "--json", path},
		{"summary", path}, {"summary", "--json", path}, {"summary", "--markdown", path},
		{"--print", path},
	} {
		out, errOut, _ := run(t, args...)
		cliSafe(t, strings.Join(args[:len(args)-1], " "), out+errOut)
		all.WriteString(out + errOut)
	}
	return all.String()
}

func writeClass(t *testing.T, files hostile.Files) string {
	t.Helper()
	dir := t.TempDir()
	if err := files.Write(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestHostileEscapeCheck(t *testing.T) {
	files := hostile.Escape()
	if runtime.GOOS != "windows" {
		for k, v := range hostile.EscapeNames() {
			files[k] = v
		}
	}
	dir := writeClass(t, files)
	probs, _ := checkJSON(t, dir)
	// Each file's sequences are counted once, at their first line.
	wantPlaces(t, probs,
		where{packet.CodeControlSequences, "plan.md", 1},
		where{packet.CodeControlSequences, "change.md", 5},
		where{packet.CodeControlSequences, "change-validation.md", 3},
		where{packet.CodeControlSequences, "review.md", 5},
		where{packet.CodeControlSequences, "compute-env.md", 5},
		where{packet.CodeControlSequences, "change.diff", 12},
		where{packet.CodeControlSequences, "validation/registry.jsonl", 1},
		// the raw 0x9B bytes are not UTF-8
		where{packet.CodeInvalidUTF8, "plan.md", 1},
		where{packet.CodeInvalidUTF8, "change.diff", 12},
	)
	// A name that is not UTF-8 cannot be opened; one that is opens.
	for name := range hostile.EscapeNames() {
		if !utf8.ValidString(name) {
			// JSON carries it with U+FFFD for the invalid byte.
			b, _ := json.Marshal(name)
			var asJSON string
			json.Unmarshal(b, &asJSON)
			wantPlaces(t, probs, where{packet.CodeUnreadableFile, asJSON, 0})
		} else if strings.HasSuffix(name, ".md") {
			wantPlaces(t, probs, where{packet.CodeControlSequences, name, 1})
		}
	}
	// The sequences break nothing else: the verdict, the assessment, the
	// head and the evidence are read as in a clean packet.
	noCodes(t, probs, packet.CodeVerdictMissing, packet.CodeAssessmentMissing, packet.CodeDiffParse,
		packet.CodeRegistryParse, packet.CodeFindingsMalformed, packet.CodeLogMissing, packet.CodeLogExitMismatch)
	out := everyOutput(t, dir)
	for _, keep := range []string{hostile.Verdict, hostile.HeadSHA, "␛]0;PWNED-N␇", "␛[2J"} {
		if !strings.Contains(out, keep) {
			t.Errorf("the commands never print %q", keep)
		}
	}
}

func TestHostileHiddenCheck(t *testing.T) {
	dir := writeClass(t, hostile.Hidden())
	probs, _ := checkJSON(t, dir)
	wantPlaces(t, probs,
		where{packet.CodeHiddenCharacters, "change.diff", 12}, // the Trojan Source line
		where{packet.CodeInvalidUTF8, "change.diff", 21},
		where{packet.CodeHiddenCharacters, "review.md", 5},
		where{packet.CodeInvalidUTF8, "review.md", 11},
		where{packet.CodeHiddenCharacters, "plan.md", 11},
		where{packet.CodeInvalidUTF8, "plan.md", 12},
		where{packet.CodeHiddenCharacters, "validation/registry.jsonl", 1},
		where{packet.CodeInvalidUTF8, "validation/registry.jsonl", 1},
	)
	out := everyOutput(t, dir)
	// A finding's cells show their hidden characters as <U+XXXX> wherever
	// they are printed (the screen's ⟦U+XXXX⟧ markers are for the screen).
	if !strings.Contains(out, "bucket.go<U+200B>:12") || !strings.Contains(out, "reads <U+202E>enilno<U+202C>") {
		t.Errorf("the finding's hidden characters are not printed as visible escapes")
	}
	// JSON keeps the text exactly, escaped so that it cannot reorder the
	// terminal's line.
	js, _, _ := run(t, "summary", "--json", dir)
	if !strings.Contains(js, `bucket.go\u200b:12`) || !strings.Contains(js, `reads \u202eenilno\u202c`) {
		t.Errorf("summary --json does not escape the finding's hidden characters")
	}
}

func TestHostileMalformedCheck(t *testing.T) {
	dir := writeClass(t, hostile.Malformed())
	probs, code := checkJSON(t, dir)
	if code != 1 {
		t.Errorf("check exits %d, want 1", code)
	}
	reg, diff := "validation/registry.jsonl", "change.diff"
	wantPlaces(t, probs,
		// registry: line 1 (BOM, CRLF) and line 10 are read
		where{packet.CodeRegistryParse, reg, 2},  // truncated
		where{packet.CodeRegistryParse, reg, 3},  // an array
		where{packet.CodeRegistryField, reg, 4},  // wrong types
		where{packet.CodeInvalidUTF8, reg, 5},    // invalid UTF-8
		where{packet.CodeRegistryParse, reg, 6},  // null
		where{packet.CodeRegistryParse, reg, 7},  // a number
		where{packet.CodeRegistryParse, reg, 8},  // nested too deep
		where{packet.CodeRegistryParse, reg, 11}, // truncated at the end
		// diff
		where{packet.CodeDiffParse, diff, 1},      // a hunk before any file
		where{packet.CodeDiffHunkCount, diff, 8},  // counts that lie
		where{packet.CodeDiffParse, diff, 16},     // a diff line after garbage
		where{packet.CodeDiffHunkCount, diff, 21}, // quoted name's hunk short
		where{packet.CodeDiffParse, diff, 50},     // unreadable hunk header
		where{packet.CodeDiffParse, diff, 52},     // combined diff
		where{packet.CodeDiffHunkCount, diff, 61},
		// markdown
		where{packet.CodeVerdictConflict, "change-validation.md", 9},
		where{packet.CodeAssessmentMissing, "review.md", 3},
		where{packet.CodeFindingsMalformed, "review.md", 10}, // short row
		where{packet.CodeFindingsMalformed, "review.md", 11}, // no number
		where{packet.CodeUnknownSeverity, "review.md", 12},
		where{packet.CodeFindingsMalformed, "review.md", 13}, // one cell
	)
	for _, p := range probs {
		if p.Code == packet.CodeRegistryParse && (p.Line == 1 || p.Line == 10) {
			t.Errorf("a good registry line is refused: %v", p)
		}
	}
	// What could be read still is: the verdict that stands, the good runs,
	// the diff's files, the good findings.
	js, _, _ := run(t, "summary", "--json", dir)
	var s struct {
		Verdict  struct{ Value string } `json:"verdict"`
		Diff     struct{ Files int }    `json:"diff"`
		Findings []struct{ Number int } `json:"findings"`
		Evidence struct {
			Recipes []struct{ Recipe, Status string } `json:"recipes"`
		} `json:"evidence"`
	}
	if err := json.Unmarshal([]byte(js), &s); err != nil {
		t.Fatal(err)
	}
	if s.Verdict.Value != "fail" || s.Diff.Files != 7 || len(s.Findings) != 5 || len(s.Evidence.Recipes) < 2 {
		t.Errorf("summary of the malformed packet: verdict %q, %d diff files, %d findings, recipes %v",
			s.Verdict.Value, s.Diff.Files, len(s.Findings), s.Evidence.Recipes)
	}
	everyOutput(t, dir)
}

// listDir lists every path under dir.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func TestHostileOutsideCheck(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links and named pipes need a Unix file system")
	}
	o, err := hostile.WriteOutside(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	secretAbs, _ := filepath.Abs(filepath.Join(o.Secret, "secret.log"))
	done := make(chan struct{})
	var probs []packet.Problem
	go func() {
		defer close(done)
		probs, _ = checkJSON(t, o.Packet)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("check hangs on the outside packet (the named pipe, /dev/zero?)")
	}
	reg := "validation/registry.jsonl"
	var wants []where
	for _, r := range hostile.OutsideRuns(secretAbs) {
		code := packet.CodeLogOutsidePacket
		if r.Log == "validation/logs/fifo.log" {
			code = packet.CodeUnreadableFile // inside the packet, but a pipe
		}
		wants = append(wants, where{code, reg, r.Line})
	}
	for name, target := range hostile.OutsideLinks {
		switch {
		case strings.HasPrefix(target, "../../change.md"):
			continue // stays inside: allowed
		case name == "validation/logs/loop.log":
			wants = append(wants, where{packet.CodeUnreadableFile, name, 0})
		default:
			wants = append(wants, where{packet.CodeLogOutsidePacket, name, 0})
		}
	}
	if o.FIFO != "" {
		wants = append(wants, where{packet.CodeUnreadableFile, "validation/logs/fifo.log", 0})
	}
	wantPlaces(t, probs, wants...)
	out := everyOutput(t, o.Packet)
	if strings.Contains(out, hostile.SecretCanary) {
		t.Errorf("a file outside the packet was read")
	}
	if !strings.Contains(out, hostile.Verdict) {
		t.Errorf("the rest of the packet does not show")
	}
}

func TestHostileArchiveCheck(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name    string
		write   func(string) error
		entries []hostile.UnsafeEntry
	}{
		{"escaping.zip", hostile.WriteEscapingZip, hostile.UnsafeZipEntries},
		{"escaping.tar", func(p string) error { return hostile.WriteEscapingTar(p, false) }, hostile.UnsafeTarEntries},
		{"escaping.tgz", func(p string) error { return hostile.WriteEscapingTar(p, true) }, hostile.UnsafeTarEntries},
	} {
		t.Run(c.name, func(t *testing.T) {
			sub := filepath.Join(dir, strings.TrimSuffix(c.name, filepath.Ext(c.name)))
			os.MkdirAll(sub, 0o755)
			path := filepath.Join(sub, c.name)
			if err := c.write(path); err != nil {
				t.Fatal(err)
			}
			// Nothing is ever extracted: not beside the archive, not in the
			// temporary folder.
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			before := listDir(t, filepath.Dir(sub))
			probs, _ := checkJSON(t, path)
			out := everyOutput(t, path)
			if after := listDir(t, filepath.Dir(sub)); !slices.Equal(before, after) {
				t.Errorf("files appeared beside the archive:\n%v\nwas\n%v", after, before)
			}
			if left := listDir(t, tmp); len(left) != 1 {
				t.Errorf("files appeared in TMPDIR: %v", left)
			}
			var wants []where
			for _, e := range c.entries {
				wants = append(wants, where{packet.CodeArchiveUnsafeEntry, e.Name, 0})
			}
			wantPlaces(t, probs, wants...)
			noCodes(t, probs, packet.CodeMissingFile, packet.CodeVerdictMissing, packet.CodeLogMissing)
			if strings.Contains(out, hostile.SecretCanary) {
				t.Errorf("an escaping entry's content was read")
			}
		})
	}
}

// The size class through `vetter check`: each packet loads with a heap far
// below what it expands to, and says where a limit cut it. The time it takes
// is hostile.BenchmarkLoadHostileSize's to measure, against a reference.
func TestHostileSizeCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("writes about 250 MiB")
	}
	dir := t.TempDir()
	const mib = 1 << 20
	for _, c := range []struct {
		name     string
		write    func(string) error
		expanded int64  // bytes the packet's content amounts to
		heap     uint64 // MiB the load may hold at its peak
		wants    []where
	}{
		{"bomb.zip", func(p string) error { return hostile.WriteZipBomb(p, hostile.BombSize, 1) }, hostile.BombSize, 384,
			[]where{{packet.CodeFileTooLarge, hostile.BombLog, 0}}},
		{"bombs.zip", func(p string) error { return hostile.WriteZipBomb(p, hostile.BombSize, 8) }, 8 * hostile.BombSize, 640,
			[]where{{packet.CodeFileTooLarge, "validation/logs/bomb-1.log", 0}, {packet.CodeArchiveLimit, "validation/logs/bomb-2.log", 0}, {packet.CodeArchiveLimit, hostile.BombLog, 0}}},
		{"bomb.tgz", func(p string) error { return hostile.WriteTgzBomb(p, hostile.BombSize) }, hostile.BombSize, 384,
			[]where{{packet.CodeArchiveLimit, "", 0}, {packet.CodeFileTooLarge, hostile.Top + "/" + hostile.BombLog, 0}}},
		{"many-entries.zip", func(p string) error { return hostile.WriteManyEntries(p, hostile.ManyEntries, false) }, hostile.ManyEntries * 100, 128,
			[]where{{packet.CodeArchiveLimit, "", 0}}},
		{"many-entries.tar", func(p string) error { return hostile.WriteManyEntries(p, hostile.ManyEntries, true) }, hostile.ManyEntries * 1024, 128,
			[]where{{packet.CodeArchiveLimit, "", 0}}},
		{"long-log-line", func(p string) error { return hostile.WriteLongLogLine(p, hostile.LongLogLine) }, hostile.LongLogLine, 16, nil},
		{"long-diff-line", func(p string) error { return hostile.WriteLongDiffLine(p, hostile.LongDiffLine) }, hostile.LongDiffLine, 64,
			[]where{{packet.CodeHiddenCharacters, "change.diff", 12}}},
		{"many-findings", func(p string) error { return hostile.WriteManyFindings(p, hostile.ManyFindings) }, 3 * mib, 128,
			[]where{{packet.CodeControlSequences, "review.md", 11}}},
		{"long-registry-line", func(p string) error { return hostile.WriteLongRegistryLine(p, hostile.LongRegistryLine) }, hostile.LongRegistryLine, 64,
			[]where{{packet.CodeControlSequences, "validation/registry.jsonl", 1}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name)
			if err := c.write(path); err != nil {
				t.Fatal(err)
			}
			var probs []packet.Problem
			peak, took := hostile.PeakHeap(func() { probs, _ = checkJSON(t, path) })
			t.Logf("%s: check in %v, peak heap %.1f MiB (content %.0f MiB)", c.name, took.Round(time.Millisecond), float64(peak)/mib, float64(c.expanded)/mib)
			wantPlaces(t, probs, c.wants...)
			noCodes(t, probs, packet.CodeMissingFile, packet.CodeVerdictMissing, packet.CodeRegistryParse, packet.CodeUnreadableFile)
			if peak > c.heap*mib {
				t.Errorf("%s: peak heap %.0f MiB, more than %d MiB", c.name, float64(peak)/mib, c.heap)
			}
		})
	}
}

// syncBuffer collects a pseudo-terminal's output while the test reads it.
type syncBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	written chan struct{} // closed, and replaced, by every write
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.written != nil {
		close(b.written)
		b.written = nil
	}
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// next returns what is written so far and a channel closed by the next write.
func (b *syncBuffer) next() (string, <-chan struct{}) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.written == nil {
		b.written = make(chan struct{})
	}
	return b.buf.String(), b.written
}

// waitFor waits, woken by each write rather than polling, until the output
// holds s or the deadline passes.
func (b *syncBuffer) waitFor(s string, d time.Duration) bool {
	deadline := time.After(d)
	for {
		out, written := b.next()
		if strings.Contains(out, s) {
			return true
		}
		select {
		case <-written:
		case <-deadline:
			return false
		}
	}
}

// waitWrite waits until something more than n bytes is written, or d.
func (b *syncBuffer) waitWrite(n int, d time.Duration) {
	deadline := time.After(d)
	for {
		out, written := b.next()
		if len(out) > n {
			return
		}
		select {
		case <-written:
		case <-deadline:
			return
		}
	}
}

// The workbench in a real pseudo-terminal at 120×40 on the escape-injection
// packet: walked through every screen and quit, it never writes a window
// title, clipboard, hyperlink or report request (its own or the packet's),
// and no C1 control.
func TestHostilePTY(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vetter and runs it in a pseudo-terminal")
	}
	bin := buildVetter(t)
	files := hostile.Escape()
	for k, v := range hostile.EscapeNames() {
		files[k] = v
	}
	// The folder's own name is an attack too: vetter shows the path.
	dir := filepath.Join(t.TempDir(), "packet"+hostile.NamePayload)
	if err := files.Write(dir); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(bin, "--theme", "dark", dir)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "COLORTERM=truecolor")
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		t.Skipf("no pseudo-terminal can be opened here: %v", err)
	}
	defer ptmx.Close()
	var out syncBuffer
	copied := make(chan struct{})
	go func() {
		io.Copy(&out, ptmx)
		close(copied)
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer cmd.Process.Kill()

	if !out.waitFor("Overview", 10*time.Second) {
		t.Fatalf("the workbench did not draw within 10 s:\n%q", out.String())
	}
	send := func(keys ...string) {
		for _, k := range keys {
			before := len(out.String())
			if _, err := ptmx.Write([]byte(k)); err != nil {
				t.Fatalf("typing %q: %v", k, err)
			}
			// Each key's frame is drawn before the next key, so every
			// screen is written and checked; a key that changes nothing
			// draws nothing, and the walk goes on after a second.
			out.waitWrite(before, time.Second)
		}
	}
	send("j", "j", "2", "}", "}", "r", "3", "j", "j", "}", "s", "4", "j", "\r", "4", "5", "j", "\r", "6", "}", "j", "k", "7", "j", "1")
	if !out.waitFor("Decision", 2*time.Second) {
		t.Errorf("the walk never reached the decision screen")
	}
	send("q")
	waitQuit(t, exited)
	select {
	case <-copied:
	case <-time.After(2 * time.Second):
	}

	stream := out.String()
	if path := os.Getenv("VETTER_HOSTILE_DUMP"); path != "" {
		os.MkdirAll(path, 0o755)
		os.WriteFile(filepath.Join(path, "pty.raw"), []byte(stream), 0o644)
	}
	// vetter writes no operating-system command at all, so the title can
	// never have changed.
	if i := strings.Index(stream, "\x1b]"); i >= 0 {
		t.Errorf("the terminal received an OSC sequence at byte %d: %q", i, stream[i:min(i+40, len(stream))])
	}
	for _, bad := range []struct{ seq, what string }{
		{"\x1b]0;", "OSC 0 (window and icon title)"},
		{"\x1b]1;", "OSC 1 (icon title)"},
		{"\x1b]2;", "OSC 2 (window title)"},
		{"\x1b]8;", "OSC 8 (hyperlink)"},
		{"\x1b]52;", "OSC 52 (clipboard)"},
		{"\x1b]11;?", "OSC 11 query (background colour)"},
		{"\x1b[6n", "a cursor position report request"},
		{"\x1b[c", "a device attributes request"},
		{"\x1b[21t", "a title report request"},
		{"\x1bP", "a DCS string"},
		{"\x1b_", "an APC string"},
		{"\x1b^", "a PM string"},
		{"\x1bX", "an SOS string"},
	} {
		if i := strings.Index(stream, bad.seq); i >= 0 {
			t.Errorf("the terminal received %s at byte %d: %q", bad.what, i, stream[max(i-20, 0):min(i+40, len(stream))])
		}
	}
	for i := 0; i < len(stream); {
		r, n := utf8.DecodeRuneInString(stream[i:])
		if (r >= 0x80 && r <= 0x9f) || (r == utf8.RuneError && n == 1) || hidden.Is(r) {
			t.Errorf("the terminal received %U (byte %#x) at byte %d: %q", r, stream[i], i, stream[max(i-20, 0):min(i+20, len(stream))])
			break
		}
		i += n
	}
	// The packet's sequences were there, and were shown.
	if !strings.Contains(stream, "PWNED") || !strings.Contains(stream, "␛") {
		t.Errorf("the walk never showed the packet's neutralised sequences")
	}
}
