package rules

import (
	"path"
	"strings"

	"github.com/vetter-dev/vetter/packet"
)

// ---- files -----------------------------------------------------------------

// Scope bits restrict a rule to lines of some files, and say which reader
// knows a file's structure.
type Scope uint32

const (
	ScopeGo Scope = 1 << iota
	ScopeWorkflow
	ScopePackageJSON
	ScopeDockerfile
	ScopeGoMod
	ScopeSetupPy
	// ScopeWorkflowRun is a workflow line inside a run: or script: value,
	// which a shell or a JavaScript interpreter runs.
	ScopeWorkflowRun
	ScopeGitattributes
	ScopeGitmodules
	ScopeRequirements
	ScopeShell    // a shell script: parsed whole
	ScopeMakefile // recipes are shell
	ScopeCode     // JavaScript, TypeScript, Python, Ruby, Rust: data followed line to line
	ScopeNpmrc
	ScopePipConf
	ScopeGradleWrapper
	ScopePreCommit
	ScopeLock        // a lock file: where each package is fetched from
	ScopeCargoConfig // .cargo/config.toml: registries and source replacement
)

type FileInfo struct {
	Rule  string // the whole-file rule; "" when the file's name says nothing
	Noun  string // what the file is, for the title
	Scope Scope
	Prose bool // documentation: scanned for hidden characters only
	// severity of the whole-file item: the rule's, one lower for a file
	// deleted or renamed away.
	Severity string
	Verb     string
	// buildCode, for code that runs by itself at install, build or test
	// time (setup.py, conftest.py, build.rs), says so; a rule marked
	// promote is high in such a file, since nobody has to call it.
	BuildCode string
}

// buildCode says, by whole-file rule and noun, which files are code that
// runs by itself at install, build or test time. Not Makefiles, justfiles
// or Taskfiles: fetching a tool is what their recipes commonly do, and their
// lines are read by the shell reader.
func BuildCodeOf(noun string) string {
	switch noun {
	case "setup.py (runs at install)":
		return "setup.py runs it at every pip install"
	case "pytest conftest.py (runs on every pytest)":
		return "conftest.py runs it at every pytest"
	case "Cargo build script":
		return "build.rs runs it at every cargo build"
	case "test runner config":
		return "the test runner runs it at every test run"
	case "Gradle build file":
		return "Gradle runs it at every build"
	case "tox or nox config":
		return "nox runs it at every session"
	case "npm install script":
		return "npm runs it at install"
	case "build hook (runs at every build or install)":
		return "the build backend runs it at every build or install"
	case "MSBuild project (build events run at every build)":
		return "msbuild runs it at every build of the project"
	case "tool config (code the linter, formatter or bundler runs)":
		return "the linter, formatter or bundler runs it every time it loads its config"
	case "pnpm hooks (run at every pnpm install)":
		return "pnpm runs it at every install"
	case "Python start-up hook (runs at every interpreter start)":
		return "Python runs it at every start with the folder on its path"
	case "Danger file (runs on every pull request in CI)":
		return "Danger runs it on every pull request, with the token it comments with"
	}
	return ""
}

// ClassifyFile names what a file is by its path (the new one; the old one
// when it was renamed away from a name that runs).
func ClassifyFile(f *packet.DiffFile) FileInfo {
	p := f.Path()
	id, noun, sc := ClassifyPath(p)
	// An agent's instructions are prose an AI agent acts on: their
	// commands are read as any script's are.
	info := FileInfo{Scope: sc | CodeScope(p), Prose: IsProse(p) && !AgentInstructions(p), Verb: StatusVerb(f)}
	if id == "" && f.Status == packet.StatusRenamed && f.OldPath != "" {
		if id, noun, _ = ClassifyPath(f.OldPath); id != "" {
			info.Verb = "renamed away"
		}
	}
	if info.Verb != "renamed away" && f.Status != packet.StatusDeleted {
		info.BuildCode = BuildCodeOf(noun)
	}
	if id == "" {
		return info
	}
	info.Rule, info.Noun = id, noun
	info.Severity = Must(id).Severity
	if f.Status == packet.StatusDeleted || info.Verb == "renamed away" {
		info.Severity = Lower1(info.Severity)
	}
	return info
}

