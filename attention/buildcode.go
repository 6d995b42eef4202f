package attention

// Build-time code by the routes a build system offers, and where the code a
// build installs comes from: the commands CMake, Meson, Bazel, MSBuild,
// Maven's exec plugin and Composer run while the project is configured or
// built (read by the shell reader, one flow for the file, so a file one
// command downloads or decodes is seen by the next); a gyp command
// expansion that reaches the network while npm installs the package; files
// a config names as code its tool runs by itself; a .pth start-up hook a
// packaging config installs; Python dependencies and install commands given
// by URL; package indexes over plain http; lock files that keep a version
// and change its hash; images that drop their digest pin.

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
)

// numberedText returns the file's new-side lines the diff shows, in order.
func (fs *fileScan) numberedText() []rules.NumLine {
	if fs.added == nil {
		fs.index()
	}
	out := make([]rules.NumLine, 0, len(fs.text))
	for n, t := range fs.text {
		out = append(out, rules.NumLine{N: n, Text: t})
	}
	slices.SortFunc(out, func(a, b rules.NumLine) int { return a.N - b.N })
	return out
}

// releaseHook reports an install hook that every dependent's install runs
// (rules.DependentHook), added by a change that bumps the manifest's own
// version and running a file the change does not show: the release is
// being published with a hook whose code nobody reviewed, the shape in
// which install-time worms republish themselves (npm's own is read with
// package.json).
func (fs *fileScan) releaseHook() {
	name, hook := rules.DependentHook(fs.path)
	if hook == nil || fs.f.Status != packet.StatusModified {
		return
	}
	bumped := false
	for n := range fs.added {
		if rules.VersionLine(fs.text[n]) {
			bumped = true
		}
	}
	if !bumped {
		return
	}
	for n := range fs.added {
		m := hook.FindStringSubmatch(fs.text[n])
		if m == nil {
			continue
		}
		if f := rules.InstallHookFile("postinstall", m[1]); f != "" && !fs.shown[path.Join(path.Dir(fs.path), f)] {
			fs.report(n, hit{id: "install-hook-release", title: "a " + name + " hook added with a version bump runs " + f + ", a file this change does not show"})
		}
	}
}

// buildCommands hands each command a build file or a manifest's command
// key runs to the shell reader, one flow per file.
func (fs *fileScan) buildCommands() {
	sys := rules.BuildSystem(fs.path)
	code := fs.info.Scope&(rules.ScopeCode|rules.ScopeSetupPy) != 0 || fs.info.BuildCode != ""
	var lines []rules.NumLine
	var fl *flow
	if sys != "" || code || rules.KeyedManifest(fs.path) {
		lines, fl = fs.numberedText(), newFlow()
	}
	if code {
		// The commands code starts with literal text: a download in one
		// call and a run of what it wrote in the next is one flow.
		for _, c := range rules.CodeCommands(lines) {
			fs.shellLines([]numbered{{c.N, c.Text}}, fl, false)
		}
	}
	fs.releaseHook()
	for _, sc := range rules.ManifestScripts(fs.path, lines) {
		sh := make([]numbered, len(sc))
		for i, l := range sc {
			sh[i] = numbered{l.N, l.Text}
		}
		fs.shellLines(sh, fl, false)
	}
	if sys == "" {
		return
	}
	for _, c := range rules.CommandsOf(sys, lines) {
		fs.shellLines([]numbered{{c.N, c.Text}}, fl, false)
	}
	if sys != "starlark" {
		return
	}
	// An archive Bazel fetches (http_archive, http_file) is built and run
	// by the build: over plain http anyone on the path chooses it.
	for _, l := range lines {
		if _, added := fs.added[l.N]; added && strings.Contains(l.Text, "http://") {
			if m := starlarkURLRe().FindStringSubmatch(l.Text); m != nil {
				fs.indexSource(l.N, m[1], "", false)
			}
		}
	}
}

var starlarkURLRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\burls?\s*=\s*\[?\s*"(http://[^"]+)"`) })

