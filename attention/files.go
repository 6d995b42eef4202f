package attention

import (
	"path"
	"strings"

	"github.com/vetter-dev/vetter/packet"
)

// ---- files -----------------------------------------------------------------

// scope bits restrict a rule to lines of some files, and say which reader
// knows a file's structure.
type scope uint32

const (
	scopeGo scope = 1 << iota
	scopeWorkflow
	scopePackageJSON
	scopeDockerfile
	scopeGoMod
	scopeSetupPy
	// scopeWorkflowRun is a workflow line inside a run: or script: value,
	// which a shell or a JavaScript interpreter runs.
	scopeWorkflowRun
	scopeGitattributes
	scopeGitmodules
	scopeRequirements
	scopeShell    // a shell script: parsed whole
	scopeMakefile // recipes are shell
	scopeCode     // JavaScript, TypeScript, Python, Ruby, Rust: data followed line to line
	scopeNpmrc
	scopePipConf
	scopeGradleWrapper
	scopePreCommit
	scopeLock        // a lock file: where each package is fetched from
	scopeCargoConfig // .cargo/config.toml: registries and source replacement
)

type fileInfo struct {
	rule  string // the whole-file rule; "" when the file's name says nothing
	noun  string // what the file is, for the title
	scope scope
	prose bool // documentation: scanned for hidden characters only
	// severity of the whole-file item: the rule's, one lower for a file
	// deleted or renamed away.
	severity string
	verb     string
	// buildCode, for code that runs by itself at install, build or test
	// time (setup.py, conftest.py, build.rs), says so; a rule marked
	// promote is high in such a file, since nobody has to call it.
	buildCode string
}

// buildCode says, by whole-file rule and noun, which files are code that
// runs by itself at install, build or test time. Not Makefiles, justfiles
// or Taskfiles: fetching a tool is what their recipes commonly do, and their
// lines are read by the shell reader.
func buildCodeOf(noun string) string {
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
	}
	return ""
}

// classifyFile names what a file is by its path (the new one; the old one
// when it was renamed away from a name that runs).
func classifyFile(f *packet.DiffFile) fileInfo {
	p := f.Path()
	id, noun, sc := classifyPath(p)
	// An agent's instructions are prose an AI agent acts on: their
	// commands are read as any script's are.
	info := fileInfo{scope: sc | codeScope(p), prose: isProse(p) && !agentInstructions(p), verb: statusVerb(f)}
	if id == "" && f.Status == packet.StatusRenamed && f.OldPath != "" {
		if id, noun, _ = classifyPath(f.OldPath); id != "" {
			info.verb = "renamed away"
		}
	}
	if info.verb != "renamed away" && f.Status != packet.StatusDeleted {
		info.buildCode = buildCodeOf(noun)
	}
	if id == "" {
		return info
	}
	info.rule, info.noun = id, noun
	info.severity = rule(id).Severity
	if f.Status == packet.StatusDeleted || info.verb == "renamed away" {
		info.severity = lower1(info.severity)
	}
	return info
}

// codeScope marks the languages whose data the code reader follows, and
// the install scripts npm lifecycle hooks commonly run.
func codeScope(p string) scope {
	if lb := strings.ToLower(path.Base(p)); lb == "rakefile" || strings.HasSuffix(lb, ".rake") || strings.HasSuffix(lb, ".gemspec") {
		return scopeCode // Ruby that rake and gem build load and run
	}
	switch strings.ToLower(path.Ext(p)) {
	case ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx", ".py", ".rb", ".rs", ".php", ".pl", ".ps1", ".psm1":
		return scopeCode
	}
	return 0
}

