package provenance

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Owners on a forge. Wherever a file names code by its forge owner (a URL,
// a git source, github:owner/repo, an image on GitHub's registry), the
// owner decides what runs, whatever the ecosystem: a Swift package, a
// vcpkg registry, a tool manager's plugin, a Terraform module. An owner
// one or two letters off another, or another's name with a word added,
// is how a look-alike repository passes for the real one.

// ForgeRef is a forge owner and repository a line names, the host given as
// its family ("github" for github.com, its registry and its raw files);
// Repo is "" where the line names the owner alone (a url-base).
type ForgeRef struct{ Family, Owner, Repo string }

// Name is owner/repo, or the owner alone.
func (r ForgeRef) Name() string {
	if r.Repo == "" {
		return r.Owner
	}
	return r.Owner + "/" + r.Repo
}

var forgeRefRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[^\w.-])(github\.com|raw\.githubusercontent\.com|ghcr\.io|gitlab\.com|codeberg\.org|bitbucket\.org|github[:>]|gitlab[:>]|gh:|ubi:|aqua:|spm:)[/:]?([A-Za-z0-9][\w.-]*)(?:/([A-Za-z0-9][\w.-]*))?`)
})

// forgePages are first path elements of a forge that are pages of the
// forge itself, not owners.
var forgePages = []string{"orgs", "users", "sponsors", "apps", "marketplace", "settings", "features", "topics", "enterprise", "login",
	"about", "site", "search", "notifications", "explore", "collections", "advisories", "security", "pricing", "api", "repos", "groups",
	"user-attachments", "assets", "downloads", "releases", "blob", "raw", "tree"}

var hubImageRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[\s"'-])image"?\s*:\s*["']?(?:docker\.io/)?([a-z0-9][a-z0-9_-]*)/([a-z0-9][\w.-]*)`)
})

// ForgeRefs returns the forge owners and repositories line names: in a
// URL, a git source, or a prefix that names a GitHub repository (github:,
// Renovate's github>, mise's ubi: and aqua: backends).
func ForgeRefs(line string) []ForgeRef {
	var out []ForgeRef
	lower := strings.ToLower(line)
	// A Docker Hub image's namespace is its publisher's account.
	if strings.Contains(lower, "image") {
		if m := hubImageRe().FindStringSubmatch(line); m != nil {
			out = append(out, ForgeRef{"docker.io", strings.ToLower(m[1]), strings.ToLower(m[2])})
		}
	}
	if !strings.Contains(lower, "github") && !strings.Contains(lower, "gitlab") && !strings.Contains(lower, "ghcr.io") &&
		!strings.Contains(lower, "codeberg") && !strings.Contains(lower, "bitbucket") && !strings.Contains(lower, "gh:") &&
		!strings.Contains(lower, "ubi:") && !strings.Contains(lower, "aqua:") && !strings.Contains(lower, "spm:") {
		return out
	}
	for _, m := range forgeRefRe().FindAllStringSubmatch(line, -1) {
		fam := strings.ToLower(strings.TrimRight(m[1], ":>"))
		switch fam {
		case "github.com", "raw.githubusercontent.com", "ghcr.io", "gh", "ubi", "aqua", "spm":
			// gh:, and mise's ubi:, aqua: and spm: backends, name GitHub
			// repositories.
			fam = "github"
		case "gitlab.com":
			fam = "gitlab"
		}
		owner := strings.ToLower(m[2])
		if slices.Contains(forgePages, owner) {
			continue
		}
		out = append(out, ForgeRef{fam, owner, strings.TrimSuffix(strings.ToLower(m[3]), ".git")})
	}
	return out
}

// siblingWords are the words real organisations add to their own name for
// a second organisation of theirs (prometheus-community, grpc-ecosystem,
// kubernetes-sigs, aws-samples): a name with one of them added is the
// owner's own family, not an imitation.
var siblingWords = []string{"community", "ecosystem", "contrib", "sigs", "incubator", "labs", "samples", "nursery", "extras", "extra", "archive",
	"docs", "examples", "actions", "go", "js", "rs", "py", "jwt", "cloud", "research", "bot", "org", "hq", "inc", "io", "oss-distributions"}

