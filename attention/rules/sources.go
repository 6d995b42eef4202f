package rules

// Where each ecosystem's manifest says code comes from: the keys that name
// a repository, registry, git remote, archive or image for dependencies,
// plugins, modules, toolchains and templates. The readers of package
// attention judge each place by its host and owner (provenance.JudgeSource,
// provenance.ImitatedOwner); this file only says which key of which file
// names one. The manifests with readers of their own (package.json, Cargo,
// requirements, go.mod, Gradle, Maven, NuGet, npm's and pip's configs,
// Dockerfiles, pre-commit, workflows) are read there.

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// SourceKey is a key of a manifest that names where code comes from.
type SourceKey struct {
	// Files are the lower-case base names the key is read in, or patterns
	// of them (path.Match: "*.tf", "requirements*.txt").
	Files []string
	// Key's first group that matched is the place: a URL, a host/path, or
	// an owner/repo shorthand.
	Key string
	// In, when set, is the key that opens the bracketed block Key must sit
	// in (:repositories [...], "repositories": [...], urls = [...]).
	In string
	// Near, when set, must match one of the few lines above Key's
	// (Tekton's resolver: git above the url parameter it reads).
	Near string
	// Section, when set, must match the TOML or INI section header the
	// key sits under ([plugins]).
	Section string
	// What the place serves, for the title.
	What string
	// Many marks a repository or registry any package may come from (not
	// one dependency's own source).
	Many bool
	// Shorthand is what an owner/repo value is short for
	// ("https://github.com/" for Mix's and Bundler's github:).
	Shorthand string
	// Registry marks a value that may be a registry's namespace/name
	// (Terraform's hashicorp/aws): its namespace is an owner.
	Registry bool
	// Image marks a container image (Earthly's FROM).
	Image bool
	// Runs, for code the tool runs as it is fetched (a build script
	// applied from a URL, a module a CI config loads), is the rule a place
	// that can change after the review raises.
	Runs string
}

