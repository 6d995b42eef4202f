package attention

// Build files of the build systems the other readers do not know, read for
// the two things any of them can do with the runner: run a command while the
// build is configured (a gyp command expansion) and fetch packages from a
// repository other than the registry (Gradle and Maven repositories and
// mirrors, NuGet sources, Bun's registry, pip options in a requirements
// file of any name). A command is handed to the shell reader, which rates
// what it runs as it would in a script; a repository is rated by its host.

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/vetter-dev/vetter/attention/provenance"
	"github.com/vetter-dev/vetter/attention/rules"
	"github.com/vetter-dev/vetter/packet"
	"mvdan.cc/sh/v3/syntax"
)

type buildRes struct {
	gradleURL, gradleBlock, gradleKnown, mavenURL, mavenBlock, mavenSkip, nugetSource, bunRegistry, pipOption, flagsEnv, editorCmd *regexp.Regexp
}

var buildRe = sync.OnceValue(func() *buildRes {
	return &buildRes{
		// maven("https://…"), maven { url "…" }, url = uri("…"), setUrl("…")
		gradleURL:   regexp.MustCompile(`\b(?:maven|ivy)\s*\(\s*(?:url\s*=\s*)?(?:uri\(\s*)?["'](https?://[^"']+)["']|\burl\s*(?:=\s*)?\(?\s*(?:uri\(\s*)?["'](https?://[^"']+)["']|\bsetUrl\(\s*["'](https?://[^"']+)["']`),
		gradleBlock: regexp.MustCompile(`\b(?:maven|ivy)\s*[({]`),
		gradleKnown: regexp.MustCompile(`\b(?:mavenCentral|google|gradlePluginPortal|mavenLocal|jcenter)\s*\(\s*\)`),
		mavenURL:    regexp.MustCompile(`<url>\s*(https?://[^<\s]+)\s*</url>`),
		mavenBlock:  regexp.MustCompile(`<(?:repository|pluginRepository|mirror)>`),
		mavenSkip:   regexp.MustCompile(`<(?:distributionManagement|snapshotRepository|site|scm|issueManagement|ciManagement|organization|license)>`),
		nugetSource: regexp.MustCompile(`<add\s+key\s*=\s*"[^"]*"\s+value\s*=\s*"(https?://[^"]+)"`),
		bunRegistry: regexp.MustCompile(`^\s*registry\s*=\s*(?:\{[^}]*url\s*=\s*)?["'](https?://[^"']+)["']`),
		flagsEnv:    regexp.MustCompile(`\b(?:CGO_(?:C|CXX|CPP|F|LD)FLAGS(?:_ALLOW)?|CFLAGS|CXXFLAGS|CPPFLAGS|LDFLAGS)\s*(?:[:=]|\+=)\s*(.*)$`),
		editorCmd:   regexp.MustCompile(`^\s*"(command|postCreateCommand|postStartCommand|postAttachCommand|onCreateCommand|updateContentCommand|initializeCommand|preLaunchTask)"\s*:\s*"((?:[^"\\]|\\.)*)"`),
		pipOption:   regexp.MustCompile(`^\s*(?:--(?:extra-)?index-url|-i|--find-links|-f)(?:\s+|\s*=\s*)(https?://\S+)`),
	}
})

// buildFiles reads the build files named above, whatever else read them.
func (fs *fileScan) buildFiles() {
	if fs.f.Binary || fs.f.Status == packet.StatusDeleted {
		return
	}
	hot := fs.hot
	for g := range hot {
		// Nearly every file names a URL: forgeOwners indexes the file
		// only when one is worth a look.
		if g != hotForge && len(hot[g]) > 0 && fs.added == nil {
			fs.index()
		}
	}
	if !fs.info.Prose {
		fs.toolchainFlags(hot[hotFlags])
		fs.windowsAutorun(hot[hotAutorun])
		if fs.info.Scope&rules.ScopeWorkflow == 0 {
			fs.loaderVars(hot[hotLoader])
		}
	}
	if fs.info.Rule == "ci-config" || rules.Taskfile(fs.path) {
		fs.ciConfig()
		fs.configPulls()
		fs.prSecrets()
	}
	if fs.info.Scope&rules.ScopeWorkflow != 0 {
		fs.foreignCheckouts()
	}
	if rules.Autoconf(fs.path) {
		// configure runs the shell written in configure.ac and in the m4
		// files' macro arguments (rules.AutoconfShell), one script.
		fl := newFlow()
		for _, reg := range fs.regions() {
			src := make([]rules.NumLine, len(reg))
			for i, l := range reg {
				src[i] = rules.NumLine{N: l.n, Text: l.text}
			}
			var sh []numbered
			for _, l := range rules.AutoconfShell(src) {
				sh = append(sh, numbered{l.N, l.Text})
			}
			if fs.added == nil {
				fs.index()
			}
			fs.shellLines(sh, fl, false)
		}
	}
	if fs.info.Scope&rules.ScopeMakefile != 0 {
		fs.makeShell()
	}
	if tool := rules.BuildToolSettings(fs.path); tool != "" {
		if fs.added == nil {
			fs.index()
		}
		for n := range fs.added {
			if f := rules.BuildToolLoad(tool, fs.text[n]); f != "" {
				fs.report(n, hit{id: "build-tool-exec", title: "makes " + tool + " load " + f + " into itself at every run"})
			}
		}
	}
	if !fs.info.Prose {
		fs.buildCommands()
		fs.packaging()
		fs.lockHashSwaps()
		fs.yamlImageDigests()
		fs.installsFromURL(fs.hot[hotInstall])
		fs.forgeOwners(hot[hotForge])
		fs.ownerSwitches()
		fs.manifestSources()
	}
	fs.images()
	if !fs.info.Prose && !fs.sourcesRead() {
		// Index options are pip's, uv's and npm's wherever a command line
		// or a config passes them (conda's environment.yml, tox.ini, a
		// Python script that runs pip): the readers that know a file's
		// structure read them in theirs.
		for _, l := range hot[hotIndex] {
			fs.indexLine(l.n, l.text)
		}
	}
	if fs.info.Rule == "ci-config" {
		return
	}
	lb := strings.ToLower(path.Base(fs.path))
	ext := path.Ext(lb)
	switch {
	case fs.info.Scope&rules.ScopePackageJSON != 0:
		fs.typosquats("npm")
	case lb == "cargo.toml":
		fs.manifestDeps("cargo")
	case lb == "deno.json" || lb == "deno.jsonc" || strings.HasSuffix(lb, "import_map.json") || strings.HasSuffix(lb, "importmap.json") || lb == "import-map.json":
		fs.manifestDeps("importmap")
	case lb == "pyproject.toml" || lb == "pipfile":
		fs.manifestDeps("pyproject")
	case lb == "pom.xml" || ext == ".gradle" || strings.HasSuffix(lb, ".gradle.kts") || strings.HasSuffix(lb, ".versions.toml"):
		fs.manifestDeps("maven")
	case lb == "flake.nix":
		fs.manifestDeps("flake")
	case ext == ".go":
		fs.goImports()
	case lb == "gemfile" || ext == ".gemspec" || lb == "gems.rb":
		fs.manifestDeps("gem")
	case (strings.HasPrefix(lb, "environment") || strings.HasPrefix(lb, "conda")) && (ext == ".yml" || ext == ".yaml"):
		fs.manifestDeps("conda")
	case strings.HasSuffix(lb, "proj") || lb == "packages.config" || lb == "directory.packages.props" || lb == "paket.dependencies":
		fs.manifestDeps("nuget")
	case fs.info.Scope&rules.ScopeRequirements != 0 && (strings.HasPrefix(lb, "requirements") || lb == "constraints.txt") ||
		(ext == ".txt" || ext == ".in") && strings.Contains(strings.ToLower(fs.path), "requirements"):
		fs.typosquats("pypi")
		fs.indexConfusion()
	}
	var line func(n int, s string)
	switch {
	case ext == ".gyp" || ext == ".gypi":
		line = fs.gypLine
	case strings.HasSuffix(lb, ".gradle") || strings.HasSuffix(lb, ".gradle.kts"):
		line = fs.gradleRepo
	case lb == "pom.xml" || lb == "settings.xml" || strings.HasSuffix(lb, ".pom"):
		line = fs.mavenRepo
	case lb == "nuget.config":
		line = fs.nugetSource
	case lb == "bunfig.toml":
		line = fs.bunRegistry
	case lb == "tasks.json" || lb == "devcontainer.json" || lb == ".devcontainer.json" || lb == "launch.json" || ext == ".code-workspace" || agentConfig(fs.path):
		line = fs.editorCommand
	case ext == ".txt" || ext == ".in":
		// pip's options make any text file a requirements file.
		line = fs.pipOption
	default:
		return
	}
	if fs.added == nil {
		fs.index()
	}
	for n := range fs.added {
		line(n, fs.text[n])
	}
}

