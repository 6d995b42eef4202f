package rules

import (
	"regexp"
	"strings"
	"sync"
)

// What a workflow's event hands it that someone outside the repository
// wrote. A ${{ }} expression of it expanded into a command, a checkout's
// repository or ref, or an agent's prompt is theirs to choose.

// outsiderEvents are the event payload objects whose text whoever opens a
// pull request, an issue, a discussion or a comment writes, or whose
// branch names a fork's pull request chose: the run or check suite it
// started carries its branch and commit message, a merge group its title.
var outsiderEvents = []string{"pull_request", "issue", "comment", "review", "review_comment", "discussion",
	"discussion_comment", "head_commit", "commits", "pages", "workflow_run", "merge_group", "check_run", "check_suite"}

// outsiderFields are the fields of those objects that hold free text:
// titles, bodies, messages, author fields, branch names, labels, a check
// run's output. Numbers and SHAs are not among them.
var outsiderFields = []string{"title", "body", "message", "email", "head_ref", "ref", "label", "head_branch", "default_branch",
	"description", "page_name", "display_title", "homepage", "name", "summary", "text"}

var (
	outsiderRe = sync.OnceValue(func() *regexp.Regexp {
		objs, fields := strings.Join(outsiderEvents, "|"), strings.Join(outsiderFields, "|")
		return regexp.MustCompile(`\$\{\{[^}]*?\b(?:github\.head_ref|github\.event\.(?:` + objs + `)\b[\w.\[\]*'"-]*?\.(?:` + fields + `))\b` +
			`|\$\{\{[^}]*?\btoJSON\(\s*github\.event(?:\.(?:` + objs + `))?\s*\)`)
	})
	// the base branch of a pull request is the repository's own
	baseRefRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\.base\.(?:ref|label)\b|\.base\.repo\.`) })
	// a repository_dispatch's payload: every field is what the sender chose
	dispatchRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\$\{\{[^}]*?\b(?:github\.event\.client_payload\b|toJSON\(\s*github\.event\.client_payload\s*\))`)
	})
)

// OutsiderText reports an expression (one ${{ }} or a line of them) that
// expands text someone outside the repository wrote: a title, a body, a
// branch name, a commit message, a check run's output. An expression that
// only tests that text (a comparison, contains) expands a boolean
// (ExprValue).
func OutsiderText(s string) bool {
	for _, m := range outsiderRe().FindAllString(ExprValues(s), -1) {
		if !baseRefRe().MatchString(m) {
			return true
		}
	}
	return false
}

// DispatchPayload reports an expression of a repository_dispatch event's
// client_payload: whoever holds a token that may dispatch to the
// repository chose it — another repository's workflow, a bot that relays
// pull requests and their comments.
func DispatchPayload(s string) bool { return dispatchRe().MatchString(ExprValues(s)) }

// outsiderEnv are the variables CI systems set to text whoever opens a pull
// or merge request chooses: its branch name, title, description, a commit
// message, its author. Expanded as data they are data; handed to eval, sh
// -c or another shell's script they are its code.
var outsiderEnv = map[string]bool{
	// GitHub Actions
	"GITHUB_HEAD_REF": true,
	// GitLab CI (and Woodpecker's CI_COMMIT_*)
	"CI_MERGE_REQUEST_TITLE": true, "CI_MERGE_REQUEST_DESCRIPTION": true, "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME": true,
	"CI_COMMIT_MESSAGE": true, "CI_COMMIT_TITLE": true, "CI_COMMIT_DESCRIPTION": true, "CI_COMMIT_BRANCH": true,
	"CI_COMMIT_REF_NAME": true, "CI_COMMIT_AUTHOR": true, "CI_COMMIT_SOURCE_BRANCH": true, "CI_COMMIT_PULL_REQUEST_TITLE": true,
	// Travis CI, CircleCI, Bitbucket
	"TRAVIS_COMMIT_MESSAGE": true, "TRAVIS_PULL_REQUEST_BRANCH": true, "CIRCLE_BRANCH": true, "BITBUCKET_BRANCH": true,
	// Buildkite, Drone
	"BUILDKITE_MESSAGE": true, "BUILDKITE_BRANCH": true, "DRONE_COMMIT_MESSAGE": true, "DRONE_SOURCE_BRANCH": true,
	"DRONE_PULL_REQUEST_TITLE": true,
	// Azure Pipelines' variables as the environment holds them, Jenkins
	"BUILD_SOURCEVERSIONMESSAGE": true, "SYSTEM_PULLREQUEST_SOURCEBRANCH": true, "CHANGE_TITLE": true, "CHANGE_BRANCH": true,
}

// OutsiderEnv reports a CI variable that holds text whoever opens a pull
// request chooses (outsiderEnv).
func OutsiderEnv(name string) bool { return outsiderEnv[name] }
