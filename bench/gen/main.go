// Command gen writes a large synthetic packet for vetter's benchmarks:
//
//	go run ./bench/gen -out bench/out/big            # the scale targets' packet
//	go run ./bench/gen -out /tmp/p -log-mib 64 -files 100
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/vetter-dev/vetter/bench"
)

func main() {
	out := flag.String("out", "bench/out/big", "directory to write the packet to")
	s := bench.Big
	flag.IntVar(&s.Files, "files", s.Files, "files in change.diff")
	flag.IntVar(&s.LinesPerFile, "lines-per-file", s.LinesPerFile, "diff lines per file")
	flag.IntVar(&s.Findings, "findings", s.Findings, "findings in review.md")
	logMiB := flag.Int64("log-mib", s.LogBytes>>20, "size of the big log in MiB")
	flag.Parse()
	s.LogBytes = *logMiB << 20
	if err := bench.Generate(*out, s); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	fmt.Println(*out)
}
