package attention

// The class reader follows three kinds of data through any program or
// build file, whatever its language, by the names and paths it is bound
// to: the whole environment or every secret (sent over the network, it
// leaves with the runner's tokens), a place that runs again later (a
// systemd unit, a Run key, a git hook in another repository, a crontab),
// and content fetched from the network or a data file renamed to a program
// (run or included by a build system, it is code the diff does not show).
// A line is rated by what it can do with that data: send it, write it to
// the place, or run it. The item names the line the data came from. The
// line patterns and the language readers catch the one-line forms; this
// reader catches the class when its steps are split over lines and written
// in a language or build system they do not read.

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/vetter-dev/vetter/attention/provenance"
	"github.com/vetter-dev/vetter/attention/rules"
	"github.com/vetter-dev/vetter/packet"
)

// flowKind is what a name or path carries.
type flowKind uint16

const (
	flowEnv         flowKind = 1 << iota // the whole environment or every secret
	flowPersist                          // a place the system runs again later
	flowFetched                          // content fetched from the network
	flowData                             // a file named like data
	flowExe                              // a path named like a program
	flowTable                            // a rune or byte table a command is built from
	flowSock                             // a connection to another machine
	flowSecret                           // one secret or token, read by its name
	flowDecoded                          // bytes decoded from base64 or hex
	flowDecodedFile                      // a file written with decoded bytes
)

type classRes struct {
	assign, forBind, word, destructure         *regexp.Regexp
	envSrc, wfEnv, persistLoc, homeDir         *regexp.Regexp
	fetchSrc, dataName, exeName, tableSrc      *regexp.Regexp
	send, persistSink, run, copyCall, gitHooks *regexp.Regexp
	cmakeDownload, cmakeInclude, dockerAdd     *regexp.Regexp
	goGenerate, composerRepo, credCopy         *regexp.Regexp
	goShellString, lifecycle, fillIdx, fetchTo *regexp.Regexp
	authArg, makeInclude, sockSrc, sockWrite   *regexp.Regexp
	secretSrc, dnsSink, fetchOut, decodeSrc    *regexp.Regexp
}

