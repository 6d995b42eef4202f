package attention

// Where code comes from: registries and indexes, dependencies given as
// URLs, the Gradle distribution, base images, pre-commit hook
// repositories, submodules and actions. A name that stays the same while
// the place behind it changes is the supply-chain attack's favourite
// disguise, so each reader compares a line with the line it replaced and
// with the well-known names it may imitate.

import (
	"cmp"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/vetter-dev/vetter/attention/provenance"
	"github.com/vetter-dev/vetter/attention/rules"
	"github.com/vetter-dev/vetter/packet"

	"github.com/vetter-dev/vetter/internal/commitid"
)

type sourceRes struct {
	npmRegistry, pipIndex, cliIndex, goEnv, reqURL, cargoGit, gradleDist, from, preCommitRepo, preCommitEntry, subURL, uses, goReplace, goRequire, goTool *regexp.Regexp
}

var srcRe = sync.OnceValue(func() *sourceRes {
	return &sourceRes{
		npmRegistry:    regexp.MustCompile(`^\s*(?:@[\w.-]+:)?registry\s*=\s*["']?(\S+?)["']?\s*$|^\s*npmRegistryServer\s*:\s*["']?(\S+?)["']?\s*$|^\s*registry\s+["'](\S+)["']`),
		pipIndex:       regexp.MustCompile(`^\s*(?:extra-)?index-url\s*=\s*(\S+)|^\s*find-links\s*=\s*(\S+)|^\s*url\s*=\s*["'](https?://\S+?)["']`),
		cliIndex:       regexp.MustCompile(`(?:--(?:extra-)?index-url|--find-links|\bpip[0-9.]*\s+install\b.*\s-i)[\s=]+["']?(https?://[^\s"']+)|\b(?:PIP_(?:EXTRA_)?INDEX_URL|UV_(?:EXTRA_)?INDEX_URL|UV_DEFAULT_INDEX|POETRY_REPOSITORIES_\w+_URL|npm_config_registry|NPM_CONFIG_REGISTRY|YARN_REGISTRY)\s*[=:]\s*["']?(https?://[^\s"']+)|\b(?:npm|pnpm|yarn)\s+config\s+set\s+(?:@[\w.-]+:)?registry\s+["']?(https?://[^\s"']+)|--registry[\s=]+["']?(https?://[^\s"']+)|\bpoetry\s+source\s+add\b.*?\s["']?(https?://[^\s"']+)|\byarn\s+config\s+set\s+npmRegistryServer\s+["']?(https?://[^\s"']+)|\bgem\s+sources?\s+(?:--add|-a)\s+["']?(https?://[^\s"']+)|\bbundle\s+config\s+(?:set\s+)?(?:--\w+\s+)?mirror\.\S+\s+["']?(https?://[^\s"']+)|\bdotnet\s+nuget\s+add\s+source\s+["']?(https?://[^\s"']+)|\bpip[0-9.]*\s+config\s+set\s+\S*index-url\s+["']?(https?://[^\s"']+)|\bconda\s+config\s+--add\s+channels\s+["']?(https?://[^\s"']+)`),
		goEnv:          regexp.MustCompile(`\bGOPROXY\s*[=:]\s*["']?([^\s"']+)|\bGOSUMDB\s*[=:]\s*["']?off\b|\bGONOSUMDB\s*[=:]|\bGONOSUMCHECK\s*[=:]\s*["']?1|\bGOFLAGS\s*[=:].*-insecure|\bGOINSECURE\s*[=:]`),
		reqURL:         regexp.MustCompile(`^\s*["']?[\w.\[\],-]+\s*@\s*(?:https?|git\+\w+|file)://|^\s*(?:-e\s+)?(?:git\+\w+|https?)://\S+|^\s*["'][\w.\[\],-]+\s*@\s*(?:https?|git\+\w+)://`),
		cargoGit:       regexp.MustCompile(`\bgit\s*=\s*["'](?:https?|ssh|git)://|^\s*\w[\w-]*\s*=\s*\{[^}]*\bgit\s*=|\bgit(?:hub)?:\s*["'][^"']+["']`),
		gradleDist:     regexp.MustCompile(`^\s*(?:distributionUrl|wrapperUrl)\s*=\s*(\S+)`),
		from:           regexp.MustCompile(`(?i)^\s*FROM\s+(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?`),
		preCommitRepo:  regexp.MustCompile(`^\s*-?\s*repo\s*:\s*["']?([^\s"'#]+)`),
		preCommitEntry: regexp.MustCompile(`^\s*-?\s*entry\s*:\s*(.+)$`),
		subURL:         regexp.MustCompile(`^\s*url\s*=\s*(\S+)`),
		uses:           regexp.MustCompile(`^\s*(?:-\s+)?uses\s*:\s*["']?([^\s"'#@/]+)/([^\s"'#@]+)@?([^\s"'#]*)`),
		goReplace:      regexp.MustCompile(`^\s*(?:replace\s+)?(\S+)(?:\s+v\S+)?\s+=>\s+(\S+)`),
		// Go 1.24's tool directive (tool path, or a bare path in a tool
		// block): go tool builds and runs that package.
		goTool:    regexp.MustCompile(`^\s*(?:tool\s+)?([\w-]+\.[\w.-]+/[^\s()]+)\s*(?://.*)?$`),
		goRequire: regexp.MustCompile(`^\s*(?:require\s+)?([\w-]+\.[\w.-]+/\S+)\s+v\d\S*\s*(?://.*)?$`),
	}
})