// CodeScope marks the languages whose data the code reader follows, and
// the install scripts npm lifecycle hooks commonly run.
func CodeScope(p string) Scope {
	if lb := strings.ToLower(path.Base(p)); lb == "rakefile" || strings.HasSuffix(lb, ".rake") || strings.HasSuffix(lb, ".gemspec") || rubyManifest[lb] {
		return ScopeCode // Ruby that rake, gem build, bundler and their kin load and run
	}
	if RCode(p) {
		return ScopeCode // R code; a profile R runs at every start in the project's directory
	}
	if Jenkinsfile(p) {
		return ScopeCode // Groovy the Jenkins agent runs, with the credentials the pipeline binds
	}
	switch strings.ToLower(path.Ext(p)) {
	case ".groovy", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx", ".py", ".rb", ".rs", ".php", ".pl", ".ps1", ".psm1", ".cake", ".csx", ".r":
		return ScopeCode
	}
	return 0
}

// RCode reports an R file: a script or package source, or a profile R
// runs at start-up (a project's .Rprofile, R's Rprofile.site).
func RCode(p string) bool {
	lb := strings.ToLower(path.Base(p))
	return lb == ".rprofile" || lb == "rprofile.site" || path.Ext(lb) == ".r"
}

// rubyManifest are the manifests bundler, CocoaPods, fastlane, Danger,
// Vagrant and Homebrew load as Ruby: every line is code that runs where
// the tool does.
var rubyManifest = map[string]bool{"gemfile": true, "gems.rb": true, "podfile": true, "fastfile": true, "appfile": true,
	"dangerfile": true, "vagrantfile": true, "guardfile": true, "brewfile": true, "berksfile": true, "capfile": true}

// RubyManifest reports a manifest that is Ruby code (a Gemfile, a Podfile).
func RubyManifest(p string) bool { return rubyManifest[strings.ToLower(path.Base(p))] }

