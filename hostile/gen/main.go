// Command gen writes the hostile packets of package hostile.
//
//	go run ./hostile/gen -out testdata/hostile          # the committed classes
//	go run ./hostile/gen -out /tmp/hostile -large        # and every generated one
//
// The committed classes (escape, hidden, malformed) are small and portable;
// -large adds the ones tests build at test time and never commit: the
// outside class (symbolic links, a pipe), the escaping archives, the bombs
// and the oversized packets, about 90 MiB on disk in all.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/vetter-dev/vetter/hostile"
)

func main() {
	out := flag.String("out", "", "folder to write the packets into (one folder or archive each)")
	large := flag.Bool("large", false, "also write the generated classes: outside, archives, bombs, oversized packets")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "gen: -out DIR is required")
		os.Exit(2)
	}
	if err := run(*out, *large); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out string, large bool) error {
	classes := hostile.Committed()
	names := make([]string, 0, len(classes))
	for n := range classes {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		dir := filepath.Join(out, n)
		// Start clean so a file dropped from the generator leaves the copy.
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
		if err := classes[n].Write(dir); err != nil {
			return err
		}
		fmt.Println("wrote", dir)
	}
	if !large {
		return nil
	}
	steps := []struct {
		name  string
		write func(string) error
	}{
		{"outside", func(p string) error { _, err := hostile.WriteOutside(p); return err }},
		{"escaping.zip", hostile.WriteEscapingZip},
		{"escaping.tar", func(p string) error { return hostile.WriteEscapingTar(p, false) }},
		{"escaping.tgz", func(p string) error { return hostile.WriteEscapingTar(p, true) }},
		{"bomb.zip", func(p string) error { return hostile.WriteZipBomb(p, hostile.BombSize, 1) }},
		{"bombs.zip", func(p string) error { return hostile.WriteZipBomb(p, hostile.BombSize, 8) }},
		{"bomb.tgz", func(p string) error { return hostile.WriteTgzBomb(p, hostile.BombSize) }},
		{"many-entries.zip", func(p string) error { return hostile.WriteManyEntries(p, hostile.ManyEntries, false) }},
		{"many-entries.tar", func(p string) error { return hostile.WriteManyEntries(p, hostile.ManyEntries, true) }},
		{"long-log-line", func(p string) error { return hostile.WriteLongLogLine(p, hostile.LongLogLine) }},
		{"long-diff-line", func(p string) error { return hostile.WriteLongDiffLine(p, hostile.LongDiffLine) }},
		{"many-findings", func(p string) error { return hostile.WriteManyFindings(p, hostile.ManyFindings) }},
		{"long-registry-line", func(p string) error { return hostile.WriteLongRegistryLine(p, hostile.LongRegistryLine) }},
	}
	for _, s := range steps {
		p := filepath.Join(out, s.name)
		if err := os.RemoveAll(p); err != nil {
			return err
		}
		if err := s.write(p); err != nil {
			return fmt.Errorf("writing %s: %w", p, err)
		}
		fmt.Println("wrote", p)
	}
	return nil
}