// NearOwner reports that owner is a letter-level copy of model without
// being it: one or two letters off, or the same once look-alike letters
// are read as what they imitate (rn as m, 0 as o).
func NearOwner(owner, model string) bool {
	o, m := strings.ToLower(owner), strings.ToLower(model)
	if o == m || len(m) < 4 || strings.ContainsAny(o, "${}") || Lookalike(o, []string{m}) == "" {
		return false
	}
	// Two owners whose names differ only by a trailing digit are numbered
	// siblings (acme2), not look-alikes.
	return strings.TrimRight(o, "0123456789") != strings.TrimRight(m, "0123456789")
}

// Imitates reports that owner is a near-copy of model: NearOwner, or
// model's name with a word added that is not one of its own family's.
func Imitates(owner, model string) bool {
	o, m := strings.ToLower(owner), strings.ToLower(model)
	if NearOwner(o, m) {
		return true
	}
	if o == m || len(m) < 4 || strings.ContainsAny(o, "${}") || ComboOwner(o, []string{m}) == "" {
		return false
	}
	word := strings.Trim(strings.Replace(o, m, "", 1), "-_.")
	return !slices.Contains(siblingWords, word)
}

// SourceOwners are owners whose repositories projects take code from by
// URL (Swift packages, tool plugins, Terraform modules, port registries):
// an owner imitating one of them, by a letter or by a word added, is a
// look-alike. Owners named by a common word (google, python) are judged by
// the letter only: their own families add words (google-research).
var SourceOwners = []string{"apple", "swiftlang", "asdf-vm", "terraform-aws-modules", "terraform-google-modules", "cloudposse",
	"gruntwork-io", "microsoft", "nixos", "homebrew", "mise-plugins", "pointfreeco", "alamofire", "realm", "vapor", "swift-server",
	"protocolbuffers", "nvm-sh", "pyenv", "rbenv", "tfutils", "aquaproj", "renovatebot", "terraform-linters", "kislyuk",
	// The owners that publish an ecosystem's own packages from their
	// repositories (pub's, Hex's, Deno's, Julia's, Conan's, Bitnami's
	// charts): a git dependency is taken from them by URL.
	"dart-lang", "elixir-lang", "denoland", "julialang", "conan-io", "bitnami", "earthly"}

// ImitatedOwner returns the well-known owner owner imitates, or "".
func ImitatedOwner(owner string) string {
	o := strings.ToLower(owner)
	if slices.Contains(PopularOwners, o) || slices.Contains(KnownOwners, o) || slices.Contains(SourceOwners, o) {
		return ""
	}
	if k := Lookalike(o, KnownOwners); k != "" {
		return k
	}
	if k := ComboOwner(o, KnownOwners); k != "" && distributionWord(strings.Replace(o, k, "", 1)) {
		// golangci-lint-releases, hashicorp-dist: a well-known owner's name
		// dressed as its download channel, which no family member is.
		return k
	}
	for _, k := range SourceOwners {
		if Imitates(o, k) {
			return k
		}
	}
	return spelledWithDigits(o)
}

// spelledWithDigits returns the well-known name one word of owner spells
// with digits or letter pairs for the letters they look like (ansib1e for
// ansible, micr0soft, rnicrosoft), or "": nobody writes a well-known
// project's or registry's name that way but to pass for it.
func spelledWithDigits(owner string) string {
	for _, w := range append(strings.FieldsFunc(owner, func(r rune) bool { return r == '-' || r == '_' || r == '.' }), owner) {
		for _, r := range digitLetters() {
			if n := r.Replace(w); n != w && len(n) >= 5 && brandWords()[n] && !brandWords()[w] {
				return n
			}
		}
	}
	return ""
}

