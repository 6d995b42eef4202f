package rules

import "strings"

// This file reads C compiler and linker flags by their grammar: a cgo
// directive's value, CFLAGS or LDFLAGS set in a build file or a workflow.
// The flags that matter are the ones that make the toolchain load and run
// a file (a plugin, a program, a spec or response file) or make the built
// program load code from where anyone can write it; each is judged once
// the compiler driver's wrappers (-Wl,a,b,c and -Xlinker x, which hand a,
// b, c and x to the linker) are unwrapped, so a plugin placed anywhere in
// a -Wl comma list is the same plugin.

// CgoWords splits a cgo directive's value into words as the go command
// does: at spaces, with single or double quotes keeping a word whole.
func CgoWords(s string) []string {
	var words []string
	var b strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			b.WriteByte(c)
		case c == '"' || c == '\'':
			quote, in = c, true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if in {
				words = append(words, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, b.String())
	}
	return words
}

// EnvFlagWords splits a flags variable's value as a build file or a
// workflow sets it: the quotes are the file's (the shell's, Make's,
// YAML's), around the whole list, so every word is a flag.
func EnvFlagWords(s string) []string {
	return strings.Fields(strings.NewReplacer(`"`, " ", `'`, " ", `\`, " ").Replace(s))
}

// ToolchainFlag returns the first flag among words (as CgoWords or
// EnvFlagWords split them) that makes the compiler or linker load and run
// a file the change can supply, described for a reviewer, or "".
func ToolchainFlag(words []string) string {
	var linker []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		next := ""
		if i+1 < len(words) {
			next = words[i+1]
		}
		switch {
		case strings.HasPrefix(w, "-Wl,"):
			linker = append(linker, strings.Split(w[len("-Wl,"):], ",")...)
			continue
		case w == "-Xlinker":
			linker = append(linker, next)
			i++
			continue
		case w == "-Xclang" && clangLoad(next):
			return "-Xclang " + next + ": clang loads a plugin into itself"
		}
		if d, skip := compilerFlag(w, next); d != "" {
			return d
		} else if skip {
			i++
		}
	}
	for i := 0; i < len(linker); i++ {
		next := ""
		if i+1 < len(linker) {
			next = linker[i+1]
		}
		if d := linkerFlag(linker[i], next); d != "" {
			return d
		}
	}
	return ""
}

// clangLoad names the -Xclang arguments that load a plugin into clang.
func clangLoad(w string) bool {
	return w == "-load" || w == "-plugin" || strings.HasPrefix(w, "-load-pass-plugin") || strings.HasPrefix(w, "-fpass-plugin") || strings.HasPrefix(w, "-add-plugin")
}

// toolchainPath reports a file under the system's own install prefixes:
// the toolchain's, which a change to the repository cannot supply.
func toolchainPath(p string) bool {
	for _, sys := range []string{"/usr/", "/opt/", "/Library/", "/Applications/"} {
		if strings.HasPrefix(p, sys) {
			return true
		}
	}
	return false
}

// valueOf returns a flag's value: after "=" in the word, or the next word
// (skip says it was taken).
func valueOf(w, name, next string) (v string, skip, ok bool) {
	if w == name {
		return next, true, true
	}
	if v, ok := strings.CutPrefix(w, name+"="); ok {
		return v, false, true
	}
	return "", false, false
}

// compilerFlag judges one word the compiler driver reads itself (skip:
// it took the next word as its value).
func compilerFlag(w, next string) (desc string, skip bool) {
	switch {
	case strings.HasPrefix(w, "-fplugin="):
		// gcc looks a name without a slash up in its own plugin directory.
		if v := w[len("-fplugin="):]; strings.ContainsAny(v, "/$\\") && !toolchainPath(v) {
			return w + ": the compiler loads this plugin into itself", false
		}
	case strings.HasPrefix(w, "-fpass-plugin=") || strings.HasPrefix(w, "-load-pass-plugin"):
		if v := w[strings.IndexAny(w, "=")+1:]; !toolchainPath(v) {
			return w + ": clang loads this pass plugin into itself", false
		}
	case w == "-wrapper":
		return "-wrapper " + next + ": the driver runs every tool it starts through this program", true
	case w == "-B" || strings.HasPrefix(w, "-B"):
		v, skip := strings.TrimPrefix(w, "-B"), false
		if v == "" {
			v, skip = next, true
		}
		for _, ld := range []string{"static", "dynamic", "symbolic", "no-symbolic", "group", "shareable"} {
			if !skip && strings.HasPrefix(v, ld) {
				// The linker's own -Bstatic and the like, passed through.
				return "", false
			}
		}
		if !toolchainPath(v) {
			return "-B" + v + ": the driver runs the assembler, linker and compiler proper it finds there", skip
		}
		return "", skip
	case strings.HasPrefix(w, "-specs=") || strings.HasPrefix(w, "--specs="):
		// A bare name (nosys.specs) is one of the toolchain's own.
		if v := w[strings.Index(w, "=")+1:]; strings.ContainsAny(v, "/$\\") && !toolchainPath(v) {
			return w + ": a specs file rewrites the commands the driver runs", false
		}
	case strings.HasPrefix(w, "-fuse-ld="):
		if v := w[len("-fuse-ld="):]; strings.Contains(v, "/") && !toolchainPath(v) {
			return w + ": the driver runs this program as the linker", false
		}
	case strings.HasPrefix(w, "--ld-path="):
		if v := w[len("--ld-path="):]; !toolchainPath(v) {
			return w + ": the driver runs this program as the linker", false
		}
	case w == "-z":
		if next == "execstack" {
			return "-z execstack: the program's stack is made executable", true
		}
		return "", true
	}
	// The driver hands these to the linker as they are.
	return linkerFlag(w, next), false
}

// linkerFlag judges one option the linker reads (from -Wl, -Xlinker, or
// the driver passing it through).
func linkerFlag(w, next string) string {
	if strings.HasPrefix(w, "@") && len(w) > 1 {
		return w + ": options are read from this file"
	}
	for _, name := range []string{"-plugin", "--plugin", "-lto_library"} {
		if v, _, ok := valueOf(w, name, next); ok {
			if toolchainPath(v) {
				return ""
			}
			return name + " " + v + ": the linker loads this file into itself"
		}
	}
	for _, name := range []string{"--wrap", "-wrap", "--defsym", "-defsym"} {
		if v, _, ok := valueOf(w, name, next); ok {
			return name + " " + v + ": the link redirects calls and symbols to code of the change's choosing"
		}
	}
	for _, name := range []string{"-dynamic-linker", "--dynamic-linker"} {
		if v, _, ok := valueOf(w, name, next); ok && !toolchainPath(v) {
			return name + " " + v + ": the built program is started by this file instead of the system's loader"
		}
	}
	if w == "-zexecstack" || w == "-z" && next == "execstack" {
		return "-z execstack: the program's stack is made executable"
	}
	for _, name := range []string{"-rpath", "--rpath", "-R"} {
		if v, _, ok := valueOf(w, name, next); ok && scratchDir(v) {
			return name + " " + v + ": the built program loads its libraries from where anyone can write them"
		}
	}
	return ""
}

// scratchDir is a directory any process on the machine writes (the
// system's temporary directories) or one above the program's own.
func scratchDir(p string) bool {
	for _, d := range []string{"/tmp", "/var/tmp", "/dev/shm", "$ORIGIN/..", "${ORIGIN}/.."} {
		if p == d || strings.HasPrefix(p, d+"/") || d == "$ORIGIN/.." && strings.HasPrefix(p, d) {
			return true
		}
	}
	return false
}
