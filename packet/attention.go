package packet

// Attention items answer "what must a vetter look at before letting this
// change run on shared CI runners?", the question the decision screen puts
// before the maintainer answers. They are
// found by scanning the diff only: file names say which files run in CI or at
// build time, and added lines are matched against patterns that download,
// execute, open connections, decode and run, or name credentials, and are
// checked for hidden Unicode characters.
//
// Severity, chosen so that "high" means "could take over the runner or leak
// its secrets with no further step":
//
//	high    decode-exec (decoding piped to a shell or eval), hidden-unicode
//	        (bidirectional controls), credential (CI tokens, secrets., keys,
//	        credential files), CI files, npm install hooks, download piped to a
//	        shell, reverse shells (/dev/tcp, nc -e), pull_request_target
//	        triggers and script injection in workflows
//	medium  execute, download, network, build files, scripts, go:generate,
//	        test configuration (conftest.py and friends run on every test run,
//	        which is what CI does), zero-width characters alone, generic
//	        *_TOKEN/password/api_key names, decoding without running, go.mod
//	        replace directives and extra package indexes
//	low     dependency manifests and lock files
//
// A deleted file (or one renamed away from a name that runs) is one step
// lower: it no longer runs, but removing a CI check still matters.
//
// Documentation (.md, .rst, .adoc, .txt other than requirements files) is
// checked for hidden characters only: it does not run, and its install
// examples ("curl ... | sh") would otherwise be the commonest false positive.