// sources rates the file's added lines on where code comes from.
func (fs *fileScan) sources() {
	re := srcRe()
	sc := fs.info.Scope
	for n := range fs.added {
		s := fs.text[n]
		ts := strings.TrimSpace(s)
		if ts == "" || strings.HasPrefix(ts, "#") && sc&(rules.ScopeShell|rules.ScopeMakefile|rules.ScopeDockerfile|rules.ScopeRequirements|rules.ScopePreCommit|rules.ScopeNpmrc|rules.ScopePipConf|rules.ScopeGradleWrapper|rules.ScopeWorkflow|rules.ScopeGitmodules) != 0 {
			continue
		}
		// Registries and indexes, wherever they are set; a substring test
		// first, as almost no line names one and the patterns are slow.
		if provenance.MayNameIndex(s) {
			fs.indexLine(n, s)
		}
		if strings.Contains(s, "insteadOf") || strings.Contains(s, "insteadof") {
			fs.insteadOf(n, s)
		}
		switch {
		case sc&rules.ScopeNpmrc != 0:
			fs.npmExec(n, s)
			if m := re.npmRegistry.FindStringSubmatch(s); m != nil {
				// Whatever key names the registry (npmRegistryServer,
				// yarn v1's registry "…"), plain http lets anyone on the
				// path serve the packages.
				fs.indexSource(n, strings.Join(m[1:], ""), "points npm at the registry %s", false)
			}
		case sc&rules.ScopePipConf != 0:
			if m := re.pipIndex.FindStringSubmatch(s); m != nil {
				fs.indexSource(n, strings.Join(m[1:], ""), "points pip at the index %s", false)
			}
		case sc&rules.ScopeCargoConfig != 0:
			fs.cargoSource(n, s)
		case sc&rules.ScopeGradleWrapper != 0:
			if m := re.gradleDist.FindStringSubmatch(s); m != nil {
				// The Maven wrapper's distributionUrl and wrapperUrl name
				// what mvnw downloads and runs, as gradlew's does.
				tool, home := "Gradle", []string{"services.gradle.org"}
				if strings.Contains(fs.path, "maven-wrapper") {
					tool, home = "Maven", []string{"repo.maven.apache.org", "repo1.maven.org"}
				}
				if h := provenance.HostOf(m[1]); !provenance.HostIn(h, home) && !provenance.HostIn(h, provenance.SharedPackageHosts) {
					fs.report(n, hit{id: "gradle-distribution", title: tool + " wrapper downloads " + tool + " from " + h})
				} else if strings.HasPrefix(m[1], "http:") || strings.HasPrefix(m[1], `http\:`) {
					fs.report(n, hit{id: "gradle-distribution", title: "Gradle wrapper downloads Gradle over plain http",
						why: "gradlew runs the distribution it downloads, on every build; over plain http anyone on the path chooses it"})
				}
			}
		case sc&rules.ScopePreCommit != 0:
			if m := re.preCommitRepo.FindStringSubmatch(s); m != nil && m[1] != "local" && m[1] != "meta" {
				fs.preCommitRepo(n, m[1])
			}
			if m := re.preCommitEntry.FindStringSubmatch(s); m != nil {
				fs.shellLines([]numbered{{n, unquoteYAML(strings.TrimSpace(m[1]))}}, newFlow(), false)
			}
		case sc&rules.ScopeDockerfile != 0:
			if m := re.from.FindStringSubmatch(s); m != nil {
				fs.fromLine(n, m[1])
			} else if name, v, ok := rules.VarDef(s, true); ok {
				fs.imageDefault(n, name, v)
			}
		case sc&rules.ScopeGitmodules != 0:
			// Its host and owner are judged with every manifest's sources.
			if m := re.subURL.FindStringSubmatch(s); m != nil {
				fs.switched(n, m[1], re.subURL, "submodule")
			}
		case sc&rules.ScopeWorkflow != 0:
			fs.retagged(n, s)
			if m := re.uses.FindStringSubmatch(s); m != nil && !strings.Contains(s, "://") {
				if k := provenance.LookalikeOwner(m[1]); k != "" {
					fs.report(n, hit{id: "lookalike-source", title: "uses an action from " + m[1] + ", a look-alike of " + k})
				} else {
					fs.actionChanged(n, m[1], m[2], m[3])
					fs.reusableElsewhere(n, m[1], m[2], m[3])
				}
			}
		case sc&rules.ScopeGoMod != 0:
			if m := re.goReplace.FindStringSubmatch(s); m != nil && !strings.HasPrefix(m[2], ".") && !strings.HasPrefix(m[2], "/") {
				if k := rules.SquatOf(m[2], "go"); k != "" {
					fs.report(n, hit{id: "lookalike-source", title: "replaces " + m[1] + " with " + m[2] + ", a look-alike of " + k})
				} else if provenance.OwnerOf(m[1]) != provenance.OwnerOf(m[2]) {
					fs.report(n, hit{id: "source-switched", title: "replaces " + m[1] + " with a module of another owner (" + m[2] + ")"})
				}
			} else if m := re.goRequire.FindStringSubmatch(s); m != nil {
				if k := rules.SquatOf(m[1], "go"); k != "" {
					fs.report(n, hit{id: "lookalike-source", title: "requires the module " + m[1] + ", a look-alike of " + k})
				}
			} else if m := re.goTool.FindStringSubmatch(s); m != nil && !strings.HasPrefix(strings.TrimSpace(s), "module ") {
				if k := rules.SquatOf(m[1], "go"); k != "" {
					fs.report(n, hit{id: "lookalike-source", title: "runs the tool " + m[1] + " (go tool builds it), a look-alike of " + k})
				}
			}
		case sc&rules.ScopeLock != 0:
			if m := lockResolved().FindStringSubmatch(s); m != nil {
				fs.lockHost(n, m[1])
			}
		case sc&rules.ScopeRequirements != 0:
			if (re.reqURL.MatchString(s) || re.cargoGit.MatchString(s) || directRef(s)) && !registryFile(s) {
				h := gitSourcePin(s)
				if h.severity != "" && fs.overridesRegistry(n, s) {
					h = hit{id: "dependency-url", title: "switches a registry dependency to a git repository (or patches it with one)",
						why: "the same name now builds from that repository for the whole build, commit or not: whose repository it is decides what runs on the runner"}
				}
				fs.report(n, h)
			} else if m := pkgSourceRe().FindStringSubmatch(s); m != nil && (m[1] != "" || fs.underIndexSection(n)) {
				fs.indexSource(n, m[1]+m[2], "points package installs at %s", false)
			}
		}
	}
}

