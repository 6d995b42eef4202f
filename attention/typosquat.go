package attention

// Typosquats: a new dependency named a letter or two away from a package
// nearly every project installs (rules.SquatOf) is rated by where it is added.

import (
	"regexp"
	"strings"
	"sync"

	"github.com/vetter-dev/vetter/attention/provenance"
	"github.com/vetter-dev/vetter/attention/rules"
)

var depLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*"(@?[\w.-]+(?:/[\w.-]+)?)"\s*:\s*"([^"]*)"`)
})

var reqLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*["']?([A-Za-z0-9][\w.-]*)\s*(?:\[[^\]]*\])?\s*(?:[<>=!~;@,"']|$)`)
})

var (
	crateLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*([A-Za-z0-9][\w-]*)\s*=|^\s*\[(?:[\w.'"-]*\.)?(?:dev-|build-)?dependencies\.([\w-]+)\]`)
	})
	crateSection = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*\[(?:[\w.'"()-]*\.)?(?:dev-|build-)?dependencies\]`)
	})
	cratePackage = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bpackage\s*=\s*["']([\w-]+)["']`) })
	mavenGroup   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`<groupId>\s*([\w.-]+)\s*</groupId>|["']([a-z][\w-]*(?:\.[\w-]+)+):[\w.-]+(?::[^"':]*)?["']|\bgroup\s*[:=]\s*["']([\w.-]+)["']`)
	})
)

// typosquats rates the dependencies a change adds by their names.
func (fs *fileScan) typosquats(ecosystem string) {
	if fs.added == nil {
		fs.index()
	}
	for n := range fs.added {
		s := fs.text[n]
		var name string
		switch ecosystem {
		case "npm":
			m := depLine().FindStringSubmatch(s)
			if m == nil || !fs.inDependencyBlock(n) {
				continue
			}
			name = m[1]
			if target, ok := strings.CutPrefix(m[2], "npm:"); ok {
				// An alias installs target under the name.
				if at := strings.LastIndexByte(target, '@'); at > 0 {
					target = target[:at]
				}
				if rules.SquatOf(target, "npm") == "" && rules.RenameImitates(name, target, "npm") {
					fs.report(n, hit{id: "source-switched", title: "installs " + target + " under the name " + name + " (an npm alias)"})
					continue
				}
				name = target
			}
		case "pypi":
			t := strings.TrimSpace(s)
			if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "-") || strings.Contains(t, "=") && !strings.ContainsAny(t, "<>!~") && !strings.Contains(t, "==") {
				continue
			}
			m := reqLine().FindStringSubmatch(s)
			if m == nil {
				continue
			}
			name = m[1]
		case "cargo":
			m := crateLine().FindStringSubmatch(s)
			if m == nil || m[1] != "" && !fs.underSection(n, crateSection()) {
				continue
			}
			name = m[1] + m[2]
			if r := cratePackage().FindStringSubmatch(s); r != nil && m[1] != "" {
				// A crate used under another name: the code is r[1]'s.
				if rules.SquatOf(r[1], "cargo") == "" && (rules.RenameImitates(name, r[1], "cargo") || fs.declaredPlain(n, name)) {
					fs.report(n, hit{id: "source-switched", title: "builds the crate " + r[1] + " under the name " + name})
					continue
				}
				name = r[1]
			}
		case "maven":
			m := mavenGroup().FindStringSubmatch(s)
			if m == nil {
				continue
			}
			name = m[1] + m[2] + m[3]
		case "pyproject":
			// A requirement in a dependencies array (PEP 621, optional
			// dependencies, dependency groups), or a key of Poetry's or
			// Pipenv's dependency tables.
			if m := pyArrayEntry().FindStringSubmatch(s); m != nil && fs.inDependencyArray(n) {
				name = m[1]
			} else if m := pyArrayKey().FindStringSubmatch(s); m != nil && fs.inDependencyArray(n+1) {
				// An array on one line: each of its requirements.
				for _, e := range pyInlineEntry().FindAllStringSubmatch(s[len(m[0]):], -1) {
					if k := rules.SquatOf(e[1], "pypi"); k != "" {
						fs.report(n, hit{id: "lookalike-source", title: "adds the package " + e[1] + ", a look-alike of " + k})
					}
				}
				continue
			} else if m := crateLine().FindStringSubmatch(s); m != nil && m[1] != "" && m[1] != "python" && fs.underSection(n, pyDepSection()) {
				name = m[1]
			} else {
				continue
			}
		}
		eco := ecosystem
		if eco == "pyproject" {
			eco = "pypi"
		}
		if k := rules.SquatOf(name, eco); k != "" {
			fs.report(n, hit{id: "lookalike-source", title: "adds the package " + name + ", a look-alike of " + k})
		}
	}
}

