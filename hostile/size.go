package hostile

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Sizes of the size class: each past what vetter may read whole, so a test
// proves it streams, caps or refuses (docs/security.md, promise 4).
const (
	BombSize         = 4 << 30 // the zip bomb's expanded log
	ManyEntries      = 100_000
	LongLogLine      = 64 << 20 // one line, no newline inside
	LongDiffLine     = 300_000  // characters on one added line
	ManyFindings     = 20_000
	LongRegistryLine = 2 << 20 // bytes of one registry line
)

// HugeLog is the packet-relative name of the long-line log.
const HugeLog = "validation/logs/huge-line.log"

// WriteLongLogLine writes the base packet with a third run whose log is one
// line of size bytes (a minified bundle printed by a build, say) with a few
// escape sequences along it, then the recorder's exit line.
func WriteLongLogLine(dir string, size int) error {
	f := Base()
	f["validation/registry.jsonl"] += `{"seq": 3, "recipe": "03-bundle", "status": "validated", "log": "` + HugeLog + `", "exit_code": 0}` + "\n"
	if err := f.Write(dir); err != nil {
		return err
	}
	out, err := os.Create(filepath.Join(dir, filepath.FromSlash(HugeLog)))
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(out, 1<<20)
	piece := "var a=function(){return 1};\x1b]0;" + TitleCanary + "-HUGE\x07\x1b[2J"
	for n := 0; n < size; n += len(piece) {
		w.WriteString(piece[:min(len(piece), size-n)])
	}
	w.WriteString("\n[exit 0 after 3.0 s]\n")
	if err := w.Flush(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// WriteLongDiffLine writes the base packet whose diff adds one line of n
// characters (a generated table, say), escapes sprinkled along it.
func WriteLongDiffLine(dir string, n int) error {
	var b strings.Builder
	piece := "0x1f, 0x2e, \x1b[2J\u202E"
	for b.Len() < n {
		b.WriteString(piece)
	}
	s := slots{diffLine: "\tvar table = []byte{" + b.String()[:n] + "}"}
	return build(s).Write(dir)
}

// WriteManyFindings writes the base packet whose review has n findings.
func WriteManyFindings(dir string, n int) error {
	f := Base()
	var b strings.Builder
	b.WriteString("# Review — " + WorkItem + "\n\n## Assessment: needs_changes\n\nMany findings.\n\n## Findings\n\n")
	b.WriteString("| # | file:line | Severity | Claim | Evidence |\n|---|---|---|---|---|\n")
	sev := []string{"blocker", "major", "minor", "nit"}
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "| %d | `%s:%d` | %s | Claim %d \x1b[2J about the cap. | `%s:2` |\n", i, CodeFile, 10+i%5, sev[i%4], i, UnitLog)
	}
	f["review.md"] = b.String()
	return f.Write(dir)
}

// WriteLongRegistryLine writes the base packet whose first run's note is
// n bytes long, so the line holding it is about n bytes.
func WriteLongRegistryLine(dir string, n int) error {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(`note \u001b]0;` + TitleCanary + `-REG\u0007 `)
	}
	s := slots{regNote: " " + b.String()}
	return build(s).Write(dir)
}
