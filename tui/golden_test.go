package tui

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// updating reports whether -update was given. The flag may already be
// registered by x/exp/golden (teatest imports it), so it is looked up rather
// than defined twice.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files under testdata/")
	}
}

// golden compares got (ANSI stripped, trailing spaces kept) with
// testdata/<name>.golden, rewriting it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	compareGolden(t, name, filepath.Join("testdata", name+".golden"), ansi.Strip(got))
}

// compareGolden compares got with the file at path, rewriting it under
// -update.
func compareGolden(t *testing.T, name, path, got string) {
	t.Helper()
	if updating() {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading %s: %v (run with -update to create it)", path, err)
	}
	if string(want) != got {
		t.Errorf("%s differs from %s:\n--- want\n%s\n--- got\n%s", name, path, want, got)
	}
}

// checkSize asserts a view is exactly w×h cells.
func checkSize(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Fatalf("view has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Fatalf("line %d is %d cells wide, want %d: %q", i+1, got, w, ansi.Strip(l))
		}
	}
}