// inDependencyBlock reports a package.json line inside one of the blocks
// that name packages to install.
func (fs *fileScan) inDependencyBlock(n int) bool { return fs.inJSONBlock(n, depBlock) }

// inJSONBlock reports a line of a JSON object whose key is one block
// accepts, the nearest opening key above it that the diff shows.
func (fs *fileScan) inJSONBlock(n int, block func(string) bool) bool {
	depth := 0 // objects closed above the line, between it and its own
	for k := n - 1; k > 0 && k >= n-200; k-- {
		t, ok := fs.text[k]
		if !ok {
			return false
		}
		net := strings.Count(t, "{") - strings.Count(t, "}")
		switch {
		case net < 0:
			depth -= net
		case net > 0 && depth >= net:
			depth -= net
		case net > 0:
			i := strings.LastIndex(t, ":")
			if i < 0 || !strings.HasSuffix(strings.TrimSpace(t), "{") {
				return false
			}
			return block(strings.Trim(strings.TrimSpace(t[:i]), `"`))
		}
	}
	return false
}

var (
	pyArrayEntry = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*["']([A-Za-z0-9][\w.-]*)\s*(?:\[[^\]]*\])?\s*(?:[<>=!~;@,\s]|["'])`)
	})
	pyInlineEntry = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`["']([A-Za-z0-9][\w.-]*)`) })
	pyArrayKey    = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*["']?([\w.-]+)["']?\s*=\s*\[`)
	})
	pyDepSection = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*\[(?:tool\.poetry\.(?:group\.[\w-]+\.)?(?:dev-)?dependencies|packages|dev-packages)\]`)
	})
	pyGroupSection = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*\[(?:project\.optional-dependencies|dependency-groups|tool\.uv)\]`)
	})
)

// inDependencyArray reports a line inside a TOML array of requirements:
// dependencies = [ or requires = [, or any array of the optional
// dependencies' or dependency groups' tables.
func (fs *fileScan) inDependencyArray(n int) bool {
	for k := n - 1; k > 0 && k >= n-200; k-- {
		t, ok := fs.text[k]
		if !ok || strings.Contains(t, "]") && !strings.Contains(t, "[") {
			return false
		}
		if m := pyArrayKey().FindStringSubmatch(t); m != nil {
			switch m[1] {
			case "dependencies", "requires", "dev-dependencies", "build-requires":
				return true
			}
			return fs.underSection(k, pyGroupSection())
		}
	}
	return false
}

// underSection reports a line of a TOML table that header matches: the
// nearest table header above it, within what the diff shows.
func (fs *fileScan) underSection(n int, header *regexp.Regexp) bool {
	for k := n - 1; k > 0; k-- {
		t, ok := fs.text[k]
		if !ok {
			return false
		}
		if strings.HasPrefix(strings.TrimSpace(t), "[") {
			return header.MatchString(t)
		}
	}
	return false
}

// declaredPlain reports a removed line of the hunk that declared the crate
// name with no package = of its own: the name now stands for another crate.
func (fs *fileScan) declaredPlain(n int, name string) bool {
	for _, old := range fs.removedNear(n) {
		if m := crateLine().FindStringSubmatch(old); m != nil && m[1] == name && !cratePackage().MatchString(old) {
			return true
		}
	}
	return false
}

var importEntry = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*"([^"]+)"\s*:\s*"(https?://[^"]+)"`) })

// importMap rates a Deno or browser import map's entries: a name mapped to
// a URL loads that URL's code wherever the name is imported, as a
// dependency given by URL does. Deno's and JSR's registries and the npm
// CDNs serve modules at versioned paths and are not a place of their own.
func (fs *fileScan) importMap() {
	if fs.added == nil {
		fs.index()
	}
	for n := range fs.added {
		m := importEntry().FindStringSubmatch(fs.text[n])
		if m == nil || !fs.inJSONBlock(n, func(k string) bool {
			return k == "imports" || k == "scopes" || strings.HasPrefix(k, "http") || strings.HasPrefix(k, "/")
		}) {
			continue
		}
		h := provenance.HostOf(m[2])
		switch {
		case provenance.HostIn(h, provenance.ModuleHosts) || provenance.LoopbackOnly(m[2]):
		case provenance.Lookalike(h, provenance.ModuleHosts) != "":
			fs.report(n, hit{id: "lookalike-source", title: "maps " + m[1] + " to code on " + h + ", a look-alike of " + provenance.Lookalike(h, provenance.ModuleHosts)})
		default:
			fs.report(n, hit{id: "dependency-url", title: "maps the import " + m[1] + " to code on " + h,
				why: "every import of the name loads that URL's code when the program or its tests run; the diff does not show it, and whoever runs the host decides it"})
		}
	}
}
