package rules

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// ---- commands build systems run --------------------------------------------

// NumLine is a line of a file and its new-side number.
type NumLine struct {
	N    int
	Text string
}

// Command is a shell command a build file runs, numbered by the line that
// holds its program (for sh -c, the line that holds the script).
type Command struct {
	N    int
	Text string
}

// BuildSystem names the build files whose commands CommandsOf reads: CMake
// (execute_process runs while the project is configured, add_custom_command
// and add_custom_target while it builds), Meson (run_command while it is
// configured, command: lists while it builds), Bazel and Buck (a genrule's
// cmd), MSBuild (Exec tasks and build events), Composer (its scripts,
// which install and update run by event name), Mix (an alias's cmd task,
// and an alias may take the name of deps.get or compile), Leiningen (the
// shell task in :prep-tasks and :aliases, sh in :injections), rebar3
// (pre_hooks and post_hooks), opam (build, install and run-test lists), dune
// (run, system and bash actions), Nimble and NimScript (exec) and Zig
// (addSystemCommand). Files that are not a build's but hold one
// command a line in their own syntax are read the same way: a Procfile's
// processes, a systemd unit's Exec lines, a crontab's jobs. "" for any
// other file.
func BuildSystem(p string) string {
	lb := strings.ToLower(path.Base(p))
	switch {
	case lb == "tiltfile" || strings.HasSuffix(lb, ".tiltfile"):
		return "tilt" // tilt up runs local() when it reads the file, local_resource's cmd after
	case lb == "procfile" || strings.HasPrefix(lb, "procfile."):
		return "procfile"
	case strings.HasSuffix(lb, ".service") || strings.HasSuffix(lb, ".socket"):
		return "systemd"
	case strings.Contains(strings.ToLower(p), "cron.d/") || strings.HasSuffix(strings.ToLower(p), "etc/crontab"):
		return "system-cron" // a user's name before each command
	case lb == "crontab" || strings.HasSuffix(lb, ".crontab") || strings.HasSuffix(lb, ".cron"):
		return "cron"
	case lb == "cmakelists.txt" || strings.HasSuffix(lb, ".cmake"):
		return "cmake"
	case lb == "meson.build":
		return "meson"
	case lb == "meson_options.txt" || lb == "meson.options":
		return "meson-options"
	case lb == "build" || lb == "build.bazel" || lb == "buck" || strings.HasSuffix(lb, ".bzl") || lb == "module.bazel" || lb == "workspace" || lb == "workspace.bazel":
		return "starlark"
	case strings.HasSuffix(lb, "proj") || strings.HasSuffix(lb, ".props") || strings.HasSuffix(lb, ".targets"):
		return "msbuild"
	case lb == "composer.json":
		return "composer"
	case lb == "pom.xml" || lb == "build.xml":
		return "maven"
	case lb == "mix.exs":
		return "mix"
	case lb == "project.clj":
		return "leiningen"
	case lb == "rebar.config" || lb == "rebar.config.script":
		return "rebar"
	case lb == "opam" || strings.HasSuffix(lb, ".opam"):
		return "opam"
	case lb == "dune":
		return "dune"
	case strings.HasSuffix(lb, ".nimble") || strings.HasSuffix(lb, ".nims"):
		return "nimble"
	case lb == "build.zig":
		return "zig"
	}
	return ""
}

// mesonOptionCommands returns the values of a Meson options file's
// options that hold a command: the option's name says so (…_cmd,
// …_command, …_script, …_hook) and meson.build hands get_option's value to
// run_command or a custom target, so the build runs the text on the
// runner. A subproject's packagefiles bring their own options file.
func mesonOptionCommands(lines []NumLine) []Command {
	var out []Command
	for _, l := range lines {
		m := mesonOptionRe().FindStringSubmatch(l.Text)
		if m == nil {
			continue
		}
		if v := m[2] + m[3]; v != "" {
			out = append(out, Command{l.N, strings.NewReplacer(`\'`, `'`, `\"`, `"`).Replace(v)})
		}
	}
	return out
}

var mesonOptionRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*option\(\s*'(\w*(?:cmd|command|script|hook|exec|launcher|wrapper)s?)'.*?\bvalue\s*:\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")`)
})

// CommandsOf returns the commands the lines of a build file of the given
// system run, as shell: the build runs each on the runner by itself.
func CommandsOf(system string, lines []NumLine) []Command {
	switch system {
	case "cmake":
		return cmakeCommands(lines)
	case "meson":
		return callCommands(lines, mesonCall())
	case "meson-options":
		return mesonOptionCommands(lines)
	case "starlark":
		return callCommands(lines, starlarkCmd())
	case "tilt":
		return callCommands(lines, tiltCall())
	case "msbuild":
		return msbuildCommands(lines)
	case "composer":
		return composerCommands(lines)
	case "maven":
		return mavenCommands(lines)
	case "mix":
		return mixCommands(lines)
	case "leiningen":
		return callCommands(lines, leinShell())
	case "rebar":
		return rebarCommands(lines)
	case "opam":
		return opamCommands(opamBuild(lines))
	case "dune":
		return duneCommands(lines)
	case "nimble":
		var out []Command
		for _, l := range lines {
			if m := nimExec().FindStringSubmatch(l.Text); m != nil {
				out = append(out, Command{l.N, strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(m[1])})
			}
		}
		return out
	case "zig":
		return callCommands(lines, zigCmd())
	case "procfile", "systemd", "cron", "system-cron":
		var out []Command
		for _, l := range lines {
			if m := lineCmdRe()[system].FindStringSubmatch(l.Text); m != nil && !CommentLine(l.Text) {
				out = append(out, Command{l.N, m[1]})
			}
		}
		return out
	}
	return nil
}

// lineCmdRe is where the command starts on a line of the files that hold
// one a line: "web: cmd", "ExecStart=-cmd" (systemd's -@:+! prefixes are
// not the command's), "*/5 * * * * cmd" or "@daily cmd" (with a user's name
// before the command in /etc/crontab and cron.d).
var lineCmdRe = sync.OnceValue(func() map[string]*regexp.Regexp {
	const when = `^\s*(?:@\w+|(?:[\d*/,-]+|[A-Za-z]{3}(?:-[A-Za-z]{3})?)(?:\s+(?:[\d*/,-]+|[A-Za-z]{3}(?:[-,][A-Za-z]{3})*)){4})\s+`
	return map[string]*regexp.Regexp{
		"procfile":    regexp.MustCompile(`^[\w.-]+\s*:\s*(\S.*)$`),
		"systemd":     regexp.MustCompile(`^\s*Exec(?:Start|StartPre|StartPost|Stop|StopPost|Reload|Condition)\s*=\s*[-@:+!]*(\S.*)$`),
		"cron":        regexp.MustCompile(when + `(\S.*)$`),
		"system-cron": regexp.MustCompile(when + `[\w.-]+\s+(\S.*)$`),
	}
})