// spellsWord reports label holding word as one of its dash-joined words
// once digits and letter pairs are read as letters (g1thub-cdn for github).
func spellsWord(label, word string) bool {
	for _, r := range digitLetters() {
		if n := r.Replace(label); n != label && hasWord(n, word) {
			return true
		}
	}
	return false
}

// digitLetters read digits and letter pairs as the letters they imitate;
// a 1 stands for an l or an i.
var digitLetters = sync.OnceValue(func() []*strings.Replacer {
	return []*strings.Replacer{
		strings.NewReplacer("0", "o", "1", "l", "3", "e", "4", "a", "5", "s", "7", "t", "rn", "m", "vv", "w"),
		strings.NewReplacer("0", "o", "1", "i", "3", "e", "4", "a", "5", "s", "7", "t", "rn", "m", "vv", "w"),
	}
})

// brandWords are the names a look-alike owner borrows: the well-known
// owners, and the registrable names of the registries and forges.
var brandWords = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, l := range [][]string{KnownOwners, PopularOwners, SourceOwners, registryBrands} {
		for _, o := range l {
			out[o] = true
		}
	}
	for _, l := range [][]string{SourceRegistries, OwnDomains, ForgeHosts, KnownRegistries} {
		for _, h := range l {
			label, _, _ := strings.Cut(registrable(h), ".")
			out[label] = true
		}
	}
	return out
})

// distributionWord reports a word added to an owner's name (-releases,
// -dist, official-) that makes it look like the owner's own distribution.
func distributionWord(added string) bool {
	for _, w := range strings.FieldsFunc(added, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		switch w {
		case "release", "releases", "dist", "download", "downloads", "binaries", "builds", "mirror", "cdn", "official":
			return true
		}
	}
	return false
}

