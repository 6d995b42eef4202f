package packet

// The attention rules: what each line rule matches, how severe it is, and
// why it matters on the runner /ok to test lets the change run on — the
// project's own CI machines, with their network, caches and secrets.
// docs/packet-format.md ("Attention") lists every rule with the class it
// covers.

import (
	"regexp"
	"strings"
	"sync"
)

// ruleHit is what a rule says about one line.
type ruleHit struct {
	rule     string
	kind     AttentionKind
	severity string
	title    string
	why      string
}

// The reasons several rules share.
const (
	hiddenWhy   = "what the line shows is not what the compiler, shell or reviewer reads"
	whyScript   = "a script the build or CI may call: read what it runs"
	whyRunner   = "it runs on the project's runners with their network and secrets"
	whyDownload = "code fetched at run time is not in this diff, yet it runs on the runner with its network and secrets"
	whySecrets  = "the runner's environment holds its tokens and secrets; whoever reads this output gets them"
)

// fileRules names the rule and reason of each kind of file classifyPath
// knows, by its noun; severity "" takes the kind's default.
var fileRules = map[string]struct{ rule, severity, why string }{
	"CI workflow":            {"ci-workflow", AttentionMedium, "a workflow runs on the project's runners with the repository's token and secrets once the change is tested; its lines are read rule by rule"},
	"GitHub Action":          {"ci-action", AttentionMedium, "a local action runs inside the workflows that use it, with their token and secrets; its lines are read rule by rule"},
	"GitLab CI config":       {"ci-config", "", whyRunner},
	"CircleCI config":        {"ci-config", "", whyRunner},
	"Jenkinsfile":            {"ci-config", "", whyRunner},
	"Azure Pipelines config": {"ci-config", "", whyRunner},
	"Buildkite pipeline":     {"ci-config", "", whyRunner},
	"Travis CI config":       {"ci-config", "", whyRunner},
	"CI config":              {"ci-config", "", whyRunner},
	"pytest conftest.py (runs on every pytest)": {"test-config", "", "pytest imports it before any test, so its code runs on every test run CI makes"},
	"test runner config":                        {"test-config", "", "the test runner loads it on every run CI makes"},
	"git hook":                                  {"git-hook", "", "runs at git commands wherever the hooks are installed, the runner's checkout included"},
	"direnv .envrc (runs on cd)":                {"envrc", "", "direnv runs it in every shell that enters the folder"},
	"editor tasks":                              {"editor-tasks", "", "an editor runs these tasks in the reviewer's own workspace"},
	"shell script":                              {"script", "", whyScript},
	"Makefile":                                  {"makefile", "", "make runs its recipes as shell commands during the build"},
	"Dockerfile":                                {"dockerfile", "", "its RUN lines run at image build, on the runner with its network"},
	"Docker Compose file":                       {"compose", "", "it decides which images run and what they mount during the build or tests"},
	"setup.py (runs at install)":                {"setup-py", "", "pip runs setup.py at install, before any test and whatever the tests say"},
	"Python packaging config":                   {"build-backend", "", "it names the build backend and hooks pip runs at install"},
	"package.json (scripts run on npm install)": {"package-json", "", "npm runs its lifecycle scripts at install, before any test"},
	"Cargo build script":                        {"build-rs", "", "cargo runs build.rs at every build, before any test"},
	"git attributes (filters)":                  {"gitattributes", "", "it names the filters and drivers git runs on checkout and diff"},
	"git submodules":                            {"gitmodules", "", "a recursive checkout fetches and checks out whatever it names"},
	"git config":                                {"git-config", AttentionHigh, "a git config in the tree can name commands git runs (filters, hooks, fsmonitor)"},
	"CODEOWNERS":                                {"codeowners", AttentionHigh, "it decides whose approval a change needs: editing it can take a reviewer off what comes next"},
	"pre-commit config":                         {"pre-commit", "", "pre-commit fetches and runs the hooks it names"},
	"package manager config":                    {"package-manager-config", "", "it can point installs at another registry or run scripts"},
	"dev container config":                      {"devcontainer", "", "its commands run when the container is built or opened"},
	"Go module requirements":                    {"dependency", "", "it changes which code is fetched and built"},
	"Go checksums":                              {"dependency", "", "it changes which code is fetched and built"},
	"dependency manifest":                       {"dependency", "", "it changes which code is fetched and built"},
	"lock file":                                 {"lock-file", "", "it changes exactly which code is fetched and built"},
}