var (
	cargoProgramRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(rustc-wrapper|rustc-workspace-wrapper|rustc|rustdoc|linker|runner)\s*=\s*\[?\s*["']([^"']+)["']`)
	})
	npmExecRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(node-options|script-shell|init-module|onload-script|yarnPath|nodeOptions)\s*[=:]\s*["']?([^"'\n]+?)["']?\s*$`)
	})
	nodeLoadFlagRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|\s)(?:--require|-r|--import|--loader|--experimental-loader)[\s=]+(\S+)`)
	})
)

// npmExec rates the npm and yarn settings that make the package manager
// load or run a file: node-options with --require, script-shell, and a
// yarnPath outside yarn's own releases folder.
func (fs *fileScan) npmExec(n int, s string) {
	m := npmExecRe().FindStringSubmatch(s)
	if m == nil {
		return
	}
	key, v := m[1], strings.TrimSpace(m[2])
	switch key {
	case "node-options", "nodeOptions":
		if l := nodeLoadFlagRe().FindStringSubmatch(v); l != nil {
			fs.report(n, hit{id: "build-tool-exec", title: "makes every node process npm starts load " + l[1]})
		}
	case "yarnPath":
		if !strings.Contains(v, ".yarn/releases/") {
			fs.report(n, hit{id: "build-tool-exec", title: "makes yarn run " + v + " in its own place"})
		}
	default:
		if provenance.TreeProgram(v) {
			h := hit{id: "build-tool-exec", title: "makes npm run " + v + " (" + key + ")"}
			if key == "init-module" && !provenance.OutsideTree(v) {
				// Only npm init runs it, by hand. script-shell and
				// onload-script sit where the shell and npm's own start are,
				// as make's SHELL and cargo's rustc-wrapper do: every script
				// of every package installed runs through the file.
				h.severity = rules.Medium
				h.why = "npm init runs it; read it as you would a lifecycle script"
			}
			fs.report(n, h)
		}
	}
}

var (
	cargoSourceRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(?:registry|index|git)\s*=\s*["']([^"']+)["']`) })
	cargoSectionRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[(source|registries)\.([^\]]+)\]`) })
)

// cargoSource rates a registry, index or git URL under a [source.*] or
// [registries.*] section of a Cargo config: source replacement sends every
// crate download (crates-io's included, under their real names) to it.
// A local directory (cargo vendor) is in the tree and is not a place.
func (fs *fileScan) cargoSource(n int, s string) {
	if m := cargoProgramRe().FindStringSubmatch(s); m != nil && provenance.TreeProgram(m[2]) {
		h := hit{id: "build-tool-exec", title: "cargo runs " + m[2] + " as its " + m[1] + " at every build"}
		if rules.CompilerSeat(m[1]) {
			h.why = rules.CompilerSeatWhy
		} else if !provenance.OutsideTree(m[2]) {
			// A linker or runner in the tree is code a reviewer can
			// read, as build.rs is.
			h.severity = rules.Medium
			h.why = "cargo runs it at every build; read it as you would build.rs"
		}
		fs.report(n, h)
		return
	}
	m := cargoSourceRe().FindStringSubmatch(s)
	if m == nil {
		return
	}
	for k := n - 1; k > 0 && k >= n-12; k-- {
		t, ok := fs.text[k]
		if !ok {
			return
		}
		sec := cargoSectionRe().FindStringSubmatch(t)
		if sec == nil {
			if strings.HasPrefix(strings.TrimSpace(t), "[") {
				return
			}
			continue
		}
		if sec[1] == "source" {
			fs.indexSource(n, m[1], "replaces cargo's crate source with %s (source replacement)", false)
		} else {
			fs.indexSource(n, m[1], "adds the cargo registry %s", false)
		}
		return
	}
}

var lockResolved = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*"?(?:resolved|tarball|url)"?\s*:?\s*"(https?://[^"#\s]+)`)
})

// lockHost rates where a lock file fetches a package from: a host that
// replaced another for the same entry, or a look-alike of a registry.
func (fs *fileScan) lockHost(n int, u string) {
	h := provenance.HostOf(u)
	if h == "" {
		return
	}
	if k := provenance.LookalikeHost(h); k != "" {
		fs.report(n, hit{id: "lookalike-source", title: "lock file fetches a package from " + h + ", a look-alike of " + k})
		return
	}
	for _, old := range fs.removedNear(n) {
		if m := lockResolved().FindStringSubmatch(old); m != nil {
			if was := provenance.HostOf(m[1]); was != "" && was != h && !provenance.HostIn(h, provenance.KnownRegistries) {
				fs.report(n, hit{id: "source-switched", title: "lock file now fetches the package from " + h + " instead of " + was})
				return
			}
		}
	}
}

var insteadOfRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)url\.["']?([^"'\s]+?)["']?\.insteadof\s*=?\s*["']?([^"'\s]+)|^\s*insteadof\s*=\s*["']?([^"'\s]+)`)
})

var gitURLSection = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*\[url\s+"([^"]+)"\]`)
})

