package rules

import (
	"regexp"
	"strings"
	"sync"
)

// agentConfig matches the settings of coding agents and editors that run
// a command of their own (a hook at each session, an MCP server, a task on
// opening a folder): a program that writes one has its command run again in
// every later session, as a shell profile's line runs in every shell. The
// parts may be separate string literals (path.join(home, '.claude',
// 'settings.json')).
const agentConfig = `(?:^|[/~'"\s])\.(?:claude|gemini|qwen)["'/\\, ]+settings(?:\.local)?\.json|(?:^|[/~'"\s])\.claude\.json\b|` +
	`(?:^|[/~'"\s])\.(?:cursor|windsurf|codeium)["'/\\, ]+(?:[\w-]+["'/\\, ]+)?(?:hooks|mcp|mcp_config)\.json|(?:^|[/~'"\s])\.codex["'/\\, ]+config\.toml|` +
	`(?:^|[/~'"\s])\.vscode["'/\\, ]+tasks\.json|\bCode["'/\\, ]+User["'/\\, ]+(?:settings|tasks)\.json|` +
	`(?:^|[/~'"\s])\.config["'/\\, ]+fish["'/\\, ]+config\.fish|\bPowerShell["'/\\, ]+\w*[Pp]rofile\.ps1`

// StartupPath reports, in a program's code, the user's R profile: R
// sources it at every start, so a program that writes a line into it has
// that line run in every later R session on the machine, as a shell
// profile's line runs in every shell. Shell lines are not read for it:
// images and CI set R's repositories there with echo >>, which is set-up,
// not a program's hidden write. (A project's own .Rprofile is in the tree.)
func StartupPath(p string) bool { return startupRe().MatchString(p) }

var startupRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`~/\.Rprofile\b|\bHOME\b[^\n]*["'/\\, ]\.Rprofile\b|\bR_PROFILE_USER\b`)
})

// ReturnedExpr is what a return or yield statement hands back.
func ReturnedExpr(ts string) (string, bool) {
	for _, kw := range []string{"return ", "yield ", "yield from "} {
		if r, ok := strings.CutPrefix(ts, kw); ok {
			return r, true
		}
	}
	return "", false
}

// CompilerSeat reports a cargo setting that puts a program in the
// compiler's place: it is handed every crate's compilation, dependencies
// and release builds included, and can change what is built from what was
// reviewed (a source file swapped at compile time), wherever it lives.
// A linker or a test runner in the tree is read as build.rs is.
func CompilerSeat(key string) bool {
	return key == "rustc-wrapper" || key == "rustc-workspace-wrapper" || key == "rustc"
}

// CompilerSeatWhy is the reason a program in the compiler's place is high.
const CompilerSeatWhy = "every crate the build compiles passes through it, dependencies and release builds included: it can change what is built from what was reviewed, and what it does is not in this config"

// CompilesSource reports a recipe line that compiles or links: a source
// file a build downloaded and then compiles becomes part of what it builds
// and runs, as a downloaded script it includes would.
func CompilesSource(s string) bool { return compileRe().MatchString(s) }

var compileRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$[({](?:CC|CXX|LD|FC|GO|RUSTC|NVCC)[)}]|(?:^|[\s;&|])(?:gcc|g\+\+|cc|c\+\+|clang|clang\+\+|rustc|nvcc|javac|go\s+build|go\s+run)\s`)
})
