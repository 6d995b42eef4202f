package rules

import (
	"regexp"
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
// the line. Searching for each of the ~200 keys separately cost ~300 ms on a
// 200,000-line diff; looking up each position's first two bytes in a table
// and comparing only the keys that start with them costs a tenth of that.
type KeyIndex struct {
	pair   [1 << 16]uint16 // first two bytes -> 1 + index into bucket; 0 when no key starts so
	bucket [][]int         // key indexes per pair
	single [256]uint64     // rules whose one-byte key is this byte
	keys   [][]byte
	rules  []uint64 // per key, the bit set of rules that name it
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

// NewKeyIndex indexes keys[i], the keys of rule i (at most 64 rules).
func NewKeyIndex(keys [][]string) *KeyIndex {
	x := &KeyIndex{}
	byKey := map[string]int{}
	for ri, rk := range keys {
		for _, k := range rk {
			if len(k) == 1 {
				x.single[k[0]] |= 1 << ri
				continue
			}
			ki, ok := byKey[k]
			if !ok {
				ki = len(x.keys)
				byKey[k] = ki
				x.keys = append(x.keys, []byte(k))
				x.rules = append(x.rules, 0)
				p := uint16(k[0])<<8 | uint16(k[1])
				if x.pair[p] == 0 {
					x.bucket = append(x.bucket, nil)
					x.pair[p] = uint16(len(x.bucket))
				}
				b := x.pair[p] - 1
				x.bucket[b] = append(x.bucket[b], ki)
			}
			x.rules[ki] |= 1 << ri
		}
	}
	return x
}

// HasFold reports whether s holds one of the index's keys, ignoring ASCII
// case: one pass over the line, not one per key.
func (x *KeyIndex) HasFold(s string) bool {
	var buf [512]byte
	return x.Candidates(ASCIILower(buf[:0], s)) != 0
}

// Candidates returns the bit set of rules one of whose keys lower holds.
func (x *KeyIndex) Candidates(lower []byte) uint64 {
	var set uint64
	for i := 0; i < len(lower); i++ {
		set |= x.single[lower[i]]
		if i+1 == len(lower) {
			break
		}
		b := x.pair[uint16(lower[i])<<8|uint16(lower[i+1])]
		if b == 0 {
			continue
		}
		rest := lower[i:]
		for _, ki := range x.bucket[b-1] {
			// The pair matched; most keys differ at their third byte, a
			// test cheaper than the call that compares the rest.
			k := x.keys[ki]
			if len(k) <= len(rest) && (len(k) == 2 || rest[2] == k[2] && string(rest[3:len(k)]) == string(k[3:])) {
				set |= x.rules[ki]
			}
		}
	}
	return set
}

// MatchLine returns the first rule that matches, rules being ordered by
// severity then specificity, so one line gives one item, its most telling.
func MatchLine(sc Scope, text string, lower []byte) *LineRule {
	set := lineKeys().Candidates(lower)
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
