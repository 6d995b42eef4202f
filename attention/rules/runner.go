package rules

// The runner's reader: what a workflow job lets into its workspace and its
// environment under a trigger that hands it secrets and a write token, and
// what a program does to the runner itself. It reads the lines a diff shows
// of a file, whole or in hunks, step by step, by what each step can do:
//
//   - bring the pull request's code into the tree, by any route (a checkout
//     at a ref taken from the event or a step's output, gh pr checkout, a
//     fetch of the pull ref or the head repository followed by a checkout,
//     a patch of the pull request applied), after which a step that
//     builds, installs, tests or runs works on that code;
//   - bring another run's artifact in (download-artifact with a run id, gh
//     run download, the artifacts API from gh, curl or github-script),
//     after which a step runs a file of it or writes what it holds into
//     GITHUB_ENV or GITHUB_PATH;
//   - hand text whoever opens an issue or a pull request wrote to an AI
//     agent that has a shell or a token that can push;
//   - register a self-hosted runner (a registration or just-in-time token
//     minted, a runner image started with a token);
//   - write into the runner's action cache, tool cache or its own files, so
//     a later step or job runs what was written.
//
// It is a judgement on text: the scan's structural readers follow the same
// data where they parse the file; this reader covers the steps they skip (a
// partial workflow, a step in Python or PowerShell, a github-script block)
// and the spellings a parser does not name.

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// SrcLine is one new-side line of a file as the diff shows it.
type SrcLine struct {
	N     int
	Text  string
	Added bool
}

// Finding is what a judgement says about one line: the rule, and where
// the data came from. Empty strings take the rule's own.
type Finding struct {
	Line, Source        int
	ID, Title, Why, Sev string
}

type runnerRes struct {
	trigger, permLine, implied, onLine, jobKey, stepStart      *regexp.Regexp
	prCheckout, prPatch, applyPatch                            *regexp.Regexp
	fetchHead, treeChange, worktree, clonePR, pullPR           *regexp.Regexp
	artUses, artRun, unpack, interp, install, envFile          *regexp.Regexp
	readFile, litName, mint, runnerStart, runnerImage          *regexp.Regexp
	dockerRun, agentUses, agentCLI, shellTools                 *regexp.Regexp
	writeToken, cacheRef, assign, forIn, writeSink, pipeIn     *regexp.Regexp
	build, cacheUses, procStart, regInstall, absScript         *regexp.Regexp
	pipeRun, eventRead, otherRunner, headExpr, headFiles       *regexp.Regexp
	progRegister, sanitized, outName, outRef, headRepoLit      *regexp.Regexp
	prTrigger, labelValue, runnerHook, cmdInput, givenRegister *regexp.Regexp
	selfHosted, containerCmd                                   *regexp.Regexp
}