import (
	"bytes"
	"cmp"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// AttentionKind says why an item needs a vetter's look.
type AttentionKind string

// The kinds of attention items.
const (
	AttentionCIFile        AttentionKind = "ci-file"
	AttentionBuildFile     AttentionKind = "build-file"
	AttentionDependency    AttentionKind = "dependency"
	AttentionTestConfig    AttentionKind = "test-config"
	AttentionScript        AttentionKind = "script"
	AttentionGoGenerate    AttentionKind = "go-generate"
	AttentionDownload      AttentionKind = "download"
	AttentionExecute       AttentionKind = "execute"
	AttentionNetwork       AttentionKind = "network"
	AttentionDecodeExec    AttentionKind = "decode-exec"
	AttentionCredential    AttentionKind = "credential"
	AttentionHiddenUnicode AttentionKind = "hidden-unicode"
)

// Attention severities.
const (
	AttentionHigh   = "high"
	AttentionMedium = "medium"
	AttentionLow    = "low"
)

// MaxAttentionLinesPerFile caps the line items of one file; the rest become
// one "and N more" item so a hostile file cannot flood the decision screen.
const MaxAttentionLinesPerFile = 50

// Attention is one thing a vetter must look at.
type Attention struct {
	Kind AttentionKind
	// Rule names the rule that found the item ("gha-script-injection"); the
	// rules and what each covers are listed in docs/packet-format.md.
	Rule  string
	Title string // for people: "CI workflow changed", "downloads and pipes to a shell"
	// Why says in one sentence why it matters on the runner that
	// /ok to test lets the change run on.
	Why  string
	Path string // the diff file's path (DiffFile.Path)
	// Indexes into Diff.Files, the file's Hunks and the hunk's Lines; Hunk and
	// Line are -1 for an item about the whole file.
	File, Hunk, Line int
	NewLine          int    // new-side line number; 0 for a whole-file item
	Text             string // the added line, raw (the UI sanitises); "" for a file item
	Severity         string // AttentionHigh, AttentionMedium or AttentionLow
	// AfterPacket marks an item found in the commits pushed after the
	// packet was written (AfterPacketDiff): File, Hunk and Line are -1, as
	// it is not in the packet's diff.
	AfterPacket bool
	// Key identifies the item across reloads and rounds so "reviewed" marks
	// survive: rule, path and a hash of the line's text (and which of equal
	// lines it is), not the line number, which moves when lines are added
	// above. For a whole-file item the hash covers the file's changed lines,
	// so a mark is dropped when the file's change is not the one reviewed.
	Key string
	// More is the number of line items this one stands for beyond the cap
	// ("and N more"); 0 for an ordinary item.
	More int
}

// ScanAttention finds what a vetter must look at in d: high severity first,
// then in diff order (file, hunk, line), whole-file items before their lines.
// It is linear in the diff's lines and allocates only for the items it finds.
func ScanAttention(d *Diff) []Attention {
	if d == nil {
		return nil
	}
	var (
		out   []Attention
		lines []Attention // the current file's line items, before the cap
		lower []byte      // reused buffer for the ASCII-lower-cased line
	)
	for fi, f := range d.Files {
		if f == nil {
			continue
		}
		info := classifyFile(f)
		p := f.Path()
		if hasHiddenName(f.OldPath) || hasHiddenName(f.NewPath) {
			it := fileItem(f, fi, AttentionHiddenUnicode, AttentionHigh,
				"file name holds hidden or bidirectional-control characters")
			it.Rule, it.Why = "hidden-text", hiddenWhy
			out = append(out, it)
		}
		lines = lines[:0]
		shebang := false
		var wf *workflowScan
		if info.scope&scopeWorkflow != 0 {
			wf = newWorkflowScan(f)
		}
		for hi, h := range f.Hunks {
			if h == nil {
				continue
			}
			if wf != nil {
				wf.startHunk()
			}
			for li := range h.Lines {
				l := &h.Lines[li]
				if l.Kind == LineRemoved {
					continue
				}
				inRun := false
				if wf != nil {
					inRun = wf.step(l.Text)
				}
				if l.Kind != LineAdded {
					continue
				}
				if sev, title, ok := hiddenInLine(l.Text, l.New == 1); ok {
					it := lineItem(p, fi, hi, li, l, AttentionHiddenUnicode, sev, title)
					it.Rule, it.Why = "hidden-text", hiddenWhy
					lines = append(lines, it)
				}
				if l.New == 1 && strings.HasPrefix(l.Text, "#!") {
					shebang = true
				}
				if info.prose {
					continue // documentation does not run; its install examples are the commonest false positive
				}
				sc := info.scope
				if inRun {
					sc |= scopeWorkflowRun
				}
				lower = asciiLower(lower[:0], l.Text)
				var best *ruleHit
				if r := matchRule(sc, l.Text, lower); r != nil {
					best = &ruleHit{r.name, r.kind, r.severity, r.title, r.why}
					if r.promote && info.buildCode != "" {
						best.severity = AttentionHigh
						best.why = r.why + " — and " + info.buildCode
					}
				}
				if wf != nil {
					if w, ok := wf.check(l.Text, inRun); ok && (best == nil || severityRank(w.severity) <= severityRank(best.severity)) {
						best = &w
					}
				}
				if best != nil {
					best.lowerWhereHarmless(p, l.Text)
					it := lineItem(p, fi, hi, li, l, best.kind, best.severity, best.title)
					it.Rule, it.Why = best.rule, best.why
					lines = append(lines, it)
				}
			}
		}
		switch {
		case info.kind != "":
			it := fileItem(f, fi, info.kind, info.severity, info.title)
			it.Rule, it.Why = info.rule, info.why
			out = append(out, it)
		case shebang && !f.Binary:
			it := fileItem(f, fi, AttentionScript, AttentionMedium, "script with a shebang "+statusVerb(f))
			it.Rule, it.Why = "script", whyScript
			out = append(out, it)
		case f.NewMode == "100755" && f.OldMode != "100755" && f.Status != StatusDeleted:
			title := "file made executable"
			if f.Status == StatusAdded {
				title = "executable file added"
			}
			it := fileItem(f, fi, AttentionScript, AttentionMedium, title)
			it.Rule, it.Why = "executable-bit", whyScript
			out = append(out, it)
		}
		out = appendPlumbing(out, f, fi)
		out = appendCapped(out, lines)
	}
	seen := map[string]int{}
	for i := range out {
		out[i].Key = attentionKey(&out[i], d, seen)
	}
	slices.SortStableFunc(out, compareAttention)
	return out
}

// appendCapped appends a file's line items, keeping the most severe
// MaxAttentionLinesPerFile and summarising the rest in one item at the first
// of them, so the most important lines are never the ones cut.
func appendCapped(out, lines []Attention) []Attention {
	if len(lines) <= MaxAttentionLinesPerFile {
		return append(out, lines...)
	}
	slices.SortStableFunc(lines, compareAttention)
	out = append(out, lines[:MaxAttentionLinesPerFile]...)
	rest := lines[MaxAttentionLinesPerFile:]
	more := rest[0]
	more.Title = fmt.Sprintf("and %d more to look at in this file", len(rest))
	more.Rule, more.Why = "more", "a file with this many risky lines is itself worth a careful read"
	more.More = len(rest)
	return append(out, more)
}

func compareAttention(a, b Attention) int {
	return cmp.Or(
		cmp.Compare(severityRank(a.Severity), severityRank(b.Severity)),
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Hunk, b.Hunk),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.More, b.More),
		cmp.Compare(a.Kind, b.Kind),
	)
}