var classRe = sync.OnceValue(func() *classRes {
	return &classRes{
		// name = …, name := …, a, b := …, def/val/var/const name = …, obj.text = …
		assign:  regexp.MustCompile(`^\s*(?:(?:export|const|let|var|val|def|final|my|local|static|private|public|auto)\s+)*(?:mut\s+)?(?:[A-Z][\w.]*(?:<[^=]*>)?(?:\[\])?\s+|(?:int|long|char|bool|byte|string)\b\S*\s+)?\$?([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)(?:\.\w+)?(?:\s*:\s*[\w<>\[\], .:&']+)?\s*(?::=|=)\s*([^=].*)$`),
		forBind: regexp.MustCompile(`^\s*for\s*\(?\s*(?:(?:const|let|var)\s+)?\$?([A-Za-z_]\w*)(?:\s*,\s*([A-Za-z_]\w*))?\s+(?:of|in|:=\s*range)\s+(.+)$|^\s*for\s+([A-Za-z_]\w*)(?:\s*,\s*([A-Za-z_]\w*))?\s*:=\s*range\s+(.+)$`),
		word:    regexp.MustCompile(`[A-Za-z_]\w*`),
		// {name, 0} = …, (name, err) = …, [name, rest] = …
		destructure: regexp.MustCompile(`^\s*[{(\[]\s*([A-Za-z_]\w*)\s*,[^=]*?[})\]]\s*=\s*([^=].*)$`),
		// the whole environment, every secret of a workflow
		envSrc: regexp.MustCompile(`\bos\.Environ\(\)|\bos\.environ\b(?:\s*[),;}\]]|\.copy\(\)|\.items\(\)|\s*$)|\bdict\(\s*os\.environ|JSON\.stringify\(\s*process\.env\b|\{\s*\.\.\.process\.env\b|\bprocess\.env\s*[),;}\]]|\bENV\.to_h\b|\bstd::env::vars\(\)|\bSystem\.getenv\(\)|\bGetEnvironmentVariables\(\)|\bProcessInfo\.processInfo\.environment\b|toJSON\(\s*secrets\s*\)|\$_ENV\b|\bgetenv\(\)|` +
			// the files the runner's and the developer's credentials live in
			`\.ssh/id_\w+|\.aws/credentials\b|\.git-credentials\b|\.netrc\b|\.docker/config\.json\b|\.kube/config\b|\.pypirc\b|\.gem/credentials\b|\.config/gh/hosts\.yml\b|/proc/(?:self|\d+|\$\w+|\{\w+\})/environ\b`),
		// NAME: ${{ toJSON(secrets) }} in a step's env
		wfEnv:      regexp.MustCompile(`^\s*([A-Za-z_]\w*)\s*:\s*\$\{\{\s*toJSON\(\s*secrets\s*\)\s*\}\}`),
		persistLoc: regexp.MustCompile(`(?i)systemd["'/\\, ]+(?:user|system)\b|SpecialFolder\.(?:Common)?Startup\b|\.service["'\x60]|CurrentVersion\\+Run(?:Once)?\b|\bLaunchAgents\b|\bLaunchDaemons\b|\bautostart\b|\bcrontab\b|/etc/cron|\.bashrc\b|\.zshrc\b|\.bash_profile\b|\.zprofile\b|\.zshenv\b|\.zlogin\b|\.bash_login\b|/etc/environment\b|/etc/bash\.bashrc\b|\.ipython["'/\\, ]+profile_\w+["'/\\, ]+startup\b|["'/]\.profile["']|\bauthorized_keys\b|Start Menu\\+Programs\\+Startup|\bschtasks\b|\bsitecustomize\b|\busercustomize\b|\.pth["']|ld\.so\.preload\b|/etc/rc\.local\b|/etc/init\.d\b|\bcore\.hooksPath\b|PowerShell_profile\b|\$PROFILE\b|\.config/fish/config\.fish\b|["'/\\]hooks["'/\\]|\bpost-checkout\b|\bpost-merge\b|["'/]pre-commit["']|["'/]pre-push["']`),
		gitHooks:   regexp.MustCompile(`["'/\\]hooks["'/\\]|\bpost-checkout\b|\bpost-merge\b|["'/]pre-commit["']|["'/]pre-push["']`),
		homeDir:    regexp.MustCompile(`Path\.home\(\)|\bexpanduser\(|\bos\.homedir\(|\bUserHomeDir\(|\$HOME\b|["']~/|\bhomedir\(\)|\bDir\.home\b|\bENV\[["']HOME`),
		// the body of a URL, in any language: a call chain on a literal URL
		// that ends in reading it, or a client call that returns a body
		fetchSrc: regexp.MustCompile(`["']https?://[^"']+["']\s*\)?(?:\s*\.\s*\w+\(\s*\))*\s*\.\s*(?:readText|readBytes|text|bytes|openStream|getText|getBytes|read|content|body)\b|\bnew\s+URL\(\s*['"]https?:[^)]*\)\.(?:text|bytes|openStream)|\.toURL\(\)\.(?:text|bytes|openStream|readText|readBytes|getText)|\bURL\(\s*"https?:[^)]*\)\.read(?:Text|Bytes)\(|\burlopen\(|\brequests\.get\(|\bhttpx\.get\(|\bhttp\.Get\(|\burlretrieve\(|\bDownloadFile\(|\bDownloadString\(|\bDownloadData\(|\bURI\.open\(|\bNet::HTTP\.get\b|(?i:\bInvoke-(?:WebRequest|RestMethod)\b|\b(?:iwr|irm)\s+-?\S*https?:)|\bfetch\(\s*['"\x60]https?:|\bhttps?\.get\(\s*['"\x60]https?:|\bLWP::Simple\b|(?:^|[^.\w])get\(\s*['"]https?:|\bHTTP::Tiny\b|\bfile_get_contents\(\s*['"]https?:|\bHttpClient\b.*\.send\(|\bant\.get\(|\bhttpRequest\s*\(|\bSystem\.cmd\(\s*"(?:curl|wget)"|:httpc\.request\(|\b(?:HTTPoison|Req|Tesla)\.get!?\(`),
		dataName: regexp.MustCompile(`(?i)\.(?:png|jpe?g|gif|ico|bmp|svg|dat|db|woff2?|ttf|txt|log|wav|mp3|mp4|json|csv)["'\x60]`),
		exeName:  regexp.MustCompile(`(?i)\.(?:exe|dll|scr|bat|cmd|vbs|ps1|com|msi)["'\x60]`),
		tableSrc: regexp.MustCompile(`\[\]rune\(|\[\]byte\{|make\(\[\](?:rune|byte),`),
		// a send over the network, in any language
		send: regexp.MustCompile(`\.Post(?:Form)?\(|\bhttp\.NewRequest(?:WithContext)?\(|\burlopen\(|\burllib\.request\.Request\(|\brequests\.(?:post|put|patch)\(|\bhttpx\.(?:post|put)\(|\bfetch\(|\bhttps?\.request\(|\baxios\.(?:post|put)\(|\bdns\.(?:resolve|lookup)\w*\(|\bnet\.Dial\w*\(|\.send(?:all|to)?\(|\bNet::HTTP\.post|\bcurl\b[^|]*\s(?:-d|--data\S*|-F|--form|-T|--upload-file)\b|(?i:\bInvoke-(?:WebRequest|RestMethod)\b)|\bwget\b[^|]*--post-|\brequests\.request\(|\burllib3\b.*\.request\(|\baiohttp\b|\.connect\(\s*\(|\bnew\s+WebSocket\(|\bXMLHttpRequest\b|\bcurl_exec\(|\bNet::HTTP\.start\b|\bHttpClient\b|\bWebClient\b|\.Upload(?:String|Data|File)\(|/dev/tcp/|\bnc\s+-?\w*\s*\S+\s+\d+|\bgh\s+(?:api|gist\s+create|repo\s+create)\b|\bsmtplib\b|\bsendmail\(|\.(?:post|put)\(|\b(?:Post|Send|Put)Async\(|\bTcpStream::connect\b|\bUdpSocket\b|\bureq::(?:post|put)\b|\bnew\s+Socket\(|\bURL\([^)]*\)\.openConnection\(|\.createOrUpdateFileContents\(|\bgists\.create\(|\.createComment\(`),
		// a write of a file, or a process that registers something
		persistSink: regexp.MustCompile(`\bWriteFile\(|\bos\.(?:Create|OpenFile)\(|\.write_(?:text|bytes)\(|\b(?:write|append|copy)File(?:Sync)?\(|\bcreateWriteStream\(|\bopen\([^)]*,\s*['"][wa]|\bFile\.(?:write|open)\(|\bfs::write\(|\bshutil\.copy\w*\(|\bFileUtils\.(?:cp|install)\b|\bexec\.Command(?:Context)?\(|\bexecFile(?:Sync)?\(|\bexecSync\(|\bspawn(?:Sync)?\(|\bsubprocess\.\w+\(|\bos\.system\(|\bsystem\(|\.chmod\(|\bos\.Chmod\(|(?i:\bNew-ItemProperty\b|\bSet-ItemProperty\b|\bRegister-ScheduledTask\b|\bAdd-Content\b|\bSet-Content\b|\bOut-File\b)|\bwinreg\.SetValue(?:Ex)?\(|\bRegistry\.SetValue\(|` +
			// Java, Kotlin and .NET writers
			`\bFiles\.(?:write\w*|newBufferedWriter|copy)\(|\bnew\s+(?:FileWriter|FileOutputStream|PrintWriter|StreamWriter)\(|\.(?:appendText|writeText|writeBytes)\(|\bFile\.(?:WriteAll\w+|AppendAll\w+|Copy)\(`),
		// a line that runs something
		run:      regexp.MustCompile(`\.execute\(\)|\b(?:repository_)?ctx\.execute\(|\bexec\.Command(?:Context)?\(|\bexecFile(?:Sync)?\(|\bexecSync\(|\bspawn(?:Sync)?\(|\bsubprocess\.\w+\(|\bos\.system\(|(?:^|[^.\w])system\(|\bspawn\(|\bexec\(|\bIO\.popen\b|%x\{|\bcommandLine\b|\bProcessBuilder\(|\bRuntime\.getRuntime\(\)\.exec\(|\bStart-Process\b|\bload\(|\binstance_eval\b|\beval\(|\beval\s+\$|\bnew\s+Function\(|(?:^|[^.\w])Function\(|\bvm\.runIn\w+\(|\brunIn(?:This|New)Context\(|\._compile\(|\bGroovyShell\b|\bEval\.me\(|\bevaluate\(|\bAssembly\.Load(?:From|File)?\(|\bdefineClass\(|\bloadstring\(|(?i:\bInvoke-Expression\b|(?:^|[\s|(;])iex\b|\[ScriptBlock\]::Create\(|\bInvoke-Command\b)|\bSystem\.cmd\(\s*(?:"(?:/bin/|/usr/bin/)?(?:ba|z|da)?sh"|[a-z_]\w*\s*,)|\bSystem\.shell\(|\bCode\.(?:eval_string|eval_file|require_file|compile_string)\(|:os\.cmd\(`),
		copyCall: regexp.MustCompile(`\bFileUtils\.(?:cp|copy|mv|move|install)\b|\bcopyFile(?:Sync)?\(|\bshutil\.(?:copy\w*|move)\(|\bos\.(?:rename|replace)\(|\brenameSync\(|\bfs\.rename\(|\bFile\.rename\b|\bos\.Rename\(|\bCopy-Item\b|\bMove-Item\b`),
		// file(DOWNLOAD <url> <dest> …) and include(<name or path>)
		cmakeDownload: regexp.MustCompile(`(?i)\bfile\(\s*DOWNLOAD\s+(\S+)(?:\s+(\S+))?`),
		cmakeInclude:  regexp.MustCompile(`(?i)^\s*(?:include|execute_process|add_subdirectory|add_library|add_executable|target_sources|try_compile|try_run)\s*\(\s*(?:COMMAND\s+)?([^\s)]+)`),
		// ADD [--flags] <url> <dest>
		dockerAdd: regexp.MustCompile(`(?i)^\s*ADD\s+((?:--\S+\s+)*)(https?://\S+)\s+(\S+)\s*$`),
		// //go:generate go run <module>@<version>: a module fetched when
		// go generate runs.
		goGenerate: regexp.MustCompile(`^\s*//go:generate\s+(?:\S+=\S+\s+)*go\s+run\s+(?:-\S+\s+)*([a-z0-9-]+\.[a-z0-9.-]+/\S+)@(\S+)`),
		// a Composer repository that is not Packagist: its packages of the
		// same name win over Packagist's.
		composerRepo: regexp.MustCompile(`"type"\s*:\s*"(?:vcs|git|github|package|artifact)"`),
		// the checkout's credentials (.git/config holds the token extraheader)
		// or the runner's command files copied where the change publishes
		// The copying command in a command's place, not a word of an
		// argument ("$ARCHIVE.zip" >> $GITHUB_ENV names an archive).
		credCopy: regexp.MustCompile(`(?:^|[;&|(:{]|\bsudo|\bthen|\bdo)\s*(?:cp|cat|tar|zip|rsync|ln|install)\s[^|;&]*(?:\.git/config\b|\.git-credentials\b|_runner_file_commands\b|\$\{?GITHUB_ENV\b|\.docker/config\.json\b|\.npmrc\b)`),
		// exec.Command("sh", "-c", string(x)): a command decoded from a table
		goShellString: regexp.MustCompile(`\bexec\.Command(?:Context)?\([^)]*"(?:/usr)?(?:/bin/)?(?:ba|z|da)?sh"\s*,\s*"-c"\s*,\s*string\(\s*([A-Za-z_]\w*)\s*\)`),
		// "preinstall": "node setup.js": the file npm runs before anything else
		// curl -o <dest> / wget -O <dest>: the destination holds fetched content
		// (curl's -O names the file after the URL and takes no value; wget's -o is its log)
		fetchTo:   regexp.MustCompile(`\bcurl\b[^|;&]*?\s-[a-zA-Z]*o\s+([^-\s;&|][^\s;&|]*)|\bwget\b[^|;&]*?\s-[a-zA-Z]*O\s*([^-\s;&|][^\s;&|]*)|\b(?:curl|wget)\b[^|;&]*?\s--output(?:-document)?[= ]([^-\s;&|][^\s;&|]*)`),
		authArg:   regexp.MustCompile(`(?i)\bauth\s*[=:]\s*(?:\([^)]*\)|[\w.\[\]]+)|\bbasic_auth\([^)]*\)|\bSetBasicAuth\([^)]*\)|["']?Authorization["']?\s*[:=,]\s*[^,}\n]+`),
		sockSrc:   regexp.MustCompile(`\bTcpStream::connect\b|\bUdpSocket::bind\b|\bnet\.Dial\w*\(|\bsocket\.socket\(|\bsocket\.create_connection\(|\bnet\.(?:connect|createConnection)\(|\btls\.connect\(|\bnew\s+Socket\(|\bTCPSocket\.(?:new|open)\b|\bfsockopen\(`),
		sockWrite: regexp.MustCompile(`\.(?:write|write_all|send|sendall|sendto|puts|print|end)\(|\bfwrite\(|\bfmt\.Fprint\w*\(|\bio\.Copy\(`),
		// bytes decoded from base64 or hex, in any language
		decodeSrc: regexp.MustCompile(`\bBase64\.get(?:Mime|Url)?Decoder\(\)\.decode\(|\bConvert\.FromBase64String\(|\bbase64\.(?:Std|URL|RawStd|RawURL)Encoding\.DecodeString\(|\bhex\.DecodeString\(|\batob\(|\bb64decode\(|\bBase64\.(?:decode64|strict_decode64|decode)\b|\bbase64_decode\(|base64["']?\)?\.decode\(|\bConvert\.FromHexString\(|\bHex\.decode(?:Hex)?\(|\bDatatypeConverter\.parse(?:Base64|HexBinary)\(|\bunhexlify\(|\bbytes\.fromhex\(|\bBuffer\.from\([^)]*['"](?:base64|hex)['"]|(?i:\[(?:System\.)?Convert\]::FromBase64String\()|\b(?:string|utf8)\.char\(|` +
			// Groovy's, Elixir's, Erlang's, Swift's, Julia's and R's spellings
			`\.decode(?:Base64|Hex)\(\)|\bBase\.(?:url_)?decode(?:64|32|16)!?\(|\bbase64:decode(?:_to_string)?\(|\bData\(\s*base64Encoded:|\bbase64decode\(|\ba2b_(?:base64|hex|uu)\(`),
		// one secret read by its name, in any language
		secretSrc: regexp.MustCompile(`(?:\bGetenv|\bgetenv|\bGetEnvironmentVariable|\benv::var|\benviron(?:\.get)?|\bENV|\bprocess\.env|\$ENV|\$env:)\s*[\[({.]?\s*["']?\w*(?i:token|secret|passw|api_?key|access_?key|private_?key|credential)|` +
			// What hands out a credential: the job's OIDC token, the gh
			// CLI's token, git's credential helper, a cloud CLI's token.
			`\bgetIDToken\s*\(|\bgh\s+auth\s+token\b|\bgit\s+credential\s+fill\b|\bprint-access-token\b|\bget-access-token\b`),
		// a name resolved: what the name carries reaches whoever answers
		// for its domain
		dnsSink: regexp.MustCompile(`\bnet\.Lookup\w*\(|\.Lookup(?:Host|IP|IPAddr|Addr|TXT|CNAME)\(|\bInetAddress\.get(?:All)?ByName\(|\bDns\.(?:GetHostAddresses|GetHostEntry|Resolve)\w*\(|\bdns\.(?:resolve|lookup)\w*\(|\brequire\(\s*['"](?:node:)?dns(?:/promises)?['"]\s*\)\.(?:resolve|lookup)\w*\(|\bgethostbyname\w*\(|\bgetaddrinfo\(|\bResolve-DnsName\b|\bto_socket_addrs\(|\blookup_host\(`),
		// a build system's download to a named file: download(url, output = "x")
		fetchOut:    regexp.MustCompile(`(?i)(?:\.download\w*\(|\bant\.get\(|\bDownloadFile\(|\burlretrieve\(|\bInvoke-WebRequest\b|\biwr\b|\bdownload\s*\{).*?(?:\b(?:output|dest|destination|OutFile|into)\s*[=:]?\s*|,\s*)["'](?:file://)?([^"']+)["']\s*\)?\s*$`),
		makeInclude: regexp.MustCompile(`^\s*-?include\s+\S`),
		fillIdx:     regexp.MustCompile(`^\s*([A-Za-z_]\w*)\[[^\]]*\]\s*=`),
		lifecycle:   regexp.MustCompile(`^\s*"(preinstall)"\s*:\s*"(?:node|bun|deno\s+run)\s+(?:-\S+\s+)*([\w./@-]+)"`),
	}
})

