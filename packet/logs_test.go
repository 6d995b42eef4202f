package packet

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vetter-dev/vetter/packet/source"
)

// refLines splits a log the way Log does: on "\n", keeping "\r", a final
// line without "\n" counting and a trailing "\n" adding none.
func refLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	if strings.HasSuffix(s, "\n") {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// memLog opens content as a log of an in-memory packet.
func memLog(t testing.TB, content string) *Log {
	t.Helper()
	src := source.FromFS(fstest.MapFS{"validation/logs/t.log": {Data: []byte(content)}}, source.KindEmbedded, "<test>")
	l, err := OpenLog(src, "validation/logs/t.log")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// logCases are contents whose every line is checked.
func logCases(t *testing.T) map[string]string {
	cases := map[string]string{}
	entries, err := os.ReadDir(filepath.Join("testdata", "logs"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("testdata", "logs", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		cases[e.Name()] = string(b)
	}
	var b strings.Builder
	for i := 1; i <= 3*checkpointEvery+17; i++ {
		fmt.Fprintf(&b, "line %d of the many\n", i)
	}
	cases["many lines"] = b.String()
	cases["many lines, no final newline"] = strings.TrimSuffix(b.String(), "\n")
	cases["exactly a checkpoint"] = strings.Repeat("x\n", checkpointEvery)
	cases["only newlines"] = strings.Repeat("\n", 2*checkpointEvery+1)
	// A line longer than the read block straddles blocks and the line cap.
	long := strings.Repeat("0123456789", (logBlock+LineCap)/10+7)
	cases["line longer than a block"] = "before\n" + long + "\nafter\n"
	cases["crlf many"] = strings.Repeat("windows line\r\n", checkpointEvery+3)
	return cases
}

// wantLogLine is what ReadLines returns for a reference line.
func wantLogLine(s string) string {
	if len(s) > LineCap {
		return fmt.Sprintf("%s …[cut: %d bytes]", s[:LineCap], len(s))
	}
	return s
}

func checkAllLines(t *testing.T, l *Log, ref []string) {
	t.Helper()
	checkLines(t, l, ref, len(ref)+2)
}

// checkLines reads three lines from every line up to upTo.
func checkLines(t *testing.T, l *Log, ref []string, upTo int) {
	t.Helper()
	for from := 1; from <= upTo; from++ {
		n := 3
		got, err := l.ReadLines(from, n)
		if err != nil {
			t.Fatalf("ReadLines(%d): %v", from, err)
		}
		var want []string
		for i := from; i < from+n && i <= len(ref); i++ {
			want = append(want, wantLogLine(ref[i-1]))
		}
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
			t.Fatalf("ReadLines(%d, %d) = %.80q, want %.80q", from, n, got, want)
		}
	}
}

func TestLogIndexAndReadLines(t *testing.T) {
	for name, content := range logCases(t) {
		t.Run(name, func(t *testing.T) {
			ref := refLines(content)
			l := memLog(t, content)
			if l.Indexed() {
				t.Fatal("indexed before Index")
			}
			// Before indexing, reads scan from the start.
			checkAllLines(t, l, ref)
			var last int64
			if err := l.Index(t.Context(), func(done, total int64) { last = done }); err != nil {
				t.Fatal(err)
			}
			if !l.Indexed() || l.LineCount() != len(ref) {
				t.Fatalf("LineCount = %d, want %d", l.LineCount(), len(ref))
			}
			if last != l.Size {
				t.Errorf("progress ended at %d of %d", last, l.Size)
			}
			checkAllLines(t, l, ref)
			// The checkpoints are where the lines start.
			off := int64(0)
			for i, line := range ref {
				if i%checkpointEvery == 0 {
					if k := i / checkpointEvery; l.ckpts[k] != off {
						t.Fatalf("checkpoint %d = %d, want %d", k, l.ckpts[k], off)
					}
				}
				off += int64(len(line)) + 1
			}
		})
	}
}

func TestLogIndexOnDisk(t *testing.T) {
	src, err := source.Open("testdata")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for name, want := range map[string]int{
		"logs/empty.log": 0, "logs/no-trailing-newline.log": 3, "logs/crlf.log": 3, "logs/blank-lines.log": 3,
	} {
		l, err := OpenLog(src, name)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Index(t.Context(), nil); err != nil {
			t.Fatal(err)
		}
		if l.LineCount() != want {
			t.Errorf("%s: %d lines, want %d", name, l.LineCount(), want)
		}
		l.Close()
	}
	l, _ := OpenLog(src, "logs/crlf.log")
	defer l.Close()
	got, _ := l.ReadLines(1, 10)
	want := []string{"first\r", "second\r", "progress 10%\rprogress 100%\r"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("crlf = %q, want %q", got, want)
	}
}

func TestLogIndexCancelResumes(t *testing.T) {
	var b strings.Builder
	for b.Len() < 3*logBlock {
		fmt.Fprintf(&b, "a fairly ordinary line number %d\n", b.Len())
	}
	content := b.String()
	ref := refLines(content)
	l := memLog(t, content)
	ctx, cancel := context.WithCancel(t.Context())
	err := l.Index(ctx, func(done, total int64) { cancel() })
	if !errors.Is(err, context.Canceled) || l.Indexed() {
		t.Fatalf("Index after cancel = %v, indexed %v", err, l.Indexed())
	}
	partial := l.LineCount()
	if partial == 0 || partial >= len(ref) {
		t.Fatalf("partial count %d of %d", partial, len(ref))
	}
	// Lines inside and past the indexed part read correctly.
	for _, from := range []int{1, partial - 5, partial, partial + 1, len(ref) - 1} {
		got, err := l.ReadLines(from, 2)
		if err != nil || len(got) == 0 || got[0] != ref[from-1] {
			t.Fatalf("ReadLines(%d) = %q, %v", from, got, err)
		}
	}
	if err := l.Index(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	if l.LineCount() != len(ref) {
		t.Errorf("resumed count %d, want %d", l.LineCount(), len(ref))
	}
	checkLines(t, l, ref, 2*checkpointEvery+1)
}

func TestLogConcurrentReads(t *testing.T) {
	var b strings.Builder
	for i := 1; b.Len() < 2*logBlock; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	l := memLog(t, b.String())
	done := make(chan error)
	go func() { done <- l.Index(t.Context(), nil) }()
	for i := 1; i < 20000; i += 997 {
		got, err := l.ReadLines(i, 1)
		if err != nil || len(got) != 1 || got[0] != fmt.Sprint(i) {
			t.Fatalf("ReadLines(%d) = %q, %v", i, got, err)
		}
		l.LineCount()
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestLogLongLine(t *testing.T) {
	long := strings.Repeat("é", LineCap) // two bytes each: the cap falls inside a rune
	l := memLog(t, "a\n"+long+"\nb")
	got, err := l.ReadLines(2, 2)
	if err != nil || len(got) != 2 || got[1] != "b" {
		t.Fatalf("ReadLines = %d lines, %v", len(got), err)
	}
	wantSuffix := fmt.Sprintf(" …[cut: %d bytes]", len(long))
	if !strings.HasSuffix(got[0], wantSuffix) || len(got[0]) != LineCap+len(wantSuffix) {
		t.Errorf("cut line: %d bytes, ends %q", len(got[0]), got[0][len(got[0])-40:])
	}
	s, err := l.ReadLineSlice(2, LineCap, 4)
	if err != nil || s != "éé" {
		t.Errorf("ReadLineSlice mid = %q, %v", s, err)
	}
	s, _ = l.ReadLineSlice(2, len(long)-2, 100)
	if s != "é" {
		t.Errorf("ReadLineSlice end = %q", s)
	}
	for _, c := range []struct{ line, start int }{{1, 1}, {1, 5}, {3, 0}, {3, 1}, {4, 0}} {
		s, err := l.ReadLineSlice(c.line, c.start, 10)
		want := map[[2]int]string{{1, 1}: "", {1, 5}: "", {3, 0}: "b", {3, 1}: "", {4, 0}: ""}[[2]int{c.line, c.start}]
		if err != nil || s != want {
			t.Errorf("ReadLineSlice(%d, %d) = %q, %v; want %q", c.line, c.start, s, err, want)
		}
	}
}

// matchLines is the reference for Search: the line of every match start,
// in order, found naively.
func matchLines(content, needle string) []int {
	var lines []int
	line, counted := 1, 0
	for i := 0; ; i++ {
		j := strings.Index(content[i:], needle)
		if j < 0 {
			return lines
		}
		i += j
		line += strings.Count(content[counted:i], "\n")
		counted = i
		lines = append(lines, line)
	}
}

func bruteSearch(matches []int, from int, backward bool) int {
	best := -1
	for _, line := range matches {
		if !backward && line >= from {
			return line
		}
		if backward && line <= from {
			best = line
		}
	}
	return best
}

func TestLogSearch(t *testing.T) {
	var b strings.Builder
	for i := 1; b.Len() < logBlock+5000; i++ {
		if i%1000 == 0 {
			fmt.Fprintf(&b, "ERROR something failed at step %d\n", i)
		} else {
			fmt.Fprintf(&b, "ok step %d\n", i)
		}
	}
	// A needle sitting across the first block edge, and one spanning lines.
	content := b.String()
	content = content[:logBlock-3] + "EDGE" + content[logBlock+1:] + "tail\nwrap"
	// Searching back from the end, the first block edge is at len-logBlock.
	e := len(content) - logBlock - 4
	content = content[:e] + "BACKEDGE" + content[e+8:]
	l := memLog(t, content)
	total := len(refLines(content))
	needles := []string{"ERROR", "EDGE", "BACKEDGE", "step 1\n", "\nwrap", "wrap", "missing text", "ok step 1"}
	for _, idx := range []bool{false, true} {
		if idx {
			if err := l.Index(t.Context(), nil); err != nil {
				t.Fatal(err)
			}
		}
		for _, needle := range needles {
			matches := matchLines(content, needle)
			for _, from := range []int{0, 1, 2, 999, 1000, 1001, total / 2, total - 1, total, total + 5} {
				for _, back := range []bool{false, true} {
					got, err := l.Search(t.Context(), []byte(needle), from, back, nil)
					want := bruteSearch(matches, max(from, 1), back)
					if back && from < 1 {
						want = -1
					}
					if err != nil || got != want {
						t.Errorf("indexed=%v Search(%q, %d, back=%v) = %d, %v; want %d", idx, needle, from, back, got, err, want)
					}
				}
			}
		}
	}
	if _, err := l.Search(t.Context(), nil, 1, false, nil); err == nil {
		t.Error("empty needle accepted")
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := l.Search(ctx, []byte("nothing here"), 1, false, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled search = %v", err)
	}
}

func TestParseExitLine(t *testing.T) {
	cases := []struct {
		line    string
		ok      bool
		code    int
		seconds float64
	}{
		{"[exit 0 after 12 s]", true, 0, 12},
		{"[exit 1 after 3.5 s]", true, 1, 3.5},
		{"[exit 2 after 7s]", true, 2, 7},
		{"[exit 137]", true, 137, 0},
		{"  [exit 0 after 0.25 s]\r", true, 0, 0.25},
		{"[exit -1]", true, -1, 0},
		{"[exit 0 after 1.5 seconds]", false, 0, 0},
		{"[exit]", false, 0, 0},
		{"[exit x]", false, 0, 0},
		{"exit 0", false, 0, 0},
		{"[exit 0 after s]", false, 0, 0},
		{"[exit 99999999999]", false, 0, 0},
		{"note: [exit 0]", false, 0, 0},
	}
	for _, c := range cases {
		e, ok := ParseExitLine(c.line)
		if ok != c.ok || (ok && (e.Code != c.code || e.Seconds != c.seconds)) {
			t.Errorf("ParseExitLine(%q) = %+v, %v", c.line, e, ok)
		}
	}
}

func TestLogExit(t *testing.T) {
	src, err := source.Open(filepath.Join("testdata", "logs"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	cases := []struct {
		file       string
		code, line int
		none       bool
	}{
		{file: "exit-ok.log", code: 0, line: 3},
		{file: "exit-trailing-blanks.log", code: 2, line: 3},
		{file: "exit-no-newline.log", code: 137, line: 2},
		{file: "exit-not-last.log", none: true},
		{file: "empty.log", none: true},
		{file: "blank-lines.log", none: true},
	}
	for _, c := range cases {
		l, err := OpenLog(src, c.file)
		if err != nil {
			t.Fatal(err)
		}
		if c.none {
			if l.Exit != nil {
				t.Errorf("%s: exit %+v", c.file, l.Exit)
			}
		} else if l.Exit == nil || l.Exit.Code != c.code || l.Exit.Line != c.line {
			t.Errorf("%s: exit %+v, want code %d line %d", c.file, l.Exit, c.code, c.line)
		}
		l.Close()
	}
}

// A log longer than the tail learns its exit line's number from the index.
func TestLogExitLineAfterIndex(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(&b, "output %d\n", i)
	}
	b.WriteString("[exit 3 after 41.2 s]\n\n\r\n")
	l := memLog(t, b.String())
	if l.Exit == nil || l.Exit.Code != 3 || l.Exit.Seconds != 41.2 || l.Exit.Line != 0 {
		t.Fatalf("before index: %+v", l.Exit)
	}
	if err := l.Index(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	if l.Exit.Line != 5001 {
		t.Errorf("exit line %d, want 5001", l.Exit.Line)
	}
	// An exit-looking text whose line starts before the tail is not taken.
	l2 := memLog(t, strings.Repeat("x", 3*exitTail)+"[exit 0]\n")
	if l2.Exit != nil {
		t.Errorf("partial line taken as exit: %+v", l2.Exit)
	}
}

func TestOpenLogNames(t *testing.T) {
	src := source.FromFS(fstest.MapFS{"validation/logs/a.log": {Data: []byte("a\n")}}, source.KindEmbedded, "<test>")
	for _, name := range []string{"../a.log", "/validation/logs/a.log", "validation/../../a.log", "C:\\x.log", "..\\a.log"} {
		if _, err := OpenLog(src, name); !errors.Is(err, source.ErrOutsidePacket) {
			t.Errorf("OpenLog(%q) = %v, want ErrOutsidePacket", name, err)
		}
	}
	for _, name := range []string{"", "validation/logs", "validation/logs/b.log"} {
		if _, err := OpenLog(src, name); err == nil || errors.Is(err, source.ErrOutsidePacket) {
			t.Errorf("OpenLog(%q) = %v", name, err)
		}
	}
	var closed Log
	if _, err := closed.ReadLines(1, 1); err == nil {
		t.Error("a Log never opened read lines")
	}
}

// benchLog writes a 256 MiB log whose last line holds benchNeedle, in the
// benchmark's temporary folder.
func benchLog(b *testing.B) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "big.log")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for n, i := 0, 0; n < 256<<20; i++ {
		m, _ := fmt.Fprintf(w, "2025-01-01T00:00:00Z step %d: compiling module number %d of the build\n", i, i%977)
		n += m
	}
	fmt.Fprintf(w, "%s: the last line\n", benchNeedle)
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return path
}

const benchNeedle = "NEEDLE-NEAR-THE-END"

// BenchmarkIndexLog indexes a 256 MiB log; compare its MB/s with `wc -l`.
func BenchmarkIndexLog(b *testing.B) {
	benchLogPath := benchLog(b)
	dir, name := filepath.Split(benchLogPath)
	src, err := source.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	fi, _ := os.Stat(benchLogPath)
	b.SetBytes(fi.Size())
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for b.Loop() {
		l, err := OpenLog(src, name)
		if err != nil {
			b.Fatal(err)
		}
		if err := l.Index(b.Context(), nil); err != nil {
			b.Fatal(err)
		}
		l.Close()
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapInuse)/(1<<20), "heap-MiB")
}

// BenchmarkSearchLog finds a string on the last line of an indexed 256 MiB
// log, from its first line: the whole log streamed through bytes.Index;
// compare its MB/s with `grep -c`.
func BenchmarkSearchLog(b *testing.B) {
	dir, name := filepath.Split(benchLog(b))
	src, err := source.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	l, err := OpenLog(src, name)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	if err := l.Index(b.Context(), nil); err != nil {
		b.Fatal(err)
	}
	want := l.LineCount()
	b.SetBytes(l.Size)
	b.ReportAllocs()
	for b.Loop() {
		line, err := l.Search(b.Context(), []byte(benchNeedle), 1, false, nil)
		if err != nil || line != want {
			b.Fatalf("found on line %d (%v), want %d", line, err, want)
		}
	}
}
