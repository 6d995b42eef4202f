package rules

// The dependencies a manifest declares, read from the lines a diff shows:
// Cargo's dependency tables, Python's pyproject.toml and Pipfile, Maven
// group ids in a POM, a Gradle build or a version catalog, and a Deno or
// browser import map. A table, array or object is followed only as far as
// the diff shows its opening line: a hunk that starts inside one, without
// it, declares nothing the reader can place.

import (
	"path"
	"regexp"
	"strings"
	"sync"
)

// Dep is a dependency a manifest line declares.
type Dep struct {
	N       int
	Name    string // the package whose code is fetched
	As      string // the name code uses it under, when renamed (Cargo's package =); "" otherwise
	Source  string // the URL an import map sends the name to; "" otherwise
	Channel bool   // a conda channel's name, not a package's
}

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
	pyEntry = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`["']([A-Za-z0-9][\w.-]*)\s*(?:\[[^\]]*\])?\s*(?:[<>=!~;@,\s]|["'])`)
	})
	pyArrayKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*["']?([\w.-]+)["']?\s*=\s*\[`) })
	pyDepTable = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*\[(?:tool\.poetry\.(?:group\.[\w-]+\.)?(?:dev-)?dependencies|packages|dev-packages)\]`)
	})
	pyGroupTable = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*\[(?:project\.optional-dependencies|dependency-groups|tool\.uv)\]`)
	})
	gemLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(?:gem|\w+\.add_(?:runtime_|development_)?dependency)\s*\(?\s*["']([\w.-]+)["']`)
	})
	nugetLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`<Package(?:Reference|Version)\s+(?:Update|Include)\s*=\s*"([\w.-]+)"|<package\s+id\s*=\s*"([\w.-]+)"|^\s*nuget\s+([\w.-]+)`)
	})
	goImport = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(?:import\s+)?(?:[\w.]+\s+)?"((?:[\w-]+\.)+[\w-]+/[^"\s]+)"\s*(?://.*)?$`)
	})
	flakeURL = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\burl\s*=\s*"(?:github|gitlab|sourcehut):~?([\w.-]+/[\w.-]+)`)
	})
	jsonKeyOpen = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*"([^"]+)"\s*:\s*\{\s*$`) })
	importEntry = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*"([^"]+)"\s*:\s*"(https?://[^"]+)"`) })
)

// ManifestDeps returns the dependencies the lines of a manifest declare:
// kind is "cargo", "pyproject", "conda" (environment.yml), "flake" (a Nix
// flake's inputs, Name their owner/repo), "maven", "gem" (a Gemfile or
// gemspec),
// "nuget" (a project's PackageReference, packages.config, Paket) or
// "importmap".
func ManifestDeps(kind string, lines []NumLine) []Dep {
	var out []Dep
	table, array := "?", "" // the TOML table and array a line is in
	var objects []string    // the JSON keys a line is inside, innermost last
	list, listIn := "", 0   // the YAML list a line is in, and its key's indentation
	for i, l := range lines {
		if i > 0 && lines[i-1].N != l.N-1 {
			table, array, objects, list = "?", "", nil, "" // a gap between hunks
		}
		t := strings.TrimSpace(l.Text)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		switch kind {
		case "cargo":
			if strings.HasPrefix(t, "[") {
				table = t
			}
			m := crateLine().FindStringSubmatch(l.Text)
			switch {
			case m == nil:
			case m[2] != "":
				out = append(out, Dep{N: l.N, Name: m[2]})
			case crateSection().MatchString(table):
				d := Dep{N: l.N, Name: m[1]}
				if p := cratePackage().FindStringSubmatch(l.Text); p != nil {
					d.Name, d.As = p[1], m[1]
				}
				out = append(out, d)
			}
		case "pyproject":
			if strings.HasPrefix(t, "[") && array == "" {
				table = t
				continue
			}
			if m := pyArrayKey().FindStringSubmatch(l.Text); m != nil && array == "" {
				key := m[1]
				if !pyDepArray(key, table) {
					key = "-" // an array of something else (keywords, classifiers)
				}
				rest := l.Text[len(m[0]):]
				if !strings.Contains(rest, "]") {
					array = key
				}
				if key != "-" {
					for _, e := range pyEntry().FindAllStringSubmatch(rest, -1) {
						out = append(out, Dep{N: l.N, Name: e[1]})
					}
				}
				continue
			}
			if array != "" {
				if array != "-" {
					if e := pyEntry().FindStringSubmatch(l.Text); e != nil && strings.HasPrefix(strings.TrimLeft(t, `"'`), e[1]) {
						out = append(out, Dep{N: l.N, Name: e[1]})
					}
				}
				if strings.HasSuffix(strings.TrimRight(t, ", "), "]") {
					array = ""
				}
				continue
			}
			if m := crateLine().FindStringSubmatch(l.Text); m != nil && m[1] != "" && m[1] != "python" && pyDepTable().MatchString(table) {
				out = append(out, Dep{N: l.N, Name: m[1]})
			}
		case "maven":
			if m := mavenGroup().FindStringSubmatch(l.Text); m != nil {
				out = append(out, Dep{N: l.N, Name: m[1] + m[2] + m[3]})
			}
		case "gem":
			if m := gemLine().FindStringSubmatch(l.Text); m != nil {
				out = append(out, Dep{N: l.N, Name: m[1]})
			}
		case "nuget":
			if m := nugetLine().FindStringSubmatch(l.Text); m != nil {
				out = append(out, Dep{N: l.N, Name: m[1] + m[2] + m[3]})
			}
		case "conda":
			// environment.yml: the channels: list names where conda
			// packages come from; a - pip: list under dependencies: holds
			// PyPI requirements.
			in := indentOf(l.Text)
			switch {
			case t == "channels:" || t == "- pip:":
				list, listIn = t, in
				continue
			case list == "":
				continue
			case in < listIn || in == listIn && (list == "- pip:" || !strings.HasPrefix(t, "- ")):
				list = "" // the list ended
				continue
			}
			e := strings.Trim(strings.TrimSpace(strings.TrimPrefix(t, "- ")), `"'`)
			if list == "channels:" && !strings.Contains(e, "/") {
				out = append(out, Dep{N: l.N, Name: e, Channel: true})
			} else if m := pyEntry().FindStringSubmatch(`"` + e + `"`); list == "- pip:" && m != nil {
				out = append(out, Dep{N: l.N, Name: m[1]})
			}
		case "flake":
			if m := flakeURL().FindStringSubmatch(l.Text); m != nil {
				out = append(out, Dep{N: l.N, Name: m[1]})
			}
		case "importmap":
			if m := jsonKeyOpen().FindStringSubmatch(l.Text); m != nil {
				objects = append(objects, m[1])
				continue
			}
			if net := strings.Count(t, "}") - strings.Count(t, "{"); net > 0 {
				objects = objects[:max(0, len(objects)-net)]
				continue
			}
			if m := importEntry().FindStringSubmatch(l.Text); m != nil && len(objects) > 0 && importBlock(objects[len(objects)-1]) {
				out = append(out, Dep{N: l.N, Name: m[1], Source: m[2]})
			}
		}
	}
	return out
}

