package rules

// Data leaving a unit, read by what its lines can do rather than by how one
// attack spelled it. A unit is what runs as one piece: a workflow step with
// the env it is given, a script, a program file. A line can read
// credentials (the whole environment, a credential file, git's extraheader,
// the gh CLI's token, a secret the step is handed) and a line can send (an
// HTTP client with a body in any language, a socket, a name resolved, a
// webhook, an upload by gh or git). Where both are in one unit the data can
// leave even when it passes through a dict, a helper, an object or a file
// the reader cannot follow: the item goes on the line that sends and names
// the line that read. A single secret is rated by where it goes: to its own
// vendor's host it is the secret's use (medium), anywhere else a leak.

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/vetter-dev/vetter/attention/provenance"
)

// UnitLine is one line of a unit, by its new-side number.
type UnitLine struct {
	N     int
	Text  string
	Added bool
}

// Leak is a line that sends what another line of its unit read.
type Leak struct {
	Sink, Source int
	Severity     string
	Title        string
	Credential   bool // a secret handed as a request's credential to another host
}

type leaveRes struct {
	bulk, credFile, credWrite, gitCred, childEnv, envName *regexp.Regexp
	client, body, always, url, authPart, secretRef        *regexp.Regexp
	wfSecret, tokenName, inline, dotenv, envRead          *regexp.Regexp
	gitPush, newRemote, forgeDrop, storedIn               *regexp.Regexp
}

