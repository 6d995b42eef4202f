package rules

import (
	"regexp"
	"strings"
	"sync"
)

// systemPathRe is a path the runner's image or a package manager owns.
var systemPathRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^/(?:usr|lib|lib32|lib64|bin|sbin|etc|opt|snap|nix/store|Library|System)(?:/|$)`)
})

var (
	loaderOpRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|\s)(--require|-r|--import|--loader|--experimental-loader|-javaagent:|-agentpath:|-agentlib:|-I|-M|-m)[\s=]?(\S*)`)
	})
	packageNameRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^@?[A-Za-z0-9][\w.-]*(?:/[\w.-]+)*$`) })
	bareNameRe    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][\w.+-]*$`) })
)

// InertLoaderValue reports a literal value of a loader variable (the
// variables that make every later process load or run something:
// LD_PRELOAD, NODE_OPTIONS, RUSTC_WRAPPER, BASH_ENV, PYTHONPATH ...) that
// names nothing the change or the job's workspace holds: a tool found on
// PATH (RUSTC_WRAPPER=sccache), a package the option loads by name
// (--require ts-node/register), the system's own library or directory, an
// option that loads nothing (--max-old-space-size=8192). A path into the
// tree or the workspace, a data: or URL module, or a shell command line is
// not inert.
func InertLoaderValue(name, v string) bool {
	v = strings.Trim(strings.TrimSpace(v), `"'`)
	sys := func(p string) bool { return systemPathRe().MatchString(p) }
	switch name {
	case "NODE_OPTIONS", "NPM_CONFIG_NODE_OPTIONS", "RUBYOPT", "PERL5OPT", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS":
		for _, m := range loaderOpRe().FindAllStringSubmatch(" "+v, -1) {
			flag, op := m[1], m[2]
			switch {
			case sys(op):
			case (flag == "-javaagent:" || flag == "-agentpath:" || flag == "-I"):
				return false // a path, and not the system's
			case flag == "-agentlib:" && bareNameRe().MatchString(strings.SplitN(op, "=", 2)[0]):
			case !packageNameRe().MatchString(op) || strings.HasPrefix(op, "."):
				return false
			}
		}
		return true
	case "LD_LIBRARY_PATH", "PYTHONPATH", "PERL5LIB", "RUBYLIB", "PYTHONHOME":
		for _, p := range strings.Split(v, ":") {
			if p != "" && !sys(p) {
				return false
			}
		}
		return true
	case "LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES":
		// A bare library name is looked up in the system's directories.
		for _, p := range strings.FieldsFunc(v, func(r rune) bool { return r == ':' || r == ' ' }) {
			if !sys(p) && !bareNameRe().MatchString(p) {
				return false
			}
		}
		return true
	case "RUSTC_WRAPPER":
		return sys(v) || bareNameRe().MatchString(v) && !strings.ContainsAny(v, ".")
	case "GIT_SSH_COMMAND":
		f := strings.Fields(v)
		return len(f) > 0 && (f[0] == "ssh" || sys(f[0])) && !strings.ContainsAny(v, ";|&`$()<>")
	case "BASH_ENV", "ENV":
		return sys(v) || ShellRCPath(v) && strings.HasPrefix(v, "~")
	}
	return sys(v) && !strings.ContainsAny(v, " ;|&`$()<>")
}
