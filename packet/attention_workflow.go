package packet

// The workflow rules read GitHub Actions workflows, composite actions and
// reusable workflows for what zizmor and actionlint look for, but on the
// pull request's diff: dangerous triggers, a checkout of the pull request's
// head under them, untrusted ${{ }} text expanded in run: or script:,
// unpinned actions, widened permissions, self-hosted runners,
// secrets: inherit, persisted credentials and GITHUB_ENV writes.
//
// They follow the YAML's structure line by line (which key a line is under,
// whether it is inside a run: block) rather than parse it: a diff shows
// hunks of a file, not the file, and a hunk that starts inside a run: block
// is not YAML a parser would take. Context lines count for the structure;
// only added lines give items.

import (
	"regexp"
	"strings"
	"sync"
)

// workflowScan follows one workflow file through its hunks.
type workflowScan struct {
	dangerous bool // the file triggers on pull_request_target or workflow_run
	forkPR    bool // ... or on pull_request or issue_comment, which fork pull requests start

	// runIndent is the column of the run:/script: key whose block scalar
	// the scan is in, -1 when not in one.
	runIndent int
	// unknown is set at a hunk's start, before any key line told where the
	// scan is: a line there that is not a key may be inside a run: block.
	unknown bool
}

// wfRegexps are the workflow rules' patterns, compiled on first use so
// that starting vetter does not pay for them (startup_test.go).
type wfRegexps struct {
	wfKeyLine      *regexp.Regexp
	wfFlowRun      *regexp.Regexp
	wfRunKey       *regexp.Regexp
	wfTriggerLine  *regexp.Regexp
	wfDangerous    *regexp.Regexp
	wfUntrusted    *regexp.Regexp
	wfBaseRef      *regexp.Regexp
	wfHeadCheckout *regexp.Regexp
	wfUses         *regexp.Regexp
	wfSHA          *regexp.Regexp
	wfWriteAll     *regexp.Regexp
	wfWriteScope   *regexp.Regexp
	wfSelfHosted   *regexp.Regexp
	wfInherit      *regexp.Regexp
	wfPersist      *regexp.Regexp
	wfAllSecrets   *regexp.Regexp
	wfSecret       *regexp.Regexp
	wfSend         *regexp.Regexp
	wfRunnerToken  *regexp.Regexp
	wfEnvFile      *regexp.Regexp
	wfEnvHijack    *regexp.Regexp
	wfUnsecure     *regexp.Regexp
}