var leaveRe = sync.OnceValue(func() *leaveRes {
	return &leaveRes{
		// The whole environment, in any language or shell.
		bulk: regexp.MustCompile(`\bprocess\.env\b(?:\s*[),;}\]]|\s*$)|\{\s*\.\.\.process\.env\b|\bObject\.(?:assign|entries|keys|values)\([^)]*process\.env\b|JSON\.stringify\(\s*process\.env\b|` +
			`\bos\.environ\b(?:\s*[),;}\]]|\.copy\(\)|\.items\(\)|\.keys\(\)|\.values\(\)|\s*$)|\bdict\(\s*os\.environ\b|\bin\s+os\.environ\b|\bos\.Environ\(\)|\bSystem\.getenv\(\)|GetEnvironmentVariables\(\)|` +
			`\bENV\.(?:to_h|to_a|each\w*|map|select|filter|keys|inspect|to_hash)\b|\benv::vars\(\)|\bgetenv\(\)|\$_ENV\b|\$_SERVER\b|%ENV\b|\bProcessInfo\.processInfo\.environment\b(?:\s*[^\[\s.]|\s*$|\.(?:description|map|filter|keys|values)\b)|` +
			`(?i:\b(?:Get-ChildItem|gci|dir|ls|Get-Item)\s+(?:-Path\s+)?env:)|(?:^\s*|[;&|$:` + "`" + `]\s*|(?:^|[^\w.!?])\(\s*|\b(?:sudo|exec|nohup|command|then|do|else)\s+)(?:(?:env|printenv)(?:\s+-[-\w]+)*|export(?:\s+-p)?|(?:declare|typeset)\s+-p?x)\s*(?:$|[|>);])|` +
			`/proc/[^/\s]+/environ\b|toJSON\(\s*(?:secrets|env)\s*\)|\bcompgen\s+-e\b|` +
			// Deno, Bun, Elixir, Scala, Dart, R, Go's syscall
			`\bDeno\.env\.toObject\(\)|\bBun\.env\b(?:\s*[),;}\]]|\s*$)|\bSystem\.get_env\(\)|\bsys\.env\b(?:\s*[),;}\]]|\.(?:toMap|map|filter|foreach|mkString)\b)|\bPlatform\.environment\b(?:\s*[^\[\s.]|\s*$|\.(?:toString|entries|keys|values|map|forEach)\b)|\bSys\.getenv\(\)|\bsyscall\.Environ\(\)`),
		// Files that hold a machine's or a developer's credentials.
		credFile: regexp.MustCompile(`(?i)\.git-credentials\b|[/~"'\s]\.netrc\b|[/~"'\s]\.npmrc\b|\.pypirc\b|\.aws["'/\\, ]+credentials\b|\.ssh["'/\\, ]+id_\w+|\.docker["'/\\, ]+config\.json\b|\.kube["'/\\, ]+config\b|\bnuget\.config\b|\.config["'/\\, ]+gh["'/\\, ]+hosts\.yml\b|\.cargo/credentials|\.gem/credentials\b|application_default_credentials\.json|\.git/config\b|\.m2["'/\\, ]+settings\.xml|\.gradle["'/\\, ]+gradle\.properties|` +
			// the stores a stealer reads: browser logins and cookies, chat
			// tokens, wallets, cloud CLIs' tokens, shell history, a pod's token
			`Login Data\b|\bCookies\b["'/\\]|Local Storage["'/\\, ]+leveldb|\bwallet\.dat\b|solana/id\.json|\.electrum\b|\bExodus[/\\]|\bkeystore[/\\]|` +
			`\.azure/(?:accessTokens|msal_token_cache)|\.config/gcloud\b|\.terraform\.d/credentials|\.vault-token\b|\.(?:bash|zsh)_history\b|` +
			`/(?:var/)?run/secrets/|169\.254\.169\.254/[\w/.-]*(?:credentials|token)|metadata\.google\.internal/[\w/.-]*token`),
		// A line that writes such a file (set-up for a publish) reads nothing.
		credWrite: regexp.MustCompile(`(?i)>>?\s*["']?[~$\w{}/.-]*(?:\.netrc|\.npmrc|\.pypirc|credentials|config\.json|nuget\.config|\.git-credentials)|\btee\b|\bwrite(?:File|_text|_bytes)?\w*\(|\bSet-Content\b|\bAdd-Content\b|\bOut-File\b|\bopen\([^)]*,\s*["'][wa]|\bnpm\s+config\s+set\b|\bgit\s+config\s+(?:--global\s+)?credential\b|\bchmod\b|\brm\b`),
		// Git's stored credentials, the gh CLI's token, a runner's memory.
		gitCred: regexp.MustCompile(`(?i)\bgit\s+config\s+(?:--\w+\s+)*(?:--list|-l)\b|\bgit\s+credential\s+fill\b|\brunner\.worker\b|/proc/[^/\s]+/mem\b|` +
			// the CLIs that hand out what they hold, and the environment read by a child
			`\bkubectl\s+config\s+view\b.*--raw|\bsecurity\s+find-(?:generic|internet)-password\b|\bsecret-tool\s+lookup\b|\btrufflehog\b|\bgitleaks\b|` +
			`(?:popen|check_output|getoutput|run|call|execSync|execFileSync|spawnSync|Command|capture2|%x)\(?\s*\[?\s*["'\x60(](?:/usr/bin/)?(?:env|printenv|set)["'\x60)\]]`),
		// The environment handed to a child process, not read: env=,
		// env: {...process.env}, cmd.Env = os.Environ().
		childEnv: regexp.MustCompile(`(?i)\benv\s*[=:]\s*(?:\{\s*\.\.\.|dict\(|os\.environ|process\.env|\w+\s*[,)}]|\w+\s*$)|\.Env\s*=|\bEnvironment\s*[=(]|\benv\s*\}|\benvironment\s*=`),
		envName:  regexp.MustCompile(`^\s*(?:(?:const|let|var|val|my|local|final|auto)\s+)?(?:[A-Z][\w.<>\[\]]*\s+)?\$?([A-Za-z_]\w*)(?:\s*,\s*(?:_|err|ok))?\s*(?::=|=)[^=]`),
		// A client that reaches the network, in any language or shell.
		client: regexp.MustCompile(`(?i)\bcurl\b|\bwget\b|\baria2c\b|\bhttps?\.(?:request|get)\(|\bfetch\(|\baxios\b|\bXMLHttpRequest\b|\bWebSocket\(|\bgot\(|\bneedle\b|\bsuperagent\b|\burlopen\(|\burllib\d?\.request\b|\brequests\.\w+\(|\bhttpx\.\w+\(|\bhttp\.client\b|\baiohttp\b|\bhttp\.(?:Post|PostForm|NewRequest\w*|Get)\(|\.Do\(\s*req|\bNet::HTTP\b|\bURI\.open\b|\bFaraday\b|\bHTTParty\b|\bRestClient\b|\bHttpClient\b|\bHttpURLConnection\b|\.openConnection\(|\bOkHttp\w*|\bHttpRequest\.newBuilder|\bWebClient\b|\breqwest::|\bureq::|\bcurl_(?:exec|init)\(|\bwp_remote_\w+\(|\bLWP::|\bHTTP::Tiny\b|\bInvoke-(?:RestMethod|WebRequest)\b|(?:^|[\s|(;=])(?:irm|iwr)\s|\.Upload(?:String|Data|File)\w*\(|\bSendAsync\(|\bPost(?:As)?\w*Async\(|` +
			// any client's post or put (a session, a custom client), not a server's route ('/path')
			`\.(?:post|put|patch)\(\s*[^'"/\s)]|\.(?:post|put|patch)\(\s*["'\x60](?:https?:|\$\{)|->(?:post|put|patch|request)\(|` +
			`\b(?:github|octokit)\.(?:request|rest\.\w+\.\w+)\(|\bURLSession\b|\bURLRequest\(|` +
			// Elixir's and Erlang's clients
			`\b(?:HTTPoison|Req|Tesla|Finch|HTTPotion)\.(?:post|put|patch|request)!?\(|:httpc\.request\(`),
		// A request that carries data: a method, a body or an upload.
		body: regexp.MustCompile(`(?i)(?:\b|_)(?:post|put|patch)(?:\b|_)|\bpost\w*Async\(|\bMethodP(?:ost|ut|atch)\b|\burlopen\(\s*[^,()]+,\s*(?:data\b|[a-z_]\w*\s*[,)])|\bdata\s*[=:]|\bbody\s*[=:]|\bjson\s*[=:]|\bfiles\s*=|-Body\b|-InFile\b|--data\w*|\s-d\s|\s-F\s|--form\b|\s-T\s|--upload-file|--post-|--body-|--json\b|["']-[dFT]["']|["']--(?:data\w*|form|upload-file|post-\w+|json)["']|\bRequest\(\s*[^,()]+(?:\([^()]*\))?\s*,|\.Upload\w*\(|\bSendAsync\(|\.(?:end|write|send)\(\s*[A-Za-z_$]`),
		// Channels that carry data by themselves.
		always: regexp.MustCompile(`(?i)/dev/(?:tcp|udp)/|\b(?:nc|ncat|netcat|socat)\s+-?\w*\s*\S+\s+\d+|\bsocket\.(?:socket|create_connection)\(|\bnet\.(?:Dial\w*|connect|createConnection)\(|\bTcpStream::connect\b|\bUdpSocket\b|\bnew\s+Socket\(|\bTCPSocket\b|\bfsockopen\(|\bIO::Socket\b|\bsmtplib\b|\bgh\s+(?:gist\s+create|api\s+\S+.*\s(?:-f|-F|--field|--raw-field|--input)\s|release\s+upload|issue\s+(?:create|comment)|pr\s+comment)|\b(?:aws\s+s3\s+(?:cp|sync)|gsutil\s+cp|az\s+storage\s+blob\s+upload|rclone\s+(?:copy|sync))\b|\bscp\s|\bsftp\s|\bdns\.(?:resolve|lookup)\w*\(|\bnet\.Lookup\w*\(|\bResolve-DnsName\b|\b(?:nslookup|dig)\s|\bgethostbyname\(|\bgetaddrinfo\(|\.createOrUpdateFileContents\(|\bgists\.create\(|\.createComment\(|` +
			// CMake's upload; mail, file transfer, a bucket, other sockets
			`(?i:\bfile\(\s*UPLOAD\b)|` +
			`(?:^|[|;&(]\s*)(?:mail|mailx|s-nail|mutt)\s+(?:-\S+\s+(?:"[^"]*"\s+|'[^']*'\s+|\w+\s+)?)*[\w.+-]+@|\b(?:sendmail|msmtp|ssmtp|swaks)\s|\bcurl\b.*\bsmtps?://|\bping\s[^|;&]*\s-p\s|` +
			`\bftplib\b|\bparamiko\b|\bsmtp\.SendMail\(|\bSmtpClient\b|\bNet::SMTP\b|\bSend-MailMessage\b|\b(?:Tcp|Udp)Client\b|\bdgram\.createSocket\(|\btls\.connect\(|` +
			`\.(?:upload_file|upload_fileobj|put_object|upload_from_string|upload_from_filename)\(|\bgh\s+repo\s+create\b`),
		url: regexp.MustCompile(`(?i)\b(?:https?|wss?)://(?:(?:[^@/\s"']|\$\{\{[^}]*\}\})*@)?([a-z0-9.-]+)|\bhost\s*[:=]\s*["']([a-z0-9.-]+\.[a-z]{2,})["']`),
		// Authentication parts: a secret there goes with the request as
		// its credential, to the host the request is for.
		authPart: regexp.MustCompile(`(?i)://(?:[^@/\s"']|\$\{\{[^}]*\}\})*@|(?:-H|--header)[= ]\s*("` + credHeader + `:[^"]*"|'` + credHeader + `:[^']*'|` + credHeader + `:\S*)|(?:-u|--user)[= ]\s*\S+|["']?authorization["']?\s*[:=,]\s*("[^"]*"|'[^']*'|` + "`[^`]*`" + `|[^,}\n]+)|\bheaders\s*[=:]\s*\{[^}]*\}|\bauth\s*=\s*\([^)]*\)|\bauth\s*:\s*[^,}\n]+|-Headers\s+@\{[^}]*\}|\bSetBasicAuth\([^)]*\)|\bbasic_auth\([^)]*\)|\bbearer_auth\([^)]*\)`),
		// A secret named on the line: ${{ secrets.X }}, or a variable named
		// like a credential, read in any language.
		// Azure Pipelines' $(System.AccessToken) is its job's token.
		secretRef: regexp.MustCompile(`\$\{\{\s*secrets\.([A-Za-z_]\w*)\s*\}\}|\$\((System\.AccessToken)\)`),
		// A project's .env read raw (a loader that sets the process's
		// environment from it, dotenv, is its use).
		dotenv: regexp.MustCompile(`(?i)(?:readFile\w*|read_text|open|File\.read\w*|ReadFile|ReadAllText|Get-Content|\bcat)\b\(?\s*(?:[\w.]+\s*\+\s*)?["'](?:\.{0,2}/)*(?:[\w-]+/)*\.env(?:\.\w+)?["']|\bcat\s+(?:\S*/)?\.env\b`),
		// An interpreter's inline program: pwsh -c ", node -e ', python3 -c ".
		inline:    regexp.MustCompile(`^\s*\S+\s+(?:-\w+\s+)*-(?:c|e|Command)\s+["']`),
		wfSecret:  regexp.MustCompile(`^\s*([A-Za-z_]\w*)\s*:\s*["']?\$\{\{\s*secrets\.([A-Za-z_]\w*)\s*\}\}["']?\s*$`),
		tokenName: regexp.MustCompile(`\b([A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)*(?:TOKEN|SECRET|PASSWORD|PASS|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY|SECRET_KEY|AUTH)(?:_B64|_BASE64|_JSON)?)\b`),
		forgeDrop: regexp.MustCompile(`\bgh\s+(?:gist\s+create|release\s+(?:create|upload)|issue\s+(?:create|comment)|pr\s+(?:create|comment)|api\b.*(?:/comments|/issues|/gists|/contents/|/releases))|\.createComment\(|\bgists\.create\(|\.createOrUpdateFileContents\(|\.issues\.create\(`),
		gitPush:   regexp.MustCompile(`\bgit\s+(?:-\S+\s+)*push\b`),
		// The name a statement stores its result in (X=$(curl …), r = requests.post(…)).
		storedIn:  regexp.MustCompile(`^\s*(?:(?:export|local|declare|readonly|typeset|const|let|var|val|my|final|auto)\s+(?:-\w+\s+)*)?\$?([A-Za-z_]\w*)\s*:?=`),
		newRemote: regexp.MustCompile(`\bgh\s+repo\s+(?:create|fork)\b|\bgit\s+remote\s+(?:add|set-url)\b|\bgit\s+init\b|\bcreateForAuthenticatedUser\(|/user/repos\b`),
		envRead:   regexp.MustCompile(`(?i)environ|getenv|process\.env|\bENV\b|\$env:|env::var|GetEnvironmentVariable`),
	}
})

