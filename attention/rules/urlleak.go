package rules

// The environment sent in a request's address. A GET carries no body, yet
// everything in its URL (a query string, a path) reaches the host: a name
// that holds the environment, or an encoding of it, placed in the request
// that reaches the network sends it as surely as a POST would. The reader
// follows the names the environment is bound to, what is computed from
// them, and the parameter of a function it is handed to
// (report(dict(os.environ)) … def report(values): … urlencode(values)).

import (
	"regexp"
	"strings"
	"sync"
)

var (
	// report(x), self._report(x), this.report(x): the callee and its first argument.
	callArgRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|[^\w.])(?:(?:self|this|cls|@)\.?)?([A-Za-z_]\w*)\(\s*([^,()]*(?:\([^()]*\)[^,()]*)*)`)
	})
	// def name(self, values), function name(values), name = (values) =>,
	// func name(values map[string]string), def name(values) in Ruby.
	paramDeclRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:\bdef|\bfunction|\bfunc|\bfn)\s+(?:self\.)?([A-Za-z_]\w*)\s*\(\s*(?:(?:self|cls)\s*,\s*)?\*{0,2}([A-Za-z_]\w*)|\b([A-Za-z_]\w*)\s*[=:]\s*(?:async\s+)?\(\s*([A-Za-z_]\w*)[^)]*\)\s*=>`)
	})
)

// envCarriers returns the names in a unit that hold the environment or a
// value computed from it, each with the line that read the environment.
func envCarriers(unit []UnitLine, bulk *regexp.Regexp, child *regexp.Regexp) map[string]int {
	held := map[string]int{}
	params := map[string]int{} // function name -> the line whose environment it is handed
	holds := func(s string) int {
		// { ...process.env } is the environment spread, not { env } handed on.
		if bulk.MatchString(s) && !child.MatchString(strings.ReplaceAll(s, "process.env", "process_env")) {
			return -1
		}
		for name, n := range held {
			if wordIn(s, name) {
				return n
			}
		}
		return 0
	}
	for pass := 0; pass < 2; pass++ {
		for _, l := range unit {
			at := holds(l.Text)
			if at == 0 {
				continue
			}
			if at < 0 {
				at = l.N
			}
			if m := leaveRe().envName.FindStringSubmatch(l.Text); m != nil && !picksOne(l.Text, held) {
				if _, ok := held[m[1]]; !ok {
					held[m[1]] = at
				}
			}
			for _, c := range callArgRe().FindAllStringSubmatch(l.Text, -1) {
				if holds(c[2]) != 0 {
					params[c[1]] = at
				}
			}
		}
		for _, l := range unit {
			m := paramDeclRe().FindStringSubmatch(l.Text)
			if m == nil {
				continue
			}
			fn, p := m[1]+m[3], m[2]+m[4]
			if at, ok := params[fn]; ok && p != "" {
				if _, seen := held[p]; !seen {
					held[p] = at
				}
			}
		}
	}
	return held
}

// urlCarriesEnv reports whether a request's statement places a name that
// holds the environment (or the environment itself) in what it sends, and
// the line that read it; 0 when it does not.
func urlCarriesEnv(stmt string, held map[string]int) int {
	if !strings.Contains(stmt, "://") && !strings.Contains(stmt, "?") {
		return 0
	}
	// A credential in the request's own authentication goes where it is
	// for: the single-secret reading judges that.
	stmt = leaveRe().authPart.ReplaceAllString(stmt, "")
	for name, n := range held {
		if wordIn(stmt, name) && !picksOne(stmt, map[string]int{name: n}) {
			return n
		}
	}
	return 0
}

var pickRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([A-Za-z_]\w*)\s*(?:\.get\(|\[\s*["']|\.fetch\(|\.getenv\(|\.Getenv\()`)
})

// picksOne reports a line that takes one value out of a name holding the
// environment (env.get("TOKEN"), env["HOME"]): one variable, rated by
// where it goes, not the whole environment.
func picksOne(s string, held map[string]int) bool {
	for _, m := range pickRe().FindAllStringSubmatch(s, -1) {
		if _, ok := held[m[1]]; ok {
			return true
		}
	}
	return false
}

// PicksOnly reports whether every name in s that holds the environment
// (isEnv) is only indexed for one value (env.get("HOME"), env["TOKEN"]):
// what s computes is that one value, not the whole environment.
func PicksOnly(s string, isEnv func(string) bool) bool {
	picked := false
	for _, ix := range identRe().FindAllStringIndex(s, -1) {
		name := s[ix[0]:ix[1]]
		if (ix[0] > 0 && s[ix[0]-1] == '.') || !isEnv(name) {
			continue
		}
		m := pickRe().FindStringSubmatchIndex(s[ix[0]:])
		if m == nil || m[0] != 0 || m[3] != ix[1]-ix[0] {
			return false
		}
		picked = true
	}
	return picked
}

var identRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z_]\w*`) })