// insteadOf rates git's url.<new>.insteadOf <old>: every fetch of <old>,
// go modules and submodules included, goes to <new>. The same host with
// credentials added is how private modules are reached; another host is
// where the code now comes from.
func (fs *fileScan) insteadOf(n int, s string) {
	m := insteadOfRe().FindStringSubmatch(s)
	if m == nil {
		return
	}
	now, was := m[1], m[2]
	if m[3] != "" {
		was = m[3]
		for k := n - 1; k > 0 && k >= n-3; k-- {
			if sm := gitURLSection().FindStringSubmatch(fs.text[k]); sm != nil {
				now = sm[1]
				break
			}
		}
	}
	hn, hw := provenance.HostOf(now), provenance.HostOf(was)
	if hn == "" && strings.Contains(now, "@") {
		hn = strings.ToLower(strings.TrimPrefix(strings.SplitN(strings.SplitN(now, "@", 2)[1], ":", 2)[0], "//"))
	}
	if hw == "" && strings.Contains(was, "@") {
		hw = strings.ToLower(strings.SplitN(strings.SplitN(was, "@", 2)[1], ":", 2)[0])
	}
	if hn == "" || hw == "" || hn == hw || strings.Contains(now, "$") && !strings.Contains(strings.SplitN(now, "@", 2)[len(strings.SplitN(now, "@", 2))-1], "$") {
		return
	}
	fs.report(n, hit{id: "registry-redirect", title: "redirects git fetches of " + hw + " to " + hn + " (url.insteadOf)"})
}

// pkgSourceRe is a Gemfile's source line, or a url = line that, under a
// package-index section of pyproject.toml, names an index.
var pkgSourceRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*source\s+["'](https?://[^"']+)["']|^\s*url\s*=\s*["'](https?://[^"']+)["']`)
})

var indexSectionRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*\[\[?tool\.(?:poetry\.source|uv\.index|pdm\.source|rye\.sources|hatch\.envs\.[\w.-]+\.index)\]?\]|^\s*\[\[?(?:index|source|tool\.uv\.sources)\b`)
})

// underIndexSection reports a line within a few lines of a section that
// declares a package index.
func (fs *fileScan) underIndexSection(n int) bool {
	for k := n - 1; k > 0 && k >= n-6; k-- {
		t, ok := fs.text[k]
		if !ok {
			return false
		}
		if indexSectionRe().MatchString(t) {
			return true
		}
		if strings.HasPrefix(strings.TrimSpace(t), "[") {
			return false
		}
	}
	return false
}

func (fs *fileScan) preCommitRepo(n int, repo string) {
	h := provenance.HostOf(repo)
	switch {
	case h == "":
		return
	case provenance.LookalikeHost(h) != "":
		fs.report(n, hit{id: "lookalike-source", title: "pre-commit runs hooks from " + h + ", a look-alike of " + provenance.LookalikeHost(h)})
		return
	case h != "github.com" && h != "gitlab.com" || strings.HasPrefix(repo, "http://"):
		fs.report(n, hit{id: "pre-commit-repo-unfamiliar", title: "pre-commit runs hooks from " + h})
		return
	}
	u, _ := url.Parse(repo)
	owner, _, _ := strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
	if k := provenance.LookalikeOwner(owner); k != "" {
		fs.report(n, hit{id: "lookalike-source", title: "pre-commit runs hooks from " + owner + ", a look-alike of " + k})
		return
	}
	if k := provenance.ComboOwner(owner, provenance.HookOwners()); k != "" {
		fs.report(n, hit{id: "lookalike-source", title: "pre-commit runs hooks from " + owner + ", a well-known owner's name with a word added (" + k + ")"})
		return
	}
	for _, id := range fs.hookIDs(n) {
		if homes, ok := provenance.HookHomes[id]; ok && !slices.Contains(homes, strings.ToLower(strings.TrimSuffix(strings.Trim(u.Path, "/"), ".git"))) {
			fs.report(n, hit{id: "lookalike-source", title: "takes the hook " + id + " from " + strings.Trim(u.Path, "/") + ", not from " + homes[0] + ", where it is published"})
			return
		}
	}
	if fs.switched(n, repo, srcRe().preCommitRepo, "hook repository") {
		return
	}
	fs.report(n, hit{id: "pre-commit-repo"})
}

// fromLine rates a Dockerfile FROM, or an image named anywhere else. An
// image given by a variable is judged by the value the file gives it.
func (fs *fileScan) fromLine(n int, image string) {
	src := 0
	if strings.Contains(image, "$") {
		if image, src = fs.resolveImage(n, image); image == "" {
			return
		}
	}
	if image == "scratch" {
		return
	}
	if strings.HasPrefix(strings.ToLower(image), "docker.io/") || strings.HasPrefix(strings.ToLower(image), "index.docker.io/") {
		image = image[strings.IndexByte(image, '/')+1:] // Docker Hub by its own name
	}
	name := provenance.ImageName(image)
	if !strings.Contains(image, "@sha256:") {
		fs.digestDropped(n, name)
	}
	parts := strings.Split(name, "/")
	if len(parts) == 1 && fs.stage(parts[0]) {
		return // an earlier stage of the same build
	}
	if k := provenance.GHCRImitates(name); k != "" {
		fs.report(n, hit{id: "lookalike-source", title: "builds from " + name + ", a look-alike of " + k, source: src})
		return
	}
	if len(parts) > 1 && (strings.ContainsAny(parts[0], ".:") || parts[0] == "localhost") {
		if k := provenance.LookalikeHost(strings.Split(parts[0], ":")[0]); k != "" {
			fs.report(n, hit{id: "docker-from-unfamiliar", title: "builds from an image on " + parts[0] + ", a look-alike of " + k, source: src})
			return
		}
		if !provenance.HostIn(strings.ToLower(strings.Split(parts[0], ":")[0]), provenance.KnownImageHosts) {
			fs.report(n, hit{id: "docker-from-unfamiliar", title: "builds from an image on " + parts[0], source: src})
			return
		}
	}
	if len(parts) == 2 && provenance.HostIn(strings.ToLower(parts[0]), provenance.HubMirrors) {
		parts = parts[1:] // a mirror of Docker Hub serves its official images at the top
	}
	last := parts[len(parts)-1]
	if len(parts) == 1 || len(parts) == 2 && parts[0] == "library" {
		if k := provenance.Lookalike(last, provenance.OfficialImages); k != "" {
			fs.report(n, hit{id: "lookalike-source", title: "builds from " + name + ", a look-alike of the official " + k + " image", source: src})
			return
		}
	}
	if len(parts) == 2 && !strings.ContainsAny(parts[0], ".:") {
		if k := provenance.LookalikePublisher(parts[0]); k != "" {
			fs.report(n, hit{id: "lookalike-source", title: "builds from " + name + ", under a look-alike of the publisher " + k, source: src})
			return
		}
	}
	// A user's image under an official image's name (someone/python) is
	// the Docker Hub look-alike; the publishers below are known ones.
	if len(parts) == 2 && !provenance.KnownPublisher(parts[0]) {
		for _, o := range provenance.OfficialImages {
			if strings.EqualFold(last, o) {
				if !fs.switched(n, name, srcRe().from, "base image") {
					fs.report(n, hit{id: "lookalike-source", title: "builds from " + name + ", a user's image under the official " + o + " image's name", source: src})
				}
				return
			}
		}
	}
	fs.switched(n, name, srcRe().from, "base image")
}