var runnerRe = sync.OnceValue(func() *runnerRes {
	return &runnerRes{
		// the triggers under which a job holds secrets and a write token
		// while others choose what it reads
		trigger:  regexp.MustCompile(`^\s*(?:on\s*:\s*)?(?:-\s*)?\[?[^#=$]*\b(pull_request_target|workflow_run|issue_comment|issues|pull_request_review_comment|discussion|discussion_comment|check_run|check_suite)\b\s*(?::|,|\]|$)`),
		permLine: regexp.MustCompile(`:\s*["']?(?:read|write|none)\b`),
		// an expression only such a trigger has
		implied:   regexp.MustCompile(`\bgithub\.event\.(?:workflow_run|comment|issue|check_run|check_suite)\b|\bcontext\.payload\.(?:workflow_run|comment|issue)\b`),
		onLine:    regexp.MustCompile(`^["']?(?:on|true)["']?\s*:`),
		jobKey:    regexp.MustCompile(`^  [A-Za-z0-9_-]+\s*:\s*(?:#.*)?$`),
		stepStart: regexp.MustCompile(`^(\s*)-\s+["']?[A-Za-z_-]+["']?\s*:`),
		// routes by which the pull request's code enters the tree
		prCheckout: regexp.MustCompile(`\b(?:gh|hub)\s+pr\s+checkout\b|\bgh\s+pr\s+merge\s+--admin\b`),
		prPatch:    regexp.MustCompile(`\bgh\s+pr\s+diff\b|\b(?:diff|patch)_url\b|/pulls?/[^\s/"']+\.(?:diff|patch)\b|application/vnd\.github(?:\.v3)?\.(?:diff|patch)|\bpulls/[^\s"']+\s.*--(?:header|H)\b.*\b(?:diff|patch)\b`),
		applyPatch: regexp.MustCompile(`\bgit\s+(?:(?:-[cC]\s+\S+|-\S+)\s+)*(?:apply|am)\b|(?:^|[|;&]\s*)patch\s+-p\d`),
		fetchHead:  regexp.MustCompile(`\bgit\s+(?:(?:-[cC]\s+\S+|-\S+)\s+)*fetch\b.*(?:\bpull/|refs/pull|head\.repo|head_repository|clone_url|head\.ref|head_ref|head\.sha|head_sha|head_branch|\$\{\{\s*(?:steps|needs)\.)`),
		treeChange: regexp.MustCompile(`\bgit\s+(?:(?:-[cC]\s+\S+|-\S+)\s+)*(?:checkout|switch|merge|reset\s+--hard|rebase|cherry-pick|restore|read-tree|stash\s+pop)\b`),
		worktree:   regexp.MustCompile(`\bgit\s+(?:(?:-[cC]\s+\S+|-\S+)\s+)*worktree\s+add\s+(?:-\S+\s+)*["']?([^\s"']+)`),
		clonePR:    regexp.MustCompile(`\b(?:git|gh\s+repo)\s+clone\b.*(?:head\.repo|head_repository|clone_url|\bpull/)(?:[^\s]*\s+(?:-\S+\s+)*["']?([^\s"'-][^\s"']*))?`),
		pullPR:     regexp.MustCompile(`\bgit\s+(?:(?:-[cC]\s+\S+|-\S+)\s+)*pull\b.*(?:\bpull/|refs/pull|head\.repo|clone_url|head\.ref|head_ref)`),
		// another run's artifact
		artUses: regexp.MustCompile(`(?i)download-artifact|download_artifact|action-download-artifact|download-workflow-artifact`),
		artRun:  regexp.MustCompile(`\bgh\s+run\s+download\b|/actions/artifacts\b|archive_download_url|/artifacts/\S*/zip\b|\bdownloadArtifact\(|\blistWorkflowRunArtifacts\(|/actions/runs/\S*/artifacts\b`),
		unpack:  regexp.MustCompile(`\b(?:unzip\b[^|;&]*\s-d\s+["']?([^\s"';&|]+)|tar\b[^|;&]*\s-C\s+["']?([^\s"';&|]+)|gh\s+run\s+download\b[^|;&]*\s(?:-D|--dir)\s+["']?([^\s"';&|]+))`),
		// a path run, sourced or installed
		interp:  regexp.MustCompile(`(?:^|[\s;&|(]|\$\()(?:sudo\s+)?(?:bash|sh|zsh|source|\.|python[0-9.]*|node|ruby|perl|pwsh|php|deno\s+run|bun|java\s+-jar|dotnet|eval|exec)\s+(?:-\S+\s+)*["']?([^\s"';&|)]+)`),
		install: regexp.MustCompile(`\b(?:pip[0-9.]*\s+install|npm\s+(?:i|install)|yarn\s+add|pnpm\s+add|gem\s+install|dpkg\s+-i|apt(?:-get)?\s+install|docker\s+load\s+-i|helm\s+install\s+\S+)\s+(?:-\S+\s+)*["']?([^\s"';&|]+)`),
		// GITHUB_ENV or GITHUB_PATH in any language a step is written in
		envFile:  regexp.MustCompile(`\$\{?GITHUB_(?:ENV|PATH)\b|(?i:\$env:GITHUB_(?:ENV|PATH)\b)|%GITHUB_(?:ENV|PATH)%|environ(?:\.get\(|\[)\s*["']GITHUB_(?:ENV|PATH)["']|getenv\(\s*["']GITHUB_(?:ENV|PATH)["']|process\.env\.GITHUB_(?:ENV|PATH)\b|ENV\[["']GITHUB_(?:ENV|PATH)["']\]|\bcore\.(?:exportVariable|addPath)\(`),
		readFile: regexp.MustCompile(`\bcat\s|\$\(<|\bread_text\(|\bread_bytes\(|\.read\(\)|\breadFileSync\(|\breadFile\(|(?i:\bGet-Content\b|\bgc\s)|\bFile\.read\b|\bIO\.read\b|\bos\.ReadFile\(|\bopen\([^)]*\)\.read|<\s*["']?[\w$./{}-]+["']?\s*(?:>>|$)|\bxargs\b|\bjq\b`),
		litName:  regexp.MustCompile(`^\s*(?:echo|printf)\s+(?:-\w+\s+)?["']?[A-Za-z_][A-Za-z0-9_]*=`),
		// registering a runner
		mint:        regexp.MustCompile(`actions/runners/(?:registration-token|generate-jitconfig)\b|\b(?:createRegistrationTokenFor(?:Repo|Org)|generateRunnerJitconfigFor(?:Repo|Org))\b`),
		runnerStart: regexp.MustCompile(`\bconfig\.(?:sh|cmd)\b|\bConfig\.ps1\b|\brun\.(?:sh|cmd)\b|\bRunner\.Listener\b|\bsvc\.sh\s+(?:install|start)\b|--jitconfig\b`),
		runnerImage: regexp.MustCompile(`(?i)(?:^|[\s/:"'=])(?:[\w.-]+/)*(?:github-actions-runner|actions-runner|github-runner|gha-runner|gh-runner|self-hosted-runner)(?::[\w.-]+|@sha256:[0-9a-f]+)?(?:["'\s]|$)`),
		dockerRun:   regexp.MustCompile(`\b(?:docker|podman|nerdctl)\s+(?:container\s+)?(?:run|create)\b`),
		// an AI coding agent, as an action or a command
		agentUses:  regexp.MustCompile(`(?i)^[\w.-]*/[\w.-]*(?:claude|gemini|codex|copilot|aider|opencode|cursor|openhands|goose|qwen-code|coding-agent|ai-agent|devin|amp-action|crush|cline|kiro|droid|junie|pr-agent)[\w.-]*(?:/[\w./-]*)?$`),
		agentCLI:   regexp.MustCompile(`(?:^|[\s;&|(])(?:npx\s+(?:-y\s+)?)?(?:@anthropic-ai/claude-code|claude|gemini|@google/gemini-cli|codex|@openai/codex|aider|copilot|opencode|cursor-agent|goose|qwen|amp|crush|openhands|cline|@cline/cli|kiro-cli|droid|junie)\s+(?:[^\n]*\s)?(?:-p|--print|--prompt|exec|run|-m|--message|-x|--execute|--yolo|--full-auto|--dangerously-skip-permissions|--allow-all-tools|-i|-y|--auto-approve|task)\b`),
		shellTools: regexp.MustCompile(`(?i)\bBash\b(?:\(\s*\*?\s*\))?(?:\s*[,"'\]\n]|\s*$)|\bBash\(\s*\*\s*\)|run_shell_command(?:\(\s*\*?\s*\))?(?:["'\s,\]]|$)|ShellTool\b|--dangerously-skip-permissions|--dangerously-bypass|\bbypassPermissions\b|--yolo\b|approval-mode[=\s"':]+yolo|--full-auto\b|danger-full-access|--allow-all-tools\b|\byolo\s*:\s*true|sandbox\s*:\s*false|--auto-approve\b|--yes-always\b|--allow-tool\b[^\n]*\bshell\b|\bshell\(\s*\*?\s*\)|--permission-mode[=\s"']+(?:bypassPermissions|acceptEdits)|\bautoApprove\b`),
		writeToken: regexp.MustCompile(`(?i)^\s*(?:[\w-]*token|gh_token|github_token|github-token)\s*:\s*["']?\$\{\{\s*secrets\.(?:[A-Z0-9_]+)\s*\}\}`),
		// the runner's caches and its own files, as a path or its parts
		cacheRef:      regexp.MustCompile(`["'/\\]_actions(?:["'/\\]|$)|["'/\\]_tool["'/\\]|\bRUNNER_TOOL_CACHE\b|\bhostedtoolcache\b|\bAGENT_TOOLSDIRECTORY\b`),
		assign:        regexp.MustCompile(`^\s*(?:(?:const|let|var|val|my|local|auto|final)\s+)?\$?([A-Za-z_]\w*)\s*(?::=|=)\s*([^=].*)$`),
		forIn:         regexp.MustCompile(`^\s*(?:for\s*\(?\s*(?:const|let|var)?\s*\$?([A-Za-z_]\w*)\s+(?:in|of)\s+(.+)|for\s+[\w_]*,?\s*([A-Za-z_]\w*)\s*:=\s*range\s+(.+)|(.+)\|\s*(?:ForEach-Object|%|foreach)\s*\{.*)$`),
		writeSink:     regexp.MustCompile(`\b(?:append|write)File(?:Sync)?\(|\bcopyFile(?:Sync)?\(|\bcreateWriteStream\(|\brenameSync\(|\.write_(?:text|bytes)\(|\bopen\([^)]*,\s*["'][wa]b?\+?["']|\bos\.(?:WriteFile|Create|OpenFile|Rename|Symlink)\(|\b(?:ioutil|os)\.WriteFile\(|(?i:\bAdd-Content\b|\bSet-Content\b|\bOut-File\b|\bCopy-Item\b|\bMove-Item\b|\bac\s)|\bFile\.(?:write|open|append)\w*\(|\bfs::(?:write|copy|rename)\(|\bshutil\.(?:copy\w*|move)\(|\bos\.(?:replace|rename)\(|\bFileUtils\.(?:cp|mv|install)\b|\bfs\.rename\(|>>?\s*["']?\$|\btee\s|\bsed\s+-i|\b(?:cp|mv|install)\s`),
		pipeIn:        regexp.MustCompile(`\b(?:Get-ChildItem|gci|dir|ls)\b.*\|\s*(?:ForEach-Object|%|foreach)\b`),
		build:         regexp.MustCompile(`\b(?:npm|yarn|pnpm|bun)\s+(?:ci|install|i|run|test|build|exec|start)\b|\bnpx\s|\bmake\b|\bpip[0-9.]*\s+install\b|\bpython[0-9.]*\s|\bgo\s+(?:build|test|run|generate|vet)\b|\bcargo\s+(?:build|test|run|check|fuzz|bench|install\s+--path)\b|\bmvn\b|\bgradlew?\b|(?:^|[\s;&|])\./|\b(?:ba)?sh\s+[\w./]|\bpytest\b|\btox\b|\bnox\b|\bbundle\s+(?:install|exec)\b|\brake\b|\bcomposer\s+install\b|\bdocker\s+build\b|\bnode\s+\S|\bsphinx-build\b|\bmkdocs\s+build\b|\bhugo\b|\bdotnet\s+(?:build|test|run)\b|\bcmake\b|\bmeson\b|\bninja\b|\bbazel\b|\bpre-commit\s+run\b|\bterraform\s+(?:init|plan|apply|validate)\b|\bsbt\b|\bswift\s+(?:build|test)\b|\bmix\s+(?:compile|test|deps)|\bdeno\s+(?:task|test|run)\b|\bjust\s|\bpoetry\s+(?:install|run|build)\b|\buv\s+(?:sync|run|build)\b|\bpdm\s+(?:install|run)\b|\bhatch\s+(?:run|build|test)\b|\bflutter\s|\bxcodebuild\b|\bansible-playbook\b|\bplaywright\s+test\b|\bvitest\b|\bjest\b|\btsc\b|\beslint\b|\bdocker[\s-]compose\s+(?:\S+\s+)*(?:up|build|run)\b|(?:^|[\s;&|])(?:source|\.)\s+[\w./$]|\byarn\s*(?:$|&&|;|\|)`),
		regInstall:    regexp.MustCompile(`^\s*(?:sudo\s+)?(?:python[0-9.]*\s+-m\s+)?(?:pip[0-9.]*|uv\s+pip|pipx|npm|pnpm|yarn|bun|gem|cargo)\s+(?:install|i|add)\b(.*)$`),
		absScript:     regexp.MustCompile(`^\s*(?:sudo\s+)?(?:python[0-9.]*|node|bash|sh|ruby|perl)\s+(?:-[A-Za-z]\s+)*["']?(?:/|\$\{?RUNNER_TEMP\b|\$\{\{\s*runner\.temp|\$\{?HOME\b|~/)`),
		otherRunner:   regexp.MustCompile(`\bgitlab-runner\s+register\b|\bsvc\.sh\s+(?:install|start)\b|\b(?:buildkite-agent|circleci-runner|woodpecker-agent)\s+(?:start|register|machine)\b|\bjava\b.*-jar["',\s]+[^"'\s]*\b(?:agent|slave|remoting|swarm-client[\w.-]*)\.jar\b.*-(?:url|jnlpUrl|master)["',\s=]+["']?https?://.*-(?:secret|jnlpCredentials|password)\b`),
		headExpr:      regexp.MustCompile(`head\.sha|head\.ref|head_ref|head_sha|head_branch|head_commit\.id|\bpull/|refs/pull|FETCH_HEAD|merge_commit_sha|\bclient_payload\b`),
		headFiles:     regexp.MustCompile(`\b(?:curl|wget|gh\s+api|Invoke-WebRequest|iwr)\b.*(?:raw\.githubusercontent\.com|/contents/|raw_url|/archive/).*(?:head\.repo|head_repository|head\.sha|head_sha|head\.ref|head_ref)|\b(?:curl|wget)\b.*\braw_url\b`),
		givenRegister: regexp.MustCompile(`\bconfig\.(?:sh|cmd|ps1)\b.*--url\b`),
		progRegister:  regexp.MustCompile(`\bconfig\.(?:sh|cmd|ps1)\b.*--url["',\s]+(?:f?["'\x60])?https?://`),
		sanitized:     regexp.MustCompile(`\btr\s+-(?:cd|dc)\b|\bgrep\s+-\w*[xE]\w*\s+["']\^|\bNumber\(|\bparseInt\(|\bint\(|jq\s+-r\s+["']?\.\w*(?:number|id)\b|\btonumber\b`),
		outName:       regexp.MustCompile(`(?:echo|printf)\s+(?:-\w+\s+)?["']?([A-Za-z_][\w-]*)=|setOutput\(\s*['"]([\w-]+)['"]`),
		outRef:        regexp.MustCompile(`\$\{\{[^}]*\b(?:steps|needs)\.[\w-]+\.outputs\.([\w-]+)`),
		headRepoLit:   regexp.MustCompile(`head\.repo\.|head_repository|\bclient_payload\b`),
		prTrigger:     regexp.MustCompile(`^\s*(?:on\s*:\s*)?(?:-\s*)?\[?[^#=$]*\b(pull_request|pull_request_target|push|merge_group)\b\s*(?::\s*(?:$|#|\{|\[|null\b|~)|,|\]|$)`),
		selfHosted:    regexp.MustCompile(`^\s*(?:runs-on\s*:.*\bself-hosted\b|-\s*["']?self-hosted\b)`),
		labelValue:    regexp.MustCompile(`^[\w-]+\s*:\s*(?:\[[^\]]*\bself-hosted\b|["']?self-hosted\b)`),
		runnerHook:    regexp.MustCompile(`\bACTIONS_RUNNER_HOOK_JOB_(?:STARTED|COMPLETED)\b`),
		cmdInput:      regexp.MustCompile(`^(?:command|commands|cmd|shell-command|run-command|inline-script|inlineScript)\s*:\s*(.*)$`),
		containerCmd:  regexp.MustCompile(`^(?:args|entrypoint)\s*:\s*(.*)$`),
		pipeRun:       regexp.MustCompile(`\|\s*(?:sudo\s+)?(?:bash|sh|zsh|python[0-9.]*|node|ruby|perl|pwsh|iex|Invoke-Expression)\b|\beval\s|(?i:\bInvoke-Expression\b|\biex\b)|\bsource\s+<\(`),
		eventRead:     regexp.MustCompile(`\bgh\s+(?:issue|pr)\s+view\b|\bgh\s+api\b.*\b(?:issues|pulls|comments)\b|\bGITHUB_EVENT_PATH\b|\bcontext\.payload\.(?:issue|comment|pull_request|review|discussion)\b|\bgithub\.rest\.(?:issues|pulls)\.(?:get|listComments)\b`),
		cacheUses:     regexp.MustCompile(`^actions/cache(?:/save)?$`),
		procStart:     regexp.MustCompile(`\bsubprocess\.\w+\(|\bos\.system\(|\bspawn(?:Sync)?\(|\bexec(?:File)?(?:Sync)?\(|\bexec\.Command|\bStart-Process\b|\bProcessBuilder\(|\bsystem\(|\bPopen\(|^\s*(?:sudo\s+)?\.?/|^\s*&\s`),
	}
})