func severityRank(s string) int {
	switch s {
	case AttentionHigh:
		return 0
	case AttentionMedium:
		return 1
	}
	return 2
}

func lower1(sev string) string {
	if sev == AttentionHigh {
		return AttentionMedium
	}
	return AttentionLow
}

func fileItem(f *DiffFile, fi int, kind AttentionKind, sev, title string) Attention {
	return Attention{Kind: kind, Title: title, Path: f.Path(), File: fi, Hunk: -1, Line: -1, Severity: sev}
}

func lineItem(p string, fi, hi, li int, l *DiffLine, kind AttentionKind, sev, title string) Attention {
	return Attention{Kind: kind, Title: title, Path: p, File: fi, Hunk: hi, Line: li, NewLine: l.New, Text: l.Text, Severity: sev}
}

// attentionKey is rule|path|hash, then #n for the n-th item with the same
// three (a line repeated in one file). A "more" item is keyed by its count
// too, so reviewing it does not cover lines added later.
func attentionKey(a *Attention, d *Diff, seen map[string]int) string {
	h := fnvOffset
	if a.Hunk < 0 {
		f := d.Files[a.File]
		h = fnvAdd(h, string(f.Status))
		for _, hk := range f.Hunks {
			if hk == nil {
				continue
			}
			for _, l := range hk.Lines {
				if l.Kind != LineContext {
					h = fnvAdd(h, string(l.Kind))
					h = fnvAdd(h, l.Text)
					h = fnvAdd(h, "\n")
				}
			}
		}
	} else {
		h = fnvAdd(h, a.Text)
	}
	rule := a.Rule
	if rule == "" {
		rule = string(a.Kind)
	}
	b := make([]byte, 0, len(rule)+len(a.Path)+48)
	b = append(b, rule...)
	b = append(b, '|')
	b = append(b, a.Path...)
	b = append(b, '|')
	if a.Hunk < 0 {
		b = append(b, "file|"...)
	}
	if a.More > 0 {
		b = append(b, "more"...)
		b = strconv.AppendInt(b, int64(a.More), 10)
		b = append(b, '|')
	}
	const hex = "0123456789abcdef"
	for shift := 60; shift >= 0; shift -= 4 {
		b = append(b, hex[h>>uint(shift)&0xf])
	}
	k := string(b)
	if n := seen[k]; n > 0 {
		seen[k] = n + 1
		return k + "#" + strconv.Itoa(n)
	}
	seen[k] = 1
	return k
}

// FNV-1a, 64 bits, written out so hashing a line allocates nothing.
const (
	fnvOffset uint64 = 14695981039346656037
	fnvPrime  uint64 = 1099511628211
)

func fnvAdd(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return h
}