// origin is where a name's data came from.
type origin struct {
	kinds flowKind
	line  map[flowKind]int
}

// classes reads a file's lines in order for the classes above.
func (fs *fileScan) classes(inDiff map[string]bool) {
	if fs.info.Prose || fs.f.Binary || fs.f.Status == packet.StatusDeleted {
		return
	}
	sc := fs.info.Scope
	lb := strings.ToLower(path.Base(fs.path))
	program := sc&(rules.ScopeCode|rules.ScopeGo) != 0 || fs.info.BuildCode != "" || otherLanguage[path.Ext(lb)]
	cmake := lb == "cmakelists.txt" || strings.HasSuffix(lb, ".cmake")
	gradle := strings.HasSuffix(lb, ".gradle") || strings.HasSuffix(lb, ".gradle.kts")
	docker := sc&rules.ScopeDockerfile != 0
	make := sc&rules.ScopeMakefile != 0
	workflow := sc&rules.ScopeWorkflow != 0
	shell := sc&(rules.ScopeShell|rules.ScopeMakefile) != 0
	composer := lb == "composer.json"
	pkg := sc&rules.ScopePackageJSON != 0
	if !program && !cmake && !gradle && !docker && !workflow && !shell && !composer && !pkg {
		return
	}
	// Almost no file holds any of the words a source or a sink needs: a
	// substring search per line keeps the reader off the regexps there.
	if !fs.anyClassKey() {
		return
	}
	if fs.added == nil {
		fs.index()
	}
	re := classRe()
	names := map[string]*origin{}
	var paths []struct {
		p    string
		kind flowKind
		line int
	}
	// A package whose version this change bumps is being published: the
	// worm's shape (Shai-Hulud) republishes with a new install hook, where a
	// project adding a hook to its own tooling leaves the version alone.
	bumped := false
	if pkg && !fs.whole() {
		for n, t := range fs.text {
			if _, ok := fs.added[n]; ok && strings.HasPrefix(strings.TrimSpace(t), `"version"`) {
				bumped = true
			}
		}
	}
	home := false
	for _, t := range fs.text {
		if re.homeDir.MatchString(t) {
			home = true
			break
		}
	}
	mark := func(name string, k flowKind, n int) {
		o := names[name]
		if o == nil {
			o = &origin{line: map[flowKind]int{}}
			names[name] = o
		}
		if o.kinds&k == 0 {
			o.kinds |= k
			o.line[k] = n
		}
	}
	// refs returns the kinds the names and paths s uses carry, and the
	// line each came from.
	refs := func(s string) (flowKind, map[flowKind]int) {
		var k flowKind
		from := map[flowKind]int{}
		for _, ix := range re.word.FindAllStringIndex(s, -1) {
			if ix[0] > 0 && s[ix[0]-1] == '.' && (ix[0] < 2 || s[ix[0]-2] != '.') {
				continue // a property (process.env.X), not the name
			}
			if o := names[s[ix[0]:ix[1]]]; o != nil {
				for kk, l := range o.line {
					if k&kk == 0 {
						from[kk] = l
					}
				}
				k |= o.kinds
			}
		}
		for _, p := range paths {
			if strings.Contains(s, p.p) && k&p.kind == 0 {
				k |= p.kind
				from[p.kind] = p.line
			}
		}
		return k, from
	}
	// kindsOf is what the expression s holds by itself.
	kindsOf := func(s string) flowKind {
		var k flowKind
		if re.envSrc.MatchString(s) && !rules.EnvSubset(s) {
			k |= flowEnv
		}
		if re.persistLoc.MatchString(s) && (!re.gitHooks.MatchString(s) || home) {
			k |= flowPersist
		}
		if re.fetchSrc.MatchString(s) {
			k |= flowFetched
		}
		if re.dataName.MatchString(s) {
			k |= flowData
		}
		if re.exeName.MatchString(s) {
			k |= flowExe
		}
		if re.tableSrc.MatchString(s) {
			k |= flowTable
		}
		if re.sockSrc.MatchString(s) {
			k |= flowSock
		}
		if re.secretSrc.MatchString(s) {
			k |= flowSecret
		}
		if re.decodeSrc.MatchString(s) {
			k |= flowDecoded
		}
		if codeRe().cmdString.MatchString(s) {
			k |= flowFetched // a command string that downloads and runs: ['sh', '-c', 'curl … | sh']
		}
		return k
	}
	// A line wholly inside a Python triple-quoted string is text (a
	// message that tells the user what to run), not a statement.
	py := strings.HasSuffix(lb, ".py")
	// open is the name an object or array literal is being bound to while
	// its lines run on ({ env: process.env, token: ... } over five lines),
	// depth its brackets still open.
	var open []string
	depth := 0
	for _, h := range fs.f.Hunks {
		if h == nil {
			continue
		}
		inDoc := false
		open, depth = nil, 0
		for li := 0; li < len(h.Lines); li++ {
			l := h.Lines[li]
			if l.Kind == packet.LineRemoved {
				continue
			}
			n, s := l.New, l.Text
			added := l.Kind == packet.LineAdded
			quoted := false
			if py {
				was := inDoc
				if (strings.Count(s, `"""`)+strings.Count(s, "'''"))%2 == 1 {
					inDoc = !inDoc
				}
				quoted = was && inDoc
			}
			if len(names) == 0 && len(paths) == 0 && depth == 0 && !classKeyIndex().HasFold(s) && !opensLiteral(s) {
				continue
			}
			if rules.VerifiesDownload(s) && !inlineFetchWord().MatchString(s) {
				// A download checked against a digest or signature is the
				// file the change names: what uses it later runs that.
				kept := paths[:0]
				for _, p := range paths {
					if p.kind != flowFetched || p.p == "" || !strings.Contains(s, p.p) {
						kept = append(kept, p)
					}
				}
				paths = kept
			}
			own := kindsOf(s)
			used, from := refs(s)
			if depth > 0 {
				// A line inside a literal gives its values to the name the
				// literal is bound to.
				for _, kk := range []flowKind{flowEnv, flowSecret, flowFetched, flowDecoded} {
					if (own|used)&kk != 0 {
						src := n
						if own&kk == 0 {
							src = from[kk]
						}
						for _, nm := range open {
							mark(nm, kk, src)
						}
					}
				}
				depth += bracketBalance(s)
				if depth <= 0 {
					open, depth = nil, 0
				}
			}
			// A file written with the environment or a secret holds them:
			// a later line that uploads the file sends them.
			if k := (own | used) & (flowEnv | flowSecret); k != 0 {
				if m := dataWriteRe().FindStringSubmatch(s); m != nil {
					p := m[1] + m[2]
					for _, kk := range []flowKind{flowEnv, flowSecret} {
						if k&kk != 0 {
							src := n
							if own&kk == 0 {
								src = from[kk]
							}
							paths = append(paths, struct {
								p    string
								kind flowKind
								line int
							}{p, kk, src})
						}
					}
				}
			}
			// Bindings: the name takes what its value holds.
			if workflow {
				if m := re.wfEnv.FindStringSubmatch(s); m != nil {
					mark(m[1], flowEnv, n)
				}
			}
			m := re.assign.FindStringSubmatch(s)
			if m == nil {
				// {out, 0} = System.cmd(...), (out, err) = f(), [a, b] = ...:
				// the first name of a pattern holds what the right side gives.
				m = re.destructure.FindStringSubmatch(s)
			}
			if m != nil {
				if b := bracketBalance(m[2]); b > 0 && depth == 0 {
					open, depth = nil, b
					for _, nm := range strings.Split(m[1], ",") {
						if nm = strings.TrimSpace(nm); nm != "_" && nm != "" {
							open = append(open, nm)
						}
					}
				}
				if used&flowEnv != 0 && own&flowEnv == 0 && rules.PicksOnly(m[2], func(w string) bool { return names[w] != nil && names[w].kinds&flowEnv != 0 }) {
					// token = env.get("TOKEN"): one value, a secret only by its name.
					if used &^= flowEnv; codeRe().secretName.MatchString(m[2]) {
						used, from[flowSecret] = used|flowSecret, from[flowEnv]
					}
				}
				if k := kindsOf(m[2]) | used; k != 0 {
					for _, nm := range strings.Split(m[1], ",") {
						if nm = strings.TrimSpace(nm); nm != "_" && nm != "" {
							for _, kk := range []flowKind{flowEnv, flowPersist, flowFetched, flowData, flowExe, flowTable, flowSock, flowSecret, flowDecoded, flowDecodedFile} {
								if k&kk != 0 {
									src := n
									if own&kk == 0 {
										src = from[kk]
									}
									mark(nm, kk, src)
								}
							}
						}
					}
				}
			}
			if m := re.forBind.FindStringSubmatch(s); m != nil {
				rhs, nms := m[3], []string{m[1], m[2]}
				if m[4] != "" {
					rhs, nms = m[6], []string{m[4], m[5]}
				}
				if k := kindsOf(rhs) | used; k != 0 {
					for _, nm := range nms {
						if nm != "" && nm != "_" {
							for _, kk := range []flowKind{flowEnv, flowPersist, flowFetched, flowTable} {
								if k&kk != 0 {
									mark(nm, kk, n)
								}
							}
						}
					}
				}
			}
			// The table a command is filled from: cmd[i] = tbl[j].
			if strings.Contains(s, "[") && used&flowTable != 0 {
				if m := re.fillIdx.FindStringSubmatch(s); m != nil {
					mark(m[1], flowTable, from[flowTable])
				}
			}
			// A file written with decoded bytes (Files.write(p, b),
			// File.WriteAllBytes(path, bytes), f.writeBytes(b)): started
			// later, the decoded bytes run.
			if m := fileWriteRe().FindStringSubmatch(s); m != nil {
				var dst, data string
				for i := 1; i+1 < len(m); i += 2 {
					if m[i] != "" {
						dst, data = m[i], m[i+1]
					}
				}
				src := 0
				if o := names[data]; o != nil && o.kinds&flowDecoded != 0 {
					src = o.line[flowDecoded]
				} else if own&flowDecoded != 0 {
					src = n // writeFileSync('/tmp/x', Buffer.from(p, 'base64'))
				}
				if lit := strings.Trim(dst, `"'`); src > 0 && lit != dst {
					// A literal path: a later line naming it starts those bytes.
					paths = append(paths, struct {
						p    string
						kind flowKind
						line int
					}{lit, flowDecodedFile, src})
				} else if src > 0 {
					mark(dst, flowDecodedFile, src)
				}
			}
			// A data file copied to a program's name: the copy carries it.
			if re.copyCall.MatchString(s) && (own|used)&flowData != 0 {
				for _, w := range re.word.FindAllString(s, -1) {
					if o := names[w]; o != nil && o.kinds&flowExe != 0 {
						mark(w, flowData, n)
					}
				}
			}
			// Build systems: a download's destination is fetched content.
			if cmake {
				if m := re.cmakeDownload.FindStringSubmatch(s); m != nil {
					dest := strings.Trim(m[2], `")`)
					if dest == "" && li+1 < len(h.Lines) {
						if f := strings.Fields(h.Lines[li+1].Text); len(f) > 0 {
							dest = f[0]
						}
					}
					// EXPECTED_HASH fails the download unless it is the file
					// the change names: what includes it runs that file.
					call := s
					for k := li + 1; k < len(h.Lines) && k < li+6 && !strings.Contains(call, ")"); k++ {
						call += " " + h.Lines[k].Text
					}
					if dest != "" && !rules.PinnedFetch(call) {
						base := strings.TrimSuffix(path.Base(dest), ".cmake")
						paths = append(paths, struct {
							p    string
							kind flowKind
							line int
						}{dest, flowFetched, n}, struct {
							p    string
							kind flowKind
							line int
						}{base, flowFetched, n})
					}
					continue
				}
			}
			if docker || make {
				if m := re.fetchTo.FindStringSubmatch(s); m != nil && !strings.Contains(s, "|") {
					dest := m[1] + m[2] + m[3]
					paths = append(paths, struct {
						p    string
						kind flowKind
						line int
					}{dest, flowFetched, n})
				}
				if m := re.dockerAdd.FindStringSubmatch(s); m != nil {
					// ADD --checksum=sha256:… fails the build unless the
					// download is the file the Dockerfile names: what runs
					// is fixed by the line, not by whoever serves the URL.
					if rules.PinnedFetch(m[1]) || gitSourceURL(m[2]) {
						// A git URL (BuildKit's git source) is a clone of
						// the named ref, read as a git clone is: the
						// repository's source, built by a later line.
						continue
					}
					paths = append(paths, struct {
						p    string
						kind flowKind
						line int
					}{dockerAddDest(m[2], m[3]), flowFetched, n})
					continue
				}
			}
			if m := psFetchOutRe().FindStringSubmatch(s); m != nil {
				// PowerShell's downloaders write to -OutFile/-Destination:
				// a variable then holds fetched content's path, or the path
				// itself does.
				if v := strings.TrimPrefix(m[1], "$"); v != m[1] && re.word.FindString(v) == v {
					mark(v, flowFetched, n)
				} else {
					paths = append(paths, struct {
						p    string
						kind flowKind
						line int
					}{strings.TrimPrefix(strings.TrimPrefix(m[1], "./"), ".\\"), flowFetched, n})
				}
			}
			if m := re.fetchOut.FindStringSubmatch(s); m != nil && program {
				paths = append(paths, struct {
					p    string
					kind flowKind
					line int
				}{m[1], flowFetched, n})
			}
			if !added {
				continue
			}
			// A secret in a name that is resolved leaves by DNS, past any
			// firewall that lets lookups through.
			if program && re.dnsSink.MatchString(s) && (own|used)&(flowSecret|flowEnv) != 0 {
				src := from[flowSecret]
				if src == 0 {
					src = from[flowEnv]
				}
				fs.report(n, hit{id: "dns-exfiltration", title: "resolves a host name built from a secret or the environment", source: src})
			}
			if quoted {
				continue
			}
			// Sinks.
			// A credential handed to the request as its authentication goes
			// to the host it is for: that is its use, not a leak.
			sendUsed := used
			if used&flowEnv != 0 && re.authArg.MatchString(s) {
				sendUsed, _ = refs(re.authArg.ReplaceAllString(s, ""))
			}
			// An argument list (["gh", "gist", "create", path]) read as
			// the command line it is.
			drop := used&(flowEnv|flowSecret) != 0 && forgeDropRe().MatchString(argvJoinRe().ReplaceAllString(s, " "))
			if drop {
				sendUsed &^= flowEnv | flowSecret
				sendUsed |= dropped(s, refs)
			}
			switch {
			case program && drop && sendUsed&(flowEnv|flowSecret) != 0:
				// GitHub as the drop: the data becomes a file of a repository,
				// a gist, a comment or a release asset that anyone can read.
				// The client the call is made on carries the token as its
				// authentication, which is its use: only what is sent counts.
				_, dfrom := refs(forgeClientRe().ReplaceAllString(s, "("))
				src := dfrom[flowEnv]
				if src == 0 {
					src = dfrom[flowSecret]
				}
				fs.report(n, hit{id: "secret-send", title: "publishes the environment or a secret on GitHub (a repository file, a gist, a comment, a release asset)", source: src})
			case sendUsed&flowEnv != 0 && (re.send.MatchString(s) || used&flowSock != 0 && re.sockWrite.MatchString(s)):
				fs.report(n, hit{id: "secret-send", source: from[flowEnv]})
			case own&flowEnv != 0 && re.send.MatchString(s) && program:
				fs.report(n, hit{id: "secret-send"})
			case program && re.send.MatchString(s) && !provenance.ForgeURL(s) && sentSecret(s, own, sendUsed, from, fs.text, re):
				fs.report(n, hit{id: "secret-send", title: "sends a CI, registry or cloud credential (or an encoded secret) to another host", source: from[flowSecret]})
			case program && rules.GitHookPath(s) && (own|used)&(flowDecoded|flowFetched) != 0 && re.persistSink.MatchString(s):
				fs.report(n, hit{id: "persistence", title: "writes a git hook that runs fetched or decoded code", source: max(from[flowDecoded], from[flowFetched])})
			case program && (own|used)&flowPersist != 0 && re.persistSink.MatchString(s):
				h := hit{id: "persistence", title: "a program writes something that runs again later (a systemd unit, a Run key, a git hook, a crontab)"}
				if own&flowPersist == 0 {
					h.source = from[flowPersist]
				}
				fs.report(n, h)
			case used&flowFetched != 0 && (re.run.MatchString(s) || psRunRe().MatchString(s) && !psCallsProgram(s) || cmake && re.cmakeInclude.MatchString(s) || docker ||
				make && (re.makeInclude.MatchString(s) || rules.CompilesSource(s))) &&
				!inertUse(s, paths):
				if cmd := fs.command(from[flowFetched]); fs.vendorInstaller(cmd) != "" || docker && provenance.ImageVendor(cmd) != "" {
					// The vendor's own installer, from the vendor's host,
					// or a well-known owner's release an image build takes.
					fs.report(n, hit{id: "vendor-installer", source: from[flowFetched]})
				} else {
					fs.report(n, hit{id: "download-and-run", title: "runs or includes what an earlier line downloaded", source: from[flowFetched]})
				}
			case program && own&flowFetched != 0 && re.run.MatchString(s):
				fs.report(n, hit{id: "download-and-run", title: "runs what it downloads on the same line"})
			case (program || workflow) && sc&rules.ScopeCode == 0 && (own|used)&flowDecoded != 0 && decodedAsCode(s) && !inertUse(s, paths):
				// A workflow's pwsh, python or github-script step is a program too.
				h := hit{id: "decode-and-run", title: "decodes data and runs or loads it"}
				if own&flowDecoded == 0 && from[flowDecoded] > 0 {
					h = hit{id: "decode-and-run", title: "runs or loads what line " + itoa(from[flowDecoded]) + " decoded", source: from[flowDecoded]}
				}
				fs.report(n, h)
			case program && used&flowDecodedFile != 0 && (re.run.MatchString(s) || processStartRe().MatchString(s)) && startsFile(s, names, flowDecodedFile, litPaths(paths, flowDecodedFile)):
				fs.report(n, hit{id: "decode-and-run", title: "starts a file written with what line " + itoa(from[flowDecodedFile]) + " decoded", source: from[flowDecodedFile]})
			case program && used&flowData != 0 && used&flowExe != 0 && re.run.MatchString(s):
				fs.report(n, hit{id: "download-and-run", title: "runs a file copied from one named like data (an image, a .dat)",
					why: "a program hidden in a data file is not code anyone reads in the diff, yet it runs on the machine that builds or installs", source: from[flowData]})
			}
			if sc&rules.ScopeGo != 0 {
				if m := re.goShellString.FindStringSubmatch(s); m != nil {
					if o := names[m[1]]; o != nil && o.kinds&flowTable != 0 {
						fs.report(n, hit{id: "decode-and-run", title: "runs a shell command assembled from a table of characters", source: o.line[flowTable]})
					}
				}
				if m := re.goGenerate.FindStringSubmatch(s); m != nil {
					h := hit{id: "download-and-run", title: "go:generate runs a module fetched at generate time (" + m[1] + "@" + m[2] + ")",
						why: "go generate downloads and runs that module's code; at @latest whoever publishes it decides what runs"}
					if m[2] != "latest" && !strings.HasPrefix(m[2], "master") && !strings.HasPrefix(m[2], "main") {
						h.severity = rules.Medium
						h.why = "go generate downloads and runs that module's code; the version is fixed and the Go checksum database vouches for it, so read what it is"
					}
					fs.report(n, h)
				}
			}
			if (workflow || shell) && re.credCopy.MatchString(s) {
				fs.report(n, hit{id: "credential-file-read", title: "copies the checkout's credentials (.git/config) or the runner's command files",
					why: "with persisted credentials .git/config holds the job's token, and the runner's files hold what later steps set; copied into the output they are published"})
			}
			if composer && re.composerRepo.MatchString(s) {
				fs.report(n, hit{id: "registry-redirect", title: "adds a Composer repository that is not Packagist",
					why: "a package of the same name in that repository wins over Packagist's, so its code (and its scripts) comes from whoever controls the repository"})
			}
			if bumped {
				if m := re.lifecycle.FindStringSubmatch(s); m != nil {
					target := path.Join(path.Dir(fs.path), m[2])
					if !inDiff[target] {
						fs.report(n, hit{id: "npm-lifecycle-runs", title: "a " + m[1] + " script added with a version bump runs " + m[2] + ", a file this change does not show",
							why: "a release that adds an install hook running unseen code is how install-time worms republish themselves; npm runs it on the runner before any test"})
					}
				}
			}
		}
	}
}

