package rules

// The attention rules: what each line rule matches, how severe it is, and
// why it matters on the runner /ok to test lets the change run on — the
// project's own CI machines, with their network, caches and secrets.
// docs/packet-format.md ("Attention") lists every rule with the class it
// covers.

import (
	"path"
	"regexp"
	"strings"
	"sync"
)

// CommentLine reports a line that is a comment in the languages a diff
// commonly holds: "# ", "// ", "/* ", "* ", "<!-- ". "#!", "#include" and
// "//go:generate" are not comments to the tools that read them.
func CommentLine(s string) bool {
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

// carriedOn reports a line s that the backslash ending prev joins to it
// with no space between, so that a # at its start is inside a word: in a
// shell script s starts the line, in YAML's block text it is indented no
// deeper than prev (the block's own indentation is not the script's).
func carriedOn(p, prev, s string) bool {
	b := strings.TrimSuffix(prev, "\\")
	if len(b) == len(prev) || b == "" || b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || strings.HasSuffix(b, "\\") {
		return false
	}
	ind := len(s) - len(strings.TrimLeft(s, " \t"))
	switch strings.ToLower(path.Ext(p)) {
	case ".yml", ".yaml":
		return ind <= len(prev)-len(strings.TrimLeft(prev, " \t"))
	case ".ps1":
		return false
	}
	return ind == 0
}

// CommentIn reports a comment line of the file at p: CommentLine's forms,
// and in YAML (CI configs, workflows) and shell scripts any line a #
// opens, spaced or not: "#- ps: iex …" is a step commented out, which the
// CI system never runs. There, a # after a line a backslash ends carries
// that command on (echo x\ then #; curl … | sh is echo x#; curl … | sh),
// and #> ends PowerShell's block comment: the rest of the line runs.
func CommentIn(p, prev, s string) bool {
	shellLike := false
	switch strings.ToLower(path.Ext(p)) {
	case ".yml", ".yaml", ".sh", ".bash", ".zsh", ".ps1":
		shellLike = true
	}
	t := strings.TrimLeft(s, " \t")
	if shellLike && strings.HasPrefix(t, "#") && (carriedOn(p, prev, s) || strings.HasPrefix(t, "#>")) {
		return false
	}
	if CommentLine(s) {
		return true
	}
	return shellLike && strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "#!")
}

// TestPath reports a file among tests or their fixtures.
func TestPath(p string) bool {
	lp := "/" + strings.ToLower(p)
	for _, d := range []string{"/testdata/", "/test/", "/tests/", "/fixtures/", "/__tests__/", "/spec/", "/testing/"} {
		if strings.Contains(lp, d) {
			return true
		}
	}
	return testModule(p)
}

var testModuleRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|/)(?:test_[^/]*|[^/]*_test\.[^/]+|[^/]*\.(?:test|spec)\.[cm]?[jt]sx?|[^/]*_spec\.rb|conftest\.py)$|(?:^|/)__tests__/(?:[^/]+/)*[^/]+\.[cm]?[jt]sx?$`)
})

// testModule reports a file a test runner collects and runs by itself
// wherever it sits: pytest's test_*.py, *_test.py and conftest.py, Go's
// and Ruby's *_test and *_spec files, Jest's, Vitest's and Mocha's
// *.test.js and *.spec.ts, and every script under __tests__.
func testModule(p string) bool { return testModuleRe().MatchString(p) }

var packageScriptRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|/)debian/(?:[\w.+-]+\.)?(?:postinst|preinst|postrm|prerm)$|` +
		`(?:^|/)(?:deb|debian|rpm|packaging|package|packages|pkg|nfpm|linux-packages?)/(?:[\w.-]+/)*(?:pre|post|after|before)[-_]?(?:install|remove|upgrade|uninstall|inst|rm)\.(?:sh|bash)$`)
})

// PackageScript reports a distribution package's maintainer script (a
// Debian postinst, an RPM or nfpm scriptlet): the package manager runs it
// on the machine that installs the package, not on the runner, and
// registering the package's own service is its job.
func PackageScript(p string) bool { return packageScriptRe().MatchString(strings.ToLower(p)) }

// FixtureData reports a file inside a directory of test inputs (fixtures,
// testdata, snapshots): the files a linter's, parser's or formatter's tests
// feed it as data, which is where the tests of hidden and bidirectional
// characters keep them. Code the test runner loads by itself (a conftest.py,
// a *.test.js, anything under Jest's __tests__) is not data wherever it sits.
func FixtureData(p string) bool {
	dir := ""
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		dir = p[:i]
	}
	for dir != "" {
		seg := dir
		if i := strings.IndexByte(dir, '/'); i >= 0 {
			seg, dir = dir[:i], dir[i+1:]
		} else {
			dir = ""
		}
		for _, d := range fixtureDirs {
			if strings.EqualFold(seg, d) {
				// The folder first, the regexp only for a path in one: the
				// scan asks for every hidden-character item.
				return !testModule(p)
			}
		}
	}
	return false
}

// fixtureDirs are the folders that hold what tests feed the code they test.
var fixtureDirs = []string{"testdata", "test_data", "fixtures", "__fixtures__", "__snapshots__", "snapshots"}

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
		if !PlaceholderToken(m) {
			return true
		}
	}
	return false
}