// TreeChange reports a command that puts fetched commits into the working
// tree (a checkout, a worktree, a merge, a patch applied, a pull request
// checked out): a fetch alone only adds refs the tree does not show.
func TreeChange(s string) bool {
	re := runnerRe()
	return re.treeChange.MatchString(s) || re.worktree.MatchString(s) || re.applyPatch.MatchString(s) || re.prCheckout.MatchString(s) || re.pullPR.MatchString(s) || re.clonePR.MatchString(s)
}

// BuildCommand reports a command line that installs, builds, tests or runs
// the code of the tree it works in.
func BuildCommand(s string) bool { return runnerRe().build.MatchString(s) }

// wfStep is one step of a job, as the diff shows it.
type wfStep struct {
	lines []SrcLine
	uses  string
	usesN int
	with  map[string]SrcLine // a with:/env: key's one-line value, by key
	env   map[string]SrcLine
	wd    string
	body  []SrcLine // run:, script: and with: block text
	runs  bool      // the step has a run: or a script:
	// headless is set for the lines a hunk shows before its first step:
	// the rest of a step, often the middle of its run: block
	headless bool
}

// jobState is what a job has let in so far.
type jobState struct {
	head     int      // the line that brought the pull request's code into the tree
	headDirs []string // where it went; "" for the workspace
	fetched  int      // a fetch of the pull request's code not yet checked out
	patch    int      // a patch of the pull request fetched, not yet applied
	art      int      // the line that brought another run's artifact in
	artDirs  []string // where it went; "" for the workspace
	// eventText is a line that read an issue's or pull request's text
	eventText int
	// outs are the step outputs written from an artifact's text, with the
	// line the artifact came in on
	outs map[string]int
	// outside is set when a checkout takes what a dispatch's payload
	// names where the trigger does not matter: its repository (anyone's
	// code), or its commit on a self-hosted runner (selfHosted: a machine
	// that keeps what the job leaves for the jobs after it)
	outside, selfHosted bool
}

// WorkflowRunner reads a workflow or composite action for what it lets the
// pull request's code, another run's artifact, an issue's text or a runner
// registration do under a trigger that hands out secrets and a write token.
func WorkflowRunner(lines []SrcLine) []Finding {
	re := runnerRe()
	known, priv := false, false
	trigLine, trigName := 0, ""
	for _, l := range lines {
		t := l.Text
		if strings.HasPrefix(strings.TrimSpace(t), "#") {
			continue
		}
		if re.onLine.MatchString(t) {
			known = true
		}
		if m := re.trigger.FindStringSubmatch(t); m != nil && !strings.Contains(t, "event_name") && !re.permLine.MatchString(t) {
			priv = true
			if l.Added && trigLine == 0 {
				trigLine, trigName = l.N, m[1]
			}
		}
		if re.implied.MatchString(t) {
			priv = true
		}
	}
	// A hunk that does not show the triggers may be under any of them.
	privish := priv || !known
	var out []Finding
	add := func(f Finding) { out = append(out, f) }
	steps, jobs := splitSteps(lines)
	selfHosted := slices.ContainsFunc(lines, func(l SrcLine) bool { return re.selfHosted.MatchString(l.Text) })
	st := jobState{selfHosted: selfHosted}
	job := -1
	for si, s := range steps {
		if jobs[si] != job {
			job, st = jobs[si], jobState{selfHosted: selfHosted}
		}
		out = append(out, runnerStep(s, &st, privish, priv)...)
		out = append(out, agentStep(s, &st, priv || !known, lines)...)
	}
	// A privileged trigger this change adds is what lets the steps above
	// run others' code with the repository's secrets, however old they are.
	if trigLine > 0 {
		for _, f := range out {
			if f.Sev == "" && f.Line != trigLine && (f.ID == "gha-pr-code-run" || f.ID == "gha-artifact-run" || f.ID == "gha-agent-untrusted" || f.ID == "gha-github-env-privileged") {
				add(Finding{Line: trigLine, ID: "gha-privileged-trigger", Sev: High, Source: f.Line,
					Title: "runs the workflow on " + trigName + ", under which line " + itoa(f.Line) + " works on others' code or text with the repository's secrets",
					Why:   "this trigger hands the job the repository's secrets and a write token while the pull request, artifact or issue it reads is someone else's; the step on that line then runs or obeys it"})
				break
			}
		}
	}
	// A hook the self-hosted runner runs around every job, set by a step.
	for _, l := range lines {
		if re.runnerHook.MatchString(l.Text) && (strings.Contains(l.Text, ">") || re.writeSink.MatchString(l.Text) || strings.Contains(l.Text, "export ")) {
			add(Finding{Line: l.N, ID: "runner-action-cache", Title: "sets a hook the self-hosted runner runs around every later job",
				Why: "the runner reads ACTIONS_RUNNER_HOOK_JOB_STARTED and _COMPLETED from its environment and .env file and runs the script they name for every job after this one, another workflow's included"})
		}
	}
	// A self-hosted label among the values runs-on takes from a matrix or
	// an input: the job runs there as surely as with runs-on: self-hosted.
	forPR, byExpr := !known, false
	for _, l := range lines {
		if m := re.prTrigger.FindStringSubmatch(l.Text); m != nil && !re.permLine.MatchString(l.Text) && !strings.Contains(l.Text, "${{") {
			forPR = true
		}
		byExpr = byExpr || strings.Contains(l.Text, "runs-on:") && strings.Contains(l.Text, "${{")
	}
	for _, l := range lines {
		if t := strings.TrimSpace(l.Text); byExpr && !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "runs-on:") && re.labelValue.MatchString(strings.TrimPrefix(t, "- ")) {
			f := Finding{Line: l.N, ID: "gha-self-hosted", Title: "lists a self-hosted runner among the labels runs-on takes"}
			if forPR {
				f.ID = "gha-self-hosted-runner"
			}
			add(f)
		}
	}
	// An action's command input runs as a shell command like run: does, and
	// so do a container step's args and entrypoint (uses: docker://…): they
	// are the container's command line, often sh -c and a script.
	for _, st := range steps {
		in, ind := false, 0
		container := strings.HasPrefix(st.uses, "docker://")
		for _, l := range st.lines {
			t := strings.TrimSpace(l.Text)
			li := len(l.Text) - len(strings.TrimLeft(l.Text, " \t"))
			m := re.cmdInput.FindStringSubmatch(t)
			if m == nil && container {
				m = re.containerCmd.FindStringSubmatch(t)
			}
			if m != nil {
				in, ind = strings.HasPrefix(m[1], "|") || strings.HasPrefix(m[1], ">"), li
			} else if in && li <= ind {
				in = false
			} else if !in {
				continue
			}
			if st.uses != "" && OutsiderText(l.Text) {
				add(Finding{Line: l.N, ID: "gha-script-injection", Title: "expands untrusted pull-request or issue text into a command an action runs"})
			}
		}
	}
	// A container handed the self-hosted runner's host.
	if selfHosted {
		for _, l := range lines {
			if !re.dockerRun.MatchString(l.Text) {
				continue
			}
			if g := hostGrants(joinCont(lines, l.N)); len(g) > 0 {
				add(Finding{Line: l.N, ID: "runner-host-access", Title: "starts a container on the self-hosted runner with " + strings.Join(g, ", ")})
			}
		}
	}
	// Registration needs no earlier step, and may sit in a job's services.
	for _, l := range lines {
		t := l.Text
		switch {
		case re.mint.MatchString(t):
			add(Finding{Line: l.N, ID: "runner-register", Title: "mints a token that registers a self-hosted runner"})
		case re.runnerImage.MatchString(t) && (strings.Contains(t, "image:") || re.dockerRun.MatchString(joinCont(lines, l.N))):
			add(Finding{Line: l.N, ID: "runner-register", Title: "starts a self-hosted runner's image in the job"})
		case re.dockerRun.MatchString(t) && runnerEnv(joinCont(lines, l.N)):
			add(Finding{Line: l.N, ID: "runner-register", Title: "starts a container with a runner registration token"})
		case strings.Contains(t, "--jitconfig") || strings.Contains(t, "Runner.Listener") && strings.Contains(t, "configure") || re.otherRunner.MatchString(t):
			add(Finding{Line: l.N, ID: "runner-register"})
		}
	}
	return out
}