// ClassifyPath says whether a path runs in CI or at build time.
func ClassifyPath(p string) (ruleID, noun string, sc Scope) {
	if IsProse(p) {
		return "", "", 0 // "Dockerfile-tips.md" is about a Dockerfile, not one
	}
	base := path.Base(p)
	lb := strings.ToLower(base)
	ext := path.Ext(lb)
	under := func(dir string) bool {
		return strings.HasPrefix(p, dir) || strings.Contains(p, "/"+dir)
	}
	switch {
	// CI: runs on the shared runners as soon as the change is tested.
	case under(".github/workflows/") || under(".gitea/workflows/") || under(".forgejo/workflows/"):
		// Gitea and Forgejo Actions read GitHub's workflow syntax, triggers
		// and secrets included, from their own folders.
		return "ci-workflow", "CI workflow", ScopeWorkflow
	case under(".github/actions/") || lb == "action.yml" || lb == "action.yaml":
		return "ci-action", "GitHub Action", ScopeWorkflow
	case ciSystemOf(p, lb) != nil:
		return "ci-config", ciSystemOf(p, lb).noun, 0
	case under(".buildkite/hooks/"):
		// The agent runs its hooks around every job as shell scripts.
		return "ci-config", "Buildkite agent hook", ScopeShell

	// Test configuration: loaded by the test runner CI starts.
	case lb == "conftest.py":
		return "test-config", "pytest conftest.py (runs on every pytest)", 0
	case lb == "pytest.ini" || HasStem(lb, "jest.config") || HasStem(lb, "jest.setup") || HasStem(lb, "vitest.config") ||
		HasStem(lb, "karma.conf") || strings.HasPrefix(lb, ".mocharc") || HasStem(lb, "playwright.config") ||
		HasStem(lb, "cypress.config") || lb == "phpunit.xml" || lb == "phpunit.xml.dist" ||
		// the runner's workspace and the setup files it loads before the
		// tests, and WebdriverIO's, Nightwatch's and AVA's configs
		HasStem(lb, "vitest.workspace") || HasStem(lb, "vitest.setup") || HasStem(lb, "setuptests") || HasStem(lb, "playwright-ct.config") ||
		HasStem(lb, "wdio.conf") || HasStem(lb, "nightwatch.conf") || HasStem(lb, "ava.config"):
		return "test-config", "test runner config", 0

	// Code other tools run by themselves: pnpm's install hooks, Python's
	// start-up hooks, Danger's checks of each pull request.
	case lb == ".pnpmfile.cjs" || lb == ".pnpmfile.mjs" || lb == ".pnpmfile.js" || lb == "pnpmfile.js":
		return "build-file", "pnpm hooks (run at every pnpm install)", ScopeCode
	case lb == "sitecustomize.py" || lb == "usercustomize.py":
		return "build-file", "Python start-up hook (runs at every interpreter start)", 0
	case HasStem(lb, "dangerfile") && CodeScope(p) != 0:
		return "build-file", "Danger file (runs on every pull request in CI)", 0

	// Scripts and hooks.
	case under(".husky/") || under(".githooks/"):
		return "git-hook", "git hook", ScopeShell
	case lb == ".envrc":
		return "envrc", "direnv .envrc (runs on cd)", ScopeShell
	case p == ".vscode/tasks.json" || strings.HasSuffix(p, "/.vscode/tasks.json") || strings.HasSuffix(p, ".code-workspace"):
		return "editor-tasks", "editor tasks", 0
	case ext == ".sh" || ext == ".bash" || ext == ".zsh" || ext == ".ksh" || ext == ".ps1" || ext == ".psm1" ||
		ext == ".bat" || ext == ".cmd":
		return "script", "shell script", ScopeShell

	// Build and packaging.
	case lb == "makefile" || lb == "gnumakefile" || lb == "bsdmakefile" || ext == ".mk" || ext == ".mak" || lb == "makefile.am" || lb == "makefile.in":
		return "makefile", "Makefile", ScopeMakefile
	case p == "debian/rules" || strings.HasSuffix(p, "/debian/rules"):
		// dpkg-buildpackage runs debian/rules as a Makefile (its first
		// line is #!/usr/bin/make -f): its recipes are shell.
		return "makefile", "debian/rules (a Makefile the package build runs)", ScopeMakefile
	case Justfile(p):
		return "makefile", "justfile", ScopeMakefile
	case strings.HasPrefix(lb, "dockerfile") || strings.HasSuffix(lb, ".dockerfile") || strings.HasPrefix(lb, "containerfile") || strings.HasSuffix(lb, ".containerfile"):
		return "dockerfile", "Dockerfile", ScopeDockerfile
	case lb == "earthfile" || ext == ".earth":
		// Earthly's targets are Dockerfile instructions: RUN is shell the
		// build runs, FROM an image.
		return "build-file", "Earthfile (its RUN lines run at every build)", ScopeDockerfile
	case (strings.HasPrefix(lb, "docker-compose") || strings.HasPrefix(lb, "compose.")) && (ext == ".yml" || ext == ".yaml"):
		return "compose", "Docker Compose file", 0
	case lb == "setup.py":
		return "setup-py", "setup.py (runs at install)", ScopeSetupPy
	case lb == "mix.exs" || lb == "rebar.config.script" || lb == "makefile.pl" || lb == "build.pl" || lb == "setup.hs" || lb == "build.cake" ||
		lb == "build.sbt" || ext == ".sbt" && strings.Contains(p, "project/") || lb == "build.sc" || lb == "build.mill" || lb == "project.clj":
		// Elixir's, Erlang's, Perl's, Cabal's, Cake's, sbt's, Mill's and
		// Leiningen's (project.clj, its :injections run in every JVM lein
		// starts) build scripts are code
		// the build tool evaluates before it builds anything. Fetching a
		// native library there is how packages that bind one get it, so a
		// download alone is not promoted: what the code then runs is.
		return "build-file", "build manifest written as code (runs at every build)", ScopeCode
	case lb == "hatch_build.py" || lb == "pdm_build.py" || lb == "build.zig" || lb == "extconf.rb" || lb == "mkrf_conf.rb" ||
		lb == "package.swift" || lb == "wscript" || lb == "xmake.lua" || lb == "premake5.lua" || lb == "build.jl" && strings.HasSuffix(p, "deps/build.jl") ||
		(lb == "build.dart" || lb == "link.dart") && (strings.HasPrefix(p, "hook/") || strings.Contains(p, "/hook/")):
		// Code the build runs by itself: a gem's native extension script
		// (gem install runs it), SwiftPM's manifest, waf's, xmake's and
		// premake's build scripts, a Julia package's deps/build.jl, a Dart
		// package's build and link hooks (dart and flutter run them at
		// every build of a package that depends on it).
		return "build-file", "build hook (runs at every build or install)", 0
	case lb == "setup.cfg" || lb == "pyproject.toml":
		return "build-backend", "Python packaging config", ScopeRequirements
	case lb == "package.json":
		return "package-json", "package.json (scripts run on npm install)", ScopePackageJSON
	case lb == "build.rs":
		return "build-rs", "Cargo build script", 0
	case base == "BUILD" || base == "BUILD.bazel" || base == "WORKSPACE" || base == "WORKSPACE.bazel" ||
		base == "MODULE.bazel" || ext == ".bzl":
		return "build-file", "Bazel build file", 0
	case lb == "cmakelists.txt" || ext == ".cmake":
		return "build-file", "CMake file", 0
	case lb == "maven-wrapper.properties":
		return "build-file", "Maven wrapper settings", ScopeGradleWrapper
	case lb == "gradle-wrapper.properties":
		return "build-file", "Gradle build file", ScopeGradleWrapper
	case ext == ".gradle" || strings.HasSuffix(lb, ".gradle.kts") || lb == "gradlew" || lb == "gradlew.bat" ||
		// Gradle compiles buildSrc and runs it before every build
		under("buildSrc/") && (ext == ".kt" || ext == ".kts" || ext == ".java" || ext == ".groovy"):
		return "build-file", "Gradle build file", 0
	case lb == "pom.xml":
		return "build-file", "Maven POM", 0
	case ext == ".vcxproj" || ext == ".csproj" || ext == ".vbproj" || ext == ".fsproj" || ext == ".proj" || ext == ".props" || ext == ".targets" ||
		lb == "directory.build.props" || lb == "directory.build.targets":
		return "build-file", "MSBuild project (build events run at every build)", 0
	case lb == "config.toml" && strings.HasSuffix(p, ".cargo/config.toml") || lb == "config" && strings.HasSuffix(p, ".cargo/config"):
		return "package-manager-config", "Cargo config", ScopeCargoConfig
	case IsToolConfig(lb):
		return "build-file", "tool config (code the linter, formatter or bundler runs)", ScopeCode
	case lb == ".npmrc" || lb == ".yarnrc" || lb == ".yarnrc.yml" || lb == ".pypirc" || lb == ".bunfig.toml" || lb == "bunfig.toml":
		return "package-manager-config", "package manager config", ScopeNpmrc
	case lb == "pip.conf" || lb == "pip.ini" || lb == "uv.toml" || lb == "pdm.toml":
		return "package-manager-config", "package manager config", ScopePipConf
	case lb == ".pre-commit-config.yaml" || lb == ".pre-commit-hooks.yaml":
		return "pre-commit", "pre-commit config", ScopePreCommit
	case lb == "tox.ini" || lb == "noxfile.py":
		return "build-file", "tox or nox config", 0
	case lb == ".gitattributes":
		return "gitattributes", "git attributes (filters)", ScopeGitattributes
	case lb == ".gitmodules":
		return "gitmodules", "git submodules", ScopeGitmodules
	case lb == "codeowners" && (p == base || p == ".github/"+base || p == "docs/"+base || p == ".gitlab/"+base):
		return "codeowners", "CODEOWNERS", 0
	case lb == ".gitconfig" || lb == ".lfsconfig":
		return "git-config", "git config", 0
	case under(".devcontainer/") || lb == ".devcontainer.json":
		return "devcontainer", "dev container config", 0
	case lb == "magefile.go":
		// Go, read as Go: mage compiles and runs it for every target.
		return "build-file", "build file", ScopeGo
	case lb == "rakefile" || lb == "taskfile.yml" || lb == "taskfile.yaml" ||
		lb == "meson.build" || lb == "configure" || lb == "configure.ac" || lb == "sconstruct":
		return "build-file", "build file", 0

	// Dependencies: what gets fetched and run, but reviewed as a list.
	case lb == "go.mod" || lb == "go.work":
		return "dependency", "Go module requirements", ScopeGoMod
	case lb == "go.sum" || lb == "go.work.sum":
		return "dependency", "Go checksums", 0
	case strings.HasPrefix(lb, "requirements") && ext == ".txt", lb == "constraints.txt":
		return "dependency", "dependency manifest", ScopeRequirements
	case lb == "pipfile",
		lb == "cargo.toml", lb == "gemfile", strings.HasSuffix(lb, ".gemspec"), lb == "composer.json", lb == "vcpkg.json",
		strings.HasPrefix(lb, "conanfile."):
		return "dependency", "dependency manifest", ScopeRequirements
	case lb == "pipfile.lock" || lb == "poetry.lock" || lb == "uv.lock" || lb == "cargo.lock" || lb == "package-lock.json" ||
		lb == "npm-shrinkwrap.json" || lb == "yarn.lock" || lb == "pnpm-lock.yaml" || lb == "gemfile.lock" ||
		lb == "composer.lock" || lb == "bun.lockb" || lb == "bun.lock":
		return "lock-file", "lock file", ScopeLock
	}
	switch ext {
	case ".go":
		return "", "", ScopeGo
	}
	return "", "", 0
}

