package provenance

import (
	"slices"
	"testing"
)

func TestForgeRefs(t *testing.T) {
	for in, want := range map[string][]ForgeRef{
		`.package(url: "https://github.com/Apple/swift-log.git", from: "1.6.1"),`: {{"github", "apple", "swift-log"}},
		`source = "git::https://github.com/o/terraform-aws-vpc.git?ref=v5"`:       {{"github", "o", "terraform-aws-vpc"}},
		`image: ghcr.io/acme/api:1.14`:                                            {{"github", "acme", "api"}},
		`url = "github:NixOS/nixpkgs/nixos-24.05";`:                               {{"github", "nixos", "nixpkgs"}},
		`url = git@gitlab.com:group/proj.git`:                                     {{"gitlab", "group", "proj"}},
		`    image: acme/api:1.2`:                                                 {{"docker.io", "acme", "api"}},
		`  "image": "docker.io/acme/base:1",`:                                     {{"docker.io", "acme", "base"}},
		`"ubi:BurntSushi/ripgrep" = "14"`:                                         {{"github", "burntsushi", "ripgrep"}},
		`"extends": ["github>acme/renovate-config"]`:                              {{"github", "acme", "renovate-config"}},
		// The forge's own pages and other hosts under its name are no owner.
		`see https://github.com/orgs/acme/teams and https://api.github.com/repos/o/r`: nil,
		`https://gist.github.com/someone/0123abcd`:                                    nil,
	} {
		if got := ForgeRefs(in); !slices.Equal(got, want) {
			t.Errorf("ForgeRefs(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestImitates(t *testing.T) {
	for _, c := range []struct {
		owner, model string
		near, any    bool
	}{
		{"acrne", "acme", true, true}, // rn read as m
		{"terraform-aws-module", "terraform-aws-modules", true, true},
		{"apple-oss", "apple", false, true},                  // a word added
		{"acme", "acme", false, false},                       // itself
		{"acme2", "acme", false, false},                      // a numbered sibling
		{"prometheus-community", "prometheus", false, false}, // its own family
		{"apple-oss-distributions", "apple", false, false},
		{"go", "gp", false, false}, // too short to judge
	} {
		if got := NearOwner(c.owner, c.model); got != c.near {
			t.Errorf("NearOwner(%q, %q) = %v, want %v", c.owner, c.model, got, c.near)
		}
		if got := Imitates(c.owner, c.model); got != c.any {
			t.Errorf("Imitates(%q, %q) = %v, want %v", c.owner, c.model, got, c.any)
		}
	}
}

func TestImitatedOwner(t *testing.T) {
	for in, want := range map[string]string{
		"asdf-vm-plugins":      "asdf-vm",
		"terraform-aws-module": "terraform-aws-modules",
		"microsoft-vcpkg":      "microsoft",
		"hashlcorp":            "hashicorp",
		"asdf-vm":              "", // itself
		"asdf-community":       "", // the owner's family
		"google-research":      "", // a common word's families are its own
		"tailscale-dev":        "",
		"acme":                 "",
		"ansib1e-collections":  "ansible", // a digit for a letter, in one word
		"rnicrosoft-labs":      "microsoft",
		"m1guelpf":             "", // digits in an owner's own name
		"baptiste0928":         "",
	} {
		if got := ImitatedOwner(in); got != want {
			t.Errorf("ImitatedOwner(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOwnerSwitch(t *testing.T) {
	for _, c := range []struct{ old, new, from, to string }{
		{"    image: acme/api:1.2", "    image: acrne/api:1.2", "acme", "acrne"},
		{"  url-base: https://github.com/zephyrproject-rtos/x", "  url-base: https://github.com/zephyrproject-rt0s/x", "zephyrproject-rtos", "zephyrproject-rt0s"},
		{"    image: acme/api:1.2", "    image: acme/api:1.3", "", ""},                       // a version
		{`COPY ./utils/conf /etc/conf`, `COPY ./util/conf /etc/conf`, "", ""},                // a directory, not an owner
		{"  - project: 'acme/templates'", "  - project: 'acmes/templates'", "", ""},          // a plural
		{"  url: https://github.com/acme/x", "  url: https://github.com/acme-dev/x", "", ""}, // a word added is another reader's
	} {
		if from, to := OwnerSwitch(c.old, c.new); from != c.from || to != c.to {
			t.Errorf("OwnerSwitch(%q, %q) = %q, %q; want %q, %q", c.old, c.new, from, to, c.from, c.to)
		}
	}
}

func TestLookalikeForgeHost(t *testing.T) {
	for in, want := range map[string]string{
		"githbu.com":     "github.com",
		"gitlab.corn":    "gitlab.com",
		"www.githuh.com": "github.com",
		"github.com":     "",
		"api.github.com": "",
		"acme.github.io": "", // GitHub Pages
		"gitee.com":      "",
		"gitlab.com":     "",
		"github.com]":    "", // no host
	} {
		if got := LookalikeForgeHost(in); got != want {
			t.Errorf("LookalikeForgeHost(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestURLHosts(t *testing.T) {
	got := URLHosts(`curl https://GitHub.com/a/b "http://x.invalid:8080/p" git+ssh://git@host/x https://h.io`)
	if want := []string{"github.com", "x.invalid", "h.io"}; !slices.Equal(got, want) {
		t.Errorf("URLHosts = %v, want %v", got, want)
	}
}

func TestOwnerSpellsRepo(t *testing.T) {
	for _, c := range []struct{ owner, repo, want string }{
		{"haskell-crypt0", "cryptonite", "haskell-crypto"},
		{"fastap1", "fastapi-users", "fastapi"},
		// Digits the repository's name has too, or that spell no word of it.
		{"web3", "web3.py", ""},
		{"s3tools", "s3cmd", ""},
		{"0xpolygon", "polygon-edge", ""},
		{"haskell-crypto", "cryptonite", ""},
		{"acme2", "acme-lib", ""},
	} {
		if got := OwnerSpellsRepo(c.owner, c.repo); got != c.want {
			t.Errorf("OwnerSpellsRepo(%q, %q) = %q, want %q", c.owner, c.repo, got, c.want)
		}
	}
}