var wfRe = sync.OnceValue(func() *wfRegexps {
	return &wfRegexps{
		wfFlowRun:     regexp.MustCompile(`[{,]\s*(?:run|script)\s*:`),
		wfKeyLine:     regexp.MustCompile(`^(\s*)(?:-\s+)?([A-Za-z0-9_.-]+)\s*:(?:\s|$)`),
		wfRunKey:      regexp.MustCompile(`^(\s*)(?:-\s+)?(run|script)\s*:\s*(.*)$`),
		wfTriggerLine: regexp.MustCompile(`^\s*(?:on\s*:\s*)?(?:-\s*)?\[?[^#=]*\b(pull_request_target|workflow_run|pull_request|issue_comment)\b\s*(?::|,|\]|$)`),
		wfDangerous:   regexp.MustCompile(`\b(?:pull_request_target|workflow_run)\b`),
		// wfUntrusted is text in the github context the pull request's author
		// (or any commenter) chooses: titles, bodies, branch names, commit
		// messages and author fields. Numbers, SHAs, matrix.* and inputs.* are
		// not in it.
		wfUntrusted:    regexp.MustCompile(`\$\{\{[^}]*?\b(?:github\.head_ref|github\.event\.(?:pull_request|issue|comment|review|review_comment|discussion|discussion_comment|head_commit|commits|pages|workflow_run|merge_group)\b[\w.\[\]*'"-]*?\.(?:title|body|message|email|head_ref|ref|label|head_branch|default_branch|description|page_name|display_title|homepage|name))\b`),
		wfBaseRef:      regexp.MustCompile(`\.base\.(?:ref|label)\b|\.base\.repo\.`),
		wfHeadCheckout: regexp.MustCompile(`^\s*(?:-\s+)?ref\s*:\s*["']?\$\{\{\s*(?:github\.event\.pull_request\.head\.(?:sha|ref)|github\.head_ref|github\.event\.workflow_run\.head_(?:sha|branch)|format\([^)]*refs/pull)|^\s*(?:-\s+)?ref\s*:\s*["']?refs/pull/|\bgh\s+pr\s+checkout\b|\bgit\s+fetch\b.*\bpull/`),
		wfUses:         regexp.MustCompile(`^\s*(?:-\s+)?uses\s*:\s*["']?([^\s"'#@]+)(?:@([^\s"'#]+))?`),
		wfSHA:          regexp.MustCompile(`^[0-9a-f]{40}$`),
		wfWriteAll:     regexp.MustCompile(`^\s*permissions\s*:\s*["']?write-all\b`),
		wfWriteScope:   regexp.MustCompile(`^\s*(contents|actions|id-token|packages|pages|deployments|attestations|checks|statuses|pull-requests|issues|security-events|repository-projects|discussions)\s*:\s*["']?write\b`),
		wfSelfHosted:   regexp.MustCompile(`^\s*(?:runs-on\s*:.*\bself-hosted\b|-\s*["']?self-hosted\b)`),
		wfInherit:      regexp.MustCompile(`^\s*secrets\s*:\s*inherit\b`),
		wfPersist:      regexp.MustCompile(`^\s*persist-credentials\s*:\s*["']?true\b`),
		wfAllSecrets:   regexp.MustCompile(`\$\{\{\s*(?:toJSON\(\s*secrets\s*\)|secrets\s*\}\})`),
		wfSecret:       regexp.MustCompile(`\$\{\{[^}]*\bsecrets\.|\$\{\{[^}]*\bgithub\.token\b`),
		wfSend:         regexp.MustCompile(`\b(?:curl|wget|nc|ncat|netcat|socat|Invoke-WebRequest|iwr|fetch|requests\.post)\b|https?://`),
		wfRunnerToken:  regexp.MustCompile(`\bACTIONS_(?:RUNTIME_TOKEN|ID_TOKEN_REQUEST_(?:TOKEN|URL)|CACHE_URL|RESULTS_URL)\b`),
		wfEnvFile:      regexp.MustCompile(`\$\{?GITHUB_(?:ENV|PATH)\b`),
		wfEnvHijack:    regexp.MustCompile(`\b(?:LD_PRELOAD|LD_LIBRARY_PATH|BASH_ENV|ENV|NODE_OPTIONS|PYTHONPATH|PYTHONSTARTUP|PERL5OPT|RUBYOPT|GIT_SSH_COMMAND|GIT_CONFIG_\w+|JAVA_TOOL_OPTIONS|DYLD_INSERT_LIBRARIES)=`),
		wfUnsecure:     regexp.MustCompile(`\bACTIONS_ALLOW_UNSECURE_COMMANDS\b|::(?:set-env|add-path)\b`),
	}
})

// newWorkflowScan reads the file's triggers from every line the diff shows
// of its new side, so a rule on one line knows what starts the workflow.
func newWorkflowScan(f *DiffFile) *workflowScan {
	w := &workflowScan{runIndent: -1}
	for _, h := range f.Hunks {
		if h == nil {
			continue
		}
		for _, l := range h.Lines {
			if l.Kind == LineRemoved || yamlComment(l.Text) {
				continue
			}
			m := wfRe().wfTriggerLine.FindStringSubmatch(l.Text)
			if m == nil || strings.Contains(l.Text, "event_name") || strings.Contains(l.Text, "${{") {
				continue
			}
			switch m[1] {
			case "pull_request_target", "workflow_run":
				w.dangerous, w.forkPR = true, true
			default:
				w.forkPR = true
			}
			// The rest of the line may name more triggers: "on: [push, pull_request_target]".
			if wfRe().wfDangerous.MatchString(l.Text) {
				w.dangerous = true
			}
		}
	}
	return w
}

func (w *workflowScan) startHunk() { w.runIndent, w.unknown = -1, true }

func yamlComment(s string) bool { return strings.HasPrefix(strings.TrimSpace(s), "#") }

func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }

// step moves the scan past one line of the new side and reports whether the
// line is shell or script text (inside run: or script:).
func (w *workflowScan) step(s string) bool {
	if strings.TrimSpace(s) == "" {
		return w.runIndent >= 0
	}
	ind := indentOf(s)
	if w.runIndent >= 0 {
		if ind > w.runIndent {
			return true
		}
		w.runIndent = -1
	}
	if m := wfRe().wfRunKey.FindStringSubmatch(s); m != nil {
		w.unknown = false
		col := len(m[1])
		if strings.HasPrefix(strings.TrimSpace(s), "-") {
			col = strings.Index(s, m[2])
		}
		rest := strings.TrimSpace(m[3])
		if rest == "" || rest[0] == '|' || rest[0] == '>' {
			w.runIndent = col
			return false
		}
		return true
	}
	if wfRe().wfFlowRun.MatchString(s) {
		w.unknown = false
		return true // a flow mapping on one line: "- {name: x, run: echo ...}"
	}
	if wfRe().wfKeyLine.MatchString(s) {
		w.unknown = false
		return false
	}
	// A line that is not a key at the top of a hunk is most likely the
	// middle of a run: block the hunk cut into.
	return w.unknown && !yamlComment(s)
}

