package rules

import (
	"encoding/json"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// ---- commands named by a manifest's keys -------------------------------------

// A manifest of many tools names, under keys of its own, commands the tool
// runs by itself: at install (pdm's post_install, Shards' postinstall), when
// an environment is made (Hatch's post-install-commands, devbox's
// init_hook, a Gitpod task's init), at every build (dub's preBuildCommands,
// cibuildwheel's before-all, Snapcraft's override-build, a deploy
// platform's build command), or in a release job with its publishing
// tokens (GoReleaser's hooks, semantic-release's exec commands). Each such
// value is shell, and the shell reader judges it as it would a script's
// line: what it downloads, decodes, runs and sends.

// keyedManifest names a manifest by its file name and the key paths whose
// values are commands. A path is matched against the end of a value's
// path (keys from the top, list items adding none): "*" stands for any one
// key, a trailing "*" for any key it starts.
type keyedManifest struct {
	names []string // lower-case base names; a leading "*" matches a suffix
	keys  []string
}

var keyedManifests = []keyedManifest{
	{[]string{"pyproject.toml"}, []string{
		"tool.pdm.scripts.*", "tool.pdm.scripts.*.cmd", "tool.pdm.scripts.*.shell",
		"tool.hatch.envs.*.scripts.*", "tool.hatch.envs.*.pre-install-commands", "tool.hatch.envs.*.post-install-commands",
		"tool.poe.tasks.*", "tool.poe.tasks.*.cmd", "tool.poe.tasks.*.shell", "tool.taskipy.tasks.*", "tool.taskipy.tasks.*.cmd",
		"tool.cibuildwheel.before-all", "tool.cibuildwheel.before-build", "tool.cibuildwheel.before-test", "tool.cibuildwheel.test-command",
		"tool.cibuildwheel.*.before-all", "tool.cibuildwheel.*.before-build", "tool.cibuildwheel.*.before-test", "tool.cibuildwheel.*.test-command",
		"tool.pixi.tasks.*", "tool.pixi.tasks.*.cmd"}},
	{[]string{"hatch.toml"}, []string{"envs.*.scripts.*", "envs.*.pre-install-commands", "envs.*.post-install-commands"}},
	{[]string{"pixi.toml"}, []string{"tasks.*", "tasks.*.cmd", "*.tasks.*", "*.tasks.*.cmd"}},
	{[]string{"tox.ini"}, []string{"testenv*.commands", "testenv*.commands_pre", "testenv*.commands_post", "testenv*.install_command"}},
	{[]string{"setup.cfg"}, []string{"testenv*.commands", "testenv*.commands_pre", "testenv*.commands_post"}},
	{[]string{"makefile.toml"}, []string{"tasks.*.script", "tasks.*.script.main"}},
	{[]string{"dub.json"}, []string{"preBuildCommands*", "postBuildCommands*", "preGenerateCommands*", "postGenerateCommands*", "preRunCommands*", "postRunCommands*"}},
	{[]string{"shard.yml"}, []string{"scripts.postinstall"}},
	{[]string{"package.json"}, []string{"simple-git-hooks.*", "husky.hooks.*", "lint-staged.*", "release-it.hooks.*", "nodemonConfig.events.*"}},
	{[]string{".lintstagedrc", ".lintstagedrc.json", ".lintstagedrc.yaml", ".lintstagedrc.yml", ".simple-git-hooks.json", "simple-git-hooks.json"}, []string{"*"}},
	{[]string{"deno.json", "deno.jsonc"}, []string{"tasks.*", "tasks.*.command"}},
	{[]string{"devbox.json"}, []string{"shell.init_hook", "shell.scripts.*"}},
	{[]string{"mise.toml", ".mise.toml", "mise.local.toml", ".mise.local.toml"}, []string{"hooks.*", "tasks.*", "tasks.*.run"}},
	{[]string{"manifest.toml"}, []string{"hook.on-activate", "profile.*"}},
	{[]string{".gitpod.yml", ".gitpod.yaml"}, []string{"tasks.init", "tasks.before", "tasks.command"}},
	{[]string{".readthedocs.yaml", ".readthedocs.yml", "readthedocs.yaml", "readthedocs.yml"}, []string{"build.jobs.*", "build.commands"}},
	{[]string{".goreleaser.yaml", ".goreleaser.yml", "goreleaser.yaml", "goreleaser.yml"}, []string{"before.hooks", "after.hooks", "hooks.pre", "hooks.post", "hooks.pre.cmd", "hooks.post.cmd"}},
	{[]string{"snapcraft.yaml", ".snapcraft.yaml"}, []string{"parts.*.override-*"}},
	{[]string{"renovate.json", "renovate.json5", ".renovaterc", ".renovaterc.json"}, []string{"postUpgradeTasks.commands"}},
	{[]string{".release-it.json", ".release-it.yaml", ".release-it.yml", ".release-it.toml"}, []string{"hooks.*"}},
	{[]string{".releaserc", ".releaserc.json", ".releaserc.yaml", ".releaserc.yml"}, []string{"*Cmd"}},
	{[]string{"lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml", "lefthook-local.yml"}, []string{"*.commands.*.run", "*.jobs.run"}},
	{[]string{"netlify.toml"}, []string{"build.command", "build.ignore", "context.*.command", "dev.command"}},
	{[]string{"vercel.json"}, []string{"buildCommand", "installCommand", "devCommand", "ignoreCommand"}},
	{[]string{"wrangler.toml"}, []string{"build.command"}},
	{[]string{"fly.toml"}, []string{"deploy.release_command"}},
	{[]string{"render.yaml"}, []string{"buildCommand", "preDeployCommand", "startCommand"}},
	// Read the Docs builds each pull request's docs by running these
	{[]string{".readthedocs.yaml", ".readthedocs.yml", "readthedocs.yml", "readthedocs.yaml"}, []string{"build.jobs.*", "build.jobs.build.*", "build.commands"}},
	{[]string{"railway.json", "railway.toml"}, []string{"build.buildCommand", "deploy.startCommand", "deploy.preDeployCommand"}},
	{[]string{"nixpacks.toml"}, []string{"phases.*.cmds", "start.cmd"}},
	{[]string{"amplify.yml", "amplify.yaml"}, []string{"phases.*.commands"}},
	{[]string{"firebase.json"}, []string{"predeploy", "postdeploy"}},
	{[]string{"app.json"}, []string{"scripts.postdeploy", "scripts.pr-predestroy"}},
	{[]string{".platform.app.yaml"}, []string{"hooks.build", "hooks.deploy", "hooks.post_deploy"}},
	{[]string{"project.json"}, []string{"targets.*.options.command", "targets.*.options.commands", "targets.*.options.commands.command"}},
	{[]string{"buildspec.yml", "buildspec.yaml"}, []string{"phases.*.commands", "phases.*.finally"}},
	{[]string{".cirrus.yml", ".cirrus.yaml"}, []string{"*_script", "*_script.*"}},
	{[]string{"codemagic.yaml", "codemagic.yml"}, []string{"scripts", "scripts.script"}},
	{[]string{"bitrise.yml", "bitrise.yaml"}, []string{"inputs.content"}},
	{[]string{".build.yml", "*.builds.yml"}, []string{"tasks.*"}},
	// the Serverless Framework's serverless-plugin-scripts: hooks run at every deploy
	{[]string{"serverless.yml", "serverless.yaml"}, []string{"custom.scripts.hooks.*", "custom.scripts.commands.*"}},
}

// KeyedManifest reports a manifest whose keys name commands (ManifestScripts).
func KeyedManifest(p string) bool {
	keys, _ := manifestKeys(p)
	return keys != nil || scriptedFile(p) != ""
}

// scriptedFile names the files whose commands sit in strings of their own
// syntax: Nix's build phases and shell hooks, an Xcode project's run-script
// build phases and a scheme's pre- and post-actions, CocoaPods' prepare
// command and script phases.
func scriptedFile(p string) string {
	lb := strings.ToLower(path.Base(p))
	switch {
	case strings.HasSuffix(lb, ".nix"):
		return "nix"
	case lb == "project.pbxproj":
		return "pbxproj"
	case strings.HasSuffix(lb, ".xcscheme"):
		return "xcscheme"
	case strings.HasSuffix(lb, ".podspec") || lb == "podfile":
		return "pod"
	case strings.HasSuffix(lb, ".kts") && strings.Contains(strings.ToLower(p), ".teamcity/"):
		return "teamcity"
	}
	return ""
}

var teamcityScript = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bscriptContent\s*=\s*("""|")(.*)$`) })

// teamcityScripts returns the scriptContent strings of a TeamCity Kotlin
// DSL file, its build steps' shell: """ strings over their lines, " strings
// on one. ${'$'} is Kotlin's escape of a $ the shell gets.
func teamcityScripts(lines []NumLine) [][]NumLine {
	dollar := strings.NewReplacer("${'$'}", "$", `\$`, "$")
	var out [][]NumLine
	for i := 0; i < len(lines); i++ {
		m := teamcityScript().FindStringSubmatch(lines[i].Text)
		if m == nil {
			continue
		}
		if body, _, ok := strings.Cut(m[2], m[1]); ok || m[1] == `"` {
			out = append(out, []NumLine{{lines[i].N, dollar.Replace(body)}})
			continue
		}
		var sc []NumLine
		if strings.TrimSpace(m[2]) != "" {
			sc = append(sc, NumLine{lines[i].N, dollar.Replace(m[2])})
		}
		for i++; i < len(lines); i++ {
			body, _, closed := strings.Cut(lines[i].Text, `"""`)
			if strings.TrimSpace(body) != "" {
				sc = append(sc, NumLine{lines[i].N, dollar.Replace(body)})
			}
			if closed {
				break
			}
		}
		if len(sc) > 0 {
			out = append(out, sc)
		}
	}
	return out
}

// manifestKeys returns the command keys of the manifest at p, and its syntax.
func manifestKeys(p string) ([]string, string) {
	lb := strings.ToLower(path.Base(p))
	lp := strings.ToLower(p)
	var keys []string
	for _, m := range keyedManifests {
		for _, n := range m.names {
			if n == lb || strings.HasPrefix(n, "*") && strings.HasSuffix(lp, n[1:]) {
				keys = m.keys
			}
		}
	}
	if keys == nil && (strings.Contains(lp, ".semaphore/") || strings.Contains(lp, "tekton/")) {
		keys = []string{"commands", "*.commands", "steps.script"}
	}
	if keys == nil && strings.Contains(lp, "argo") && (strings.HasSuffix(lb, ".yaml") || strings.HasSuffix(lb, ".yml")) {
		keys = []string{"script.source"} // an Argo Workflows template's script
	}
	if keys == nil && strings.HasPrefix(lb, "renovate") && strings.Contains(lp, ".github/") {
		keys = []string{"postUpgradeTasks.commands"}
	}
	if keys == nil && lb == ".replit" {
		return []string{"run", "onBoot", "compile", "deployment.run", "deployment.build"}, "toml" // Replit runs them in the workspace
	}
	if keys == nil {
		return nil, ""
	}
	switch path.Ext(lb) {
	case ".json", ".jsonc", ".json5", "":
		if lb == ".releaserc" || lb == ".renovaterc" || lb == ".lintstagedrc" || path.Ext(lb) != "" {
			return keys, "json"
		}
	case ".toml":
		return keys, "toml"
	case ".yml", ".yaml":
		return keys, "yaml"
	case ".ini", ".cfg":
		return keys, "ini"
	}
	return nil, ""
}

// ManifestScripts returns the commands the manifest at p names under its
// command keys (keyedManifests), each a script of one or more lines: a
// block of lines (YAML's |, TOML's """) is one script. lines are the file's
// lines the diff shows, in order.
func ManifestScripts(p string, lines []NumLine) [][]NumLine {
	switch scriptedFile(p) {
	case "nix":
		return nixScripts(lines)
	case "pbxproj":
		return quotedScripts(lines, pbxScript(), strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\"`, `"`, `\\`, `\`))
	case "xcscheme":
		return quotedScripts(lines, schemeScript(), strings.NewReplacer("&#10;", "\n", "&#xA;", "\n", "&quot;", `"`, "&apos;", "'", "&lt;", "<", "&gt;", ">", "&amp;", "&"))
	case "pod":
		return podScripts(lines)
	case "teamcity":
		return teamcityScripts(lines)
	}
	keys, syntax := manifestKeys(p)
	if keys == nil {
		return nil
	}
	var vals []keyedValue
	switch syntax {
	case "json":
		vals = jsonValues(lines)
	case "toml":
		vals = tomlValues(lines)
	case "yaml":
		vals = yamlValues(lines)
	case "ini":
		vals = iniValues(lines)
	}
	var out [][]NumLine
	for _, v := range vals {
		if keyMatches(v.path, keys) {
			out = append(out, v.lines)
		}
	}
	return out
}

// keyedValue is a string value of a manifest and the keys it is under.
type keyedValue struct {
	path  []string
	lines []NumLine
}

func keyMatches(p []string, pats []string) bool {
	for _, pat := range pats {
		ps := strings.Split(pat, ".")
		if len(ps) > len(p) {
			continue
		}
		tail := p[len(p)-len(ps):]
		ok := true
		for i, s := range ps {
			switch {
			case s == "*":
			case strings.HasSuffix(s, "*") && strings.HasPrefix(tail[i], s[:len(s)-1]):
			case strings.HasPrefix(s, "*") && strings.HasSuffix(tail[i], s[1:]):
			case s == tail[i]:
			default:
				ok = false
			}
			if !ok {
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func one(n int, s string, path []string) keyedValue {
	return keyedValue{path: path, lines: []NumLine{{n, s}}}
}

// jsonValues reads JSON (comments and a hunk's missing braces tolerated)
// token by token: a string after a key is its value, one in a list is the
// list's.
func jsonValues(lines []NumLine) []keyedValue {
	type frame struct {
		key string
		arr bool
	}
	var stack []frame
	var out []keyedValue
	pending := ""
	keys := func() []string {
		var p []string
		for _, f := range stack {
			if f.key != "" {
				p = append(p, f.key)
			}
		}
		return p
	}
	for _, l := range lines {
		s := l.Text
		for i := 0; i < len(s); i++ {
			switch c := s[i]; c {
			case '"':
				j := i + 1
				for j < len(s) && s[j] != '"' {
					if s[j] == '\\' {
						j++
					}
					j++
				}
				var v string
				if j >= len(s) || json.Unmarshal([]byte(s[i:j+1]), &v) != nil {
					v = s[i+1 : min(j, len(s))]
				}
				rest := strings.TrimLeft(s[min(j+1, len(s)):], " \t")
				if strings.HasPrefix(rest, ":") {
					pending = v
				} else if len(stack) > 0 && stack[len(stack)-1].arr {
					out = append(out, one(l.N, v, keys()))
				} else {
					out = append(out, one(l.N, v, append(keys(), pending)))
					pending = ""
				}
				i = j
			case '{', '[':
				k := pending
				if len(stack) > 0 && stack[len(stack)-1].arr {
					k = ""
				}
				stack = append(stack, frame{k, c == '['})
				pending = ""
			case '}', ']':
				if len(stack) > 0 {
					stack = stack[:len(stack)-1]
				}
			case '/':
				if i+1 < len(s) && s[i+1] == '/' {
					i = len(s)
				}
			}
		}
	}
	return out
}

var (
	tomlHeader = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$`) })
	tomlKey    = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*((?:[\w-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[\w-]+|"[^"]*"|'[^']*'))*)\s*=\s*(.*)$`)
	})
	tomlString = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'[^']*'`) })
	tomlPair   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`([\w-]+)\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*'|\[[^\]]*\])`)
	})
)