// gypLine hands each command expansion (<!(…) and <!@(…), which gyp runs
// while it generates the build) to the shell reader.
func (fs *fileScan) gypLine(n int, s string) {
	for rest := s; ; {
		i := strings.Index(rest, "<!")
		if i < 0 {
			return
		}
		rest = rest[i+2:]
		rest = strings.TrimPrefix(rest, "@")
		if !strings.HasPrefix(rest, "(") {
			continue
		}
		cmd, tail := balanced(rest)
		rest = tail
		if strings.HasPrefix(strings.TrimSpace(cmd), "[") {
			continue // a list of words gyp runs without a shell: python scripts in the tree
		}
		cmd = strings.NewReplacer(`\"`, `"`, `\'`, `'`, `\\`, `\`).Replace(cmd)
		fs.shellLines([]numbered{{n, cmd}}, newFlow(), false)
		fs.gypFetch(n, cmd)
		fs.gypRuns(n, cmd)
	}
}

// gypRuns rates a gyp command expansion that runs a script: node-gyp runs
// it by itself at npm install (npm runs node-gyp rebuild for a package
// with a binding.gyp and no install script of its own), so it is an
// install script that package.json does not show. Real addons ask a
// module for a path (node -p "require('node-addon-api').include") or run
// a helper whose output becomes a list of flags; a script whose output is
// thrown away or left running is run for what it does, not for what it
// prints, and one the same change writes is code nobody has read yet.
func (fs *fileScan) gypRuns(n int, cmd string) {
	if _, added := fs.added[n]; !added {
		return
	}
	f, err := fs.parseShell(cmd)
	if err != nil {
		return
	}
	var title string
	high := false
	syntax.Walk(f, func(node syntax.Node) bool {
		st, ok := node.(*syntax.Stmt)
		if !ok || high {
			return !high
		}
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !ok {
			return true
		}
		var words []string
		for _, w := range c.Args {
			words = append(words, wordText(w))
		}
		script := rules.ScriptRun(words)
		if script == "" {
			return true
		}
		switch {
		case st.Background || words[0] == "nohup" || words[0] == "setsid":
			title, high = "node-gyp runs "+script+" at npm install and leaves it running", true
		case outputDropped(st.Redirs):
			title, high = "node-gyp runs "+script+" at npm install for what it does: its output, the expansion's value, is thrown away", true
		case fs.shown[path.Join(path.Dir(fs.path), script)]:
			title, high = "node-gyp runs "+script+" at npm install, a file this same change writes", true
		case title == "":
			title = "node-gyp runs " + script + " at npm install"
		}
		return !high
	})
	switch {
	case high:
		fs.report(n, hit{id: "npm-lifecycle-runs", title: title, why: "a command expansion in a gyp file is an install script package.json does not show: npm runs node-gyp at install, on the runner, before any test"})
	case title != "":
		fs.report(n, hit{id: "npm-lifecycle", title: title})
	}
}

// outputDropped reports redirections that send a command's standard
// output anywhere but to whoever reads it (a file, /dev/null).
func outputDropped(rs []*syntax.Redirect) bool {
	for _, rd := range rs {
		switch rd.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll:
			if rd.N == nil || rd.N.Value == "1" {
				return true
			}
		}
	}
	return false
}

// wordText is a word's text with its quotes taken off; what the shell
// would expand is kept as written.
func wordText(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(l.Value)
				} else {
					b.WriteString("$")
				}
			}
		default:
			b.WriteString("$")
		}
	}
	return b.String()
}

// balanced returns the text inside the parenthesis s starts with, and what
// follows it; quotes are skipped over.
func balanced(s string) (inner, rest string) {
	depth := 0
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			// gyp's own quoting is of the list item; the command's quotes
			// are escaped inside it.
			if i > 0 && s[i-1] == '\\' {
				continue
			}
			q = c
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return s[1:i], s[i+1:]
			}
		}
	}
	return s[1:], ""
}

// gradleRepo rates a repository URL in a Gradle build or settings file.
// Gradle asks its repositories in order and takes a module from the first
// that has it: one listed before the well-known ones serves every module;
// one after them serves only what they lack.
func (fs *fileScan) gradleRepo(n int, s string) {
	re := buildRe()
	m := re.gradleURL.FindStringSubmatch(s)
	if m == nil {
		return
	}
	u := m[1] + m[2] + m[3]
	if m[1] == "" && m[3] == "" {
		// url = … must sit in a maven { } or ivy { } block.
		in := re.gradleBlock.MatchString(s)
		for k := n - 1; !in && k > 0 && k >= n-3; k-- {
			in = re.gradleBlock.MatchString(fs.text[k])
		}
		if !in {
			return
		}
	}
	if strings.HasPrefix(u, "http://") {
		fs.indexSource(n, u, "", true)
		return
	}
	h, ok := provenance.Redirected(u)
	if !ok || provenance.HostIn(h, provenance.SharedPackageHosts) {
		return
	}
	for k := n - 1; k > 0 && k >= n-15; k-- {
		if t := fs.text[k]; strings.Contains(t, "publishing") || strings.Contains(t, "mavenDeployer") || strings.Contains(t, "uploadArchives") {
			return // where the build publishes, not where it fetches
		}
	}
	hit := hit{id: "registry-redirect", title: "adds the Gradle repository " + h + " ahead of the well-known ones"}
	for k := n - 1; k > 0 && k >= n-12; k-- {
		t := fs.text[k]
		if strings.Contains(t, "repositories") {
			break
		}
		if re.gradleKnown.MatchString(t) {
			hit.severity = rules.Medium
			hit.title = "adds the Gradle repository " + h + " after the well-known ones"
			hit.why = "Gradle takes from it only the modules the repositories before it lack; check which those are and who runs the host"
			break
		}
	}
	if k := provenance.LookalikeHost(h); k != "" {
		// A host dressed as a well-known one is no mirror, wherever it stands.
		hit.id, hit.severity, hit.why, hit.title = "lookalike-source", "", "", "adds the Gradle repository "+h+", a look-alike of "+k
	}
	fs.report(n, hit)
}

// mavenRepo rates a <url> of a <repository>, <pluginRepository> or
// <mirror>: Maven asks a declared repository before Maven Central, and a
// mirror of * or central replaces it outright.
func (fs *fileScan) mavenRepo(n int, s string) {
	re := buildRe()
	m := re.mavenURL.FindStringSubmatch(s)
	if m == nil {
		return
	}
	in := false
	for k := n; k > 0 && k >= n-6; k-- {
		t := fs.text[k]
		if re.mavenSkip.MatchString(t) {
			return
		}
		if re.mavenBlock.MatchString(t) {
			in = true
			break
		}
	}
	for k := n - 1; in && k > 0 && k >= n-12; k-- {
		if strings.Contains(fs.text[k], "<distributionManagement>") {
			return // where the build publishes, not where it fetches
		}
	}
	if !in {
		return
	}
	fs.indexSource(n, m[1], "points Maven at the repository %s", true)
}

func (fs *fileScan) nugetSource(n int, s string) {
	if m := buildRe().nugetSource.FindStringSubmatch(s); m != nil {
		fs.indexSource(n, m[1], "adds the NuGet package source %s", true)
	}
}

func (fs *fileScan) bunRegistry(n int, s string) {
	if m := buildRe().bunRegistry.FindStringSubmatch(s); m != nil {
		fs.indexSource(n, m[1], "points bun installs at the registry %s", false)
	}
}

// indexConfusion rates the names a requirements file adds unpinned while
// it names a second index (rules.ConfusableName), on the name's line.
func (fs *fileScan) indexConfusion() {
	idx, at := "", 0
	for n, t := range fs.text {
		if u := rules.ExtraIndex(t); u != "" && (at == 0 || n < at) {
			idx, at = u, n
		}
	}
	if idx == "" {
		return
	}
	for n := range fs.added {
		if name := rules.ConfusableName(fs.text[n]); name != "" {
			fs.report(n, confusionHit(name, idx, at))
		}
	}
}

// confusionHit is dependency-confusion for name under the second index
// idx, rated by rules.Confusion.
func confusionHit(name, idx string, at int) hit {
	h := hit{id: "dependency-confusion", source: at}
	var high bool
	h.title, h.why, high = rules.Confusion(name, idx, provenance.HostOf(idx))
	if !high {
		h.severity = rules.Medium
	}
	return h
}

// pipOption rates an index option line of a requirements file: pip takes
// each package from whichever index offers the highest version, so an
// extra index serves any name it chooses to publish (dependency confusion).
func (fs *fileScan) pipOption(n int, s string) {
	if m := buildRe().pipOption.FindStringSubmatch(s); m != nil {
		fs.indexSource(n, m[1], "points pip at the index %s", false)
	}
}

var paramExpRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{[^}]*\}`) })