var (
	cmakeCall = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:execute_process|add_custom_command|add_custom_target)\s*\(`)
	})
	mesonCall   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\brun_command\s*\(|\bcommand\s*:\s*\[`) })
	starlarkCmd = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*cmd(?:_bash)?\s*=`) })
	tiltCall    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\blocal\s*\(|\b(?:serve_)?cmd\s*=`) })
	// lein-shell's task vector, and clojure.java.shell's sh call.
	leinShell = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\[\s*"shell"|\((?:clojure\.java\.shell/|shell/)?sh\s`)
	})
	msbuildExec = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)<Exec\b[^>]*\bCommand\s*=\s*"([^"]*)"|<(?:Pre|Post|PreLink)BuildEvent>([^<]*)</`)
	})
)

// cmakeKeywords end a COMMAND's arguments.
var cmakeKeywords = map[string]bool{"OUTPUT": true, "DEPENDS": true, "WORKING_DIRECTORY": true, "RESULT_VARIABLE": true, "RESULTS_VARIABLE": true,
	"OUTPUT_VARIABLE": true, "ERROR_VARIABLE": true, "OUTPUT_QUIET": true, "ERROR_QUIET": true, "VERBATIM": true, "COMMENT": true,
	"BYPRODUCTS": true, "MAIN_DEPENDENCY": true, "USES_TERMINAL": true, "TIMEOUT": true, "INPUT_FILE": true, "OUTPUT_FILE": true,
	"ERROR_FILE": true, "COMMAND_ECHO": true, "ENCODING": true, "ECHO_OUTPUT_VARIABLE": true, "ECHO_ERROR_VARIABLE": true,
	"COMMAND_ERROR_IS_FATAL": true, "OUTPUT_STRIP_TRAILING_WHITESPACE": true, "ERROR_STRIP_TRAILING_WHITESPACE": true, "ALL": true,
	"SOURCES": true, "JOB_POOL": true, "IMPLICIT_DEPENDS": true, "DEPFILE": true, "APPEND": true, "COMMAND_EXPAND_LISTS": true, "PRE_BUILD": true,
	"PRE_LINK": true, "POST_BUILD": true, "TARGET": true, "JOB_SERVER_AWARE": true, "DEPENDS_EXPLICIT_ONLY": true, "CODEGEN": true}

// token is an argument of a call and the line it is on.
type token struct {
	n      int
	text   string
	quoted bool
}

// cmakeCommands reads execute_process, add_custom_command and
// add_custom_target calls over as many lines as they take, and returns each
// COMMAND's arguments as a command line.
func cmakeCommands(lines []NumLine) []Command {
	var out []Command
	for i := 0; i < len(lines); i++ {
		loc := cmakeCall().FindStringIndex(lines[i].Text)
		if loc == nil {
			continue
		}
		toks, end, _ := callTokens(lines, i, loc[1], false, false)
		// execute_process runs its COMMANDs as one pipeline, each one's
		// output the next one's input.
		pipeline := strings.HasPrefix(strings.ToLower(strings.TrimSpace(lines[i].Text[loc[0]:])), "execute_process")
		var cur []token
		var piped []Command
		flush := func() {
			if len(cur) > 0 {
				piped = append(piped, joinCommand(cur))
			}
			cur = nil
		}
		in := false
		for _, t := range toks {
			switch {
			case !t.quoted && t.text == "COMMAND":
				flush()
				in = true
			case !t.quoted && cmakeKeywords[t.text]:
				flush()
				in = false
			case in:
				cur = append(cur, t)
			}
		}
		flush()
		if pipeline && len(piped) > 1 {
			texts := make([]string, len(piped))
			for k, c := range piped {
				texts[k] = c.Text
			}
			piped = []Command{{piped[len(piped)-1].N, strings.Join(texts, " | ")}}
		}
		out = append(out, piped...)
		i = end
	}
	return out
}

// callCommands reads each call the pattern opens (Meson's run_command or a
// command: list, a genrule's cmd) and returns its string arguments as one
// command: an argument list ['sh', '-c', script] is the script; any other
// list is the program and its arguments.
func callCommands(lines []NumLine, open *regexp.Regexp) []Command {
	var out []Command
	// from is the column a line is searched from: a call may follow
	// another on the line the first one ends on.
	for i, from := 0, 0; i < len(lines); {
		loc := open.FindStringIndex(lines[i].Text[from:])
		if loc == nil {
			i, from = i+1, 0
			continue
		}
		toks, end, col := callTokens(lines, i, from+loc[1], true, open == starlarkCmd())
		var strs []token
		for _, t := range toks {
			if t.quoted {
				strs = append(strs, t)
			}
		}
		switch {
		case open == starlarkCmd() || open == tiltCall():
			// A genrule's cmd is a string, or strings joined: each one
			// is a command of the same shell; Tilt's local() and cmd= too.
			for _, t := range strs {
				if s := strings.TrimSpace(t.text); s != "" && s != "&&" && s != ";" && s != "||" {
					out = append(out, Command{t.n, t.text})
				}
			}
		case len(strs) >= 3 && ShellName(path.Base(strs[0].text)) && strings.HasPrefix(strs[1].text, "-") && strings.Contains(strs[1].text, "c"):
			out = append(out, Command{strs[2].n, strs[2].text})
		case len(strs) > 0:
			out = append(out, joinCommand(strs))
		}
		i, from = end, col
	}
	return out
}

// callTokens splits a call's arguments, from column col of lines[i] to the
// parenthesis or bracket that closes it, into words and quoted strings.
// With strs, quotes are Python's and Starlark's (' or "); else CMake's ("
// only). With value, the call is an attribute's value (cmd = …), which ends
// at the comma or parenthesis after it. It returns the tokens, the index
// of the line the call ends on and the column after its end there.
func callTokens(lines []NumLine, i, col int, strs, value bool) ([]token, int, int) {
	var toks []token
	depth := 1
	for k := i; k < len(lines) && k < i+40; k++ {
		s := lines[k].Text
		off := 0
		if k == i {
			s, off = s[col:], col
		}
		var word strings.Builder
		end := func() {
			if word.Len() > 0 {
				toks = append(toks, token{lines[k].N, word.String(), false})
				word.Reset()
			}
		}
		for j := 0; j < len(s); j++ {
			c := s[j]
			switch {
			case c == '#':
				end()
				j = len(s) // a comment to the end of the line
			case c == '"' || strs && c == '\'':
				end()
				q := c
				var b strings.Builder
				for j++; j < len(s) && s[j] != q; j++ {
					if s[j] == '\\' && j+1 < len(s) {
						j++
						switch s[j] {
						case 'n':
							b.WriteByte('\n')
							continue
						case 't':
							b.WriteByte('\t')
							continue
						}
					}
					b.WriteByte(s[j])
				}
				toks = append(toks, token{lines[k].N, b.String(), true})
			case c == '(' || c == '[':
				end()
				depth++
			case c == ')' || c == ']':
				end()
				depth--
				if depth == 0 {
					return toks, k, off + j + 1
				}
			case c == ',' && value && depth == 1:
				end()
				return toks, k, off + j + 1
			case c == ' ' || c == '\t' || strs && c == ',':
				end()
			default:
				word.WriteByte(c)
			}
		}
		end()
	}
	return toks, i, len(lines[i].Text)
}

