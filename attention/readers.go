package attention

// Where shell runs outside workflows: scripts, Makefile recipes, Dockerfile
// RUN lines, package.json scripts and go:generate directives. Each reader
// cuts the shell out of its file, keeping every line's number, and hands it
// to the shell reader.

import (
	"encoding/json"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/vetter-dev/vetter/attention/provenance"
	"github.com/vetter-dev/vetter/attention/rules"
	"github.com/vetter-dev/vetter/packet"
)

// shellFile reads a script: the whole file when the diff holds it, else
// each hunk's new side.
func (fs *fileScan) shellFile() {
	fl := newFlow()
	for _, reg := range fs.regions() {
		fs.shellLines(reg, fl, false)
	}
}

var makeVar = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\((shell\s+)?([^()]*)\)|\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)
})

// makefile reads recipe lines (a tab, then shell; in a justfile any
// indented line under a recipe) and $(shell ...) calls. Each recipe line is
// its own shell, so lines are read one logical line at a time; files written
// by one line are seen by the next. A variable is read as the shell reads an
// assignment: its text names what the recipes use ($(URL)), and one set from
// $(shell ...) or a justfile's backticks holds what that command printed.
func (fs *fileScan) makefile() {
	fl := newFlow()
	just := rules.Justfile(fs.path)
	// raw is each make variable's text, expanded in recipe lines before
	// the shell reads them, as make does: CURL = curl -fsSL makes
	// "$(CURL) $(URL) -o x" the curl command it is.
	raw := map[string]string{}
	for _, reg := range fs.regions() {
		var cur []numbered
		flush := func() {
			if len(cur) > 0 {
				fs.shellLines(cur, fl, false)
				cur = nil
			}
		}
		cont := false
		var target, prereqs string // the rule the recipe lines are under
		define := ""               // the variable a define … endef block is filling
		for _, l := range reg {
			t := l.text
			if define != "" {
				if strings.TrimSpace(t) == "endef" {
					define = ""
				} else {
					raw[define] = strings.TrimPrefix(raw[define]+"\n"+t, "\n")
				}
				continue
			}
			recipe := strings.HasPrefix(t, "\t") || just && strings.HasPrefix(t, " ") || cont && len(cur) > 0
			if !recipe {
				flush()
				cont = false
				if name, ok := strings.CutPrefix(strings.TrimSpace(t), "define "); ok && !just {
					define = strings.Fields(name + " =")[0]
					raw[define] = ""
					continue
				}
				if m := makeAssign().FindStringSubmatch(t); m != nil {
					if !strings.Contains(m[3], "$(shell ") && m[2] != "!=" && !just {
						raw[m[1]] = m[3]
					}
					fs.makeVar(l.n, m[1], m[2], m[3], fl, just)
					continue
				}
				if m := makeRule().FindStringSubmatch(t); m != nil && !just {
					target, prereqs = m[1], strings.TrimSpace(m[2])
				}
				// $(eval $(VAR)): make reads the variable's text as make,
				// its recipes and $(shell …) calls included.
				if m := makeEvalVar().FindStringSubmatch(t); m != nil {
					fs.shellLines([]numbered{{l.n, `eval "${` + m[1] + `}"`}}, fl, false)
				}
				// $(shell ...) elsewhere runs when make reads the file;
				// under $(eval …) make then reads what it printed as make.
				if i := strings.Index(t, "$(shell "); i >= 0 {
					sh := makeToShell(t[i:])
					if strings.Contains(t[:i], "$(eval") {
						inner, _ := balanced(t[i+1:])
						sh = `eval "$(` + makeToShell(strings.TrimPrefix(inner, "shell ")) + `)"`
					}
					fs.shellLines([]numbered{{l.n, sh}}, fl, false)
				}
				continue
			}
			s := strings.TrimLeft(t, "\t ")
			if !cont {
				s = strings.TrimLeft(s, "@-+") // make's echo, ignore-error and always prefixes
			}
			if just {
				s = justVarRe().ReplaceAllString(s, "$${$1}")
			} else if strings.Contains(s, "$") {
				// make's automatic variables: the rule's target, its first
				// and all prerequisites (curl -o $@ writes the target file).
				first, _, _ := strings.Cut(prereqs, " ")
				s = strings.NewReplacer("$$", "$$", "$@", target, "$(@)", target, "${@}", target, "$<", first, "$^", prereqs).Replace(s)
				s = expandMake(s, raw)
			}
			cur = append(cur, numbered{l.n, makeToShell(s)})
			cont = strings.HasSuffix(strings.TrimRight(t, " "), "\\")
			if !cont {
				flush()
			}
		}
		flush()
	}
}

