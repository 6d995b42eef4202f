package prref

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles expr on first use rather than in the package's
// initialiser: every initialiser vetter links runs before its first screen,
// and most commands never parse what these expressions match.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