// SourceKeys are the manifests' keys that name a source.
var SourceKeys = []SourceKey{
	// Helm resolves a chart's dependencies from these repositories (OCI
	// registries included) when the chart is built or installed.
	{Files: []string{"chart.yaml", "chart.lock", "requirements.yaml"}, Key: `^\s*(?:-\s+)?repository\s*:\s*["']?([^\s"'#]+)`, What: "Helm chart dependencies", Many: true},
	// A chart's values: the images its templates run, and the registry
	// they are pulled from.
	{Files: []string{"values.yaml", "values.yml", "values-*.yaml", "values-*.yml", "*.values.yaml"}, Key: `^\s*repository\s*:\s*["']?([\w.-]+(?:[:/][\w.-]+)*)["']?\s*(?:#.*)?$`,
		Near: `^\s*image\s*:\s*$`, What: "an image", Image: true},
	{Files: []string{"values.yaml", "values.yml", "values-*.yaml", "values-*.yml", "*.values.yaml"}, Key: `^\s*registry\s*:\s*["']?([\w-]+(?:\.[\w-]+)+(?::\d+)?)["']?\s*(?:#.*)?$`,
		Near: `^\s*image\s*:\s*$`, What: "container images", Many: true, Shorthand: "https://"},
	// Leiningen's and the Clojure CLI's repositories and mirrors, and a
	// git dependency of deps.edn.
	{Files: []string{"project.clj", "profiles.clj", "deps.edn", "bb.edn"}, Key: `:url\s+"([^"]+)"|\[\s*"[^"]+"\s+"((?:https?|s3p?|gcs)://[^"]+)"`,
		In: `(?:^|[\s\[{(]):(?:repositories|plugin-repositories|mirrors|mvn/repos)\b`, What: "Maven artifacts", Many: true},
	{Files: []string{"deps.edn", "bb.edn"}, Key: `:git/url\s+"([^"]+)"`, What: "a git dependency"},
	// pub: a git dependency's url, a hosted dependency's server.
	{Files: []string{"pubspec.yaml", "pubspec_overrides.yaml"}, Key: `^\s*(?:url|git|hosted)\s*:\s*["']?((?:https?|git|ssh)://[^\s"'#]+|git@[^\s"'#]+)`, What: "a Dart dependency"},
	// Composer's repositories: vcs, composer and package sources.
	{Files: []string{"composer.json"}, Key: `"url"\s*:\s*"([^"]+)"`, In: `"repositories"\s*:`, What: "PHP packages", Many: true},
	// Mix's and rebar's git dependencies.
	{Files: []string{"mix.exs"}, Key: `\bgit:\s*"([^"]+)"`, What: "an Elixir dependency"},
	{Files: []string{"mix.exs"}, Key: `\bgithub:\s*"([\w.-]+/[\w.-]+)"`, What: "an Elixir dependency", Shorthand: "https://github.com/"},
	{Files: []string{"rebar.config"}, Key: `\{\s*git\s*,\s*"([^"]+)"`, What: "an Erlang dependency"},
	// Bundler, CocoaPods and Berkshelf: the source every name resolves
	// from, and a git dependency.
	{Files: []string{"gemfile", "gems.rb", "podfile", "berksfile"}, Key: `^\s*source\s*\(?\s*["']([^"']+)["']`, What: "packages", Many: true},
	{Files: []string{"gemfile", "gems.rb", "podfile", "berksfile", "*.gemspec", "*.podspec"}, Key: `(?:\bgit:|:git\s*=>)\s*["']([^"']+)["']|(?:\bpodspec:|:podspec\s*=>)\s*["']((?:https?)://[^"']+)["']`, What: "a dependency"},
	{Files: []string{"gemfile", "gems.rb", "podfile"}, Key: `(?:\bgithub:|:github\s*=>)\s*["']([\w.-]+/[\w.-]+)["']`, What: "a dependency", Shorthand: "https://github.com/"},
	// SwiftPM.
	{Files: []string{"package.swift"}, Key: `\.package\s*\(\s*(?:name:\s*"[^"]*"\s*,\s*)?url:\s*"([^"]+)"`, What: "a Swift package"},
	{Files: []string{"package.swift"}, Key: `\.binaryTarget\s*\([^)]*?\burl:\s*"([^"]+)"`, What: "a prebuilt binary"},
	{Files: []string{"package.resolved"}, Key: `"(?:location|repositoryURL)"\s*:\s*"([^"]+)"`, What: "a Swift package"},
	// sbt resolvers.
	{Files: []string{"*.sbt"}, Key: `\bat\s+"((?:https?|s3)://[^"]+)"|Resolver\.url\(\s*"[^"]*"\s*,\s*(?:new\s+URL|url)\(\s*"([^"]+)"`, What: "Scala and Java artifacts", Many: true},
	// Conan remotes, vcpkg registries.
	{Files: []string{"remotes.json"}, Key: `"url"\s*:\s*"([^"]+)"`, What: "Conan packages", Many: true},
	{Files: []string{"vcpkg-configuration.json", "vcpkg.json"}, Key: `"(?:repository|location)"\s*:\s*"([^"]+)"`, What: "vcpkg ports", Many: true},
	// A Nix flake's inputs by URL (github:owner/repo inputs are judged by owner).
	{Files: []string{"flake.nix"}, Key: `\burl\s*=\s*"((?:git\+|tarball\+|file\+)?(?:https?|ssh)://[^"]+)"`, What: "a flake input"},
	// Bazel: the archives and repositories a workspace or module fetches,
	// and the module registry.
	{Files: []string{"workspace", "workspace.bazel", "module.bazel", "*.bzl"}, Key: `\burls?\s*=\s*\[?\s*"([^"]+)"|\bremote\s*=\s*"([^"]+)"`, What: "an archive or repository Bazel fetches"},
	{Files: []string{"workspace", "workspace.bazel", "module.bazel", "*.bzl"}, Key: `^\s*"((?:https?)://[^"]+)",?\s*$`, In: `\burls\s*=\s*\[`, What: "an archive Bazel fetches"},
	{Files: []string{".bazelrc"}, Key: `--registry[= ]["']?([^\s"']+)`, What: "Bazel modules", Many: true},
	// CMake's FetchContent, ExternalProject and CPM, and a file it downloads.
	{Files: []string{"cmakelists.txt", "*.cmake"}, Key: `\bGIT_REPOSITORY\s+"?([^\s")]+)|\bURL\s+"?((?:https?|ftp)://[^\s")]+)|\bGITHUB_REPOSITORY\s+"?([\w.-]+/[\w.-]+)|\bfile\s*\(\s*DOWNLOAD\s+"?((?:https?|ftp)://[^\s")]+)`, What: "code CMake fetches"},
	// A git dependency of Cargo, uv and Pipenv, and a requirement given by URL.
	{Files: []string{"cargo.toml", "pyproject.toml", "pipfile"}, Key: `\bgit\s*=\s*["']([^"']+)["']`, What: "a dependency"},
	{Files: []string{"requirements*.txt", "requirements*.in", "constraints*.txt"}, Key: `^\s*(?:-e\s+|--editable\s+)?(?:[\w.\[\],-]+\s*@\s*)?((?:git\+)?(?:https?|ssh|git)://[^\s#;]+)`, What: "a Python package"},
	// pnpm's workspace overrides and catalogs: a name forced, for every
	// package of the workspace, to a tarball or repository by URL.
	{Files: []string{"pnpm-workspace.yaml", "pnpm-workspace.yml"}, Key: `^\s*["']?[^\s:"'#]+["']?\s*:\s*["']?((?:git\+)?(?:https?|ssh|git)://[^\s"'#]+|git@[^\s"'#]+|github:[^\s"'#]+)`, What: "a package for the whole workspace"},
	// Yarn's packageExtensions: a dependency added to another package's
	// manifest, by URL.
	{Files: []string{".yarnrc.yml", ".yarnrc.yaml"}, Key: `^\s*["']?[^\s:"'#]+["']?\s*:\s*["']?((?:git\+)?(?:https?|ssh|git)://[^\s"'#]+|github:[^\s"'#]+)`,
		Near: `^\s*(?:dependencies|peerDependencies)\s*:\s*$`, What: "a package another package depends on"},
	// Pipenv's dependency given by URL.
	{Files: []string{"pipfile"}, Key: `\b(?:url|file)\s*=\s*["']((?:https?)://[^"']+)["']`, Section: `^\s*\[(?:packages|dev-packages)\]`, What: "a Python package"},
	// helmfile's chart repositories.
	{Files: []string{"helmfile.yaml", "helmfile.yml"}, Key: `^\s*(?:-\s+)?url\s*:\s*["']?([^\s"'#]+)`, What: "Helm charts", Many: true},
	// A project generated from a template that updates from it (cruft, copier).
	{Files: []string{".cruft.json"}, Key: `"template"\s*:\s*"([^"]+)"`, What: "the project template"},
	{Files: []string{".copier-answers.yml", ".copier-answers.yaml"}, Key: `^\s*_src_path\s*:\s*["']?([^\s"']+)`, What: "the project template"},
	// Code a build or CI config runs as it is fetched: a Gradle script
	// applied from a URL, a Starlark module Cirrus CI loads.
	{Files: []string{"*.gradle", "*.gradle.kts"}, Key: `\bapply\s*\(?\s*from\s*[:=]\s*(?:uri\(\s*)?["']((?:https?)://[^"']+)["']`, What: "a build script", Runs: "build-code-fetch"},
	{Files: []string{".cirrus.star", "*.star"}, Key: `\bload\(\s*"((?:github\.com|gitlab\.com|bitbucket\.org)/[^"]+)"`, What: "a Starlark module", Runs: "ci-remote-config"},
	// A Tekton task or pipeline a git resolver fetches when the pipeline
	// runs (Pipelines as Code keeps them in .tekton/).
	{Files: []string{"tekton/*.yaml", "tekton/*.yml", ".tekton/*.yaml", ".tekton/*.yml"}, Key: `^\s*value\s*:\s*["']?((?:https?|git)://[^\s"']+)`,
		Near: `^\s*resolver\s*:\s*["']?(?:git|hub|bundles)\b`, What: "a Tekton task", Runs: "ci-remote-config"},
	// pixi's channels and indexes, R's repositories (renv's lock, an
	// .Rprofile), a Julia project's package sources.
	{Files: []string{"pixi.toml"}, Key: `"((?:https?)://[^"]+)"`, In: `\b(?:channels|extra-index-urls)\s*=\s*\[`, What: "packages", Many: true},
	{Files: []string{"pixi.toml"}, Key: `\bindex-url\s*=\s*"([^"]+)"`, What: "packages", Many: true},
	{Files: []string{"renv.lock"}, Key: `"URL"\s*:\s*"([^"]+)"`, What: "R packages", Many: true},
	{Files: []string{".rprofile", "rprofile.site"}, Key: `"(https?://[^"]+)"`, In: `\brepos\s*=`, What: "R packages", Many: true},
	{Files: []string{"project.toml", "juliaproject.toml"}, Key: `\burl\s*=\s*"([^"]+)"`, Section: `^\s*\[sources`, What: "a Julia package"},
	// Where a Yarn plugin was imported from (the file it loads is the one
	// its path: names in the tree); Bun's scoped registries.
	{Files: []string{".yarnrc.yml"}, Key: `^\s*(?:-\s+)?spec\s*:\s*["']?((?:https?)://[^\s"']+)`, What: "a Yarn plugin"},
	{Files: []string{"bunfig.toml"}, Key: `\burl\s*=\s*["']([^"']+)["']`, What: "npm packages", Many: true},
	// Terraform's provider mirrors (the CLI config), Kustomize's remote
	// bases, Jsonnet's bundler, Meson's wraps, Zig's, Lua's, Crystal's,
	// Nim's and opam's package sources, Homebrew taps, Nix's
	// fetchFromGitHub and mise's plugins.
	{Files: []string{".terraformrc", "terraform.rc"}, Key: `\burl\s*=\s*"([^"]+)"`, What: "Terraform providers", Many: true},
	{Files: []string{"kustomization.yaml", "kustomization.yml"}, Key: `^\s*-\s*["']?((?:https?://|git@|ssh://|(?:github\.com|gitlab\.com|bitbucket\.org)/)[^\s"']+)`, What: "Kubernetes resources"},
	{Files: []string{"jsonnetfile.json"}, Key: `"remote"\s*:\s*"([^"]+)"`, What: "a Jsonnet library"},
	{Files: []string{"*.wrap"}, Key: `^\s*(?:url|source_url|patch_url|source_fallback_url|patch_fallback_url)\s*=\s*(\S+)`, What: "a Meson subproject"},
	{Files: []string{"build.zig.zon"}, Key: `\.url\s*=\s*"([^"]+)"`, What: "a Zig package"},
	{Files: []string{"*.rockspec"}, Key: `\burl\s*=\s*["']([^"']+)["']`, What: "a Lua rock"},
	{Files: []string{"shard.yml"}, Key: `^\s*git\s*:\s*["']?([^\s"']+)`, What: "a Crystal shard"},
	{Files: []string{"shard.yml"}, Key: `^\s*(?:github)\s*:\s*["']?([\w.-]+/[\w.-]+)`, What: "a Crystal shard", Shorthand: "https://github.com/"},
	{Files: []string{"*.nimble"}, Key: `\brequires\s+"((?:https?|git)://[^"\s]+)`, What: "a Nim package"},
	{Files: []string{"*.opam", "opam"}, Key: `"((?:git\+)?(?:https?|ssh)://[^"]+)"`, In: `\bpin-depends\s*:`, What: "an OCaml package"},
	{Files: []string{"brewfile"}, Key: `^\s*tap\s+["'][^"']+["']\s*,\s*["']([^"']+)["']`, What: "a Homebrew tap"},
	{Files: []string{"*.nix"}, Key: `\bowner\s*=\s*"([\w.-]+)"`, Near: `\bfetchFromGitHub\b`, What: "a GitHub repository Nix fetches", Shorthand: "https://github.com/"},
	{Files: []string{"mise.toml", ".mise.toml"}, Key: `^\s*["']?[\w-]+["']?\s*=\s*["']((?:https?|git|ssh)://[^"']+|git@[^"']+)["']`, Section: `^\s*\[plugins\]`, What: "a mise plugin"},
	// Submodules, and the Git LFS server every checkout (CI's included)
	// fetches the tree's large files from: binaries, archives and model
	// weights that tests load or run.
	{Files: []string{".gitmodules"}, Key: `^\s*url\s*=\s*(\S+)`, What: "a submodule"},
	{Files: []string{".lfsconfig"}, Key: `^\s*(?:url|pushurl|lfsurl)\s*=\s*["']?([^\s"']+)`, Section: `^\s*\[\s*(?:lfs|remote)\b`, What: "the Git LFS files", Many: true},
	// Ansible Galaxy roles and collections, and the Galaxy server.
	{Files: []string{"requirements.yml", "requirements.yaml", "galaxy.yml"}, Key: `^\s*(?:-\s+)?(?:src|source|name)\s*:\s*["']?((?:git\+)?(?:https?|ssh|git)://[^\s"'#]+|git@[^\s"'#]+)`, What: "an Ansible role or collection"},
	{Files: []string{"ansible.cfg"}, Key: `^\s*(?:server|url)\s*=\s*(\S+)`, What: "Ansible roles and collections", Many: true},
	// Terraform and OpenTofu modules and providers, Terragrunt's source.
	{Files: []string{"*.tf", "*.tofu", "terragrunt.hcl"}, Key: `^\s*source\s*=\s*"([^"]+)"`, What: "a Terraform module or provider", Registry: true},
	// Haskell: stack's extra-deps and cabal's source-repository-package.
	{Files: []string{"stack.yaml", "cabal.project"}, Key: `^\s*(?:-\s+)?(?:git|location)\s*:\s*["']?([^\s"']+)`, What: "a Haskell package"},
	// Earthly: a remote target or import, and a base image.
	{Files: []string{"earthfile"}, Key: `^\s*(?:FROM|IMPORT|DO|BUILD|COPY)\s+(?:--\S+\s+)*([\w-]+(?:\.[\w-]+)+/[^\s+]+)\+`, What: "Earthly targets"},
	{Files: []string{"earthfile"}, Key: `^\s*IMPORT\s+(?:--\S+\s+)*([\w-]+(?:\.[\w-]+)+/\S+)`, What: "Earthly targets"},
	{Files: []string{"earthfile"}, Key: `^\s*FROM\s+(?:--\S+\s+)*([^\s+$]+)(?:\s+AS\s+\S+)?\s*(?:#.*)?$`, What: "a base image", Image: true},
}

