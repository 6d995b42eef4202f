package provenance

import (
	"cmp"
	"net"
	"regexp"
	"slices"
	"strings"
	"sync"

	"golang.org/x/net/publicsuffix"
)

// Hosts a manifest takes code from. Every ecosystem's manifest names a
// place (a chart repository, a Maven or Clojars repository, a pub server,
// a git remote, a module source): whatever the file, the host decides
// whose code the build runs. A host dressed as a well-known registry or
// forge (its name with a word added, a letter changed, its dots turned to
// dashes, or it put in front of someone else's domain) is how a look-alike
// passes review.

// SourceRegistries are the public registries, repositories and indexes of
// the ecosystems whose manifests name a source by URL, beyond the package
// registries KnownRegistries lists: a source there is the ecosystem's own.
var SourceRegistries = []string{"clojars.org", "repo.clojars.org", "pub.dev", "pub.dartlang.org", "hex.pm", "repo.hex.pm", "builds.hex.pm",
	"cdn.cocoapods.org", "trunk.cocoapods.org", "registry.terraform.io", "app.terraform.io", "registry.opentofu.org", "galaxy.ansible.com",
	"center.conan.io", "center2.conan.io", "charts.bitnami.com", "repo.scala-sbt.org", "repo.typesafe.com", "bcr.bazel.build",
	"mirror.bazel.build", "releases.bazel.build", "cache.nixos.org", "channels.nixos.org", "releases.nixos.org", "repo.packagist.com",
	"artifacthub.io", "kubernetes-charts.storage.googleapis.com", "charts.helm.sh", "repo.julialang.org", "pkg.julialang.org",
	"cran.r-project.org", "cloud.r-project.org", "bioconductor.org", "hackage.haskell.org", "opam.ocaml.org", "luarocks.org",
	"metacpan.org", "cpan.metacpan.org", "www.cpan.org", "swiftpackageindex.com", "plugins.jetbrains.com", "repo.eclipse.org",
	"download.eclipse.org", "packages.erlang-solutions.com", "registry.bower.io", "jcenter.bintray.com", "wpackagist.org", "asset-packagist.org", "registry.docker-cn.com", "wrapdb.mesonbuild.com", "flakehub.com", "pytorch-geometric.com", "prefix.dev", "conda-forge.org",
	"api.flakehub.com", "install.determinate.systems",
	// The forges projects take code from besides the big three.
	"googlesource.com", "sourceware.org", "git.kernel.org", "git.savannah.gnu.org", "git.sr.ht", "sr.ht", "opendev.org", "pagure.io"}

// OwnDomains are domains the well-known registries and forges run under
// another name than their registry's (pypi.io is PyPI's, docker.com
// Docker's, packagist.com Private Packagist's): their own, no imitation.
var OwnDomains = []string{"pypi.io", "pypa.io", "python.org", "npmjs.com", "npmjs.org", "docker.com", "dockerusercontent.com", "packagist.com",
	"packagist.org", "github.io", "github.dev", "github.blog", "githubapp.com", "githubassets.com", "githubusercontent.com",
	"gitlab.io", "gitlab.net", "gitlab-static.net", "anaconda.com", "anaconda.cloud", "jsdelivr.com", "terraform.io", "hashicorp.com",
	"conan.io", "jfrog.io", "helm.sh", "maven.org", "apache.org", "nuget.org", "nugettest.org", "rubygems.org", "rubygems.info",
	"crates.io", "rust-lang.org", "golang.org", "go.dev", "yarnpkg.com", "clojars.org", "cocoapods.org", "bitbucket.io", "codeberg.page",
	"quay.io", "quay.com", "redhat.com", "jitpack.io", "sonatype.org", "sonatype.com", "gradle.org", "gradle.com", "deno.land", "deno.com",
	"deno.dev", "jsr.io", "nixos.org", "nodejs.org", "nodejs.dev", "nodejs.cn", "rust-lang.org", "rustup.rs", "bitnami.com", "ansible.com", "dartlang.org", "pub.dev", "dart.dev", "flutter.dev", "hex.pm"}

// HubHosts are Docker Hub's own names.
var HubHosts = []string{"docker.io", "index.docker.io", "registry-1.docker.io", "registry.hub.docker.com"}

