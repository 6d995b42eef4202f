package rules

import (
	"regexp"
	"slices"
	"sync"
)

// ---- line rules ------------------------------------------------------------

// LineRule matches an added line. keys are lower-case literals one of which
// the lower-cased line must hold before the regexp runs: a substring search
// costs nanoseconds, a regexp far more, and almost no line holds any key.
type LineRule struct {
	ID    string // the rule in the registry
	Title string // what this pattern found, when it says more than the rule's title
	Scope Scope  // 0: every file that is not prose
	// not lists files the rule leaves to a reader that knows their
	// structure (a workflow's secrets are read by the workflow rules).
	not Scope
	// promote rates the hit as build-code-fetch in code that runs by
	// itself at install, build or test time (FileInfo.buildCode), since
	// nobody has to call it.
	Promote bool
	keys    []string
	re      matcher
}

// matcher is a *regexp.Regexp or a combination of them.
type matcher interface{ MatchString(string) bool }

// both matches when every regexp does: two small regexps run several times
// faster than one with ".*" between them, which matters when a hostile diff
// makes every line a candidate.
type both []*regexp.Regexp

func (b both) MatchString(s string) bool {
	for _, re := range b {
		if !re.MatchString(s) {
			return false
		}
	}
	return true
}

// either matches when one of its matchers does.
type either []matcher

func (e either) MatchString(s string) bool {
	for _, m := range e {
		if m.MatchString(s) {
			return true
		}
	}
	return false
}

// KeyIndex finds which rules' keys a lower-cased line holds in one pass over
// the line: an Aho-Corasick automaton, built once, that reads each byte of
// the line with one table look-up.
//
// Searching for each of the ~300 keys separately cost ~300 ms on a
// 200,000-line diff. Looking up each position's first two bytes and then
// comparing the keys that begin with them cost a tenth of that and was still
// half of the scan: ordinary words ("co", "re", "st", "in") begin keys, so
// a quarter of a line's positions walked a list of keys. The automaton's
// cost does not depend on what the line holds, so a hostile line whose every
// position begins a key costs no more than prose.
type KeyIndex struct {
	// lower and fold map a byte to its column in next: the bytes no key
	// holds share column 0. fold also sends an upper-case letter to its
	// lower-case one's column, so HasFold need not copy the line.
	lower, fold [256]uint8
	shift       uint // log2 of the columns per state
	// next[state<<shift|column] is the state after reading a byte: the
	// longest key beginning that ends there. State 0 is no beginning.
	next []uint16
	out  []uint64   // per state, the rules one of whose keys ends there
	src  [][]string // the keys the index was built from, per rule
}

// lineRules and lineKeys are built on first use: compiling the rules'
// regular expressions cost ~3 ms of every start, and nothing before the
// first screen scans for attention.
var lineKeys = sync.OnceValue(func() *KeyIndex {
	lineRules := lineRules()
	if len(lineRules) > 64 {
		panic("packet: more than 64 attention line rules; widen KeyIndex's bit sets")
	}
	keys := make([][]string, len(lineRules))
	for ri, r := range lineRules {
		keys[ri] = r.keys
	}
	return NewKeyIndex(keys)
})

