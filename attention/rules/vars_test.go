package rules

import "testing"

func TestExpand(t *testing.T) {
	vars := map[string]string{"BASE": "python:3.12", "EMPTY": "", "REG": "ghcr.io/acme"}
	value := func(n string) (string, bool) { v, ok := vars[n]; return v, ok }
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"${BASE}", "python:3.12", true},
		{"$BASE", "python:3.12", true},
		{"$REG/app:${TAG}", "ghcr.io/acme/app:${TAG}", false},
		{"${IMAGE:-node:20}", "node:20", true},
		{"${EMPTY:-node:20}", "node:20", true}, // :- takes the default for an empty value too
		{"${EMPTY-node:20}", "", true},
		{"${{ env.BASE }}", "python:3.12", true},
		{"${UNSET:-$OTHER}", "${UNSET:-$OTHER}", false},
		{"alpine", "alpine", true},
	} {
		got, ok := Expand(c.in, value)
		if got != c.want || ok != c.ok {
			t.Errorf("Expand(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestVarDef(t *testing.T) {
	for _, c := range []struct {
		line        string
		docker      bool
		name, value string
		ok          bool
	}{
		{"ARG BASE=docker.io/library/python:3.12", true, "BASE", "docker.io/library/python:3.12", true},
		{"ENV IMAGE node:20", true, "IMAGE", "node:20", true},
		{"ARG TARGETARCH", true, "", "", false},
		{"  BUILD_IMAGE: \"registry.x/app:1\"", false, "BUILD_IMAGE", "registry.x/app:1", true},
		{"      - BASE_IMAGE=node:20", false, "BASE_IMAGE", "node:20", true},
		{"export IMG=alpine:3.20", false, "IMG", "alpine:3.20", true},
		{"script: make test && make lint", false, "", "", false},
	} {
		n, v, ok := VarDef(c.line, c.docker)
		if n != c.name || v != c.value || ok != c.ok {
			t.Errorf("VarDef(%q) = %q, %q, %v; want %q, %q, %v", c.line, n, v, ok, c.name, c.value, c.ok)
		}
	}
}

func TestSquatOf(t *testing.T) {
	for _, c := range []struct{ name, eco, want string }{
		{"github.com/boltdb-go/bolt", "go", "github.com/boltdb/bolt"},
		{"github.com/sirupsen/logrus/hooks/syslog", "go", ""},
		{"github.com/Sirupsen/logrus", "go", ""},
		{"githb.com/spf13/cobra", "go", "github.com/spf13/cobra"},
		{"github.com/spf13/cobra-cli", "go", ""},
		{"gitee.com/acme/tools", "go", ""},
		{"rustdecimal", "cargo", "rust-decimal"},
		{"rust_decimal", "cargo", ""},
		{"arrow2", "cargo", ""},
		{"@typescript_eslinter/eslint", "npm", "@typescript-eslint"},
		{"@angular-eslint/builder", "npm", ""},
		{"org.fasterxml.jackson.core", "maven", "com.fasterxml.jackson"},
		{"com.squareup.okhttp", "maven", ""},
		{"org.springframework.boot", "maven", ""},
		{"colourama", "pypi", "colorama"},
		// A module run as a program is also a squat when it takes a
		// well-known tool's name; an import of a package of that name is not.
		{"github.com/golang-tools/stringer", "go-tool", "golang.org/x/tools (stringer)"},
		{"github.com/golang-tools/stringer", "go", ""},
		{"golang.org/x/tools/cmd/stringer", "go-tool", ""},
		{"github.com/golangci/golangci-lint/v2/cmd/golangci-lint", "go-tool", ""},
		{"github.com/acme/golangci-lint/v2/cmd/golangci-lint", "go-tool", "github.com/golangci/golangci-lint (golangci-lint)"},
		{"github.com/goIang/tools/cmd/stringer", "go-tool", "github.com/golang"},
		{"gotest.tools/gotestsum", "go-tool", ""},
	} {
		if got := SquatOf(c.name, c.eco); got != c.want {
			t.Errorf("SquatOf(%q, %s) = %q, want %q", c.name, c.eco, got, c.want)
		}
	}
}

func TestVarValue(t *testing.T) {
	lines := map[int]string{1: "ARG BASE=python:3.11", 3: "FROM ${BASE}", 4: "ARG BASE=python:3.12", 6: "FROM ${BASE}", 9: "ARG LATE=alpine"}
	for _, c := range []struct {
		name string
		n    int
		want string
		at   int
	}{
		{"BASE", 3, "python:3.11", 1},
		{"BASE", 6, "python:3.12", 4}, // the nearest definition above
		{"LATE", 3, "alpine", 9},      // else the nearest below
		{"NONE", 3, "", 0},
	} {
		if v, at := VarValue(c.name, c.n, lines, true); v != c.want || at != c.at {
			t.Errorf("VarValue(%s, %d) = %q, %d; want %q, %d", c.name, c.n, v, at, c.want, c.at)
		}
	}
}