// gypFetch rates a gyp command expansion that reaches the network: node-gyp
// runs it by itself while npm installs the package, before any test.
func (fs *fileScan) gypFetch(n int, cmd string) {
	if rules.InstallTimeFetch(cmd) && !provenance.LoopbackOnly(cmd) {
		fs.report(n, hit{id: "build-code-fetch", why: rules.Must("build-code-fetch").Why + " — node-gyp runs this command expansion at every npm install"})
	}
}

// packaging reads Python packaging and conda files for where code comes
// from and what runs at start-up: a conda channel; a dependency given by
// URL in setup.py; a .pth file installed where Python reads it at start-up
// (the top of site-packages) — data_files, a wheel's force-include, a copy
// into build_lib, CMake's install(FILES) into the platform library, the
// place on the line or in the few lines before it that open the list.
func (fs *fileScan) packaging() {
	lb := strings.ToLower(path.Base(fs.path))
	if lb == "environment.yml" || lb == "environment.yaml" || lb == ".condarc" {
		// conda takes each package from the first channel that has it.
		for _, l := range fs.numberedText() {
			if u := rules.CondaChannel(l.Text); u != "" {
				fs.indexSource(l.N, u, "points conda at the channel %s", false)
			}
		}
		return
	}
	if !rules.PackagingFile(fs.path) {
		return
	}
	lines := fs.numberedText()
	for i, l := range lines {
		if _, added := fs.added[l.N]; added && fs.info.Scope&rules.ScopeRequirements == 0 && directRef(l.Text) {
			fs.report(l.N, gitSourcePin(l.Text)) // setup.py's install_requires
		}
		if _, added := fs.added[l.N]; !added || !rules.NamesPth(l.Text) {
			continue
		}
		ctx := l.Text
		for k := i - 1; k >= 0 && k >= i-6 && lines[k].N >= l.N-6; k-- {
			ctx = lines[k].Text + "\n" + ctx
		}
		if rules.SitePackagesPlace(ctx) {
			fs.report(l.N, hit{id: "python-pth"})
		}
	}
}

// indexSource rates a URL a package manager installs packages from: plain
// http to any host but this machine lets whoever is on the path serve the
// packages (package-index-insecure); https to a host that is not a
// well-known registry (nor, with shared, one serving many owners) puts the
// packages in that host's hands (registry-redirect, with title naming it).
func (fs *fileScan) indexSource(n int, u, title string, shared bool) {
	u = strings.Trim(strings.TrimSpace(u), `"'`)
	for _, p := range []string{"sparse+", "registry+", "git+"} {
		u = strings.TrimPrefix(u, p)
	}
	if strings.HasPrefix(strings.ToLower(u), "http://") {
		if h := provenance.HostOf(u); h != "" && !provenance.LoopbackOnly(u) && !strings.HasSuffix(h, ".localhost") {
			fs.report(n, hit{id: "package-index-insecure", title: "installs packages from " + h + " over plain http"})
		}
		return
	}
	if h, ok := provenance.Redirected(u); ok && !(shared && provenance.HostIn(h, provenance.SharedPackageHosts)) {
		if k := provenance.LookalikeHost(h); k != "" {
			h += ", a look-alike of " + k
		} else if provenance.ProjectDomain(h, fs.projectNames()) {
			fs.report(n, hit{id: "registry-redirect", severity: rules.Medium, title: strings.ReplaceAll(title, "%s", h) + ", on the project's own domain",
				why: "the domain bears the name the file gives the project itself (its group id, its modules): a project's own repository for its own artifacts; check the domain is the project's and that it serves only those"})
			return
		}
		fs.report(n, hit{id: "registry-redirect", title: strings.ReplaceAll(title, "%s", h)})
	}
}