func PlaceholderToken(tok string) bool {
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

// ShellPipe is "| sh", "| sudo bash", "| /bin/sh", "| busybox ash",
// "| python3", "| php", "| pwsh", "| osascript", "| iex": every shell and
// interpreter that runs what it reads on standard input.
// A quote may open the shell's name after the pipe: Scala's sys.process
// pipes one string into another with #| ("curl …" #| "sh").
const ShellPipe = `(?i)\|\s*["']?(?:sudo\s+(?:-\S+\s+)*)?(?:\S*/)?(?:env\s+)?(?:(?:busybox|toybox)\s+)?(?:(?:ba|z|da|k|mk|fi|tc|c|y|a)?sh|python[0-9.]*|perl|ruby|node|php|pwsh|powershell|osascript|iex|invoke-expression)\b`

var lineRules = sync.OnceValue(func() []LineRule {
	shellPipeRe := regexp.MustCompile(ShellPipe)
	// localHost is a URL on the machine itself (a test registry), not the network.
	credentialFile := regexp.MustCompile(`(?:~|\$HOME|\$\{HOME\}|/root|/home/[^/\s]+|expanduser\(["']~)/\.(?:ssh|netrc|git-credentials|aws/credentials|docker/config\.json|pypirc|npmrc|kube/config|config/gcloud)\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\.git-credentials\b|/proc/(?:self|\d+|\$\w+)/environ`)
	localHost := regexp.MustCompile(`(?i)https?://(?:localhost|127\.0\.0\.1|\[::1\]|0\.0\.0\.0)\b`)
	const (
		all  = 0
		wf   = ScopeWorkflow
		none = false
	)
	return []LineRule{
		// ---- high: could take over the runner or leak its secrets with no further step
		{"decode-and-run", "decodes data and pipes it to a shell", all, 0, none,
			[]string{"base64", "xxd", "openssl", "uudecode", "gunzip", "zcat", "base32", "basenc", "gzip", "xz", "zstd", "bzip2", "brotli", "lz4", "lzma", "pigz"},
			regexp.MustCompile(`(?i)(?:\bbase(?:64|32)\b[^|]*\s(?:-d|-D|--decode)\b|\bbasenc\b[^|]*\s(?:-d|--decode)\b|\bxxd\b[^|]*\s-r|\bopenssl\b[^|]*\s-d\b|\buudecode\b|\bgunzip\b|` +
				`\b(?:[bx]?z|zstd|lz4|br)cat\b|\bun(?:zstd|lz4|lzma)\b|\b(?:gzip|xz|zstd|bzip2|brotli|lz4|lzma|pigz)\b[^|]*\s(?:-[a-z]*d[a-z]*|--decompress)\b)[^|]*` + ShellPipe)},
		// The same, spelled without a decoder's name: text reversed, a
		// ROT13 or ROT47 tr, printf or echo -e of escapes.
		{"decode-and-run", "decodes data and pipes it to a shell", all, 0, none,
			[]string{"rev", "tr ", "printf", "echo"},
			regexp.MustCompile(`(?i)(?:\|\s*rev\s*|\btr\s+['"]?(?:A-Za-z|a-zA-Z|A-Z|a-z|!-~)['"]?\s+['"]?(?:[N-Zn-z]-|P-~)[^|]*|\b(?:printf|echo\s+-\w*e\w*)\s[^|]*(?:\\\\?x[0-9a-f]{2}|\\\\?[0-7]{3}){4}[^|]*)` + ShellPipe)},
		{"decode-and-run", "decodes data and runs it (eval/exec)", all, 0, none,
			[]string{"b64decode", "decodebytes", "decodestring", "unhexlify", "fromhex", "decompress", "atob", "base64", "frombase64string", "gzinflate", "str_rot13", "hex2bin", "decode64", "a2b_", "unpack", "unb64", "[::-1]", "strrev", "reverse"},
			// A runner of code or of a command (eval, exec, system, assert,
			// load, Elixir's Code.eval_string, Erlang's os:cmd) around a
			// decoder, in any language's spelling.
			regexp.MustCompile(`(?i)(?:\b(?:exec|eval|function|iex|invoke-expression|eval_string|shell_exec|passthru)\b|(?:^|[^.\w])(?:system|popen|assert|load|loadstring)\s*\(|\bos:cmd\(|\[scriptblock\]::create)\s*\(?.*\b(?:b64decode|b32decode|a85decode|a2b_(?:base64|hex|uu)|decodebytes|decodestring|unhexlify|fromhex|decompress|atob|frombase64string|base64_decode|base64decode|decode(?:64|base64|hex)|decode_(?:base64|to_string)|from_?base64|unb64|gzinflate|gzuncompress|str_rot13|hex2bin)\b|\beval\b.*\bunpack1?\s*\(?\s*["'](?:u|m0?|H\*)["']|\b(?:exec|eval)\s*\(.*(?:\[::-1\]|\bstrrev\(|\.reverse\b)|` +
				`\b(?:b64decode|b32decode|a85decode|decodebytes|decodestring|unhexlify|fromhex|decompress|atob|frombase64string)\b.*(?:\b(?:exec|eval|iex|invoke-expression)\b|\.invoke\(\))|` +
				`\b(?:exec|eval)\s*\(.*\bBuffer\.from\([^)]*base64`)},
		{"decode-and-run", "runs inline code that decodes a payload", all, 0, none,
			[]string{"python", "node", "perl", "ruby"},
			regexp.MustCompile(`(?i)\b(?:python[0-9.]*|node|perl|ruby)\s+-[ce]\b.*(?:decode|decompress|fromhex|unhexlify|atob|buffer\.from|\b(?:un)?pack\b|fromcharcode)`)},
		{"decode-and-run", "PowerShell runs an encoded command", all, 0, none,
			[]string{"powershell", "pwsh"},
			// PowerShell takes any prefix of -EncodedCommand (-e, -ec, -enc,
			// -encoded…), quoted or not, as in an -ArgumentList array, and
			// the payload may be a variable set on another line.
			regexp.MustCompile(`(?i)\b(?:powershell|pwsh)(?:\.exe)?\b.*[\s'",(]-(?:e|ec|en|enc|enco|encod|encode|encoded|encodedc\w*)['"]?(?:\s*,\s*|\s+)['"]?(?:[A-Za-z0-9+/=]{16,}|\$[\w{(])`)},
		{"decode-and-run", "decodes a file with certutil and runs it", all, 0, none,
			[]string{"certutil"},
			regexp.MustCompile(`(?i)\bcertutil(?:\.exe)?\s+-decode(?:hex)?\b.*(?:&|;|\|\|)\s*(?:start\b|call\b|cmd\b|rundll32\b|regsvr32\b|powershell\b|\S+\.(?:exe|bat|cmd|ps1|vbs|js)\b)`)},
		{"dll-entry-run", "", all, 0, none,
			[]string{"rundll32", "regsvr32"},
			except{regexp.MustCompile(`(?i)\b(?:rundll32|regsvr32)(?:\.exe)?\b`),
				// Windows' own libraries: opening a URL or a control panel.
				regexp.MustCompile(`(?i)\b(?:url|shell32|user32|advapi32|advpack|printui|keymgr|shdocvw|ieframe|zipfldr|powrprof|dfshim|shimgvw|mshtml|inetcpl|sysdm|desk|appwiz|ncpa|timedate|main|intl|mmsys|hotplug|setupapi|syssetup|msdia\d*|msi|ole32|oleaut32|scrrun|vbscript|jscript)\.(?:dll|cpl)\b|rundll32\.exe"?\s*$|\bprintui\b|program files|%(?:windir|systemroot|programfiles|vsinstalldir|commonprogramfiles)|\$\{?env:(?:windir|systemroot|programfiles)|system32|syswow64`)}},
		{"powershell-hidden", "", all, 0, none,
			[]string{"hidden"},
			both{regexp.MustCompile(`(?i)\b(?:powershell|pwsh)(?:\.exe)?\b`),
				regexp.MustCompile(`(?i)\s-(?:w|wi|win|windowstyle)['"]?(?:\s*,\s*|\s+)['"]?hidden\b`),
				regexp.MustCompile(`(?i)\s-(?:c|command|e|ec|enc\w*|f|file)\b|\b(?:iex|invoke-expression|downloadstring|start-process|rundll32)\b`)}},
		{"indirect-run", "", all, 0, none,
			[]string{"eval"},
			regexp.MustCompile(`\beval\b[^|;&]*\|\s*(?:"?\$\{?SHELL\}?"?|(?:/usr)?(?:/bin/)?(?:ba|da|z|k)?sh)(?:\s|$|[;&)'"])|(?:^|[^|])\|\s*eval\s+["']?\$`)},
		{"download-and-run", "downloads and pipes to a shell", all, 0, none,
			[]string{"curl", "wget", "iwr", "irm", "invoke-webrequest", "invoke-restmethod", "downloadstring"},
			either{both{regexp.MustCompile(`(?i)\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b`), shellPipeRe},
				regexp.MustCompile(`(?i)\b(?:(?:ba|z|da|k)?sh|source|\.)\s+<\(\s*(?:curl|wget)\b|` +
					`\b(?:(?:ba|z|da|k)?sh)\s+-c\s+["']?\$\(\s*(?:curl|wget)\b|` +
					`\b(?:iex|invoke-expression)\b.*\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring)\b`)}},
		{"download-and-run", "downloads a program and runs it", all, 0, none,
			[]string{"curl", "wget"},
			both{regexp.MustCompile(`(?i)\b(?:curl|wget)\b[^;&|]*\s-[a-z]*[oO]\b`),
				regexp.MustCompile(`(?:&&|;)\s*(?:chmod\s+(?:\+x|[0-7]*[157][0-7]*)\b|(?:ba|z)?sh\s+\S|\./\S)`)}},
		{"download-and-run", "downloads code and runs it in-process", all, 0, none,
			[]string{"exec", "eval"},
			regexp.MustCompile(`\b(?:exec|eval)\s*\(.*(?:\burlopen\(|\brequests\.get\(|\burllib\.request\b|\bfetch\(|\bhttpx\.get\(|\bhttp\.get\()`)},
		{"reverse-shell", "opens a raw connection or a reverse shell", all, 0, none,
			[]string{"/dev/tcp/", "/dev/udp/", "nc ", "ncat", "netcat", "socat", "pty.spawn", "dup2", "mkfifo", "connect(", "tcpsocket", "/inet/tcp/", "tcpclient"},
			regexp.MustCompile(`/dev/(?:tcp|udp)/|(?:^|[\s;|&(])(?:nc|ncat|netcat)\s+(?:-\S+\s+)*-[a-z]*[ec]\b|\bsocat\b.*\b(?:exec|system):|\bncat\b.*\s--(?:sh-|lua-)?exec\b|\bpty\.spawn\(|\bdup2\(\s*(?:s|so|sock|socket|conn|client|c|sk)\.fileno\(\)|\bmkfifo\b.*\b(?:nc|ncat|sh|bash)\b|\bconnect\(.*(?:/bin/(?:ba|z|da)?sh\b|cmd\.exe)|` +
				// Ruby's socket handed to a shell, gawk's network files, a
				// PowerShell TCP client whose stream is run (a connection
				// piped into a shell is the shell reader's download-and-run).
				`\bTCPSocket\.(?:open|new)\b.*(?:/bin/(?:ba|z|da)?sh\b|cmd\.exe)|/inet/tcp/\d+/|(?i:\bNet\.Sockets\.TCPClient\b.*\b(?:iex|invoke-expression)\b)`)},
		// A tunnel that forwards a port of the runner (its SSH server, a
		// shell-sharing session) to a relay outside: whoever holds the relay
		// gets a shell on the runner while the job runs, secrets and token
		// beside it. A tunnel to a local web server is a preview, not this.
		{"reverse-shell", "opens a tunnel that lets a machine outside into the runner (remote port forward, shell sharing)", all, 0, none,
			[]string{"ssh", "remoteforward", "cloudflared", "ngrok", "tmate", "upterm", "bore", "chisel", "serveo", "localhost.run"},
			regexp.MustCompile(`(?i)\b(?:auto)?ssh\s(?:[^|;&#]*\s)?-[a-z]*R\s*(?:[\w.*\[\]-]+:)?\d+:|\bRemoteForward[\s=]+\S|\bcloudflared\s(?:[^|;&#]*\s)?--url[\s=]+["']?(?:ssh|tcp|rdp)://|\bngrok\s+(?:tcp|ssh)\b|\btmate\s(?:[^|;&#]*\s)?(?:-F\b|new-session\b)|\bupterm\s+host\b|\bbore\s+local\s+(?:\S+\s+)*--to\b|\bchisel\s+client\b.*\sR:|@(?:serveo\.net|localhost\.run)\b`)},
		{"reverse-shell", "connects to a hard-coded IP address", all, 0, none,
			[]string{"connect"},
			except{regexp.MustCompile(`\bconnect\(\s*\(?\s*["']\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?["']|\.connect\(\s*\d+\s*,\s*["']\d{1,3}(?:\.\d{1,3}){3}["']`),
				regexp.MustCompile(`["'](?:127\.|0\.0\.0\.0|10\.0\.2\.2)`)}},
		{"crypto-mining", "mines cryptocurrency", all, 0, none,
			[]string{"stratum", "xmrig", "minerd", "cpuminer", "ethminer", "nbminer", "donate-level", "minexmr", "supportxmr", "nanopool", "2miners", "hashvault", "moneroocean", "nicehash", "ethermine", "herominers"},
			regexp.MustCompile(`(?i)stratum\+(?:tcp|ssl|tls)://|\b(?:xmrig|minerd|cpuminer|ethminer|nbminer)\b|--donate-level\b|\b(?:minexmr|supportxmr|nanopool|2miners|hashvault|moneroocean|nicehash|ethermine|herominers)\.(?:com|org|net|pro|io)\b`)},
		{"persistence", "installs something that runs again later (cron, systemd, shell rc, keys)", all, 0, none,
			[]string{"cron", "systemctl", "systemd", "init.d", "rc.local", "bashrc", "bash_profile", "profile", "zshrc", "authorized_keys", "launchctl", "launchagents", "ld.so.preload", "fsmonitor",
				"at now", "| at", "|at ", "at -f", "at midnight", "at noon", "at teatime"},
			// The system's own directories, not a tree under a prefix
			// ($DESTDIR/etc/systemd, $NIX_LINK/etc/profile.d), which a
			// package's install step fills for its own files; //etc and
			// /./etc are the system's too.
			except{regexp.MustCompile(`\bcrontab\b|(?:^|[^\w}$)./-])(?:/\.{0,2})*(?:/etc/cron|/var/spool/cron|/etc/systemd/|/etc/init\.d/|/etc/rc\.local|/etc/profile\b|/etc/profile\.d/|/etc/bash\.bashrc)|\bsystemctl\s+(?:--user\s+)?(?:enable|link|daemon-reload)\b|\.config/systemd/|` +
				`>>?\s*["']?(?:~|\$HOME|\$\{HOME\}|/root|/home/[^/\s]+)/\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv)(?:$|[^\w.-])|` +
				`\bauthorized_keys\b|\blaunchctl\s+(?:load|bootstrap)\b|LaunchAgents/|/etc/ld\.so\.preload|` +
				// at and systemd timers run a command later, after the job.
				`(?:^\s*|[;&|(]\s*)at\s+(?:-[mMqv]\s+|-q\s*\w\s+)*(?:-f\s+\S+\s+)?(?:now\b|midnight\b|noon\b|teatime\b|\d{1,2}:\d\d\b)|\bsystemd-run\b.*--on-(?:calendar|boot|startup|active|unit-active|unit-inactive)\b|` +
				// git runs core.fsmonitor's command at every status, in every repository when --global.
				`\bcore\.fsmonitor\b["']?\s*[, ]\s*["']?[^\s"',)]`), regexp.MustCompile(`core\.fsmonitor\b["']?\s*[, ]\s*["']?(?:false|true)\b`)}},
		{"python-pth", "", all, 0, none,
			[]string{".pth"},
			// Where the line says the file lands at the top of
			// site-packages; a packaging file's lists are read over
			// several lines by the build-code reader.
			both{regexp.MustCompile(`["'][\w./-]+\.pth["']`), sitePlaceRe()}},
		{"ai-agent-unleashed", "", all, 0, none,
			[]string{"dangerously", "--yolo", "trust-all-tools", "allow-all-tools", "danger-full-access", "bypasspermissions", "approval-mode", "yes-always"},
			regexp.MustCompile(`--dangerously-skip-permissions\b|--dangerously-bypass-approvals-and-sandbox\b|(?:^|[\s"'\[,])--yolo\b|--trust-all-tools\b|--allow-all-tools\b|\bdanger-full-access\b|--permission-mode[=\s"']+bypassPermissions\b|--approval-mode[=\s"']+yolo\b|--yes-always\b`)},
		{"runner-memory-read", "", all, 0, none,
			[]string{"runner.worker", "issecret"},
			// The worker's memory holds each secret as {"value":…,"isSecret":true}:
			// a search for that shape reads a dump of it, however it was taken.
			regexp.MustCompile(`(?i)runner\.worker\b.*(?:/proc/|\bmem\b|gcore|maps|pgrep|pidof)|(?:/proc/|gcore|pgrep|pidof).*runner\.worker\b|\b(?:grep|egrep|rg|strings|select-string|findall|finditer|search|match|scan)\b.*issecret`)},
		{"ci-cache-unprotected", "", all, 0, none,
			[]string{"unprotect"},
			// GitLab keeps protected branches' caches apart from the others';
			// unprotect: true lets any branch or merge request write the
			// cache the default branch's jobs restore.
			regexp.MustCompile(`^\s*(?:-\s+)?unprotect\s*:\s*["']?true\b`)},
		{"git-hooks", "points git at hooks the change ships", all, 0, none,
			[]string{"hookspath", ".git/hooks", "templatedir"},
			// A template directory's hooks are copied into every repository
			// git init or git clone makes afterwards.
			regexp.MustCompile(`(?i)\bcore\.hookspath\b|\.git/hooks/|\binit\.templatedir\b`)},
		{"git-config-exec", "configures a command git runs by itself (filter, textconv, fsmonitor, ssh)", all, 0, none,
			[]string{"git", "[filter"},
			regexp.MustCompile(`(?i)\bgit\s+config\b.*\b(?:filter\.\S+\.(?:clean|smudge|process)|diff\.\S+\.textconv|merge\.\S+\.driver|core\.(?:fsmonitor|sshcommand|pager|editor|askpass|gitproxy)|credential\.helper|protocol\.ext\.allow)\b|^\s*\[filter\s+"`)},
		{"private-key", "holds a private key", all, 0, none,
			[]string{"-----begin"},
			regexp.MustCompile(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY`)},
		{"live-token", "holds what looks like a live token", all, 0, none,
			[]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "akia", "asia", "xox", "hooks.slack.com", "npm_", "pypi-age", "glpat-", "private_key_id", "aws_secret_access_key", "aiza"},
			tokenMatcher{regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}|(?:AKIA|ASIA)[0-9A-Z]{16}|xox[abposr]-[0-9]{6,}-[A-Za-z0-9-]{8,}|` +
				`hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{16,}|npm_[A-Za-z0-9]{36}|pypi-AgE[A-Za-z0-9_-]{20,}|glpat-[A-Za-z0-9_-]{20}|AIza[0-9A-Za-z_-]{35})|` +
				`"private_key_id"\s*:\s*"[0-9a-f]{40}"|(?i:aws_secret_access_key)\s*[:=]\s*["']?[A-Za-z0-9/+]{40}\b`)}},
		{"runner-register", "", all, 0, none,
			[]string{"runner_allow_runasroot", "config.sh", "config.cmd"},
			regexp.MustCompile(`\bRUNNER_ALLOW_RUNASROOT\b|\bconfig\.(?:sh|cmd)\b.*--url\b.*--(?:token|pat)\b`)},
		{"runner-orphan", "", all, 0, none,
			[]string{"runner_tracking_id"},
			regexp.MustCompile(`(?i)\bRUNNER_TRACKING_ID\b["']?\s*\]?\s*(?:=|:(?:\s|$)|,)|\b(?:unset|env\s+-u|delete|pop|Remove-Item|Remove)\b.*\bRUNNER_TRACKING_ID\b|\bRUNNER_TRACKING_ID\b.*\b(?:pop|Remove|delete)\b`)},
		// The OIDC request token sent as the request's authentication, or
		// the request URL alone: the job asking for its identity token.
		{"ci-oidc-request", "", all, wf, none,
			[]string{"actions_id_token"},
			regexp.MustCompile(`(?i)\bbearer\s+\$\{?ACTIONS_ID_TOKEN_REQUEST_TOKEN\b|^[^$]*\$\{?ACTIONS_ID_TOKEN_REQUEST_URL\b[^$]*$`)},
		{"ci-runner-token", "", all, wf, none,
			[]string{"actions_runtime_token", "actions_id_token", "actions_cache_url", "actions_results_url"},
			regexp.MustCompile(`\bACTIONS_(?:RUNTIME_TOKEN|ID_TOKEN_REQUEST_(?:TOKEN|URL)|CACHE_URL|RESULTS_URL)\b`)},
		{"ci-token", "reads a CI token", all, wf, none,
			[]string{"github_token", "gh_token", "gh_pat", "actions_runtime_token", "actions_id_token", "actions_cache_url", "actions_results_url", "github.token", "ci_job_token"},
			either{regexp.MustCompile(`\bACTIONS_(?:RUNTIME_TOKEN|ID_TOKEN_REQUEST_(?:TOKEN|URL)|CACHE_URL|RESULTS_URL)\b|\bgithub\.token\b`),
				both{regexp.MustCompile(`\b(?:GITHUB_TOKEN|GH_TOKEN|GH_PAT|CI_JOB_TOKEN)\b`), regexp.MustCompile(`\$\{?(?:GITHUB_TOKEN|GH_TOKEN|GH_PAT|CI_JOB_TOKEN)\b|%(?:GITHUB_TOKEN|GH_TOKEN)%|\benviron\b|\b[Gg]etenv\b|\bLookupEnv\b|\bprocess\.env\b|\bENV\[|\benv::var|\$env:`)}}},
		{"ci-secrets", "reads CI secrets", all, wf, none,
			[]string{"secrets"},
			regexp.MustCompile(`\$\{\{[^}]*\bsecrets\b`)},
		{"cloud-credentials", "names cloud or publishing credentials", all, wf, none,
			[]string{"aws_", "npm_token", "node_auth_token", "pypi_token", "pypi_api_token", "twine_password", "codecov_token", "docker_password", "dockerhub_token", "cargo_registry_token", "gitlab_token"},
			regexp.MustCompile(`\b(?:AWS_(?:ACCESS_KEY_ID|SECRET_ACCESS_KEY|SESSION_TOKEN)|NPM_TOKEN|NODE_AUTH_TOKEN|PYPI_(?:API_)?TOKEN|TWINE_PASSWORD|CODECOV_TOKEN|DOCKER_PASSWORD|DOCKERHUB_TOKEN|CARGO_REGISTRY_TOKEN|GITLAB_TOKEN)\b`)},
		{"credential-file-read", "reads credential files (~/.ssh, .netrc, ...)", all, 0, none,
			[]string{".ssh", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".netrc", ".git-credentials", ".aws/credentials", ".docker/config", ".pypirc", ".npmrc", "/proc/self/environ", ".kube/config", "gcloud/"},
			both{credentialFile, regexp.MustCompile(`(?i)\b(?:cat|tar|cp|scp|rsync|curl|wget|nc|ncat|base64|xxd|zip|gzip|less|head|tail|get-content|strings)\b|\bopen\(|\.read|\bread_?(?:text|bytes|file)|\bfs\.read|\bexpanduser\(|<\s*["']?[~$/]|\breadall\b|\bos\.readfile\b|-T\s|@[~$/]|\bfile\.read|\bfiles\.read`)}},
		{"env-exfiltration", "dumps the environment (secrets included)", all, 0, none,
			// Not "env" or "set": a quarter of the lines of ordinary code hold them.
			[]string{"printenv", "env |", "env|", "env >", "env>", "set |", "set|", "export -p", "process.env", "tojson(env", "os.environ"},
			// Copied whole into the job's own environment file (after a
			// vendor's setvars.sh), the environment stays where it was.
			either{except{regexp.MustCompile(`\bprintenv(?:\s+-[-\w]+)*\s*(?:$|[|>;&)])|(?:^|[\s;&|(` + "`" + `])(?:env(?:\s+-[-\w]+)*|set|export\s+-p)\s*(?:\|\s*(?:curl|wget|nc|ncat|netcat|socat|base64|gzip|xxd|openssl|python\S*|perl|node|ruby|tee)\b|>\s*\S)|` +
				`JSON\.stringify\(\s*process\.env\s*\)|toJSON\(\s*env\s*\)`), regexp.MustCompile(`^\s*(?:printenv|env)\s*>>\s*["']?\$\{?GITHUB_ENV\b[}"']*\s*$`)},
				both{regexp.MustCompile(`\bos\.environ\b(?:[^.\[]|$|\.(?:copy|items|keys|values)\()|\bprocess\.env\b(?:[^.\[]|$)|\bos\.Environ\(\)`),
					regexp.MustCompile(`\brequests\.(?:post|put|get)\(|\burlopen\(|\bfetch\(|\bhttps?\.request\(|\baxios\b|\bhttp\.Post|\bsocket\b`)}}},
		{"package-index-insecure", "installs from plain http or without checking the index's certificate", all, 0, none,
			[]string{"http://", "trusted-host", "strict-ssl", "no-check-certificate", "insecure", "enablestrictssl", "sslverify", "ssl_no_verify", "trusted_host", "ssl_verify", "verify_ssl"},
			except{regexp.MustCompile(`(?i)(?:--(?:extra-)?index-url|--find-links|-f|--registry|(?:extra-)?index-url\s*=|registry\s*[=:]|--source|source\s+)\s*["']?http://|--trusted-host\b|strict-ssl\s*[=:]?\s*false|--no-check-certificate|GOINSECURE=|GOFLAGS=.*-insecure|` +
				// yarn's, Gradle's and uv's own switches for unchecked certificates and plain http
				`\benableStrictSsl\s*:\s*["']?false|(?:\b|is)[aA]llowInsecureProtocol\s*(?:=\s*|\(\s*)true|--allow-insecure-host\b|^\s*allow-insecure-host\s*=|` +
				// git, pip, conda, Pipenv and Yarn told not to check the host
				// they fetch code from
				`\bsslVerify\s*(?:=\s*|\s+)["']?false\b|\bGIT_SSL_NO_VERIFY\s*[=:]\s*["']?(?:1|true)\b|\bPIP_TRUSTED_HOST\s*[=:]|^\s*trusted-host\s*=|^\s*ssl_verify\s*:\s*false\b|^\s*verify_ssl\s*=\s*false\b`),
				localHost}},
		{"gitmodules-url-unsafe", "submodule URL runs a command or leaves https", ScopeGitmodules, 0, none,
			[]string{"url"},
			regexp.MustCompile(`^\s*url\s*=\s*(?:ext::|-|file:|http://|git://)`)},

		// ---- medium: a person should read it, but it needs another step to do harm
		{"go-generate", "go:generate runs a command on go generate", ScopeGo, 0, none,
			[]string{"//go:generate"},
			regexp.MustCompile(`^\s*//go:generate\b`)},
		{"setup-cmdclass", "setup.py overrides a setup command (runs at install)", ScopeSetupPy, 0, none,
			[]string{"cmdclass"},
			regexp.MustCompile(`\bcmdclass\b`)},
		{"in-tree-build-backend", "builds with a backend from the tree itself (backend-path)", all, 0, none,
			[]string{"backend-path"},
			regexp.MustCompile(`^\s*backend-path\s*=`)},
		{"build-hook", "names a build backend, build hook or test plugin that runs by itself", all, 0, none,
			// A gemspec's extensions (gem install runs each extconf.rb) and
			// a shard's postinstall (shards runs it where the shard is installed).
			[]string{"build-backend", "pytest_plugins", "pytest11", "addopts", "hatch.build.hooks", "setup_requires", "extensions", "postinstall"},
			regexp.MustCompile(`\bbuild-backend\s*=|\bpytest_plugins\s*=|["']pytest11["']|\baddopts\s*=.*(?:^|\s)-p\s|\[tool\.hatch\.build\.hooks|\bsetup_requires\s*=|\.extensions\s*(?:=|<<|\.push\()|^\s*postinstall\s*:`)},
		{"gomod-replace", "go.mod replace directive points a module elsewhere", ScopeGoMod, 0, none,
			[]string{"replace", "=>"},
			regexp.MustCompile(`^\s*replace\b|=>`)},
		{"package-index", "installs from another package index or a git URL", all, 0, none,
			[]string{"index-url", "find-links", "registry", "git+"},
			except{regexp.MustCompile(`(?i)--(?:extra-)?index-url\b|--find-links\b|\bextra-index-url\s*=|--registry[\s=]|^\s*registry\s*=|\bgit\+(?:https?|ssh)://`), localHost}},
		{"decode", "decodes base64 or hex in a command", all, 0, none,
			[]string{"base64", "xxd", "certutil"},
			regexp.MustCompile(`(?i)\bbase64\b[^|;&]*\s(?:-d|-D|--decode)\b|\bxxd\b[^|;&]*\s-r|\bcertutil(?:\.exe)?\s+-decode(?:hex)?\b`)},
		{"docker-add-url", "Dockerfile ADD downloads a URL", ScopeDockerfile, 0, none,
			[]string{"add"},
			regexp.MustCompile(`^\s*ADD\s+(?:--\S+\s+)*https?://`)},
		{"download", "downloads with curl or wget", all, 0, true,
			[]string{"curl", "wget"},
			// A name of the family (curl-config, wget-log) is another
			// program or a file: curl-config prints build flags.
			regexp.MustCompile(`(?i)\b(?:curl|wget)(?:$|[^\w-]|-$|-[^\w])`)},
		{"download", "downloads or calls a URL", all, 0, true,
			[]string{"fetch(", "requests.", "urllib", "urlopen", "httpx.", "aiohttp", "http.get(", "http.post", "http.head(", "axios", "reqwest", "ureq::",
				"invoke-webrequest", "invoke-restmethod", "iwr", "irm", "bitstransfer", "downloadstring", "downloadfile", "webclient",
				"net::http", "uri.open", "httparty", "faraday"},
			regexp.MustCompile(`\bfetch\(|\brequests\.(?:get|post|put|patch|head|request)\(|\burllib\b|\burlopen\(|\bhttpx\.|\baiohttp\b|\bhttp\.(?:Get|Post|PostForm|Head)\(|\baxios\b|\breqwest::|\bureq::|` +
				// Ruby's: a gem's extconf.rb fetching is install-time code's download.
				`\bNet::HTTP\b|\bURI\.open\b|\bHTTParty\b|\bFaraday\b|` +
				`(?i:\b(?:invoke-webrequest|invoke-restmethod|iwr|irm|start-bitstransfer|downloadstring|downloadfile)\b|net\.webclient)`)},
		{"git-clone", "clones a git repository", all, 0, none,
			[]string{"git"},
			regexp.MustCompile(`\bgit\s+(?:clone|submodule\s+add)\b`)},
		{"install-packages", "installs packages or tools", all, 0, none,
			[]string{"install", "npx", "apk", "dlx", "go run", "go get"},
			regexp.MustCompile(`(?i)\b(?:pip[0-9.]*|pipx|uv\s+pip|python[0-9.]*\s+-m\s+pip)\s+install\b|\bnpm\s+(?:install|i|ci|exec)\b|\bnpx\s|` +
				`\byarn\s+(?:add|install|dlx)\b|\bpnpm\s+(?:add|install|i|dlx)\b|\bgo\s+(?:install|get)\b|\bgo\s+run\s+\S+@|` +
				`\bapt(?:-get)?\s+(?:-\S+\s+)*install\b|\b(?:yum|dnf|zypper)\s+(?:-\S+\s+)*install\b|\bapk\s+add\b|` +
				`\b(?:brew|gem|cargo|conda)\s+install\b`)},
		{"pipe-to-shell", "pipes into a shell or interpreter", all, 0, none,
			[]string{"|"},
			shellPipeRe},
		{"shell-string", "runs a shell command string (sh -c)", all, 0, none,
			[]string{"sh -"},
			regexp.MustCompile(`(?:^|[^\w.-])(?:ba|z|da|k)?sh\s+-\w*c\b`)},
		{"start-process", "starts a process (subprocess, os/exec, system, child_process)", all, 0, none,
			[]string{"subprocess", "os/exec", "exec.command", "system(", "popen", "child_process", "execsync", "execfile", "spawn", "runtime", "processbuilder",
				"startprocess", "start-process", "invoke-expression", "iex", "shell=true", "command::new"},
			regexp.MustCompile(`\bsubprocess\b|"os/exec"|\bexec\.Command(?:Context)?\(|\bsystem\(|\bpopen\b|(?i:\bpopen\()|\bchild_process\b|\bexecSync\b|\bexecFile(?:Sync)?\b|\bspawn(?:Sync)?\(|` +
				`\bRuntime\.getRuntime\(\)|\bProcessBuilder\b|\bsyscall\.Exec\b|\bos\.StartProcess\b|(?i:\bstart-process\b|\binvoke-expression\b|\biex\b)|\bshell\s*=\s*True\b|\bCommand::new\(`)},
		{"eval", "runs code (eval or exec)", all, 0, none,
			[]string{"eval", "exec"},
			regexp.MustCompile(`\b(?:eval|exec)\b|\bexec[lv]p?e?\(`)},
		// Socket followed by a capitalised name is a segment of a module's
		// name (Phoenix.Socket.Broadcast), not a socket's method.
		{"network", "opens a network connection", all, 0, true,
			[]string{"socket", "net.dial", "net.listen", "nc ", "ncat", "netcat", "socat", "telnet", "connect(", "tcpstream"},
			regexp.MustCompile(`(?i:\b(?:web)?socket\b)\s*(?:\(|::|\.(?:[a-z_$]|$))|\bimport\s+socket\b|\bfrom\s+socket\s+import\b|(?i:\bnew\s+websocket\b)|\bnet\.(?:Dial\w*|Listen\w*)\(|(?:^|[\s;|&(` + "`" + `])(?:nc|ncat|netcat|socat|telnet)\s|\bconnect\(\s*[^)\s]|\bTcpStream::connect\b`)},
		{"gha-env-hijack", "", all, wf, none,
			[]string{"github_env"},
			// Code (a github-script, a Node or Python helper) appending a
			// loader variable to the job's environment file.
			both{regexp.MustCompile(`\bGITHUB_ENV\b`),
				regexp.MustCompile(`\b(?:LD_PRELOAD|BASH_ENV|NODE_OPTIONS|PYTHONSTARTUP|PERL5OPT|RUBYOPT|JAVA_TOOL_OPTIONS|DYLD_INSERT_LIBRARIES|RUSTC_WRAPPER)=`)}},
		{"native-load", "", all, 0, none,
			[]string{"dlopen", ".node", ".dll", ".so", ".dylib", "ctypes", "loadlibrary", "koffi", "ffi"},
			regexp.MustCompile(`\bprocess\.dlopen\(|\brequire\(\s*['"][^'"]+\.(?:node|dll|so|dylib)['"]\s*\)|\bctypes\.(?:CDLL|WinDLL|OleDLL|PyDLL|cdll\.LoadLibrary|windll\.LoadLibrary)\(|\bLoadLibrary(?:Ex)?[AW]?\(|\bffi\.(?:Library|dlopen)\(|\bkoffi\.load\(|\bDynamicLibrary\.open\(`)},
		{"build-tool-exec", "puts a program from a path in the Go compiler's seat (-toolexec)", all, 0, none,
			[]string{"toolexec"},
			// go build then runs it for every compile and link, every
			// dependency's included: it can change what is built.
			regexp.MustCompile(`-toolexec[= ]\s*["']?(?:\.{0,2}/|~|\$|[\w.-]+/)`)},
		{"build-event", "", all, 0, none,
			[]string{"buildevent", "<exec", "<usingtask"},
			regexp.MustCompile(`(?i)<(?:Pre|Post|PreLink)BuildEvent\b|<Exec\b[^>]*\bCommand\s*=|<UsingTask\b[^>]*\bTaskFactory\s*=`)},
		{"gitattributes-filter", "names a git filter or driver", ScopeGitattributes, 0, none,
			[]string{"filter=", "diff=", "merge="},
			except{regexp.MustCompile(`\b(?:filter|diff|merge)=\S`), regexp.MustCompile(`\b(?:filter|diff|merge)=lfs\b`)}},
		{"gitmodules-url", "submodule URL", ScopeGitmodules, 0, none,
			[]string{"url"},
			regexp.MustCompile(`^\s*url\s*=`)},
		{"credential-file", "names a credential file", all, 0, none,
			[]string{".ssh", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".netrc", ".git-credentials", ".aws/credentials", ".docker/config", ".pypirc", ".npmrc", "/proc/self/environ", ".kube/config", "gcloud/"},
			credentialFile},
		{"ci-token", "names a CI token", all, wf, none,
			[]string{"github_token", "gh_token", "gh_pat", "ci_job_token"},
			regexp.MustCompile(`\b(?:GITHUB_TOKEN|GH_TOKEN|GH_PAT|CI_JOB_TOKEN)\b`)},
		{"auth-header", "sends an Authorization header", all, 0, none,
			[]string{"authorization"},
			regexp.MustCompile(`(?i)\bAuthorization:\s*(?:Bearer|Basic|token)\b`)},
		{"ci-secrets-name", "names a CI secret", all, wf, none,
			[]string{"secrets"},
			regexp.MustCompile(`\bsecrets\.[A-Z_][A-Z0-9_]*\b|\bsecrets\[`)},
		{"names-secret", "names a password, token or API key", all, wf, none,
			[]string{"password", "passwd", "api_key", "apikey", "api-key", "_token", "_secret", "client_secret"},
			regexp.MustCompile(`(?i:\b(?:password|passwd|api[_-]?key|client_secret)\b\s*[:=])|\b[A-Z][A-Z0-9_]*_(?:TOKEN|SECRET|PASSWORD|API_KEY)\b`)},
	}
})