// joinCommand writes the arguments as a shell command line: the words as
// they are (a | between them is the pipe a Makefile generator's shell
// makes of it), each quoted string in double quotes.
func joinCommand(ts []token) Command {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 {
			b.WriteByte(' ')
		}
		if t.quoted {
			b.WriteByte('"')
			b.WriteString(strings.ReplaceAll(t.text, `"`, `\"`))
			b.WriteByte('"')
		} else {
			b.WriteString(t.text)
		}
	}
	return Command{ts[0].n, b.String()}
}

// msbuildCommands returns the Exec tasks' commands and the build events'.
func msbuildCommands(lines []NumLine) []Command {
	var out []Command
	un := strings.NewReplacer("&quot;", `"`, "&apos;", "'", "&lt;", "<", "&gt;", ">", "&amp;", "&", "&#xA;", "\n", "&#10;", "\n")
	for _, l := range lines {
		if !strings.Contains(l.Text, "Exec") && !strings.Contains(l.Text, "BuildEvent") {
			continue
		}
		if m := msbuildExec().FindStringSubmatch(l.Text); m != nil {
			if c := strings.TrimSpace(un.Replace(m[1] + m[2])); c != "" {
				out = append(out, Command{l.N, c})
			}
		}
	}
	return out
}

var (
	// A string of mix.exs that is Mix's cmd task (an alias's step), or the
	// command Mix.shell().cmd or System.shell hands to the shell.
	mixCmd = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`"cmd\s+(?:--(?:app|cd)\s+\S+\s+|--shell\s+)*((?:[^"\\]|\\.)*)"|\b(?:Mix\.shell\(\)\.cmd|Mix\.Shell\.cmd|System\.shell)\(\s*"((?:[^"\\]|\\.)*)"`)
	})
	exInterp = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`#\{[^}]*\}`) })
	// A rebar3 hook: {Event, Command} or {Arch, Event, Command}.
	rebarHook = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\{\s*(?:"[^"]*"\s*,\s*)?\w+\s*,\s*"((?:[^"\\]|\\.)*)"\s*\}`)
	})
)

var (
	opamField = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([a-z][\w-]*)\s*:`) })
	opamList  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[\s*"`) })
	duneCall  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\((run|system|bash)\s`) })
	nimExec   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|[\s(;])(?:exec|staticExec|gorge|gorgeEx)\s*\(?\s*"((?:[^"\\]|\\.)*)"`)
	})
	zigCmd = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\baddSystemCommand\(`) })
)

// opamBuild keeps the lines of an opam file's fields that opam runs
// (build, install, run-test, remove and their kin), each list in them a
// command's words.
func opamBuild(lines []NumLine) []NumLine {
	var out []NumLine
	in := false
	for _, l := range lines {
		if m := opamField().FindStringSubmatch(l.Text); m != nil {
			switch m[1] {
			case "build", "install", "run-test", "build-test", "remove", "post-messages":
				in = m[1] != "post-messages"
			default:
				in = false
			}
		}
		if in {
			out = append(out, l)
		}
	}
	return out
}

// opamCommands returns each list of strings in the lines as a command's
// words: ["sh" "-c" script] is the script.
func opamCommands(lines []NumLine) []Command {
	var out []Command
	for i, l := range lines {
		for _, loc := range opamList().FindAllStringIndex(l.Text, -1) {
			toks, _, _ := callTokens(lines, i, loc[0]+1, false, false)
			var strs []token
			for _, t := range toks {
				if t.quoted {
					strs = append(strs, t)
				}
			}
			switch {
			case len(strs) >= 3 && ShellName(path.Base(strs[0].text)) && strs[1].text == "-c":
				out = append(out, Command{strs[2].n, strs[2].text})
			case len(strs) > 0:
				out = append(out, joinCommand(strs))
			}
		}
	}
	return out
}

// duneCommands returns a dune rule's actions: (system "…") and (bash "…")
// run their string with the shell, (run prog args…) its words.
func duneCommands(lines []NumLine) []Command {
	var out []Command
	for i, l := range lines {
		for _, loc := range duneCall().FindAllStringSubmatchIndex(l.Text, -1) {
			toks, _, _ := callTokens(lines, i, loc[1], false, false)
			if len(toks) == 0 {
				continue
			}
			if l.Text[loc[2]:loc[3]] != "run" {
				if toks[0].quoted {
					out = append(out, Command{toks[0].n, toks[0].text})
				}
				continue
			}
			out = append(out, joinCommand(toks))
		}
	}
	return out
}

// mixCommands returns the shell commands of mix.exs: the cmd steps of its
// aliases (an alias named deps.get or compile replaces the task every CI
// job runs) and the strings it hands the shell. An interpolation is a value
// the shell reader cannot see.
func mixCommands(lines []NumLine) []Command {
	var out []Command
	un := strings.NewReplacer(`\"`, `"`, `\\`, `\`)
	for _, l := range lines {
		if !strings.Contains(l.Text, "cmd") && !strings.Contains(l.Text, "System.shell") {
			continue
		}
		for _, m := range mixCmd().FindAllStringSubmatch(l.Text, -1) {
			out = append(out, Command{l.N, exInterp().ReplaceAllString(un.Replace(m[1]+m[2]), "$${MIX_VALUE}")})
		}
	}
	return out
}

// rebarCommands returns the commands of rebar3's pre_hooks and post_hooks,
// which it runs through the shell before and after the provider they name.
func rebarCommands(lines []NumLine) []Command {
	var out []Command
	depth := -1 // the list's bracket depth, from a hooks key to its end
	un := strings.NewReplacer(`\"`, `"`, `\\`, `\`)
	for _, l := range lines {
		t := l.Text
		if depth < 0 {
			i := strings.Index(t, "pre_hooks")
			if j := strings.Index(t, "post_hooks"); i < 0 || j >= 0 && j < i {
				i = j
			}
			if i < 0 {
				continue
			}
			t, depth = t[i:], 0
		}
		for _, m := range rebarHook().FindAllStringSubmatch(t, -1) {
			out = append(out, Command{l.N, un.Replace(m[1])})
		}
		bare := stripJSONStrings(t)
		depth += strings.Count(bare, "[") - strings.Count(bare, "]")
		if depth <= 0 && strings.Contains(bare, "]") {
			depth = -1
		}
	}
	return out
}

// ---- install-time fetches and start-up hooks --------------------------------

var installFetchRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:curl|wget)\b|\bhttps?://|\bfetch\(|\burlopen\(|\burllib\b|\brequests\.(?:get|post|request)\(|\bhttps?\.(?:get|request)\(|\baxios\b|\.(?:download|fetch|pull)\w*\(|\bdownload\w*\(|\binvoke-(?:webrequest|restmethod)\b|\b(?:iwr|irm)\s|\bnet\.(?:connect|createConnection)\(|\bsocket\.`)
})

