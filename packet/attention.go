package packet

// Attention items answer "what must a vetter look at before letting this
// change run on shared CI runners?" (issue 4, the decision screen). They are
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
	Kind  AttentionKind
	Title string // for people: "CI workflow changed", "downloads and pipes to a shell"
	Path  string // the diff file's path (DiffFile.Path)
	// Indexes into Diff.Files, the file's Hunks and the hunk's Lines; Hunk and
	// Line are -1 for an item about the whole file.
	File, Hunk, Line int
	NewLine          int    // new-side line number; 0 for a whole-file item
	Text             string // the added line, raw (the UI sanitises); "" for a file item
	Severity         string // AttentionHigh, AttentionMedium or AttentionLow
	// Key identifies the item across reloads so "reviewed" marks survive:
	// kind, path, new line and a hash of the text. For a whole-file item the
	// hash covers the file's changed lines, so a mark is dropped when the
	// file's change is not the one that was reviewed.
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
			out = append(out, fileItem(f, fi, AttentionHiddenUnicode, AttentionHigh,
				"file name holds hidden or bidirectional-control characters"))
		}
		lines = lines[:0]
		shebang := false
		for hi, h := range f.Hunks {
			if h == nil {
				continue
			}
			for li := range h.Lines {
				l := &h.Lines[li]
				if l.Kind != LineAdded {
					continue
				}
				if sev, title, ok := hiddenInLine(l.Text, l.New == 1); ok {
					lines = append(lines, lineItem(p, fi, hi, li, l, AttentionHiddenUnicode, sev, title))
				}
				if l.New == 1 && strings.HasPrefix(l.Text, "#!") {
					shebang = true
				}
				if info.prose {
					continue // documentation does not run; its install examples are the commonest false positive
				}
				lower = asciiLower(lower[:0], l.Text)
				if r := matchRule(info.scope, l.Text, lower); r != nil {
					lines = append(lines, lineItem(p, fi, hi, li, l, r.kind, r.severity, r.title))
				}
			}
		}
		switch {
		case info.kind != "":
			out = append(out, fileItem(f, fi, info.kind, info.severity, info.title))
		case shebang && !f.Binary:
			out = append(out, fileItem(f, fi, AttentionScript, AttentionMedium, "script with a shebang "+statusVerb(f)))
		case f.NewMode == "100755" && f.OldMode != "100755" && f.Status != StatusDeleted:
			title := "file made executable"
			if f.Status == StatusAdded {
				title = "executable file added"
			}
			out = append(out, fileItem(f, fi, AttentionScript, AttentionMedium, title))
		}
		out = appendCapped(out, lines)
	}
	for i := range out {
		out[i].Key = attentionKey(&out[i], d)
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

// attentionKey is kind|path|new line|hash. A "more" item is keyed by its
// count too, so reviewing it does not cover lines added later.
func attentionKey(a *Attention, d *Diff) string {
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
	b := make([]byte, 0, len(a.Kind)+len(a.Path)+48)
	b = append(b, a.Kind...)
	b = append(b, '|')
	b = append(b, a.Path...)
	b = append(b, '|')
	b = strconv.AppendInt(b, int64(a.NewLine), 10)
	b = append(b, '|')
	if a.More > 0 {
		b = append(b, "more"...)
		b = strconv.AppendInt(b, int64(a.More), 10)
		b = append(b, '|')
	}
	const hex = "0123456789abcdef"
	for shift := 60; shift >= 0; shift -= 4 {
		b = append(b, hex[h>>uint(shift)&0xf])
	}
	return string(b)
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

// isBidi reports the bidirectional controls: the Trojan Source characters
// that reorder what a reader sees.
func isBidi(r rune) bool { return HiddenClassOf(r) == HiddenBidi }

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
type scope uint8

const (
	scopeGo scope = 1 << iota
	scopeWorkflow
	scopePackageJSON
	scopeDockerfile
	scopeGoMod
	scopeSetupPy
)

type fileInfo struct {
	kind     AttentionKind // "" when the file's name says nothing
	severity string
	title    string
	scope    scope
	prose    bool // documentation: scanned for hidden characters only
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
	if kind == "" && f.Binary {
		if b := runnableBinary(p); b != "" {
			kind, noun = AttentionBuildFile, b
		}
	}
	if kind == "" {
		return info
	}
	switch kind {
	case AttentionCIFile:
		sev = AttentionHigh
	case AttentionDependency:
		sev = AttentionLow
	default:
		sev = AttentionMedium
	}
	if f.Status == StatusDeleted || verb == "renamed away" {
		sev = lower1(sev)
	}
	info.kind, info.severity, info.title = kind, sev, noun+" "+verb
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
		return AttentionBuildFile, "git attributes (filters)", 0
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
	case strings.HasPrefix(lb, "requirements") && ext == ".txt", lb == "constraints.txt", lb == "pipfile",
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
	kind     AttentionKind
	severity string
	title    string
	scope    scope // 0: every file that is not prose
	keys     []string
	re       matcher
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
			if (r.scope == 0 || r.scope&sc != 0) && r.re.MatchString(text) {
				return r
			}
		}
		set >>= 1
	}
	return nil
}

