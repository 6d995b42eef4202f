package attention

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

	"github.com/vetter-dev/vetter/attention/provenance"
	"github.com/vetter-dev/vetter/attention/rules"
	"github.com/vetter-dev/vetter/packet"
	"go.yaml.in/yaml/v3"
)

// workflowScan follows one workflow file through its hunks.
type workflowScan struct {
	dangerous bool // the file triggers on pull_request_target or workflow_run
	forkPR    bool // ... or on pull_request or issue_comment, which fork pull requests start
	// prCode is set for the triggers whose default checkout is the pull
	// request's own code (pull_request, and push to the branch /ok to test
	// copies it to); under issue_comment, pull_request_target or
	// workflow_run the base branch's code runs unless a step checks out
	// the head, which the rules rate where it happens.
	prCode bool
	// prWrite is set for the triggers under which a pull request's own
	// code runs with the token the workflow asks for: a push to the branch
	// /ok to test copies it to. On pull_request GitHub hands a fork's pull
	// request a read-only token whatever the workflow asks, and a branch
	// of the repository is pushed by someone who can write already. A
	// partial diff cannot show the filters, so there it follows prCode.
	prWrite bool
	// whole is set when the diff holds the whole file; head once a line
	// has checked out the pull request's head.
	whole, head bool
	// triggersKnown is set when the diff shows the workflow's on: key.
	triggersKnown bool
	// comment is set for issue_comment; headInFile when the whole file
	// checks out the pull request's head somewhere.
	comment, headInFile bool
	// treeChange is set when the whole file puts fetched commits into the
	// tree somewhere: a fetch of the pull ref alone only adds refs.
	treeChange bool
	// names are the env names and step outputs the file binds to text
	// from the pull request or issue (untrustedNames).
	names map[string]bool

	// runIndent is the column of the run:/script: key whose block scalar
	// the scan is in, -1 when not in one.
	runIndent int
	// runBare is set when that key had no value on its line: a mapping
	// under a key named run (a job's id, defaults.run) rather than a script.
	runBare bool
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
		wfTriggerLine: regexp.MustCompile(`^\s*(?:on\s*:\s*)?(?:-\s*)?\[?[^#=]*\b(pull_request_target|workflow_run|check_run|check_suite|pull_request|issue_comment|push)\b\s*(?::\s*(?:$|#|\{|\[|null\b|~)|,|\]|$)`),
		wfDangerous:   regexp.MustCompile(`\b(?:pull_request_target|workflow_run|check_run|check_suite)\b`),
		// wfDangerous are the privileged triggers: the repository's secrets
		// and write token for a job whose event another's pull request
		// caused (the run or check suite it started names its branch and
		// head commit). wfHeadCheckout is a checkout of code another chose:
		// the pull request's head (its ref, its fork), the branch or commit
		// of the run or check suite it started, what a dispatch's payload
		// names.
		wfHeadCheckout: regexp.MustCompile(`^\s*(?:-\s+)?ref\s*:\s*["']?\$\{\{\s*(?:github\.event\.pull_request\.head\.(?:sha|ref)|github\.head_ref|github\.event\.workflow_run\.head_(?:sha|branch|commit\.id)|github\.event\.check_(?:run|suite)\b[\w.\[\]]*?\.head_(?:sha|branch)|github\.event\.client_payload\b|format\([^)]*refs/pull)|^\s*(?:-\s+)?ref\s*:\s*["']?refs/pull/|\bgh\s+pr\s+checkout\b|\bgit\s+fetch\b.*\bpull/|^\s*(?:-\s+)?repository\s*:\s*["']?\$\{\{\s*(?:github\.event\.pull_request\.head\.repo\.full_name|github\.event\.workflow_run\.head_repository\.full_name|github\.event\.client_payload\b)`),
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
		wfEnvFile:      regexp.MustCompile(`\$\{?GITHUB_(?:ENV|PATH)\b|(?i:\$env:GITHUB_(?:ENV|PATH)\b)|%GITHUB_(?:ENV|PATH)%|process\.env\.GITHUB_(?:ENV|PATH)\b|\bcore\.(?:exportVariable|addPath)\(`),
		wfEnvHijack:    regexp.MustCompile(`\b(?:LD_PRELOAD|LD_LIBRARY_PATH|BASH_ENV|ENV|NODE_OPTIONS|PYTHONPATH|PYTHONSTARTUP|PERL5OPT|RUBYOPT|GIT_SSH_COMMAND|GIT_CONFIG_\w+|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|DYLD_INSERT_LIBRARIES|RUSTC_WRAPPER|NPM_CONFIG_NODE_OPTIONS|PYTHONHOME|PERL5LIB|RUBYLIB|LD_AUDIT|DOTNET_STARTUP_HOOKS|PROMPT_COMMAND|GIT_EXTERNAL_DIFF|GIT_ASKPASS|SSH_ASKPASS|ACTIONS_RUNNER_HOOK_JOB_(?:STARTED|COMPLETED))(?:=|['"]\s*,)`),
		wfUnsecure:     regexp.MustCompile(`\bACTIONS_ALLOW_UNSECURE_COMMANDS\b|::(?:set-env|add-path)\b`),
	}
})