// bound is an env name a workflow binds to a secret.
type bound struct {
	secret string
	n      int
	added  bool
}

// workflowSecretEnv maps the env names a workflow binds to a secret (at
// any level: the workflow's, a job's, a step's) to the secret.
func workflowSecretEnv(lines []UnitLine) map[string]bound {
	out := map[string]bound{}
	re := leaveRe()
	for _, l := range lines {
		if !strings.Contains(l.Text, "secrets.") {
			continue
		}
		if m := re.wfSecret.FindStringSubmatch(l.Text); m != nil {
			out[m[1]] = bound{m[2], l.N, l.Added}
		}
	}
	return out
}

var stepStart = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*-\s+(?:name|uses|run|id|env|with|if|shell|working-directory|continue-on-error|timeout-minutes)\s*:|^\s{0,4}[\w-]+:\s*$`)
})

// FileLeaks reads a file's shown lines (in order) for data leaving: a
// workflow step by step, with the env names bound to secrets, any other
// file as one unit in which a source and a sink are at most a screenful
// apart.
func FileLeaks(lines []UnitLine, workflow bool) []Leak {
	if !workflow {
		return leaks(lines, nil, 60)
	}
	env := workflowSecretEnv(lines)
	var out []Leak
	held := map[string]int{} // files a step wrote secrets or the environment into, by the line that did
	start := 0
	for i := 1; i <= len(lines); i++ {
		if i == len(lines) || stepStart().MatchString(lines[i].Text) {
			step := lines[start:i]
			out = append(out, leaks(step, env, 0)...)
			out = append(out, artifactLeaks(step, env, held)...)
			start = i
		}
	}
	return out
}

var (
	// > file, >> file, tee file, -o file: where a command's output goes.
	writtenTo = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:>>?|\btee\s+(?:-a\s+)?|\s-o\s+|--output[= ])\s*["']?([\w.][\w./-]+)`)
	})
	uploadArtifact = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\buses:\s*actions/upload-artifact@`) })
)

// artifactLeaks follows secrets or the environment written to a file by
// one step into a later step that uploads the file as an artifact: anyone
// who can read the run's artifacts (on a public repository, anyone) then
// has them.
func artifactLeaks(step []UnitLine, env map[string]bound, held map[string]int) []Leak {
	re := leaveRe()
	upload := false
	for _, l := range step {
		upload = upload || uploadArtifact().MatchString(l.Text)
	}
	var out []Leak
	for _, l := range step {
		if upload {
			// the path: value or a list item, a folder that holds the file
			v := strings.Trim(strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(l.Text), "- "), "path:")), `"'`)
			v = strings.TrimSuffix(strings.TrimPrefix(v, "./"), "/")
			for p, n := range held {
				inDir := v != "" && v != "." && !strings.ContainsAny(v, " :*") && strings.HasPrefix(p, v+"/")
				if (strings.Contains(l.Text, p) || inDir) && l.Added && !strings.Contains(l.Text, "uses:") {
					out = append(out, Leak{Sink: l.N, Source: n, Severity: High,
						Title: "uploads as an artifact a file that line " + itoa(n) + " wrote secrets or the environment into"})
				}
			}
			continue
		}
		m := writtenTo().FindStringSubmatch(l.Text)
		if m == nil || len(m[1]) < 3 || m[1] == "/dev/null" || strings.Contains(m[1], "GITHUB_") {
			continue
		}
		src := re.bulk.MatchString(l.Text) || re.secretRef.MatchString(l.Text)
		for name := range env {
			src = src || strings.Contains(l.Text, "$"+name) || strings.Contains(l.Text, "${"+name)
		}
		for _, b := range step {
			// NAME: ${{ toJSON(secrets) }} in the step's env
			if k := strings.Index(b.Text, ":"); k > 0 && re.bulk.MatchString(b.Text) {
				name := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(b.Text[:k]), "- "))
				src = src || strings.Contains(l.Text, "$"+name) || strings.Contains(l.Text, "${"+name)
			}
		}
		if src {
			held[strings.TrimPrefix(m[1], "./")] = l.N
		}
	}
	return out
}

