package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"

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
// screen. third_party/chroma parses its ~280 lexer and ~75 style
// definitions on first use instead of there (2.7 MB and 1.9 MB allocated,
// ~20 ms, before the patch), and packet compiles its attention rules on
// first use. Allocation counts, unlike times, do not depend on the machine.
func TestStartupInitialisers(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "VETTER_INIT_ONLY=1", "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("running the test binary's initialisers: %v\n%s", err, stderr.String())
	}
	limits := map[string]int{
		"github.com/alecthomas/chroma/v2/lexers": 512 << 10,
		"github.com/alecthomas/chroma/v2/styles": 64 << 10,
		"github.com/vetter-dev/vetter/packet":    512 << 10,
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
	if total > 6<<20 {
		t.Errorf("all package initialisers allocate %d bytes, more than 6 MiB", total)
	}
}

// What the lazy registries hold once used: every embedded lexer and style,
// the lexers written in Go in place of their XML namesakes, and the
// analysers set by the package's init functions.
func TestChromaRegistriesOnFirstUse(t *testing.T) {
	if l := lexers.Match("main.go"); l == nil || l.Config().Name != "Go" {
		t.Fatalf("main.go: lexer %v, want Go", l)
	}
	if n := len(lexers.Names(false)); n < 250 {
		t.Errorf("%d lexers registered, want the ~280 embedded ones", n)
	}
	// go_html_template.xml is embedded and replaced by a delegating lexer in Go.
	if l := lexers.Get("Go HTML Template"); l == nil || l.Config().Name != "Go HTML Template" {
		t.Errorf("Go HTML Template: %v", l)
	} else if typ := fmt.Sprintf("%T", l); !strings.Contains(typ, "delegating") {
		t.Errorf("Go HTML Template is a %s, not the delegating lexer written in Go", typ)
	}
	zone := "$ORIGIN example.com.\n@ IN SOA ns1.example.com. admin.example.com. ( 1 2 3 4 5 )\n"
	if l := lexers.Analyse(zone); l == nil || l.Config().Name != "dns" {
		t.Errorf("a DNS zone file analyses as %v, want dns (its analyser is set after the embedded lexers load)", l)
	}
	if s := styles.Get("github-dark"); s == nil || s.Name != "github-dark" {
		t.Errorf("github-dark: %v", s)
	}
	// The highlighter's style comes from its own file; nothing here has
	// asked for every style yet.
	if n := len(styles.Registry); n > 10 {
		t.Errorf("getting one style registered %d", n)
	}
	if styles.Fallback == nil || styles.Fallback.Name != "swapoff" {
		t.Errorf("fallback style %v, want swapoff", styles.Fallback)
	}
	if n := len(styles.Names()); n < 60 {
		t.Errorf("%d styles registered, want the ~75 embedded ones", n)
	}
}