// toolchainFlags rates compiler and linker flags set through the
// environment (CGO_LDFLAGS in a workflow, LDFLAGS in a Makefile) that make
// the toolchain load and run a file: the same flags cgo directives are read
// for. A plugin under the system's own directories is the toolchain's.
func (fs *fileScan) toolchainFlags(lines []numbered) {
	for _, l := range lines {
		n, s := l.n, l.text
		m := buildRe().flagsEnv.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		// A parameter expansion (${CFLAGS//-fuse-ld=gold/}) is the shell's
		// edit of a value, not a flag the line sets.
		v := paramExpRe().ReplaceAllString(m[1], "")
		if f := rules.ToolchainFlag(rules.EnvFlagWords(v)); f != "" {
			fs.report(n, hit{id: "cgo-flags", title: strings.TrimSpace(m[0][:strings.IndexAny(m[0], ":=+")]) + " passes " + f})
		}
	}
}

// editorCommand hands the shell commands of an editor's tasks and a dev
// container's lifecycle hooks to the shell reader: VS Code runs a task
// marked runOn folderOpen as soon as the folder is opened, and a dev
// container runs its hooks when it is built, on the reviewer's machine or
// a Codespace with the reviewer's tokens.
func (fs *fileScan) editorCommand(n int, s string) {
	if folderOpenRe().MatchString(s) && !fs.runsDeclaredScript(n) {
		// Nobody runs this task: opening the folder does, in the
		// reviewer's editor, a Codespace or an agent's workspace.
		fs.report(n, hit{id: "editor-autorun"})
	}
	m := buildRe().editorCmd.FindStringSubmatch(s)
	if m == nil || m[1] == "preLaunchTask" {
		return
	}
	cmd := strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(m[2])
	fs.shellLines([]numbered{{n, cmd}}, newFlow(), false)
}