// buildCode says, by noun, which files are code that runs by itself at
// install, build or test time; a promote rule is high in them.
var buildCode = map[string]string{
	"setup.py (runs at install)":                "setup.py runs it at every pip install",
	"pytest conftest.py (runs on every pytest)": "conftest.py runs it at every pytest",
	"Cargo build script":                        "build.rs runs it at every cargo build",
	"test runner config":                        "the test runner runs it at every test run",
	"Gradle build file":                         "Gradle runs it at every build",
	"tox or nox config":                         "nox runs it at every session",
	// Not Makefiles, justfiles or Taskfiles: fetching a tool is what their
	// recipes commonly do, and their lines are read by the other rules.
}

// lowerWhereHarmless makes a high item medium where the line cannot do
// what the rule fears: a comment does not run (a token or a key in one is
// still a secret, and hidden text in one is Trojan Source's own trick), and a
// private key among test files is most likely a test key.
func (h *ruleHit) lowerWhereHarmless(path, text string) {
	if h.severity != AttentionHigh {
		return
	}
	switch {
	case h.rule == "private-key" && testPath(path):
		h.severity = AttentionMedium
		h.why = "a key among test files is most likely a test key; check it is not a real one"
	case h.rule != "live-token" && h.rule != "private-key" && commentLine(text):
		h.severity = AttentionMedium
		h.title += " (in a comment)"
		h.why = "a comment does not run; check the line really is one"
	}
}

// commentLine reports a line that is a comment in the languages a diff
// commonly holds: "# ", "// ", "/* ", "* ", "<!-- ". "#!", "#include" and
// "//go:generate" are not comments to the tools that read them.
func commentLine(s string) bool {
	t := strings.TrimLeft(s, " \t")
	switch {
	case t == "#" || t == "//":
		return true
	case strings.HasPrefix(t, "# "), strings.HasPrefix(t, "#\t"), strings.HasPrefix(t, "// "), strings.HasPrefix(t, "/* "),
		strings.HasPrefix(t, "* "), strings.HasPrefix(t, "<!-- "):
		return true
	}
	return false
}

// testPath reports a file among tests or their fixtures.
func testPath(p string) bool {
	lp := "/" + strings.ToLower(p)
	for _, d := range []string{"/testdata/", "/test/", "/tests/", "/fixtures/", "/__tests__/", "/spec/", "/testing/"} {
		if strings.Contains(lp, d) {
			return true
		}
	}
	base := lp[strings.LastIndexByte(lp, '/')+1:]
	return strings.Contains(base, "_test.") || strings.HasPrefix(base, "test_")
}

// except matches when m does and not does not: Go's regexps have no
// negative look-ahead, and "http://localhost" is a test registry, not a risk.
type except struct {
	m   matcher
	not *regexp.Regexp
}

func (e except) MatchString(s string) bool { return e.m.MatchString(s) && !e.not.MatchString(s) }

// tokenMatcher matches a token shape that is not a placeholder: AWS's own
// documentation key ends in EXAMPLE, and "ghp_xxxx…" has too few distinct
// characters to be random.
type tokenMatcher struct{ re *regexp.Regexp }

func (t tokenMatcher) MatchString(s string) bool {
	for _, m := range t.re.FindAllString(s, 4) {
		if !placeholderToken(m) {
			return true
		}
	}
	return false
}

func placeholderToken(tok string) bool {
	up := strings.ToUpper(tok)
	if strings.Contains(up, "EXAMPLE") || strings.Contains(up, "XXXXXXXX") || strings.Contains(up, "REDACTED") {
		return true
	}
	var seen [256]bool
	distinct := 0
	for i := 0; i < len(tok); i++ {
		if !seen[tok[i]] {
			seen[tok[i]] = true
			distinct++
		}
	}
	return distinct < 10
}

// shellPipe is "| sh", "| sudo bash", "| /bin/sh", "| python3", "| iex".
const shellPipe = `(?i)\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:\S*/)?(?:env\s+)?(?:(?:ba|z|da|k|fi|tc|c)?sh|python[0-9.]*|perl|ruby|node|iex|invoke-expression)\b`