// InstallTimeFetch reports a command, or the inline code it runs, that
// reaches the network: downloads, calls a URL or a function named for
// fetching.
func InstallTimeFetch(cmd string) bool { return installFetchRe().MatchString(cmd) }

// PackagingFile reports the files that say what a Python package installs:
// setup.py and setup.cfg, pyproject.toml, a hatch or pdm build hook, and the
// CMake and Meson builds that scikit-build and meson-python install from.
func PackagingFile(p string) bool {
	lb := strings.ToLower(path.Base(p))
	switch {
	case lb == "setup.py" || lb == "setup.cfg" || lb == "pyproject.toml" || lb == "meson.build" || lb == "cmakelists.txt":
		return true
	case strings.HasSuffix(lb, "_build.py") || strings.HasSuffix(lb, ".cmake"):
		return true
	}
	return false
}

var (
	pthNameRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[\w.+-]+\.pth\b`) })
	// sitePlaceRe names the top of site-packages, or a list whose
	// entries land there (data_files, a wheel's force-include).
	sitePlaceRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)site-packages|\b(?:pure|plat)lib\b|getsitepackages|getusersitepackages|get_python_lib|\bsite_?lib\b|_SITELIB\b|_SITEARCH\b|PLATLIB_DIR|PURELIB_DIR|\bbuild_lib\b|\binstall_lib\b|force-include|\bdata_files\b|data-files|\bDESTINATION\s+(?:\.|"\.?")(?:\s|\)|$)`)
	})
	sharedDataRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`["'](?:share|etc|man|doc)/`) })
)

// NamesPth reports a line that names a .pth file.
func NamesPth(s string) bool { return strings.Contains(s, ".pth") && pthNameRe().MatchString(s) }

// SitePackagesPlace reports text (a .pth's line and the few lines before
// it) that puts a file at the top of site-packages, where Python's site
// module reads every .pth at start-up: model weights and other .pth data
// go into a package's own folder or under share/, which it does not read.
func SitePackagesPlace(ctx string) bool {
	last := ctx[strings.LastIndexByte(ctx, '\n')+1:]
	return sitePlaceRe().MatchString(ctx) && !sharedDataRe().MatchString(last)
}

var (
	jsonStr      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"((?:[^"\\]|\\.)*)"(\s*:)?`) })
	phpCallback  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[\w\\]+::\w+$`) })
	scriptsBlock = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"scripts"\s*:\s*\{`) })
)

// composerCommands returns the commands of composer.json's scripts block:
// Composer runs a script named for an event (post-install-cmd,
// post-autoload-dump) by itself at install, and @php as PHP.
func composerCommands(lines []NumLine) []Command {
	var out []Command
	depth := 0
	for _, l := range lines {
		t := l.Text
		if depth == 0 {
			loc := scriptsBlock().FindStringIndex(t)
			if loc == nil {
				continue
			}
			t, depth = t[loc[1]:], 1
		}
		for _, m := range jsonStr().FindAllStringSubmatch(t, -1) {
			if m[2] != "" {
				continue // a script's name
			}
			v := strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\/`, `/`).Replace(m[1])
			if rest, ok := strings.CutPrefix(v, "@php "); ok {
				v = "php " + rest
			}
			if strings.HasPrefix(v, "@") || phpCallback().MatchString(v) {
				continue // another script, or a PHP callback in the package
			}
			out = append(out, Command{l.N, v})
		}
		depth += strings.Count(stripJSONStrings(t), "{") - strings.Count(stripJSONStrings(t), "}")
		if depth <= 0 {
			depth = 0
		}
	}
	return out
}

func stripJSONStrings(s string) string { return jsonStr().ReplaceAllString(s, `""`) }

var (
	// The tags of an Ant <exec> (or the exec-maven-plugin's executable and
	// arguments) and an Ant <get>, in the order a line holds them.
	antTag = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`<exec\b([^>]*?)(/?)>|<executable>([^<]*)</executable>|<argument>([^<]*)</argument>|<arg\s+(value|line)\s*=\s*"([^"]*)"|</exec>|</arguments>|</configuration>|<get\b([^>]*)>`)
	})
	xmlAttr = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(executable|src|dest)\s*=\s*"([^"]*)"`) })
	// ${project.build.directory}: a Maven or Ant property, one shell variable.
	xmlProp = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{([\w.-]+)\}`) })
)

// mavenCommands returns what a POM's or Ant build file's tasks run: an
// Ant <exec> (the antrun plugin's too) or the exec plugin's executable
// with its arguments, as one command line; an Ant <get> as the download it
// is (curl -o dest src), so that an exec of what it fetched is followed;
// and, in an argument list with no executable in sight, the script after
// -c (or cmd's /c).
func mavenCommands(lines []NumLine) []Command {
	var out []Command
	un := strings.NewReplacer("&quot;", `"`, "&apos;", "'", "&lt;", "<", "&gt;", ">", "&amp;", "&")
	val := func(s string) string {
		return xmlProp().ReplaceAllStringFunc(un.Replace(s), func(m string) string {
			return "${" + strings.NewReplacer(".", "_", "-", "_").Replace(m[2:len(m)-1]) + "}"
		})
	}
	quote := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }
	var cmd []string // the open exec's program and arguments, as shell words
	at := 0
	flush := func() {
		if len(cmd) > 0 {
			out = append(out, Command{at, strings.Join(cmd, " ")})
		}
		cmd = nil
	}
	script := false
	for _, l := range lines {
		if !strings.Contains(l.Text, "<") {
			continue
		}
		for _, m := range antTag().FindAllStringSubmatch(l.Text, -1) {
			attrs := map[string]string{}
			for _, a := range xmlAttr().FindAllStringSubmatch(m[1]+m[7], -1) {
				attrs[a[1]] = val(a[2])
			}
			switch {
			case strings.HasPrefix(m[0], "<exec") && attrs["executable"] != "":
				flush()
				cmd, at = []string{quote(attrs["executable"])}, l.N
				if m[2] == "/" {
					flush()
				}
			case strings.HasPrefix(m[0], "<executable>"):
				flush()
				cmd, at = []string{quote(val(strings.TrimSpace(m[3])))}, l.N
			case strings.HasPrefix(m[0], "<get"):
				if attrs["src"] != "" && attrs["dest"] != "" {
					out = append(out, Command{l.N, "curl -fsSL -o " + quote(attrs["dest"]) + " " + quote(attrs["src"])})
				}
			case strings.HasPrefix(m[0], "</"):
				flush()
			case len(cmd) > 0:
				// An argument of the open exec: a line is words, a value one word.
				if m[5] == "line" {
					cmd = append(cmd, val(m[6]))
				} else {
					cmd = append(cmd, quote(val(strings.TrimSpace(m[4]+m[6]))))
				}
				at = l.N
			default:
				v := strings.TrimSpace(un.Replace(m[4] + m[6]))
				if script {
					out = append(out, Command{l.N, v})
					script = false
					continue
				}
				if c, ok := strings.CutPrefix(v, "-c "); ok && m[6] != "" {
					out = append(out, Command{l.N, strings.Trim(c, `'"`)})
				}
				script = v == "-c" || v == "/c" || v == "/C" || v == "-Command"
			}
		}
	}
	flush()
	return out
}

var directRefRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`["'][\w.\[\],-]+\s*@\s*(?:https?|git\+\w+)://|\{[^}]*\burl\s*=\s*["'](?:https?|git\+\w+)://`)
})

// DirectReference reports a Python dependency given by where it comes from
// rather than by name and version: "pkg @ https://…" in a list, or an inline
// table's url (Poetry's dependencies, uv's sources).
func DirectReference(s string) bool {
	return (strings.Contains(s, "@") || strings.Contains(s, "url")) && directRefRe().MatchString(s)
}

var condaChannelRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*-\s*["']?(https?://[^\s"']+)`) })

// CondaChannel returns the URL a line of a conda channels list names.
func CondaChannel(s string) string {
	if m := condaChannelRe().FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

var configTargetRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*["']?(?:build|path|preload|globalSetup|globalTeardown|setupFiles|setupFilesAfterEnv|setupFilesAfterEach|require)["']?\s*[:=]\s*\[?\s*["']?(\.{0,2}/?[\w./-]+\.(?:rs|py|[cm]?js|[cm]?ts))["']?`)
})

// ConfigRunner names the tool that runs the files a config at p names:
// "" for a file that names none.
func ConfigRunner(p string) string {
	lb := strings.ToLower(path.Base(p))
	switch {
	case lb == "cargo.toml":
		return "cargo"
	case lb == "pyproject.toml" || lb == "hatch.toml":
		return "the build backend"
	case strings.HasPrefix(lb, "jest.config.") || strings.HasPrefix(lb, "vitest.config.") || strings.HasPrefix(lb, "vite.config.") || lb == "package.json":
		return "the test runner"
	case strings.HasPrefix(lb, ".mocharc"):
		return "mocha"
	case lb == "bunfig.toml" || lb == ".bunfig.toml":
		return "bun" // its preload scripts run before every bun run and bun test
	}
	return ""
}

// ConfigTargets returns the files a line of tool's config names as code
// it runs (paths relative to the config's folder).
func ConfigTargets(tool, s string) []string {
	m := configTargetRe().FindStringSubmatch(s)
	if m == nil {
		return nil
	}
	key := strings.TrimLeft(strings.TrimSpace(s), `"'`)
	want := map[string][]string{"cargo": {"build"}, "the build backend": {"path"}, "mocha": {"require"}, "bun": {"preload"},
		"the test runner": {"globalSetup", "globalTeardown", "setupFiles"}}[tool]
	if !slices.ContainsFunc(want, func(k string) bool { return strings.HasPrefix(key, k) }) {
		return nil
	}
	return []string{strings.TrimPrefix(m[1], "./")}
}

var lockHashRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(sha1|sha256|sha384|sha512|h1|md5)[-:]([A-Za-z0-9+/=_]{20,})|\b()([0-9a-f]{40,128})\b`)
})

// LockFile reports the lock and checksum files whose lines pin a package's
// content by a hash.
func LockFile(p string) bool {
	switch strings.ToLower(path.Base(p)) {
	case "go.sum", "go.work.sum", "cargo.lock", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock",
		"poetry.lock", "uv.lock", "pipfile.lock", "composer.lock", "pdm.lock", "gradle.lockfile", "verification-metadata.xml", "packages.lock.json":
		return true
	}
	return false
}

// HashSwaps returns, of a hunk's removed and added lines, the added lines
// (by index) that give a package the same name and version as a removed
// line but another hash of the same algorithm, when every removed line is
// such a hash line: the version stays, the content it installs changes.
func HashSwaps(removed, added []string) []int {
	blank := func(s string) (string, string, string) {
		m := lockHashRe().FindStringSubmatch(s)
		if m == nil {
			return "", "", ""
		}
		return lockHashRe().ReplaceAllString(s, "$1#"), m[1], m[2] + m[4]
	}
	type old struct{ alg, hash string }
	was := map[string]old{}
	for _, r := range removed {
		if strings.TrimSpace(r) == "" {
			continue
		}
		if strings.Contains(r, "git+") || strings.Contains(r, "git://") || strings.Contains(r, "git@") {
			return nil // a git dependency's commit moves with its branch
		}
		b, alg, h := blank(r)
		if b == "" {
			return nil // the hunk changes more than hashes: a version, a name
		}
		was[b] = old{alg, h}
	}
	var out []int
	for i, a := range added {
		b, alg, h := blank(a)
		if o, ok := was[b]; ok && b != "" && o.alg == alg && o.hash != h {
			out = append(out, i)
		}
	}
	return out
}

var lockMetaRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)content[-_]?hash|"_meta"|"hash"\s*:\s*\{|Checksum\s*:`)
})

// LockMetaHash reports a lock file line that holds or opens the lock's
// hash of the manifest it was made from (Poetry's and Composer's
// content-hash, Pipfile.lock's _meta, pnpm's *Checksum keys): it changes
// whenever the manifest does.
func LockMetaHash(s string) bool { return lockMetaRe().MatchString(s) }

var installCmdRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:npm|pnpm|yarn|bun|pip[0-9.]*|pipx|uv\s+pip|python[0-9.]*\s+-m\s+pip|cargo)\s+(?:install|i|add)\b([^|;&#]*)`)
})

// valueFlags are install options whose value is the next word: an index or
// a file, not the package.
var valueFlags = map[string]bool{"--index-url": true, "-i": true, "--extra-index-url": true, "-f": true, "--find-links": true, "--trusted-host": true,
	"-c": true, "-r": true, "--constraint": true, "--requirement": true, "--proxy": true, "--registry": true, "--root": true, "--target": true,
	"-t": true, "--prefix": true, "--cache-dir": true, "--features": true, "--version": true, "--branch": true, "--tag": true, "--rev": true,
	"--path": true, "--config": true, "--python": true, "--source": true, "--index": true, "--default-index": true}

// InstallFromURL reports an install command that names a URL or a git
// repository as the package (npm install https://….tgz, pip install
// git+https://…, cargo install --git …), and whether it is a git
// repository (built from its source, as a clone is) rather than an archive.
func InstallFromURL(s string) (ok, git bool) {
	m := installCmdRe().FindStringSubmatch(s)
	if m == nil {
		return false, false
	}
	f := strings.Fields(m[1])
	for i := 0; i < len(f); i++ {
		w := strings.Trim(f[i], `"'`)
		switch {
		case w == "--git":
			return true, true
		case valueFlags[w]:
			i++
		case strings.HasPrefix(w, "-"):
		case strings.HasPrefix(w, "git+") || strings.HasPrefix(w, "git://") || strings.HasPrefix(w, "git@") || strings.HasPrefix(w, "github:") ||
			strings.HasSuffix(strings.SplitN(w, "#", 2)[0], ".git"):
			return true, true
		case strings.HasPrefix(w, "http://") || strings.HasPrefix(w, "https://"):
			return true, false
		}
	}
	return false, false
}

// ---- autoconf ----------------------------------------------------------------

// autoconfShellArgs names the macros whose arguments configure (or
// autoconf itself, for m4_esyscmd) runs as shell, by argument (1-based; 0
// for every argument): configure's commands, the actions of its checks and
// options, the bodies of the macros a project defines.
var autoconfShellArgs = map[string][]int{
	"AC_CONFIG_COMMANDS": {2, 3}, "AC_CONFIG_COMMANDS_PRE": {1}, "AC_CONFIG_COMMANDS_POST": {1},
	"AC_CONFIG_FILES": {2, 3}, "AC_CONFIG_HEADERS": {2, 3}, "AC_CONFIG_LINKS": {2, 3}, "AC_OUTPUT_COMMANDS": {1, 2}, "AC_OUTPUT": {2, 3},
	"m4_esyscmd": {1}, "m4_esyscmd_s": {1}, "esyscmd": {1}, "m4_syscmd": {1}, "syscmd": {1},
	"AS_IF": {0}, "AS_CASE": {0}, "AC_ARG_ENABLE": {3, 4}, "AC_ARG_WITH": {3, 4}, "AC_CACHE_CHECK": {3}, "AC_CACHE_VAL": {2},
	"AC_DEFUN": {2}, "AC_DEFUN_ONCE": {2}, "AU_DEFUN": {2}, "m4_define": {2}, "define": {2},
	"AC_RUN_IFELSE": {2, 3, 4}, "AC_LINK_IFELSE": {2, 3}, "AC_COMPILE_IFELSE": {2, 3}, "AC_PREPROC_IFELSE": {2, 3},
	"AC_CHECK_LIB": {3, 4}, "AC_SEARCH_LIBS": {3, 4}, "AC_CHECK_FUNC": {2, 3}, "AC_CHECK_FUNCS": {2, 3}, "AC_CHECK_HEADER": {2, 3},
	"AC_CHECK_HEADERS": {2, 3}, "AC_CHECK_DECL": {2, 3}, "AC_CHECK_TYPE": {2, 3}, "AC_CHECK_MEMBER": {2, 3}, "AC_CHECK_FILE": {2, 3},
	"PKG_CHECK_MODULES": {3, 4}, "PKG_CHECK_EXISTS": {2, 3}, "AM_CONDITIONAL": {2},
}

var m4Builtin = map[string]bool{"dnl": true, "esyscmd": true, "syscmd": true, "define": true, "ifelse": true, "ifdef": true, "include": true,
	"sinclude": true, "divert": true, "undefine": true, "changequote": true}

// m4Macro reports a name configure.ac's m4 expands: autoconf's, automake's,
// libtool's, pkg-config's and gnulib's families, m4's own, and a
// project's (upper case with an underscore).
func m4Macro(name string) bool {
	if m4Builtin[name] {
		return true
	}
	for _, p := range []string{"AC_", "AM_", "AS_", "AH_", "AU_", "AX_", "LT_", "PKG_", "GTK_", "m4_", "_AC_", "_AM_", "_AS_", "gl_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return strings.Contains(name, "_") && strings.ToUpper(name) == name
}

// AutoconfShell returns the shell configure runs for the lines of
// configure.ac or an m4 file (a region in order): the text outside macros
// as it is, with m4's quotes taken off, and the arguments of the macros
// that take shell in their place, each on lines of its own numbered by
// where it is written. Macros and their other arguments (messages, names,
// file lists) are dropped.
func AutoconfShell(lines []NumLine) []NumLine {
	if len(lines) == 0 {
		return nil
	}
	var b strings.Builder
	starts := make([]int, len(lines)) // the offset of each line in src
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		starts[i] = b.Len()
		b.WriteString(l.Text)
	}
	src := b.String()
	c := &m4conv{src: src, lines: lines, starts: starts, n: lines[0].N}
	c.shell(0, len(src), 0)
	c.flush()
	return c.out
}

type m4conv struct {
	src    string
	lines  []NumLine
	starts []int
	out    []NumLine
	cur    strings.Builder
	n      int // the number of the line being written
}

func (c *m4conv) lineAt(p int) int {
	i, _ := slices.BinarySearch(c.starts, p+1)
	return c.lines[max(i-1, 0)].N
}

func (c *m4conv) flush() {
	if strings.TrimSpace(c.cur.String()) != "" {
		c.out = append(c.out, NumLine{c.n, c.cur.String()})
	}
	c.cur.Reset()
}

// newline starts a line numbered by where src's offset p is.
func (c *m4conv) newline(p int) {
	c.flush()
	c.n = c.lineAt(p)
}

