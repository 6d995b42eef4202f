package provenance

import "testing"

func TestLookalikeHost(t *testing.T) {
	for h, want := range map[string]string{
		// A well-known name as a word of another domain, its dots turned
		// to dashes, a letter off, or in front of someone else's domain.
		"registry-1.docker-io.net":               "docker.io",
		"repo.clojars-mirror.org":                "clojars.org",
		"charts.bitnarni.com":                    "charts.bitnami.com",
		"galaxy-ansible.com.collections-cdn.net": "galaxy.ansible.com",
		"github-com.mirrors-git.org":             "github.com",
		"registry.npmjs.org.cdn-edge.net":        "registry.npmjs.org",
		"ghcr.io.registry-cdn.net":               "ghcr.io",
		"githib.com":                             "github.com",
		"codeload.g1thub-cdn.net":                "github.com", // a digit for a letter, in one word
		"registry.terraform-io.net":              "registry.terraform.io",
		"files.pythonhosted-cdn.org":             "files.pythonhosted.org",
		"static.rust-lang-mirror.org":            "rust-lang.org",
		"nodejs-org.dist-mirror.net":             "nodejs.org",
		// Well-known hosts, the registries' own other domains, and real
		// registries that sit a letter from one.
		"registry-1.docker.io":           "",
		"prometheus-community.github.io": "",
		"s3-eu-west-1.amazonaws.com":     "",
		"repo.packagist.com":             "",
		"wpackagist.org":                 "",
		"asset-packagist.org":            "",
		"pypi.io":                        "",
		"download.docker.com":            "",
		"boringssl.googlesource.com":     "",
		"pypi.tuna.tsinghua.edu.cn":      "",
		"registry.npmmirror.com":         "",
		"rubygems.pkg.github.com":        "",
		"mirror.bazel.build":             "",
		// Hosts of their own.
		"charts.jetstack.io":                       "",
		"nexus.acme-corp.com":                      "",
		"maven.fabricmc.net":                       "",
		"dart.pub.acme.com":                        "",
		"gitlab.acme.com":                          "",
		"docker.mirror.hashicorp.services":         "",
		"kubernetes-charts.storage.googleapis.com": "",
	} {
		if got := LookalikeHost(h); got != want {
			t.Errorf("LookalikeHost(%q) = %q, want %q", h, got, want)
		}
	}
}

func TestJudgeSource(t *testing.T) {
	for _, c := range []struct {
		in   string
		v    SourceVerdict
		host string
	}{
		{"oci://registry-1.docker-io.net/bitnamicharts", SourceLookalike, "registry-1.docker-io.net"},
		{"git::https://github.com/acme/tf.git//vpc?ref=v1", SourceQuiet, "github.com"},
		{"github.com/cloudposse/terraform-null-label?ref=0.25.0", SourceQuiet, "github.com"},
		{"registry.terraform-io.net/acme/vpc/aws", SourceLookalike, "registry.terraform-io.net"},
		{"https://charts.jetstack.io", SourceUnfamiliar, "charts.jetstack.io"},
		{"git@git.acme-corp.com:acme/lib.git", SourceUnfamiliar, "git.acme-corp.com"},
		{"gh:copier-org/autopretty", SourceQuiet, "github.com"},
		{"file://../lib", SourceQuiet, ""},
		{"./modules/network", SourceQuiet, ""},
		{"hashicorp/aws", SourceQuiet, ""},
		{"@bitnami", SourceQuiet, ""},
		{"https://${NEXUS_HOST}/repository/maven", SourceQuiet, ""},
		{"http://localhost:8081/repository/maven-public/", SourceQuiet, ""},
	} {
		v, h, _ := JudgeSource(c.in)
		if v != c.v || h != c.host {
			t.Errorf("JudgeSource(%q) = %v, %q; want %v, %q", c.in, v, h, c.v, c.host)
		}
	}
}