// check applies the workflow rules to an added line.
func (w *workflowScan) check(s string, inRun bool) (ruleHit, bool) {
	if yamlComment(s) {
		return ruleHit{}, false
	}
	hit := func(rule string, kind AttentionKind, sev, title, why string) (ruleHit, bool) {
		return ruleHit{rule, kind, sev, title, why}, true
	}
	if m := wfRe().wfUntrusted.FindString(s); m != "" && !wfRe().wfBaseRef.MatchString(m) {
		switch {
		case inRun:
			return hit("gha-script-injection", AttentionExecute, AttentionHigh,
				"expands untrusted pull-request text into a command (script injection)",
				"a branch name, title or comment is written by whoever opens the pull request, and here it becomes shell or script code run with the job's token and secrets")
		case wfRe().wfEnvFile.MatchString(s):
			return hit("gha-env-injection", AttentionExecute, AttentionHigh,
				"writes untrusted pull-request text into GITHUB_ENV or GITHUB_PATH",
				"every later step of the job runs with what the pull request's author chose as its environment")
		}
	}
	if wfRe().wfAllSecrets.MatchString(s) {
		return hit("gha-all-secrets", AttentionCredential, AttentionHigh, "hands every secret to the step (toJSON(secrets))",
			"every secret the repository holds reaches this step, where the change's code can send them anywhere")
	}
	if wfRe().wfInherit.MatchString(s) {
		return hit("gha-secrets-inherit", AttentionCredential, AttentionHigh, "passes every secret to a called workflow (secrets: inherit)",
			"the called workflow gets every secret of the repository, not the few it needs")
	}
	if wfRe().wfTriggerLine.MatchString(s) && wfRe().wfDangerous.MatchString(s) && !strings.Contains(s, "event_name") && !strings.Contains(s, "${{") {
		return hit("gha-dangerous-trigger", AttentionCIFile, AttentionHigh, "workflow runs on pull_request_target or workflow_run",
			"these triggers run with the repository's write token and secrets even for a fork's pull request")
	}
	if wfRe().wfHeadCheckout.MatchString(s) {
		if w.dangerous {
			return hit("gha-untrusted-checkout", AttentionCIFile, AttentionHigh, "checks out the pull request's head in a privileged workflow",
				"on pull_request_target or workflow_run the pull request's own code then runs with the repository's write token and secrets")
		}
		return hit("gha-pr-checkout", AttentionCIFile, AttentionLow, "checks out the pull request's head",
			"normal on pull_request; it would be dangerous under pull_request_target")
	}
	if wfRe().wfUnsecure.MatchString(s) {
		return hit("gha-unsecure-commands", AttentionExecute, AttentionHigh, "re-enables set-env/add-path workflow commands",
			"any step's output can then set the environment of the steps after it")
	}
	if wfRe().wfWriteAll.MatchString(s) {
		return hit("gha-excessive-permissions", AttentionCIFile, AttentionHigh, "workflow asks for write-all permissions",
			"the job's token can then push code, publish packages and change settings for whatever the change runs")
	}
	if m := wfRe().wfWriteScope.FindStringSubmatch(s); m != nil {
		switch m[1] {
		case "contents", "actions", "id-token", "packages", "pages", "deployments", "attestations":
			return hit("gha-excessive-permissions", AttentionCIFile, AttentionHigh, "widens the job token's permissions ("+m[1]+": write)",
				"the job's token can then push code, publish, deploy or mint cloud credentials for whatever the change runs")
		}
		return hit("gha-excessive-permissions", AttentionCIFile, AttentionMedium, "widens the job token's permissions ("+m[1]+": write)",
			"the job's token can then write to the repository's "+m[1]+" for whatever the change runs")
	}
	if m := wfRe().wfUses.FindStringSubmatch(s); m != nil {
		if r, ok := usesHit(m[1], m[2]); ok {
			return r, true
		}
	}
	if wfRe().wfPersist.MatchString(s) {
		return hit("gha-persist-credentials", AttentionCredential, AttentionHigh, "checkout keeps the job's token on disk (persist-credentials: true)",
			"every later step, the change's own build and tests included, can read the token from .git/config")
	}
	if wfRe().wfSelfHosted.MatchString(s) {
		if w.forkPR {
			return hit("gha-self-hosted-runner", AttentionCIFile, AttentionHigh, "runs pull-request code on a self-hosted runner",
				"a self-hosted runner keeps what a job leaves behind and sits inside the project's network, and this workflow runs for pull requests")
		}
		return hit("gha-self-hosted-runner", AttentionCIFile, AttentionMedium, "runs on a self-hosted runner",
			"a self-hosted runner keeps what a job leaves behind and sits inside the project's network")
	}
	if inRun && wfRe().wfEnvFile.MatchString(s) {
		switch {
		case wfRe().wfEnvHijack.MatchString(s):
			return hit("gha-env-hijack", AttentionExecute, AttentionHigh, "sets a variable that makes later steps load code (LD_PRELOAD, NODE_OPTIONS, BASH_ENV)",
				"every later step of the job, the ones with secrets included, loads what it names")
		case w.dangerous:
			return hit("gha-github-env", AttentionExecute, AttentionHigh, "writes GITHUB_ENV or GITHUB_PATH in a privileged workflow",
				"on pull_request_target or workflow_run, what the pull request puts there runs in every later step with the write token")
		}
		return hit("gha-github-env", AttentionExecute, AttentionLow, "writes GITHUB_ENV or GITHUB_PATH",
			"later steps of the job run with what it writes")
	}
	if wfRe().wfSecret.MatchString(s) || (inRun && wfRe().wfRunnerToken.MatchString(s)) {
		switch {
		case inRun && wfRe().wfSend.MatchString(s):
			return hit("secret-exfiltration", AttentionCredential, AttentionHigh, "sends a secret over the network",
				"a secret expanded into a command that talks to the network can go anywhere")
		case inRun && wfRe().wfRunnerToken.MatchString(s):
			return hit("ci-token", AttentionCredential, AttentionHigh, "uses the runner's internal token",
				"with the runner's cache or OIDC token a step can poison the cache or mint cloud credentials")
		case inRun:
			return hit("gha-secret-in-run", AttentionCredential, AttentionMedium, "expands a secret inside a command",
				"the secret becomes part of the command line; check what the command does with it")
		case w.dangerous:
			return hit("gha-secret-in-privileged", AttentionCredential, AttentionHigh, "passes a secret to a step of a privileged workflow",
				"on pull_request_target or workflow_run the secret is available to a job a fork's pull request starts")
		}
		return hit("gha-secret", AttentionCredential, AttentionMedium, "passes a secret to a step",
			"the step, and whatever code it runs, gets the secret")
	}
	return ruleHit{}, false
}