// IsToolConfig reports a linter's, formatter's, bundler's or framework's
// config written as code: the tool runs it every time it starts, in the
// editor and in CI (next build, hardhat compile, astro build load theirs
// before anything else).
func IsToolConfig(lb string) bool {
	for _, stem := range []string{".eslintrc", "eslint.config", ".prettierrc", "prettier.config", "babel.config", ".babelrc", "webpack.config",
		"vite.config", "rollup.config", "postcss.config", "tailwind.config", ".stylelintrc", "stylelint.config", "commitlint.config", ".lintstagedrc", "lint-staged.config",
		"next.config", "nuxt.config", "svelte.config", "astro.config", "remix.config", "gatsby-config", "metro.config", "tsup.config",
		"rspack.config", "rsbuild.config", "esbuild.config", "vue.config", "quasar.config", "craco.config", "docusaurus.config", "hardhat.config",
		"truffle-config", "electron.vite.config", "farm.config", "unocss.config", "uno.config", "panda.config", "knip.config", ".eleventy", "eleventy.config"} {
		if HasStem(lb, stem) {
			switch path.Ext(lb) {
			case ".js", ".cjs", ".mjs", ".ts", ".cts", ".mts":
				return true
			}
		}
	}
	return false
}

// HasStem reports "jest.config.js", "jest.config.ts", ...: stem then an extension.
func HasStem(name, stem string) bool {
	return strings.HasPrefix(name, stem+".")
}

