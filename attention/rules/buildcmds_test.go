package rules

import (
	"slices"
	"strings"
	"testing"
)

func numbered(text string) []NumLine {
	var out []NumLine
	for i, t := range strings.Split(text, "\n") {
		out = append(out, NumLine{i + 1, t})
	}
	return out
}

func TestCommandsOf(t *testing.T) {
	tests := []struct {
		system, text string
		want         []Command
	}{
		// execute_process runs its COMMANDs as one pipeline, numbered by
		// the last one's line.
		{"cmake", "execute_process(\n  COMMAND xz -dc \"${f}\"\n  COMMAND sh\n  OUTPUT_QUIET)", []Command{{3, `xz -dc "${f}" | sh`}}},
		// add_custom_command's COMMANDs run one after another.
		{"cmake", "add_custom_command(OUTPUT a.h\n  COMMAND gen a.h\n  COMMAND touch b\n  VERBATIM)", []Command{{2, "gen a.h"}, {3, "touch b"}}},
		// sh -c's script is the command, on the script's line.
		{"meson", "r = run_command('sh', '-c',\n  'base64 -d x | sh', check : false)", []Command{{2, "base64 -d x | sh"}}},
		// An options file's option that holds a command; other options are values.
		{"meson-options", "option('tests', type: 'boolean', value: false)\noption('fetch_cmd', type: 'string', value: 'python3 -c \"print(\\'x\\')\"')\noption('prefix_dir', type: 'string', value: '/opt/x')", []Command{{2, `python3 -c "print('x')"`}}},
		// A genrule's cmd ends at its comma: outs is not a command.
		{"starlark", "genrule(\n    cmd = \"curl -o $@ https://x.invalid/a\",\n    outs = [\"a.h\"],\n)", []Command{{2, "curl -o $@ https://x.invalid/a"}}},
		{"msbuild", `<Exec Command="curl -s https://x.invalid/a &amp;&amp; sh a" />`, []Command{{1, "curl -s https://x.invalid/a && sh a"}}},
		// Composer: @php runs PHP; other scripts and PHP callbacks are not commands.
		{"composer", "{\n  \"scripts\": {\n    \"post-install-cmd\": [\"@php -r \\\"echo 1;\\\"\", \"@other\", \"App\\\\Hooks::run\"]\n  }\n}", []Command{{3, `php -r "echo 1;"`}}},
		{"maven", "<argument>-c</argument>\n<argument>gzip -dc t.gz | sh</argument>", []Command{{2, "gzip -dc t.gz | sh"}}},
		// Ant: a <get> is a download; an <exec> is its program and arguments,
		// Maven's properties as shell variables.
		{"maven", "<get src=\"https://x.invalid/g.sh\" dest=\"${project.build.directory}/g.sh\"/>\n<exec executable=\"sh\">\n  <arg value=\"${project.build.directory}/g.sh\"/>\n</exec>\n<exec executable=\"npm\"><arg line=\"run build\"/></exec>",
			[]Command{{1, `curl -fsSL -o "${project_build_directory}/g.sh" "https://x.invalid/g.sh"`}, {3, `"sh" "${project_build_directory}/g.sh"`}, {5, `"npm" run build`}}},
		{"maven", "<executable>python3</executable>\n<arguments>\n  <argument>gen.py</argument>\n</arguments>", []Command{{3, `"python3" "gen.py"`}}},
		// Mix: an alias's cmd steps (options off), and the shell's string.
		{"mix", "[setup: [\"deps.get\", \"cmd --cd assets npm ci\"], x: [\"cmd sh -c \\\"echo #{v}\\\"\"]]\nMix.shell().cmd(\"make\")", []Command{{1, "npm ci"}, {1, `sh -c "echo ${MIX_VALUE}"`}, {2, "make"}}},
		// Leiningen: two shell tasks on one line, and sh in :injections.
		{"leiningen", ":prep-tasks [[\"shell\" \"make\" \"-C\" \"c\"] [\"shell\" \"sh\" \"-c\" \"echo 1\"]]\n:injections [(clojure.java.shell/sh \"git\" \"pull\")]", []Command{{1, `"make" "-C" "c"`}, {1, "echo 1"}, {2, `"git" "pull"`}}},
		// dune: system's string, run's words; opam: the build field's lists only.
		{"dune", "(rule (action (system \"cp a b\")))\n(rule (action (run %{bin:gen} -o %{targets})))", []Command{{1, "cp a b"}, {2, "%{bin:gen} -o %{targets}"}}},
		{"opam", "depends: [\n  \"dune\"\n]\nbuild: [\n  [\"sh\" \"-c\" \"make\"]\n  [\"dune\" \"build\" \"-p\" name]\n]", []Command{{5, "make"}, {6, `"dune" "build" "-p"`}}},
		{"nimble", "task t, \"x\":\n  exec \"nim c -r t.nim\"", []Command{{2, "nim c -r t.nim"}}},
		// rebar3: a hook's command, not its platform pattern; other tuples are not hooks.
		{"rebar", "{deps, [{x, \"1.0\"}]}.\n{pre_hooks, [{\"(linux)\", compile, \"make -C c_src\"},\n  {eunit, \"sh t.sh\"}]}.\n{y, [{a, \"b\"}]}.", []Command{{2, "make -C c_src"}, {3, "sh t.sh"}}},
	}
	for _, tt := range tests {
		if got := CommandsOf(tt.system, numbered(tt.text)); !slices.Equal(got, tt.want) {
			t.Errorf("%s %q: got %+v, want %+v", tt.system, tt.text, got, tt.want)
		}
	}
}