// newWorkflowScan reads the file's triggers from every line the diff shows
// of its new side, so a rule on one line knows what starts the workflow.
//
// Push counts as a pull request's trigger: /ok to test has a bot copy the
// pull request to a branch of the repository (pull-request/N), and the push
// to that branch starts every push workflow not filtered to other branches
// or to tags. When the diff holds the whole file, root is its YAML and the
// triggers are read from it, branch filters included.
func newWorkflowScan(f *packet.DiffFile, root *yaml.Node) *workflowScan {
	w := &workflowScan{runIndent: -1, names: untrustedNames(f)}
	if root != nil {
		w.triggersKnown, w.whole = true, true
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				if l.Kind != packet.LineRemoved && !yamlComment(l.Text) && wfRe().wfHeadCheckout.MatchString(l.Text) {
					w.headInFile = true
				}
				w.treeChange = w.treeChange || l.Kind != packet.LineRemoved && rules.TreeChange(l.Text)
			}
		}
		for name, filter := range triggers(root) {
			switch name {
			case "pull_request_target", "workflow_run", "check_run", "check_suite":
				w.dangerous, w.forkPR = true, true
			case "issue_comment":
				w.forkPR, w.comment = true, true
			case "pull_request", "pull_request_review", "pull_request_review_comment":
				w.forkPR, w.prCode = true, true
			case "push":
				reaches := pushReachesPR(filter)
				w.forkPR = w.forkPR || reaches
				w.prCode = w.prCode || reaches
				w.prWrite = w.prWrite || reaches
			}
		}
		return w
	}
	for _, h := range f.Hunks {
		if h == nil {
			continue
		}
		for _, l := range h.Lines {
			if l.Kind == packet.LineRemoved || yamlComment(l.Text) {
				continue
			}
			if t := strings.Trim(strings.SplitN(l.Text, ":", 2)[0], `"'`); t == "on" && !strings.HasPrefix(l.Text, " ") {
				w.triggersKnown = true
			}
			m := wfRe().wfTriggerLine.FindStringSubmatch(l.Text)
			if m == nil || strings.Contains(l.Text, "event_name") || strings.Contains(l.Text, "${{") {
				continue
			}
			switch m[1] {
			case "push", "pull_request":
				w.forkPR, w.prCode, w.prWrite = true, true, true
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
	if !w.head && wfRe().wfHeadCheckout.MatchString(s) {
		w.head = true
	}
	ind := indentOf(s)
	if w.runIndent >= 0 {
		bare := w.runBare
		w.runBare = false
		if ind > w.runIndent && !(bare && wfRe().wfKeyLine.MatchString(s)) {
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
			w.runIndent, w.runBare = col, rest == ""
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

// check applies the workflow rules to an added line. What a rule can tell
// from the line alone is rated here; what needs the whole workflow (is the
// pull request's head checked out under a privileged trigger? does a write
// permission reach pull-request code?) is rated from the triggers the diff
// shows, and refined by the YAML reader when the diff holds the whole file.
func (w *workflowScan) check(s string, inRun bool) (hit, bool) {
	if yamlComment(s) {
		return hit{}, false
	}
	re := wfRe()
	if strings.Contains(s, "${{") && untrustedExpr(s, w.names) {
		switch {
		case inRun && w.triggersKnown && !w.dangerous && !untrustedExpr(s, withoutFileLists(w.names)):
			// Only file names, on pull_request or push: the change can run
			// its own code in this job anyway, with the read-only token.
			return hit{id: "gha-script-injection", severity: rules.Medium, title: "expands the change's file names into a command",
				why: "a file may be named to run code; on pull_request or push the change already runs its own code here, under pull_request_target it would run with the write token"}, true
		case inRun:
			return hit{id: "gha-script-injection"}, true
		case re.wfEnvFile.MatchString(s):
			return hit{id: "gha-env-injection"}, true
		case cacheKeyRe().MatchString(s):
			// The pull request names the cache entry: under a trigger that
			// saves into the base branch's scope (or one the diff does not
			// show) its author picks the entry the default branch's
			// workflows restore.
			h := hit{id: "gha-cache-poisoning", title: "names a cache entry after text the pull request chooses (its branch name or title)",
				why: "whoever opens the pull request picks the key: a branch named for the default branch's entries writes the entry a release or default-branch workflow restores, and that workflow runs what is in it (as in the Ultralytics compromise)"}
			if w.triggersKnown && !w.dangerous {
				h.severity = rules.Medium
				h.why = "whoever opens the pull request picks the key, but on pull_request and push GitHub keeps what a pull request saves in its own branch's scope, where the default branch's workflows do not restore it"
			}
			return h, true
		}
	}
	if inRun && scriptShellRe().MatchString(s) {
		// A script (github-script's JavaScript, a Python step) that bound
		// the pull request's text to a variable and hands it to a shell.
		for name := range w.names {
			if v, ok := strings.CutPrefix(name, "var:"); ok && (strings.Contains(s, "${"+v+"}") || strings.Contains(s, "+ "+v) || strings.Contains(s, v+" +")) {
				return hit{id: "gha-script-injection", title: "hands pull-request text (the script's " + v + ") to a shell command"}, true
			}
		}
	}
	if inRun && rules.DispatchPayload(s) {
		// The sender needs a token that may write to the repository, but
		// the relays that send dispatches pass on others' text: the code
		// it names is rated where the payload chooses what is checked out.
		return hit{id: "gha-script-injection", severity: rules.Medium, title: "expands a repository_dispatch payload into a command",
			why: "whoever holds a token that may dispatch to the repository chose this text (another repository's workflow, a bot that relays pull requests and comments); written into the script, it is shell code run with the job's token and secrets"}, true
	}
	if re.wfAllSecrets.MatchString(s) {
		return hit{id: "gha-all-secrets"}, true
	}
	if re.wfInherit.MatchString(s) {
		return hit{id: "gha-secrets-inherit"}, true
	}
	if re.wfTriggerLine.MatchString(s) && re.wfDangerous.MatchString(s) && !strings.Contains(s, "event_name") && !strings.Contains(s, "${{") {
		return hit{id: "gha-privileged-trigger", title: "workflow runs on " + re.wfDangerous.FindString(s)}, true
	}
	if re.wfHeadCheckout.MatchString(s) {
		if w.dangerous && (w.treeChange || !w.whole || !strings.Contains(s, "git fetch")) {
			return hit{id: "gha-untrusted-checkout"}, true
		}
		if rules.DispatchPayload(s) {
			return hit{id: "gha-pr-checkout", title: "checks out what a repository_dispatch payload names",
				why: "the sender of the dispatch chooses the code; it matters where a later step builds or runs it"}, true
		}
		return hit{id: "gha-pr-checkout"}, true
	}
	if re.wfUnsecure.MatchString(s) {
		return hit{id: "gha-unsecure-commands"}, true
	}
	// A write permission matters where the workflow runs pull-request
	// code by default; when the diff shows no trigger, it may.
	writeReaches := w.prWrite || !w.triggersKnown
	// On pull_request alone the write is real only for the repository's
	// own branches, whose authors can write already.
	var forkReadOnly string
	if !writeReaches && w.prCode {
		forkReadOnly = "GitHub hands a fork's pull request a read-only token whatever the workflow asks, and no push this workflow runs for reaches the branch a pull request is copied to: the write serves the repository's own branches"
	}
	if re.wfWriteAll.MatchString(s) {
		if writeReaches {
			return hit{id: "gha-excessive-permissions", title: "workflow asks for write-all permissions"}, true
		}
		return hit{id: "gha-write-permission", title: "workflow asks for write-all permissions", why: forkReadOnly}, true
	}
	if m := re.wfWriteScope.FindStringSubmatch(s); m != nil {
		title := "widens the job token's permissions (" + m[1] + ": write)"
		switch m[1] {
		case "contents", "actions", "id-token", "packages", "pages", "deployments", "attestations":
			if writeReaches {
				return hit{id: "gha-excessive-permissions", title: title}, true
			}
		}
		return hit{id: "gha-write-permission", title: title, why: forkReadOnly}, true
	}
	if m := re.wfUses.FindStringSubmatch(s); m != nil {
		r, ok := usesHit(m[1], m[2])
		if rules.DebugSession(m[1]) && (!ok || r.sev() != rules.High) {
			// A maintainer's own debugging step, commonly gated on a manual
			// run's input and limited to the actor: worth a look, not a
			// stop; a tunnel a script opens is the high one.
			return hit{id: "reverse-shell", severity: rules.Medium, title: "opens a debugging session on the runner (" + m[1] + ")",
				why: "whoever reads the session's address in the job's log gets a shell on the runner with its token and secrets, unless the step limits access to the actor; check it runs only on a manual run's input"}, true
		}
		if ok {
			return r, true
		}
	}
	if re.wfPersist.MatchString(s) {
		return hit{id: "gha-persist-credentials"}, true
	}
	if re.wfSelfHosted.MatchString(s) {
		switch {
		case w.whole && !w.prCode && (w.dangerous || w.comment) && !w.headInFile:
			// pull_request_target, workflow_run and issue_comment run the
			// base branch's code unless a step checks out the head.
			return hit{id: "gha-self-hosted", why: rules.Must("gha-self-hosted").Why + "; the pull requests that start this workflow do not have their code checked out on it"}, true
		case w.forkPR:
			return hit{id: "gha-self-hosted-runner"}, true
		}
		return hit{id: "gha-self-hosted"}, true
	}
	if inRun && re.wfEnvFile.MatchString(s) {
		switch {
		case re.wfEnvHijack.MatchString(s) && !toolOnPath(s):
			return hit{id: "gha-env-hijack"}, true
		case w.dangerous && (w.head || !w.whole):
			// Under a privileged trigger with the base branch checked out,
			// the pull request can put nothing there but text, which
			// gha-env-injection rates.
			return hit{id: "gha-github-env-privileged"}, true
		}
		return hit{id: "gha-github-env"}, true
	}
	if re.wfSecret.MatchString(s) || (inRun && re.wfRunnerToken.MatchString(s)) {
		switch {
		case inRun && re.wfRunnerToken.MatchString(s) && oidcRequestOnly(s):
			return hit{id: "ci-oidc-request"}, true
		case inRun && re.wfRunnerToken.MatchString(s):
			return hit{id: "ci-runner-token"}, true
		case inRun && re.wfSend.MatchString(s) && !provenance.SendsToForge(s) && !secretIsDestination(s):
			return hit{id: "secret-exfiltration"}, true
		case inRun:
			return hit{id: "gha-secret-in-run"}, true
		case w.dangerous:
			return hit{id: "gha-secret-in-privileged"}, true
		}
		return hit{id: "gha-secret"}, true
	}
	return hit{}, false
}

// scriptShellRe is a script's call that hands its string to a shell:
// Node's child_process exec and execSync, zx's $`…`, Python's os.system,
// os.popen and subprocess with shell=True.
var scriptShellRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bexecSync\s*\(|(?:^|[^.\w])exec\s*\(|child_process\W+exec\w*\(|\$\x60|\bos\.(?:system|popen)\(|\bshell\s*=\s*True\b|\bshell\s*:\s*true\b`)
})

// cacheKeyRe is a cache step's key or restore keys (actions/cache, and the
// caching actions that take a key of their own).
var cacheKeyRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:-\s+)?(?:key|restore-keys|shared-key|prefix-key|cache-key)\s*:`)
})

var wfEnvValueRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b([A-Z_][A-Z0-9_]*)=([^"'>|\n]*)`)
})

// toolOnPath reports a loader variable written to the job's environment
// with a literal value that names nothing the change or the workspace
// holds (rules.InertLoaderValue): a tool on PATH (RUSTC_WRAPPER=sccache),
// the system's own library, an option that loads no module
// (NODE_OPTIONS=--max-old-space-size=4096). A value from a variable, an
// expression or a printf placeholder is not known, and stays the rule's.
func toolOnPath(s string) bool {
	found := false
	for _, m := range wfEnvValueRe().FindAllStringSubmatch(s, -1) {
		if !wfRe().wfEnvHijack.MatchString(m[1] + "=") {
			continue
		}
		v := strings.TrimSpace(m[2])
		if v == "" || strings.ContainsAny(v, "$%{`") || !rules.InertLoaderValue(m[1], v) {
			return false
		}
		found = true
	}
	return found
}

var secretRefRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{\{\s*secrets\.(\w+)\s*\}\}`) })

var secretURLArgRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[\s"'])\$\{\{\s*secrets\.\w+\s*\}\}(?:[/?][^\s"']*)?["']?(?:\s|$)`)
})

// secretIsDestination reports a line whose every secret is a webhook's or
// endpoint's URL (NETLIFY_BUILD_HOOK, SLACK_WEBHOOK_URL) given as the
// request's URL: posting to it is how a build hook is used, and the secret
// goes to the host it names.
func secretIsDestination(s string) bool {
	refs := secretRefRe().FindAllStringSubmatch(s, -1)
	if len(refs) == 0 || len(secretURLArgRe().FindAllString(s, -1)) != len(refs) {
		return false
	}
	for _, m := range refs {
		n := strings.ToUpper(m[1])
		if !strings.HasSuffix(n, "HOOK") && !strings.HasSuffix(n, "HOOK_URL") && !strings.HasSuffix(n, "WEBHOOK") && !strings.HasSuffix(n, "_URL") && !strings.HasSuffix(n, "ENDPOINT") {
			return false
		}
	}
	return true
}

// oidcRequestOnly reports a line whose only runner variables are the OIDC
// request's: minting the job's identity token is what every cloud login
// and trusted publisher does, and where the token goes next is what the
// shell reader follows.
//
// The request token anywhere but in the request's Authorization header
// (echoed to the log, written to a file) stays high: unlike a secret, the
// log does not mask it.
func oidcRequestOnly(s string) bool {
	for _, m := range wfRe().wfRunnerToken.FindAllString(s, -1) {
		if !strings.HasPrefix(m, "ACTIONS_ID_TOKEN_REQUEST_") {
			return false
		}
	}
	if strings.Contains(s, "ACTIONS_ID_TOKEN_REQUEST_TOKEN") {
		ls := strings.ToLower(s)
		return strings.Contains(ls, "bearer $actions_id_token_request_token") || strings.Contains(ls, "bearer ${actions_id_token_request_token}")
	}
	return true
}

// usesHit rates one uses: reference. A full 40-hex commit SHA pins it (and
// the YAML reader asks whether the commit is the action's own); a tag can
// be moved by whoever owns the action, a branch moves by itself. GitHub's
// own actions (actions/*, github/*) are low rather than exempt: the risk is
// the same kind, but the owner is the platform every workflow already
// trusts. A local action (./...) is in the change itself, and its file is
// scanned.
func usesHit(ref, version string) (hit, bool) {
	switch {
	case strings.HasPrefix(ref, "./") || strings.HasPrefix(ref, "../") || strings.HasPrefix(ref, "$"):
		// A local action is in the change itself; a reference built from
		// an expression is not one GitHub resolves, and names no owner.
		return hit{}, false
	case strings.HasPrefix(ref, "docker://"):
		// An image on a registry the well-known images do not live on is
		// code from whoever runs that host, digest or not.
		if img := strings.TrimPrefix(ref, "docker://"); strings.Contains(img, "/") {
			if k := provenance.GHCRImitates(img); k != "" {
				return hit{id: "lookalike-source", title: "runs a step in the image " + img + ", a look-alike of " + k}, true
			}
			if host := strings.Split(img, "/")[0]; strings.ContainsAny(host, ".:") && !provenance.HostIn(strings.ToLower(strings.Split(host, ":")[0]), provenance.KnownImageHosts) {
				return hit{id: "docker-from-unfamiliar", title: "runs a step in an image from " + host}, true
			}
		}
		if strings.HasPrefix(version, "sha256:") {
			return hit{}, false
		}
		return hit{id: "gha-container-tag"}, true
	case wfRe().wfSHA.MatchString(version):
		return hit{id: "gha-pinned-unchecked"}, true
	}
	owner, _, _ := strings.Cut(ref, "/")
	if owner == "actions" || owner == "github" {
		return hit{id: "gha-first-party-tag"}, true
	}
	if version == "" || !provenance.TagLike(version) {
		// A branch, like a tag, moves only when the action's owner pushes:
		// what it exposes is the owner's trust, not an outsider's code.
		// The change that takes away a pin (a SHA, or the repository's own
		// workflow) is the high one: gha-pin-removed.
		return hit{id: "gha-unpinned-branch", why: "whoever pushes to " + owner + "'s branch decides what runs with the job's token and secrets"}, true
	}
	return hit{id: "gha-unpinned-uses", why: "whoever owns " + owner + " can move the tag, and their code then runs with the job's token and secrets"}, true
}

var (
	outputRefRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:steps|needs)\.[\w-]+\.outputs\.([\w-]+)`)
	})
	envRefRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\benv\.([A-Za-z_]\w*)`) })
)