// IsProse reports documentation, which does not run.
func IsProse(p string) bool {
	lb := strings.ToLower(path.Base(p))
	switch path.Ext(lb) {
	case ".md", ".markdown", ".rst", ".adoc", ".asciidoc", ".rdoc":
		return true
	case ".txt":
		// Meson's options file holds values meson.build runs.
		return !strings.HasPrefix(lb, "requirements") && lb != "constraints.txt" && lb != "cmakelists.txt" && lb != "meson_options.txt"
	}
	return false
}

// AgentInstructions reports a file AI coding agents read as their
// instructions: a model, not a person, reads it, in CI too, where an agent
// runs with the job's token.
func AgentInstructions(p string) bool {
	lp := strings.ToLower(p)
	lb := path.Base(lp)
	switch lb {
	case "agents.md", "agent.md", "claude.md", "gemini.md", "copilot-instructions.md", ".cursorrules", ".windsurfrules",
		".clinerules", ".goosehints", "conventions.md", ".aider.conf.yml", "llms.txt":
		return true
	}
	if strings.HasSuffix(lb, ".prompt.md") || strings.HasSuffix(lb, ".instructions.md") || strings.HasSuffix(lb, ".mdc") {
		return true
	}
	for _, d := range []string{".cursor/", ".claude/", ".gemini/", ".github/prompts/", ".github/instructions/", ".clinerules/", ".windsurf/", ".continue/", ".codex/"} {
		if strings.HasPrefix(lp, d) || strings.Contains(lp, "/"+d) {
			return true
		}
	}
	return false
}

// RunnableBinary names a binary file that can be run or loaded by a build.
func RunnableBinary(p string) string {
	switch strings.ToLower(path.Ext(p)) {
	case ".exe", ".dll", ".so", ".dylib", ".jar", ".war", ".class", ".pyc", ".whl", ".node", ".bin", ".elf", ".msi":
		return "binary that can run"
	}
	return ""
}

// Justfile reports a justfile: recipes of shell lines, as a Makefile's.
func Justfile(p string) bool {
	lb := strings.ToLower(path.Base(p))
	return lb == "justfile" || lb == ".justfile" || strings.HasSuffix(lb, ".just")
}

// Taskfile reports a Task runner file: its cmds are shell lines.
func Taskfile(p string) bool {
	lb := strings.ToLower(path.Base(p))
	return lb == "taskfile.yml" || lb == "taskfile.yaml" || lb == "taskfile.dist.yml" || lb == "taskfile.dist.yaml"
}

// Jenkinsfile reports a Jenkins pipeline: Groovy whose sh steps are shell.
func Jenkinsfile(p string) bool {
	lb := strings.ToLower(path.Base(p))
	return lb == "jenkinsfile" || strings.HasPrefix(lb, "jenkinsfile.") || strings.HasSuffix(lb, ".jenkinsfile")
}

// Autoconf reports configure.ac and the m4 files autoconf reads: the
// shell in their macros runs when configure does.
func Autoconf(p string) bool {
	lb := strings.ToLower(path.Base(p))
	return lb == "configure.ac" || lb == "configure.in" || strings.HasSuffix(lb, ".m4")
}