var (
	// Jenkins' sh steps, and TeamCity's scriptContent, are shell in a
	// string of the pipeline's code.
	jenkinsShOpen = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(?:(?:sh|bat|powershell|pwsh)\s*\(?\s*(?:script\s*:\s*)?|.*\bscriptContent\s*=\s*)('''|""")(.*)$`)
	})
	jenkinsLoad = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bload\s*\(?\s*["']([^"']+)["']`) })
	jenkinsSh   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(?:(?:sh|bat|powershell|pwsh)\s*\(?\s*(?:script\s*:\s*)?|.*\bscriptContent\s*=\s*)(?:'(?:'')?([^']*)(?:'')?'|"(?:"")?((?:[^"\\]|\\.)*)(?:"")?")`)
	})
)

// ciConfig reads the scripts of the CI systems other than GitHub Actions
// (rules.CIScriptKey: GitLab, CircleCI, Azure Pipelines, Buildkite, Travis,
// Jenkins and the others) as shell, one script per key: their runners run
// them with the project's CI variables and tokens (CI_JOB_TOKEN and the
// secrets a project sets).
func (fs *fileScan) ciConfig() {
	if fs.added == nil {
		fs.index()
	}
	ns := make([]int, 0, len(fs.text))
	for n := range fs.text {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	fl := newFlow()
	ownAgents := rules.CIOwnAgents(fs.path)
	var block []numbered
	// A folded scalar (- >-, command: >) is one command written over
	// lines: they are joined, numbered by the first.
	fold, foldN, foldText := -1, 0, ""
	flush := func() {
		if fold >= 0 && foldN > 0 {
			block = append(block, numbered{foldN, foldText})
		}
		fold, foldN, foldText = -1, 0, ""
		if len(block) > 0 {
			if ownAgents {
				fs.agentHostAccess(block)
			}
			fs.shellLines(block, fl, true)
			block = nil
		}
	}
	indent := -1
	vars := -1   // the indentation of a vars:, variables: or env: block being read
	dynVar := "" // a var whose sh: line comes next
	quote := ""  // the triple quote a Jenkinsfile's multi-line sh step is open in
	jenkins := rules.Jenkinsfile(fs.path)
	scriptKey := rules.CIScriptKey(fs.path)
	splice := rules.CISplice(fs.path)
	for i, n := range ns {
		t := fs.text[n]
		if jenkins {
			fs.jenkinsBinds(n, t, fl)
		}
		if m := ciVarsKey().FindStringSubmatch(t); m != nil {
			// NAME: value under vars: names what the commands use
			// ($NAME, {{.NAME}}), as an assignment would.
			vars = len(m[1])
			continue
		}
		if vars >= 0 {
			if m := ciDynVar().FindStringSubmatch(t); m != nil && len(m[1]) > vars {
				// NAME: {sh: cmd}, or NAME: then sh: cmd: Task runs the
				// command when it reads the file, and NAME holds its output.
				if m[3] != "" {
					fs.shellLines([]numbered{{n, m[2] + `="$(` + unquoteYAML(m[3]) + `)"`}}, fl, false)
				} else {
					dynVar = m[2]
				}
				continue
			}
			if m := ciShKey().FindStringSubmatch(t); m != nil && dynVar != "" {
				fs.shellLines([]numbered{{n, dynVar + `="$(` + ciShell(unquoteYAML(strings.TrimSpace(m[1]))) + `)"`}}, fl, false)
				dynVar = ""
				continue
			}
			dynVar = ""
			if m := ciVarLine().FindStringSubmatch(t); m != nil && len(m[1]) > vars {
				fl.vals[m[2]] = unquoteYAML(strings.TrimSpace(m[3]))
				continue
			}
			if tr := strings.TrimSpace(t); tr != "" && !strings.HasPrefix(tr, "#") && len(t)-len(strings.TrimLeft(t, " ")) <= vars {
				vars = -1
			}
		}
		if quote != "" {
			if i > 0 && ns[i-1] != n-1 {
				quote = "" // a gap between hunks
				flush()
			} else if body, _, closed := strings.Cut(t, quote); closed {
				fs.groovySplice(splice, n, body, quote)
				block = append(block, numbered{n, body})
				quote = ""
				flush()
				continue
			} else {
				fs.groovySplice(splice, n, t, quote)
				block = append(block, numbered{n, t})
				continue
			}
		}
		if m := jenkinsShOpen().FindStringSubmatch(t); m != nil && !strings.Contains(m[2], m[1]) {
			// sh """ … """ over several lines: one script.
			flush()
			quote, indent = m[1], -1
			fs.groovySplice(splice, n, m[2], quote)
			if strings.TrimSpace(m[2]) != "" {
				block = append(block, numbered{n, m[2]})
			}
			continue
		}
		if m := jenkinsSh().FindStringSubmatch(t); m != nil {
			flush()
			fs.groovySplice(splice, n, m[2], `"`)
			sh := []numbered{{n, m[1] + strings.ReplaceAll(m[2], `\"`, `"`)}}
			if ownAgents {
				fs.agentHostAccess(sh)
			}
			fs.shellLines(sh, fl, false)
			continue
		}
		if i > 0 && ns[i-1] != n-1 {
			flush() // a gap between hunks
			indent = -1
		}
		if m := generatedConfig().FindStringSubmatch(t); m != nil {
			// The pipeline continued or triggered with a file a job wrote:
			// what the job downloaded or decoded is the pipeline.
			flush()
			fs.pipelineFrom(n, m[1], fl)
			continue
		}
		if m := scriptKey.FindStringSubmatch(t); m != nil {
			flush()
			indent = len(m[1])
			if v := strings.TrimSpace(m[2]); strings.HasPrefix(v, ">") {
				fold = indent
			} else if v != "" && !strings.HasPrefix(v, "|") && !strings.HasPrefix(v, "[") {
				block = append(block, numbered{n, fs.ciScript(splice, n, unquoteYAML(v))})
				indent = -1
			} else if sc, ok := rules.ShellCScript(v); ok {
				// ["sh", "-c", "…"], or a step's args ['-c', '…']
				block = append(block, numbered{n, fs.ciScript(splice, n, sc)})
				indent = -1
			}
			continue
		}
		if indent < 0 {
			continue
		}
		trimmed := strings.TrimLeft(t, " ")
		if trimmed == "" {
			continue
		}
		ind := len(t) - len(trimmed)
		if fold >= 0 {
			if ind > fold {
				if foldN == 0 {
					foldN, foldText = n, fs.ciScript(splice, n, trimmed)
				} else {
					foldText += " " + fs.ciScript(splice, n, trimmed)
				}
				continue
			}
			if foldN > 0 {
				block = append(block, numbered{foldN, foldText})
			}
			fold, foldN, foldText = -1, 0, ""
		}
		if ind <= indent && !strings.HasPrefix(trimmed, "- ") || ind < indent {
			flush()
			indent = -1
			continue
		}
		if item, ok := strings.CutPrefix(trimmed, "- "); ok {
			switch v := strings.TrimSpace(item); {
			case strings.HasPrefix(v, ">"):
				fold = ind
			case strings.HasPrefix(v, "|"):
				// a literal block: its lines follow as they are
			default:
				block = append(block, numbered{n, fs.ciScript(splice, n, unquoteYAML(v))})
			}
		} else {
			block = append(block, numbered{n, fs.ciScript(splice, n, trimmed)})
		}
	}
	flush()
}

// prSecrets rates a pipeline that the change makes build others' pull
// requests while it holds secrets, or hands secrets while it builds them
// (rules.CIPullRequestSecrets): each script of the pipeline then runs the
// pull request's code where the secrets are, as a GitHub workflow that
// checks a pull request's head out under pull_request_target does. The
// two lines must belong to the same pipeline of the file, and one of them
// must be the change's.
func (fs *fileScan) prSecrets() {
	trig, sec, unit := rules.CIPullRequestSecrets(fs.path)
	if trig == nil {
		return
	}
	if fs.added == nil {
		fs.index()
	}
	ns := slices.Sorted(maps.Keys(fs.text))
	// The pipeline each line is under: the key it is nested in at the
	// unit's indentation, the smallest the shown lines indent a key by
	// (a hunk may start below the file's top).
	owner := map[int]string{}
	type open struct {
		ind int
		key string
	}
	unitInd := -1
	if unit > 0 {
		for _, n := range ns {
			t := fs.text[n]
			if ind := len(t) - len(strings.TrimLeft(t, " ")); ind > 0 && strings.HasSuffix(strings.TrimSpace(t), ":") && (unitInd < 0 || ind < unitInd) {
				unitInd = ind
			}
		}
	}
	var stack []open
	var trigs, secs []int
	for _, n := range ns {
		t := fs.text[n]
		tr := strings.TrimSpace(t)
		if tr == "" || rules.CommentIn(fs.path, "", t) {
			continue
		}
		if unitInd > 0 {
			ind := len(t) - len(strings.TrimLeft(t, " "))
			for len(stack) > 0 && stack[len(stack)-1].ind >= ind {
				stack = stack[:len(stack)-1]
			}
			if k, _, ok := strings.Cut(strings.TrimPrefix(tr, "- "), ":"); ok {
				stack = append(stack, open{ind, k})
			}
			for _, o := range stack {
				if o.ind == unitInd {
					owner[n] = o.key
				}
			}
		}
		if trig.MatchString(t) {
			trigs = append(trigs, n)
		}
		if sec.MatchString(t) {
			secs = append(secs, n)
		}
	}
	for _, a := range trigs {
		for _, b := range secs {
			if owner[a] != owner[b] && owner[a] != "" && owner[b] != "" {
				continue
			}
			_, ta := fs.added[a]
			_, tb := fs.added[b]
			if ta {
				fs.report(a, hit{id: "ci-pr-secrets", title: "builds others' pull requests in a pipeline that holds secrets", source: b})
			}
			if tb {
				fs.report(b, hit{id: "ci-pr-secrets", title: "hands secrets to a pipeline that builds others' pull requests", source: a})
			}
		}
	}
}

var (
	ciVarsKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*)(?:vars|variables|env|environment)\s*:\s*$`) })
	ciVarLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(\s*)([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([^\s{\[|>].*)$`)
	})
	ciDynVar = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(\s*)([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(?:\{\s*sh\s*:\s*(.+?)\s*\}\s*)?$`)
	})
	ciShKey    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*sh\s*:\s*(.+)$`) })
	ciTemplate = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{\{\s*\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`) })
)

var (
	jenkinsCredVar = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:usernameVariable|passwordVariable|variable|keyFileVariable|passphraseVariable|tokenVariable)\s*:\s*['"](\w+)['"]|^\s*(\w+)\s*=\s*credentials\(`)
	})
	jenkinsWriteFile = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bwriteFile\s*\(?\s*file\s*:\s*['"]([^'"]+)['"]\s*,\s*text\s*:\s*(.+)$`)
	})
	groovyVarRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{?(?:env\.)?(\w+)|\benv\.(\w+)`) })
)

// jenkinsBinds reads what a Jenkinsfile's Groovy binds: the variables
// withCredentials and credentials() fill with secrets (a file credential's
// variable names a file holding one), and a file writeFile fills with them,
// for the sh steps after it.
func (fs *fileScan) jenkinsBinds(n int, t string, fl *flow) {
	for _, m := range jenkinsCredVar().FindAllStringSubmatch(t, -1) {
		name := m[1] + m[2]
		fl.env[name] = taint{kind: tSecret, line: n}
		fl.files["$"+name] = taint{kind: tSecretBulk, line: n}
	}
	if m := jenkinsLoad().FindStringSubmatch(t); m != nil {
		// load evaluates a Groovy file as pipeline code: one a sh step
		// downloaded or decoded is pipeline code from outside.
		if ft, ok := fl.files[rules.NormPath(m[1])]; ok && ft.kind&(tDownload|tDecode) != 0 {
			fs.reportRun(n, ft)
		}
	}
	m := jenkinsWriteFile().FindStringSubmatch(t)
	if m == nil {
		return
	}
	text := m[2]
	for _, q := range []string{`"""`, "'''"} {
		// text: """ … """ over several lines
		if strings.HasPrefix(strings.TrimSpace(text), q) && strings.Count(text, q) == 1 {
			for k := n + 1; k < n+60; k++ {
				l, ok := fs.text[k]
				if !ok {
					break
				}
				text += "\n" + l
				if strings.Contains(l, q) {
					break
				}
			}
		}
	}
	var held taint
	for _, v := range groovyVarRe().FindAllStringSubmatch(text, -1) {
		name := v[1] + v[2]
		if tt, ok := fl.env[name]; ok {
			held = held.or(tt)
		} else if rules.SecretName(name) {
			held = held.or(taint{kind: tSecret, line: n})
		}
	}
	if held.kind != 0 {
		fl.files[rules.NormPath(m[1])] = held
	}
}

// agentHostAccess rates the container commands of a script a CI agent the
// project keeps runs: one handed the agent's host (its root, its
// processes, its Docker daemon with --privileged) changes the agent that
// runs the jobs after this one.
func (fs *fileScan) agentHostAccess(block []numbered) {
	for i := 0; i < len(block); i++ {
		cmd, n := block[i].text, block[i].n
		for strings.HasSuffix(strings.TrimSpace(block[i].text), "\\") && i+1 < len(block) {
			i++
			cmd += "\n" + block[i].text
		}
		if g := rules.ContainerHostGrants(cmd); len(g) > 0 {
			fs.report(n, hit{id: "runner-host-access", title: "starts a container on the CI agent with " + strings.Join(g, ", ")})
		}
	}
}

// generatedConfig is a key that hands the CI system a pipeline file a job
// made: CircleCI's continuation (configuration_path), GitLab's child
// pipeline from an artifact (trigger: include: artifact).
var generatedConfig = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:-\s+)?(?:configuration_path|artifact)\s*:\s*["']?([^\s"'#]+)`)
})