// registryBrands are the names look-alike hosts borrow: the registrable
// name of each well-known registry and forge. Names that are common words
// or a company's many services (google, apache, microsoft) are left out:
// their own families of domains are too many to tell apart from a copy.
var registryBrands = []string{"npmjs", "yarnpkg", "pypi", "pythonhosted", "rubygems", "crates", "nuget", "packagist", "clojars", "maven",
	"gradle", "docker", "dockerhub", "github", "githubusercontent", "gitlab", "bitbucket", "codeberg", "golang", "anaconda", "jsdelivr",
	"unpkg", "cocoapods", "terraform", "jitpack", "sonatype", "dartlang", "bitnami", "conda", "pytorch", "nixos", "luarocks",
	"nodejs", "rust-lang", "rustup"}

// wellKnown are the hosts provenance knows as well known, and ownDomains
// their registrable domains, with OwnDomains.
var (
	wellKnown = sync.OnceValue(func() []string {
		var out []string
		for _, list := range [][]string{KnownRegistries, KnownImageHosts, ForgeHosts, realForgeHosts, ModuleHosts, SharedPackageHosts,
			SourceRegistries, configHosts, OrgGitLabs, OwnDomains} {
			out = append(out, list...)
		}
		for _, v := range vendorHosts {
			h, _, _ := strings.Cut(v, "/")
			out = append(out, h)
		}
		return out
	})
	ownDomains = sync.OnceValue(func() map[string]bool {
		out := map[string]bool{}
		for _, h := range wellKnown() {
			out[registrable(h)] = true
		}
		return out
	})
)

// registrable is the part of a host its owner registered (docker-io.net
// of registry-1.docker-io.net, tsinghua.edu.cn of pypi.tuna.tsinghua.edu.cn).
func registrable(h string) string {
	if d, err := publicsuffix.EffectiveTLDPlusOne(h); err == nil {
		return d
	}
	return h
}

// ProjectDomain reports a host under a domain the project's own names
// hold, as names gives them: a registrable domain (xwiki.org, as a Maven
// group id org.xwiki.commons is written backwards) or a project's name
// (xwiki of its modules xwiki-commons-core), the domain's first label.
// A project that runs its own repository serves it from its own domain;
// an IP address, a plain name, a look-alike of a well-known host or a
// name of fewer than three letters is nobody's project. A domain that
// spells the name across its dot (min.io for minio, as projects pick a
// name a country's domain completes) is the project's as much as the
// name under another suffix is: either is a registration of the name.
func ProjectDomain(h string, names []string) bool {
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	if net.ParseIP(strings.Trim(h, "[]")) != nil || !strings.Contains(h, ".") || LookalikeHost(h) != "" {
		return false
	}
	reg := registrable(h)
	label, _, _ := strings.Cut(reg, ".")
	for _, n := range names {
		n = strings.ToLower(n)
		if len(n) >= 3 && (n == reg || n == label || n == strings.ReplaceAll(reg, ".", "") && len(label) >= 2) {
			return true
		}
	}
	return false
}

// WellKnownHost reports a host of a well-known registry, image host, forge
// or module host, or one of their own domains.
func WellKnownHost(h string) bool {
	h = strings.ToLower(h)
	return h != "" && (ownDomains()[registrable(h)] || HostIn(h, wellKnown()))
}

// LookalikeHost returns the well-known registry or forge a host imitates,
// or "": its registrable name holds a well-known one's name as a word
// (clojars-mirror.org, docker-io.net), is a letter off it (npmjss.org,
// githuh.com), or a well-known host stands in front of another domain
// (registry.npmjs.org.cdn-edge.net). A well-known host, or a domain a
// well-known registry runs, imitates nobody.
func LookalikeHost(h string) string {
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	if h == "" || !strings.Contains(h, ".") || strings.ContainsFunc(h, func(r rune) bool {
		return r != '.' && r != '-' && (r < 'a' || r > 'z') && (r < '0' || r > '9')
	}) || WellKnownHost(h) {
		return ""
	}
	if k := cmp.Or(LookalikeForgeHost(h), wearsHost(h, ForgeHosts, KnownImageHosts, KnownRegistries, SourceRegistries, toolchainHosts())); k != "" {
		return k
	}
	label, _, _ := strings.Cut(registrable(h), ".")
	norm := strings.NewReplacer("0", "o", "1", "l", "3", "e", "4", "a", "5", "s", "7", "t", "rn", "m", "vv", "w").Replace(label)
	for _, b := range registryBrands {
		if hasWord(label, b) || norm == b || len(b) >= 5 && len(label) >= 5 && EditDistance(label, b) == 1 || spellsWord(label, b) {
			return brandHome(b)
		}
	}
	return ""
}

// hasWord reports w as one of the dash-joined words of label (docker in
// docker-io, rust-lang in rust-lang-mirror).
func hasWord(label, w string) bool {
	return label == w || strings.HasPrefix(label, w+"-") || strings.HasSuffix(label, "-"+w) || strings.Contains(label, "-"+w+"-")
}