// projectNames are the names a manifest gives the project itself, for
// provenance.ProjectDomain: a Maven pom's own group id and its parent's
// (the ones before its dependencies, build, profiles or repositories),
// turned into the domain group ids are written from, and the first word
// of its modules' names; the scopes an .npmrc gives a registry of their
// own (@acme:registry=…), whose packages only the project's organisation
// publishes. A dependency's group id is not among them: the change
// chooses its dependencies.
func (fs *fileScan) projectNames() []string {
	ns := slices.Sorted(maps.Keys(fs.text))
	var names []string
	if fs.info.Scope&rules.ScopeNpmrc != 0 {
		for _, n := range ns {
			if m := npmScopeRe().FindStringSubmatch(fs.text[n]); m != nil {
				names = append(names, m[1])
			}
		}
		return names
	}
	if path.Base(fs.path) != "pom.xml" {
		return nil
	}
	inProject, head := false, true
	for _, n := range ns {
		t := fs.text[n]
		if strings.Contains(t, "<project") {
			inProject = true
		}
		if pomBodyRe().MatchString(t) {
			head = false
		}
		if m := pomNameRe().FindStringSubmatch(t); m != nil {
			switch {
			case m[1] == "module":
				w, _, _ := strings.Cut(path.Base(m[2]), "-")
				names = append(names, w)
			case inProject && head:
				parts := strings.Split(m[2], ".")
				if len(parts) >= 2 {
					names = append(names, parts[1]+"."+parts[0])
				}
			}
		}
	}
	return names
}

var (
	pomNameRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`<(groupId|module)>\s*([\w.\-/]+)\s*</(?:groupId|module)>`)
	})
	npmScopeRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*@([\w.-]+):registry\s*=`) })
	pomBodyRe  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`<(?:dependencies|dependencyManagement|build|profiles|repositories|pluginRepositories|reporting)>`)
	})
)

// directRef reports a Python dependency given by a URL, unless the URL is
// a well-known index's own file (a wheel on download.pytorch.org).
func directRef(s string) bool {
	if !rules.DirectReference(s) {
		return false
	}
	u := provenance.URLs().FindString(s)
	return u == "" || !provenance.HostIn(provenance.HostOf(u), provenance.KnownRegistries)
}

var importLineRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:import\s+[\w., ]+$|from\s+[\w.]+\s+import\s|use\s+[\w:{}, ]+;)`)
})

// importLine reports a line that only imports a module (import
// urllib.request, use reqwest::blocking): naming a client fetches nothing.
func importLine(s string) bool { return importLineRe().MatchString(strings.TrimRight(s, " \t\r")) }

// buildCodeOf says when a file the path alone does not name runs by itself
// at build time: one a config in the change names (configTargets); a Rust
// procedural macro, which runs inside the compiler at every build of a
// crate that uses it; a Conan recipe and an SCons or waf build script, run
// at every install or build.
func buildCodeOf(f *packet.DiffFile, named map[string]string) string {
	if why := named[f.Path()]; why != "" {
		return why
	}
	switch b := path.Base(f.Path()); {
	case b == "conanfile.py":
		return "conan runs it at every install or create"
	case b == "SConstruct" || b == "SConscript" || b == "wscript":
		return "the build runs it at every build"
	case strings.HasSuffix(b, ".rs"):
		for _, h := range f.Hunks {
			if h == nil {
				continue
			}
			for _, l := range h.Lines {
				if l.Kind == packet.LineAdded && strings.Contains(l.Text, "#[proc_macro") {
					return "the compiler runs it at every build of a crate that uses the macro"
				}
			}
		}
	}
	return ""
}

// configTargets maps each file that a config in the change names as code
// its tool runs by itself to what runs it: Cargo's build = "…", a hatch
// custom hook's path, Jest's and Vitest's global setup and setup files,
// Mocha's require, a .pnpmfile. Their code runs at every build, install or
// test as setup.py's does, whatever the file is called.
func configTargets(d *packet.Diff) map[string]string {
	var out map[string]string
	for _, f := range d.Files {
		if f == nil || f.Status == packet.StatusDeleted {
			continue
		}
		tool := rules.ConfigRunner(f.Path())
		if tool == "" {
			continue
		}
		dir := path.Dir(f.Path())
		for _, h := range f.Hunks {
			if h == nil {
				continue
			}
			for _, l := range h.Lines {
				if l.Kind != packet.LineAdded {
					continue
				}
				for _, p := range rules.ConfigTargets(tool, l.Text) {
					if out == nil {
						out = map[string]string{}
					}
					out[path.Join(dir, p)] = tool + " runs it by itself (the " + path.Base(f.Path()) + " in this change names it)"
				}
			}
		}
	}
	for _, f := range d.Files {
		if f != nil && strings.HasPrefix(path.Base(f.Path()), ".pnpmfile.") {
			if out == nil {
				out = map[string]string{}
			}
			out[f.Path()] = "pnpm runs it at every install"
		}
	}
	return out
}

