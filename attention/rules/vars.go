package rules

// Variables that name where code comes from: a Dockerfile's FROM ${BASE}
// with ARG BASE=… above it, a CI job's image: $BUILD_IMAGE set under
// variables:, a compose file's ${IMAGE:-…}. The base image is decided by
// the definition, so the readers judge the value the line resolves to, as
// they judge a literal one.

import (
	"regexp"
	"strings"
	"sync"
)

var (
	varRefRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\$\{\{\s*env\.(\w+)\s*\}\}|\$\{(\w+)(?:(:?[-=?+])([^}]*))?\}|\$(\w+)`)
	})
	varDefRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(?:export\s+|local\s+|readonly\s+|-\s+)?["']?([A-Za-z_]\w*)["']?\s*(?:=|:\s+)\s*["']?([^\s"'#,]+)["']?\s*,?\s*(?:#.*)?$`)
	})
	dockerVarRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(?i:ARG|ENV)\s+([A-Za-z_]\w*)(?:=|\s+)["']?([^\s"']+)["']?\s*$`)
	})
	imageNameVarRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)image|(?:^|_)base(?:$|_)`) })
	imageValueRe   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[A-Za-z0-9][\w.-]*(?::\d+)?(?:/[\w.-]+)+(?::[\w.${}-]+)?(?:@sha256:[0-9a-f]{64})?$|^[a-z0-9][\w.-]*:[\w.${}-]+(?:@sha256:[0-9a-f]{64})?$`)
	})
)

// Expand replaces the variables in s ($X, ${X}, ${X:-default} and the other
// shell forms, ${{ env.X }}) by what value says they hold, or a default the
// reference gives; ok is false when one of them stays unknown, and is then
// left as written.
func Expand(s string, value func(name string) (string, bool)) (out string, ok bool) {
	if !strings.Contains(s, "$") {
		return s, true
	}
	ok = true
	out = varRefRe().ReplaceAllStringFunc(s, func(ref string) string {
		m := varRefRe().FindStringSubmatch(ref)
		name, def := m[1]+m[2]+m[5], m[4]
		v, known := value(name)
		switch op := m[3]; {
		case strings.HasPrefix(op, ":") && known && v == "":
			known = false
			fallthrough
		case !known && (op == ":-" || op == "-" || op == ":=" || op == "="):
			if !strings.Contains(def, "$") {
				return def
			}
		}
		if !known {
			ok = false
			return ref
		}
		return v
	})
	return out, ok
}

// VarDef reads a line that gives a variable a single value: a Dockerfile's
// ARG or ENV, a YAML key (a CI file's variables:, a compose service's
// build args), a list entry NAME=value, a shell assignment.
func VarDef(line string, dockerfile bool) (name, value string, ok bool) {
	re := varDefRe()
	if dockerfile {
		re = dockerVarRe()
	}
	m := re.FindStringSubmatch(line)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// ImageVar reports a definition whose value is an image reference and whose
// name says it holds one (BASE_IMAGE, BUILDER_IMAGE, BASE) — the build
// argument a compose file or a CI job hands to FROM ${…}.
func ImageVar(name, value string) bool {
	return imageNameVarRe().MatchString(name) && ImageRef(value)
}

// ImageRef reports a value shaped as a container image reference with a
// registry or owner or tag (owner/name, host/owner/name:tag, name:tag).
func ImageRef(value string) bool {
	return !strings.Contains(value, "://") && imageValueRe().MatchString(value)
}

// VarValue is the value the lines of a file (by number) give the variable
// name: the nearest definition above line n, or else the nearest below it
// (a CI file's variables: may follow its jobs); and the definition's line,
// 0 for none.
func VarValue(name string, n int, lines map[int]string, dockerfile bool) (string, int) {
	val, at := "", 0
	for k, t := range lines {
		if k == n || !strings.Contains(t, name) {
			continue
		}
		if nm, v, ok := VarDef(t, dockerfile); ok && nm == name {
			if at == 0 || k < n && (at > n || k > at) || k > n && at > n && k < at {
				val, at = v, k
			}
		}
	}
	return val, at
}