// leaveKeys are the lower-case words one of which a unit must hold for a
// source to be in it: most units hold none and are read no further.
var leaveKeys = []string{"environ", "process.env", "getenv", "env:", "env::", "env.", "$_env", "$_server", "%env", "printenv", "env |",
	"env|", "env>", "env)", "export -p", "declare -", "tojson(", "credentials", "netrc", "npmrc", "pypirc", ".ssh/", ".docker", ".kube/",
	"nuget.config", "hosts.yml", ".git/config", ".m2/", "gradle.properties", "extraheader", "git config", "credential fill", "auth token",
	"auth status", "runner.worker", "/proc/", "secrets.", "_token", "_secret", "_password", "_pass", "_key", "_auth", "login data", "cookies",
	"leveldb", "wallet", "solana", "electrum", "exodus", "keystore", ".azure/", "gcloud", "terraform.d", "vault-token", "_history",
	"kubernetes.io", "169.254.169.254", "metadata.google", ".env", "run/secrets", "npm config", "aws configure", "aws sts",
	"print-access-token", "print-identity-token", "get-access-token", "kubectl config", "docker-credential", "find-generic-password",
	"find-internet-password", "secret-tool", "'env'", "\"env\"", "'printenv'", "\"printenv\"", "compgen", "deno.env", "bun.env",
	"get_env()", "sys.env", "platform.environment", "sys.getenv", "syscall.environ", "trufflehog", "gitleaks", "system.accesstoken"}

// sendKeys are the lower-case words one of which a line that reaches the
// network holds.
var sendKeys = []string{"curl", "wget", "aria2c", "http", "fetch(", "axios", "websocket", "got(", "needle", "superagent", "urlopen",
	"urllib", "requests.", "httpx.", "net::", "uri.open", "faraday", "httparty", "restclient", "openconnection", "okhttp", "webclient",
	"reqwest", "ureq", "curl_", "wp_remote", "lwp::", "invoke-", "irm ", "iwr ", "upload", "async(", "/dev/tcp", "/dev/udp", "nc ",
	"ncat", "netcat", "socat", "socket", "dial", "net.connect", "createconnection", "tcpstream", "udpsocket", "fsockopen", "smtplib",
	"gh ", "git push", "aws s3", "gsutil", "az storage", "rclone", "scp ", "sftp ", "dns.", "lookup", "resolve-dnsname", "nslookup",
	"dig ", "gethostbyname", "getaddrinfo", "createorupdatefilecontents", "gists.create", "createcomment", ".post(", ".put(", ".patch(",
	"ftplib", "paramiko", "smtp", "sendmail", "tcpclient", "udpclient", "dgram", "tls.connect", "upload_", "put_object", "repo create",
	"request(", "urlsession", "urlrequest", "->p", "mail", "swaks", "ping "}

var leaveKeyIndex = sync.OnceValue(func() *KeyIndex { return NewKeyIndex([][]string{leaveKeys}) })

var sendKeyIndex = sync.OnceValue(func() *KeyIndex { return NewKeyIndex([][]string{sendKeys}) })

// LeaveKeys reports whether a line holds a word a send needs (the caller
// has found one a source needs): a file without both is not read for data
// leaving.
func LeaveKeys(s string) bool {
	return sendKeyIndex().HasFold(s)
}

// source is one line that reads credentials.
type source struct {
	n      int
	bulk   bool   // the environment, a credential file, git's or gh's token
	secret string // one secret, by the name it has where it is kept
	name   string // the name the unit reads it by
	added  bool
}