// toolchainHosts are the hosts of the vendors' installers and toolchain
// downloads (nodejs.org, static.rust-lang.org).
var toolchainHosts = sync.OnceValue(func() []string {
	var out []string
	for _, v := range vendorHosts {
		h, _, _ := strings.Cut(v, "/")
		out = append(out, h)
	}
	return out
})

// ImitatingURLHost returns the forge a URL's host imitates by the forms
// no real host takes: a letter off a forge's (githuh.com), or a forge's
// host worn in front of another domain (raw.githubusercontent.com.cdn-edge.net).
// Unlike LookalikeHost it asks nothing of a host's words, so it may judge
// any URL of any file; a registry's look-alike is its readers' to name.
func ImitatingURLHost(h string) string {
	h = strings.ToLower(h)
	if WellKnownHost(h) {
		return ""
	}
	return cmp.Or(LookalikeForgeHost(h), wearsHost(h, ForgeHosts))
}

// wearsHost returns the host of lists h wears in front of another
// domain, its dots kept or turned to dashes (github-com.mirrors-git.org).
func wearsHost(h string, lists ...[]string) string {
	dotted := "." + strings.ReplaceAll(h, "-", ".") + "."
	for _, list := range lists {
		for _, k := range list {
			if !strings.Contains(k, ".") {
				continue
			}
			if strings.HasPrefix(h, k+".") || len(k) >= 8 && strings.Contains(dotted, "."+strings.ReplaceAll(k, "-", ".")+".") {
				return k
			}
		}
	}
	return ""
}

// brandHome names the registry a brand stands for in a title.
func brandHome(b string) string {
	for _, list := range [][]string{ForgeHosts, KnownImageHosts, KnownRegistries, SourceRegistries, OwnDomains} {
		for _, k := range list {
			if label, _, _ := strings.Cut(registrable(k), "."); label == b {
				return k
			}
		}
	}
	return b
}

// SourceVerdict is what the place a manifest takes code from says about it.
type SourceVerdict int

const (
	// SourceQuiet is a well-known registry or forge, this machine, a path
	// in the tree, or a place the line does not spell out (a variable).
	SourceQuiet SourceVerdict = iota
	// SourceUnfamiliar is a plain host nobody knows: whoever runs it
	// serves the code; worth a read of who that is.
	SourceUnfamiliar
	// SourceLookalike is a host dressed as a well-known registry or forge.
	SourceLookalike
)

// JudgeSource judges the place a manifest names for dependencies, plugins,
// images, toolchains or templates by its host: a look-alike of a
// well-known registry or forge, an unfamiliar host, or quiet. It returns
// the host and, for a look-alike, what it imitates. Owners on a forge are
// judged where every file's are (ImitatedOwner, NearOwner).
func JudgeSource(u string) (v SourceVerdict, host, imitates string) {
	u = SourceURL(u)
	if strings.Contains(u, "$") || strings.Contains(u, "{{") || strings.HasPrefix(strings.ToLower(u), "file:") {
		return SourceQuiet, "", ""
	}
	h := HostOf(u)
	if h == "" {
		if rest, ok := strings.CutPrefix(u, "git@"); ok {
			h, _, _ = strings.Cut(rest, ":")
			h = strings.ToLower(h)
		}
	}
	if h == "" || LoopbackOnly("http://"+h+"/") || strings.HasSuffix(h, ".localhost") || strings.HasSuffix(h, ".local") ||
		strings.HasSuffix(h, ".internal") {
		return SourceQuiet, "", ""
	}
	if k := LookalikeHost(h); k != "" {
		return SourceLookalike, h, k
	}
	if WellKnownHost(h) || HostIn(h, exampleHosts) || !strings.Contains(h, ".") {
		return SourceQuiet, h, ""
	}
	return SourceUnfamiliar, h, ""
}

var getterRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9]*::`) })

// SourceURL is a source as a URL: without a forced getter or transport
// (git::, s3::, git+, sparse+), and with the scheme a bare host/path
// leaves out (github.com/owner/repo, registry.example.com/ns/name), as
// Terraform and Earthly write them. A path in the tree stays as it is.
func SourceURL(v string) string {
	v = strings.Trim(strings.TrimSpace(v), `"'`)
	v = getterRe().ReplaceAllString(v, "")
	for _, p := range []string{"git+", "sparse+", "registry+", "tarball+", "file+"} {
		v = strings.TrimPrefix(v, p)
	}
	// The forges' shorthands (copier's gh: and gl:, npm's and Nix's github:).
	for short, forge := range map[string]string{"gh:": "github.com/", "github:": "github.com/", "gl:": "gitlab.com/", "gitlab:": "gitlab.com/"} {
		if rest, ok := strings.CutPrefix(v, short); ok {
			return "https://" + forge + strings.TrimPrefix(rest, "/")
		}
	}
	if strings.Contains(v, "://") || strings.HasPrefix(v, "git@") || strings.HasPrefix(v, ".") || strings.HasPrefix(v, "/") {
		return v
	}
	first, _, ok := strings.Cut(v, "/")
	if ok && strings.Contains(first, ".") && !strings.ContainsAny(first, ":@${}") && strings.ContainsFunc(first, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }) {
		return "https://" + v
	}
	return v
}