// resolveImage is image with the variables it names replaced by the values
// the file gives them (ARG BASE=…, a CI file's variables:, ${X:-default}),
// and the line that gave the first of them; "" when the image's name stays
// unknown (a registry the CI system supplies, as $CI_REGISTRY_IMAGE).
func (fs *fileScan) resolveImage(n int, image string) (string, int) {
	docker := fs.info.Scope&rules.ScopeDockerfile != 0
	src := 0
	value := func(name string) (string, bool) {
		v, at := rules.VarValue(name, n, fs.text, docker)
		if at > 0 && src == 0 {
			src = at
		}
		return v, at > 0
	}
	out, _ := rules.Expand(image, value)
	out, _ = rules.Expand(out, value) // a default that names another variable
	if name := provenance.ImageName(out); name == "" || strings.Contains(name, "$") {
		return "", 0
	}
	return out, src
}

// imageDefault rates a definition that decides an image: an ARG or a CI or
// compose variable that a FROM or image: line names, or whose name says it
// is one. Where that line is added too, the line is rated, not this.
func (fs *fileScan) imageDefault(n int, name, value string) {
	if !rules.ImageRef(value) {
		return
	}
	used := false
	for k, t := range fs.text {
		if !strings.Contains(t, "$"+name) && !strings.Contains(t, "${"+name) && !strings.Contains(t, "env."+name) {
			continue
		}
		if srcRe().from.MatchString(t) || imageRefLine().MatchString(t) {
			if _, added := fs.added[k]; added {
				return
			}
			used = true
		}
	}
	if !used && !rules.ImageVar(name, value) {
		return
	}
	fs.fromLine(n, value)
	for _, old := range fs.removedNear(n) {
		// The same variable, or the default of the HCL variable block the
		// line is in.
		if nm, was, ok := rules.VarDef(old, fs.info.Scope&rules.ScopeDockerfile != 0); ok && (nm == name || nm == "default") && rules.ImageRef(was) &&
			provenance.PlaceOf(provenance.ImageName(was)) != provenance.PlaceOf(provenance.ImageName(value)) {
			fs.report(n, hit{id: "source-switched", title: "switches the base image " + name + " names from " + was + " to " + value})
			return
		}
	}
}

var imageRefLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:-\s+)?"?(?:image|container)"?\s*:`)
})

// stage reports a name given to an earlier stage with FROM ... AS name.
func (fs *fileScan) stage(name string) bool {
	for _, t := range fs.text {
		if m := srcRe().from.FindStringSubmatch(t); m != nil && strings.EqualFold(m[2], name) {
			return true
		}
	}
	return false
}

// switched reports a source whose line replaced one naming the same kind
// of source at another owner or host: the same hunk removed a line that
// re matches, with a different place.
func (fs *fileScan) switched(n int, now string, re *regexp.Regexp, what string) bool {
	for _, old := range fs.removedNear(n) {
		m := re.FindStringSubmatch(old)
		if m == nil {
			continue
		}
		was := m[1]
		if re == srcRe().from {
			was = strings.SplitN(strings.SplitN(was, "@", 2)[0], ":", 2)[0]
		}
		if provenance.PlaceOf(was) != provenance.PlaceOf(now) {
			fs.report(n, hit{id: "source-switched", title: "switches the " + what + " from " + was + " to " + now})
			return true
		}
	}
	return false
}

// indexLine rates a line that may point installs at another registry.
func (fs *fileScan) indexLine(n int, s string) {
	re := srcRe()
	// A container engine's mirror serves every image the build pulls.
	if mirror, insecure := provenance.ImageMirror(s); mirror != "" || insecure {
		u := mirror
		if !strings.Contains(u, "://") {
			u = "https://" + u
		}
		h := provenance.HostOf(u)
		switch {
		case h != "" && !provenance.HostIn(h, provenance.KnownImageHosts) && !provenance.LoopbackOnly(u):
			fs.report(n, hit{id: "registry-redirect", title: "sends every container image pull through the mirror " + h})
		case insecure && !strings.Contains(s, "localhost") && !strings.Contains(s, "127.0.0.1"):
			fs.report(n, hit{id: "package-index-insecure", title: "lets the container engine pull images over plain http or without checking certificates"})
		}
	}
	// --trusted-host is package-index-insecure's, which says more.
	if !strings.Contains(s, "--trusted-host") {
		// Each index the line names: an extra one after the registry's own
		// serves any name it publishes.
		for _, m := range re.cliIndex.FindAllStringSubmatch(s, 4) {
			if h, ok := provenance.Redirected(strings.Join(m[1:], "")); ok {
				if k := provenance.LookalikeHost(h); k != "" {
					h += ", a look-alike of " + k
				}
				fs.report(n, hit{id: "registry-redirect", title: "points package installs at " + h})
				break
			}
		}
	}
	for _, src := range rules.CommandSources(n, s) {
		fs.judgeSource(src)
	}
	if names, idx := rules.PipInstallNames(s); len(names) > 0 && strings.HasPrefix(idx, "https://") {
		h := confusionHit(names[0], idx, 0)
		for _, name := range names {
			if rules.VendorName(name, idx) {
				h = confusionHit(name, idx, 0)
			}
		}
		fs.report(n, h)
	}
	if m := re.goEnv.FindStringSubmatch(s); m != nil {
		switch p := m[1]; {
		case p == "":
			fs.report(n, hit{id: "registry-redirect", title: "turns off Go's checksum database or allows insecure fetches"})
		default:
			for _, part := range strings.FieldsFunc(p, func(r rune) bool { return r == ',' || r == '|' }) {
				if h, ok := provenance.Redirected(part); ok {
					fs.report(n, hit{id: "registry-redirect", title: "points Go module downloads at " + h})
					break
				}
			}
		}
	}
}

var usesPin = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:-\s+)?uses\s*:\s*["']?([^\s"'#@]+)@([0-9a-f]{40})["']?\s*#\s*(\S+)`)
})