// pipelineFrom rates a pipeline file handed to the CI system on line n by
// what wrote it: one a job downloaded or decoded is configuration from
// outside the repository, run with the pipeline's tokens.
func (fs *fileScan) pipelineFrom(n int, file string, fl *flow) {
	t, ok := fl.files[rules.NormPath(file)]
	if !ok || t.kind&(tDownload|tDecode) == 0 {
		return
	}
	what := "downloaded"
	if t.kind&tDownload == 0 {
		what = "decoded"
	}
	fs.report(n, hit{id: "ci-remote-config", title: "runs as the pipeline " + file + ", which line " + itoa(t.line) + " " + what, source: t.line})
}

// ciScript is a script line of a CI file as its shell reads it
// (ciShell), rated first for what the CI system writes into its text
// from the pull request.
func (fs *fileScan) ciScript(splice func(string) string, n int, raw string) string {
	if splice == nil {
		return ciShell(raw)
	}
	if v := splice(raw); v != "" {
		fs.report(n, hit{id: "ci-script-injection", title: "writes " + v + ", which the pull request chooses, into a script's text"})
	}
	return ciShell(raw)
}

// groovySplice rates a Jenkins sh, bat or powershell step's text in
// double quotes, where Groovy interpolates ${…} before the shell runs it.
func (fs *fileScan) groovySplice(splice func(string) string, n int, text, quote string) {
	if quote == `"` || quote == `"""` {
		fs.ciScript(splice, n, text)
	}
}