// otherLanguage names the program files no other reader follows: the class
// reader's sources and sinks are written for them too.
var otherLanguage = map[string]bool{".java": true, ".kt": true, ".kts": true, ".scala": true, ".groovy": true, ".cs": true,
	".swift": true, ".lua": true, ".php": true, ".pl": true, ".bzl": true, ".c": true, ".cc": true, ".cpp": true, ".m": true, ".ex": true, ".exs": true}

// classKeys are the lower-case words one of which a line must hold for a
// source or a sink of the class reader to match on it.
var classKeys = []string{
	"environ", "process.env", "env.to_h", "env::vars", "getenv()", "$_env", "tojson(secrets", "tojson( secrets",
	"systemd", ".service", "currentversion", "launchagents", "launchdaemons", "autostart", "cron", ".bashrc", ".zshrc",
	"profile", "authorized_keys", "startup", "schtasks", "hooks", "post-checkout", "post-merge", "pre-commit", "pre-push",
	"url(", "urlopen", "requests.get", "http.get", "urlretrieve", "download", "uri.open", "net::http", ".tourl",
	".png", ".jpg", ".jpeg", ".gif", ".ico", ".bmp", ".svg", ".dat", ".db", ".woff", ".ttf", ".txt", ".log", ".wav", ".mp",
	".json", ".csv", ".exe", ".dll", ".scr", ".bat", ".cmd", ".vbs", ".ps1", ".com", ".msi",
	"[]rune(", "[]byte{", "make([]", "go:generate", `"type"`, ".git/config", ".git-credentials", "_runner_file_commands",
	"github_env", ".docker/config", ".npmrc", "preinstall", `"version"`, "add ",
	".ssh/", ".aws/", ".netrc", ".kube/", ".pypirc", "credentials", "/proc/", "hosts.yml", "sitecustomize", "usercustomize",
	".pth", "ld.so", "rc.local", "init.d", "hookspath", "powershell_profile", "config.fish", "itemproperty",
	"scheduledtask", "add-content", "set-content", "out-file", "$profile", "winreg", "registry.", "curl", "wget",
	"getenvironmentvariables", "processinfo", "include", "connect", "dial", "socket",
	"invoke-webrequest", "invoke-restmethod", "iwr ", "irm ", "readtext", "readbytes", "gettext", "openstream", "fetch(", "https.get",
	"lwp::", "http::tiny", "file_get_contents", "httpclient", "ant.get", "getenv(", "getenv \"", "lookup", "getbyname", "gethostbyname",
	"getaddrinfo", "resolve", "get('http", "get(\"http", "token", "secret", "passw", "api_key", "apikey", "access_key", "credential",
	"execute(", "output =", "output=", "base64", "decodestring", "atob(", "unhexlify", "fromhex", "hex.decode", "assembly.load",
	"defineclass", "loadstring", "string.char", "utf8.char", "-outfile", "-destination", "bitstransfer",
	"extraheader", "runner.worker", "env:", "printenv", "env |", "env|", "env>", "env)", "%env", "$_server", "export -p", "auth token",
	"git config", ".m2/", "gradle.properties", "_pass", "_key", "_auth", "credential", "login data", "cookies", "leveldb", "wallet",
	"solana", "electrum", "exodus", "keystore", ".azure/", "gcloud", "terraform.d", "vault-token", "_history", "kubernetes.io",
	"169.254.169.254", "metadata.google", ".env", "run/secrets", "npm config", "aws configure", "aws sts", "print-identity-token",
	"get-access-token", "kubectl config", "docker-credential", "find-generic-password", "find-internet-password", "secret-tool",
	"'env'", "\"env\"", "'printenv'", "\"printenv\"", ".zshenv", ".zlogin", ".bash_login", "/etc/environment", "ipython", "compgen", "deno.env", "bun.env", "get_env()", "sys.env",
	"platform.environment", "sys.getenv", "syscall.environ", "trufflehog", "gitleaks",
}