func tomlKeyPath(k string) []string {
	var out []string
	for _, s := range strings.Split(k, ".") {
		out = append(out, strings.Trim(strings.TrimSpace(s), `"'`))
	}
	return out
}

func tomlUnquote(s string) string {
	if strings.HasPrefix(s, "'") {
		return strings.Trim(s, "'")
	}
	var v string
	if json.Unmarshal([]byte(s), &v) == nil {
		return v
	}
	return strings.Trim(s, `"`)
}

// tomlValues reads TOML: a table's header names the keys below it; a value
// is a string, a list of strings (over lines too), an inline table's
// strings or a multi-line string (one script).
func tomlValues(lines []NumLine) []keyedValue {
	var out []keyedValue
	var table []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if m := tomlHeader().FindStringSubmatch(l.Text); m != nil {
			table = tomlKeyPath(m[1])
			continue
		}
		m := tomlKey().FindStringSubmatch(l.Text)
		if m == nil {
			continue
		}
		p := append(append([]string{}, table...), tomlKeyPath(m[1])...)
		v := strings.TrimSpace(m[2])
		switch {
		case strings.HasPrefix(v, `"""`) || strings.HasPrefix(v, "'''"):
			q := v[:3]
			body := v[3:]
			var script []NumLine
			if end := strings.Index(body, q); end >= 0 {
				out = append(out, one(l.N, body[:end], p))
				continue
			}
			if strings.TrimSpace(body) != "" {
				script = append(script, NumLine{l.N, body})
			}
			for i+1 < len(lines) && lines[i+1].N == lines[i].N+1 {
				i++
				t := lines[i].Text
				if end := strings.Index(t, q); end >= 0 {
					if strings.TrimSpace(t[:end]) != "" {
						script = append(script, NumLine{lines[i].N, t[:end]})
					}
					break
				}
				script = append(script, lines[i])
			}
			if len(script) > 0 {
				out = append(out, keyedValue{p, script})
			}
		case strings.HasPrefix(v, "["):
			// A list, until its bracket closes.
			for k := i; k < len(lines) && k < i+40; k++ {
				t := lines[k].Text
				if k == i {
					t = v
				}
				for _, s := range tomlString().FindAllString(t, -1) {
					out = append(out, one(lines[k].N, tomlUnquote(s), p))
				}
				if strings.Contains(tomlString().ReplaceAllString(t, ""), "]") {
					i = k
					break
				}
			}
		case strings.HasPrefix(v, "{"):
			for _, kv := range tomlPair().FindAllStringSubmatch(v, -1) {
				for _, s := range tomlString().FindAllString(kv[2], -1) {
					out = append(out, one(l.N, tomlUnquote(s), append(append([]string{}, p...), kv[1])))
				}
			}
		case strings.HasPrefix(v, `"`) || strings.HasPrefix(v, "'"):
			if s := tomlString().FindString(v); s != "" {
				out = append(out, one(l.N, tomlUnquote(s), p))
			}
		}
	}
	return out
}