// untrustedExpr reports a ${{ }} expression whose value whoever opens a
// pull request or an issue chose: a title, a body, a branch name (the
// github context), a step output that lists the change's file names (a
// file may be named "$(curl …|sh).md", the tj-actions changed-files
// injection), or an env name or step output this workflow bound to such
// text (names, from untrustedNames). Only the operands that can become the
// expression's value count: a comparison or a contains of that text is a
// boolean (rules.ExprValue).
func untrustedExpr(s string, names map[string]bool) bool {
	for _, e := range ghaExpr().FindAllString(s, -1) {
		if e = rules.ExprValue(e); e == "" {
			continue
		}
		if rules.OutsiderText(e) {
			return true
		}
		for _, m := range outputRefRe().FindAllStringSubmatch(e, -1) {
			if fileListOutput(m[1]) && !names["\x00nofiles"] || names["out:"+m[1]] {
				return true
			}
		}
		for _, m := range envRefRe().FindAllStringSubmatch(e, -1) {
			if names["env:"+m[1]] {
				return true
			}
		}
	}
	return false
}

// fileListOutput reports a step output named for a list of files or paths
// (all_changed_files, docs_files, paths), not a flag or a count about them.
func fileListOutput(name string) bool {
	n := strings.ToLower(name)
	if strings.HasPrefix(n, "any_") || strings.HasPrefix(n, "only_") || strings.Contains(n, "count") || strings.Contains(n, "exist") {
		return false
	}
	if strings.Contains(n, "files") || strings.Contains(n, "filenames") || strings.Contains(n, "paths") {
		return true
	}
	// The outputs of the actions that fetch a pull request, an issue or a
	// comment (gh-find-current-pr, get-merged-pull-request) carry its text.
	switch strings.TrimPrefix(strings.TrimPrefix(n, "pr_"), "pull_request_") {
	case "title", "body", "comment", "comment_body", "commit_message", "head_commit_message", "description":
		return true
	}
	return false
}