// Place is the judgement of a place a manifest names for code.
type Place struct {
	Verdict  SourceVerdict
	Host     string // the host, "" for a path or a registry's namespace
	Owner    string // the owner or namespace a look-alike owner verdict names
	Imitates string // what a look-alike imitates
}

// JudgePlace judges a place a manifest names for code, in whatever form
// the manifest writes it (rules.SourceKeys): its host (JudgeSource), and
// on a forge, on Docker Hub, or as a registry's namespace/name (registry
// marks a key whose bare value may be one, as Terraform's hashicorp/aws)
// the owner, a look-alike of a well-known owner or publisher.
func JudgePlace(v string, registry bool) Place {
	u := SourceURL(v)
	verdict, h, like := JudgeSource(u)
	p := Place{Verdict: verdict, Host: h, Imitates: like}
	if verdict != SourceQuiet {
		return p
	}
	owner, _, _ := strings.Cut(RemoteOwner(u), "/")
	switch {
	case h == "" && registry:
		if parts := strings.Split(u, "/"); len(parts) >= 2 && len(parts) <= 3 {
			owner, like = parts[0], ImitatedOwner(parts[0])
		}
	case HostIn(h, ForgeHosts):
		like = ImitatedOwner(owner)
		if _, repo, _ := strings.Cut(RemoteOwner(u), "/"); like == "" {
			repo, _, _ = strings.Cut(strings.TrimSuffix(repo, ".git"), "/")
			like = OwnerSpellsRepo(owner, repo)
		}
	case HostIn(h, HubHosts):
		like = LookalikePublisher(owner)
	}
	if like != "" {
		p.Verdict, p.Owner, p.Imitates = SourceLookalike, strings.ToLower(owner), like
	}
	return p
}

// FetchedCode judges code a build or CI config runs as it fetches it from
// a place (rules.SourceKey.Runs): a look-alike host or owner, a place that
// can change after the review (a branch, the default branch), or one
// fixed or of a well-known owner, as PulledConfig judges pipeline
// configuration. A version after @ (github.com/o/r@main) is the ref.
func FetchedCode(v string) (risk ConfigRisk, place, imitates string) {
	u := SourceURL(v)
	ref, version := u, ""
	if i := strings.LastIndexByte(u, '@'); i > strings.Index(u, "://")+3 && i > strings.LastIndexByte(u, '/') {
		ref, version = u[:i], u[i+1:]
	}
	if p := JudgePlace(ref, false); p.Verdict == SourceLookalike {
		return ConfigLookalike, cmp.Or(p.Owner, p.Host), p.Imitates
	}
	if version != "" || HostIn(HostOf(ref), ForgeHosts) && !strings.Contains(HostOf(ref), "raw.") {
		return PulledConfig("library", ref, version, "")
	}
	return PulledConfig("remote", ref, version, "")
}

// PlaceOwner returns the forge owner a place names (github.com/acme/lib,
// a shorthand's owner), lower-cased, or "".
func PlaceOwner(v string) string {
	u := SourceURL(v)
	h := HostOf(u)
	if h == "" {
		if rest, ok := strings.CutPrefix(u, "git@"); ok {
			h, _, _ = strings.Cut(rest, ":")
		}
	}
	if !HostIn(strings.ToLower(h), ForgeHosts) {
		return ""
	}
	owner, _, _ := strings.Cut(RemoteOwner(u), "/")
	return strings.ToLower(owner)
}

// NearOwnerOf returns the owner of others that owner is a letter-level
// copy of (NearOwner), or "": a source from acrne beside acme's own
// repositories. An owner that is itself well known or popular copies
// nobody.
func NearOwnerOf(owner string, others []string) string {
	o := strings.ToLower(owner)
	if o == "" || slices.Contains(KnownOwners, o) || slices.Contains(PopularOwners, o) {
		return ""
	}
	for _, m := range others {
		if m != o && NearOwner(o, m) {
			return m
		}
	}
	return ""
}
