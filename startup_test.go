package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"runtime/debug"
	"strconv"
	"testing"

	"github.com/vetter-dev/vetter/internal/testenv"
)

// TestMain lets TestStartupInitialisers run this test binary only for its
// package initialisers: with VETTER_INIT_ONLY set it exits before any test.
func TestMain(m *testing.M) {
	if os.Getenv("VETTER_INIT_ONLY") != "" {
		os.Exit(0)
	}
	cleanup := testenv.IsolateState()
	code := m.Run()
	cleanup()
	os.Exit(code)
}

var initLine = regexp.MustCompile(`^init (\S+) @[0-9.]+ ms, [0-9.]+ ms clock, (\d+) bytes, (\d+) allocs`)

// The package initialisers of everything vetter links run before its first
// screen. packet compiles its attention rules on first use rather than there.
// Chroma, which Glamour links, parses its ~280 lexer and ~75 style
// definitions in its initialisers (about 4.5 MB allocated); that is the
// released module's cost, taken so that vetter installs with go install, and
// the total's limit leaves room for it and little more. Allocation counts,
// unlike times, do not depend on the machine.
func TestStartupInitialisers(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "VETTER_INIT_ONLY=1", "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("running the test binary's initialisers: %v\n%s", err, stderr.String())
	}
	limits := map[string]int{
		"github.com/vetter-dev/vetter/packet": 512 << 10,
	}
	total, seen := 0, 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		m := initLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		total += n
		if limit, ok := limits[m[1]]; ok {
			seen++
			if n > limit {
				t.Errorf("%s's initialisers allocate %d bytes, more than %d", m[1], n, limit)
			}
		}
	}
	if seen != len(limits) {
		t.Fatalf("inittrace named %d of the %d packages watched:\n%s", seen, len(limits), stderr.String())
	}
	// The race detector's runtime allocates its own shadow state in every
	// initialiser (about a fifth more here); the budget is for the binary
	// people run, so a race build gets that much more room and no more.
	limit := 9 << 20
	if raceBuild() {
		limit = limit * 5 / 4
	}
	t.Logf("all package initialisers allocate %d bytes (limit %d)", total, limit)
	if total > limit {
		t.Errorf("all package initialisers allocate %d bytes, more than %d", total, limit)
	}
}

// raceBuild says whether this test binary was built with -race.
func raceBuild() bool {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range info.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}