// shell writes src[a:b] as shell text: quotes taken off, macros expanded
// to the shell arguments they take.
func (c *m4conv) shell(a, b, depth int) {
	s := c.src
	for i := a; i < b; {
		ch := s[i]
		switch {
		case ch == '\n':
			c.newline(i + 1)
			i++
		case ch == '[':
			// A quoted string: written as it is, without the outer quotes.
			end := m4Close(s, i, b)
			c.text(i+1, end)
			i = end + 1
		case ch == ']':
			i++
		case ch == '#' && (i == a || s[i-1] == ' ' || s[i-1] == '\t' || s[i-1] == '\n' || s[i-1] == ';'):
			end := strings.IndexByte(s[i:b], '\n')
			if end < 0 {
				end = b - i
			}
			i += end
		case isIdentStart(ch) && (i == a || !isIdentByte(s[i-1]) && s[i-1] != '$' && s[i-1] != '{'):
			j := i
			for j < b && isIdentByte(s[j]) {
				j++
			}
			name := s[i:j]
			if !m4Macro(name) || depth > 8 {
				c.cur.WriteString(name)
				i = j
				continue
			}
			if name == "dnl" {
				end := strings.IndexByte(s[j:b], '\n')
				if end < 0 {
					end = b - j
				}
				i = j + end
				continue
			}
			if j >= b || s[j] != '(' {
				i = j // a macro without arguments: expanded to what m4 knows
				continue
			}
			i = c.call(name, j, b, depth)
		default:
			c.cur.WriteByte(ch)
			i++
		}
	}
}

// text writes src[a:b] as it is, keeping its line breaks.
func (c *m4conv) text(a, b int) {
	for i := a; i < b; i++ {
		if c.src[i] == '\n' {
			c.newline(i + 1)
			continue
		}
		c.cur.WriteByte(c.src[i])
	}
}

// call writes the shell arguments of the macro call whose ( is at j, and
// returns the offset after it.
func (c *m4conv) call(name string, j, b, depth int) int {
	args, end := m4Args(c.src, j, b)
	want := autoconfShellArgs[name]
	for k, ar := range args {
		if slices.Contains(want, 0) || slices.Contains(want, k+1) {
			c.newline(ar[0])
			c.shell(ar[0], ar[1], depth+1)
			c.newline(ar[1])
		} else {
			c.skip(ar[0], ar[1], depth+1)
		}
	}
	return end
}

// skip drops src[a:b], keeping its line breaks and what the macros that
// take shell inside it run (AC_INIT's version from m4_esyscmd).
func (c *m4conv) skip(a, b, depth int) {
	s := c.src
	for i := a; i < b; i++ {
		switch ch := s[i]; {
		case ch == '\n':
			c.newline(i + 1)
		case depth <= 8 && isIdentStart(ch) && (i == a || !isIdentByte(s[i-1])):
			j := i
			for j < b && isIdentByte(s[j]) {
				j++
			}
			if _, ok := autoconfShellArgs[s[i:j]]; ok && j < b && s[j] == '(' {
				j = c.call(s[i:j], j, b, depth)
			}
			i = j - 1
		}
	}
}

// m4Close returns the offset of the ] that closes the [ at i (b when none).
func m4Close(s string, i, b int) int {
	depth := 0
	for k := i; k < b; k++ {
		switch s[k] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return b
}

// m4Args splits the arguments of the macro call whose ( is at i, and
// returns each argument's span, its outer quotes and leading blanks taken
// off, and the offset after the closing ).
func m4Args(s string, i, b int) ([][2]int, int) {
	var out [][2]int
	start, paren := i+1, 0
	add := func(e int) {
		a := start
		for a < e && (s[a] == ' ' || s[a] == '\t' || s[a] == '\n') {
			a++
		}
		z := e
		for z > a && (s[z-1] == ' ' || s[z-1] == '\t' || s[z-1] == '\n') {
			z--
		}
		if a < z && s[a] == '[' && m4Close(s, a, z) == z-1 {
			a, z = a+1, z-1
		}
		out = append(out, [2]int{a, z})
	}
	for k := i + 1; k < b; k++ {
		switch s[k] {
		case '[':
			k = m4Close(s, k, b)
		case '(':
			paren++
		case ')':
			if paren == 0 {
				add(k)
				return out, k + 1
			}
			paren--
		case ',':
			if paren == 0 {
				add(k)
				start = k + 1
			}
		}
	}
	add(b)
	return out, b
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
func isIdentByte(c byte) bool  { return isIdentStart(c) || c >= '0' && c <= '9' }

// ---- commands code hands to a shell ------------------------------------------

var (
	// A call that starts a process from a command string or an argument
	// list: Python's os.system and subprocess, nox's session.run, Conan's
	// self.run, Invoke's c.run, Node's execSync and spawnSync, PHP's
	// shell_exec, Ruby's system and IO.popen, Elixir's System.cmd, Go's
	// exec.Command.
	procCall = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:os\.(?:exec|execv|run|execute|iorun)|os\.system|os\.popen|subprocess\.(?:run|call|check_call|check_output|Popen)|session\.run(?:_always|_install)?|self\.run|(?:c|ctx|context)\.run|execSync|execFileSync|spawnSync|shell_exec|passthru|system|IO\.popen|Open3\.capture[23]e?|System\.cmd|exec\.Command(?:Context)?)\s*\(`)
	})
	// Rake's and Ruby's sh and system without parentheses.
	rubySh = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|[;{]|\bdo)\s*(?:sh|system)\s+(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')`)
	})
	codeInterp = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`#\{[^}]*\}|\$\{[^}]*\}|\{[A-Za-z_][\w.]*\}`) })
	// A backquoted string with nothing interpolated (a JavaScript
	// template, a Go raw string) is the literal text a quoted one is.
	plainTemplate = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`([^`$\\\\\"]*)`") })
)

// CIDetectVars are the variables (an alternation) CI systems set to say a
// job runs on them, beyond CI itself: build code that reads them behaves
// differently on the runner than on a developer's machine.
const CIDetectVars = `GITHUB_ACTIONS|GITLAB_CI|CIRCLECI|TRAVIS|JENKINS_URL|JENKINS_HOME|BUILDKITE|TF_BUILD|TEAMCITY_VERSION|BITBUCKET_BUILD_NUMBER|` +
	`DRONE|WOODPECKER|CODEBUILD_BUILD_ID|APPVEYOR|CIRRUS_CI|SEMAPHORE|BITRISE_IO|CM_BUILD_ID|BUILD_BUILDID|GITHUB_RUN_ID|CI_JOB_ID|CI_JOB_TOKEN|RUNNER_OS`

var (
	// Rust's std::process::Command (and tokio's): the program, then the
	// builder's calls that add its arguments.
	rustCommand = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bCommand::new\s*\(`) })
	rustStep    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\.\s*(\w+)\s*\(`) })
)