// untrustedNames follows untrusted text through a workflow's bindings: an
// env name bound to it, and a step output written from it (echo name=… >>
// $GITHUB_OUTPUT, core.setOutput), read again as ${{ env.name }} or
// ${{ steps.x.outputs.name }}.
func untrustedNames(f *packet.DiffFile) map[string]bool {
	names := map[string]bool{}
	if f == nil {
		return names
	}
	for pass := 0; pass < 2; pass++ {
		var out rules.OutputWrite
		for _, h := range f.Hunks {
			if h == nil {
				continue
			}
			for _, l := range h.Lines {
				if l.Kind == packet.LineRemoved {
					continue
				}
				if rules.StepStart(l.Text) {
					out = rules.OutputWrite{}
				}
				written := out.Name(l.Text)
				carried(l.Text, names, written)
				if !strings.Contains(l.Text, "${{") || !untrustedExpr(l.Text, names) {
					continue
				}
				if m := wfEnvBind().FindStringSubmatch(l.Text); m != nil && m[1] != "run" && m[1] != "if" {
					names["env:"+m[1]] = true
					// A job's outputs: mapping renames a step's output for
					// the jobs that need it.
					if outputRefRe().MatchString(l.Text) {
						names["out:"+m[1]] = true
					}
				}
				if written != "" {
					names["out:"+written] = true
				}
			}
		}
	}
	return names
}