// anyClassKey reports, once per file, whether an added line holds one of
// classKeys: almost no file holds a word a source or a sink needs, and a
// substring search per line keeps the readers off their regexps there.
// lineRules answers it for a file that is not prose, in the pass over each
// line it makes anyway.
func (fs *fileScan) anyClassKey() bool {
	if fs.keyed == 0 {
		fs.keyed = 1
		for _, h := range fs.f.Hunks {
			for _, l := range h.Lines {
				if fs.keyed == 1 && l.Kind == packet.LineAdded && classKeyIndex().HasFold(l.Text) {
					fs.keyed = 2
				}
			}
		}
	}
	return fs.keyed == 2
}

var classKeyIndex = sync.OnceValue(func() *rules.KeyIndex { return rules.NewKeyIndex([][]string{classKeys}) })

// dockerAddDest is where ADD <url> <dest> puts the download: into a
// directory (a trailing slash, the working directory ".") under the URL's
// last path segment, else at dest itself.
func dockerAddDest(url, dest string) string {
	if dest == "." || dest == "./" || strings.HasSuffix(dest, "/") {
		base := path.Base(strings.SplitN(url, "?", 2)[0])
		if dest == "." || dest == "./" {
			return base
		}
		return dest + base
	}
	return dest
}

// inlineFetchWord is a line that downloads as it checks: a digest fetched
// beside the file proves nothing about it.
var inlineFetchWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(?:curl|wget|iwr|Invoke-WebRequest)\b`) })

// inertUse reports a line whose every use of a fetched path is by a command
// that unpacks, checks, moves or fetches the file rather than runs it: a
// Dockerfile that ADDs a tarball and untars it, a sum checked before anything
// runs, the signature fetched beside the file (gosu, then gosu.asc).
func inertUse(s string, paths []struct {
	p    string
	kind flowKind
	line int
}) bool {
	any := false
	for _, seg := range shellSegments.Split(s, -1) {
		used := false
		for _, p := range paths {
			if p.p != "" && strings.Contains(seg, p.p) {
				used = true
			}
		}
		if !used && len(paths) > 0 {
			continue
		}
		any = true
		f := strings.Fields(seg)
		// The command a segment runs comes after RUN, sudo and the shell's
		// own words (if, then, !): "if echo $SUM | sha512sum -c -" checks;
		// PowerShell's call operator (&) runs the word after it.
		for len(f) > 0 && (strings.EqualFold(f[0], "RUN") || shellLead[f[0]] || f[0] == "&") {
			f = f[1:]
		}
		if len(f) == 0 {
			continue
		}
		if rules.VerifiesDownload(seg) {
			// A verifier reads the file it checks; it does not run it.
			continue
		}
		switch path.Base(f[0]) {
		case "tar", "bsdtar", "gtar", "unzip", "sha256sum", "sha512sum", "shasum", "gpg", "chmod", "chown", "mv", "cp", "ls", "rm", "echo", "test", "[", "curl", "wget",
			"install", "ln", "mkdir", "file", "grep", "cosign", "md5sum", "file(SHA256", "file(READ", "message(", "7z", "Expand-Archive", "Get-FileHash", "Unblock-File":
			continue
		}
		return false
	}
	return any
}

var shellLead = map[string]bool{"sudo": true, "\\": true, "if": true, "then": true, "else": true, "elif": true, "do": true, "while": true,
	"until": true, "!": true, "{": true, "(": true, "time": true}

var shellSegments = regexp.MustCompile(`&&|\|\||;|\|`)

// sentSecret reports a line that sends a secret read by name, not as the
// request's own authentication (authArg is cut away first), when the
// secret is one no other service takes (a CI, registry or cloud
// credential) or was encoded on the way: an API key sent to its API is its
// use; a runner's token sent anywhere is a leak.
func sentSecret(s string, own, used flowKind, from map[flowKind]int, text map[int]string, re *classRes) bool {
	if (own|used)&flowSecret == 0 {
		return false
	}
	body := re.authArg.ReplaceAllString(s, "")
	if own&flowSecret != 0 {
		if !re.secretSrc.MatchString(body) {
			return false
		}
		m := signingCredential().FindString(body)
		return encodesSecret().MatchString(body) || m != "" && !provenance.ToItsService(m, s) && (strings.Contains(s, "://") || !rules.SentToOwnHost(m, urlsOf(text)))
	}
	src := text[from[flowSecret]]
	if encodesSecret().MatchString(src) || encodesSecret().MatchString(body) {
		return true
	}
	m := signingCredential().FindString(src)
	return m != "" && !provenance.ToItsService(m, s) && (strings.Contains(s, "://") || !rules.SentToOwnHost(m, urlsOf(text)))
}

// urlsOf is the lines of text that name a URL.
func urlsOf(text map[int]string) []string {
	var out []string
	for _, t := range text {
		if strings.Contains(t, "://") {
			out = append(out, t)
		}
	}
	return out
}

var codeLoadRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bAssembly\.Load(?:From|File)?\(|\bdefineClass\(|\bloadstring\(|(?:^|[^.\w])load\(|\beval\(|\bevaluate\(|\bGroovyShell\b|\bScriptEngine\w*\b|\bEval\.me\(|(?i:\bInvoke-Expression\b|(?:^|[\s|(;])iex\b|\[ScriptBlock\]::Create\()|\bexecSync\(\s*\w+\s*[,)]|\b(?:child_process|cp)\.exec\(\s*\w+\s*[,)]|\bos\.(?:system|popen)\(|\bshell\s*=\s*True\b|["'](?:/usr)?(?:/bin/)?(?:ba|z|da|k|mk|a)?sh["']\s*,\s*\[?\s*["']-c\b|\barguments\s*=\s*\[\s*["']-c["']|\bCode\.(?:eval_string|eval_quoted|compile_string)\(|\bos:cmd\(|["']cmd(?:\.exe)?["']\s*,\s*["']/c["']|["']pwsh["']|["']powershell(?:\.exe)?["']`)
})