var (
	yamlKey = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^("[^"]*"|'[^']*'|[^\s#'"][^:#]*?)\s*:(?:\s+(.*))?$`)
	})
	yamlFlow = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'[^']*'|[^,\s\[\]][^,\[\]]*`) })
)

func yamlScalar(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, " #"); i >= 0 && !strings.HasPrefix(s, `"`) && !strings.HasPrefix(s, "'") {
		s = strings.TrimSpace(s[:i])
	}
	switch {
	case strings.HasPrefix(s, "'") && strings.HasSuffix(s, "'") && len(s) > 1:
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	case strings.HasPrefix(s, `"`):
		var v string
		if json.Unmarshal([]byte(s), &v) == nil {
			return v
		}
		return strings.Trim(s, `"`)
	}
	return s
}

// yamlValues reads YAML by indentation: a key's children are the lines
// indented more; a list item adds no key; a block scalar (| or >) is one
// script of its lines. A gap between hunks starts afresh.
func yamlValues(lines []NumLine) []keyedValue {
	type frame struct {
		indent int
		key    string
	}
	var stack []frame
	var out []keyedValue
	keys := func(extra string) []string {
		p := make([]string, 0, len(stack)+1)
		for _, f := range stack {
			p = append(p, f.key)
		}
		if extra != "" {
			p = append(p, extra)
		}
		return p
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if i > 0 && l.N != lines[i-1].N+1 {
			stack = nil
		}
		t := strings.TrimRight(l.Text, " \t\r")
		body := strings.TrimLeft(t, " ")
		if body == "" || strings.HasPrefix(body, "#") {
			continue
		}
		ind := len(t) - len(body)
		dash := false
		for strings.HasPrefix(body, "- ") || body == "-" {
			dash = true
			body = strings.TrimLeft(body[1:], " ")
			ind = len(t) - len(body)
		}
		key, val := "", body
		if m := yamlKey().FindStringSubmatch(body); m != nil {
			key, val = strings.Trim(m[1], `"'`), strings.TrimSpace(m[2])
		}
		popTo := ind
		if dash && key == "" {
			popTo = ind - 1 // a list item belongs to the key above it
		}
		for len(stack) > 0 && stack[len(stack)-1].indent >= popTo {
			stack = stack[:len(stack)-1]
		}
		p := keys(key)
		switch {
		case key != "" && val == "":
			stack = append(stack, frame{ind, key})
		case strings.HasPrefix(val, "|") || strings.HasPrefix(val, ">"):
			fold := strings.HasPrefix(val, ">")
			var script []NumLine
			for i+1 < len(lines) && lines[i+1].N == lines[i].N+1 {
				nt := lines[i+1].Text
				nb := strings.TrimLeft(nt, " ")
				if nb != "" && len(nt)-len(nb) <= ind-boolInt(dash && key == "") {
					break
				}
				i++
				if nb == "" {
					continue
				}
				if fold && len(script) > 0 {
					script[len(script)-1].Text += " " + nb
					continue
				}
				script = append(script, NumLine{lines[i].N, nb})
			}
			if len(script) > 0 {
				out = append(out, keyedValue{p, script})
			}
		case strings.HasPrefix(val, "["):
			for _, s := range yamlFlow().FindAllString(strings.TrimSuffix(strings.TrimPrefix(val, "["), "]"), -1) {
				out = append(out, one(l.N, yamlScalar(s), p))
			}
		case strings.HasPrefix(val, "{"):
		default:
			out = append(out, one(l.N, yamlScalar(val), p))
		}
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

var iniKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([\w.:-]+)\s*[=:]\s*(.*)$`) })

// iniValues reads an INI file (tox.ini, setup.cfg): a section names the
// keys below it; a value's indented continuation lines are commands of
// their own, a trailing backslash joining two.
func iniValues(lines []NumLine) []keyedValue {
	var out []keyedValue
	section := ""
	var cur []string
	for _, l := range lines {
		t := strings.TrimRight(l.Text, " \t\r")
		body := strings.TrimSpace(t)
		if body == "" || strings.HasPrefix(body, "#") || strings.HasPrefix(body, ";") {
			continue
		}
		if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
			section, cur = strings.TrimSpace(t[1:len(t)-1]), nil
			continue
		}
		if t[0] == ' ' || t[0] == '\t' {
			if cur != nil {
				if n := len(out); n > 0 && strings.HasSuffix(out[n-1].lines[len(out[n-1].lines)-1].Text, "\\") && slices.Equal(out[n-1].path, cur) {
					out[n-1].lines = append(out[n-1].lines, NumLine{l.N, body})
					continue
				}
				out = append(out, one(l.N, body, cur))
			}
			continue
		}
		m := iniKey().FindStringSubmatch(t)
		if m == nil {
			cur = nil
			continue
		}
		cur = []string{section, m[1]}
		if v := strings.TrimSpace(m[2]); v != "" {
			out = append(out, one(l.N, v, cur))
		}
	}
	return out
}

var (
	pbxScript    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*shellScript\s*=\s*"((?:[^"\\]|\\.)*)"\s*;`) })
	schemeScript = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bscriptText\s*=\s*"([^"]*)"`) })
	nixAttr      = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*([\w-]+(?:\.[\w-]+)*)\s*=\s*(?:(?:lib\.)?\w+\s+)?(''|")(.*)$`)
	})
	nixRunCommand = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\brunCommand(?:Local|CC|NoCC)?\b`) })
	nixInterp     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{[^}]*\}`) })
	podScript     = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:\.prepare_command\s*=|:script\s*=>|\bscript:)\s*(?:<<[-~]?['"]?(\w+)['"]?|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')`)
	})
)