// hostGrant are the options by which a container reaches its host: the
// host's root file system or Docker daemon mounted, its process table or
// user namespace shared, every capability or device.
var hostGrant = []struct{ name, pattern string }{
	{"the host's root mounted", `(?:-v|--volume)[= ]["']?/:|\b(?:source|src)=/(?:,|\s|$)`},
	{"the Docker socket", `docker\.sock\b`},
	{"--privileged", `--privileged\b`},
	{"the host's processes", `--pid[= ]["']?host\b`},
	{"the host's user namespace", `--userns[= ]["']?host\b`},
	{"every capability", `--cap-add[= ]["']?(?:ALL|SYS_ADMIN|SYS_PTRACE)\b`},
}

var hostGrantRes = sync.OnceValue(func() []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(hostGrant))
	for i, g := range hostGrant {
		out[i] = regexp.MustCompile(g.pattern)
	}
	return out
})

// ContainerHostGrants names what a docker, podman or nerdctl run command
// hands its container of the host (hostGrants), or nil: for a CI agent's
// script, where the agent is the host.
func ContainerHostGrants(cmd string) []string {
	if !runnerRe().dockerRun.MatchString(cmd) {
		return nil
	}
	return hostGrants(cmd)
}

// hostGrants names what a container command hands it of its host, when
// that is the host: its root file system, or two grants together (one
// alone is how QEMU's handlers are installed or a scanner reads the
// daemon).
func hostGrants(cmd string) []string {
	var got []string
	root := false
	for i, re := range hostGrantRes() {
		if re.MatchString(cmd) {
			got = append(got, hostGrant[i].name)
			root = root || i == 0
		}
	}
	if root || len(got) >= 2 {
		return got
	}
	return nil
}

// joinCont is the command that starts on line n of ls, with the lines a
// trailing backslash continues it onto.
func joinCont(ls []SrcLine, n int) string {
	var b strings.Builder
	on := false
	for _, l := range ls {
		if l.N == n {
			on = true
		}
		if !on {
			continue
		}
		b.WriteString(l.Text)
		b.WriteByte('\n')
		if !strings.HasSuffix(strings.TrimSpace(l.Text), "\\") {
			break
		}
	}
	return b.String()
}

// runnerEnv reports a container started with what a runner image takes to
// register itself: a registration or access token beside a repository URL.
func runnerEnv(cmd string) bool {
	c := strings.ToUpper(cmd)
	tok := strings.Contains(c, "RUNNER_TOKEN") || strings.Contains(c, "ACCESS_TOKEN") || strings.Contains(c, "RUNNER_REGISTRATION") || strings.Contains(c, "ACTIONS_RUNNER_INPUT_TOKEN")
	url := strings.Contains(c, "REPO_URL") || strings.Contains(c, "RUNNER_REPOSITORY_URL") || strings.Contains(c, "ORG_NAME") || strings.Contains(c, "RUNNER_SCOPE") || strings.Contains(c, "ACTIONS_RUNNER_INPUT_URL") || strings.Contains(c, "GITHUB_URL")
	return tok && url
}

// splitSteps cuts the lines into steps, and numbers the job each is in.
func splitSteps(lines []SrcLine) ([]wfStep, []int) {
	re := runnerRe()
	var steps []wfStep
	var jobs []int
	job, stepIndent := 0, -1
	var cur *wfStep
	flush := func() {
		if cur != nil {
			steps = append(steps, *cur)
			jobs = append(jobs, job)
		}
		cur = nil
	}
	blockKey, blockIndent := "", -1
	section, sectionIndent := "", -1
	last := -1
	for _, l := range lines {
		t := l.Text
		tt := strings.TrimSpace(t)
		if tt == "" || strings.HasPrefix(tt, "#") {
			if cur != nil && blockKey != "" {
				cur.body = append(cur.body, l)
			}
			continue
		}
		ind := len(t) - len(strings.TrimLeft(t, " \t"))
		if last >= 0 && l.N != last+1 {
			// a gap between hunks: a block scalar does not carry over
			blockKey, blockIndent = "", -1
		}
		last = l.N
		if blockKey != "" && ind > blockIndent {
			cur.lines = append(cur.lines, l)
			cur.body = append(cur.body, l)
			continue
		}
		blockKey, blockIndent = "", -1
		if re.jobKey.MatchString(t) || strings.HasPrefix(tt, "runs-on:") && cur == nil {
			flush()
			job++
			stepIndent = -1
			continue
		}
		if ind == 0 {
			flush()
			continue
		}
		if m := re.stepStart.FindStringSubmatch(t); m != nil && (stepIndent < 0 || len(m[1]) <= stepIndent) {
			flush()
			stepIndent = len(m[1])
			cur = &wfStep{with: map[string]SrcLine{}, env: map[string]SrcLine{}}
			section, sectionIndent = "", -1
		}
		if cur == nil && ind > stepIndent && !strings.HasPrefix(tt, "steps:") && (len(steps) == 0 || l.N != steps[len(steps)-1].lines[len(steps[len(steps)-1].lines)-1].N+1) {
			// a hunk that starts inside a step
			cur = &wfStep{with: map[string]SrcLine{}, env: map[string]SrcLine{}, headless: true}
			section, sectionIndent = "", -1
		}
		if cur == nil {
			continue
		}
		if stepIndent >= 0 && ind < stepIndent {
			flush()
			continue
		}
		cur.lines = append(cur.lines, l)
		key, val, ok := strings.Cut(strings.TrimPrefix(tt, "- "), ":")
		if !ok || strings.ContainsAny(key, " \"'{$") {
			if cur.headless {
				// the middle of a run: block the hunk cut into
				cur.body = append(cur.body, l)
				cur.runs = true
			}
			continue
		}
		key = strings.TrimSpace(key)
		val = strings.TrimSpace(val)
		switch {
		case key == "uses":
			cur.uses, cur.usesN = strings.Trim(strings.SplitN(val, "#", 2)[0], ` "'`), l.N
		case key == "working-directory":
			cur.wd = strings.Trim(val, `"'`)
		case key == "run" || key == "script":
			cur.runs = true
			if val != "" && val[0] != '|' && val[0] != '>' {
				cur.body = append(cur.body, SrcLine{l.N, val, l.Added})
			} else {
				blockKey, blockIndent = key, ind
			}
		case key == "with" || key == "env":
			section, sectionIndent = key, ind
			if strings.HasPrefix(tt, "- ") {
				sectionIndent += 2
			}
		case key == "steps" || key == "services" || key == "container":
		default:
			if ind <= sectionIndent {
				section = ""
			}
			if val == "|" || val == ">" || strings.HasPrefix(val, "|") || strings.HasPrefix(val, ">") {
				blockKey, blockIndent = key, ind
				continue
			}
			sl := SrcLine{l.N, val, l.Added}
			if section == "env" {
				cur.env[key] = sl
			} else if _, dup := cur.with[key]; !dup {
				cur.with[key] = sl
			}
		}
	}
	flush()
	return steps, jobs
}