// classifyPath says whether a path runs in CI or at build time.
func classifyPath(p string) (ruleID, noun string, sc scope) {
	if isProse(p) {
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
	case under(".github/workflows/"):
		return "ci-workflow", "CI workflow", scopeWorkflow
	case under(".github/actions/") || lb == "action.yml" || lb == "action.yaml":
		return "ci-action", "GitHub Action", scopeWorkflow
	case lb == ".gitlab-ci.yml" || lb == ".gitlab-ci.yaml" || under(".gitlab/ci/"):
		return "ci-config", "GitLab CI config", 0
	case under(".circleci/"):
		return "ci-config", "CircleCI config", 0
	case lb == "jenkinsfile" || strings.HasPrefix(lb, "jenkinsfile."):
		return "ci-config", "Jenkinsfile", 0
	case lb == "azure-pipelines.yml" || lb == "azure-pipelines.yaml":
		return "ci-config", "Azure Pipelines config", 0
	case under(".buildkite/"):
		return "ci-config", "Buildkite pipeline", 0
	case lb == ".travis.yml":
		return "ci-config", "Travis CI config", 0
	case lb == "bitbucket-pipelines.yml" || lb == ".drone.yml" || lb == "appveyor.yml" || lb == ".appveyor.yml" ||
		lb == "cloudbuild.yaml" || lb == "cloudbuild.yml":
		return "ci-config", "CI config", 0

	// Test configuration: loaded by the test runner CI starts.
	case lb == "conftest.py":
		return "test-config", "pytest conftest.py (runs on every pytest)", 0
	case lb == "pytest.ini" || hasStem(lb, "jest.config") || hasStem(lb, "jest.setup") || hasStem(lb, "vitest.config") ||
		hasStem(lb, "karma.conf") || strings.HasPrefix(lb, ".mocharc") || hasStem(lb, "playwright.config") ||
		hasStem(lb, "cypress.config") || lb == "phpunit.xml" || lb == "phpunit.xml.dist":
		return "test-config", "test runner config", 0

	// Scripts and hooks.
	case under(".husky/") || under(".githooks/"):
		return "git-hook", "git hook", scopeShell
	case lb == ".envrc":
		return "envrc", "direnv .envrc (runs on cd)", scopeShell
	case p == ".vscode/tasks.json" || strings.HasSuffix(p, "/.vscode/tasks.json") || strings.HasSuffix(p, ".code-workspace"):
		return "editor-tasks", "editor tasks", 0
	case ext == ".sh" || ext == ".bash" || ext == ".zsh" || ext == ".ksh" || ext == ".ps1" || ext == ".psm1" ||
		ext == ".bat" || ext == ".cmd":
		return "script", "shell script", scopeShell

	// Build and packaging.
	case lb == "makefile" || lb == "gnumakefile" || ext == ".mk" || lb == "makefile.am" || lb == "makefile.in":
		return "makefile", "Makefile", scopeMakefile
	case strings.HasPrefix(lb, "dockerfile") || strings.HasSuffix(lb, ".dockerfile") || strings.HasPrefix(lb, "containerfile"):
		return "dockerfile", "Dockerfile", scopeDockerfile
	case (strings.HasPrefix(lb, "docker-compose") || strings.HasPrefix(lb, "compose.")) && (ext == ".yml" || ext == ".yaml"):
		return "compose", "Docker Compose file", 0
	case lb == "setup.py":
		return "setup-py", "setup.py (runs at install)", scopeSetupPy
	case lb == "hatch_build.py" || lb == "pdm_build.py" || lb == "build.zig":
		return "build-file", "build hook (runs at every build or install)", 0
	case lb == "setup.cfg" || lb == "pyproject.toml":
		return "build-backend", "Python packaging config", scopeRequirements
	case lb == "package.json":
		return "package-json", "package.json (scripts run on npm install)", scopePackageJSON
	case lb == "build.rs":
		return "build-rs", "Cargo build script", 0
	case base == "BUILD" || base == "BUILD.bazel" || base == "WORKSPACE" || base == "WORKSPACE.bazel" ||
		base == "MODULE.bazel" || ext == ".bzl":
		return "build-file", "Bazel build file", 0
	case lb == "cmakelists.txt" || ext == ".cmake":
		return "build-file", "CMake file", 0
	case lb == "gradle-wrapper.properties":
		return "build-file", "Gradle build file", scopeGradleWrapper
	case ext == ".gradle" || strings.HasSuffix(lb, ".gradle.kts") || lb == "gradlew" || lb == "gradlew.bat":
		return "build-file", "Gradle build file", 0
	case lb == "pom.xml":
		return "build-file", "Maven POM", 0
	case ext == ".vcxproj" || ext == ".csproj" || ext == ".vbproj" || ext == ".fsproj" || ext == ".proj" || ext == ".props" || ext == ".targets" ||
		lb == "directory.build.props" || lb == "directory.build.targets":
		return "build-file", "MSBuild project (build events run at every build)", 0
	case lb == "config.toml" && strings.HasSuffix(p, ".cargo/config.toml") || lb == "config" && strings.HasSuffix(p, ".cargo/config"):
		return "package-manager-config", "Cargo config", scopeCargoConfig
	case isToolConfig(lb):
		return "build-file", "tool config (code the linter, formatter or bundler runs)", scopeCode
	case lb == ".npmrc" || lb == ".yarnrc" || lb == ".yarnrc.yml" || lb == ".pypirc" || lb == ".bunfig.toml" || lb == "bunfig.toml":
		return "package-manager-config", "package manager config", scopeNpmrc
	case lb == "pip.conf" || lb == "pip.ini" || lb == "uv.toml" || lb == "pdm.toml":
		return "package-manager-config", "package manager config", scopePipConf
	case lb == ".pre-commit-config.yaml" || lb == ".pre-commit-hooks.yaml":
		return "pre-commit", "pre-commit config", scopePreCommit
	case lb == "tox.ini" || lb == "noxfile.py":
		return "build-file", "tox or nox config", 0
	case lb == ".gitattributes":
		return "gitattributes", "git attributes (filters)", scopeGitattributes
	case lb == ".gitmodules":
		return "gitmodules", "git submodules", scopeGitmodules
	case lb == "codeowners" && (p == base || p == ".github/"+base || p == "docs/"+base || p == ".gitlab/"+base):
		return "codeowners", "CODEOWNERS", 0
	case lb == ".gitconfig" || lb == ".lfsconfig":
		return "git-config", "git config", 0
	case under(".devcontainer/") || lb == ".devcontainer.json":
		return "devcontainer", "dev container config", 0
	case lb == "magefile.go" || lb == "rakefile" || lb == "justfile" || lb == "taskfile.yml" || lb == "taskfile.yaml" ||
		lb == "meson.build" || lb == "configure" || lb == "configure.ac" || lb == "sconstruct" || lb == "build.sbt":
		return "build-file", "build file", 0

	// Dependencies: what gets fetched and run, but reviewed as a list.
	case lb == "go.mod" || lb == "go.work":
		return "dependency", "Go module requirements", scopeGoMod
	case lb == "go.sum" || lb == "go.work.sum":
		return "dependency", "Go checksums", 0
	case strings.HasPrefix(lb, "requirements") && ext == ".txt", lb == "constraints.txt":
		return "dependency", "dependency manifest", scopeRequirements
	case lb == "pipfile",
		lb == "cargo.toml", lb == "gemfile", strings.HasSuffix(lb, ".gemspec"), lb == "composer.json", lb == "vcpkg.json",
		strings.HasPrefix(lb, "conanfile."):
		return "dependency", "dependency manifest", scopeRequirements
	case lb == "pipfile.lock" || lb == "poetry.lock" || lb == "uv.lock" || lb == "cargo.lock" || lb == "package-lock.json" ||
		lb == "npm-shrinkwrap.json" || lb == "yarn.lock" || lb == "pnpm-lock.yaml" || lb == "gemfile.lock" ||
		lb == "composer.lock" || lb == "bun.lockb" || lb == "bun.lock":
		return "lock-file", "lock file", scopeLock
	}
	switch ext {
	case ".go":
		return "", "", scopeGo
	}
	return "", "", 0
}