// nixKeys are the attributes of a derivation or a shell whose strings are
// shell: the build's phases and their hooks (buildPhase, preBuild,
// postInstall), a builder's command, the shell hook nix develop (and
// direnv's use flake) runs on entering, devenv's enterShell and scripts.
var nixKeys = []string{"*Phase", "pre*", "post*", "shellHook", "buildCommand", "installCommand", "enterShell", "exec", "script", "runCommand"}

// quotedScripts returns the script each line's quoted string holds, its
// escapes undone, numbered by the line.
func quotedScripts(lines []NumLine, re *regexp.Regexp, un *strings.Replacer) [][]NumLine {
	var out [][]NumLine
	for _, l := range lines {
		if m := re.FindStringSubmatch(l.Text); m != nil {
			var sc []NumLine
			for _, t := range strings.Split(un.Replace(m[1]), "\n") {
				if strings.TrimSpace(t) != "" {
					sc = append(sc, NumLine{l.N, t})
				}
			}
			if len(sc) > 0 {
				out = append(out, sc)
			}
		}
	}
	return out
}

// nixScripts returns the strings of a Nix file's shell attributes
// (nixKeys) and of runCommand: ” strings over their lines, " strings on
// one. An interpolation is a value the shell reader cannot see.
func nixScripts(lines []NumLine) [][]NumLine {
	var out [][]NumLine
	run := -1 // the line of a runCommand whose script is still to come
	clean := func(s string) string {
		return nixInterp().ReplaceAllString(strings.ReplaceAll(s, "''${", "${"), "$${NIX_VALUE}")
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		var key, quote, rest string
		if m := nixAttr().FindStringSubmatch(l.Text); m != nil {
			ks := strings.Split(m[1], ".")
			key, quote, rest = ks[len(ks)-1], m[2], m[3]
		}
		at := 0
		if loc := nixRunCommand().FindStringIndex(l.Text); loc != nil {
			run, at = i, loc[1]
			key = "" // the script is runCommand's, whatever the attribute holding it
		}
		if key == "" && run >= 0 && i-run < 10 {
			if j := strings.Index(l.Text[at:], "''"); j >= 0 {
				key, quote, rest = "runCommand", "''", l.Text[at+j+2:]
			}
		}
		if key == "" || !keyMatches([]string{key}, nixKeys) {
			continue
		}
		if key == "runCommand" {
			run = -1
		}
		if quote == `"` {
			if end := strings.Index(rest, `"`); end >= 0 {
				out = append(out, []NumLine{{l.N, clean(rest[:end])}})
			}
			continue
		}
		var sc []NumLine
		for k, t := i, rest; k < len(lines) && k < i+200; k++ {
			if k > i {
				if lines[k].N != lines[k-1].N+1 {
					break
				}
				t = lines[k].Text
			}
			// '' ends the string; ''' and ''$ are its escapes.
			end := strings.Index(strings.NewReplacer("'''", "   ", "''$", "   ").Replace(t), "''")
			if end >= 0 {
				t = t[:end]
			}
			if strings.TrimSpace(t) != "" {
				sc = append(sc, NumLine{lines[k].N, clean(t)})
			}
			if end >= 0 {
				i = k
				break
			}
		}
		if len(sc) > 0 {
			out = append(out, sc)
		}
	}
	return out
}

// podScripts returns a podspec's or Podfile's prepare_command and script
// phases' scripts: a string, or a here-document over its lines.
func podScripts(lines []NumLine) [][]NumLine {
	var out [][]NumLine
	for i := 0; i < len(lines); i++ {
		m := podScript().FindStringSubmatch(lines[i].Text)
		if m == nil {
			continue
		}
		if m[1] == "" {
			s := strings.NewReplacer(`\"`, `"`, `\'`, "'", `\n`, "\n").Replace(m[2] + m[3])
			out = append(out, []NumLine{{lines[i].N, s}})
			continue
		}
		var sc []NumLine
		for k := i + 1; k < len(lines) && k < i+200 && lines[k].N == lines[k-1].N+1; k++ {
			if strings.TrimSpace(lines[k].Text) == m[1] {
				i = k
				break
			}
			sc = append(sc, lines[k])
		}
		if len(sc) > 0 {
			out = append(out, sc)
		}
	}
	return out
}