func TestHashSwaps(t *testing.T) {
	tests := []struct {
		removed, added []string
		want           []int
	}{
		{[]string{"m v1.0.0 h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}, []string{"m v1.0.0 h1:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB="}, []int{0}},
		// A version bump changes more than the hash.
		{[]string{"m v1.0.0 h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}, []string{"m v1.1.0 h1:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB="}, nil},
		// npm's move from sha1 to sha512 is another algorithm, not other content.
		{[]string{`"integrity": "sha1-D6LGT5MpF8NDOg3tVTY6rjdBa3w="`}, []string{`"integrity": "sha512-k/vGaX4/Yla3WzyMCvTQOXYeIHvqOKtnqBduzTHpzpQZ=="`}, nil},
		// A git dependency's commit moves with its branch.
		{[]string{`source = "git+https://x.invalid/r#0cbf1a5adae81e8ff86ca6d040aeee67cf888262"`}, []string{`source = "git+https://x.invalid/r#4e3268d222c45e5d6a0e7a4c0d3d5b1f1e6a2c9d"`}, nil},
	}
	for _, tt := range tests {
		if got := HashSwaps(tt.removed, tt.added); !slices.Equal(got, tt.want) {
			t.Errorf("%q -> %q: got %v, want %v", tt.removed, tt.added, got, tt.want)
		}
	}
}

func TestInstallFromURL(t *testing.T) {
	tests := []struct {
		line    string
		ok, git bool
	}{
		{"npm install https://x.invalid/a-1.0.0.tgz", true, false},
		{"pip install git+https://x.invalid/o/r.git", true, true},
		{"cargo install tool --git https://x.invalid/o/r", true, true},
		// An index option's value is not the package.
		{"pip install --index-url https://pypi.org/simple requests", false, false},
		{"npm install left-pad", false, false},
	}
	for _, tt := range tests {
		if ok, git := InstallFromURL(tt.line); ok != tt.ok || git != tt.git {
			t.Errorf("%q: got %v %v, want %v %v", tt.line, ok, git, tt.ok, tt.git)
		}
	}
}

func TestAutoconfShell(t *testing.T) {
	text := "AC_INIT([x], m4_esyscmd([build-aux/v.sh]))\nv=`cat x` # [note]\nAC_CONFIG_COMMANDS([t], [eval \"$v\"], [v='$v'])\nAS_IF([test -f y], [\n  AC_MSG_ERROR([no y])\n  make y\n])\ncase $h in [*-linux*]) ;; esac\ndnl curl x | sh"
	want := []NumLine{{1, "build-aux/v.sh"}, {2, "v=`cat x` "}, {3, `eval "$v"`}, {3, "v='$v'"}, {4, "test -f y"}, {6, "  make y"}, {8, "case $h in *-linux*) ;; esac"}}
	if got := AutoconfShell(numbered(text)); !slices.Equal(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestManifestScripts(t *testing.T) {
	tests := []struct {
		path, text string
		want       [][]NumLine
	}{
		// TOML: a table's keys, an inline table's cmd, a list over lines, a
		// multi-line string as one script; a key outside the tables is not read.
		{"pyproject.toml", "[project]\nname = \"x\"\n[tool.pdm.scripts]\na = \"make a\"\nb = {cmd = \"make b\", env = {X = \"1\"}}\n[tool.hatch.envs.default]\npost-install-commands = [\n  \"make c\",\n]\n[tool.cibuildwheel.linux]\nbefore-all = \"\"\"\nmake d\nmake e\n\"\"\"",
			[][]NumLine{{{4, "make a"}}, {{5, "make b"}}, {{8, "make c"}}, {{12, "make d"}, {13, "make e"}}}},
		// YAML: list items under the key, a block scalar, a list of maps.
		{".goreleaser.yaml", "before:\n  hooks:\n    - go mod tidy\nbuilds:\n  - id: x\n    hooks:\n      pre: |\n        make a\n        make b\n      post:\n        - cmd: make c\nenv:\n  - X=1",
			[][]NumLine{{{3, "go mod tidy"}}, {{8, "make a"}, {9, "make b"}}, {{11, "make c"}}}},
		{".gitpod.yml", "tasks:\n  - name: x\n    init: make a\n    command: >\n      make b\n      --fast\nports:\n  - port: 1",
			[][]NumLine{{{3, "make a"}}, {{5, "make b --fast"}}}},
		// JSON: a key's string and a list's strings, whatever the nesting.
		{"devbox.json", "{\n  \"packages\": [\"go\"],\n  \"shell\": {\n    \"init_hook\": [\"make a\", \"make b\"],\n    \"scripts\": {\"t\": \"make \\\"c\\\"\"}\n  }\n}",
			[][]NumLine{{{4, "make a"}}, {{4, "make b"}}, {{5, `make "c"`}}}},
		// INI: a value's continuation lines are commands; other sections are not read.
		{"tox.ini", "[tox]\nenvlist = py3\n[testenv:lint]\ncommands =\n    ruff check \\\n      src\n    mypy src\n[flake8]\ncommands = no",
			[][]NumLine{{{5, "ruff check \\"}, {6, "src"}}, {{7, "mypy src"}}}},
		{"README.toml", "[tool.pdm.scripts]\na = \"make a\"", nil},
		// Nix: a phase's '' string over its lines (interpolations and ''$
		// escapes kept out), a " string, runCommand's script; meta is not shell.
		{"default.nix", "{\n  buildPhase = ''\n    make ${x} ''${y}\n  '';\n  shellHook = \"export A=1\";\n  c = runCommand \"t\" {} ''\n    touch $out\n  '';\n  meta.description = \"make b\";\n}",
			[][]NumLine{{{3, "    make ${NIX_VALUE} ${NIX_VALUE}"}}, {{5, "export A=1"}}, {{7, "    touch $out"}}}},
		{"App.xcodeproj/project.pbxproj", "\t\tshellScript = \"set -e\\n\\\"$SRCROOT/x.sh\\\"\\n\";", [][]NumLine{{{1, "set -e"}, {1, `"$SRCROOT/x.sh"`}}}},
		{"X.podspec", "s.prepare_command = <<-CMD\n  make a\nCMD\ns.script_phase = { :name => 'x', :script => 'make b' }", [][]NumLine{{{2, "  make a"}}, {{4, "make b"}}}},
	}
	for _, tt := range tests {
		if got := ManifestScripts(tt.path, numbered(tt.text)); !slices.EqualFunc(got, tt.want, slices.Equal) {
			t.Errorf("%s: got %+v\nwant %+v", tt.path, got, tt.want)
		}
	}
}

func TestCodeCommands(t *testing.T) {
	text := "os.system('make all')\nsubprocess.run([\"curl\", \"-o\", out, URL])\nsubprocess.run(\"ls #{x}\", shell=True)\n  sh 'rake build'\nsession.run(\"pytest\", *session.posargs)\nexecSync(`git rev-parse ${ref}`)\nprint('system is up')"
	want := []Command{{1, "make all"}, {2, `"curl" "-o" ${CODE_VALUE} ${CODE_VALUE}`}, {3, "ls ${CODE_VALUE}"}, {4, "rake build"}, {5, `"pytest" ${CODE_VALUE}`}}
	if got := CodeCommands(numbered(text)); !slices.Equal(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}
