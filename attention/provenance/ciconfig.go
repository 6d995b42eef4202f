package provenance

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// ConfigRisk is how far pipeline configuration a CI system fetches at run
// time (rules.ConfigPull) can change under the project.
type ConfigRisk int

const (
	// ConfigHeld stays with the project or its CI vendor: a project of the
	// same GitLab instance, GitLab's own components, a certified orb, a
	// repository of the same Azure DevOps organisation.
	ConfigHeld ConfigRisk = iota
	// ConfigFixed comes from outside at content that cannot move (a
	// commit, a released version) or from a well-known owner: worth a read.
	ConfigFixed
	// ConfigMutable comes from outside at whatever its owner last pushed.
	ConfigMutable
	// ConfigLookalike names a look-alike of the CI vendor or a well-known owner.
	ConfigLookalike
)

// OrgGitLabs are GitLab instances run by open-source organisations for
// their own projects (GNOME, KDE, freedesktop.org, Debian's Salsa): a CI
// template there is the organisation's own.
var OrgGitLabs = []string{"gitlab.gnome.org", "invent.kde.org", "gitlab.freedesktop.org", "salsa.debian.org", "gitlab.haskell.org",
	"gitlab.torproject.org", "gitlab.alpinelinux.org", "gitlab.archlinux.org", "gitlab.xfce.org", "code.videolan.org",
	"gitlab.kitware.com", "gitlab.eclipse.org", "framagit.org", "gitlab.inria.fr", "src.fedoraproject.org", "gitlab.winehq.org"}

// configHosts are the hosts pipeline configuration is fetched from, whose
// look-alikes imitate them.
var configHosts = []string{"gitlab.com", "github.com", "raw.githubusercontent.com", "bitbucket.org", "gist.githubusercontent.com", "dev.azure.com"}

var shaRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)(?:^|[/=@])[0-9a-f]{40}(?:$|[/&?#])`) })

// PulledConfig judges pipeline configuration fetched from elsewhere: kind
// and ref, version and typ as rules.ConfigPulls read them. It returns the
// risk, the place (host or owner) to name, and what a look-alike imitates.
func PulledConfig(kind, ref, version, typ string) (risk ConfigRisk, place, imitates string) {
	ref = strings.Trim(ref, `"'`)
	switch kind {
	case "remote", "library":
		if strings.Contains(ref, "$CI_SERVER") || strings.Contains(ref, "${CI_SERVER") || strings.Contains(ref, "$CI_API") || strings.Contains(ref, "${CI_API") {
			return ConfigHeld, "", "" // the same GitLab instance
		}
		h := HostOf(ref)
		if h == "" && strings.HasPrefix(ref, "git@") {
			h = strings.ToLower(strings.SplitN(strings.TrimPrefix(ref, "git@"), ":", 2)[0])
		}
		if h == "" {
			return ConfigHeld, "", ""
		}
		if k := Lookalike(h, configHosts); k != "" {
			return ConfigLookalike, h, k
		}
		owner, _, _ := strings.Cut(RemoteOwner(ref), "/")
		if k := LookalikeOwner(owner); k != "" && HostIn(h, configHosts) {
			return ConfigLookalike, owner, k
		}
		if k := imitatesGitLab(owner); k != "" && h == "gitlab.com" {
			return ConfigLookalike, owner, k
		}
		switch {
		case strings.HasPrefix(ref, "http://"):
			return ConfigMutable, h, ""
		case shaRe().MatchString(ref) || shaRe().MatchString("@"+version) || integrityRe().MatchString(version):
			return ConfigFixed, h, ""
		case h == "gitlab.com" && strings.EqualFold(owner, "gitlab-org"):
			return ConfigFixed, h, "" // GitLab's own templates
		case kind == "remote" && HostIn(h, OrgGitLabs):
			// An organisation's own GitLab, most often the instance the
			// project lives on. Any other host named gitlab.… is only a
			// name: whoever registers a domain can call a host so.
			return ConfigFixed, h, ""
		case kind == "library" && (TagLike(version) || h == "github.com" && (slices.Contains(KnownOwners, strings.ToLower(owner)) || slices.Contains(PopularOwners, strings.ToLower(owner)))):
			return ConfigFixed, h, ""
		}
		return ConfigMutable, h, ""
	case "component":
		parts := strings.Split(strings.ToLower(ref), "/")
		if len(parts) < 3 {
			return ConfigHeld, "", ""
		}
		if k := imitatesGitLab(parts[1]); k != "" {
			return ConfigLookalike, parts[1], k
		}
		// A component comes from the pipeline's own instance. On
		// gitlab.com anyone publishes, and a branch is whatever its owner
		// last pushed; a self-managed instance is the organisation's,
		// though a public one (GNOME's, KDE's, Salsa) gives anyone an
		// account: a branch there is read.
		if parts[1] == "components" || version == "" || version == "~latest" || TagLike(version) || shaRe().MatchString("@"+version) {
			return ConfigHeld, "", ""
		}
		if parts[0] != "gitlab.com" {
			return ConfigFixed, parts[0] + "/" + parts[1], ""
		}
		return ConfigMutable, parts[0] + "/" + parts[1], ""
	case "orb":
		ns, _, _ := strings.Cut(strings.ToLower(ref), "/")
		if ns == "circleci" {
			return ConfigHeld, "", ""
		}
		if k := Lookalike(strings.ReplaceAll(ns, "-", ""), []string{"circleci"}); k != "" || ComboOwner(ns, []string{"circleci"}) != "" || strings.ReplaceAll(ns, "-", "") == "circleci" {
			return ConfigLookalike, ns, "circleci"
		}
		if version == "volatile" || strings.HasPrefix(version, "dev:") {
			return ConfigMutable, ns, ""
		}
		return ConfigHeld, "", ""
	case "plugin":
		if strings.Contains(ref, "://") || strings.HasPrefix(ref, "git@") {
			h := HostOf(ref)
			if h == "" {
				h = strings.ToLower(strings.SplitN(strings.TrimPrefix(ref, "git@"), ":", 2)[0])
			}
			if k := Lookalike(h, configHosts); k != "" {
				return ConfigLookalike, h, k
			}
			if shaRe().MatchString("@"+version) || TagLike(version) {
				return ConfigFixed, h, ""
			}
			return ConfigMutable, h, ""
		}
		owner, _, ok := strings.Cut(strings.ToLower(ref), "/")
		if !ok || owner == "buildkite-plugins" || owner == "buildkite" {
			return ConfigHeld, "", "" // Buildkite's own plugins
		}
		if Lookalike(owner, []string{"buildkite-plugins", "buildkite"}) != "" || ComboOwner(owner, []string{"buildkite"}) != "" {
			return ConfigLookalike, owner, "buildkite-plugins"
		}
		if k := LookalikeOwner(owner); k != "" {
			return ConfigLookalike, owner, k
		}
		if version == "" || !TagLike(version) && !shaRe().MatchString("@"+version) {
			return ConfigMutable, owner, ""
		}
		return ConfigFixed, owner, ""
	case "repository":
		if typ != "github" && typ != "githubenterprise" && typ != "bitbucket" {
			return ConfigHeld, "", "" // Azure Repos of the same organisation
		}
		owner, _, _ := strings.Cut(ref, "/")
		if k := LookalikeOwner(owner); k != "" {
			return ConfigLookalike, owner, k
		}
		v := strings.TrimPrefix(version, "refs/")
		if strings.HasPrefix(v, "tags/") || shaRe().MatchString("@"+v) {
			return ConfigFixed, owner, ""
		}
		if lo := strings.ToLower(owner); slices.Contains(KnownOwners, lo) || slices.Contains(PopularOwners, lo) {
			return ConfigFixed, owner, ""
		}
		return ConfigMutable, owner, ""
	}
	return ConfigHeld, "", ""
}

// gitlabGroups are the groups GitLab publishes its own pipeline templates
// and CI/CD catalog components from.
var gitlabGroups = []string{"components", "gitlab-org", "gitlab-com"}

// imitatesGitLab returns the GitLab group that group imitates: a letter off
// one of them, or one of them with gitlab- put in front (gitlab-componets,
// gitlab-components).
func imitatesGitLab(group string) string {
	g := strings.ToLower(group)
	if slices.Contains(gitlabGroups, g) {
		return ""
	}
	if k := Lookalike(g, gitlabGroups); k != "" {
		return k
	}
	if t, ok := strings.CutPrefix(g, "gitlab-"); ok {
		if slices.Contains(gitlabGroups, t) {
			return t
		}
		return Lookalike(t, gitlabGroups)
	}
	return ""
}

var ownRepoRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`github\.repository(?:_owner)?\s*==\s*'([\w.-]+)(?:/[\w.-]+)?'|'([\w.-]+)(?:/[\w.-]+)?'\s*==\s*github\.repository(?:_owner)?\b`)
})

// OwnOwner returns the owner a workflow line says the repository belongs
// to (if: github.repository == 'owner/name', the repository_owner test that
// keeps a job off forks), or "".
func OwnOwner(line string) string {
	if !strings.Contains(line, "github.repository") {
		return ""
	}
	if m := ownRepoRe().FindStringSubmatch(line); m != nil {
		return strings.ToLower(m[1] + m[2])
	}
	return ""
}

// ThirdParty reports an owner that is neither the repository's own (own,
// "" when unknown) nor a well-known one.
func ThirdParty(owner, own string) bool {
	o := strings.ToLower(owner)
	return own != "" && o != own && !slices.Contains(KnownOwners, o) && !slices.Contains(PopularOwners, o)
}

// integrityRe is a GitLab include's integrity: a digest, not the prefix alone.
var integrityRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^sha(?:256|384|512)-[A-Za-z0-9+/]{40,}={0,2}$`) })