// rustBuilder reads a Command::new("prog") builder, from column col of
// lines[i] (after its parenthesis), through the .arg and .args calls that
// follow it on the same or the next lines, as the command line it runs. A
// shell given -c runs the script string, on the script's own line. An
// argument the code computes is a value the shell reader cannot see.
func rustBuilder(lines []NumLine, i, col int) (Command, bool) {
	toks, k, c := callTokens(lines, i, col, true, false)
	if len(toks) != 1 || !toks[0].quoted {
		return Command{}, false
	}
	words := []token{toks[0]}
	for steps := 0; steps < 24 && k < len(lines); steps++ {
		rest := ""
		if c < len(lines[k].Text) {
			rest = lines[k].Text[c:]
		}
		trimmed := strings.TrimLeft(rest, " \t")
		if trimmed == "" {
			k, c = k+1, 0
			continue
		}
		m := rustStep().FindStringSubmatchIndex(trimmed)
		if m == nil {
			break
		}
		name := trimmed[m[2]:m[3]]
		ts, k2, c2 := callTokens(lines, k, c+len(rest)-len(trimmed)+m[1], true, false)
		if name == "arg" || name == "args" {
			for _, t := range ts {
				switch {
				case t.quoted:
					words = append(words, t)
				case t.text == "r" || t.text == "&" || strings.Trim(t.text, "&#") == "":
					// a raw string's prefix, a borrow, an array's brace
				default:
					words = append(words, token{t.n, "${CODE_VALUE}", false})
				}
			}
		}
		k, c = k2, c2
	}
	if len(words) >= 3 && ShellName(path.Base(words[0].text)) && words[1].text == "-c" && words[2].quoted {
		return Command{words[2].n, words[2].text}, true
	}
	return joinCommand(words), true
}

// CodeCommands returns the commands a file of code starts with literal
// text: a command string handed to a shell (os.system("…"), sh "…",
// shell=True), or an argument list (subprocess.run(["curl", …]),
// session.run("sh", …)) as the command line it is. Arguments the code
// computes are values the shell reader cannot see.
func CodeCommands(lines []NumLine) []Command {
	var out []Command
	var plain []NumLine
	for i, l := range lines {
		if strings.IndexByte(l.Text, '`') >= 0 {
			if plain == nil {
				plain = slices.Clone(lines)
			}
			plain[i].Text = plainTemplate().ReplaceAllString(l.Text, `"$1"`)
		}
	}
	if plain != nil {
		lines = plain
	}
	for i := 0; i < len(lines); i++ {
		t := lines[i].Text
		if !strings.ContainsAny(t, `"'`) {
			continue
		}
		if m := rubySh().FindStringSubmatch(t); m != nil {
			out = append(out, Command{lines[i].N, codeInterp().ReplaceAllString(m[1]+m[2], "$${CODE_VALUE}")})
			continue
		}
		if loc := rustCommand().FindStringIndex(t); loc != nil {
			if c, ok := rustBuilder(lines, i, loc[1]); ok {
				out = append(out, c)
			}
			continue
		}
		loc := procCall().FindStringIndex(t)
		if loc == nil {
			continue
		}
		toks, _, _ := callTokens(lines, i, loc[1], true, false)
		var words []token
		shell := strings.Contains(t[loc[0]:loc[1]], "system") || strings.Contains(t[loc[0]:loc[1]], ".run") && !strings.Contains(t[loc[0]:loc[1]], "session") ||
			strings.Contains(t[loc[0]:loc[1]], "execSync") || strings.Contains(t[loc[0]:loc[1]], "shell_exec") || strings.Contains(t[loc[0]:loc[1]], "passthru") || strings.Contains(t[loc[0]:loc[1]], "popen")
		for _, tk := range toks {
			switch {
			case tk.quoted:
				tk.text = codeInterp().ReplaceAllString(tk.text, "$${CODE_VALUE}")
				words = append(words, tk)
			case tk.text == "shell=True" || tk.text == "shell:" || tk.text == "shell=true":
				shell = true
			case strings.Contains(tk.text, "=") || strings.HasSuffix(tk.text, ":") || tk.text == "f" || tk.text == "b" || tk.text == "r" ||
				strings.Trim(tk.text, "{}&.") == "":
				// a keyword argument, a string's prefix, a table's or
				// array's brace (Lua's {"-c", s}, Zig's &.{…})
			default:
				words = append(words, token{tk.n, "${CODE_VALUE}", false})
			}
		}
		switch {
		case len(words) == 0 || !words[0].quoted:
		case shell && len(words) == 1:
			out = append(out, Command{words[0].n, words[0].text})
		default:
			out = append(out, joinCommand(words))
		}
	}
	return out
}

// ---- files a build tool loads at every run ------------------------------------

var (
	jvmAgent = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`-(?:J-)?(?:javaagent|agentpath):([^\s"',=]+)|-(?:J-)?Xbootclasspath/[ap]:([^\s"',]+)`)
	})
	yarnPlugin = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(?:-\s+)?path\s*:\s*["']?([^"'\s]+)`) })
)

// BuildToolSettings names the build tool whose settings file p is, when
// the file can make the tool load code at every run: Gradle's daemon JVM
// arguments, Maven's .mvn/jvm.config, sbt's .jvmopts and .sbtopts, Yarn's
// plugins.
func BuildToolSettings(p string) string {
	lp := strings.ToLower(p)
	switch lb := path.Base(lp); {
	case lb == "gradle.properties":
		return "Gradle"
	case strings.HasSuffix(lp, ".mvn/jvm.config"):
		return "Maven"
	case lb == ".jvmopts" || lb == ".sbtopts":
		return "sbt"
	case lb == ".yarnrc.yml":
		return "yarn"
	}
	return ""
}

// BuildToolLoad returns the file a line of the tool's settings makes it
// load into itself at every build: a Java agent or a boot class path entry
// of the checkout (or /tmp, or a variable), a Yarn plugin outside Yarn's
// own plugins folder. "" for none; the system's own agents are not the
// change's.
func BuildToolLoad(tool, s string) string {
	if tool == "yarn" {
		if m := yarnPlugin().FindStringSubmatch(s); m != nil && !strings.Contains(m[1], ".yarn/plugins/") && !strings.Contains(m[1], ".yarn/releases/") {
			return m[1]
		}
		return ""
	}
	if tool == "Gradle" && !strings.Contains(s, "jvmargs") {
		return ""
	}
	m := jvmAgent().FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	f := m[1] + m[2]
	for _, sys := range []string{"/usr/", "/opt/", "/lib", "/Library/", "/Applications/"} {
		if strings.HasPrefix(f, sys) {
			return ""
		}
	}
	return f
}