var (
	makeAssign = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(::?=|:::=|\?=|\+=|!=|=)\s*(.*)$`)
	})
	makeRule = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([^\s#=:][^\s=:]*)(?:\s+[^\s=:]+)*\s*::?(?:\s+([^=]*))?$`)
	})
	justVarRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`) })
	makeEvalVar = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\(eval\s+\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]\s*\)`) })
)

var makeRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\$|\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]`) })

// expandMake replaces the make variables of a recipe line whose text the
// file gives, a few levels deep; $$ and variables it does not give stay.
func expandMake(s string, raw map[string]string) string {
	for range 3 {
		out := makeRef().ReplaceAllStringFunc(s, func(m string) string {
			if m == "$$" {
				return m
			}
			if v, ok := raw[m[2:len(m)-1]]; ok && len(v) < 1024 {
				return v
			}
			return m
		})
		if out == s {
			break
		}
		s = out
	}
	return s
}

// makeVar reads a variable of a Makefile or justfile: NAME := text,
// NAME != command, NAME := $(shell command), name := `command`.
func (fs *fileScan) makeVar(n int, name, op, val string, fl *flow, just bool) {
	var sh string
	switch {
	case op == "!=":
		sh = "$(" + val + ")"
	case just && strings.HasPrefix(val, "`") && strings.HasSuffix(val, "`") && len(val) > 1:
		sh = "$(" + strings.Trim(val, "`") + ")"
	case strings.Contains(val, "$(shell "):
		sh = makeToShell(val)
	}
	if sh == "" {
		if op == "+=" {
			val = fl.vals[name] + " " + val
		}
		if just {
			val = strings.Trim(val, `"'`)
		}
		fl.vals[name] = makeToShell(val)
		delete(fl.vars, name)
		return
	}
	fs.shellLines([]numbered{{n, name + `="` + sh + `"`}}, fl, false)
}