// leaks reads one unit. secretEnv maps the env names the unit is handed
// to the secrets they hold (a workflow step's env); nil elsewhere. span,
// when not 0, is how far apart a source and its sink may be.
func leaks(unit []UnitLine, secretEnv map[string]bound, span int) []Leak {
	re := leaveRe()
	keyed := false
	for _, l := range unit {
		if leaveKeyIndex().HasFold(l.Text) {
			keyed = true
			break
		}
	}
	if !keyed {
		return nil
	}
	var srcs []source
	inert := map[string]bool{} // names bound to the environment only to hand it to a child
	bound := map[string]int{}  // names bound to the whole environment, by line
	for i, l := range unit {
		t := l.Text
		switch {
		case re.bulk.MatchString(t):
			// { ...process.env } spreads the environment; { env } hands it on.
			if re.childEnv.MatchString(strings.ReplaceAll(t, "process.env", "process_env")) || ownPrefix(unit[i:min(i+3, len(unit))]) {
				continue
			}
			if m := re.envName.FindStringSubmatch(t); m != nil {
				bound[m[1]] = l.N
			}
			srcs = append(srcs, source{n: l.N, bulk: true, added: l.Added})
		case re.credFile.MatchString(t) && !re.credWrite.MatchString(t) || re.gitCred.MatchString(argvWords().ReplaceAllString(t, " ")) || re.dotenv.MatchString(t):
			srcs = append(srcs, source{n: l.N, bulk: true, added: l.Added})
		}
		for _, c := range cliTokens() {
			// A vendor's CLI handing out its token: one secret, for that vendor.
			if m := c.re.FindString(argvWords().ReplaceAllString(t, " ")); m != "" {
				srcs = append(srcs, source{n: l.N, secret: c.secret, name: m, added: l.Added})
			}
		}
		for _, m := range re.secretRef.FindAllStringSubmatch(t, -1) {
			srcs = append(srcs, source{n: l.N, secret: m[1] + m[2], name: m[0], added: l.Added})
		}
		for _, m := range re.tokenName.FindAllStringSubmatch(t, -1) {
			// Read from the environment (a constant named like a token, a
			// page token, is not a secret).
			if _, ok := secretEnv[m[1]]; !ok && (re.envRead.MatchString(t) || strings.Contains(t, "$"+m[1]) || strings.Contains(t, "${"+m[1])) {
				srcs = append(srcs, source{n: l.N, secret: m[1], name: m[1], added: l.Added})
			}
		}
	}
	for name, b := range secretEnv {
		srcs = append(srcs, source{n: b.n, secret: b.secret, name: name, added: b.added})
	}
	// A name that holds the environment and is then handed to a child
	// process as its environment is the child's, not data sent.
	for name := range bound {
		for _, l := range unit {
			if strings.Contains(l.Text, name) && re.childEnv.MatchString(l.Text) && childEnvIs(l.Text, name) {
				inert[name] = true
			}
		}
	}
	if len(inert) > 0 {
		kept := srcs[:0]
		for _, s := range srcs {
			drop := false
			for name, n := range bound {
				if inert[name] && n == s.n {
					drop = true
				}
			}
			if !drop {
				kept = append(kept, s)
			}
		}
		srcs = kept
	}
	if len(srcs) == 0 {
		return nil
	}
	// Names that carry a secret on: info = @{ key = $env:FEED_KEY },
	// seed = os.getenv("SEED"), payload = { ... } over lines.
	carried := map[string][]string{} // secret's name -> the names carrying it
	for i, l := range unit {
		// An assignment may stand after an interpreter's -c " or a ;.
		for _, seg := range strings.Split(re.inline.ReplaceAllString(l.Text, ""), ";") {
			m := re.envName.FindStringSubmatch(seg)
			if m == nil {
				continue
			}
			rhs := re.authPart.ReplaceAllString(argvWords().ReplaceAllString(seg, " "), "")
			if strings.Count(seg, "(")+strings.Count(seg, "{") > strings.Count(seg, ")")+strings.Count(seg, "}") {
				rhs = re.authPart.ReplaceAllString(argvWords().ReplaceAllString(statement(unit[i:]), " "), "")
			}
			rhs = rhs[strings.Index(rhs, "=")+1:]
			carry(m[1], rhs, srcs, carried)
		}
	}
	var out []Leak

	// A push leaves the runner for a repository of the change's choosing
	// when the unit makes one or points a remote elsewhere; to the
	// checkout's own origin it is the token's use.
	elsewhere := false
	for _, l := range unit {
		elsewhere = elsewhere || re.newRemote.MatchString(l.Text)
	}
	// Names that hold what a request returned (T=$(curl … /token)): a
	// token the unit fetched from a service goes back to that service as
	// its use.
	issued := map[string][]string{}
	for i, l := range unit {
		if m := re.storedIn.FindStringSubmatch(l.Text); m != nil && re.client.MatchString(l.Text) {
			if hosts := sinkHosts(statement(unit[i:]), unit); len(hosts) > 0 {
				issued[m[1]] = hosts
			}
		}
	}
	conns := map[string]bool{} // names bound to a connection or request that has not sent yet
	var held map[string]int    // names that hold the environment, read once a request without a body needs them
	for i, l := range unit {
		stmt := ""
		if re.gitPush.MatchString(l.Text) && (elsewhere || strings.Contains(l.Text, "://")) || gitCredURL().MatchString(l.Text) {
			stmt = l.Text
		} else if re.client.MatchString(l.Text) || re.always.MatchString(l.Text) {
			stmt = statement(unit[i:])
			if !re.always.MatchString(stmt) && !re.body.MatchString(stmt) && !authNames(stmt, srcs, carried) {
				if held == nil {
					held = envCarriers(unit, re.bulk, re.childEnv)
				}
				if n := urlCarriesEnv(stmt, held); n > 0 && l.Added {
					// A GET whose address carries the environment.
					out = append(out, Leak{Sink: l.N, Source: n, Severity: High,
						Title: "sends what line " + itoa(n) + " read (the environment) in the request's address"})
					continue
				}
				if m := re.envName.FindStringSubmatch(l.Text); m != nil {
					conns[m[1]] = true
				}
				continue
			}
		} else if len(conns) > 0 {
			// c.setRequestMethod("POST"), conn.request("POST", …), req.end(body):
			// the connection sends on a later line.
			w := strings.TrimLeft(l.Text, " \t$")
			if k := strings.IndexByte(w, '.'); k <= 0 || !conns[w[:k]] {
				continue
			}
			if stmt = statement(unit[i:]); !re.body.MatchString(stmt) && !strings.Contains(stmt, "OutputStream") {
				continue
			}
		} else {
			continue
		}
		named := sinkHosts(stmt, unit)
		var best *Leak
		for _, s := range srcs {
			if !l.Added && !s.added || span > 0 && (s.n-l.N > span || l.N-s.n > span) {
				continue
			}
			lk := Leak{Sink: l.N, Source: s.n}
			if s.bulk && onRunnerOnly(named) {
				continue // the metadata service's own session token goes back to it
			}
			if s.bulk {
				lk.Severity, lk.Title = High, "sends what line "+itoa(s.n)+" read (the environment or stored credentials) off the runner"
			} else {
				// The name the statement stores the reply in receives, it
				// is not sent: TOKEN=$(curl … registration-token) fetches one.
				body := re.authPart.ReplaceAllString(argvWords().ReplaceAllString(re.storedIn.ReplaceAllString(stmt, ""), " "), "")
				sent := wordIn(body, s.name) && !urlIsSecret(stmt, s.name) && !destSecret().MatchString(s.secret)
				for _, c := range carried[s.name] {
					sent = sent || wordIn(body, c) && !urlIsSecret(stmt, c)
				}
				if !sent && !credentialAway(stmt, s, carried, named) {
					continue
				}
				switch {
				case !sent:
					lk.Severity, lk.Title, lk.Credential = High, "hands the secret "+s.secret+" as the credential of a request to "+named[0]+", a host it is not for", true
				case re.forgeDrop.MatchString(stmt):
					lk.Severity, lk.Title = High, "publishes the secret "+s.secret+" on GitHub (a comment, an issue, a gist, a release), where anyone who reads it has it"
				case len(named) == 0:
					continue // where it goes is decided at run time: the shell and code readers judge that
				case allOwnHost(s.secret, named):
					lk.Severity, lk.Title = Medium, "sends the secret "+s.secret+" to its own service ("+named[0]+")"
				case issuedBy(issued[s.name], named):
					lk.Severity, lk.Title = Medium, "sends the token "+s.secret+" back to the service it was fetched from ("+named[0]+")"
				default:
					lk.Severity, lk.Title = High, "sends the secret "+s.secret+" to "+named[0]+", a host it is not for"
				}
			}
			if best == nil || severityOrder(lk.Severity) < severityOrder(best.Severity) {
				c := lk
				best = &c
			}
		}
		if best != nil {
			out = append(out, *best)
		}
	}
	return out
}