// under reports whether word w names a path in dir ("" is the workspace:
// any relative path).
func under(w, dir string) bool {
	w = strings.Trim(w, `"'()`)
	for _, p := range []string{"${{ github.workspace }}/", "${{github.workspace}}/", "$GITHUB_WORKSPACE/", "${GITHUB_WORKSPACE}/", "./"} {
		w = strings.TrimPrefix(w, p)
	}
	if dir == "" {
		return w != "" && !strings.HasPrefix(w, "/") && !strings.HasPrefix(w, "$") && !strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "~") && (strings.Contains(w, "/") || strings.Contains(w, "."))
	}
	dir = strings.TrimSuffix(strings.TrimPrefix(dir, "./"), "/")
	return w == dir || strings.HasPrefix(w, dir+"/")
}

// mentions reports a line that names a path in one of dirs.
func mentions(t string, dirs []string) bool {
	for _, d := range dirs {
		if d == "" {
			return true
		}
		dd := strings.TrimSuffix(strings.TrimPrefix(d, "./"), "/")
		if i := strings.Index(t, dd); i >= 0 {
			end := i + len(dd)
			if end == len(t) || strings.ContainsRune("/ \"'\t;)", rune(t[end])) {
				return true
			}
		}
		// ${{ runner.temp }}/cfg read as $RUNNER_TEMP/cfg or ("RUNNER_TEMP", "cfg")
		if b := path.Base(dd); b != dd && b != "." && strings.Contains(t, `"`+b+`"`) || strings.Contains(t, `'`+b+`'`) {
			return true
		}
	}
	return false
}

// runnerStep reads one step for what enters the job and what runs it.
func runnerStep(s wfStep, st *jobState, privish, priv bool) []Finding {
	re := runnerRe()
	var out []Finding
	ref := s.uses
	if i := strings.IndexByte(ref, '@'); i >= 0 {
		ref = ref[:i]
	}
	// What the step's uses: brings in.
	switch {
	case strings.HasSuffix(ref, "/checkout"):
		r, hasRef := s.with["ref"]
		repo, hasRepo := s.with["repository"]
		// A ref or repository a step worked out at run time is the pull
		// request's only where the trigger is known to hand one over.
		headish := func(v string, lit *regexp.Regexp) bool {
			return lit.MatchString(v) || priv && (strings.Contains(v, "outputs.") || strings.Contains(v, "env."))
		}
		refHead, repoHead := hasRef && headish(r.Text, re.headExpr), hasRepo && headish(repo.Text, re.headRepoLit)
		if refHead || repoHead {
			n := r.N
			if !refHead {
				n = repo.N
			}
			st.head = n
			st.outside = st.outside || repoHead && DispatchPayload(repo.Text) || st.selfHosted && refHead && DispatchPayload(r.Text)
			dir := ""
			if p, ok := s.with["path"]; ok && !workspacePath(p.Text) {
				dir = strings.Trim(p.Text, `"'`)
			}
			st.headDirs = append(st.headDirs, dir)
		}
	case re.artUses.MatchString(ref) || ref == "" && (strings.Contains(s.with["run-id"].Text, "workflow_run") || strings.Contains(s.with["run_id"].Text, "workflow_run")):
		_, runID := s.with["run-id"]
		_, runID2 := s.with["run_id"]
		if priv || runID || runID2 {
			n := s.usesN
			if n == 0 {
				n = s.with["run-id"].N + s.with["run_id"].N
			}
			if st.art == 0 {
				st.art = n
			}
			dir := ""
			if p, ok := s.with["path"]; ok && !workspacePath(p.Text) {
				dir = strings.Trim(p.Text, `"'`)
			}
			st.artDirs = append(st.artDirs, dir)
		}
	case (re.cacheUses.MatchString(ref) || strings.HasPrefix(ref, "actions/setup-") && s.with["cache"].Text != "" && s.with["cache"].Text != "false" ||
		ref == "actions/setup-go" && s.with["cache"].Text != "false") && st.head > 0 && priv:
		// setup-go caches by default; the others when told to
		out = append(out, Finding{Line: s.usesN, ID: "gha-cache-poisoning", Source: st.head,
			Title: "saves a cache after the pull request's code (brought in on line " + itoa(st.head) + ") ran in a privileged job"})
	case strings.HasPrefix(ref, "./") && st.head > 0 && (privish || st.outside) && mentionsOrWorkspace(ref, st.headDirs):
		f := Finding{Line: s.usesN, ID: "gha-pr-code-run", Source: st.head, Title: "uses an action from the pull request's code in a privileged workflow"}
		if st.outside {
			f.Title = "uses an action from what a dispatch's payload names (checked out on line " + itoa(st.head) + ")"
		}
		out = append(out, f)
	}
	inDir := map[string]bool{}
	if s.wd != "" {
		inDir[strings.TrimPrefix(s.wd, "./")] = true
	}
	readsFile, readsArt := false, false
	for _, l := range s.body {
		if re.readFile.MatchString(l.Text) {
			readsFile = true
			if st.art > 0 && mentions(l.Text, st.artDirs) {
				readsArt = true
			}
		}
	}
	headReported, cont := false, false
	for _, l := range s.body {
		t := l.Text
		// a line a backslash continued is the middle of a command
		prevCont := cont
		cont = strings.HasSuffix(strings.TrimSpace(t), "\\")
		if strings.HasPrefix(strings.TrimSpace(t), "#") {
			continue
		}
		if f := strings.Fields(t); len(f) > 1 && (f[0] == "cd" || f[0] == "pushd") {
			inDir[strings.TrimSuffix(strings.TrimPrefix(strings.Trim(f[1], `"'`), "./"), "/")] = true
		}
		// The pull request's code enters the tree.
		switch {
		case re.prCheckout.MatchString(t), re.pullPR.MatchString(t):
			st.head = l.N
			st.headDirs = append(st.headDirs, "")
		case re.prPatch.MatchString(t) && re.applyPatch.MatchString(t):
			st.head = l.N
			st.headDirs = append(st.headDirs, "")
		case re.prPatch.MatchString(t):
			st.patch = l.N
		case st.patch > 0 && re.applyPatch.MatchString(t):
			st.head = st.patch
			st.headDirs = append(st.headDirs, "")
		case re.clonePR.MatchString(t):
			st.head = l.N
			m := re.clonePR.FindStringSubmatch(t)
			st.headDirs = append(st.headDirs, m[1])
		case re.fetchHead.MatchString(t):
			st.fetched = l.N
			if m := re.worktree.FindStringSubmatch(t); m != nil {
				st.head = l.N
				st.headDirs = append(st.headDirs, m[1])
			} else if re.treeChange.MatchString(t) {
				st.head = l.N
				st.headDirs = append(st.headDirs, "")
			}
		case st.fetched > 0 && re.worktree.MatchString(t):
			st.head = st.fetched
			st.headDirs = append(st.headDirs, re.worktree.FindStringSubmatch(t)[1])
		case re.treeChange.MatchString(t) && re.headExpr.MatchString(t),
			re.headFiles.MatchString(t) && !re.pipeRun.MatchString(t):
			st.head = l.N
			st.headDirs = append(st.headDirs, "")
		case st.fetched > 0 && re.treeChange.MatchString(t):
			st.head = st.fetched
			st.headDirs = append(st.headDirs, "")
		}
		// Another run's artifact enters the job.
		if re.artRun.MatchString(t) && (privish || strings.Contains(t, "workflow_run")) {
			if st.art == 0 {
				st.art = l.N
			}
			dir := ""
			if m := re.unpack.FindStringSubmatch(t); m != nil {
				dir = m[1] + m[2] + m[3]
			}
			st.artDirs = append(st.artDirs, dir)
		} else if st.art > 0 && strings.Contains(t, "unzip") || st.art > 0 && strings.Contains(t, "tar ") {
			if m := re.unpack.FindStringSubmatch(t); m != nil {
				st.artDirs = append(st.artDirs, m[1]+m[2]+m[3])
			}
		}
		// What runs it.
		if st.head > 0 && l.N > st.head && (privish || st.outside) && !headReported && treeBuild(t) {
			ok := false
			for _, d := range st.headDirs {
				if d == "" || inDir[strings.TrimPrefix(d, "./")] || runsFrom(t, []string{d}) || optionDir(t, d) {
					ok = true
				}
			}
			if ok {
				f := Finding{Line: l.N, ID: "gha-pr-code-run", Source: st.head,
					Title: "runs the pull request's code (brought into the tree on line " + itoa(st.head) + ") in a privileged workflow"}
				if st.outside {
					f.Title = "builds or runs what a dispatch's payload names (checked out on line " + itoa(st.head) + ")"
					f.Why = "whoever sends the dispatch (a relay of pull requests, another repository's workflow, anyone holding its token) picks the code, and it runs here with the job's token and secrets"
					if st.selfHosted {
						f.Title += " on a self-hosted runner"
						f.Why += ", on a machine that keeps what it leaves for the jobs after it"
					}
				}
				out = append(out, f)
				headReported = true
			}
		}
		if st.art > 0 && l.N > st.art && !prevCont && (runsFrom(t, st.artDirs) || re.pipeRun.MatchString(t) && re.readFile.MatchString(t) && mentions(t, st.artDirs)) {
			out = append(out, Finding{Line: l.N, ID: "gha-artifact-run", Source: st.art,
				Title: "runs a file of another run's artifact (downloaded on line " + itoa(st.art) + ") in a privileged workflow"})
		}
		// An output made of an artifact's text is that text wherever a
		// later command expands it.
		if st.art > 0 && l.N > st.art && (strings.Contains(t, "GITHUB_OUTPUT") || strings.Contains(t, "setOutput(")) && (readsArt || mentions(t, st.artDirs) && re.readFile.MatchString(t)) && !re.sanitized.MatchString(t) {
			if m := re.outName.FindStringSubmatch(t); m != nil {
				if st.outs == nil {
					st.outs = map[string]int{}
				}
				st.outs[m[1]+m[2]] = st.art
			}
		}
		for _, m := range re.outRef.FindAllStringSubmatch(t, -1) {
			if src := st.outs[m[1]]; src > 0 && s.runs {
				out = append(out, Finding{Line: l.N, ID: "gha-script-injection", Source: src,
					Title: "expands a step output made of another run's artifact (downloaded on line " + itoa(src) + ") into a command"})
				break
			}
		}
		if re.envFile.MatchString(t) {
			src, what := 0, ""
			switch {
			case st.art > 0 && l.N > st.art && (readsArt || readsFile && (mentions(t, st.artDirs) || !re.litName.MatchString(t))):
				src, what = st.art, "another run's artifact"
			case st.head > 0 && l.N > st.head && privish && readsFile && !re.litName.MatchString(t):
				src, what = st.head, "the pull request's files"
			}
			if src > 0 {
				f := Finding{Line: l.N, ID: "gha-github-env-privileged", Source: src,
					Title: "writes what " + what + " holds (line " + itoa(src) + ") into GITHUB_ENV or GITHUB_PATH",
					Why:   "every later step of the job, the ones with secrets and the write token included, runs with the variables or PATH whoever made those files chose (LD_PRELOAD, NODE_OPTIONS, BASH_ENV)"}
				if re.litName.MatchString(t) {
					f.Sev = Medium
					f.Title = "writes one variable from " + what + " (line " + itoa(src) + ") into GITHUB_ENV"
					f.Why = "the name is fixed, but a newline in the value adds any other variable (LD_PRELOAD, NODE_OPTIONS): check the value is validated"
				}
				out = append(out, f)
			}
		}
	}
	return out
}