// makeToShell turns make's syntax into the shell make hands over: $$ is
// one $, $(VAR) a variable, $(shell cmd) a command substitution.
func makeToShell(s string) string {
	s = strings.ReplaceAll(s, "$$", "\x00")
	s = makeVar().ReplaceAllStringFunc(s, func(m string) string {
		sm := makeVar().FindStringSubmatch(m)
		switch {
		case sm[1] != "":
			return "$(" + sm[2] + ")"
		case sm[3] != "":
			return "${" + sm[3] + "}"
		}
		inner := strings.TrimSpace(sm[2])
		if isIdent(inner) {
			return "${" + inner + "}"
		}
		return "MAKEFN"
	})
	return strings.ReplaceAll(s, "\x00", "$")
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// dockerfile reads RUN instructions (continued lines and here-documents
// included; the exec form's sh -c string too). Files written by one RUN are
// seen by the next: they are layers of one image.
func (fs *fileScan) dockerfile() {
	fl := newFlow()
	for _, reg := range fs.regions() {
		for i := 0; i < len(reg); i++ {
			t := strings.TrimLeft(reg[i].text, " \t")
			if len(t) < 4 || !strings.EqualFold(t[:4], "RUN ") {
				continue
			}
			body := strings.TrimLeft(t[4:], " ")
			for strings.HasPrefix(body, "--") { // RUN --mount=... --network=...
				_, rest, _ := strings.Cut(body, " ")
				body = strings.TrimLeft(rest, " ")
			}
			if strings.HasPrefix(body, "[") {
				var argv []string
				if json.Unmarshal([]byte(body), &argv) == nil && len(argv) >= 3 && rules.ShellName(baseName(argv[0])) && argv[1] == "-c" {
					fs.shellLines([]numbered{{reg[i].n, argv[2]}}, fl, false)
				}
				continue
			}
			lines := []numbered{{reg[i].n, body}}
			heredoc := strings.Contains(body, "<<")
			for (strings.HasSuffix(strings.TrimRight(lines[len(lines)-1].text, " "), "\\") || heredoc) && i+1 < len(reg) {
				i++
				lines = append(lines, reg[i])
				if heredoc && strings.TrimSpace(reg[i].text) == heredocWord(body) {
					break
				}
			}
			if heredoc && heredocScript(body) && len(lines) > 1 {
				// RUN <<EOF (or RUN bash <<EOF): the here-document is the
				// script the build's shell runs, read as a script's lines
				// are, continued lines and all.
				script := lines[1:]
				if strings.TrimSpace(script[len(script)-1].text) == heredocWord(body) {
					script = script[:len(script)-1]
				}
				fs.shellLines(script, fl, false)
				continue
			}
			fs.shellLines(lines, fl, false)
		}
	}
}

// heredocScript reports a RUN whose here-document is its script: nothing
// before the << but, at most, a shell's name.
func heredocScript(body string) bool {
	before := strings.Fields(body[:strings.Index(body, "<<")])
	return len(before) == 0 || len(before) == 1 && rules.ShellName(baseName(before[0]))
}

func heredocWord(s string) string {
	i := strings.Index(s, "<<")
	w := strings.TrimLeft(s[i+2:], "-~ ")
	w = strings.Trim(strings.Fields(w + " x")[0], `"'`)
	return w
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

var jsonPair = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*"((?:[^"\\]|\\.)*)"\s*:\s*("(?:[^"\\]|\\.)*"|\{)`)
})

// lifecycle names npm's install-time scripts: npm runs them by itself.
func lifecycle(name string) bool {
	switch name {
	case "preinstall", "install", "postinstall", "prepare", "preprepare", "postprepare", "prepublish", "prepack", "postpack":
		return true
	}
	return false
}

// packageJSON reads the scripts block of package.json (each value is
// shell npm runs) and the dependency blocks (where code comes from). The
// block a line is in is followed line by line, so a hunk in the middle of
// the file is read too, as long as it shows the block's opening key.
func (fs *fileScan) packageJSON() {
	fl := newFlow()
	for _, reg := range fs.regions() {
		block := ""
		depth := 0
		for _, l := range reg {
			t := strings.TrimSpace(l.text)
			m := jsonPair().FindStringSubmatch(l.text)
			if m != nil && m[2] == "{" {
				if depth <= 1 {
					block = m[1]
				}
				depth++
				continue
			}
			if strings.HasPrefix(t, "}") {
				depth--
				if depth <= 1 {
					block = ""
				}
				continue
			}
			if m == nil {
				continue
			}
			var val string
			if json.Unmarshal([]byte(m[2]), &val) != nil {
				continue
			}
			switch {
			case block == "scripts", block == "" && lifecycle(m[1]):
				// A hunk that does not show the scripts key still shows
				// npm's lifecycle names.
				fs.npmScript(l.n, m[1], val, fl)
			case depBlock(block):
				if provenance.DepSourceURL(val) {
					fs.report(l.n, hit{id: "dependency-url"})
				}
			case block == "" && depth == 0 && !pkgField(m[1]) && provenance.ExplicitSource(val):
				// A hunk inside a dependency block that does not show the
				// block's key: a package name given a git or URL source.
				fs.report(l.n, hit{id: "dependency-url"})
			}
		}
	}
}

// npmScript rates one script: a lifecycle script is medium for running at
// all, high for what it runs (a download, a decode, inline code).
func (fs *fileScan) npmScript(n int, name, val string, fl *flow) {
	fs.shellLines([]numbered{{n, val}}, fl, false)
	if !lifecycle(name) {
		return
	}
	at, added := fs.added[n]
	if after, ok := fs.best[at]; added && ok && after.sev() == rules.High {
		fs.best[at] = hit{id: "npm-lifecycle-runs", title: "npm " + name + " script: " + rules.Must(after.id).Title, source: after.source, parsed: true}
		return
	}
	if inlineOrFetch(val) {
		fs.report(n, hit{id: "npm-lifecycle-runs", title: "npm " + name + " script downloads or runs inline code"})
		return
	}
	if detachRe().MatchString(val) {
		fs.report(n, hit{id: "npm-lifecycle-runs", title: "npm " + name + " script starts a detached process at install"})
		return
	}
	if rt := rules.FetchedRuntime(val); rt != "" {
		fs.report(n, hit{id: "npm-lifecycle-runs", title: "npm " + name + " script fetches the " + rt + " runtime at install and runs a script with it",
			why: "a second JavaScript runtime fetched at install runs the script outside what node and npm show, as the Shai-Hulud and SAP-package loaders did; the script is not in this line"})
		return
	}
	if f := rules.InstallHookFile(name, val); added && f != "" && fs.f.Status == packet.StatusModified && fs.shipsFile(n, f) {
		// A published package that gains an install hook and starts to
		// ship the file it runs is how a stolen maintainer token is turned
		// into a worm (Shai-Hulud). A repository's own install hooks run in
		// its checkout and are not shipped.
		fs.report(n, hit{id: "npm-lifecycle-runs", title: "npm " + name + " script added to an existing package.json runs a file the same change starts to publish",
			why: "every machine that installs the next release runs it, before any test; the file it runs is new to the package"})
		return
	}
	fs.report(n, hit{id: "npm-lifecycle", title: "npm " + name + " script: runs on npm install"})
}

// shipsFile reports an added line other than n that names file f (its
// path or its base name) as a string: a "files" or "bin" entry.
func (fs *fileScan) shipsFile(n int, f string) bool {
	f = strings.TrimPrefix(f, "./")
	for m := range fs.added {
		if t := fs.text[m]; m != n && (strings.Contains(t, `"`+f+`"`) || strings.Contains(t, `"`+path.Base(f)+`"`)) {
			return true
		}
	}
	return false
}

// detachRe is a script that leaves a process running after npm is done:
// start /B, a lone &, nohup, setsid, disown.
var detachRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\bstart\s+/b\b|(?:^|[^&>])&\s*(?:$|[^&>])|\bnohup\b|\bsetsid\b|\bdisown\b`)
})

var inlineRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:node|nodejs|deno|bun)\s+(?:-\w+\s+)*(?:-e|-p|--eval|--print)\b|\bpython[0-9.]*\s+-c\b|\b(?:curl|wget)\b|\bhttps?://|\beval\b|\bbase64\b|\|\s*(?:ba)?sh\b`)
})

func inlineOrFetch(v string) bool { return inlineRe().MatchString(v) }

// pkgField reports package.json's own fields, whose values may be URLs.
func pkgField(k string) bool {
	switch k {
	case "name", "version", "description", "homepage", "repository", "bugs", "url", "funding", "author", "license", "main", "module",
		"types", "typings", "bin", "files", "type", "exports", "engines", "os", "cpu", "private", "publishConfig", "workspaces",
		"packageManager", "email", "web", "directory", "browser", "unpkg", "jsdelivr", "sideEffects", "icon", "logo", "$schema", "registry":
		return true
	}
	return false
}

var cgoRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*//\s*#cgo\b[^:]*:(.*)$|^\s*#cgo\b[^:]*:(.*)$`)
})

// goFile reads go:generate lines as shell and cgo directives' flags.
func (fs *fileScan) goFile() {
	fl := newFlow()
	for n, t := range fs.text {
		if _, ok := fs.added[n]; !ok {
			continue
		}
		s := strings.TrimSpace(t)
		if rest, ok := strings.CutPrefix(s, "//go:generate "); ok {
			fs.shellLines([]numbered{{n, rest}}, fl, false)
			continue
		}
		if !strings.Contains(s, "#cgo") {
			continue
		}
		if m := cgoRe().FindStringSubmatch(t); m != nil {
			if f := rules.ToolchainFlag(rules.CgoWords(m[1] + m[2])); f != "" {
				fs.report(n, hit{id: "cgo-flags", title: "cgo directive passes " + f})
			}
		}
	}
}

func depBlock(b string) bool {
	switch b {
	case "dependencies", "devDependencies", "optionalDependencies", "peerDependencies", "bundleDependencies", "overrides", "resolutions":
		return true
	}
	return false
}