// ciShell turns a Task file's template variables ({{.NAME}}) into the
// shell variables they stand for.
func ciShell(s string) string {
	if strings.Contains(s, "$$") {
		// GitLab, Buildkite, Woodpecker and Drone read $$ as a literal $
		// before the shell runs: $$(cmd) and $${VAR} are the shell's.
		s = ciDollarEscape().ReplaceAllString(s, "$$$1")
	}
	if strings.Contains(s, "$(") {
		// Azure Pipelines' macros, $(System.AccessToken) or $(NPM_TOKEN),
		// are replaced by the variable's value before the shell runs;
		// $(date) in lower case is the shell's own substitution.
		s = azureMacro().ReplaceAllStringFunc(s, func(m string) string {
			return "${" + strings.ReplaceAll(m[2:len(m)-1], ".", "_") + "}"
		})
	}
	if !strings.Contains(s, "{{") {
		return s
	}
	return ciTemplate().ReplaceAllString(s, "$${$1}")
}

var ciDollarEscape = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\$([({A-Za-z_])`) })

var azureMacro = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\((?:[A-Za-z_]\w*(?:\.\w+)+|[A-Z][A-Z0-9_]*)\)`)
})

var (
	imageLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(?:-\s+)?"?(?:image|container)"?\s*:\s*["']?((?:[\w.-]+(?::\d+)?/|\$)[^\s"',]+)["']?\s*,?\s*$`)
	})
	bitbucketPipe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(?:-\s+)?pipe\s*:\s*["']?(?:docker://)?([\w.-]+(?::\d+)?/[^\s"']+)["']?\s*$`)
	})
	featureKey  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*"([\w-]+\.[\w.-]+(?::\d+)?/[^"\s]+)"\s*:`) })
	bakeDefault = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*default\s*=\s*"([^"]+)"`) })
	hclVarBlock = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*variable\s+"(\w+)"\s*\{`) })
	ciImageName = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(?:-\s+)?name\s*:\s*["']?((?:[\w.-]+(?::\d+)?/|\$)[^\s"',]+)["']?\s*$`)
	})
	copyFrom = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^\s*(?:COPY|RUN)\b.*--(?:from|mount=[^ ]*from)=([^\s,]+/[^\s,]+)`)
	})
)

// images rates the container images a change names outside a FROM line:
// a compose service, a workflow's job container or service, a CI job's
// image, a dev container, a Dockerfile's COPY --from. The image's code runs
// in the build or the tests as a base image's does, so it is read as FROM is.
func (fs *fileScan) images() {
	lb := strings.ToLower(path.Base(fs.path))
	docker := fs.info.Scope&rules.ScopeDockerfile != 0
	yamlLike := fs.info.Rule == "compose" || fs.info.Rule == "ci-config" || fs.info.Scope&rules.ScopeWorkflow != 0 || lb == "devcontainer.json" || lb == ".devcontainer.json"
	bake := strings.HasSuffix(lb, ".hcl") && strings.Contains(lb, "bake")
	if !docker && !yamlLike && !bake || fs.f.Binary || fs.f.Status == packet.StatusDeleted {
		return
	}
	if fs.added == nil {
		fs.index()
	}
	for n := range fs.added {
		s := fs.text[n]
		var m []string
		if bake {
			// A bake file's variable (its default) or build argument that
			// a Dockerfile's FROM takes its image from.
			if d := bakeDefault().FindStringSubmatch(s); d != nil {
				if name := fs.hclVariable(n); name != "" {
					fs.imageDefault(n, name, d[1])
				}
			} else if name, v, ok := rules.VarDef(s, false); ok && upperKey(s) {
				fs.imageDefault(n, name, v)
			}
			continue
		}
		if docker {
			m = copyFrom().FindStringSubmatch(s)
		} else if strings.Contains(s, "image") || strings.Contains(s, "container") {
			m = imageLine().FindStringSubmatch(s)
		}
		if m == nil && (lb == "devcontainer.json" || lb == ".devcontainer.json") {
			// A dev container feature is an OCI artifact whose install
			// script runs as root when the container is built.
			if f := featureKey().FindStringSubmatch(s); f != nil && fs.inJSONBlock(n, func(k string) bool { return k == "features" }) {
				m = f
			}
		} else if fs.info.Rule == "ci-config" && strings.Contains(s, "pipe") {
			// A Bitbucket pipe is an image the step runs with the
			// repository's variables.
			m = bitbucketPipe().FindStringSubmatch(s)
		} else if fs.info.Rule == "ci-config" && strings.Contains(s, "name") {
			// GitLab's image: and services: with the image under name:.
			if above := strings.TrimSpace(fs.text[n-1]); above == "image:" || above == "services:" || strings.HasPrefix(above, "- image:") {
				m = ciImageName().FindStringSubmatch(s)
			}
		}
		if m != nil && !strings.Contains(m[1], "://") {
			fs.fromLine(n, m[1])
		} else if !docker && upperKey(s) {
			// A CI variable or a compose build argument that an image
			// line (or a Dockerfile's FROM) takes its image from.
			if name, v, ok := rules.VarDef(s, false); ok {
				fs.imageDefault(n, name, v)
			}
		}
	}
}

// configPulls rates the pipeline configuration a CI file has its CI system
// fetch from elsewhere when the pipeline starts, by whose it is and whether
// it can change after the review.
func (fs *fileScan) configPulls() {
	for _, p := range rules.ConfigPulls(fs.path, fs.numberedText()) {
		if strings.Contains(p.Ref, "$") {
			// A URL a variable of the file gives; the CI system's own
			// ($CI_SERVER_URL) stays as written.
			p.Ref, _ = rules.Expand(p.Ref, func(name string) (string, bool) {
				v, at := rules.VarValue(name, p.N, fs.text, false)
				return v, at > 0
			})
		}
		risk, place, k := provenance.PulledConfig(p.Kind, p.Ref, p.Version, p.Type)
		switch risk {
		case provenance.ConfigLookalike:
			fs.report(p.N, hit{id: "lookalike-source", title: "takes pipeline configuration from " + place + ", a look-alike of " + k})
		case provenance.ConfigMutable:
			fs.report(p.N, hit{id: "ci-remote-config", title: "takes pipeline configuration (" + p.Kind + ") from " + place + " at whatever it holds when the pipeline runs"})
		case provenance.ConfigFixed:
			fs.report(p.N, hit{id: "ci-remote-config", severity: rules.Medium, title: "takes pipeline configuration (" + p.Kind + ") from " + place,
				why: "the CI system fetches it when the pipeline starts and runs it with the job's token and secrets; it is fixed or from a well-known owner, but not in this diff: read what it runs"})
		}
	}
}

// hclVariable is the name of the HCL variable block line n is in, or "".
func (fs *fileScan) hclVariable(n int) string {
	for k := n - 1; k > 0 && k >= n-5; k-- {
		if m := hclVarBlock().FindStringSubmatch(fs.text[k]); m != nil {
			return m[1]
		}
	}
	return ""
}

// upperKey reports a line whose key (or list entry) starts with a capital
// letter, as the variables CI files and compose build arguments set do.
func upperKey(s string) bool {
	t := strings.TrimLeft(s, " \t-\"'")
	return t != "" && t[0] >= 'A' && t[0] <= 'Z'
}

// sourcesRead reports a file the structure pass hands to sources().
func (fs *fileScan) sourcesRead() bool {
	sc := fs.info.Scope
	const structured = rules.ScopeWorkflow | rules.ScopeShell | rules.ScopeMakefile | rules.ScopeDockerfile | rules.ScopePackageJSON | rules.ScopeCode |
		rules.ScopeNpmrc | rules.ScopePipConf | rules.ScopeGradleWrapper | rules.ScopePreCommit | rules.ScopeGitmodules | rules.ScopeRequirements | rules.ScopeGo | rules.ScopeGoMod | rules.ScopeLock | rules.ScopeCargoConfig
	if sc&structured == 0 && fs.info.BuildCode == "" {
		return false
	}
	return sc&(rules.ScopeGo|rules.ScopeCode) == 0 || sc&(rules.ScopeGoMod|rules.ScopeShell) != 0
}

var autorunRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\breg(?:\.exe)?\s+add\s+\S*\\CurrentVersion\\Run(?:Once)?\b|\bschtasks(?:\.exe)?\s+/create\b|\\Start Menu\\Programs\\Startup\\`)
})