// treeBuild reports a command line that builds, installs, tests or runs
// the tree it works in: not an install of packages named from a registry,
// nor an interpreter given a script from outside the workspace.
func treeBuild(t string) bool {
	re := runnerRe()
	if !re.build.MatchString(t) {
		return false
	}
	for _, seg := range strings.FieldsFunc(t, func(r rune) bool { return r == ';' || r == '&' || r == '|' }) {
		if !re.build.MatchString(seg) {
			continue
		}
		if m := re.regInstall.FindStringSubmatch(seg); m != nil {
			named, tree := false, false
			for _, w := range strings.Fields(m[1]) {
				switch {
				case w == "-r" || w == "-e" || w == "--editable" || w == "--requirement" || w == "--path" || strings.HasPrefix(w, "-r") && len(w) > 2:
					tree = true
				case strings.HasPrefix(w, "-"):
				case strings.HasPrefix(w, ".") || strings.ContainsAny(w, "/\\"):
					tree = true
				default:
					named = true
				}
			}
			if named && !tree {
				continue
			}
		}
		if re.absScript.MatchString(seg) {
			continue
		}
		return true
	}
	return false
}

// optionDir reports a command given dir as the folder it works in or the
// project it builds (make -C dir, npm --prefix dir, pip install -e dir).
func optionDir(t, dir string) bool {
	f := strings.Fields(t)
	for i := 1; i < len(f); i++ {
		if !under(f[i], dir) {
			continue
		}
		switch strings.TrimLeft(f[i-1], "-") {
		case "C", "prefix", "cwd", "dir", "directory", "manifest-path", "project", "project-dir", "f", "file", "e", "editable", "chdir", "working-dir", "install", "build", "run", "exec", "test":
			return true
		}
	}
	return false
}

// mentionsOrWorkspace reports a local action's path inside one of dirs.
func mentionsOrWorkspace(ref string, dirs []string) bool {
	for _, d := range dirs {
		if d == "" || under(ref, d) {
			return true
		}
	}
	return false
}

// workspacePath reports a path that is the whole checkout.
func workspacePath(p string) bool {
	switch strings.TrimSuffix(strings.Trim(strings.TrimSpace(p), `"'`), "/") {
	case "", ".", "./", "${{ github.workspace }}", "${{github.workspace}}", "$GITHUB_WORKSPACE":
		return true
	}
	return false
}

// runsFrom reports a command line that runs, sources or installs a file in
// one of dirs.
func runsFrom(t string, dirs []string) bool {
	re := runnerRe()
	for _, m := range re.interp.FindAllStringSubmatch(t, -1) {
		for _, d := range dirs {
			if under(m[1], d) && (d != "" || strings.Contains(m[1], "/")) {
				return true
			}
		}
	}
	for _, m := range re.install.FindAllStringSubmatch(t, -1) {
		for _, d := range dirs {
			if under(m[1], d) && (d != "" || strings.Contains(m[1], "/")) {
				return true
			}
		}
	}
	// the program itself: ./dir/tool, dir/tool at a command's start
	for _, seg := range strings.FieldsFunc(t, func(r rune) bool { return r == ';' || r == '&' || r == '|' }) {
		f := strings.Fields(seg)
		if len(f) == 0 {
			continue
		}
		w := f[0]
		if w == "sudo" && len(f) > 1 {
			w = f[1]
		}
		if !strings.Contains(w, "/") || strings.ContainsAny(w, "'(,=") || strings.Contains(w, "://") || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "$") && !strings.HasPrefix(w, "$GITHUB_WORKSPACE") && !strings.HasPrefix(w, "${{") {
			continue
		}
		for _, d := range dirs {
			if under(w, d) {
				return true
			}
		}
	}
	return false
}

// agentStep rates an AI coding agent run on text whoever opens an issue or
// a pull request wrote: high where that text reaches its prompt and the
// agent has a shell or a token that can push, medium where it has neither
// or the text is the pull request author's own (pull_request).
func agentStep(s wfStep, st *jobState, privish bool, all []SrcLine) []Finding {
	re := runnerRe()
	ref := s.uses
	if i := strings.IndexByte(ref, '@'); i >= 0 {
		ref = ref[:i]
	}
	agentLine := 0
	if ref != "" && re.agentUses.MatchString(ref) {
		agentLine = s.usesN
	}
	for _, l := range s.body {
		if re.agentCLI.MatchString(l.Text) && agentLine == 0 {
			agentLine = l.N
		}
	}
	for _, l := range s.body {
		// a script that reads the issue or pull request itself (gh issue
		// view, the event file) hands its text on through a file or a
		// variable
		if re.eventRead.MatchString(l.Text) && (agentLine == 0 || l.N <= agentLine) {
			st.eventText = l.N
		}
	}
	if agentLine == 0 {
		return nil
	}
	// the env names bound to untrusted text
	bound := map[string]bool{}
	for k, v := range s.env {
		if OutsiderText(v.Text) {
			bound[k] = true
		}
	}
	prompt := 0
	for _, l := range append(append([]SrcLine{}, s.body...), s.lines...) {
		if OutsiderText(l.Text) && !strings.HasPrefix(strings.TrimSpace(l.Text), "if:") && !inEnvBinding(l.Text, bound) {
			prompt = l.N
			break
		}
		for k := range bound {
			if strings.Contains(l.Text, "$"+k) || strings.Contains(l.Text, "${"+k) || strings.Contains(l.Text, "env."+k) || strings.Contains(l.Text, "$env:"+k) || strings.Contains(l.Text, "process.env."+k) {
				prompt = l.N
			}
		}
		if prompt > 0 {
			break
		}
	}
	if prompt == 0 && st.eventText > 0 {
		prompt = st.eventText
		if prompt < agentLine {
			prompt = agentLine
		}
	}
	power := ""
	for _, l := range s.lines {
		if re.shellTools.MatchString(l.Text) {
			power = "a shell"
			break
		}
	}
	if power == "" {
		for _, l := range s.lines {
			if k := strings.ToLower(strings.SplitN(l.Text, ":", 2)[0]); re.writeToken.MatchString(l.Text) && !strings.Contains(l.Text, "GITHUB_TOKEN") && !strings.Contains(k, "oauth") && !strings.Contains(k, "api") {
				power = "a token of its own (" + strings.TrimSpace(l.Text) + ")"
				break
			}
		}
	}
	if power == "" {
		for _, l := range all {
			if strings.Contains(l.Text, "contents: write") || strings.Contains(l.Text, "write-all") {
				power = "a token that can push"
			}
		}
	}
	switch {
	case prompt > 0 && privish && power != "":
		return []Finding{{Line: prompt, ID: "gha-agent-untrusted", Source: agentLine,
			Title: "hands text whoever opens an issue or pull request wrote to an AI agent with " + power}}
	case st.head > 0 && privish && power == "a shell":
		return []Finding{{Line: agentLine, ID: "gha-agent-untrusted", Source: st.head,
			Title: "runs an AI agent with a shell on the pull request's code (brought in on line " + itoa(st.head) + ") in a privileged workflow"}}
	case prompt > 0:
		return []Finding{{Line: prompt, ID: "gha-agent-untrusted", Sev: Medium,
			Title: "hands an issue's or pull request's text to an AI agent",
			Why:   "the text can instruct the agent; here it has no shell and no token that can push, or the text is the pull request author's own"}}
	}
	return nil
}

