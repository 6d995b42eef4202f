//go:build unix

// Command loadtime loads a packet once, as `vetter check` does, and prints how
// long it took and the process's peak resident memory, for bench/load.sh:
//
//	go run ./bench/loadtime /tmp/vetter-bench-big
//	elapsed_ms=312.4 maxrss_kib=61234 logs=2 log_bytes=1073741954 findings=2000 problems=0
//
// -defer loads without indexing the logs (the screens' path).
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"syscall"
	"time"

	"github.com/vetter-dev/vetter/packet"
)

func main() {
	deferIndex := flag.Bool("defer", false, "leave the logs unindexed, as the screens do")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: loadtime [-defer] <packet>")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	start := time.Now()
	p, err := packet.Load(flag.Arg(0), packet.Options{DeferLogIndex: *deferIndex})
	elapsed := time.Since(start)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtime:", err)
		os.Exit(1)
	}
	var logBytes int64
	for _, l := range p.Logs {
		logBytes += l.Size
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		fmt.Fprintln(os.Stderr, "loadtime: reading resource usage:", err)
		os.Exit(1)
	}
	// Linux and the BSDs report ru_maxrss in KiB, macOS in bytes.
	maxrss := int64(ru.Maxrss)
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		maxrss >>= 10
	}
	fmt.Printf("elapsed_ms=%.1f maxrss_kib=%d logs=%d log_bytes=%d findings=%d problems=%d\n",
		float64(elapsed.Microseconds())/1000, maxrss, len(p.Logs), logBytes, len(p.Findings), len(p.Problems))
	p.Close()
}