// carry records name as carrying each single secret rhs mentions, by its
// own name or a name that already carries it.
func carry(name, rhs string, srcs []source, carried map[string][]string) {
	for _, s := range srcs {
		if s.bulk || s.name == name {
			continue
		}
		hit := wordIn(rhs, s.name)
		for _, c := range carried[s.name] {
			hit = hit || wordIn(rhs, c)
		}
		if hit {
			carried[s.name] = append(carried[s.name], name)
		}
	}
}

func severityOrder(s string) int {
	if s == High {
		return 0
	}
	return 1
}

// childEnvIs reports a line that hands name to a child process as its
// environment.
func childEnvIs(s, name string) bool {
	if name == "env" && envShorthand().MatchString(s) {
		return true // spawn(cmd, args, { env, stdio })
	}
	for _, p := range []string{"env=" + name, "env: " + name, "env:" + name, "env = " + name, ".Env = " + name, "Env: " + name, "Environment = " + name, "{ env }", "{env}", "env=dict(" + name} {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// statement is the line's statement: the line and the lines its open
// brackets, a trailing backslash or backtick carry on to (at most twelve).
func statement(rest []UnitLine) string {
	var b strings.Builder
	depth := 0
	for i, l := range rest {
		if i >= 12 {
			break
		}
		b.WriteString(l.Text)
		b.WriteByte('\n')
		depth += strings.Count(l.Text, "(") + strings.Count(l.Text, "{") + strings.Count(l.Text, "[") -
			strings.Count(l.Text, ")") - strings.Count(l.Text, "}") - strings.Count(l.Text, "]")
		t := strings.TrimRight(l.Text, " \t")
		if depth <= 0 && !strings.HasSuffix(t, "\\") && !strings.HasSuffix(t, "`") {
			break
		}
	}
	return b.String()
}

// sinkHosts are the hosts a statement sends to: the URLs it names, or
// the URL a name it uses is bound to in the unit (a URL kept in a
// constant). None when the destination is decided at run time.
func sinkHosts(stmt string, unit []UnitLine) []string {
	re := leaveRe()
	var hosts []string
	for _, m := range re.url.FindAllStringSubmatch(stmt, -1) {
		hosts = append(hosts, strings.ToLower(m[1]+m[2]))
	}
	if len(hosts) > 0 {
		return hosts
	}
	for _, l := range unit {
		if m := re.envName.FindStringSubmatch(l.Text); m != nil && strings.Contains(l.Text, "://") && wordIn(stmt, m[1]) {
			for _, u := range re.url.FindAllStringSubmatch(l.Text, -1) {
				hosts = append(hosts, strings.ToLower(u[1]+u[2]))
			}
		}
	}
	return hosts
}

// onRunnerOnly reports hosts that are all on the runner's own machine.
func onRunnerOnly(hosts []string) bool {
	for _, h := range hosts {
		if !provenance.OnRunnerHost(h) {
			return false
		}
	}
	return len(hosts) > 0
}

// urlIsSecret reports a secret kept as where the request goes (a
// webhook, an endpoint, a DSN): sending to it is its use, not a leak.
func urlIsSecret(stmt, name string) bool {
	return destSecret().MatchString(name) && wordIn(stmt, name)
}

var destSecret = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)url|hook|endpoint|dsn|uri`) })

// OwnHost reports host as the service a secret of that name is for: a
// word of its name is a label of the host's domain (COVERITY_SCAN_TOKEN to
// scan.coverity.com) of a vendor the table does not know, or the vendor
// table names the host.
func OwnHost(secret, host string) bool {
	host = strings.ToLower(host)
	up := strings.ToUpper(secret)
	known := false
	for _, v := range vendorHosts {
		if strings.HasPrefix(up, v.prefix) {
			known = true
			for _, d := range v.hosts {
				if host == d || strings.HasSuffix(host, "."+d) {
					return true
				}
			}
		}
	}
	if known {
		// A known vendor's hosts are its table's: its name on another
		// domain (anyone's github.io site, npm.io, aws.io) is not its own.
		return false
	}
	labels := strings.Split(host, ".")
	if len(labels) < 2 {
		return false
	}
	// The registrable part: the label before the suffix (two for co.uk-like suffixes).
	domain := labels[len(labels)-2]
	if len(labels) >= 3 && len(domain) <= 3 {
		domain = labels[len(labels)-3]
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(secret), func(r rune) bool { return r == '_' || r == '-' }) {
		if len(w) >= 3 && !genericSecretWords[w] && w == domain {
			return true
		}
	}
	return false
}

// credHeader is the name of a header that carries a credential
// (Authorization, PRIVATE-TOKEN, X-Api-Key, Cookie); what another header
// carries (X-Build: $SECRET) is data sent to the host.
const credHeader = `\s*[\w-]*(?:[Aa]uth|[Tt]oken|TOKEN|[Kk]ey|KEY|[Ss]ecret|SECRET|[Pp]ass|PASS|[Cc]ookie|[Ss]ession|[Ss]ignature|[Cc]redential)[\w-]*\s*`

// dataHeader is any header a curl or wget request sends.
var dataHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:-H|--header)[= ]\s*(?:"[^"]*"|'[^']*'|\S+)`)
})