func TestImitatingURLHost(t *testing.T) {
	for h, want := range map[string]string{
		"raw.githubusercontent.com.cdn-edge.net": "raw.githubusercontent.com",
		"github-com.mirrors-git.org":             "github.com",
		"githuh.com":                             "github.com",
		// A host's words are LookalikeHost's to judge, in a source's place.
		"docker-curriculum.com":         "",
		"registry-1.docker-io.net":      "",
		"acme.github.io":                "",
		"github.acme-corp.com":          "",
		"objects.githubusercontent.com": "",
	} {
		if got := ImitatingURLHost(h); got != want {
			t.Errorf("ImitatingURLHost(%q) = %q, want %q", h, got, want)
		}
	}
}

func TestFetchedCode(t *testing.T) {
	for in, want := range map[string]ConfigRisk{
		"https://raw.githubusercontent.com/someone/conventions/main/ci.gradle.kts":                                     ConfigMutable,
		"https://raw.githubusercontent.com/someone/conventions/0123456789abcdef0123456789abcdef01234567/ci.gradle.kts": ConfigFixed,
		"github.com/someone/helpers@main":        ConfigMutable,
		"github.com/cirrus-modules/helpers@main": ConfigFixed,
		"github.com/someone/helpers@v1.2.0":      ConfigFixed,
		"https://github.com.cdn-x.net/o/r.git":   ConfigLookalike,
	} {
		if got, _, _ := FetchedCode(in); got != want {
			t.Errorf("FetchedCode(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestNearOwnerOf(t *testing.T) {
	others := []string{"acme-corp", "acrne-corp", "pyca", "michalmuskala"}
	for owner, want := range map[string]string{
		"acrne-corp": "acme-corp",
		"acme-corp":  "acrne-corp", // which is the copy is the caller's to say
		"pypa":       "",           // a well-known owner copies nobody
		"someone":    "",
	} {
		if got := NearOwnerOf(owner, others); got != want {
			t.Errorf("NearOwnerOf(%q) = %q, want %q", owner, got, want)
		}
	}
	for in, want := range map[string]string{
		"acme-corp/auth":                        "",
		"https://github.com/Acme/lib.git":       "acme",
		"git@gitlab.com:group/proj.git":         "group",
		"gh:copier-org/autopretty":              "copier-org",
		"https://charts.bitnami.com/bitnami":    "",
		"github.com/cloudposse/terraform-label": "cloudposse",
	} {
		if got := PlaceOwner(in); got != want {
			t.Errorf("PlaceOwner(%q) = %q, want %q", in, got, want)
		}
	}
}

// A repository on the project's own domain is the project's; the same name
// on an address, a look-alike or another's domain is not.
func TestProjectDomain(t *testing.T) {
	names := []string{"xwiki.org", "xwiki"}
	for _, c := range []struct {
		host string
		want bool
	}{
		{"nexus.xwiki.org", true},
		{"nexus-snapshots.xwiki.org", true},
		{"maven.xwiki.com", true}, // the project's name as the label, another suffix
		{"xwiki.org.cdn-edge.net", false},
		{"nexus.xwiki-mirror.org", false},
		{"nexus.example.org", false},
		{"10.0.0.7", false},
		{"xwiki", false},
	} {
		if got := ProjectDomain(c.host, names); got != c.want {
			t.Errorf("ProjectDomain(%q) = %v, want %v", c.host, got, c.want)
		}
	}
	// the name spelled across the registrable domain's dot
	for _, c := range []struct {
		host string
		want bool
	}{
		{"dl.min.io", true},
		{"min.io", true},
		{"dl.minio.net", true},
		{"dl.min.io.cdn-edge.net", false},
		{"dl.mini.o.example.com", false},
	} {
		if got := ProjectDomain(c.host, []string{"minio"}); got != c.want {
			t.Errorf("ProjectDomain(%q, minio) = %v, want %v", c.host, got, c.want)
		}
	}
	if ProjectDomain("repo.io.net", []string{"io"}) {
		t.Error("a two-letter name matched")
	}
}