// shellPipe is "| sh", "| sudo bash", "| /bin/sh", "| python3", "| iex".
const shellPipe = `\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:\S*/)?(?:env\s+)?(?:(?:ba|z|da|k|fi|tc|c)?sh|python[0-9.]*|perl|ruby|node|iex|invoke-expression)\b`

var lineRules = sync.OnceValue(func() []lineRule {
	shellPipeRe := regexp.MustCompile(shellPipe)
	return []lineRule{
		// ---- high
		{AttentionDecodeExec, AttentionHigh, "decodes data and pipes it to a shell", 0,
			[]string{"base64", "xxd", "openssl", "uudecode", "gunzip", "zcat", "base32"},
			regexp.MustCompile(`(?i)(?:\bbase(?:64|32)\b[^|]*\s(?:-d|-D|--decode)\b|\bxxd\b[^|]*\s-r|\bopenssl\b[^|]*\s-d\b|\buudecode\b|\bgunzip\b|\bzcat\b)[^|]*` + shellPipe)},
		{AttentionDecodeExec, AttentionHigh, "decodes data and runs it (eval/exec)", 0,
			[]string{"b64decode", "decodebytes", "decodestring", "unhexlify", "fromhex", "decompress", "atob", "base64", "frombase64string"},
			regexp.MustCompile(`(?i)\b(?:exec|eval|function|iex|invoke-expression)\b\s*\(?.*\b(?:b64decode|b32decode|a85decode|decodebytes|decodestring|unhexlify|fromhex|decompress|atob|frombase64string)\b|` +
				`\b(?:b64decode|b32decode|a85decode|decodebytes|decodestring|unhexlify|fromhex|decompress|atob|frombase64string)\b.*\b(?:exec|eval|iex|invoke-expression)\b|` +
				`\b(?:exec|eval)\s*\(.*\bBuffer\.from\([^)]*base64`)},
		{AttentionDecodeExec, AttentionHigh, "runs inline code that decodes a payload", 0,
			[]string{"python", "node", "perl", "ruby"},
			regexp.MustCompile(`(?i)\b(?:python[0-9.]*|node|perl|ruby)\s+-[ce]\b.*(?:decode|decompress|fromhex|unhexlify|atob|buffer\.from|unpack)`)},
		{AttentionDecodeExec, AttentionHigh, "PowerShell runs an encoded command", 0,
			[]string{"powershell", "pwsh"},
			regexp.MustCompile(`(?i)\b(?:powershell|pwsh)(?:\.exe)?\b.*\s-(?:e|ec|en|enc|encodedcommand)\s+[A-Za-z0-9+/=]{16,}`)},
		{AttentionDownload, AttentionHigh, "downloads and pipes to a shell", 0,
			[]string{"curl", "wget", "iwr", "irm", "invoke-webrequest", "invoke-restmethod", "downloadstring"},
			either{both{regexp.MustCompile(`(?i)\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b`), shellPipeRe},
				regexp.MustCompile(`(?i)\b(?:(?:ba|z|da|k)?sh|source|\.)\s+<\(\s*(?:curl|wget)\b|` +
					`\b(?:(?:ba|z|da|k)?sh)\s+-c\s+["']?\$\(\s*(?:curl|wget)\b|` +
					`\b(?:iex|invoke-expression)\b.*\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring)\b`)}},
		{AttentionCIFile, AttentionHigh, "workflow runs on pull_request_target or workflow_run (secrets and write access)", scopeWorkflow,
			[]string{"pull_request_target", "workflow_run"},
			regexp.MustCompile(`\b(?:pull_request_target|workflow_run)\b`)},
		{AttentionCIFile, AttentionHigh, "workflow asks for write-all permissions", scopeWorkflow,
			[]string{"write-all"},
			regexp.MustCompile(`\bwrite-all\b`)},
		{AttentionExecute, AttentionHigh, "expands untrusted pull-request text into a command (script injection)", scopeWorkflow,
			[]string{"${{"},
			regexp.MustCompile(`\$\{\{\s*github\.(?:head_ref\b|event\.(?:pull_request|issue|comment|review|review_comment|head_commit|commits|discussion|pages)\b[\w.\[\]*]*\.(?:title|body|ref|label|message|name|email|default_branch)\b)`)},
		{AttentionScript, AttentionHigh, "npm lifecycle script: runs on npm install", scopePackageJSON,
			[]string{"install", "prepare"},
			regexp.MustCompile(`"(?:preinstall|install|postinstall|prepare|preprepare|postprepare)"\s*:`)},
		{AttentionNetwork, AttentionHigh, "opens a raw connection or a reverse shell", 0,
			[]string{"/dev/tcp/", "/dev/udp/", "nc ", "ncat", "netcat", "socat", "pty.spawn"},
			regexp.MustCompile(`/dev/(?:tcp|udp)/|(?:^|[\s;|&(])(?:nc|ncat|netcat)\s+(?:-\S+\s+)*-[a-z]*[ec]\b|\bsocat\b.*\bexec:|\bpty\.spawn\(`)},
		{AttentionCredential, AttentionHigh, "holds a private key", 0,
			[]string{"-----begin"},
			regexp.MustCompile(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY`)},
		{AttentionCredential, AttentionHigh, "holds what looks like a live token", 0,
			[]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "akia", "xox", "npm_", "pypi-age", "glpat-"},
			regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}|AKIA[0-9A-Z]{16}|xox[abprs]-[A-Za-z0-9-]{10,}|npm_[A-Za-z0-9]{36}|pypi-AgE[A-Za-z0-9_-]{20,}|glpat-[A-Za-z0-9_-]{20})`)},
		{AttentionCredential, AttentionHigh, "names a CI token", 0,
			[]string{"github_token", "gh_token", "gh_pat", "actions_runtime_token", "actions_id_token", "actions_cache_url", "actions_results_url", "github.token", "ci_job_token"},
			regexp.MustCompile(`\b(?:GITHUB_TOKEN|GH_TOKEN|GH_PAT|ACTIONS_RUNTIME_TOKEN|ACTIONS_ID_TOKEN_REQUEST_(?:TOKEN|URL)|ACTIONS_CACHE_URL|ACTIONS_RESULTS_URL|CI_JOB_TOKEN)\b|\bgithub\.token\b`)},
		{AttentionCredential, AttentionHigh, "reads CI secrets", 0,
			[]string{"secrets"},
			regexp.MustCompile(`\$\{\{[^}]*\bsecrets\b|\bsecrets\.[A-Z_][A-Z0-9_]*\b|\bsecrets\[`)},
		{AttentionCredential, AttentionHigh, "names cloud or publishing credentials", 0,
			[]string{"aws_", "npm_token", "node_auth_token", "pypi_token", "pypi_api_token", "twine_password", "codecov_token", "docker_password", "dockerhub_token", "cargo_registry_token", "gitlab_token"},
			regexp.MustCompile(`\b(?:AWS_(?:ACCESS_KEY_ID|SECRET_ACCESS_KEY|SESSION_TOKEN)|NPM_TOKEN|NODE_AUTH_TOKEN|PYPI_(?:API_)?TOKEN|TWINE_PASSWORD|CODECOV_TOKEN|DOCKER_PASSWORD|DOCKERHUB_TOKEN|CARGO_REGISTRY_TOKEN|GITLAB_TOKEN)\b`)},
		{AttentionCredential, AttentionHigh, "reads credential files (~/.ssh, .netrc, ...)", 0,
			[]string{".ssh", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".netrc", ".git-credentials", ".aws/credentials", ".docker/config", ".pypirc", ".npmrc", "/proc/self/environ"},
			regexp.MustCompile(`(?:~|\$HOME|\$\{HOME\}|/root|/home/[^/\s]+)/\.(?:ssh|netrc|git-credentials|aws/credentials|docker/config\.json|pypirc|npmrc)\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\.git-credentials\b|/proc/self/environ`)},
		{AttentionCredential, AttentionHigh, "dumps the environment (secrets included)", 0,
			[]string{"printenv", "process.env", "tojson(env", "os.environ"},
			regexp.MustCompile(`\bprintenv\b|JSON\.stringify\(\s*process\.env\s*\)|toJSON\(\s*env\s*\)|\bdict\(\s*os\.environ\s*\)`)},
		{AttentionCredential, AttentionHigh, "sends an Authorization header", 0,
			[]string{"authorization"},
			regexp.MustCompile(`(?i)\bAuthorization:\s*(?:Bearer|Basic|token)\b`)},

		// ---- medium
		{AttentionGoGenerate, AttentionMedium, "go:generate runs a command on go generate", scopeGo,
			[]string{"//go:generate"},
			regexp.MustCompile(`^\s*//go:generate\b`)},
		{AttentionBuildFile, AttentionMedium, "setup.py overrides a setup command (runs at install)", scopeSetupPy,
			[]string{"cmdclass"},
			regexp.MustCompile(`\bcmdclass\b`)},
		{AttentionDependency, AttentionMedium, "go.mod replace directive points a module elsewhere", scopeGoMod,
			[]string{"replace", "=>"},
			regexp.MustCompile(`^\s*replace\b|=>`)},
		{AttentionDependency, AttentionMedium, "installs from another package index or a git URL", 0,
			[]string{"index-url", "trusted-host", "git+"},
			regexp.MustCompile(`(?i)--(?:extra-)?index-url\b|--trusted-host\b|\bgit\+(?:https?|ssh)://`)},
		{AttentionDecodeExec, AttentionMedium, "decodes base64 or hex in a command", 0,
			[]string{"base64", "xxd"},
			regexp.MustCompile(`(?i)\bbase64\b[^|;&]*\s(?:-d|-D|--decode)\b|\bxxd\b[^|;&]*\s-r`)},
		{AttentionDownload, AttentionMedium, "Dockerfile ADD downloads a URL", scopeDockerfile,
			[]string{"add"},
			regexp.MustCompile(`^\s*ADD\s+(?:--\S+\s+)*https?://`)},
		{AttentionDownload, AttentionMedium, "downloads with curl or wget", 0,
			[]string{"curl", "wget"},
			regexp.MustCompile(`(?i)\b(?:curl|wget)\b`)},
		{AttentionDownload, AttentionMedium, "downloads or calls a URL", 0,
			[]string{"fetch(", "requests.", "urllib", "urlopen", "httpx.", "aiohttp", "http.get(", "http.post", "http.head(", "axios",
				"invoke-webrequest", "invoke-restmethod", "iwr", "irm", "bitstransfer", "downloadstring", "downloadfile", "webclient"},
			regexp.MustCompile(`\bfetch\(|\brequests\.(?:get|post|put|patch|head|request)\(|\burllib\b|\burlopen\(|\bhttpx\.|\baiohttp\b|\bhttp\.(?:Get|Post|PostForm|Head)\(|\baxios\b|` +
				`(?i:\b(?:invoke-webrequest|invoke-restmethod|iwr|irm|start-bitstransfer|downloadstring|downloadfile)\b|net\.webclient)`)},
		{AttentionDownload, AttentionMedium, "clones a git repository", 0,
			[]string{"git"},
			regexp.MustCompile(`\bgit\s+(?:clone|submodule\s+add)\b`)},
		{AttentionDownload, AttentionMedium, "installs packages or tools", 0,
			[]string{"install", "npx", "apk", "dlx", "go run", "go get"},
			regexp.MustCompile(`(?i)\b(?:pip[0-9.]*|pipx|uv\s+pip|python[0-9.]*\s+-m\s+pip)\s+install\b|\bnpm\s+(?:install|i|ci|exec)\b|\bnpx\s|` +
				`\byarn\s+(?:add|install|dlx)\b|\bpnpm\s+(?:add|install|i|dlx)\b|\bgo\s+(?:install|get)\b|\bgo\s+run\s+\S+@|` +
				`\bapt(?:-get)?\s+(?:-\S+\s+)*install\b|\b(?:yum|dnf|zypper)\s+(?:-\S+\s+)*install\b|\bapk\s+add\b|` +
				`\b(?:brew|gem|cargo|conda)\s+install\b`)},
		{AttentionExecute, AttentionMedium, "pipes into a shell or interpreter", 0,
			[]string{"|"},
			shellPipeRe},
		{AttentionExecute, AttentionMedium, "runs a shell command string (sh -c)", 0,
			[]string{"sh -"},
			regexp.MustCompile(`(?:^|[^\w.-])(?:ba|z|da|k)?sh\s+-\w*c\b`)},
		{AttentionExecute, AttentionMedium, "starts a process (subprocess, os/exec, system, child_process)", 0,
			[]string{"subprocess", "os/exec", "exec.command", "system(", "popen", "child_process", "execsync", "execfile", "spawn", "runtime", "processbuilder",
				"startprocess", "start-process", "invoke-expression", "iex", "shell=true"},
			regexp.MustCompile(`\bsubprocess\b|"os/exec"|\bexec\.Command(?:Context)?\(|\bsystem\(|\bpopen\b|(?i:\bpopen\()|\bchild_process\b|\bexecSync\b|\bexecFile(?:Sync)?\b|\bspawn(?:Sync)?\(|` +
				`\bRuntime\.getRuntime\(\)|\bProcessBuilder\b|\bsyscall\.Exec\b|\bos\.StartProcess\b|(?i:\bstart-process\b|\binvoke-expression\b|\biex\b)|\bshell\s*=\s*True\b`)},
		{AttentionExecute, AttentionMedium, "runs code (eval or exec)", 0,
			[]string{"eval", "exec"},
			regexp.MustCompile(`\b(?:eval|exec)\b|\bexec[lv]p?e?\(`)},
		{AttentionNetwork, AttentionMedium, "opens a network connection", 0,
			[]string{"socket", "net.dial", "net.listen", "nc ", "ncat", "netcat", "socat", "telnet", "connect("},
			regexp.MustCompile(`(?i:\b(?:web)?socket\b)|\bnet\.(?:Dial\w*|Listen\w*)\(|(?:^|[\s;|&(` + "`" + `])(?:nc|ncat|netcat|socat|telnet)\s|\bconnect\(\s*[^)\s]`)},
		{AttentionCredential, AttentionMedium, "names a password, token or API key", 0,
			[]string{"password", "passwd", "api_key", "apikey", "api-key", "_token", "_secret", "client_secret"},
			regexp.MustCompile(`(?i:\b(?:password|passwd|api[_-]?key|client_secret)\b\s*[:=])|\b[A-Z][A-Z0-9_]*_(?:TOKEN|SECRET|PASSWORD|API_KEY)\b`)},
	}
})