// pyDepArray reports an array of requirements: dependencies = [ and its
// kin, or any array of the optional dependencies' or groups' tables.
func pyDepArray(key, table string) bool {
	switch key {
	case "dependencies", "requires", "dev-dependencies", "build-requires":
		return true
	}
	return pyGroupTable().MatchString(table)
}

// importBlock reports an import map's object of names: imports, or a
// scope's (keyed by the URL or path it applies to).
func importBlock(key string) bool {
	return key == "imports" || strings.HasPrefix(key, "http") || strings.HasPrefix(key, "/") || strings.HasPrefix(key, "./")
}

// PlainCrate reports a line that declares the crate name under its own
// name, with no package = of its own.
func PlainCrate(line, name string) bool {
	m := crateLine().FindStringSubmatch(line)
	return m != nil && m[1] == name && !cratePackage().MatchString(line)
}

// GoImport returns the module path a Go import line names ("" for the
// standard library's, whose paths have no dot): go mod tidy and go get
// require what the code imports.
func GoImport(line string) string {
	if !strings.Contains(line, `"`) || !strings.Contains(line, "/") {
		return ""
	}
	if m := goImport().FindStringSubmatch(line); m != nil {
		return m[1]
	}
	return ""
}

// InstallHookFile returns the script file an install hook (preinstall,
// install, postinstall: not prepare, which runs in the package's own
// checkout) starts by an interpreter: node setup.js, bun x.ts,
// sh ./install.sh, python3 tools/post.py.
func InstallHookFile(hook, cmd string) string {
	switch hook {
	case "preinstall", "install", "postinstall":
		if m := installFileRe().FindStringSubmatch(cmd); m != nil {
			return m[1]
		}
	}
	return ""
}

var installFileRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:node|nodejs|bun|deno\s+run|sh|bash|python3?|ruby|crystal(?:\s+(?:run|build|eval))?)\s+(?:-\S+\s+)*(\.?/?[\w./@-]+\.(?:[cm]?[jt]s|sh|py|rb|cr))(?:\s|$)`)
})

// DependentHook returns, for a manifest whose install hook every
// dependent's install runs (a Crystal shard's postinstall: shards runs it
// wherever the shard is installed), the pattern of the hook's line, its
// first group the command; nil for other files. npm's hooks are read with
// package.json.
func DependentHook(p string) (name string, line *regexp.Regexp) {
	if strings.ToLower(path.Base(p)) == "shard.yml" {
		return "postinstall", shardHookRe()
	}
	return "", nil
}

var shardHookRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*postinstall\s*:\s*["']?([^"'#]+)`) })

// VersionLine reports a manifest's own version key at the top of the file
// (version: 0.4.2, "version": "1.2.0", version = "2.0"): a change that
// adds one is cutting a release.
func VersionLine(s string) bool { return versionLineRe().MatchString(s) }

var versionLineRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:\s{0,2})"?version"?\s*[:=]`) })
