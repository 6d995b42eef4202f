package rules

import "testing"

func TestConfigPulls(t *testing.T) {
	for _, c := range []struct {
		path, text string
		want       []ConfigPull
	}{
		{".gitlab-ci.yml", "include:\n  - local: /a.yml\n  - project: acme/ci\n    ref: v1\n    file: /b.yml\n  - remote: https://x.invalid/c.yml\n  - 'https://x.invalid/d.yml'\n  - component: gitlab.com/o/c/lint@main\ntest:\n  script: make",
			[]ConfigPull{{N: 3, Kind: "project", Ref: "acme/ci", Version: "v1"}, {N: 6, Kind: "remote", Ref: "https://x.invalid/c.yml"},
				{N: 7, Kind: "remote", Ref: "https://x.invalid/d.yml"}, {N: 8, Kind: "component", Ref: "gitlab.com/o/c/lint", Version: "main"}}},
		{".gitlab-ci.yml", "include: { remote: 'https://x.invalid/a.yml' }\ninclude:\n  - { remote: https://x.invalid/b.yml, integrity: sha256-abc }",
			[]ConfigPull{{N: 1, Kind: "remote", Ref: "https://x.invalid/a.yml"}, {N: 3, Kind: "remote", Ref: "https://x.invalid/b.yml", Version: "sha256-abc"}}},
		// project: outside include: triggers another project's pipeline.
		{".gitlab-ci.yml", "deploy:\n  trigger:\n    project: acme/deploy\n    branch: main", nil},
		{".circleci/config.yml", "version: 2.1\norbs:\n  node: circleci/node@5.1.0\njobs:\n  a:\n    docker:\n      - image: cimg/base:current",
			[]ConfigPull{{N: 3, Kind: "orb", Ref: "circleci/node", Version: "5.1.0"}}},
		{"azure-pipelines.yml", "resources:\n  repositories:\n    - repository: t\n      type: github\n      name: o/templates\n      ref: refs/heads/main\nsteps:\n  - template: a.yml@t",
			[]ConfigPull{{N: 5, Kind: "repository", Ref: "o/templates", Version: "refs/heads/main", Type: "github"}}},
		{"Jenkinsfile", "@Library('lib@main') _\nlibrary identifier: 'x@v1', retriever: modernSCM([$class: 'GitSCMSource', remote: 'https://x.invalid/l.git'])",
			[]ConfigPull{{N: 2, Kind: "library", Ref: "https://x.invalid/l.git", Version: "v1"}}},
		{".buildkite/pipeline.yml", "steps:\n  - command: make\n    plugins:\n      - docker#v5.9.0:\n          image: node:20\n      - o/p#main: ~",
			[]ConfigPull{{N: 4, Kind: "plugin", Ref: "docker", Version: "v5.9.0"}, {N: 6, Kind: "plugin", Ref: "o/p", Version: "main"}}},
	} {
		got := ConfigPulls(c.path, numbered(c.text))
		if len(got) != len(c.want) {
			t.Errorf("%s: got %+v, want %+v", c.path, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: got %+v, want %+v", c.path, got[i], c.want[i])
			}
		}
	}
}

func TestForeignCheckouts(t *testing.T) {
	text := "steps:\n  - uses: actions/checkout@v4\n  - uses: actions/checkout@v4\n    with:\n      repository: o/tools\n      ref: main\n      path: ./tools/\n  - uses: actions/checkout@v4\n    with:\n      repository: ${{ github.event.pull_request.head.repo.full_name }}\n  - uses: ./tools/setup\n  - run: python3 tools/gen.py"
	got := ForeignCheckouts(numbered(text))
	want := []Checkout{{N: 5, Repo: "o/tools", Ref: "main", Path: "tools"}}
	if len(got) != 1 || got[0] != want[0] {
		t.Errorf("got %+v, want %+v", got, want)
	}
	for line, want := range map[string]bool{"  - uses: ./tools/setup": true, "  - run: python3 tools/gen.py": true, "  - run: ls tools": false, "  - uses: ./toolsx/a": false} {
		if RunsFrom(line, "tools") != want {
			t.Errorf("RunsFrom(%q) = %v", line, !want)
		}
	}
}