// gitCredURL is a git command given a URL with a credential in it
// (https://user:$TOKEN@host/…): the credential goes to that host.
var gitCredURL = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bgit\s+(?:-\S+\s+)*(?:push|clone|fetch|pull|ls-remote|remote\s+(?:add|set-url))\b.*://(?:[^@/\s"']|\$\{\{[^}]*\}\})*[$%](?:[^@/\s"']|\$\{\{[^}]*\}\})*@`)
})

// authNames reports a request whose headers or authentication parts (-u,
// a URL's user part) name one of the unit's single secrets.
func authNames(stmt string, srcs []source, carried map[string][]string) bool {
	auth := strings.Join(leaveRe().authPart.FindAllString(stmt, -1), " ") + " " + strings.Join(dataHeader().FindAllString(stmt, -1), " ")
	if auth == "" {
		return false
	}
	for _, s := range srcs {
		if !s.bulk && (wordIn(auth, s.name) || slices.ContainsFunc(carried[s.name], func(c string) bool { return wordIn(auth, c) })) {
			return true
		}
	}
	return false
}

// credentialAway reports a secret handed as a request's credential to
// hosts that are not its service, for the tokens whose service no other
// host can be: GitHub's (the job's token, a personal token) and Azure
// Pipelines' job token. A registry's token, or GitLab's job token, may be
// for the project's own registry or instance.
func credentialAway(stmt string, s source, carried map[string][]string, hosts []string) bool {
	if len(hosts) == 0 || !knownServiceToken(s.secret) || !authNames(stmt, []source{s}, carried) {
		return false
	}
	for _, h := range hosts {
		if OwnHost(s.secret, h) || !strings.Contains(h, ".") {
			return false
		}
	}
	return true
}

func knownServiceToken(secret string) bool {
	up := strings.ToUpper(secret)
	for _, p := range []string{"GITHUB_", "GH_", "SYSTEM.ACCESSTOKEN", "SYSTEM_ACCESSTOKEN"} {
		if strings.HasPrefix(up, p) {
			return true
		}
	}
	return false
}

// issuedBy reports sink hosts that are all among the hosts a token was
// fetched from.
func issuedBy(from, hosts []string) bool {
	if len(from) == 0 {
		return false
	}
	for _, h := range hosts {
		if !slices.Contains(from, h) {
			return false
		}
	}
	return true
}

func allOwnHost(secret string, hosts []string) bool {
	for _, h := range hosts {
		if !OwnHost(secret, h) {
			return false
		}
	}
	return true
}

var genericSecretWords = map[string]bool{"token": true, "key": true, "api": true, "secret": true, "password": true, "pass": true, "auth": true,
	"access": true, "the": true, "scan": true, "prod": true, "dev": true, "url": true, "user": true, "username": true, "email": true,
	"upload": true, "deploy": true, "bot": true, "app": true, "private": true, "client": true, "personal": true, "pat": true, "ci": true,
	"release": true, "publish": true, "write": true, "read": true, "admin": true, "service": true, "account": true, "repo": true}

// vendorHosts names the hosts a credential's well-known prefix is for.
var vendorHosts = []struct {
	prefix string
	hosts  []string
}{
	{"GITHUB", []string{"github.com", "githubusercontent.com", "ghcr.io"}}, {"GH_", []string{"github.com", "githubusercontent.com", "ghcr.io"}},
	{"NPM", []string{"npmjs.org", "npmjs.com"}}, {"NODE_AUTH", []string{"npmjs.org", "npmjs.com"}},
	{"PYPI", []string{"pypi.org"}}, {"TWINE", []string{"pypi.org"}}, {"HF_", []string{"huggingface.co"}},
	{"AWS", []string{"amazonaws.com"}}, {"GCP", []string{"googleapis.com"}}, {"GOOGLE", []string{"googleapis.com", "google.com"}},
	{"AZURE", []string{"azure.com", "windows.net", "microsoft.com", "visualstudio.com"}}, {"ARM_", []string{"azure.com", "windows.net", "microsoft.com"}},
	{"DOCKER", []string{"docker.com", "docker.io"}}, {"CARGO", []string{"crates.io"}}, {"GEM", []string{"rubygems.org"}},
	{"NUGET", []string{"nuget.org"}}, {"CF_", []string{"cloudflare.com"}}, {"CODECOV", []string{"codecov.io"}},
	{"SONAR", []string{"sonarcloud.io", "sonarqube.org"}}, {"CI_JOB", []string{"gitlab.com"}},
	{"SYSTEM.ACCESSTOKEN", []string{"dev.azure.com", "visualstudio.com", "azure.com"}}, {"SYSTEM_ACCESSTOKEN", []string{"dev.azure.com", "visualstudio.com", "azure.com"}},
}

// SentToOwnHost reports a request whose secrets (named in text, as
// ${{ secrets.X }} or a variable named like a credential) all go to their
// own service: every URL has a host, and each is the secrets' vendor's.
func SentToOwnHost(text string, urls []string) bool {
	re := leaveRe()
	var names []string
	for _, m := range re.secretRef.FindAllStringSubmatch(text, -1) {
		names = append(names, m[1]+m[2])
	}
	if len(names) == 0 {
		for _, m := range re.tokenName.FindAllStringSubmatch(text, -1) {
			names = append(names, m[1])
		}
	}
	if len(names) == 0 && CLIToken(text) != "" {
		names = append(names, CLIToken(text))
	}
	var hosts []string
	for _, u := range urls {
		for _, m := range re.url.FindAllStringSubmatch(u, -1) {
			hosts = append(hosts, strings.ToLower(m[1]+m[2]))
		}
	}
	if len(names) == 0 || len(hosts) == 0 {
		return false
	}
	for _, n := range names {
		if !allOwnHost(n, hosts) {
			return false
		}
	}
	return true
}

var gitHookRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\.git["']?\s*[,/\\]\s*["']?hooks\b|\.husky["']?\s*[,/\\]|["'/\\](?:pre-commit|pre-push|post-checkout|post-merge|post-rewrite|pre-rebase|prepare-commit-msg|commit-msg)["']`)
})

// GitHookPath reports a path into a repository's hooks: git runs what is
// written there at the next commit, checkout or merge.
func GitHookPath(s string) bool { return gitHookRe().MatchString(s) }

