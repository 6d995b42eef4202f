// Package bench generates large synthetic packets for vetter's benchmarks.
// Nothing it writes is committed: the scripts under bench/ call it.
package bench

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// Spec sizes a generated packet.
type Spec struct {
	Files        int   // files in change.diff
	LinesPerFile int   // diff lines per file (context, added, removed)
	Findings     int   // rows in review.md's findings table
	LogBytes     int64 // size of the big log
}

// Big is the packet of the scale targets: a 1,000-file, 200,000-line diff,
// 2,000 findings and a 1 GiB log of about ten million lines.
var Big = Spec{Files: 1000, LinesPerFile: 200, Findings: 2000, LogBytes: 1 << 30}

// BigLogName is the packet-relative path of the big log.
const BigLogName = "validation/logs/2026-01-01T00-00-00.000Z-bash-big0.log"

// Generate writes a packet of the given size under dir.
func Generate(dir string, s Spec) error {
	if err := os.MkdirAll(filepath.Join(dir, "validation", "logs"), 0o755); err != nil {
		return err
	}
	files := map[string]string{
		"plan.md": "# Plan — BENCH-1: synthetic packet for benchmarks\n\nRoute: implementation\nTemplate: bench\nEngine: none\n\n" +
			"## Validation strategy\n\n```validation-recipes\n01-unit\n02-big-log\n```\n",
		"change.md":            "# Change — BENCH-1\n\n## Commit\n\nBranch `bench/big`, branched from `main` at `" + sha(1) + "`.\n\n**`" + sha(2) + "`** — bench: a sweeping synthetic change\n\nPR URL: https://example.invalid/pull/1\n",
		"change-validation.md": "# Validation — BENCH-1\n\n## Investigation outcome:\n\nSynthetic.\n\n## Verdict: pass — synthetic packet for benchmarks\n",
		"validation/logs/2026-01-01T00-00-00.000Z-bash-unit.log": "ok  \tbench\t0.01s\n[exit 0 after 0.1 s]\n",
		"validation/registry.jsonl": `{"seq":1,"recipe":"01-unit","status":"validated","command":"go test ./...","log":"validation/logs/2026-01-01T00-00-00.000Z-bash-unit.log","exit_code":0,"duration_ms":100}` + "\n" +
			`{"seq":2,"recipe":"02-big-log","status":"validated","command":"make verbose-test","log":"` + BigLogName + `","exit_code":0,"duration_ms":12300}` + "\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(text), 0o644); err != nil {
			return err
		}
	}
	if err := writeDiff(filepath.Join(dir, "change.diff"), s); err != nil {
		return err
	}
	if err := writeReview(filepath.Join(dir, "review.md"), s); err != nil {
		return err
	}
	return writeLog(filepath.Join(dir, filepath.FromSlash(BigLogName)), s.LogBytes)
}

func sha(n int) string { return fmt.Sprintf("%040x", n*0x9e3779b1) }

func diffPath(i int) string {
	return fmt.Sprintf("pkg/mod%03d/file%04d.go", i%97, i)
}

// writeDiff writes Files files, each one hunk of LinesPerFile lines: a
// quarter removed, a quarter added, the rest context.
func writeDiff(name string, s Spec) error {
	return writeBuffered(name, 1<<20, func(w *bufio.Writer) error {
		for i := 0; i < s.Files; i++ {
			p := diffPath(i)
			n := s.LinesPerFile
			removed, added := n/4, n/4
			ctx := n - removed - added
			fmt.Fprintf(w, "diff --git a/%s b/%s\nindex %07x..%07x 100644\n--- a/%s\n+++ b/%s\n", p, p, i, i+1, p, p)
			fmt.Fprintf(w, "@@ -1,%d +1,%d @@ func f%d() {\n", ctx+removed, ctx+added, i)
			for j := 0; j < n; j++ {
				switch {
				case j%4 == 1:
					fmt.Fprintf(w, "-\told := compute(%d, %d) // previous behaviour\n", i, j)
				case j%4 == 2:
					fmt.Fprintf(w, "+\tnew := compute(%d, %d) + offset // adjusted\n", i, j)
				default:
					fmt.Fprintf(w, " \tx%d := value(%d)\n", j, i)
				}
			}
		}
		return nil
	})
}

func writeReview(name string, s Spec) error {
	return writeBuffered(name, 1<<20, func(w *bufio.Writer) error {
		fmt.Fprintf(w, "# Review — BENCH-1\n\n## Assessment: needs_changes\n\n## Findings\n\n| # | file:line | Severity | Claim | Evidence |\n|---|---|---|---|---|\n")
		sev := []string{"blocker", "major", "minor", "nit"}
		for i := 1; i <= s.Findings; i++ {
			fi := (i * 7) % max(s.Files, 1)
			// New-side line 3 of every file is an added line (j=2).
			fmt.Fprintf(w, "| %d | `%s:3` | %s | Finding %d: the adjusted value ignores `offset` overflow in a loop that runs per request. | `%s:3` adds `+ offset`; see `change-validation.md:5`. |\n",
				i, diffPath(fi), sev[i%4], i, diffPath(fi))
		}
		return nil
	})
}

// writeLog writes a log of about size bytes in lines of ~100 bytes, with an
// error line every 100,000 lines and the recorder's exit line at the end.
func writeLog(name string, size int64) error {
	return writeBuffered(name, 4<<20, func(w *bufio.Writer) error {
		var written int64
		line := make([]byte, 0, 256)
		for i := 1; written < size; i++ {
			line = line[:0]
			line = append(line, "2026-01-01T00:00:00.000Z "...)
			if i%100000 == 0 {
				line = append(line, "ERROR test case "...)
			} else {
				line = append(line, "INFO  test case "...)
			}
			line = strconv.AppendInt(line, int64(i), 10)
			line = append(line, " step ok: the quick brown fox jumps over the lazy dog 0123456789\n"...)
			n, err := w.Write(line)
			if err != nil {
				return err
			}
			written += int64(n)
		}
		w.WriteString("NEEDLE-NEAR-THE-END final summary: all cases ran\n[exit 0 after 12.3 s]\n")
		return nil
	})
}

// writeBuffered creates name and fills it through a buffer of size bytes;
// the file is closed whatever happens.
func writeBuffered(name string, size int, fill func(w *bufio.Writer) error) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, size)
	if err := fill(w); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