func statusVerb(f *DiffFile) string {
	switch f.Status {
	case StatusAdded:
		return "added"
	case StatusDeleted:
		return "deleted"
	case StatusRenamed:
		return "renamed"
	case StatusCopied:
		return "copied"
	}
	if f.ModeOnly {
		return "mode changed"
	}
	return "changed"
}

// ---- hidden characters -----------------------------------------------------

func hasHiddenName(s string) bool {
	for _, r := range s {
		if IsHidden(r) {
			return true
		}
	}
	return false
}

// hiddenInLine reports a line's hidden characters. A byte-order mark at the
// start of a file and a zero-width joiner inside an emoji sequence are what
// editors write, not an attack, so they are left alone.
func hiddenInLine(s string, firstLine bool) (sev, title string, ok bool) {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return "", "", false // the common case: plain ASCII
	}
	bidi := 0
	var other [numHiddenClasses]bool // the other classes found, by class
	var prev rune
	for j, r := range s {
		switch c := HiddenClassOf(r); {
		case c == HiddenBidi:
			bidi++
		case r == 0xFEFF && j == 0 && firstLine:
		case r == 0x200D && isEmojiPart(prev):
		case c != NotHidden:
			other[c] = true
		}
		prev = r
	}
	if bidi > 0 {
		return AttentionHigh, "bidirectional-control characters reorder what you see (Trojan Source)", true
	}
	var names []string
	for _, c := range HiddenClasses {
		if other[c] {
			names = append(names, c.String())
		}
	}
	if len(names) > 0 {
		return AttentionMedium, strings.Join(names, " and ") + " hidden in the line", true
	}
	return "", "", false
}

func isEmojiPart(r rune) bool {
	return r >= 0x1F000 || (r >= 0x2600 && r <= 0x27BF) || r == 0xFE0F || (r >= 0x1F3FB && r <= 0x1F3FF)
}

// asciiLower appends s to dst with ASCII letters lower-cased; other bytes are
// kept, so offsets match s.
func asciiLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// ---- files -----------------------------------------------------------------

// scope bits restrict a rule to lines of some files.
type scope uint16

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
)

type fileInfo struct {
	kind     AttentionKind // "" when the file's name says nothing
	severity string
	title    string
	rule     string
	why      string
	scope    scope
	prose    bool // documentation: scanned for hidden characters only
	// buildCode, for code that runs by itself at install, build or test
	// time (setup.py, conftest.py, build.rs), says so; a rule marked
	// promote is high in such a file, since nobody has to call it.
	buildCode string
}

// classifyFile names what a file is by its path (the new one; the old one
// when it was renamed away from a name that runs).
func classifyFile(f *DiffFile) fileInfo {
	p := f.Path()
	kind, noun, sc := classifyPath(p)
	info := fileInfo{scope: sc, prose: isProse(p)}
	verb := statusVerb(f)
	sev := ""
	switch {
	case kind != "":
	case f.Status == StatusRenamed && f.OldPath != "":
		if kind, noun, _ = classifyPath(f.OldPath); kind != "" {
			verb = "renamed away"
		}
	}
	if verb != "renamed away" && f.Status != StatusDeleted {
		info.buildCode = buildCode[noun]
	}
	if kind == "" {
		return info
	}
	fr := fileRules[noun]
	switch {
	case fr.severity != "":
		sev = fr.severity
	case kind == AttentionCIFile:
		sev = AttentionHigh
	case kind == AttentionDependency:
		sev = AttentionLow
	default:
		sev = AttentionMedium
	}
	if f.Status == StatusDeleted || verb == "renamed away" {
		sev = lower1(sev)
	}
	info.kind, info.severity, info.title = kind, sev, noun+" "+verb
	info.rule, info.why = fr.rule, fr.why
	if info.rule == "" {
		info.rule, info.why = "build-file", "it runs during the build, on the runner"
	}
	return info
}

