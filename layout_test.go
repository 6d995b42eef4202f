package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// The README's Layout section lists every package so that imports run
// downward only: a package uses the ones below it, never one above. This
// holds the code to that list (and the list to the code: a package it does
// not name fails too).
func TestImportsRunDownTheLayout(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	start := strings.Index(s, "## Layout")
	if start < 0 {
		t.Fatal("README.md has no Layout section")
	}
	s = s[start+len("## Layout"):]
	if end := strings.Index(s, "\n## "); end >= 0 {
		s = s[:end]
	}
	// Each item names one or more packages in back-ticks before its dash.
	item := regexp.MustCompile(`^\s*- (.*?) — `)
	name := regexp.MustCompile("`([^`]+)`")
	rank := map[string]int{}
	for i, line := range strings.Split(s, "\n") {
		m := item.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, n := range name.FindAllStringSubmatch(m[1], -1) {
			p := strings.TrimSuffix(strings.TrimSuffix(n[1], "/"), "/<name>")
			if p == "main.go" {
				p = ""
			}
			if strings.HasPrefix(p, "tui/screens/") || (!strings.Contains(p, "/") && strings.HasSuffix(n[1], "/") && strings.HasPrefix(m[1], "`tui/screens")) {
				p = "tui/screens"
			}
			rank[p] = i
		}
	}
	const mod = "github.com/vetter-dev/vetter"
	of := func(path string) (int, bool) {
		rel := strings.TrimPrefix(strings.TrimPrefix(path, mod), "/")
		best, at := -1, 0
		for p, r := range rank {
			if (rel == p || (p != "" && strings.HasPrefix(rel, p+"/"))) && len(p) > best {
				best, at = len(p), r
			}
		}
		return at, best >= 0
	}
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		r, ok := of(f[0])
		if !ok {
			t.Errorf("%s is not in the README's Layout", f[0])
			continue
		}
		for _, imp := range f[1:] {
			if !strings.HasPrefix(imp, mod) {
				continue
			}
			if ri, ok := of(imp); ok && ri < r {
				t.Errorf("%s imports %s, which the Layout lists above it", f[0], imp)
			}
		}
	}
}