var (
	// untrustedReadRe is a script reading the pull request's or issue's
	// text itself rather than through ${{ }}: github-script's payload, the
	// event file through jq, gh pr view's JSON.
	untrustedReadRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bcontext\.payload\.(?:pull_request|issue|comment|review|discussion)\.(?:title|body|head\.ref)\b|` +
			`\.(?:pull_request|issue|comment|review|discussion)\.(?:title|body|head\.ref)\b.*GITHUB_EVENT_PATH|GITHUB_EVENT_PATH.*\.(?:pull_request|issue|comment|review|discussion)\.(?:title|body|head\.ref)\b|` +
			`\bgh\s+(?:pr|issue)\s+view\b.*--json\s+\S*\b(?:title|body|headRefName)\b`)
	})
	scriptBindRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:\b(?:const|let|var)\s+|^\s*(?:export\s+)?)([A-Za-z_$][\w$]*)\s*=`)
	})
	scriptIdentRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z_$][\w$]*`) })
	setOutputRe   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bsetOutput\(\s*['"]([\w-]+)['"]`)
	})
)

// carried follows untrusted text through a script's own variables to the
// step's outputs: a github-script variable bound to the payload's title
// and returned (the step's result) or passed to core.setOutput, a shell
// variable read from the event file or gh pr view, or an env name bound to
// such text, written to GITHUB_OUTPUT. Each is then untrusted wherever
// ${{ steps.x.outputs.name }} expands it.
func carried(t string, names map[string]bool, written string) {
	tainted := untrustedReadRe().MatchString(t)
	if !tainted && len(names) > 0 && (written != "" || strings.Contains(t, "=") || strings.Contains(t, "return") || strings.Contains(t, "setOutput") || strings.Contains(t, "GITHUB_OUTPUT")) {
		for _, id := range scriptIdentRe().FindAllString(t, -1) {
			// "$HEAD" in shell is the env name HEAD.
			if names["var:"+id] || names["env:"+id] || names["env:"+strings.TrimPrefix(id, "$")] || names["var:"+strings.TrimPrefix(id, "$")] {
				tainted = true
				break
			}
		}
	}
	if !tainted {
		return
	}
	if m := scriptBindRe().FindStringSubmatch(t); m != nil && !strings.Contains(t, "GITHUB_OUTPUT") && written == "" {
		names["var:"+m[1]] = true
	}
	if strings.Contains(t, "return ") {
		names["out:result"] = true // actions/github-script returns it as its result
	}
	if m := setOutputRe().FindStringSubmatch(t); m != nil {
		names["out:"+m[1]] = true
	}
	if written != "" {
		names["out:"+written] = true
	}
}

// workflowNames is untrustedNames for this file, made once.
func (fs *fileScan) workflowNames() map[string]bool {
	if fs.wfNames == nil {
		fs.wfNames = untrustedNames(fs.f)
	}
	return fs.wfNames
}

// withoutFileLists is names with file-list outputs no longer untrusted.
func withoutFileLists(names map[string]bool) map[string]bool {
	out := make(map[string]bool, len(names)+1)
	for k, v := range names {
		out[k] = v
	}
	out["\x00nofiles"] = true
	return out
}