// classifyPath says whether a path runs in CI or at build time.
func classifyPath(p string) (AttentionKind, string, scope) {
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
		return AttentionCIFile, "CI workflow", scopeWorkflow
	case under(".github/actions/") || lb == "action.yml" || lb == "action.yaml":
		return AttentionCIFile, "GitHub Action", scopeWorkflow
	case lb == ".gitlab-ci.yml" || lb == ".gitlab-ci.yaml" || under(".gitlab/ci/"):
		return AttentionCIFile, "GitLab CI config", 0
	case under(".circleci/"):
		return AttentionCIFile, "CircleCI config", 0
	case lb == "jenkinsfile" || strings.HasPrefix(lb, "jenkinsfile."):
		return AttentionCIFile, "Jenkinsfile", 0
	case lb == "azure-pipelines.yml" || lb == "azure-pipelines.yaml":
		return AttentionCIFile, "Azure Pipelines config", 0
	case under(".buildkite/"):
		return AttentionCIFile, "Buildkite pipeline", 0
	case lb == ".travis.yml":
		return AttentionCIFile, "Travis CI config", 0
	case lb == "bitbucket-pipelines.yml" || lb == ".drone.yml" || lb == "appveyor.yml" || lb == ".appveyor.yml" ||
		lb == "cloudbuild.yaml" || lb == "cloudbuild.yml":
		return AttentionCIFile, "CI config", 0

	// Test configuration: loaded by the test runner CI starts.
	case lb == "conftest.py":
		return AttentionTestConfig, "pytest conftest.py (runs on every pytest)", 0
	case lb == "pytest.ini" || hasStem(lb, "jest.config") || hasStem(lb, "jest.setup") || hasStem(lb, "vitest.config") ||
		hasStem(lb, "karma.conf") || strings.HasPrefix(lb, ".mocharc") || hasStem(lb, "playwright.config") ||
		hasStem(lb, "cypress.config") || lb == "phpunit.xml" || lb == "phpunit.xml.dist":
		return AttentionTestConfig, "test runner config", 0

	// Scripts and hooks.
	case under(".husky/") || under(".githooks/"):
		return AttentionScript, "git hook", 0
	case lb == ".envrc":
		return AttentionScript, "direnv .envrc (runs on cd)", 0
	case p == ".vscode/tasks.json" || strings.HasSuffix(p, "/.vscode/tasks.json"):
		return AttentionScript, "editor tasks", 0
	case ext == ".sh" || ext == ".bash" || ext == ".zsh" || ext == ".ksh" || ext == ".ps1" || ext == ".psm1" ||
		ext == ".bat" || ext == ".cmd":
		return AttentionScript, "shell script", 0

	// Build and packaging.
	case lb == "makefile" || lb == "gnumakefile" || ext == ".mk" || lb == "makefile.am" || lb == "makefile.in":
		return AttentionBuildFile, "Makefile", 0
	case strings.HasPrefix(lb, "dockerfile") || strings.HasSuffix(lb, ".dockerfile") || strings.HasPrefix(lb, "containerfile"):
		return AttentionBuildFile, "Dockerfile", scopeDockerfile
	case (strings.HasPrefix(lb, "docker-compose") || strings.HasPrefix(lb, "compose.")) && (ext == ".yml" || ext == ".yaml"):
		return AttentionBuildFile, "Docker Compose file", 0
	case lb == "setup.py":
		return AttentionBuildFile, "setup.py (runs at install)", scopeSetupPy
	case lb == "setup.cfg" || lb == "pyproject.toml":
		return AttentionBuildFile, "Python packaging config", 0
	case lb == "package.json":
		return AttentionBuildFile, "package.json (scripts run on npm install)", scopePackageJSON
	case lb == "build.rs":
		return AttentionBuildFile, "Cargo build script", 0
	case base == "BUILD" || base == "BUILD.bazel" || base == "WORKSPACE" || base == "WORKSPACE.bazel" ||
		base == "MODULE.bazel" || ext == ".bzl":
		return AttentionBuildFile, "Bazel build file", 0
	case lb == "cmakelists.txt" || ext == ".cmake":
		return AttentionBuildFile, "CMake file", 0
	case ext == ".gradle" || strings.HasSuffix(lb, ".gradle.kts") || lb == "gradlew" || lb == "gradlew.bat" ||
		lb == "gradle-wrapper.properties":
		return AttentionBuildFile, "Gradle build file", 0
	case lb == "pom.xml":
		return AttentionBuildFile, "Maven POM", 0
	case lb == ".npmrc" || lb == ".yarnrc" || lb == ".yarnrc.yml" || lb == ".pypirc":
		return AttentionBuildFile, "package manager config", 0
	case lb == ".pre-commit-config.yaml" || lb == ".pre-commit-hooks.yaml":
		return AttentionBuildFile, "pre-commit config", 0
	case lb == "tox.ini" || lb == "noxfile.py":
		return AttentionBuildFile, "tox or nox config", 0
	case lb == ".gitattributes":
		return AttentionBuildFile, "git attributes (filters)", scopeGitattributes
	case lb == ".gitmodules":
		return AttentionBuildFile, "git submodules", scopeGitmodules
	case lb == "codeowners" && (p == base || p == ".github/"+base || p == "docs/"+base || p == ".gitlab/"+base):
		return AttentionBuildFile, "CODEOWNERS", 0
	case lb == ".gitconfig" || lb == ".lfsconfig":
		return AttentionBuildFile, "git config", 0
	case under(".devcontainer/") || lb == ".devcontainer.json":
		return AttentionBuildFile, "dev container config", 0
	case lb == "magefile.go" || lb == "rakefile" || lb == "justfile" || lb == "taskfile.yml" || lb == "taskfile.yaml" ||
		lb == "meson.build" || lb == "configure" || lb == "configure.ac" || lb == "sconstruct" || lb == "build.sbt":
		return AttentionBuildFile, "build file", 0

	// Dependencies: what gets fetched and run, but reviewed as a list.
	case lb == "go.mod" || lb == "go.work":
		return AttentionDependency, "Go module requirements", scopeGoMod
	case lb == "go.sum" || lb == "go.work.sum":
		return AttentionDependency, "Go checksums", 0
	case strings.HasPrefix(lb, "requirements") && ext == ".txt", lb == "constraints.txt":
		return AttentionDependency, "dependency manifest", scopeRequirements
	case lb == "pipfile",
		lb == "cargo.toml", lb == "gemfile", strings.HasSuffix(lb, ".gemspec"), lb == "composer.json", lb == "vcpkg.json",
		strings.HasPrefix(lb, "conanfile."):
		return AttentionDependency, "dependency manifest", 0
	case lb == "pipfile.lock" || lb == "poetry.lock" || lb == "uv.lock" || lb == "cargo.lock" || lb == "package-lock.json" ||
		lb == "npm-shrinkwrap.json" || lb == "yarn.lock" || lb == "pnpm-lock.yaml" || lb == "gemfile.lock" ||
		lb == "composer.lock" || lb == "bun.lockb" || lb == "bun.lock":
		return AttentionDependency, "lock file", 0
	}
	switch ext {
	case ".go":
		return "", "", scopeGo
	}
	return "", "", 0
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