// windowsAutorun rates a command line that registers a program to run at
// every logon or on a schedule (reg add …\Run, schtasks /create, the
// Startup folder), in a batch file, a build event or a script alike.
func (fs *fileScan) windowsAutorun(lines []numbered) {
	for _, l := range lines {
		if n := l.n; autorunRe().MatchString(l.text) {
			fs.report(n, hit{id: "persistence", title: "registers a program to run at every logon or on a schedule (Run key, scheduled task, Startup folder)"})
		}
	}
}

var loaderVarRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[\s;"'])(?:export\s+|ENV\s+|setenv\s*=\s*|set\s+|\$env:)?(LD_PRELOAD|LD_AUDIT|DYLD_INSERT_LIBRARIES|BASH_ENV|NODE_OPTIONS|PYTHONSTARTUP|RUBYOPT|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|DOTNET_STARTUP_HOOKS|GIT_SSH_COMMAND|GIT_EXTERNAL_DIFF|GIT_ASKPASS|ACTIONS_RUNNER_HOOK_JOB_STARTED|ACTIONS_RUNNER_HOOK_JOB_COMPLETED)["']?\s*(?:=|\s)\s*["']?([^"'\n]+)`)
})

var loaderFlagRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|\s)(?:--require|-r|--import|--loader|--experimental-loader|-javaagent:|-agentpath:)[\s=]?([^\s"']+)`)
})

// azureSetVarRe is Azure Pipelines' logging command that sets a variable
// for every later step of the job, as GITHUB_ENV does on GitHub.
var azureSetVarRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`##vso\[task\.setvariable\s+variable=(LD_PRELOAD|LD_AUDIT|DYLD_INSERT_LIBRARIES|BASH_ENV|NODE_OPTIONS|PYTHONSTARTUP|RUBYOPT|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|DOTNET_STARTUP_HOOKS|GIT_SSH_COMMAND|GIT_EXTERNAL_DIFF|GIT_ASKPASS)\b[^\]]*\]\s*["']?([^"'\n]+)`)
})