// usesHit rates one uses: reference. A full 40-hex commit SHA pins it; a tag
// or branch can be moved to other code by whoever owns the action. GitHub's
// own actions (actions/*, github/*) are low rather than exempt: the risk is
// the same kind, but the owner is the platform every workflow already trusts.
// A local action (./...) is in the change itself, and its file is scanned.
func usesHit(ref, version string) (ruleHit, bool) {
	switch {
	case strings.HasPrefix(ref, "./") || strings.HasPrefix(ref, "../"):
		return ruleHit{}, false
	case strings.HasPrefix(ref, "docker://"):
		if strings.HasPrefix(version, "sha256:") {
			return ruleHit{}, false
		}
		return ruleHit{"gha-unpinned-uses", AttentionCIFile, AttentionMedium, "runs a container image by tag, not digest",
			"whoever can push the tag decides what runs in the job"}, true
	case version == "":
		return ruleHit{"gha-unpinned-uses", AttentionCIFile, AttentionHigh, "uses an action with no version",
			"the action's default branch, whatever it holds at run time, runs with the job's token and secrets"}, true
	case wfRe().wfSHA.MatchString(version):
		return ruleHit{}, false
	}
	owner, _, _ := strings.Cut(ref, "/")
	if owner == "actions" || owner == "github" {
		return ruleHit{"gha-unpinned-uses", AttentionCIFile, AttentionLow, "uses a GitHub action by tag, not commit SHA",
			"a tag can be moved to other code; GitHub's own actions are the ones every workflow already trusts"}, true
	}
	return ruleHit{"gha-unpinned-uses", AttentionCIFile, AttentionHigh, "uses a third-party action or workflow by tag, not commit SHA",
		"whoever owns " + owner + " can move the tag, and their code then runs with the job's token and secrets"}, true
}