// runnableBinary names a binary file that can be run or loaded by a build.
func runnableBinary(p string) string {
	switch strings.ToLower(path.Ext(p)) {
	case ".exe", ".dll", ".so", ".dylib", ".jar", ".war", ".class", ".pyc", ".whl", ".node", ".bin", ".elf", ".msi":
		return "binary that can run"
	}
	return ""
}

// ---- line rules ------------------------------------------------------------

// lineRule matches an added line. keys are lower-case literals one of which
// the lower-cased line must hold before the regexp runs: a substring search
// costs nanoseconds, a regexp far more, and almost no line holds any key.
type lineRule struct {
	name     string // the rule's name, as docs/packet-format.md lists it
	kind     AttentionKind
	severity string
	title    string
	why      string // why it matters on the runner, in one sentence
	scope    scope  // 0: every file that is not prose
	// not lists files the rule leaves to a rule that knows their structure
	// (a workflow's secrets are read by the workflow rules).
	not scope
	// promote makes the rule high in code that runs by itself at install,
	// build or test time (fileInfo.buildCode).
	promote bool
	keys    []string
	re      matcher
}

// matcher is a *regexp.Regexp or a combination of them.
type matcher interface{ MatchString(string) bool }

// both matches when every regexp does: two small regexps run several times
// faster than one with ".*" between them, which matters when a hostile diff
// makes every line a candidate.
type both []*regexp.Regexp