// OwnerSwitch returns the owners of a line that changed only in the owner
// of a reference (owner/name, host/owner/name), where the new owner is a
// letter-level copy of the old: the line keeps pointing at the same name
// while the code behind it moves to whoever registered the look-alike
// (an image acme/api moved to acrne/api, a project include, a clone).
func OwnerSwitch(old, new string) (from, to string) {
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	e := 0
	for e < len(old)-p && e < len(new)-p && old[len(old)-1-e] == new[len(new)-1-e] {
		e++
	}
	tok := func(c byte) bool {
		return c == '-' || c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for p > 0 && tok(old[p-1]) {
		p--
	}
	for e > 0 && tok(old[len(old)-e]) {
		e--
	}
	from, to = old[p:len(old)-e], new[p:len(new)-e]
	// The token must be an owner: followed by a slash, and standing at the
	// start of a value or right after a host.
	if e == 0 || old[len(old)-e] != '/' || strings.ContainsFunc(from+to, func(r rune) bool { return r > 0x7f || !tok(byte(r)) }) {
		return "", ""
	}
	if p > 0 && !strings.ContainsRune(" \t\"'=:@>(,[", rune(old[p-1])) {
		// After a slash, only a host's (github.com/acme), not a
		// directory's (./utils/).
		host := old[strings.LastIndexAny(old[:p-1], " \t\"'=/@")+1 : p-1]
		if old[p-1] != '/' || len(host) < 4 || !strings.Contains(host[1:], ".") {
			return "", ""
		}
	}
	if strings.EqualFold(strings.TrimSuffix(from, "s"), strings.TrimSuffix(to, "s")) || !NearOwner(to, from) {
		return "", ""
	}
	return strings.ToLower(from), strings.ToLower(to)
}

// ForgeHosts are the forges and their registries and file hosts that code
// is taken from by URL; realForgeHosts are hosts a letter or two from one
// of them that are real and no imitation (GitHub Pages, Gitee).
var (
	ForgeHosts     = []string{"github.com", "gitlab.com", "codeberg.org", "bitbucket.org", "raw.githubusercontent.com", "ghcr.io", "objects.githubusercontent.com", "gist.github.com"}
	realForgeHosts = []string{"github.io", "gitlab.io", "gitee.com", "gitea.com", "gitea.io", "gitlab.cn", "github.dev", "gitpod.io", "githubassets.com", "bitbucket.io", "gcr.io"}
)

// LookalikeForgeHost returns the forge host h imitates: a letter off it,
// or the same once look-alike letters are read as what they imitate
// (githuh.com, gitlab.corn), or "".
func LookalikeForgeHost(h string) string {
	h = strings.ToLower(h)
	if HostIn(h, ForgeHosts) || HostIn(h, realForgeHosts) || strings.ContainsFunc(h, func(r rune) bool {
		return r != '.' && r != '-' && (r < 'a' || r > 'z') && (r < '0' || r > '9')
	}) {
		return ""
	}
	for _, k := range ForgeHosts {
		base := h
		if strings.Count(k, ".") == 1 && strings.Count(h, ".") > 1 {
			// www.githuh.com: the registrable part is what imitates.
			base = h[strings.Index(h, ".")+1:]
		}
		if EditDistance(base, k) == 1 || lookalikeLetters(base, k) || swapsTwo(base, k) {
			return k
		}
	}
	return ""
}

// lookalikeLetters reports s spelled as k once digits and letter pairs
// are read as the letters they imitate (rn as m, 0 as o).
func lookalikeLetters(s, k string) bool {
	return strings.NewReplacer("0", "o", "1", "l", "3", "e", "4", "a", "5", "s", "7", "t", "rn", "m", "vv", "w").Replace(s) == k
}

// swapsTwo reports s as k with two neighbouring letters swapped (githbu).
func swapsTwo(s, k string) bool {
	if len(s) != len(k) {
		return false
	}
	for i := 0; i+1 < len(s); i++ {
		if s[i] != k[i] {
			return s[i] == k[i+1] && s[i+1] == k[i] && s[i+2:] == k[i+2:]
		}
	}
	return false
}

// URLHosts returns the hosts of the URLs in line (what follows ://, up to
// the port or path), lower-cased, without parsing the URLs.
func URLHosts(line string) []string {
	var out []string
	for rest := line; ; {
		i := strings.Index(rest, "://")
		if i < 0 {
			return out
		}
		rest = rest[i+3:]
		j := 0
		for j < len(rest) && (rest[j] == '.' || rest[j] == '-' || rest[j] >= 'a' && rest[j] <= 'z' || rest[j] >= 'A' && rest[j] <= 'Z' || rest[j] >= '0' && rest[j] <= '9') {
			j++
		}
		if j > 0 && (j == len(rest) || strings.IndexByte("/:?#\"' )]>,;", rest[j]) >= 0) {
			out = append(out, strings.ToLower(rest[:j]))
		}
		rest = rest[j:]
	}
}

// OwnerSpellsRepo returns the owner owner imitates when one of its words
// spells, with digits for the letters they look like, a word the
// repository's own name holds (haskell-crypt0/cryptonite imitates
// haskell-crypto), or "". The project's
// own organisation writes its name in letters; a copy of the project under
// an owner dressed as that organisation changes one letter to a digit so
// that the name reads the same.
func OwnerSpellsRepo(owner, repo string) string {
	o, r := strings.ToLower(owner), strings.ToLower(repo)
	if r == "" {
		return ""
	}
	for _, w := range strings.FieldsFunc(o, func(c rune) bool { return c == '-' || c == '_' || c == '.' }) {
		if !strings.ContainsAny(w, "013457") || strings.Contains(r, w) {
			continue
		}
		for _, d := range digitLetters() {
			if n := d.Replace(w); n != w && len(n) >= 5 && !strings.ContainsAny(n, "0123456789") && strings.Contains(r, n) {
				return strings.Replace(o, w, n, 1)
			}
		}
	}
	return ""
}