// NewKeyIndex indexes keys[i], the keys of rule i (at most 64 rules, none
// of their keys empty).
func NewKeyIndex(keys [][]string) *KeyIndex {
	if len(keys) > 64 {
		panic("attention: a key index holds at most 64 rules")
	}
	x := &KeyIndex{src: keys}
	var seen [256]bool
	columns := 1
	for _, rk := range keys {
		for _, k := range rk {
			if k == "" {
				panic("attention: an empty key would match every line")
			}
			for i := 0; i < len(k); i++ {
				if !seen[k[i]] {
					seen[k[i]] = true
					// The 256th distinct byte takes column 0: no byte is
					// then left for it to stand for.
					x.lower[k[i]] = uint8(columns)
					columns++
				}
			}
		}
	}
	for 1<<x.shift < min(columns, 256) {
		x.shift++
	}
	x.fold = x.lower
	for c := 'A'; c <= 'Z'; c++ {
		x.fold[c] = x.lower[c+'a'-'A']
	}

	// The trie of the keys: next holds only real children (0: none). It has
	// a state for every distinct beginning of a key, counted first so the
	// tables are made once at their size: sorted, each key adds the bytes
	// past what it shares with the key before it.
	var sorted []string
	for _, rk := range keys {
		sorted = append(sorted, rk...)
	}
	slices.Sort(sorted)
	states, prev := 1, ""
	for _, k := range sorted {
		shared := 0
		for shared < min(len(k), len(prev)) && k[shared] == prev[shared] {
			shared++
		}
		states += len(k) - shared
		prev = k
	}
	if states > 1<<16 {
		panic("attention: a key index holds at most 65,535 beginnings of keys")
	}
	x.next = make([]uint16, states<<x.shift)
	x.out = make([]uint64, states)
	used := 1
	for ri, rk := range keys {
		for _, k := range rk {
			s := 0
			for i := 0; i < len(k); i++ {
				at := s<<x.shift | int(x.lower[k[i]])
				if x.next[at] == 0 {
					x.next[at] = uint16(used)
					used++
				}
				s = int(x.next[at])
			}
			x.out[s] |= 1 << ri
		}
	}

	// Breadth first, so a state's fallback (the longest proper suffix of
	// its beginning that begins a key) is complete before the state: a
	// missing child becomes the fallback's move, and a state holds the
	// rules of the keys that end at its fallback too.
	fail := make([]uint16, states)
	queue := make([]int, 1, states)
	for q := 0; q < len(queue); q++ {
		s := queue[q]
		if s != 0 {
			x.out[s] |= x.out[fail[s]]
		}
		row := x.next[s<<x.shift : (s+1)<<x.shift]
		for c, t := range row {
			switch {
			case t != 0:
				if s != 0 {
					fail[t] = x.next[int(fail[s])<<x.shift|c]
				}
				queue = append(queue, int(t))
			case s != 0:
				row[c] = x.next[int(fail[s])<<x.shift|c]
			}
		}
	}
	return x
}

// HasFold reports whether s holds one of the index's keys, ignoring ASCII
// case: one pass over the line, not one per key.
func (x *KeyIndex) HasFold(s string) bool {
	next, out, cols, shift := x.next, x.out, &x.fold, x.shift&63
	st := 0
	for i := 0; i < len(s); i++ {
		st = int(next[st<<shift|int(cols[s[i]])])
		if out[st] != 0 {
			return true
		}
	}
	return false
}

// Candidates returns the bit set of rules one of whose keys lower holds.
func (x *KeyIndex) Candidates(lower []byte) uint64 {
	// Locals, so the loop keeps them in registers rather than reading x
	// again for every byte.
	next, out, cols, shift := x.next, x.out, &x.lower, x.shift&63
	var set uint64
	st := 0
	for _, c := range lower {
		st = int(next[st<<shift|int(cols[c])])
		set |= out[st]
	}
	return set
}

// LineCandidates returns the line rules one of whose keys text holds and
// the rules of also's, ignoring ASCII case, as MatchCandidates and
// also.Candidates would of the lower-cased line. The two automata read the
// line side by side: each byte's step waits on the step before it in the
// same automaton, so two that share the loop take little longer than one.
func LineCandidates(text string, also *KeyIndex) (line, alsoSet uint64) {
	x := lineKeys()
	nx, ox, cx, shx := x.next, x.out, &x.fold, x.shift&63
	ny, oy, cy, shy := also.next, also.out, &also.fold, also.shift&63
	sx, sy := 0, 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		sx = int(nx[sx<<shx|int(cx[c])])
		sy = int(ny[sy<<shy|int(cy[c])])
		line |= ox[sx]
		alsoSet |= oy[sy]
	}
	return line, alsoSet
}

// MatchLine returns the first rule that matches, rules being ordered by
// severity then specificity, so one line gives one item, its most telling.
func MatchLine(sc Scope, text string, lower []byte) *LineRule {
	return MatchCandidates(sc, text, lineKeys().Candidates(lower))
}

// MatchCandidates is MatchLine for the line rules set, those whose keys
// text holds (LineCandidates).
func MatchCandidates(sc Scope, text string, set uint64) *LineRule {
	rules := lineRules()
	for i := 0; set != 0; i++ {
		if set&1 != 0 {
			r := &rules[i]
			if (r.Scope == 0 || r.Scope&sc != 0) && r.not&sc == 0 && r.re.MatchString(text) {
				return r
			}
		}
		set >>= 1
	}
	return nil
}