// CommandSourceKeys are the commands that name where code comes from on
// the command line, wherever a shell line runs (a workflow step, a
// Makefile recipe, a Dockerfile's RUN, a script); CommandMarks are the
// words a line must hold, in any case, for them to be tried.
var (
	CommandSourceKeys = []SourceKey{
		{Key: `\bhelm\s+repo\s+add\s+(?:--?\S+\s+)*[\w.-]+\s+["']?((?:https?|oci)://[^\s"']+)`, What: "Helm charts", Many: true},
		{Key: `\bhelm\s+(?:install|upgrade|pull|template|push|show\s+\w+)\b[^|;&]*?\s["']?(oci://[^\s"']+)`, What: "a Helm chart"},
		{Key: `\bhelm\s+plugin\s+install\s+["']?(https?://[^\s"']+)`, What: "a Helm plugin"},
		{Key: `\bconan\s+remote\s+(?:add|update)\s+(?:--?\S+\s+)*[\w.-]+\s+["']?(https?://[^\s"']+)`, What: "Conan packages", Many: true},
		{Key: `\bcargo\s+install\b[^|;&]*?\s--git[\s=]+["']?([^\s"']+)`, What: "a crate"},
		{Key: `\bansible-galaxy\s+(?:role\s+|collection\s+)?install\b[^|;&]*?\s["']?((?:git\+)?https?://[^\s"',]+)`, What: "an Ansible role or collection"},
		{Key: `\bbrew\s+tap\s+[\w-]+/[\w-]+\s+["']?((?:https?|git)://[^\s"']+)`, What: "a Homebrew tap"},
		// Package managers' registry options and variables beyond pip's,
		// npm's and their kin (read with the index options).
		{Key: `\bcomposer\s+config\s+(?:--?\S+\s+)*repo(?:sitories)?\.\S+\s+(?:vcs|composer|git|github|gitlab|artifact)\s+["']?(https?://[^\s"']+)`, What: "PHP packages", Many: true},
		{Key: `(?i)\bnuget(?:\.exe)?\s+sources?\s+add\b[^|;&]*?\s-source\s+["']?(https?://[^\s"']+)|--add-source[\s=]+["']?(https?://[^\s"']+)`, What: "NuGet packages", Many: true},
		{Key: `\bgem\s+install\b[^|;&]*?\s(?:--source|-s)[\s=]+["']?(https?://[^\s"']+)`, What: "gems", Many: true},
		{Key: `\bcargo\s+\w+\b[^|;&]*?\s--index[\s=]+["']?((?:sparse\+)?https?://[^\s"']+)`, What: "crates", Many: true},
		{Key: `\bcpanm\b[^|;&]*?\s--mirror[\s=]+["']?(https?://[^\s"']+)`, What: "Perl modules", Many: true},
		{Key: `\bswift\s+package-registry\s+set\s+(?:--\S+\s+)*["']?(https?://[^\s"']+)`, What: "Swift packages", Many: true},
		{Key: `\b(?:PUB_HOSTED_URL|FLUTTER_STORAGE_BASE_URL|HEX_MIRROR|HEX_CDN|CARGO_REGISTRIES_\w+_INDEX|COURSIER_REPOSITORIES|UV_INDEX|PIP_FIND_LINKS|BUNDLE_MIRROR__\w+)["']?\s*[=:]\s*["']?((?:sparse\+)?https?://[^\s"'|]+)`, What: "packages", Many: true},
		// Toolchains and the binaries install scripts download, sent to a
		// mirror by a variable or an .npmrc key: what the mirror serves is
		// run.
		{Key: `(?i)\b(?:NVM_NODEJS_ORG_MIRROR|NODEJS_ORG_MIRROR|NODE_MIRROR|RUSTUP_DIST_SERVER|RUSTUP_UPDATE_ROOT|PYTHON_BUILD_MIRROR_URL|ELECTRON_MIRROR|PUPPETEER_DOWNLOAD_BASE_URL|PUPPETEER_DOWNLOAD_HOST|PLAYWRIGHT_DOWNLOAD_HOST|CYPRESS_DOWNLOAD_MIRROR|SASS_BINARY_SITE|CHROMEDRIVER_CDNURL|NPM_CONFIG_DISTURL|DISTURL|SDKMAN_CANDIDATES_API)["']?\s*[=:]\s*["']?(https?://[^\s"'|]+)`, What: "the toolchain or binaries it downloads", Many: true},
	}
	CommandMarks = []string{"mirror", "rustup_", "download_base", "download_host", "binary_site", "cdnurl", "disturl", "candidates_api", "repo add", "oci://", "plugin install", "remote add", "remote update", "--git", "galaxy", "brew tap",
		"composer config", "ources add", "-add-source", "gem install", "--index", "--mirror", "package-registry",
		"pub_hosted_url", "flutter_storage", "hex_mirror", "hex_cdn", "cargo_registries_", "coursier_repositories", "uv_index", "pip_find_links", "bundle_mirror"}
)