// lockHashSwaps rates a lock file's line that keeps a package's version
// and changes its hash: a published version's content does not change, so
// the new hash is of other content (a republished or substituted package).
func (fs *fileScan) lockHashSwaps() {
	if !rules.LockFile(fs.path) || fs.f.Status != packet.StatusModified {
		return
	}
	for hi, h := range fs.f.Hunks {
		if h == nil {
			continue
		}
		var removed, added []string
		var at []int
		meta := false
		for li, l := range h.Lines {
			if rules.LockMetaHash(l.Text) {
				meta = true
			}
			switch l.Kind {
			case packet.LineRemoved:
				removed = append(removed, l.Text)
			case packet.LineAdded:
				added = append(added, l.Text)
				at = append(at, li)
			}
		}
		if meta {
			continue // the lock's hash of its own manifest changes with it
		}
		for _, i := range rules.HashSwaps(removed, added) {
			fs.put(loc{hi, at[i]}, hit{id: "source-switched", title: "keeps the package's version but changes the hash of what it installs", parsed: true,
				why: "a published version's content does not change: a new hash at the same version is other content, republished or substituted, that the build now installs"})
		}
	}
}

var imageRefRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:FROM\s+(?:--\S+\s+)*|image\s*:\s*["']?|container\s*:\s*["']?)([\w.:/-]+)@sha256:[0-9a-f]{64}`)
})

// digestDropped rates an image reference that replaced one of the same
// image pinned by digest: the digest fixed the code that runs; a tag is
// moved by whoever can push to the image.
func (fs *fileScan) digestDropped(n int, name string) {
	for _, old := range fs.removedNear(n) {
		m := imageRefRe().FindStringSubmatch(old)
		if m == nil {
			continue
		}
		if provenance.ImageName(m[1]) == name {
			fs.report(n, hit{id: "pin-removed", title: "replaces the digest pin of the image " + name + " with a tag"})
			return
		}
	}
}

var yamlImageRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:-\s+)?"?(?:image|container)"?\s*:\s*["']?([\w.:/-]+)["']?\s*$`)
})

// yamlImageDigests rates an image: or container: line (compose, a job's
// container, a CI image) that dropped the digest the line it replaced had.
func (fs *fileScan) yamlImageDigests() {
	if ext := path.Ext(fs.path); fs.f.Status != packet.StatusModified || ext != ".yml" && ext != ".yaml" && ext != ".json" {
		return
	}
	if fs.added == nil {
		fs.index()
	}
	for n := range fs.added {
		t := fs.text[n]
		if !strings.Contains(t, "image") && !strings.Contains(t, "container") {
			continue
		}
		if m := yamlImageRe().FindStringSubmatch(t); m != nil {
			fs.digestDropped(n, provenance.ImageName(m[1]))
		}
	}
}

// installsFromURL rates a package manager's install command given a URL or
// a git repository instead of a package name: an archive from a URL (npm
// install https://….tgz, pip install https://….whl) is code from wherever
// the URL points, its install scripts run on the runner; a git repository
// (pip install git+https://…, cargo install --git …) is built from its
// source, as a clone and build is, and is read as one.
func (fs *fileScan) installsFromURL(lines []numbered) {
	for _, l := range lines {
		ok, git := rules.InstallFromURL(l.text)
		h := provenance.HostOf(provenance.URLs().FindString(l.text))
		switch k := provenance.LookalikeHost(h); {
		case !ok:
		case k != "":
			fs.report(l.n, hit{id: "lookalike-source", title: "installs a package from " + h + ", a look-alike of " + k})
		case !git && provenance.HostIn(h, provenance.KnownRegistries):
			// A wheel or tarball on a well-known index's own host.
		case git && !strings.Contains(l.text, "http://") && !strings.Contains(l.text, "git://"):
			fs.report(l.n, hit{id: "dependency-url", severity: rules.Medium, title: "installs a package built from a git repository",
				why: "like a clone and build: the repository's code, and whoever owns it, decides what runs; read whose it is and what ref"})
		default:
			fs.report(l.n, hit{id: "dependency-url", title: "installs a package from a URL (an archive the diff does not show)"})
		}
	}
}