var lineRules = sync.OnceValue(func() []lineRule {
	shellPipeRe := regexp.MustCompile(shellPipe)
	// localHost is a URL on the machine itself (a test registry), not the network.
	credentialFile := regexp.MustCompile(`(?:~|\$HOME|\$\{HOME\}|/root|/home/[^/\s]+|expanduser\(["']~)/\.(?:ssh|netrc|git-credentials|aws/credentials|docker/config\.json|pypirc|npmrc|kube/config|config/gcloud)\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\.git-credentials\b|/proc/(?:self|\d+|\$\w+)/environ`)
	localHost := regexp.MustCompile(`(?i)https?://(?:localhost|127\.0\.0\.1|\[::1\]|0\.0\.0\.0)\b`)
	const (
		all  = 0
		wf   = scopeWorkflow
		none = false
	)
	return []lineRule{
		// ---- high: could take over the runner or leak its secrets with no further step
		{"decode-and-run", AttentionDecodeExec, AttentionHigh, "decodes data and pipes it to a shell",
			"a payload nobody can read in the diff is decoded and run by a shell on the runner", all, 0, none,
			[]string{"base64", "xxd", "openssl", "uudecode", "gunzip", "zcat", "base32"},
			regexp.MustCompile(`(?i)(?:\bbase(?:64|32)\b[^|]*\s(?:-d|-D|--decode)\b|\bxxd\b[^|]*\s-r|\bopenssl\b[^|]*\s-d\b|\buudecode\b|\bgunzip\b|\bzcat\b)[^|]*` + shellPipe)},
		{"decode-and-run", AttentionDecodeExec, AttentionHigh, "decodes data and runs it (eval/exec)",
			"a payload nobody can read in the diff is decoded and run in-process on the runner", all, 0, none,
			[]string{"b64decode", "decodebytes", "decodestring", "unhexlify", "fromhex", "decompress", "atob", "base64", "frombase64string"},
			regexp.MustCompile(`(?i)\b(?:exec|eval|function|iex|invoke-expression)\b\s*\(?.*\b(?:b64decode|b32decode|a85decode|decodebytes|decodestring|unhexlify|fromhex|decompress|atob|frombase64string)\b|` +
				`\b(?:b64decode|b32decode|a85decode|decodebytes|decodestring|unhexlify|fromhex|decompress|atob|frombase64string)\b.*\b(?:exec|eval|iex|invoke-expression)\b|` +
				`\b(?:exec|eval)\s*\(.*\bBuffer\.from\([^)]*base64`)},
		{"decode-and-run", AttentionDecodeExec, AttentionHigh, "runs inline code that decodes a payload",
			"a payload nobody can read in the diff is decoded and run on the runner", all, 0, none,
			[]string{"python", "node", "perl", "ruby"},
			regexp.MustCompile(`(?i)\b(?:python[0-9.]*|node|perl|ruby)\s+-[ce]\b.*(?:decode|decompress|fromhex|unhexlify|atob|buffer\.from|unpack)`)},
		{"decode-and-run", AttentionDecodeExec, AttentionHigh, "PowerShell runs an encoded command",
			"a payload nobody can read in the diff is run by PowerShell on the runner", all, 0, none,
			[]string{"powershell", "pwsh"},
			regexp.MustCompile(`(?i)\b(?:powershell|pwsh)(?:\.exe)?\b.*\s-(?:e|ec|en|enc|encodedcommand)\s+[A-Za-z0-9+/=]{16,}`)},
		{"download-and-run", AttentionDownload, AttentionHigh, "downloads and pipes to a shell", whyDownload, all, 0, none,
			[]string{"curl", "wget", "iwr", "irm", "invoke-webrequest", "invoke-restmethod", "downloadstring"},
			either{both{regexp.MustCompile(`(?i)\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b`), shellPipeRe},
				regexp.MustCompile(`(?i)\b(?:(?:ba|z|da|k)?sh|source|\.)\s+<\(\s*(?:curl|wget)\b|` +
					`\b(?:(?:ba|z|da|k)?sh)\s+-c\s+["']?\$\(\s*(?:curl|wget)\b|` +
					`\b(?:iex|invoke-expression)\b.*\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring)\b`)}},
		{"download-and-run", AttentionDownload, AttentionHigh, "downloads a program and runs it", whyDownload, all, 0, none,
			[]string{"curl", "wget"},
			both{regexp.MustCompile(`(?i)\b(?:curl|wget)\b[^;&|]*\s-[a-z]*[oO]\b`),
				regexp.MustCompile(`(?:&&|;)\s*(?:chmod\s+(?:\+x|[0-7]*[157][0-7]*)\b|(?:ba|z)?sh\s+\S|\./\S)`)}},
		{"download-and-run", AttentionDownload, AttentionHigh, "downloads code and runs it in-process", whyDownload, all, 0, none,
			[]string{"exec", "eval"},
			regexp.MustCompile(`\b(?:exec|eval)\s*\(.*(?:\burlopen\(|\brequests\.get\(|\burllib\.request\b|\bfetch\(|\bhttpx\.get\(|\bhttp\.get\()`)},
		{"reverse-shell", AttentionNetwork, AttentionHigh, "opens a raw connection or a reverse shell",
			"it gives a machine outside a shell inside the project's network and runner", all, 0, none,
			[]string{"/dev/tcp/", "/dev/udp/", "nc ", "ncat", "netcat", "socat", "pty.spawn", "dup2", "mkfifo", "connect("},
			regexp.MustCompile(`/dev/(?:tcp|udp)/|(?:^|[\s;|&(])(?:nc|ncat|netcat)\s+(?:-\S+\s+)*-[a-z]*[ec]\b|\bsocat\b.*\b(?:exec|system):|\bncat\b.*\s--(?:sh-|lua-)?exec\b|\bpty\.spawn\(|\bdup2\(\s*(?:s|so|sock|socket|conn|client|c|sk)\.fileno\(\)|\bmkfifo\b.*\b(?:nc|ncat|sh|bash)\b|\bconnect\(.*(?:/bin/(?:ba|z|da)?sh\b|cmd\.exe)`)},
		{"reverse-shell", AttentionNetwork, AttentionHigh, "connects to a hard-coded IP address",
			"a connection to a fixed address outside is how a runner calls home", all, 0, none,
			[]string{"connect"},
			except{regexp.MustCompile(`\bconnect\(\s*\(?\s*["']\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?["']|\.connect\(\s*\d+\s*,\s*["']\d{1,3}(?:\.\d{1,3}){3}["']`),
				regexp.MustCompile(`["'](?:127\.|0\.0\.0\.0|10\.0\.2\.2)`)}},
		{"crypto-mining", AttentionExecute, AttentionHigh, "mines cryptocurrency",
			"it spends the project's machines on someone else's mining", all, 0, none,
			[]string{"stratum", "xmrig", "minerd", "cpuminer", "ethminer", "nbminer", "donate-level", "minexmr", "supportxmr", "nanopool", "2miners", "hashvault", "moneroocean", "nicehash", "ethermine", "herominers"},
			regexp.MustCompile(`(?i)stratum\+(?:tcp|ssl|tls)://|\b(?:xmrig|minerd|cpuminer|ethminer|nbminer)\b|--donate-level\b|\b(?:minexmr|supportxmr|nanopool|2miners|hashvault|moneroocean|nicehash|ethermine|herominers)\.(?:com|org|net|pro|io)\b`)},
		{"persistence", AttentionExecute, AttentionHigh, "installs something that runs again later (cron, systemd, shell rc, keys)",
			"it outlives this job: the next job on the runner, another project's included, runs it too", all, 0, none,
			[]string{"cron", "systemctl", "systemd", "init.d", "rc.local", "bashrc", "bash_profile", "profile", "zshrc", "authorized_keys", "launchctl", "launchagents", "ld.so.preload"},
			regexp.MustCompile(`\bcrontab\b|/etc/cron|/var/spool/cron|\bsystemctl\s+(?:--user\s+)?(?:enable|link|daemon-reload)\b|/etc/systemd/|\.config/systemd/|/etc/init\.d/|/etc/rc\.local|` +
				`>>?\s*["']?(?:~|\$HOME|\$\{HOME\}|/root|/home/[^/\s]+)/\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv)\b|/etc/profile\b|/etc/profile\.d/|/etc/bash\.bashrc|` +
				`\bauthorized_keys\b|\blaunchctl\s+(?:load|bootstrap)\b|LaunchAgents/|/etc/ld\.so\.preload`)},
		{"git-hooks", AttentionScript, AttentionHigh, "points git at hooks the change ships",
			"every later git command on the runner runs the change's own scripts", all, 0, none,
			[]string{"hookspath", ".git/hooks"},
			regexp.MustCompile(`(?i)\bcore\.hookspath\b|\.git/hooks/`)},
		{"git-config-exec", AttentionExecute, AttentionHigh, "configures a command git runs by itself (filter, textconv, fsmonitor, ssh)",
			"git runs the configured command on checkout, diff or fetch, without anyone calling it", all, 0, none,
			[]string{"git", "[filter"},
			regexp.MustCompile(`(?i)\bgit\s+config\b.*\b(?:filter\.\S+\.(?:clean|smudge|process)|diff\.\S+\.textconv|merge\.\S+\.driver|core\.(?:fsmonitor|sshcommand|pager|editor|askpass|gitproxy)|credential\.helper|protocol\.ext\.allow)\b|^\s*\[filter\s+"`)},
		{"private-key", AttentionCredential, AttentionHigh, "holds a private key",
			"a key committed to the tree is a key anyone who reads the repository holds", all, 0, none,
			[]string{"-----begin"},
			regexp.MustCompile(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY`)},
		{"live-token", AttentionCredential, AttentionHigh, "holds what looks like a live token",
			"a live credential in the change is leaked to everyone who can read the pull request", all, 0, none,
			[]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "akia", "asia", "xox", "hooks.slack.com", "npm_", "pypi-age", "glpat-", "private_key_id", "aws_secret_access_key", "aiza"},
			tokenMatcher{regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}|(?:AKIA|ASIA)[0-9A-Z]{16}|xox[abposr]-[0-9]{6,}-[A-Za-z0-9-]{8,}|` +
				`hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{16,}|npm_[A-Za-z0-9]{36}|pypi-AgE[A-Za-z0-9_-]{20,}|glpat-[A-Za-z0-9_-]{20}|AIza[0-9A-Za-z_-]{35})|` +
				`"private_key_id"\s*:\s*"[0-9a-f]{40}"|(?i:aws_secret_access_key)\s*[:=]\s*["']?[A-Za-z0-9/+]{40}\b`)}},
		{"ci-token", AttentionCredential, AttentionHigh, "reads a CI token",
			"code that reads the runner's token can act as the repository or hand the token on", all, wf, none,
			[]string{"github_token", "gh_token", "gh_pat", "actions_runtime_token", "actions_id_token", "actions_cache_url", "actions_results_url", "github.token", "ci_job_token"},
			either{regexp.MustCompile(`\bACTIONS_(?:RUNTIME_TOKEN|ID_TOKEN_REQUEST_(?:TOKEN|URL)|CACHE_URL|RESULTS_URL)\b|\bgithub\.token\b`),
				both{regexp.MustCompile(`\b(?:GITHUB_TOKEN|GH_TOKEN|GH_PAT|CI_JOB_TOKEN)\b`), regexp.MustCompile(`\$\{?(?:GITHUB_TOKEN|GH_TOKEN|GH_PAT|CI_JOB_TOKEN)\b|%(?:GITHUB_TOKEN|GH_TOKEN)%|\benviron\b|\b[Gg]etenv\b|\bLookupEnv\b|\bprocess\.env\b|\bENV\[|\benv::var|\$env:`)}}},
		{"ci-secrets", AttentionCredential, AttentionHigh, "reads CI secrets",
			"it hands the project's secrets to what the change runs", all, wf, none,
			[]string{"secrets"},
			regexp.MustCompile(`\$\{\{[^}]*\bsecrets\b`)},
		{"cloud-credentials", AttentionCredential, AttentionHigh, "names cloud or publishing credentials",
			"with these a change can publish packages or reach the project's cloud as the project", all, wf, none,
			[]string{"aws_", "npm_token", "node_auth_token", "pypi_token", "pypi_api_token", "twine_password", "codecov_token", "docker_password", "dockerhub_token", "cargo_registry_token", "gitlab_token"},
			regexp.MustCompile(`\b(?:AWS_(?:ACCESS_KEY_ID|SECRET_ACCESS_KEY|SESSION_TOKEN)|NPM_TOKEN|NODE_AUTH_TOKEN|PYPI_(?:API_)?TOKEN|TWINE_PASSWORD|CODECOV_TOKEN|DOCKER_PASSWORD|DOCKERHUB_TOKEN|CARGO_REGISTRY_TOKEN|GITLAB_TOKEN)\b`)},
		{"credential-file", AttentionCredential, AttentionHigh, "reads credential files (~/.ssh, .netrc, ...)",
			"the runner's own keys and tokens sit in these files", all, 0, none,
			[]string{".ssh", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".netrc", ".git-credentials", ".aws/credentials", ".docker/config", ".pypirc", ".npmrc", "/proc/self/environ", ".kube/config", "gcloud/"},
			both{credentialFile, regexp.MustCompile(`(?i)\b(?:cat|tar|cp|scp|rsync|curl|wget|nc|ncat|base64|xxd|zip|gzip|less|head|tail|get-content|strings)\b|\bopen\(|\.read|\bread_?(?:text|bytes|file)|\bfs\.read|\bexpanduser\(|<\s*["']?[~$/]|\breadall\b|\bos\.readfile\b|-T\s|@[~$/]|\bfile\.read|\bfiles\.read`)}},
		{"env-exfiltration", AttentionCredential, AttentionHigh, "dumps the environment (secrets included)", whySecrets, all, 0, none,
			// Not "env" or "set": a quarter of the lines of ordinary code hold them.
			[]string{"printenv", "env |", "env|", "env >", "env>", "set |", "set|", "export -p", "process.env", "tojson(env", "os.environ"},
			either{regexp.MustCompile(`\bprintenv\s*(?:$|[|>;&)])|(?:^|[\s;&|(` + "`" + `])(?:env|set|export\s+-p)\s*(?:\|\s*(?:curl|wget|nc|ncat|netcat|socat|base64|gzip|xxd|openssl|python\S*|perl|node|ruby|tee)\b|>\s*\S)|` +
				`JSON\.stringify\(\s*process\.env\s*\)|toJSON\(\s*env\s*\)`),
				both{regexp.MustCompile(`\bos\.environ\b|\bprocess\.env\b|\bos\.Environ\(\)`),
					regexp.MustCompile(`\brequests\.(?:post|put|get)\(|\burlopen\(|\bfetch\(|\bhttps?\.request\(|\baxios\b|\bhttp\.Post|\bsocket\b`)}}},
		{"package-index", AttentionDependency, AttentionHigh, "installs from plain http or without checking the index's certificate",
			"anyone on the runner's network path can swap what it installs", all, 0, none,
			[]string{"http://", "trusted-host", "strict-ssl", "no-check-certificate", "insecure"},
			except{regexp.MustCompile(`(?i)(?:--(?:extra-)?index-url|--find-links|-f|--registry|(?:extra-)?index-url\s*=|registry\s*[=:]|--source|source\s+)\s*["']?http://|--trusted-host\b|strict-ssl\s*[=:]?\s*false|--no-check-certificate|GOINSECURE=|GOFLAGS=.*-insecure`),
				localHost}},
		{"install-script", AttentionScript, AttentionHigh, "npm lifecycle script: runs on npm install",
			"npm runs it at install on the runner, before any test and whatever the tests say", scopePackageJSON, 0, none,
			[]string{"install", "prepare"},
			regexp.MustCompile(`"(?:preinstall|install|postinstall|prepare|preprepare|postprepare)"\s*:`)},
		{"gitmodules-url", AttentionDependency, AttentionHigh, "submodule URL runs a command or leaves https",
			"git runs ext:: URLs as commands, and an option-shaped or plain-http URL is fetched on every recursive checkout", scopeGitmodules, 0, none,
			[]string{"url"},
			regexp.MustCompile(`^\s*url\s*=\s*(?:ext::|-|file:|http://|git://)`)},

		// ---- medium: a person should read it, but it needs another step to do harm
		{"go-generate", AttentionGoGenerate, AttentionMedium, "go:generate runs a command on go generate",
			"go generate runs the command in the build's environment if CI calls it", scopeGo, 0, none,
			[]string{"//go:generate"},
			regexp.MustCompile(`^\s*//go:generate\b`)},
		{"setup-cmdclass", AttentionBuildFile, AttentionMedium, "setup.py overrides a setup command (runs at install)",
			"pip runs the overriding code at install", scopeSetupPy, 0, none,
			[]string{"cmdclass"},
			regexp.MustCompile(`\bcmdclass\b`)},
		{"in-tree-build-backend", AttentionBuildFile, AttentionHigh, "builds with a backend from the tree itself (backend-path)",
			"pip imports and runs the change's own code at install, before any test", all, 0, none,
			[]string{"backend-path"},
			regexp.MustCompile(`^\s*backend-path\s*=`)},
		{"build-hook", AttentionBuildFile, AttentionMedium, "names a build backend, build hook or test plugin that runs by itself",
			"the build or test runner imports and runs it without anyone calling it", all, 0, none,
			[]string{"build-backend", "pytest_plugins", "pytest11", "addopts", "hatch.build.hooks", "setup_requires"},
			regexp.MustCompile(`\bbuild-backend\s*=|\bpytest_plugins\s*=|["']pytest11["']|\baddopts\s*=.*(?:^|\s)-p\s|\[tool\.hatch\.build\.hooks|\bsetup_requires\s*=`)},
		{"gomod-replace", AttentionDependency, AttentionMedium, "go.mod replace directive points a module elsewhere",
			"the build uses other code than the module's own", scopeGoMod, 0, none,
			[]string{"replace", "=>"},
			regexp.MustCompile(`^\s*replace\b|=>`)},
		{"package-index", AttentionDependency, AttentionMedium, "installs from another package index or a git URL",
			"packages may come from an index the project does not control (dependency confusion)", all, 0, none,
			[]string{"index-url", "find-links", "registry", "git+"},
			except{regexp.MustCompile(`(?i)--(?:extra-)?index-url\b|--find-links\b|\bextra-index-url\s*=|--registry[\s=]|^\s*registry\s*=|\bgit\+(?:https?|ssh)://`), localHost}},
		{"decode", AttentionDecodeExec, AttentionMedium, "decodes base64 or hex in a command",
			"decoded bytes are what runs or is written, and the diff does not show them", all, 0, none,
			[]string{"base64", "xxd"},
			regexp.MustCompile(`(?i)\bbase64\b[^|;&]*\s(?:-d|-D|--decode)\b|\bxxd\b[^|;&]*\s-r`)},
		{"docker-add-url", AttentionDownload, AttentionMedium, "Dockerfile ADD downloads a URL",
			whyDownload, scopeDockerfile, 0, none,
			[]string{"add"},
			regexp.MustCompile(`^\s*ADD\s+(?:--\S+\s+)*https?://`)},
		{"download", AttentionDownload, AttentionMedium, "downloads with curl or wget",
			"what it fetches is not in the diff; check where it goes and what uses it", all, 0, true,
			[]string{"curl", "wget"},
			regexp.MustCompile(`(?i)\b(?:curl|wget)\b`)},
		{"download", AttentionDownload, AttentionMedium, "downloads or calls a URL",
			"what it fetches or sends is not in the diff; check where it goes", all, 0, true,
			[]string{"fetch(", "requests.", "urllib", "urlopen", "httpx.", "aiohttp", "http.get(", "http.post", "http.head(", "axios", "reqwest", "ureq::",
				"invoke-webrequest", "invoke-restmethod", "iwr", "irm", "bitstransfer", "downloadstring", "downloadfile", "webclient"},
			regexp.MustCompile(`\bfetch\(|\brequests\.(?:get|post|put|patch|head|request)\(|\burllib\b|\burlopen\(|\bhttpx\.|\baiohttp\b|\bhttp\.(?:Get|Post|PostForm|Head)\(|\baxios\b|\breqwest::|\bureq::|` +
				`(?i:\b(?:invoke-webrequest|invoke-restmethod|iwr|irm|start-bitstransfer|downloadstring|downloadfile)\b|net\.webclient)`)},
		{"git-clone", AttentionDownload, AttentionMedium, "clones a git repository",
			"what it fetches is not in the diff", all, 0, none,
			[]string{"git"},
			regexp.MustCompile(`\bgit\s+(?:clone|submodule\s+add)\b`)},
		{"install-packages", AttentionDownload, AttentionMedium, "installs packages or tools",
			"installing runs the packages' own install code on the runner", all, 0, none,
			[]string{"install", "npx", "apk", "dlx", "go run", "go get"},
			regexp.MustCompile(`(?i)\b(?:pip[0-9.]*|pipx|uv\s+pip|python[0-9.]*\s+-m\s+pip)\s+install\b|\bnpm\s+(?:install|i|ci|exec)\b|\bnpx\s|` +
				`\byarn\s+(?:add|install|dlx)\b|\bpnpm\s+(?:add|install|i|dlx)\b|\bgo\s+(?:install|get)\b|\bgo\s+run\s+\S+@|` +
				`\bapt(?:-get)?\s+(?:-\S+\s+)*install\b|\b(?:yum|dnf|zypper)\s+(?:-\S+\s+)*install\b|\bapk\s+add\b|` +
				`\b(?:brew|gem|cargo|conda)\s+install\b`)},
		{"pipe-to-shell", AttentionExecute, AttentionMedium, "pipes into a shell or interpreter",
			"whatever comes down the pipe runs as code", all, 0, none,
			[]string{"|"},
			shellPipeRe},
		{"shell-string", AttentionExecute, AttentionMedium, "runs a shell command string (sh -c)",
			"a command built as a string can run more than it seems to", all, 0, none,
			[]string{"sh -"},
			regexp.MustCompile(`(?:^|[^\w.-])(?:ba|z|da|k)?sh\s+-\w*c\b`)},
		{"start-process", AttentionExecute, AttentionMedium, "starts a process (subprocess, os/exec, system, child_process)",
			"check which command it runs and with what input", all, 0, none,
			[]string{"subprocess", "os/exec", "exec.command", "system(", "popen", "child_process", "execsync", "execfile", "spawn", "runtime", "processbuilder",
				"startprocess", "start-process", "invoke-expression", "iex", "shell=true", "command::new"},
			regexp.MustCompile(`\bsubprocess\b|"os/exec"|\bexec\.Command(?:Context)?\(|\bsystem\(|\bpopen\b|(?i:\bpopen\()|\bchild_process\b|\bexecSync\b|\bexecFile(?:Sync)?\b|\bspawn(?:Sync)?\(|` +
				`\bRuntime\.getRuntime\(\)|\bProcessBuilder\b|\bsyscall\.Exec\b|\bos\.StartProcess\b|(?i:\bstart-process\b|\binvoke-expression\b|\biex\b)|\bshell\s*=\s*True\b|\bCommand::new\(`)},
		{"eval", AttentionExecute, AttentionMedium, "runs code (eval or exec)",
			"code built at run time is not the code in the diff", all, 0, none,
			[]string{"eval", "exec"},
			regexp.MustCompile(`\b(?:eval|exec)\b|\bexec[lv]p?e?\(`)},
		{"network", AttentionNetwork, AttentionMedium, "opens a network connection",
			"check where it connects and what it sends", all, 0, true,
			[]string{"socket", "net.dial", "net.listen", "nc ", "ncat", "netcat", "socat", "telnet", "connect(", "tcpstream"},
			regexp.MustCompile(`(?i:\b(?:web)?socket\b)|\bnet\.(?:Dial\w*|Listen\w*)\(|(?:^|[\s;|&(` + "`" + `])(?:nc|ncat|netcat|socat|telnet)\s|\bconnect\(\s*[^)\s]|\bTcpStream::connect\b`)},
		{"gitattributes-filter", AttentionBuildFile, AttentionMedium, "names a git filter or driver",
			"git runs the filter or driver a git config defines for it on checkout and diff", scopeGitattributes, 0, none,
			[]string{"filter=", "diff=", "merge="},
			except{regexp.MustCompile(`\b(?:filter|diff|merge)=\S`), regexp.MustCompile(`\b(?:filter|diff|merge)=lfs\b`)}},
		{"gitmodules-url", AttentionDependency, AttentionMedium, "submodule URL",
			"a recursive checkout fetches and checks out code from it", scopeGitmodules, 0, none,
			[]string{"url"},
			regexp.MustCompile(`^\s*url\s*=`)},
		{"credential-file", AttentionCredential, AttentionMedium, "names a credential file",
			"check nothing reads it", all, 0, none,
			[]string{".ssh", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".netrc", ".git-credentials", ".aws/credentials", ".docker/config", ".pypirc", ".npmrc", "/proc/self/environ", ".kube/config", "gcloud/"},
			credentialFile},
		{"ci-token", AttentionCredential, AttentionMedium, "names a CI token",
			"check what reads it and where it goes", all, wf, none,
			[]string{"github_token", "gh_token", "gh_pat", "ci_job_token"},
			regexp.MustCompile(`\b(?:GITHUB_TOKEN|GH_TOKEN|GH_PAT|CI_JOB_TOKEN)\b`)},
		{"auth-header", AttentionCredential, AttentionMedium, "sends an Authorization header",
			"check which credential it sends and to whom", all, 0, none,
			[]string{"authorization"},
			regexp.MustCompile(`(?i)\bAuthorization:\s*(?:Bearer|Basic|token)\b`)},
		{"ci-secrets", AttentionCredential, AttentionMedium, "names a CI secret",
			"check where the secret goes", all, wf, none,
			[]string{"secrets"},
			regexp.MustCompile(`\bsecrets\.[A-Z_][A-Z0-9_]*\b|\bsecrets\[`)},
		{"names-secret", AttentionCredential, AttentionMedium, "names a password, token or API key",
			"check it is not a real credential, and where it is sent", all, wf, none,
			[]string{"password", "passwd", "api_key", "apikey", "api-key", "_token", "_secret", "client_secret"},
			regexp.MustCompile(`(?i:\b(?:password|passwd|api[_-]?key|client_secret)\b\s*[:=])|\b[A-Z][A-Z0-9_]*_(?:TOKEN|SECRET|PASSWORD|API_KEY)\b`)},
	}
})