// retagged reports an action whose SHA changed while its tag comment did
// not: the removed line of the same hunk names the same action and tag
// with another commit.
func (fs *fileScan) retagged(n int, s string) {
	m := usesPin().FindStringSubmatch(s)
	if m == nil {
		return
	}
	for _, old := range fs.removedNear(n) {
		o := usesPin().FindStringSubmatch(old)
		if o != nil && o[1] == m[1] && o[3] == m[3] && !commitid.Same(o[2], m[2]) {
			fs.report(n, hit{id: "gha-sha-retagged", title: "changes " + m[1] + "'s commit but keeps the tag comment " + m[3]})
			return
		}
	}
}

// actionChanged compares a uses: line with the one it replaced: the same
// action moved from a commit SHA to a tag or branch, or the repository's
// own action or workflow swapped for someone else's at a tag or branch (the
// pin, and what it protected against, is gone), or an action swapped for one whose name is a
// letter or two away (a typosquat dressed as an edit); and a new action
// whose name is a look-alike of a well-known one.
func (fs *fileScan) actionChanged(n int, owner, repo, version string) {
	name := strings.ToLower(owner + "/" + repo)
	for _, old := range fs.removedNear(n) {
		o := srcRe().uses.FindStringSubmatch(old)
		if o == nil {
			continue
		}
		was := strings.ToLower(o[1] + "/" + o[2])
		switch {
		case (o[1] == "." || o[1] == "..") && owner != "." && owner != ".." && !wfRe().wfSHA.MatchString(version):
			// The repository's own action or workflow was the strongest
			// pin: its code was in the repository, under review. Someone
			// else's, at a ref its owner moves, now runs in its place.
			fs.report(n, hit{id: "gha-pin-removed", title: "replaces the repository's own " + o[1] + "/" + o[2] + " with " + name + " at " + cmp.Or(version, "no version")})
			return
		case was == name && wfRe().wfSHA.MatchString(o[3]) && !wfRe().wfSHA.MatchString(version):
			fs.report(n, hit{id: "gha-pin-removed", title: "replaces " + name + "'s commit-SHA pin with " + version})
			return
		case was != name && provenance.EditDistance(was, name) <= 2:
			fs.report(n, hit{id: "lookalike-source", title: "replaces the action " + was + " with " + name + ", a look-alike"})
			return
		case was != name && strings.EqualFold(o[2], repo) && !strings.EqualFold(o[1], owner) && !slices.Contains(provenance.KnownOwners, strings.ToLower(owner)):
			// A move to a well-known owner's action of the same name is
			// a migration (actions/setup-ruby to ruby/setup-ruby).
			fs.report(n, hit{id: "source-switched", title: "switches the action " + was + " to " + name + ", the same name from another owner"})
			return
		}
	}
	if k := provenance.Lookalike(name, provenance.KnownActions); k != "" && !strings.HasPrefix(name, k+"/") {
		fs.report(n, hit{id: "lookalike-source", title: "uses the action " + name + ", a look-alike of " + k})
		return
	}
	// A well-known action's name under an owner named after its own with a
	// word added (actions-setup/setup-node).
	r, _, _ := strings.Cut(strings.ToLower(repo), "/")
	for _, k := range provenance.KnownActions {
		if ko, kr, _ := strings.Cut(k, "/"); kr == r && provenance.ComboOwner(owner, []string{ko}) != "" {
			fs.report(n, hit{id: "lookalike-source", title: "uses " + name + ", the action " + k + "'s name under an owner named like " + ko})
			return
		}
	}
}

// reusableElsewhere rates a reusable workflow called from another owner's
// repository than the one the file says it belongs to, at a tag or branch,
// with every secret: the tag's owner decides what runs with them.
func (fs *fileScan) reusableElsewhere(n int, owner, repo, version string) {
	if !strings.Contains(repo, "/.github/workflows/") || wfRe().wfSHA.MatchString(version) {
		return
	}
	inherit := false
	in := len(fs.text[n]) - len(strings.TrimLeft(fs.text[n], " "))
	for k := n + 1; k <= n+8; k++ {
		t, ok := fs.text[k]
		if !ok || strings.TrimSpace(t) != "" && len(t)-len(strings.TrimLeft(t, " ")) < in {
			break // the job ends
		}
		inherit = inherit || wfRe().wfInherit.MatchString(t)
	}
	if !inherit {
		return
	}
	if own := fs.ownOwner(n); provenance.ThirdParty(owner, own) {
		fs.report(n, hit{id: "ci-remote-config", title: "calls a workflow of " + owner + ", not of the repository's own " + own + ", at " + version + " with every secret"})
	}
}

