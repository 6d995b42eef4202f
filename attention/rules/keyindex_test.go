package rules

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plainCandidates is the answer KeyIndex.Candidates must give, the slow way:
// every key of every rule searched for on its own.
func plainCandidates(keys [][]string, lower []byte) uint64 {
	var set uint64
	for ri, rk := range keys {
		for _, k := range rk {
			if bytes.Contains(lower, []byte(k)) {
				set |= 1 << ri
			}
		}
	}
	return set
}

// keyTables are the key sets this package indexes, and one built to be
// awkward: keys of one and two bytes, keys that are prefixes and suffixes of
// one another, named by several rules, sharing their first three bytes, with
// bytes outside ASCII and a zero byte.
func keyTables() map[string][][]string {
	return map[string][][]string{
		"line":  lineKeys().src,
		"leave": leaveKeyIndex().src,
		"send":  sendKeyIndex().src,
		"awkward": {
			{"a", "xz", "=>"},
			{"ab", "abc", "abcd", "bcd"},
			{"curl", "curl ", "url", "cur"},
			{"\x00x", "x\x00", "\xff\xfe\xfd", "é"},
			{"abc", "zz"},
			{"aaaa", "aaa"},
		},
	}
}

// checkAgainstPlain fails t when the index of keys answers lower otherwise
// than the plain search.
func checkAgainstPlain(t *testing.T, name string, x *KeyIndex, keys [][]string, lower []byte) {
	t.Helper()
	if got, want := x.Candidates(lower), plainCandidates(keys, lower); got != want {
		t.Errorf("%s: Candidates(%q) = %#x, the plain search %#x", name, lower, got, want)
	}
}

// Every key of every table, on its own, at the start, middle and end of a
// line, cut short by one byte, and run together with each neighbour, gives
// the plain search's answer: the cases where an index of beginnings goes
// wrong are keys at a line's edges and keys that overlap.
func TestKeyIndexMatchesPlainSearch(t *testing.T) {
	for name, keys := range keyTables() {
		x := NewKeyIndex(keys)
		var all []string
		for _, rk := range keys {
			all = append(all, rk...)
		}
		for i, k := range all {
			next := all[(i+1)%len(all)]
			for _, line := range []string{
				k, "  " + k, k + "  ", "x" + k + "y", k[:len(k)-1], k[1:],
				k + next, k[:len(k)-1] + next, next + k, k + k,
			} {
				checkAgainstPlain(t, name, x, keys, []byte(line))
			}
		}
		for _, line := range []string{"", "a", "ab", "abc", "\x00", "\xff"} {
			checkAgainstPlain(t, name, x, keys, []byte(line))
		}
	}
}

// Real lines (this package's own source and the tuning sets' cases) give the
// plain search's answer too, for every table.
func TestKeyIndexMatchesPlainSearchOnCorpus(t *testing.T) {
	lines := corpusLines(t)
	for name, keys := range keyTables() {
		x := NewKeyIndex(keys)
		for _, l := range lines {
			checkAgainstPlain(t, name, x, keys, l)
		}
	}
}

// corpusLines returns the lower-cased lines of this package's Go files and
// of the tuning sets' cases.
func corpusLines(tb testing.TB) [][]byte {
	tb.Helper()
	var lines [][]byte
	add := func(p string) {
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatalf("reading %s: %v", p, err)
		}
		for l := range strings.SplitSeq(string(data), "\n") {
			lines = append(lines, ASCIILower(nil, l))
		}
	}
	goFiles, _ := filepath.Glob("*.go")
	cases, _ := filepath.Glob("../../testdata/tuning/*/cases/*")
	for _, p := range append(goFiles, cases...) {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			add(p)
		}
	}
	if len(lines) < 1000 {
		tb.Fatalf("only %d corpus lines", len(lines))
	}
	return lines
}

// FuzzKeyIndex builds an index of fuzzed keys (rules split by '|', keys by
// ',') and checks its answer on a fuzzed line, and on the line with every
// table this package indexes, against the plain search.
func FuzzKeyIndex(f *testing.F) {
	f.Add("curl,wget|xz|a,ab,abc", "run: curl -s https://x | sh")
	f.Add("=>,\x00", "a => b")
	f.Add("github_token|secrets.", "echo ${{ secrets.GITHUB_TOKEN }}")
	f.Add("aaa,aaaa|aa", "aaaaaaa")
	tables := keyTables()
	indexes := map[string]*KeyIndex{}
	for name, keys := range tables {
		indexes[name] = NewKeyIndex(keys)
	}
	f.Fuzz(func(t *testing.T, spec, line string) {
		lower := []byte(line)
		for name, x := range indexes {
			checkAgainstPlain(t, name, x, tables[name], lower)
		}
		var keys [][]string
		for r := range strings.SplitSeq(spec, "|") {
			var rk []string
			for k := range strings.SplitSeq(r, ",") {
				if k != "" {
					rk = append(rk, k)
				}
			}
			keys = append(keys, rk)
		}
		if len(keys) > 64 {
			keys = keys[:64]
		}
		checkAgainstPlain(t, "fuzzed", NewKeyIndex(keys), keys, lower)
	})
}

// BenchmarkKeyIndex times the line rules' index over real lines, the work
// the scan does for every added line.
func BenchmarkKeyIndex(b *testing.B) {
	lines := corpusLines(b)
	x := lineKeys()
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, l := range lines {
			x.Candidates(l)
		}
	}
}