// loaderVars rates a variable set outside a workflow (a Dockerfile's ENV,
// a Makefile's export, .envrc, tox's setenv, a script) that makes every
// later process load a file: LD_PRELOAD, BASH_ENV, NODE_OPTIONS with
// --require, a Java agent, a self-hosted runner's job hooks. The file is the
// change's, or one it wrote; the system's own libraries (jemalloc under
// /usr/lib) are the image's.
func (fs *fileScan) loaderVars(lines []numbered) {
	for _, l := range lines {
		n := l.n
		m := azureSetVarRe().FindStringSubmatch(l.text)
		if m == nil {
			m = loaderVarRe().FindStringSubmatch(l.text)
		}
		if m == nil {
			continue
		}
		name, v := m[1], strings.TrimSpace(m[2])
		if loadsFile(name, v) {
			fs.report(n, hit{id: "gha-env-hijack", title: "sets " + name + " so every later process loads " + v})
		}
	}
}

// loadsFile reports a loader variable's value that makes later processes
// load a file of the change's or one it wrote: a module by path (./hook.js,
// /tmp/x.jar) for the option variables, not a package (ts-node/register)
// nor Yarn's own .pnp loader; a program or library in the tree, the home
// directory, /tmp or a variable for the others, not a tool on PATH
// (sccache) nor the system's own (jemalloc under /usr/lib).
func loadsFile(name, v string) bool {
	switch name {
	case "NODE_OPTIONS", "NPM_CONFIG_NODE_OPTIONS", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "RUBYOPT", "PERL5OPT":
		for _, f := range loaderFlagRe().FindAllStringSubmatch(" "+v, -1) {
			op := f[1]
			if (strings.HasPrefix(op, ".") || strings.HasPrefix(op, "~") || strings.HasPrefix(op, "$") || strings.HasPrefix(op, "/tmp/")) && !strings.Contains(op, ".pnp.") {
				return true
			}
		}
		return false
	case "BASH_ENV":
		// Conda images point BASH_ENV at the shell's own profile.
		return provenance.TreeProgram(v) && !rules.ShellRCPath(v)
	}
	return provenance.TreeProgram(v) && !strings.HasPrefix(v, "/lib") && !strings.HasPrefix(v, "ssh ") && !strings.HasPrefix(v, "ssh\t")
}

var makeShellRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:export\s+)?SHELL\s*[:?+]?=\s*(\S+)`)
})

// makeShell rates a Makefile that names a program of the tree (or of /tmp,
// or a variable) as its SHELL: make hands every recipe line to it.
func (fs *fileScan) makeShell() {
	if fs.added == nil {
		fs.index()
	}
	for n := range fs.added {
		if m := makeShellRe().FindStringSubmatch(fs.text[n]); m != nil && provenance.TreeProgram(m[1]) && !strings.HasPrefix(m[1], "$(shell which") {
			fs.report(n, hit{id: "build-tool-exec", title: "makes make run every recipe through " + m[1]})
		}
	}
}

// The line groups hotLines sorts added lines into.
const (
	hotIndex = iota
	hotFlags
	hotAutorun
	hotLoader
	hotRunner
	hotInstall
	hotForge
	hotGroups
)

// classKeyed is the bit of a hotKeys set that says the line holds one of
// classKeys (anyClassKey): one pass over a line finds both.
const classKeyed = hotGroups

var hotKeys = sync.OnceValue(func() *rules.KeyIndex {
	return rules.NewKeyIndex([][]string{
		classKeyed: classKeys,
		hotIndex: {"index-url", "index_url", "find-links", " -i http", " -i \"http", " -i 'http", "registry", "goproxy", "gosumdb", "gonosum", "goinsecure", "-insecure", "default_index", "repositories_", "source add", "npmregistryserver", "gem source", "mirror.", "mirrors", "registry-mirror", "nuget add", "config set", "--add channels",
			"repo add", "oci://", "plugin install", "remote add", "remote update", "--git", "galaxy", "brew tap",
			"composer config", "ources add", "-add-source", "gem install", "--index", "--mirror", "package-registry", "pub_hosted_url", "flutter_storage", "hex_mirror", "hex_cdn", "cargo_registries_", "coursier_repositories", "uv_index", "pip_find_links", "bundle_mirror",
			"rustup_", "download_base", "download_host", "binary_site", "cdnurl", "disturl", "candidates_api", "_mirror"},
		hotFlags:   {"flags"},
		hotAutorun: {"currentversion", "schtasks", "startup"},
		hotRunner:  rules.RunnerKeys,
		hotLoader:  {"preload", "ld_audit", "bash_env", "node_options", "pythonstartup", "rubyopt", "java_", "git_ssh", "git_external", "askpass", "runner_hook"},
		hotInstall: {"install ", "install\t", " add ", " i "},
		hotForge:   {"://", "github", "gitlab", "ghcr.io", "ubi:", "aqua:", "gh:", "spm:", "image:", "image\":"},
	})
})

// agentConfig reports an AI agent's project settings or MCP server list:
// the hooks and servers they name are commands the agent starts by itself
// (Claude Code's hooks, an MCP server's command), in CI as on a laptop.
func agentConfig(p string) bool {
	lp := strings.ToLower(p)
	lb := path.Base(lp)
	switch {
	case lb == ".mcp.json" || lb == "mcp.json" && (strings.Contains(lp, ".cursor/") || strings.Contains(lp, ".vscode/")):
		return true
	case (lb == "settings.json" || lb == "settings.local.json") && (strings.Contains(lp, ".claude/") || strings.Contains(lp, ".gemini/")):
		return true
	}
	return false
}

var folderOpenRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"runOn"\s*:\s*"folderOpen"`) })

// runsDeclaredScript reports a task (the one around line n, from its
// "label" to the next) that runs a script the project's package manifest
// declares (type npm, or npm/yarn/pnpm/bun run NAME): what it runs is
// package.json's, read where package.json is, as a watch task on folder
// open commonly does. Any other command (a file from the tree, a package
// fetched by npx) is what the task itself brings.
func (fs *fileScan) runsDeclaredScript(n int) bool {
	start := n
	for start > 0 && n-start < 30 && !strings.Contains(fs.text[start], `"label"`) {
		start--
	}
	declared := false
	for k := start; k < start+30; k++ {
		t, ok := fs.text[k]
		if !ok || k > start && strings.Contains(t, `"label"`) {
			break
		}
		if m := buildRe().editorCmd.FindStringSubmatch(t); m != nil && m[1] == "command" {
			if !declaredScriptRe().MatchString(m[2]) {
				return false
			}
			declared = true
		}
		if strings.Contains(t, `"type"`) && strings.Contains(t, `"npm"`) {
			declared = true
		}
	}
	return declared
}

var declaredScriptRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?[\w:.-]+\s*$`)
})