func (b both) MatchString(s string) bool {
	for _, re := range b {
		if !re.MatchString(s) {
			return false
		}
	}
	return true
}

// either matches when one of its matchers does.
type either []matcher

func (e either) MatchString(s string) bool {
	for _, m := range e {
		if m.MatchString(s) {
			return true
		}
	}
	return false
}

// keyIndex finds which rules' keys a lower-cased line holds in one pass over
// the line. Searching for each of the ~200 keys separately cost ~300 ms on a
// 200,000-line diff; looking up each position's first two bytes in a table
// and comparing only the keys that start with them costs a tenth of that.
type keyIndex struct {
	pair   [1 << 16]uint16 // first two bytes -> 1 + index into bucket; 0 when no key starts so
	bucket [][]int         // key indexes per pair
	single [256]uint64     // rules whose one-byte key is this byte
	keys   [][]byte
	rules  []uint64 // per key, the bit set of rules that name it
}

// lineRules and lineKeys are built on first use: compiling the rules'
// regular expressions cost ~3 ms of every start, and nothing before the
// first screen scans for attention.
var lineKeys = sync.OnceValue(func() *keyIndex {
	lineRules := lineRules()
	if len(lineRules) > 64 {
		panic("packet: more than 64 attention line rules; widen keyIndex's bit sets")
	}
	x := &keyIndex{}
	byKey := map[string]int{}
	for ri, r := range lineRules {
		for _, k := range r.keys {
			if len(k) == 1 {
				x.single[k[0]] |= 1 << ri
				continue
			}
			ki, ok := byKey[k]
			if !ok {
				ki = len(x.keys)
				byKey[k] = ki
				x.keys = append(x.keys, []byte(k))
				x.rules = append(x.rules, 0)
				p := uint16(k[0])<<8 | uint16(k[1])
				if x.pair[p] == 0 {
					x.bucket = append(x.bucket, nil)
					x.pair[p] = uint16(len(x.bucket))
				}
				b := x.pair[p] - 1
				x.bucket[b] = append(x.bucket[b], ki)
			}
			x.rules[ki] |= 1 << ri
		}
	}
	return x
})

// candidates returns the bit set of rules one of whose keys lower holds.
func (x *keyIndex) candidates(lower []byte) uint64 {
	var set uint64
	for i := 0; i < len(lower); i++ {
		set |= x.single[lower[i]]
		if i+1 == len(lower) {
			break
		}
		b := x.pair[uint16(lower[i])<<8|uint16(lower[i+1])]
		if b == 0 {
			continue
		}
		for _, ki := range x.bucket[b-1] {
			if bytes.HasPrefix(lower[i:], x.keys[ki]) {
				set |= x.rules[ki]
			}
		}
	}
	return set
}

// matchRule returns the first rule that matches, rules being ordered by
// severity then specificity, so one line gives one item, its most telling.
func matchRule(sc scope, text string, lower []byte) *lineRule {
	set := lineKeys().candidates(lower)
	rules := lineRules()
	for i := 0; set != 0; i++ {
		if set&1 != 0 {
			r := &rules[i]
			if (r.scope == 0 || r.scope&sc != 0) && r.not&sc == 0 && r.re.MatchString(text) {
				return r
			}
		}
		set >>= 1
	}
	return nil
}
