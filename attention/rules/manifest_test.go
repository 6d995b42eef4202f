package rules

import (
	"slices"
	"testing"
)

func TestManifestDeps(t *testing.T) {
	for _, c := range []struct {
		kind, text string
		want       []Dep
	}{
		{"cargo", "[package]\nname = \"x\"\n\n[dependencies]\nserde = \"1\"\nfast_log = { package = \"faster_log\", version = \"1.7\" }\n\n[dependencies.tokio]\nversion = \"1\"",
			[]Dep{{N: 5, Name: "serde"}, {N: 6, Name: "faster_log", As: "fast_log"}, {N: 8, Name: "tokio"}}},
		{"pyproject", "[project]\nkeywords = [\"http\", \"request\"]\ndependencies = [\n    \"requests>=2\",\n    \"uvicorn[standard]>=0.20\"]\n\n[project.optional-dependencies]\ndev = [\"pytest\"]\n\n[tool.poetry.dependencies]\npython = \"^3.11\"\ndjango = \"^5\"",
			[]Dep{{N: 4, Name: "requests"}, {N: 5, Name: "uvicorn"}, {N: 8, Name: "pytest"}, {N: 12, Name: "django"}}},
		{"maven", "<groupId>com.acme</groupId>\nimplementation 'com.google.guava:guava:33.0-jre'",
			[]Dep{{N: 1, Name: "com.acme"}, {N: 2, Name: "com.google.guava"}}},
		{"conda", "name: x\nchannels:\n  - conda-forge\n  - https://c.invalid/ch\ndependencies:\n  - numpy\n  - pip:\n    - requests>=2\n    - \"attrs\"\nprefix: /opt/env",
			[]Dep{{N: 3, Name: "conda-forge", Channel: true}, {N: 8, Name: "requests"}, {N: 9, Name: "attrs"}}},
		{"gem", "gem \"rails\", \"~> 7.1\"\n  spec.add_runtime_dependency \"thor\", \"~> 1.0\"", []Dep{{N: 1, Name: "rails"}, {N: 2, Name: "thor"}}},
		{"nuget", "<PackageReference Include=\"Serilog\" Version=\"3.1.1\" />\n<package id=\"NUnit\" version=\"3.14.0\" />\nnuget FSharp.Core", []Dep{{N: 1, Name: "Serilog"}, {N: 2, Name: "NUnit"}, {N: 3, Name: "FSharp.Core"}}},
		{"importmap", "{\n  \"imports\": {\n    \"a\": \"https://esm.sh/a@1\",\n    \"b\": \"jsr:@std/b@1\"\n  },\n  \"scopes\": {\n    \"https://x.invalid/\": {\n      \"c\": \"https://y.invalid/c.js\"\n    }\n  },\n  \"tasks\": {\n    \"d\": \"https://z.invalid/d.ts\"\n  }\n}",
			[]Dep{{N: 3, Name: "a", Source: "https://esm.sh/a@1"}, {N: 8, Name: "c", Source: "https://y.invalid/c.js"}}},
	} {
		if got := ManifestDeps(c.kind, numbered(c.text)); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %+v, want %+v", c.kind, got, c.want)
		}
	}
}

func TestGoImport(t *testing.T) {
	for line, want := range map[string]string{
		"\t\"fmt\"":                                       "",
		"\tlog \"github.com/sirupsen/logrus\"":            "github.com/sirupsen/logrus",
		"\t_ \"golang.org/x/tools/cmd/stringer\" // tool": "golang.org/x/tools/cmd/stringer",
		"import \"gopkg.in/yaml.v3\"":                     "gopkg.in/yaml.v3",
		"var s = \"github.com/x/y\" + z":                  "",
	} {
		if got := GoImport(line); got != want {
			t.Errorf("GoImport(%q) = %q, want %q", line, got, want)
		}
	}
}