var envShorthand = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[{,]\s*env\s*[,}]`) })

// argvWords joins an argument list's words ("gcloud", "auth", …) into the
// command line it is.
var argvWords = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`["']\s*,\s*["']`) })

// cliTokens are the commands that print a vendor's token, and the name of
// the credential they print (whose host OwnHost knows).
var cliTokens = sync.OnceValue(func() []struct {
	re     *regexp.Regexp
	secret string
} {
	return []struct {
		re     *regexp.Regexp
		secret string
	}{
		{regexp.MustCompile(`\bgh\s+auth\s+(?:token|status\s+(?:-t|--show-token))\b`), "GITHUB_TOKEN"},
		{regexp.MustCompile(`(?i)\bgit\s+config\b[^|;&]*(?:--get\w*|--list|\s-l\b)[^|;&]*extraheader\S*|extraheader\b[^|;&]*--get\w*`), "GITHUB_TOKEN"},
		{regexp.MustCompile(`\bnpm\s+config\s+get\b`), "NPM_TOKEN"},
		{regexp.MustCompile(`\baws\s+(?:configure\s+(?:get|export-credentials)|sts\s+(?:get-session-token|get-federation-token|assume-role\S*)|ecr(?:-public)?\s+get-login-password|codeartifact\s+get-authorization-token)\b`), "AWS_TOKEN"},
		{regexp.MustCompile(`\bgcloud\s+auth\s+(?:application-default\s+)?print-(?:access|identity)-token\b`), "GOOGLE_TOKEN"},
		{regexp.MustCompile(`\baz\s+(?:account\s+get-access-token|acr\s+login\b[^|;&]*--expose-token)\b`), "AZURE_TOKEN"},
		{regexp.MustCompile(`\bvault\s+(?:token\s+(?:create|lookup)|print\s+token)\b`), "VAULT_TOKEN"},
		{regexp.MustCompile(`\bkubectl\s+create\s+token\b`), "KUBE_TOKEN"},
		{regexp.MustCompile(`\bheroku\s+auth:token\b`), "HEROKU_API_KEY"},
		{regexp.MustCompile(`\b(?:fly|flyctl)\s+(?:auth\s+token|tokens\s+create)\b`), "FLY_API_TOKEN"},
		{regexp.MustCompile(`\bnpm\s+token\s+create\b`), "NPM_TOKEN"},
		{regexp.MustCompile(`\bdocker-credential-\w+\s+get\b`), "DOCKER_TOKEN"},
	}
})

// CLIToken returns the credential a command line mints or prints with a
// vendor's CLI (gcloud auth print-access-token, aws ecr get-login-password,
// az account get-access-token, vault token create, kubectl create token,
// gh auth token), "" for
// none: a secret wherever it is carried next, into a variable or a file.
func CLIToken(text string) string {
	t := argvWords().ReplaceAllString(text, " ")
	for _, c := range cliTokens() {
		if c.re.MatchString(t) {
			return c.secret
		}
	}
	return ""
}

var envPrefix = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:startswith|starts_with|start_with\?|HasPrefix)\(\s*(?:\w+\s*,\s*)?["']([A-Za-z0-9_]+)["']|=~\s*/\^([A-Za-z0-9_]+)`)
})

// ownPrefix reports the environment read for the variables of one prefix
// (MYAPP_, VITE_): a program's own settings, not its secrets, unless the
// prefix names a credential.
func ownPrefix(lines []UnitLine) bool {
	// printenv | grep '^CI_COMMIT': the filter is on the dump's own line.
	if m := grepStage().FindStringSubmatch(lines[0].Text); m != nil {
		words := strings.Fields(m[1])
		for i := range words {
			words[i] = strings.Trim(words[i], "\"'`()")
		}
		return GrepSelectsOwn(words)
	}
	for _, l := range lines {
		if m := envPrefix().FindStringSubmatch(l.Text); m != nil {
			return !credWord().MatchString(m[1] + m[2])
		}
	}
	return false
}

// grepStage is the environment printed straight into a grep: the grep
// filters that dump, not some other command's output on the line.
var grepStage = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[\s;&|('"\x60])(?:printenv|env)(?:\s+-[-\w]+)*\s*\|\s*(e?grep\b[^|;&>]*)`)
})

// EnvSubset reports a line that reads the environment for one prefix's
// variables only (ownPrefix): not the whole environment.
func EnvSubset(s string) bool { return ownPrefix([]UnitLine{{Text: s}}) }

// grepPrefixRe is a pattern that names variables by a prefix: anchored at
// the line's start (what grep reads of env's output is NAME=value), letters,
// digits and _ only, so no alternation or wildcard widens it.
var grepPrefixRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\^[A-Za-z][A-Za-z0-9_]+=?$`) })

// GrepSelectsOwn reports a grep that keeps only the variables a prefix
// selects (env | grep '^CI_COMMIT'), when no pattern names a credential:
// what passes is the build's own settings, not its secrets. A grep that
// prints more than the lines that match (-v, -L, context lines, -z reading
// the whole output as one line), reads its patterns from a file, or is
// given a pattern that is not an anchored name, may pass anything.
func GrepSelectsOwn(words []string) bool {
	var pats []string
	positional := ""
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "-e" || w == "--regexp":
			if i+1 >= len(words) {
				return false
			}
			pats = append(pats, words[i+1])
			i++
		case strings.HasPrefix(w, "--regexp="):
			pats = append(pats, strings.TrimPrefix(w, "--regexp="))
		case strings.HasPrefix(w, "--"):
			if name, _, _ := strings.Cut(w[2:], "="); !grepQuietLong[name] {
				return false
			}
		case strings.HasPrefix(w, "-") && len(w) > 1:
			if strings.Trim(w[1:], "EFGPiIwxsqhHnc") != "" {
				return false // -v, -L, -A/-B/-C, -NUM, -z, -f, -m ... and anything unknown
			}
		case positional == "":
			positional = w
		}
	}
	if len(pats) == 0 && positional != "" {
		pats = []string{positional}
	}
	for _, p := range pats {
		if !grepPrefixRe().MatchString(p) || credWord().MatchString(p) {
			return false
		}
	}
	return len(pats) > 0
}

// grepQuietLong are grep's long options that print only matching lines,
// as they are.
var grepQuietLong = map[string]bool{"extended-regexp": true, "fixed-strings": true, "basic-regexp": true, "perl-regexp": true, "ignore-case": true, "word-regexp": true, "line-regexp": true, "no-messages": true, "quiet": true, "silent": true, "color": true, "colour": true, "count": true, "line-number": true}

var credWord = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)token|secret|pass|key|auth|cred|aws|azure|gcp|google|npm|github|gh_|pypi|nuget|docker|ssh`)
})