// ownOwner returns the owner a workflow says the repository belongs to,
// where that keeps line n from running elsewhere: an if: of n's job or
// step that is false in any repository of another owner (github.repository
// == 'owner/name', the repository_owner test that keeps a job off forks).
// A condition elsewhere in the file gates something else, and one that
// does not hold it to the owner (|| true) proves nothing.
func (fs *fileScan) ownOwner(n int) string {
	for _, c := range rules.IfConditions(fs.numberedText()) {
		if n < c.From || n > c.To {
			continue
		}
		if o := provenance.OwnOwner(c.Text); o != "" && rules.CondValue(c.Text, rules.RepositoryTest(o)) == rules.False {
			return o
		}
	}
	return ""
}

// foreignCheckouts rates a workflow that checks another owner's repository
// out at a branch and runs an action or script from it: pipeline code its
// owner can change after the review. Where the file names the repository's
// own owner, a third party's is high; where it does not, it may be the
// project's own, and is read.
func (fs *fileScan) foreignCheckouts() {
	lines := fs.numberedText()
	for _, c := range rules.ForeignCheckouts(lines) {
		own := fs.ownOwner(c.N)
		owner, _, _ := strings.Cut(c.Repo, "/")
		if k := provenance.LookalikeOwner(owner); k != "" {
			fs.report(c.N, hit{id: "lookalike-source", title: "checks out " + c.Repo + ", from a look-alike of " + k})
			continue
		}
		lo := strings.ToLower(owner)
		if wfRe().wfSHA.MatchString(c.Ref) || strings.EqualFold(owner, own) || slices.Contains(provenance.KnownOwners, lo) || slices.Contains(provenance.PopularOwners, lo) {
			continue
		}
		for _, l := range lines {
			if l.N <= c.N || !rules.RunsFrom(l.Text, c.Path) {
				continue
			}
			h := hit{id: "ci-remote-config", title: "runs code from " + c.Repo + ", checked out at " + cmp.Or(c.Ref, "its default branch") + " on line " + itoa(c.N), source: c.N}
			if own == "" {
				h.severity = rules.Medium
				h.why = "the workflow runs code from another repository at a ref its owner can move; the file does not say whose repository this is, so check it is the project's own"
			}
			fs.report(l.N, h)
			break
		}
	}
}

// gitPinRe finds what a git source is pinned to in a Gemfile or a
// Cargo.toml (ref/rev/revision/tag/branch), or in a pip URL's @ref (after
// the repository's path, .git or not).
var gitPinRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(ref|rev|revision|tag|branch)\s*(?::|=>|=)\s*["']([^"']+)["']|://[^\s@"']+@([\w./-]+)(?:#|$|\s)`)
})

// gitSourcePin rates a dependency taken from a git repository by what
// decides the code that is fetched: a commit fixes it; a tag can be moved
// by whoever owns the repository, as an action's tag can; a branch (or no
// ref, the default branch) is whatever was last pushed. A source over
// plain http or git:// can be swapped on the way whatever it names.
func gitSourcePin(s string) hit {
	h := hit{id: "dependency-url"}
	ls := strings.ToLower(s)
	if strings.Contains(ls, "http://") || strings.Contains(ls, "git://") {
		return h
	}
	m := gitPinRe().FindStringSubmatch(s)
	if m == nil {
		return h
	}
	kind, val := m[1], m[2]
	if m[3] != "" {
		kind, val = "rev", m[3]
	}
	sha := len(val) >= 7 && len(val) <= 40 && strings.Trim(strings.ToLower(val), "0123456789abcdef") == ""
	switch {
	case kind == "branch":
		return h
	case sha:
		h.severity = rules.Medium
		h.title = "takes a dependency from a git repository at a fixed commit"
		h.why = "the commit fixes the code that is fetched, over TLS; it still comes from that repository rather than the registry, and its install code runs on the runner, so read whose repository it is"
	case kind == "tag" || provenance.TagLike(val):
		h.severity = rules.Medium
		h.title = "takes a dependency from a git repository at a tag"
		h.why = "whoever owns the repository can move the tag, as with an action's tag; the code comes from that repository rather than the registry, and its install code runs on the runner"
	}
	return h
}

var depNameRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:gem\s+["']([\w.-]+)["']|["']?([\w.-]+)["']?\s*=)`)
})

// overridesRegistry reports a git source that takes the place of a
// registry package: the change removes a line that declared the same name,
// or the line sits under a [patch] or [replace] table, which overrides the
// crate for every crate in the build.
func (fs *fileScan) overridesRegistry(n int, s string) bool {
	m := depNameRe().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	name := m[1] + m[2]
	for _, h := range fs.f.Hunks {
		if h == nil {
			continue
		}
		for _, l := range h.Lines {
			if l.Kind != packet.LineRemoved {
				continue
			}
			if r := depNameRe().FindStringSubmatch(l.Text); r != nil && r[1]+r[2] == name {
				return true
			}
		}
	}
	for i := n - 1; i > 0; i-- {
		t, ok := fs.text[i]
		if !ok {
			break
		}
		if t = strings.TrimSpace(t); strings.HasPrefix(t, "[") {
			return strings.HasPrefix(t, "[patch") || strings.HasPrefix(t, "[replace")
		}
	}
	return false
}