// inEnvBinding reports an env: line that binds a name to the text (the
// prompt is where the name is used).
func inEnvBinding(t string, bound map[string]bool) bool {
	k, _, ok := strings.Cut(strings.TrimSpace(t), ":")
	return ok && bound[strings.TrimSpace(k)]
}

// Tunnel reads a command (its program's base name and its words) that
// opens a way into the machine it runs on from outside: a reverse SSH
// forward (ssh -R, -o RemoteForward), a tunnel service's client exposing a
// local TCP port or SSH (ngrok tcp, cloudflared with an ssh:// or tcp://
// origin, bore, chisel's reverse remotes, frp's client, zrok), a shared
// terminal (tmate, upterm, sshx, ttyd, gotty), Tailscale's SSH server. It
// returns what the command opens. A hosted runner takes no connections;
// these make it take one, for as long as the job is kept running.
func Tunnel(name string, words []string) (string, bool) {
	arg := func(i int) string {
		if i < len(words) {
			return words[i]
		}
		return ""
	}
	switch name {
	case "ssh", "autossh":
		// ssh's flags that take an argument, which may be joined to them
		// (-R2222:localhost:22) or be the next word (-fNR 2222:…).
		takesArg := "BbcDEeFIiJLlmOoPpQRSWw"
		if name == "autossh" {
			takesArg += "M" // autossh's monitoring port
		}
		for i := 1; i < len(words); i++ {
			w := words[i]
			if !strings.HasPrefix(w, "-") || w == "--" {
				break // the destination: what follows is the remote command's (ssh host chown -R …)
			}
			for j := 1; j < len(w); j++ {
				c := w[j]
				if !strings.ContainsRune(takesArg, rune(c)) {
					continue
				}
				v := w[j+1:]
				if v == "" {
					v = arg(i + 1)
					i++
				}
				switch {
				case c == 'R':
					return "opens a reverse SSH tunnel (ssh -R): the host it connects to reaches back into the runner", true
				case c == 'o' && strings.HasPrefix(strings.ToLower(strings.TrimLeft(v, `"'`)), "remoteforward"):
					return "opens a reverse SSH tunnel (RemoteForward): the host it connects to reaches back into the runner", true
				}
				break
			}
		}
	case "ngrok":
		switch arg(1) {
		case "tcp", "tls", "tunnel":
			return "exposes a port of the runner to the internet through ngrok", true
		case "http":
			if slices.ContainsFunc(words[2:], sshPort) {
				return "exposes the runner's SSH port to the internet through ngrok", true
			}
		}
	case "cloudflared":
		for i, w := range words {
			u := strings.TrimPrefix(w, "--url=")
			if w == "--url" {
				u = arg(i + 1)
			}
			if slices.Contains(words, "tunnel") && (strings.HasPrefix(u, "ssh://") || strings.HasPrefix(u, "tcp://") || strings.HasPrefix(u, "rdp://") || u != w && sshPort(u)) {
				return "exposes the runner's " + strings.SplitN(u, ":", 2)[0] + " service to the internet through a Cloudflare tunnel", true
			}
		}
	case "tmate", "sshx", "ttyd", "gotty":
		if v := arg(1); v == "-V" || v == "--version" || v == "-h" || v == "--help" {
			return "", false
		}
		return "shares a terminal on the runner (" + name + ") with whoever has its address", true
	case "upterm":
		if arg(1) == "host" {
			return "shares a terminal on the runner (upterm host) with whoever has its address", true
		}
	case "bore":
		if arg(1) == "local" {
			return "exposes a port of the runner to the internet through bore", true
		}
	case "chisel":
		if arg(1) == "client" && slices.ContainsFunc(words[2:], func(w string) bool { return strings.HasPrefix(w, "R:") }) {
			return "opens a reverse tunnel into the runner (chisel R:)", true
		}
	case "frpc":
		return "exposes the runner's ports through an frp server", true
	case "zrok":
		if arg(1) == "share" {
			return "exposes a port of the runner to the internet through zrok", true
		}
	case "tailscale":
		if arg(1) == "up" && slices.ContainsFunc(words, func(w string) bool { return w == "--ssh" || w == "--ssh=true" }) {
			return "joins the runner to a tailnet with Tailscale's SSH server on", true
		}
	}
	return "", false
}

// sshPort reports a port word that is SSH's: 22, or host:22.
func sshPort(w string) bool { return w == "22" || strings.HasSuffix(w, ":22") }

// DebugSession reports a GitHub action that opens a terminal on the runner
// for whoever reads the session's address in the job's log: the debugging
// steps maintainers add to their own workflows (tmate, upterm, sshd behind
// a Cloudflare tunnel).
func DebugSession(action string) bool {
	switch strings.ToLower(action) {
	case "mxschmitt/action-tmate", "lhotari/action-upterm", "owenthereal/action-upterm", "csexton/debugger-action", "valeriangalliat/action-sshd-cloudflared":
		return true
	}
	return false
}

// agentJars are the programs a CI system's build agent is started from:
// Jenkins' inbound agent (agent.jar, and its older names) and its swarm
// plug-in's client, which connect to the controller they are given and
// run whatever jobs it sends.
var agentJars = []string{"agent.jar", "slave.jar", "remoting.jar", "swarm-client.jar"}