// isToolConfig reports a linter's, formatter's or bundler's config written
// as code: the tool runs it every time it starts, in the editor and in CI.
func isToolConfig(lb string) bool {
	for _, stem := range []string{".eslintrc", "eslint.config", ".prettierrc", "prettier.config", "babel.config", ".babelrc", "webpack.config",
		"vite.config", "rollup.config", "postcss.config", "tailwind.config", ".stylelintrc", "stylelint.config", "commitlint.config", ".lintstagedrc", "lint-staged.config"} {
		if hasStem(lb, stem) {
			switch path.Ext(lb) {
			case ".js", ".cjs", ".mjs", ".ts", ".cts", ".mts":
				return true
			}
		}
	}
	return false
}

// hasStem reports "jest.config.js", "jest.config.ts", ...: stem then an extension.
func hasStem(name, stem string) bool {
	return strings.HasPrefix(name, stem+".")
}

// isProse reports documentation, which does not run.
func isProse(p string) bool {
	lb := strings.ToLower(path.Base(p))
	switch path.Ext(lb) {
	case ".md", ".markdown", ".rst", ".adoc", ".asciidoc", ".rdoc":
		return true
	case ".txt":
		return !strings.HasPrefix(lb, "requirements") && lb != "constraints.txt" && lb != "cmakelists.txt"
	}
	return false
}

// agentInstructions reports a file AI coding agents read as their
// instructions: a model, not a person, reads it, in CI too, where an agent
// runs with the job's token.
func agentInstructions(p string) bool {
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

// runnableBinary names a binary file that can be run or loaded by a build.
func runnableBinary(p string) string {
	switch strings.ToLower(path.Ext(p)) {
	case ".exe", ".dll", ".so", ".dylib", ".jar", ".war", ".class", ".pyc", ".whl", ".node", ".bin", ".elf", ".msi":
		return "binary that can run"
	}
	return ""
}
