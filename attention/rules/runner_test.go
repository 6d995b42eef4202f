package rules

import (
	"reflect"
	"testing"
)

// Every pattern of the runner's reader is compiled: a field left out of
// the table would be nil and panic on the first file that reaches it.
func TestRunnerPatternsCompiled(t *testing.T) {
	v := reflect.ValueOf(runnerRe()).Elem()
	for i := 0; i < v.NumField(); i++ {
		if v.Field(i).IsNil() {
			t.Errorf("runnerRe().%s is nil", v.Type().Field(i).Name)
		}
	}
}

// A fetch of the pull ref only adds refs; a checkout of it puts the pull
// request's code in the tree.
func TestTreeChange(t *testing.T) {
	for s, want := range map[string]bool{
		`git fetch origin "pull/7/head:pr"`:             false,
		`git diff --name-only main...pr`:                false,
		`git checkout --detach FETCH_HEAD`:              true,
		`gh pr diff 7 | git apply`:                      true,
		`git worktree add ../pr pr`:                     true,
		`gh pr checkout 7`:                              true,
		`git -c advice.detachedHead=false switch -d pr`: true,
	} {
		if got := TreeChange(s); got != want {
			t.Errorf("TreeChange(%q) = %v, want %v", s, got, want)
		}
	}
}

// A shell tool restricted to named commands is not a shell.
func TestShellTools(t *testing.T) {
	for s, want := range map[string]bool{
		`{ "coreTools": ["run_shell_command", "write_file"] }`:                         true,
		`"coreTools": ["run_shell_command(echo)", "run_shell_command(gh label list)"]`: false,
		`allowed_tools: "Bash(*),Edit"`:                                                true,
		`--allowedTools "Bash(gh pr diff:*),Bash(gh pr view:*)"`:                       false,
		`claude_args: --allowedTools "Bash,Edit,Write"`:                                true,
	} {
		if got := runnerRe().shellTools.MatchString(s); got != want {
			t.Errorf("shellTools(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestTreeBuild(t *testing.T) {
	for s, want := range map[string]bool{
		"npm ci && npm test":                  true,
		"pip install anthropic rstwrap":       false,
		"pip install -e .":                    true,
		"python /tmp/changelog_bot.py --pr 1": false,
		"python -m pytest":                    true,
		"docker compose -f ci.yml up --build": true,
		". scripts/env.sh && echo ok":         true,
		"yarn":                                true,
		"echo building":                       false,
	} {
		if got := treeBuild(s); got != want {
			t.Errorf("treeBuild(%q) = %v, want %v", s, got, want)
		}
	}
}