// Registration reads a command (its program's base name and its words) that
// registers a machine as a CI system's runner or build agent: GitHub's and
// Azure Pipelines' config.sh with a URL and a token, Jenkins' inbound agent
// or swarm client with the controller's URL and a secret. It returns the
// URL the machine registers with ("" when a variable gives it).
func Registration(name string, words []string) (url string, ok bool) {
	flag := func(names ...string) (string, bool) {
		for i, w := range words {
			for _, n := range names {
				if v, cut := strings.CutPrefix(w, n+"="); cut {
					return v, true
				}
				if w == n && i+1 < len(words) {
					return words[i+1], true
				}
			}
		}
		return "", false
	}
	switch name {
	case "config.sh", "config.cmd", "config.ps1":
		url, _ = flag("--url")
		_, tok := flag("--token", "--pat")
		return url, url != "" && tok
	case "act_runner", "forgejo-runner", "gitea-runner", "gitlab-runner":
		// Gitea's and Forgejo's runners, and GitLab's, registered (or run
		// once) against the instance and token they are given.
		if len(words) < 2 || words[1] != "register" && words[1] != "run-single" {
			return "", false
		}
		url, _ = flag("--instance", "--url", "-u")
		_, tok := flag("--token", "--registration-token", "-r", "-t")
		return url, url != "" && tok
	case "java", "java.exe":
		jar, _ := flag("-jar")
		if i := strings.LastIndexAny(jar, `/\`); i >= 0 {
			jar = jar[i+1:]
		}
		if !slices.Contains(agentJars, strings.ToLower(jar)) && !strings.HasPrefix(strings.ToLower(jar), "swarm-client") {
			return "", false
		}
		url, _ = flag("-url", "-jnlpUrl", "-master", "--url")
		_, secret := flag("-secret", "-jnlpCredentials", "-password", "-passwordEnvVariable", "--secret")
		return url, url != "" && (secret || strings.Contains(url, "jenkins-agent.jnlp") || strings.Contains(url, "slave-agent.jnlp"))
	}
	return "", false
}

// RunnerKeys are the lower-cased words a line needs for ProgramRunner to
// have anything to say (the runner's caches, a runner registration): the
// scan indexes them with the other line keys, so most files are passed
// over without a regexp.
var RunnerKeys = []string{"_actions", "_tool", "hostedtoolcache", "agent_toolsdirectory", "actions/runners/", "registrationtoken", "runnerjitconfig", "runner register", "svc.sh", "-agent start", "config.sh", "config.cmd", "config.ps1", "actions_runner_hook_job", "agent.jar", "slave.jar", "swarm-client",
	"command -v", "$(which ", "type -p ", "get-command "}

// ProgramRunner reads a program or script for what it does to the runner
// itself: files written into the runner's action cache, tool cache or its
// own configuration (by a path built over several lines), and a runner
// registered with a token it mints.
func ProgramRunner(lines []SrcLine) []Finding {
	re := runnerRe()
	cached, minted := false, 0
	for _, l := range lines {
		if re.cacheRef.MatchString(l.Text) {
			cached = true
		}
		if minted == 0 && re.mint.MatchString(l.Text) {
			minted = l.N
		}
	}
	// An installer registers the runner with the repository its caller
	// names (config.sh --url "$url"), as a runner image's entrypoint does:
	// minting the token for it and starting the service are its job, and
	// the shell reader rates the registration itself.
	literal, given := false, false
	for _, l := range lines {
		literal = literal || re.progRegister.MatchString(l.Text)
		given = given || re.givenRegister.MatchString(l.Text)
	}
	installer := given && !literal
	lower := func(f Finding) Finding {
		if installer {
			f.Sev = Medium
			f.Why = "the file registers the runner with the repository its caller names, as a runner installer or image does; a job that runs it hands the runner to whoever named it"
		}
		return f
	}
	var out []Finding
	for i, l := range lines {
		if re.otherRunner.MatchString(l.Text) || re.runnerStart.MatchString(l.Text) && registers(lines[i:min(i+4, len(lines))]) {
			f := Finding{Line: l.N, ID: "runner-register"}
			if strings.Contains(l.Text, "svc.sh") {
				f = lower(f)
			}
			out = append(out, f)
		}
	}
	for _, l := range lines {
		if re.runnerHook.MatchString(l.Text) && (strings.Contains(l.Text, ".env") || strings.Contains(l.Text, ".path")) && (re.writeSink.MatchString(l.Text) || strings.Contains(l.Text, ">")) {
			out = append(out, Finding{Line: l.N, ID: "runner-action-cache", Title: "writes a job hook into the self-hosted runner's .env"})
		}
	}
	if minted > 0 {
		out = append(out, lower(Finding{Line: minted, ID: "runner-register", Title: "mints a token that registers a self-hosted runner"}))
		for _, l := range lines {
			if l.N != minted && re.procStart.MatchString(l.Text) && (re.runnerStart.MatchString(l.Text) || strings.Contains(l.Text, "--token")) {
				out = append(out, lower(Finding{Line: l.N, ID: "runner-register", Source: minted, Title: "registers or starts a self-hosted runner with the token line " + itoa(minted) + " mints"}))
			}
		}
	}
	out = append(out, toolReplaced(lines)...)
	if !cached {
		return out
	}
	// names bound to a path in the caches, and the line that named it
	names := map[string]int{}
	refers := func(t string) int {
		for n, at := range names {
			if wordIn(t, n) {
				return at
			}
		}
		return 0
	}
	for _, l := range lines {
		t := l.Text
		direct := re.cacheRef.MatchString(t)
		if m := re.forIn.FindStringSubmatch(t); m != nil {
			v, src := m[1]+m[3], m[2]+m[4]
			if m[5] != "" {
				v, src = "_", m[5]
			}
			if at := refers(src); at > 0 || re.cacheRef.MatchString(src) {
				if at == 0 {
					at = l.N
				}
				names[v] = at
				if v == "_" {
					names["PSItem"] = at
				}
			}
		} else if re.pipeIn.MatchString(t) && (direct || refers(t) > 0) {
			at := refers(t)
			if at == 0 {
				at = l.N
			}
			names["_"], names["PSItem"] = at, at
		}
		if m := re.assign.FindStringSubmatch(t); m != nil && !re.writeSink.MatchString(t) {
			rhs := m[2]
			at := refers(rhs)
			if re.cacheRef.MatchString(rhs) {
				at = l.N
			}
			if at > 0 && !listsOrReads(rhs) {
				names[m[1]] = at
			} else {
				delete(names, m[1])
			}
			continue
		}
		if !re.writeSink.MatchString(t) {
			continue
		}
		at := 0
		if direct {
			at = l.N
		} else {
			at = destRefers(t, refers)
		}
		if at > 0 {
			out = append(out, Finding{Line: l.N, ID: "runner-action-cache", Source: at})
		}
	}
	return out
}

var (
	// toolLocRe is where the shell finds a program: the path of a tool on
	// the PATH (a setup action's tool cache, /usr/bin), or its folder.
	toolLocRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\$\((?:\s*dirname\s+["']?\$\()?\s*(?:command\s+-v|which|type\s+-[pP])\s+[\w.+-]+|\(Get-Command\s+[\w.+-]+\)\.(?:Source|Path)`)
	})
	// toolDestRe is the destination of a write: curl's or wget's output,
	// a redirection, the last word of a move, copy, install or link, tee's
	// file.
	toolDestRe = sync.OnceValue(func() *regexp.Regexp {
		const word = `("[^"]*"|'[^']*'|\$\([^)]*\)\)?|[^\s;&|]+)`
		return regexp.MustCompile(`(?:\s(?:-o|-O|--output|--output-document)[= ]|>>?\s*|\btee\s+(?:-a\s+)?)` + word + `|^\s*(?:sudo\s+)?(?:mv|cp|install|ln)\s+(?:-\S+\s+)*\S+\s+` + word + `\s*$`)
	})
)

// toolReplaced finds writes over a program the later steps run by name: a
// variable bound to where the shell finds a tool (NODE_DIR=$(dirname
// "$(command -v node)")), or that lookup itself, as the destination of a
// download, a move, a copy or a redirection. The next step that runs the
// tool runs what was written in its place (the tj-actions way of
// replacing a tool), with that step's secrets.
func toolReplaced(lines []SrcLine) []Finding {
	vars := map[string]int{}
	var out []Finding
	for _, l := range lines {
		t := l.Text
		if m := runnerRe().assign.FindStringSubmatch(t); m != nil && toolLocRe().MatchString(m[2]) {
			vars[m[1]] = l.N
			continue
		}
		for _, d := range toolDestRe().FindAllStringSubmatch(t, -1) {
			dest := strings.Trim(d[1]+d[2], `"'`)
			at := 0
			if toolLocRe().MatchString(dest) {
				at = l.N
			}
			for v, n := range vars {
				if strings.HasPrefix(dest, "$"+v) && !isWordByte(dest, len(v)+1) || strings.HasPrefix(dest, "${"+v+"}") {
					at = n
				}
			}
			if at > 0 {
				out = append(out, Finding{Line: l.N, ID: "runner-action-cache", Source: at,
					Title: "writes over a program the later steps run by name (where line " + itoa(at) + " found it on the PATH)",
					Why:   "the next step that runs the tool runs what was written in its place, with that step's secrets; on a self-hosted runner, so do the jobs after this one"})
				break
			}
		}
	}
	return out
}

// isWordByte reports whether s[i] continues a shell variable's name.
func isWordByte(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	c := s[i]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// registers reports a statement (its first lines) that registers a runner
// with a repository URL it names and a token: its arguments may be split
// over the statement's lines.
func registers(ls []SrcLine) bool {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.Text)
		b.WriteByte(' ')
	}
	stmt := b.String()
	return runnerRe().progRegister.MatchString(stmt) && strings.Contains(stmt, "--token")
}

// destRefers is the line that named the cache path a write on t goes to:
// the first argument of a write, any argument of a copy or a rename, the
// receiver of a method write, a PowerShell -Path.
func destRefers(t string, refers func(string) int) int {
	re := runnerRe()
	loc := re.writeSink.FindStringIndex(t)
	if loc == nil {
		return 0
	}
	before, after := t[:loc[0]], t[loc[0]:]
	if strings.HasPrefix(after, ".write_") {
		// receiver.write_text(...)
		f := strings.FieldsFunc(before, func(r rune) bool { return r == ' ' || r == '(' || r == '=' })
		if len(f) > 0 {
			return refers(f[len(f)-1])
		}
		return 0
	}
	args := after
	if i := strings.IndexByte(after, '('); i >= 0 && i < 30 {
		args = after[i+1:]
		low := strings.ToLower(after[:i])
		if !strings.Contains(low, "copy") && !strings.Contains(low, "rename") && !strings.Contains(low, "move") && !strings.Contains(low, "replace") {
			args = FirstArg(args)
		}
	}
	return refers(args)
}

// FirstArg is the text of a call's first argument: s starts after the
// call's "(" and ends at the first comma or closing bracket outside nesting.
func FirstArg(s string) string {
	depth := 0
	for i, r := range s {
		switch r {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return s[:i]
			}
			depth--
		case ',':
			if depth == 0 {
				return s[:i]
			}
		}
	}
	return s
}

// listsOrReads reports an expression that reads or lists what a path
// holds rather than naming a path.
func listsOrReads(s string) bool {
	ls := strings.ToLower(s)
	for _, k := range []string{"readdir", "readfile", "read_text", "read_bytes", "listdir", "scandir", "get-content", "exists", "stat(", ".map(", ".length", "len("} {
		if strings.Contains(ls, k) {
			return true
		}
	}
	return false
}

// wordIn reports name as a whole word in t ("_" as PowerShell's $_).
func wordIn(t, name string) bool {
	if name == "_" {
		return strings.Contains(t, "$_")
	}
	for i := 0; ; {
		j := strings.Index(t[i:], name)
		if j < 0 {
			return false
		}
		j += i
		e := j + len(name)
		if (j == 0 || !identByte(t[j-1])) && (e == len(t) || !identByte(t[e])) {
			return true
		}
		i = j + 1
	}
}

func identByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func itoa(n int) string { return strconv.Itoa(n) }
