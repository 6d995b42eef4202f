package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plainCandidates is the answer KeyIndex.Candidates must give, the slow way:
// every key of every rule searched for on its own.
func plainCandidates(keys [][]string, lower string) uint64 {
	var set uint64
	for ri, rk := range keys {
		for _, k := range rk {
			if strings.Contains(lower, k) {
				set |= 1 << ri
			}
		}
	}
	return set
}

// indexed is a table of keys and its index.
type indexed struct {
	name string
	keys [][]string
	x    *KeyIndex
}

// keyTables are the key sets this package indexes, and one built to be
// awkward: keys of one and two bytes, keys that are prefixes and suffixes of
// one another, named by several rules, sharing their first bytes, with
// bytes outside ASCII, a zero byte and an upper-case letter (which a
// lower-cased line never holds).
func keyTables() []indexed {
	awkward := [][]string{
		{"a", "xz", "=>"},
		{"ab", "abc", "abcd", "bcd"},
		{"curl", "curl ", "url", "cur"},
		{"\x00x", "x\x00", "\xff\xfe\xfd", "é", "Up"},
		{"abc", "zz"},
		{"aaaa", "aaa"},
	}
	return []indexed{
		{"line", lineKeys().src, lineKeys()},
		{"leave", leaveKeyIndex().src, leaveKeyIndex()},
		{"send", sendKeyIndex().src, sendKeyIndex()},
		{"awkward", awkward, NewKeyIndex(awkward)},
	}
}

// checkAgainstPlain fails t when an index answers line otherwise than the
// plain search of the lower-cased line does, in any of the ways it is
// asked: of a lower-cased line, whether a line of either case holds a key,
// and beside the line rules' index.
func checkAgainstPlain(t *testing.T, line string, tables ...indexed) {
	t.Helper()
	lower := ASCIILower(nil, line)
	wantLine := plainCandidates(lineKeys().src, string(lower))
	for _, in := range tables {
		want := plainCandidates(in.keys, string(lower))
		if got := in.x.Candidates(lower); got != want {
			t.Errorf("%s: Candidates(%q) = %#x, the plain search %#x", in.name, lower, got, want)
		}
		if got := in.x.HasFold(line); got != (want != 0) {
			t.Errorf("%s: HasFold(%q) = %v, the plain search %#x", in.name, line, got, want)
		}
		if gotLine, got := LineCandidates(line, in.x); gotLine != wantLine || got != want {
			t.Errorf("%s: LineCandidates(%q) = %#x, %#x, the plain search %#x, %#x", in.name, line, gotLine, got, wantLine, want)
		}
	}
}

// Every key of every table, on its own, at the start, middle and end of a
// line, cut short by one byte, run together with the next key, and in upper
// case, gives the plain search's answer: the cases where an automaton goes
// wrong are keys at a line's edges and keys that overlap.
func TestKeyIndexMatchesPlainSearch(t *testing.T) {
	tables := keyTables()
	for _, in := range tables {
		var all []string
		for _, rk := range in.keys {
			all = append(all, rk...)
		}
		for i, k := range all {
			next := all[(i+1)%len(all)]
			for _, line := range []string{
				k, "  " + k, k + "  ", "x" + k + "y", k[:len(k)-1], k[1:],
				k + next, k[:len(k)-1] + next, next + k, k + k,
				strings.ToUpper(k), "X" + strings.ToUpper(k[:len(k)/2]) + k[len(k)/2:],
			} {
				checkAgainstPlain(t, line, tables...)
			}
		}
	}
	for _, line := range []string{"", "a", "ab", "abc", "\x00", "\xff", "A", "=>", "XZ", "UP", "up"} {
		checkAgainstPlain(t, line, tables...)
	}
}

// Real lines (this package's own source and the tuning sets' cases) give the
// plain search's answer too, for every table.
func TestKeyIndexMatchesPlainSearchOnCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("the plain search of every key over every line takes seconds, many under the race detector")
	}
	tables := keyTables()
	for _, l := range corpusLines(t) {
		checkAgainstPlain(t, l, tables...)
	}
}

// corpusLines returns the distinct lines of this package's Go files and of
// the tuning sets' cases.
func corpusLines(tb testing.TB) []string {
	tb.Helper()
	var lines []string
	seen := map[string]bool{}
	add := func(p string) {
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatalf("reading %s: %v", p, err)
		}
		for l := range strings.SplitSeq(string(data), "\n") {
			if !seen[l] {
				seen[l] = true
				lines = append(lines, l)
			}
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
// ',') and checks its answer on a fuzzed line, and every table's, against
// the plain search.
func FuzzKeyIndex(f *testing.F) {
	f.Add("curl,wget|xz|a,ab,abc", "run: curl -s https://x | sh")
	f.Add("=>,\x00", "a => b")
	f.Add("github_token|secrets.", "echo ${{ secrets.GITHUB_TOKEN }}")
	f.Add("aaa,aaaa|aa", "aaaaaaa")
	tables := keyTables()
	f.Fuzz(func(t *testing.T, spec, line string) {
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
		checkAgainstPlain(t, line, append(tables, indexed{"fuzzed", keys, NewKeyIndex(keys)})...)
	})
}

// BenchmarkKeyIndex times the line rules' index over real lines, the work
// the scan does for every added line.
func BenchmarkKeyIndex(b *testing.B) {
	var lines [][]byte
	n := 0
	for _, l := range corpusLines(b) {
		lines = append(lines, ASCIILower(nil, l))
		n += len(l)
	}
	x := lineKeys()
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, l := range lines {
			x.Candidates(l)
		}
	}
}