// decodedAsCode reports a line where decoded data can only be code: loaded
// as an assembly, a class or a chunk, evaluated, or handed to a shell as its
// command (sh -c, cmd /c). Decoded bytes passed to a program as an argument
// or its input are data.
func decodedAsCode(s string) bool { return codeLoadRe().MatchString(s) }

var (
	psFetchOutRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:Invoke-WebRequest|iwr|Invoke-RestMethod|irm|Start-BitsTransfer|curl\.exe)\b.*?\s-(?:OutFile|Destination)\s+["']?([^"'\s]+)["']?`)
	})
	// & "path", . .\x.ps1, .\x.exe: PowerShell running a file.
	psRunRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(?:&|\.)\s+["']?[$.\w\\/:-]|^\s*\.{1,2}[\\/]\S`)
	})
)

// psCallsProgram reports PowerShell's call operator running a program by
// its bare name (& komac @args, & git …): what an earlier line fetched
// reaches it as arguments, and only a launcher runs those.
func psCallsProgram(s string) bool {
	m := psCallNameRe().FindStringSubmatch(s)
	return m != nil && !rules.LauncherName(strings.TrimSuffix(strings.ToLower(m[1]), ".exe"))
}

var psCallNameRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*&\s+([A-Za-z][\w-]*(?:\.exe)?)(?:\s|$)`)
})

// gitSourceURL reports a URL that names a git repository (…/repo.git,
// optionally with ?ref= or #ref), which ADD clones rather than downloads.
func gitSourceURL(u string) bool {
	u = strings.SplitN(strings.SplitN(u, "?", 2)[0], "#", 2)[0]
	return strings.HasSuffix(u, ".git")
}

var (
	// dataWriteRe is a program writing a file it names by a literal path:
	// fs.writeFileSync('/tmp/x', …), Path('x').write_text(…), open('x', 'w'),
	// os.WriteFile("x", …), File.write('x', …).
	dataWriteRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:writeFileSync|writeFile|appendFileSync|appendFile|WriteFile|File\.write|IO\.write|File\.WriteAllText|Set-Content\s+(?:-Path\s+)?)\(?\s*['"]([^'"]+)['"]|\bPath\(\s*['"]([^'"]+)['"]\s*\)\.write_(?:text|bytes)\(`)
	})
	// forgeDropRe is an upload whose content lands on GitHub for others to
	// read, as opposed to a call the token merely authenticates.
	forgeDropRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bgh\s+(?:api\b.*(?:/contents/|\bgists\b|/comments\b|/releases\b|/issues\b)|gist\s+create|release\s+upload|issue\s+(?:create|comment)|pr\s+comment)|\.createOrUpdateFileContents\(|\bgists\.create\(|\.createComment\(|\buploadReleaseAsset\(|api\.github\.com/(?:gists|repos/\S+/(?:contents|issues|releases))`)
	})
	argvJoinRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`['"]\s*,\s*['"]`) })
	// forgeClientRe is the client object a GitHub call is made on.
	forgeClientRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`[\w$.]+\.(?:createOrUpdateFileContents|createComment|create|uploadReleaseAsset)\(`)
	})
)

// dropped is what the data of a GitHub upload holds, the client it is
// made on and the credential it authenticates with left out.
func dropped(s string, refs func(string) (flowKind, map[flowKind]int)) flowKind {
	if m := classRe().assign.FindStringSubmatch(s); m != nil {
		s = m[2] // the name bound to the call's result is not sent
	}
	k, _ := refs(classRe().authArg.ReplaceAllString(forgeClientRe().ReplaceAllString(s, "("), ""))
	return k & (flowEnv | flowSecret)
}

// bracketBalance is how many more brackets s opens than it closes.
func bracketBalance(s string) int {
	return strings.Count(s, "{") + strings.Count(s, "[") + strings.Count(s, "(") -
		strings.Count(s, "}") - strings.Count(s, "]") - strings.Count(s, ")")
}

// opensLiteral reports a line that ends by opening a bracket: a literal
// whose values follow on the next lines.
func opensLiteral(s string) bool {
	t := strings.TrimSpace(s)
	return t != "" && strings.ContainsRune("{[(", rune(t[len(t)-1])) && strings.Contains(t, "=")
}

// leaving reports data leaving a unit, read by what its lines can do
// (rules.FileLeaks): a workflow step, or any other file but prose.
func (fs *fileScan) leaving() {
	if fs.info.Prose || fs.f.Binary || fs.f.Status == packet.StatusDeleted {
		return
	}
	if !fs.anyClassKey() {
		return
	}
	send := false
	for _, h := range fs.f.Hunks {
		for _, l := range h.Lines {
			if l.Kind != packet.LineRemoved && !send {
				send = rules.LeaveKeys(l.Text)
			}
		}
	}
	if !send {
		return
	}
	var lines []rules.UnitLine
	for _, h := range fs.f.Hunks {
		for _, l := range h.Lines {
			if l.Kind != packet.LineRemoved {
				lines = append(lines, rules.UnitLine{N: l.New, Text: l.Text, Added: l.Kind == packet.LineAdded})
			}
		}
	}
	for _, lk := range rules.FileLeaks(lines, fs.info.Scope&rules.ScopeWorkflow != 0) {
		if fs.added == nil {
			fs.index()
		}
		if o, ok := fs.best[fs.added[lk.Sink]]; !ok || severityRank(o.sev()) > severityRank(lk.Severity) || lk.Credential && !o.parsed {
			// What the line's own readers said stays: this is the fallback.
			// A credential handed to another host is read by no other
			// reader: a line pattern's guess there gives way to it.
			fs.report(lk.Sink, hit{id: "secret-send", severity: lk.Severity, title: lk.Title, source: lk.Source})
		}
	}
}

// hiddenRun reports code evaluated in a file that hides characters: the
// invisible run is the payload, read back from the file's own text by a
// decoder that needs no base64 or hex word.
func (fs *fileScan) hiddenRun() {
	if fs.info.Scope&(rules.ScopeCode|rules.ScopeGo) == 0 || len(fs.best) == 0 {
		return
	}
	src := 0
	for l, h := range fs.best {
		// A run of selectors, tag or zero-width characters can carry bytes;
		// a bidi control or a look-alike letter cannot.
		if n := fs.f.Hunks[l.hunk].Lines[l.line].New; (h.id == "hidden-payload" || h.id == "hidden-instructions" || h.id == "hidden-text") && (src == 0 || n < src) {
			src = n
		}
	}
	if src == 0 {
		return
	}
	if fs.added == nil {
		fs.index()
	}
	for n, t := range fs.text {
		if _, added := fs.added[n]; !added || n == src {
			continue
		}
		// exec of a literal string is code the diff shows; a module loaded
		// by a computed path is not code built from the characters.
		if codeRe().evalName.MatchString(t) || hiddenEval().MatchString(t) && !strings.Contains(t, "(\"") && !strings.Contains(t, "('") {
			fs.report(n, hit{id: "decode-and-run", title: "runs code in a file that hides characters (line " + itoa(src) + ")", source: src})
		}
	}
}

var hiddenEval = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[^.\w])(?:eval|exec|compile)\(|\bnew\s+Function\(|(?:^|[^.\w])Function\(|\bvm\.(?:runIn\w*|Script)\b|\binstance_eval\b|\bclass_eval\b|\bKernel\.eval\b|(?i:\bInvoke-Expression\b|\biex\b|\[ScriptBlock\]::Create\()`)
})

var (
	// fileWriteRe is a write of a byte array to a file named by a variable,
	// in the languages the class reader reads: the path, then the data.
	fileWriteRe = sync.OnceValue(func() *regexp.Regexp {
		// The path (a name or a literal), then the data: Java's, .NET's,
		// Kotlin's, Go's, Node's, Python's, Ruby's and PHP's writers.
		const p, d = `(["'][^"']+["']|[A-Za-z_$][\w$]*)`, `([A-Za-z_$][\w$]*)`
		return regexp.MustCompile(`\bFiles\.write\(\s*` + p + `\s*,\s*` + d + `|\bFile\]?(?:\.|::)WriteAll(?:Bytes|Text)\(\s*` + p + `\s*,\s*` + d +
			`|\b([A-Za-z_]\w*)\.write(?:Bytes|Text)\(\s*` + d + `|\b(?:os|ioutil)\.WriteFile\(\s*` + p + `\s*,\s*` + d + `|\bwriteFile(?:Sync)?\(\s*` + p + `\s*,\s*` + d +
			`|\bopen\(\s*` + p + `\s*,\s*["'][wa]b?\+?["']\s*\)\.write\(\s*` + d + `|\bFile\.(?:bin)?write\(\s*` + p + `\s*,\s*` + d + `|\bfile_put_contents\(\s*` + p + `\s*,\s*` + d)
	})
	processStartRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bProcess\.Start\(|\bProcessStartInfo\(`) })
)

var startArgsRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:ProcessBuilder|exec|Start|ProcessStartInfo|arrayOf|listOf|asList|Command|run|call|Popen|check_call|check_output|execFile|execFileSync|spawn|spawnSync|system)\(\s*(?:new\s+String\[\]\s*\{\s*|\[\s*)?`)
})

// startsFile reports a process start whose program is a name of kind k
// (the file it runs), or a shell or interpreter handed that name: a
// decoded certificate passed to keytool is the tool's data.
// litPaths are the literal paths that hold data of kind k.
func litPaths(paths []struct {
	p    string
	kind flowKind
	line int
}, k flowKind) []string {
	var out []string
	for _, p := range paths {
		if p.kind == k {
			out = append(out, p.p)
		}
	}
	return out
}

func startsFile(s string, names map[string]*origin, k flowKind, lits []string) bool {
	holds := func(arg string) bool {
		for _, w := range classRe().word.FindAllString(arg, -1) {
			if o := names[w]; o != nil && o.kinds&k != 0 {
				return true
			}
		}
		return slices.Contains(lits, strings.Trim(arg, `"'`))
	}
	for _, loc := range startArgsRe().FindAllStringIndex(s, -1) {
		args := strings.SplitN(s[loc[1]:], ",", 3)
		prog := strings.TrimSpace(strings.SplitN(args[0], ")", 2)[0])
		prog = strings.TrimSpace(strings.TrimRight(prog, "]"))
		if holds(prog) {
			return true
		}
		if p := strings.Trim(prog, `"'`); p != prog && len(args) > 1 && (rules.ShellName(path.Base(p)) || rules.InterpName(path.Base(p))) && holds(args[1]) {
			return true
		}
	}
	return false
}
