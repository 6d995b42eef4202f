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
// cmd), MSBuild (Exec tasks and build events) and Composer (its scripts,
// which install and update run by event name). Files that are not a
// build's but hold one command a line in their own syntax are read the same
// way: a Procfile's processes, a systemd unit's Exec lines, a crontab's
// jobs. "" for any other file.
func BuildSystem(p string) string {
	lb := strings.ToLower(path.Base(p))
	switch {
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
	case lb == "meson.build" || lb == "meson_options.txt":
		return "meson"
	case lb == "build" || lb == "build.bazel" || lb == "buck" || strings.HasSuffix(lb, ".bzl") || lb == "module.bazel" || lb == "workspace" || lb == "workspace.bazel":
		return "starlark"
	case strings.HasSuffix(lb, "proj") || strings.HasSuffix(lb, ".props") || strings.HasSuffix(lb, ".targets"):
		return "msbuild"
	case lb == "composer.json":
		return "composer"
	case lb == "pom.xml" || lb == "build.xml":
		return "maven"
	}
	return ""
}

// CommandsOf returns the commands the lines of a build file of the given
// system run, as shell: the build runs each on the runner by itself.
func CommandsOf(system string, lines []NumLine) []Command {
	switch system {
	case "cmake":
		return cmakeCommands(lines)
	case "meson":
		return callCommands(lines, mesonCall())
	case "starlark":
		return callCommands(lines, starlarkCmd())
	case "msbuild":
		return msbuildCommands(lines)
	case "composer":
		return composerCommands(lines)
	case "maven":
		return mavenCommands(lines)
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
		toks, end := callTokens(lines, i, loc[1], false, false)
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
	for i := 0; i < len(lines); i++ {
		loc := open.FindStringIndex(lines[i].Text)
		if loc == nil {
			continue
		}
		toks, end := callTokens(lines, i, loc[1], true, open == starlarkCmd())
		var strs []token
		for _, t := range toks {
			if t.quoted {
				strs = append(strs, t)
			}
		}
		switch {
		case open == starlarkCmd():
			// A genrule's cmd is a string, or strings joined: each one
			// is a command of the same shell.
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
		i = end
	}
	return out
}

// callTokens splits a call's arguments, from column col of lines[i] to the
// parenthesis or bracket that closes it, into words and quoted strings.
// With strs, quotes are Python's and Starlark's (' or "); else CMake's ("
// only). With value, the call is an attribute's value (cmd = …), which ends
// at the comma or parenthesis after it. It returns the tokens and the index
// of the line the call ends on.
func callTokens(lines []NumLine, i, col int, strs, value bool) ([]token, int) {
	var toks []token
	depth := 1
	for k := i; k < len(lines) && k < i+40; k++ {
		s := lines[k].Text
		if k == i {
			s = s[col:]
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
					return toks, k
				}
			case c == ',' && value && depth == 1:
				end()
				return toks, k
			case c == ' ' || c == '\t' || strs && c == ',':
				end()
			default:
				word.WriteByte(c)
			}
		}
		end()
	}
	return toks, i
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

var xmlArg = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`<argument>([^<]*)</argument>|<arg\s+(?:value|line)\s*=\s*"([^"]*)"`)
})

// mavenCommands returns the scripts Maven's exec plugin and Ant's exec task
// hand to a shell: the argument after -c (or cmd's /c), which runs at the
// build phase the plugin is bound to.
func mavenCommands(lines []NumLine) []Command {
	var out []Command
	un := strings.NewReplacer("&quot;", `"`, "&apos;", "'", "&lt;", "<", "&gt;", ">", "&amp;", "&")
	script := false
	for _, l := range lines {
		if !strings.Contains(l.Text, "<arg") {
			continue
		}
		for _, m := range xmlArg().FindAllStringSubmatch(l.Text, -1) {
			v := strings.TrimSpace(un.Replace(m[1] + m[2]))
			if script {
				out = append(out, Command{l.N, v})
				script = false
				continue
			}
			if c, ok := strings.CutPrefix(v, "-c "); ok && m[2] != "" {
				out = append(out, Command{l.N, strings.Trim(c, `'"`)})
			}
			script = v == "-c" || v == "/c" || v == "/C" || v == "-Command"
		}
	}
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
	return regexp.MustCompile(`^\s*["']?(?:build|path|globalSetup|globalTeardown|setupFiles|setupFilesAfterEnv|setupFilesAfterEach|require)["']?\s*[:=]\s*\[?\s*["']?(\.{0,2}/?[\w./-]+\.(?:rs|py|[cm]?js|[cm]?ts))["']?`)
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
	want := map[string][]string{"cargo": {"build"}, "the build backend": {"path"}, "mocha": {"require"},
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