var commandKeys = sync.OnceValue(func() []compiledKey {
	out := make([]compiledKey, len(CommandSourceKeys))
	for i, k := range CommandSourceKeys {
		out[i] = compiledKey{SourceKey: k, key: regexp.MustCompile(k.Key)}
	}
	return out
})

// CommandSources returns the places the commands of a shell line name for
// code (CommandSourceKeys), numbered n.
func CommandSources(n int, line string) []Source {
	lower := strings.ToLower(line)
	if !slices.ContainsFunc(CommandMarks, func(m string) bool { return strings.Contains(lower, m) }) {
		return nil
	}
	var out []Source
	for _, k := range commandKeys() {
		if m := k.key.FindStringSubmatch(line); m != nil {
			out = append(out, Source{N: n, Place: strings.Join(m[1:], ""), Key: k.SourceKey})
		}
	}
	return out
}

type compiledKey struct {
	SourceKey
	key, in, near, section *regexp.Regexp
}

type keyTable struct {
	byName map[string][]compiledKey // keys of files named exactly
	globs  []glob                   // patterns of the other files
	byGlob map[string][]compiledKey
}

// glob is a file pattern split into the folder it names ("" for any) and
// the pattern of the base name, so that a path is matched without being
// split. Most patterns are "*" and an ending: those keep the ending, which
// a path ends with or not, since keysOf runs for every file of every diff.
type glob struct{ pattern, dir, base, suffix string }