// hookIDs are the hook ids listed under the repo entry on line n.
func (fs *fileScan) hookIDs(n int) []string {
	var ids []string
	for k := n + 1; k <= n+40; k++ {
		t, ok := fs.text[k]
		if !ok || srcRe().preCommitRepo.MatchString(t) {
			break
		}
		if m := hookIDRe().FindStringSubmatch(t); m != nil {
			ids = append(ids, m[1])
		}
	}
	return ids
}

var hookIDRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*-?\s*id\s*:\s*["']?([\w.-]+)`) })

// manifestSources rates the places the manifests of rules.SourceKeys name
// for code (a chart repository, a Clojars or Maven repository, a git
// dependency, a module source, a remote target) as provenance.JudgePlace
// judges them: a look-alike of a well-known registry, forge or owner is
// high; a host nobody knows is read; the well-known ones stay quiet.
func (fs *fileScan) manifestSources() {
	if !rules.ReadsSources(fs.path) {
		return
	}
	srcs := rules.ManifestSources(fs.path, fs.numberedText())
	// The owners the file names, in URLs and as its sources' owners: a
	// source from a letter-level copy of one of them is a look-alike of
	// the project's own (or its chosen) owner.
	// An owner the file names on another line as well is its own choice,
	// unless that line is another source the change adds or a comment:
	// a look-alike named twice, or once more in a comment, is no more the
	// project's own.
	owners := map[string][]int{}
	addedSrc := map[int]bool{}
	for _, s := range srcs {
		if o := provenance.PlaceOwner(s.Place); o != "" {
			owners[o] = append(owners[o], s.N)
			if _, added := fs.added[s.N]; added {
				addedSrc[s.N] = true
			}
		}
	}
	for n, t := range fs.text {
		for _, r := range provenance.ForgeRefs(t) {
			owners[r.Owner] = append(owners[r.Owner], n)
		}
	}
	names := slices.Sorted(maps.Keys(owners))
	for _, s := range srcs {
		if _, added := fs.added[s.N]; !added {
			continue
		}
		o := provenance.PlaceOwner(s.Place)
		if o != "" && !slices.ContainsFunc(owners[o], func(n int) bool {
			_, added := fs.added[n]
			return n != s.N && !addedSrc[n] && !(added && rules.CommentIn(fs.path, "", fs.text[n]))
		}) {
			if m := provenance.NearOwnerOf(o, names); m != "" {
				fs.report(s.N, hit{id: "lookalike-source", title: "takes " + s.Key.What + " from " + o + ", a look-alike of " + m + ", whom the file names"})
				continue
			}
		}
		fs.judgeSource(s)
	}
}

// judgeSource rates one place a manifest or a command names for code.
func (fs *fileScan) judgeSource(s rules.Source) {
	k := s.Key
	if k.Image {
		fs.fromLine(s.N, s.Place)
		return
	} else if k.Runs != "" {
		fs.fetchedCode(s)
		return
	}
	switch p := provenance.JudgePlace(s.Place, k.Registry); {
	case p.Verdict == provenance.SourceLookalike:
		from := p.Host
		if p.Owner != "" {
			from = "the owner " + p.Owner
		}
		fs.report(s.N, hit{id: "lookalike-source", title: "takes " + k.What + " from " + from + ", a look-alike of " + p.Imitates})
	case s.Dep != "" && slices.ContainsFunc(fs.removedNear(s.N), func(old string) bool { return rules.RegistryDep(old, s.Dep) }):
		// The same name, off the registry: as a Cargo [patch] or a
		// Gemfile's git: in a gem's place.
		fs.report(s.N, hit{id: "dependency-url", title: "switches the registry dependency " + s.Dep + " to " + provenance.SourceURL(s.Place),
			why: "the same name now builds from that repository, whatever the registry holds: whose repository it is and the ref it names decide what runs on the runner"})
	case p.Verdict == provenance.SourceUnfamiliar && k.Many:
		fs.report(s.N, hit{id: "registry-redirect", severity: rules.Medium, title: "takes " + k.What + " from the repository on " + p.Host,
			why: "the build takes every package it serves from there: a host that is not a well-known registry is whoever runs it; check who that is and that the project means to use it"})
	case p.Verdict == provenance.SourceUnfamiliar:
		fs.report(s.N, hit{id: "dependency-url", severity: rules.Medium, title: "takes " + k.What + " from " + p.Host,
			why: "the code comes from that host, not from a registry or forge a reviewer knows, and runs in the build; check who runs it"})
	}
}

// fetchedCode rates code a build or CI config runs as it fetches it (a
// Gradle script applied from a URL, a Starlark module): where it can change
// after the review, the tool runs whatever it then holds.
func (fs *fileScan) fetchedCode(s rules.Source) {
	src := strings.TrimPrefix(provenance.SourceURL(s.Place), "https://")
	switch risk, place, like := provenance.FetchedCode(s.Place); risk {
	case provenance.ConfigLookalike:
		fs.report(s.N, hit{id: "lookalike-source", title: "runs " + s.Key.What + " from " + place + ", a look-alike of " + like})
	case provenance.ConfigMutable:
		fs.report(s.N, hit{id: s.Key.Runs, title: "runs " + s.Key.What + " fetched from " + src + ", whatever it holds when it runs"})
	case provenance.ConfigFixed:
		fs.report(s.N, hit{id: s.Key.Runs, severity: rules.Medium, title: "runs " + s.Key.What + " fetched from " + src,
			why: "it is fetched when the tool runs, at a fixed version or from a well-known owner, and is not in this diff: read what it runs"})
	}
}

// registryFile reports a requirement given by the URL of a file on a
// well-known index's own host (a wheel on download.pytorch.org): the
// registry's file, not a place of its own.
func registryFile(s string) bool {
	u := provenance.URLs().FindString(s)
	return u != "" && !strings.Contains(s, "git+") && provenance.HostIn(provenance.HostOf(u), provenance.KnownRegistries)
}