func (g glob) matches(lowerBase string) bool {
	if g.suffix != "" {
		return strings.HasSuffix(lowerBase, g.suffix)
	}
	ok, _ := path.Match(g.base, lowerBase)
	return ok
}

var sourceKeys = sync.OnceValue(func() *keyTable {
	t := &keyTable{byName: map[string][]compiledKey{}, byGlob: map[string][]compiledKey{}}
	for _, k := range SourceKeys {
		c := compiledKey{SourceKey: k, key: regexp.MustCompile(k.Key)}
		if k.In != "" {
			c.in = regexp.MustCompile(k.In)
		}
		if k.Near != "" {
			c.near = regexp.MustCompile(k.Near)
		}
		if k.Section != "" {
			c.section = regexp.MustCompile(k.Section)
		}
		for _, f := range k.Files {
			if !strings.Contains(f, "*") {
				t.byName[f] = append(t.byName[f], c)
				continue
			}
			if _, ok := t.byGlob[f]; !ok {
				dir, base := path.Split(f)
				g := glob{pattern: f, dir: dir, base: base}
				if rest, ok := strings.CutPrefix(base, "*"); ok && !strings.ContainsAny(rest, `*?[\`) {
					g.suffix = rest
				}
				t.globs = append(t.globs, g)
			}
			t.byGlob[f] = append(t.byGlob[f], c)
		}
	}
	return t
})

// keysOf returns the source keys read in the file at p.
func keysOf(p string) []compiledKey {
	base := path.Base(p)
	lb := strings.ToLower(base)
	t := sourceKeys()
	out := t.byName[lb]
	for _, g := range t.globs {
		if !g.matches(lb) {
			continue
		}
		// A pattern with a folder wants the file right in it.
		if dir := p[:len(p)-len(base)]; g.dir != "" && !strings.EqualFold(dir, g.dir) && !strings.HasSuffix(strings.ToLower(dir), "/"+g.dir) {
			continue
		}
		out = append(out[:len(out):len(out)], t.byGlob[g.pattern]...)
	}
	return out
}

// ReadsSources reports a file whose keys SourceKeys names.
func ReadsSources(p string) bool { return len(keysOf(p)) > 0 }

// Source is a place a manifest line names.
type Source struct {
	N     int
	Place string // a URL, a host/path, or what a shorthand is short for
	Key   SourceKey
	Dep   string // the dependency it is given for (DepName), when one
}

// ManifestSources returns the places the manifest at p names on lines
// (the file's lines the diff shows, in order).
func ManifestSources(p string, lines []NumLine) []Source {
	keys := keysOf(p)
	if len(keys) == 0 {
		return nil
	}
	var out []Source
	for i, l := range lines {
		for _, k := range keys {
			for _, m := range k.key.FindAllStringSubmatchIndex(l.Text, -1) {
				v, at := "", 0
				for g := 2; g+1 < len(m); g += 2 {
					if m[g] >= 0 {
						v, at = l.Text[m[g]:m[g+1]], m[g]
						break
					}
				}
				if v == "" || k.in != nil && !inBlock(lines, i, at, k.in) || k.near != nil && !near(lines, i, k.near) || k.section != nil && !underSection(lines, i, k.section) {
					continue
				}
				if k.Shorthand != "" && !strings.Contains(v, "://") {
					v = k.Shorthand + v
				}
				src := Source{N: l.N, Place: v, Key: k.SourceKey}
				if !k.Many && k.Runs == "" && !k.Image {
					src.Dep = DepName(lines, i)
				}
				out = append(out, src)
			}
		}
	}
	return out
}

// near reports a line within six above lines[i], the diff showing them
// all, that re matches.
func near(lines []NumLine, i int, re *regexp.Regexp) bool {
	for j := i - 1; j >= 0 && j >= i-6 && lines[j].N == lines[j+1].N-1; j-- {
		if re.MatchString(lines[j].Text) {
			return true
		}
	}
	return false
}

// underSection reports that the nearest section header above lines[i]
// ([name]), the diff showing the lines between, matches re.
func underSection(lines []NumLine, i int, re *regexp.Regexp) bool {
	for j := i - 1; j >= 0 && lines[j].N == lines[j+1].N-1; j-- {
		if strings.HasPrefix(strings.TrimSpace(lines[j].Text), "[") {
			return re.MatchString(lines[j].Text)
		}
	}
	return false
}

// inBlock reports that position at of lines[i] sits inside the bracketed
// block the nearest opener above it starts: more brackets opened than
// closed between the opener and the position. Lines the diff does not show
// end the search.
func inBlock(lines []NumLine, i, at int, opener *regexp.Regexp) bool {
	text := lines[i].Text[:at]
	for j := i; j >= 0 && j >= i-40; j-- {
		if j < i {
			if lines[j].N != lines[j+1].N-1 {
				return false
			}
			text = lines[j].Text + "\n" + text
		}
		locs := opener.FindAllStringIndex(text, -1)
		if len(locs) == 0 {
			continue
		}
		// The block is open at the position unless it closed on the way:
		// another key's block after it is no part of it.
		depth, opened := 0, false
		for _, c := range text[locs[len(locs)-1][0]:] {
			switch c {
			case '[', '{', '(':
				depth++
				opened = true
			case ']', '}', ')':
				depth--
				if opened && depth <= 0 {
					return false
				}
			}
		}
		return depth > 0
	}
	return false
}

var (
	depOnLineRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*\{\s*:(\w+)\s*,|^\s*(?:gem|pod)\s+["']([\w./+-]+)["']|^\s*["']?([\w.-]+)["']?\s*=\s*\{`)
	})
	yamlKeyRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*([\w.-]+)\s*:\s*(.*)$`) })
)

// DepName returns the dependency the source on lines[i] is given for: the
// name the line itself declares ({:ecto, git: …}, gem "x", x = { git = …
// }), or in YAML the key of the mapping the line sits in, above its git:,
// hosted: or url: keys (pub's http: / git: / url:). "" when the diff does
// not show it.
func DepName(lines []NumLine, i int) string {
	if m := depOnLineRe().FindStringSubmatch(lines[i].Text); m != nil {
		return m[1] + m[2] + m[3]
	}
	in := indentOf(lines[i].Text)
	for j := i - 1; j >= 0 && j >= i-4 && lines[j].N == lines[j+1].N-1; j-- {
		t := lines[j].Text
		if strings.TrimSpace(t) == "" || indentOf(t) >= in {
			continue
		}
		in = indentOf(t)
		m := yamlKeyRe().FindStringSubmatch(t)
		if m == nil {
			return ""
		}
		switch m[1] {
		case "git", "hosted", "url", "path", "ref":
			continue
		}
		return m[1]
	}
	return ""
}

// RegistryDep reports a line that declares the dependency name at a
// registry version (pub's http: ^1.2.2, Mix's {:ecto, "~> 3.11"}): a
// source given for the same name in its place takes it off the registry.
func RegistryDep(line, name string) bool {
	if m := yamlKeyRe().FindStringSubmatch(line); m != nil && m[1] == name {
		v := strings.Trim(strings.TrimSpace(m[2]), `"'`)
		return v == "any" || v != "" && strings.IndexAny(v[:1], "^~<>=0123456789") == 0
	}
	m := depOnLineRe().FindStringSubmatch(line)
	return m != nil && m[1] == name && !strings.Contains(line, "git") && !strings.Contains(line, "path:")
}
