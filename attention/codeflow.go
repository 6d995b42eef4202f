package attention

// The code reader follows data within a JavaScript, TypeScript, Python,
// Ruby, PHP or Rust file, and in the files that run by themselves at build
// or test time (setup.py, conftest.py, build.rs). No parser for each of
// these languages is worth its weight here: the reader works on names. A
// name assigned a decoded, downloaded or secret value carries it; a name
// assigned a shell-profile path is a profile; a name written with tainted
// data makes the file it names tainted. A line that runs code, starts a
// process, sends over the network or writes a file is then rated by the
// names and expressions it uses, and the item names the line the data came
// from. It misses what flows through calls and containers; it catches the
// split that defeats a one-line pattern (decode here, run there).

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/vetter-dev/vetter/attention/provenance"
	"github.com/vetter-dev/vetter/attention/rules"
)

type codeRes struct {
	assign, ident, str                                                               *regexp.Regexp
	decode, download, bulkSecret, oneSecret, secretName                              *regexp.Regexp
	execSink, procSink, sendSink, writeSink, openHandle                              *regexp.Regexp
	handleWrite                                                                      *regexp.Regexp
	forBind, augAssign, alias, funcDecl, dynCall                                     *regexp.Regexp
	procDownload, procOut, noRun, handleSend, dnsSink                                *regexp.Regexp
	hostInfo, cmdString, concat, dnsName, evalName                                   *regexp.Regexp
	getSink, goInitShell                                                             *regexp.Regexp
	detached, pyBlock, pyProc, fill, stdinShell                                      *regexp.Regexp
	withBind, cbParam, accum, recvWrite, copyTo, dlDest                              *regexp.Regexp
	letBind, createFile, streamCopy, outParam, progArg                               *regexp.Regexp
	profileAppend, rArrow, ciGuard, ciShell, ciFetch, ciAbsent, ciReturn, httpImport *regexp.Regexp
}

var codeRe = sync.OnceValue(func() *codeRes {
	return &codeRes{
		// name = …, let mut name: T = …, a, err := …, if resp, err := …;
		// while chunk := …: the first name holds what the right side does.
		assign: regexp.MustCompile(`^\s*(?:export\s+)?(?:(?:if|while|elif|for|switch)\s+\(?\s*)?(?:(?:const|let|var|my|local|final|static|def|val)\s+)?(?:mut\s+)?\{?\s*\$?([A-Za-z_][\w]*)(?:\s*,\s*(?:[A-Za-z_]\w*|:?\d+|:\w+))*\s*\}?\s*(?::\s*[\w<>\[\], .:&']+)?\s*(?:=|:=)\s*([^=].*)$`),
		ident:  regexp.MustCompile(`[A-Za-z_$][\w$]*`),
		str:    regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|` + "`(?:[^`\\\\]|\\\\.)*`"),
		decode: regexp.MustCompile(`Buffer\.from\([^)]*['"](?:hex|base64|base64url)['"]|\batob\(|String\.fromCharCode\b|fromCharCode\(|\bb(?:64|32|16|85)decode\(|\ba85decode\(|\bbytes\.fromhex\(|\bunhexlify\(|\bcodecs\.decode\(|\b(?:zlib|lzma|bz2|gzip)\.decompress\(|\b(?:inflate|gunzip|brotliDecompress)(?:Sync)?\(|\.decode\(\s*['"](?:hex|base64|rot13)|\bBase64\.(?:decode64|strict_decode64|urlsafe_decode64)\b|\.unpack1?\(\s*['"](?:m|H\*)|\bbase64_decode\(|\bhex2bin\(|\bgzinflate\(|\bstr_rot13\(|\bbase64::decode\b|\bSTANDARD\.decode\(|\bhex::decode\(|\bmarshal\.loads\(|\bdecode_base64\(|\bpack\(\s*['"]H\*|\.reverse\(\)\.join\(|\\x[0-9a-fA-F]{2}(?:\\x[0-9a-fA-F]{2}){15}|(?i:FromBase64String\(|\bConvert\]::FromBase64)|\bhex\.DecodeString\(|\bbase64\.(?:Std|URL|RawStd|RawURL)Encoding\.DecodeString\(|\bchr\(\s*\w+\s*(?:[-+^]\s*\w+\s*)?\)\s*for\b|\bmap\(\s*chr\b|\.pack\(\s*['"][cCU]\*|(?:\\u00[0-9a-fA-F]{2}){8}|\bString\.fromCodePoint\(|\bcodecs\.encode\([^)]*rot|\.decode\((?:[^()"']|"[^"]*"|'[^']*')*,\s*["'](?:rot_?13|base64|hex|zlib|bz2|uu)(?:_codec)?["']\s*\)|\bcreateDecipher(?:iv)?\(|\.decode(?:Base64|Hex)\(\)|\bBase\.(?:url_)?decode(?:64|32|16)!?\(|\bbase64:decode(?:_to_string)?\(|\ba2b_(?:base64|hex|uu)\(|\bunpack1?\(\s*['"]u|` +
			// XOR against a repeating key (b ^ key[i % n]) or a constant over
			// a stream of bytes; a decompressing reader.
			`\^=?\s*[\w.]+\s*\[[^\]]*%|(?:=>|\|)\s*\w+\s*\^|\w\s*\^\s*(?:0x[0-9a-fA-F]+|\d+)\s+for\b|\b(?:Zlib|Gz|Deflate|Xz|Bz|Zstd|Lzma|Brotli)Decoder::new\(|\b(?:gzip|zlib|flate|bzip2|lzw)\.NewReader\(|\bnew\s+(?:GZIPInputStream|InflaterInputStream|GZipStream|DeflateStream|BrotliStream)\(|` +
			// A data: URL of code in base64: import() and PHP's include
			// decode it as they load it.
			`(?i:data:(?://)?(?:text|application)/(?:javascript|ecmascript|x-javascript|plain|x-php|x-httpd-php|x-python|x-sh|x-shellscript)(?:;[\w=-]+)*;base64,)`),
		download: regexp.MustCompile(`\(slurp\s+"https?://|\bsource\(\s*["']https?://|(?:^|[^.\w])(?:devtools::)?source_(?:url|gist)\(|\bfetch\(|\bhttpRequest\s*\(|(?:^|[^.\w])download(?:_file|_url|File)?\(\s*(?:self\s*,\s*)?["'\w][^,()]*,\s*["']|\bhttps?\.(?:get|request)\(|\brequire\(\s*["'](?:node:)?https?["']\s*\)\.(?:get|request)\(|\baxios\b|\brequire\(['"](?:request|got|node-fetch)['"]\)|\bgot\(|\burlopen\(|\burllib\.request\b|\brequests\.(?:get|post|request)\(|\bhttpx\.(?:get|stream)\(|\breqwest::|\bureq::|\bNet::HTTP\b|\bURI\.open\b|\bopen-uri\b|file_get_contents\(\s*['"]https?:|\b(?:copy|fopen|readfile)\(\s*['"]https?:|\bcurl_exec\(|\bwget\.download\(|\burlretrieve\(|(?i:\bInvoke-WebRequest\b|\bInvoke-RestMethod\b|\biwr\b|\birm\b|\.DownloadString\(|\.DownloadData\(|\.DownloadFile\()|\bhttp\.Get\(|(?:=|\bawait)\s*HttpClient\(\)|\bDownloads\.download\(|\b(?:download\.file|curl_download)\(|\bSource\.fromURL\(|\b(?:String|Data)\(contentsOf:\s*URL\(|` +
			// Groovy and Kotlin build scripts: a curl process's output, a URL read as text.
			`\[\s*["'](?:curl|wget)["'][^\]]*\]\s*\.execute\(\)|["'](?:curl|wget)\s[^"']*["']\s*\.execute\(\)|\bURL\((?:[^()]|\([^()]*\))*\)\s*\.(?:text\b|getText\(|readText\(|openStream\(|readBytes\()|\.toURL\(\)\s*\.(?:text\b|getText\(|readText\()`),
		bulkSecret: regexp.MustCompile(`\bprocess\.env\b(?:\s*[),;}\]]|\s*$)|JSON\.stringify\(\s*process\.env|\{\s*\.\.\.process\.env|\bos\.environ\b(?:\s*[),;}\]]|\.copy\(\)|\.items\(\)|\s*$)|\bdict\(\s*os\.environ|\bENV\.to_h\b|\bstd::env::vars\(\)|\bgetenv\(\)|\$_ENV\b|\$_SERVER\b|(?i:\b(?:Get-ChildItem|gci|dir|ls)\s+env:|GetEnvironmentVariables\(\))|\bos\.Environ\(\)|\benv\.getEnvironment\(\)|\bsys\.env\b(?:\s*[),;}\]]|\.(?:toMap|toList|toSeq|mkString)\b|\s*$)`),
		oneSecret:  regexp.MustCompile(`\bprocess\.env\.([A-Za-z_]\w*)|\bprocess\.env\[['"]([A-Za-z_]\w*)['"]\]|\bos\.environ\[['"]([A-Za-z_]\w*)['"]\]|\bos\.(?:environ\.get|getenv)\(\s*['"]([A-Za-z_]\w*)['"]|\bENV\[['"]([A-Za-z_]\w*)['"]\]|\benv::var\(\s*"([A-Za-z_]\w*)"|\bgetenv\(\s*['"]([A-Za-z_]\w*)['"]`),
		execSink: regexp.MustCompile(`\beval\(|(?:^|[^.\w])evaluate\(|\bEval\.(?:me|x|xy|xyz)\(|\beval\s+\$|\brunpy\.run_(?:path|module)\(|\.exec_module\(|\bSourceFileLoader\(|\bnew\s+Function\(|(?:^|[^.\w])Function\(|\._compile\(|\bvm\.(?:runIn\w*|Script|compileFunction)\b|\brunIn(?:This|New)Context\(|\bnew\s+vm\.Script\b|\bexec\(|(?:^|[^.\w])compile\(|\.compile\(\s*[^\s"')]|\b__import__\(|\bimportlib\.|\binstance_eval\b|\bclass_eval\b|\bKernel\.eval\b|\bmarshal\.loads\(|\bpickle\.loads\(|\bmodule\.constructor\b|\bnew\s+Module\(|\brequire\(\s*[A-Za-z_$]|\bimport\(\s*[A-Za-z_$'"\x60]|\bWebAssembly\.(?:instantiate|compile|Module)\b|\bassert\(\s*\$|\bcreate_function\(|\bconstructor\s*\)?\s*\(|\[\s*["'](?:exec|eval|_compile|Function|execSync|system)["']\s*\]|\bgetattr\(\s*(?:__builtins__|builtins)\b|(?i:\bInvoke-Expression\b|\biex\b|\[ScriptBlock\]::Create\(|^\s*[&.]\s+\$[\w:]+|\b(?:powershell|pwsh)(?:\.exe)?\s+(?:-\w+\s+)*-(?:File|c|Command)\s|\bcmd(?:\.exe)?\s+/[ck]\s+\$|\.InvokeScript\(|\.NewScriptBlock\(|\bAdd-Type\b.*-TypeDefinition\b|\[(?:System\.)?Reflection\.Assembly\]::Load\()|` +
			// PHP including a file by a computed path (a temp file, a variable).
			`\b(?:include|require)(?:_once)?\s*\(?\s*(?:\$|sys_get_temp_dir\(|tempnam\()|` +
			// PHP including a stream that is the code itself: a data: URL,
			// a php:// filter or input.
			`\b(?:include|require)(?:_once)?\s*\(?\s*["'](?:data:|php://)|` +
			// A method called by a name spelled backwards, joined from letters
			// or decoded at run time (Ruby's send, public_send and
			// method(…).call, Python's getattr, PHP's call_user_func): the
			// name the diff would show, eval or system, is hidden. A name
			// merely built from a prefix and a kind is dispatch, not this,
			// and a socket's send is a send.
			// getattr(b, "exec") on an aliased builtins module (the line is
			// read with "ex" + "ec" joined): the evaluator reached by a name
			// in a string.
			`\bgetattr\(\s*[\w.]+\s*,\s*["'](?:exec|eval|compile|__import__|system|popen|execfile)["']\s*\)|` +
			// R's source and sys.source of a file named by a variable, and
			// of a URL (source reads it over the network and runs it), and
			// devtools' source_url and source_gist.
			`\b(?:sys\.)?source\(\s*[A-Za-z_][\w.]*\s*[,)]|\bsource\(\s*["']https?://|(?:^|[^.\w])(?:devtools::)?source_(?:url|gist)\(|` +
			// Ruby's send of an evaluator by a string or a symbol: send("eval", c), public_send(:system, c).
			`\b(?:public_send|__send__|send)\(\s*(?:["']|:)(?:eval|instance_eval|class_eval|module_eval|system|exec|spawn)["']?\s*,|` +
			`(?:\b(?:public_send|__send__|method|getattr|call_user_func(?:_array)?)|(?:^|[^.\w]|\b(?:Kernel|Object|self|[A-Z]\w*)\.)send)\(\s*(?:[\w.]+\s*,\s*)?(?:[^,()\[\]]|\[[^\[\]]*\]|\([^()]*\))*?(?:\.(?:reverse|join|pack|unpack1?|chr)\b|%[wi][\[({]|\[::-1\]|\bchr\(|\b(?:strrev|str_rot13|base64_decode|hex2bin|implode)\(|\.decode\()`),
		procSink: regexp.MustCompile(`\bchild_process\b|\bexecSync\(|\bexecFile(?:Sync)?\(|\bspawn(?:Sync)?\(|\bos\.system\(|\bos\.popen\(|\bsubprocess\.|\bos\.exec\w*\(|\bCommand::new\(|\bsystem\(|\bshell_exec\(|\bpassthru\(|\bcall_user_func(?:_array)?\(\s*['"](?:system|exec|shell_exec|passthru|popen|proc_open)['"]|\bproc_open\(|\bpopen\(|\bIO\.popen\b|\bOpen3\b|%x\{|\bexec\.Command(?:Context)?\(|\bgetExecOutput\(|\bexec\.exec\(|\bexeca(?:Sync|Command)?\(|\bsyscall\.Exec\(|\bos\.StartProcess\(|\.(?:spawn|status|output)\(\)|(?i:\bStart-Process\b)|\]\s*\.execute\(\)|["']\s*\.execute\(\)|\bRuntime\.getRuntime\(\)\.exec\(|\bProcessBuilder\(|\bProcess\.Start\(|\bStartProcess\(|(?:^|\{)\s*commandLine\b|\bSystem\.(?:cmd|shell)\(|:os\.cmd\(|\bPort\.open\(|\bMix\.shell\(\)\.cmd\(|` +
			// Ruby's backticks run the string they interpolate; a Jenkins or
			// Rake sh step given a variable runs it as a shell command.
			"`[^`]*#\\{|(?:^\\s*|[;{]\\s*)sh\\s*\\(?\\s*(?:script:\\s*)?[A-Za-z_]\\w*\\s*\\)?\\s*$|" +
			// A shell given its script with -c, as an argument list in any
			// language (nox's session.run("sh", "-c", s)).
			`["'](?:/usr)?(?:/bin/)?(?:ba|z|da|k|mk|a)?sh["']\s*,\s*\[?\s*["']-c["']|` +
			// Rake's sh and Invoke's c.run hand a string to the shell;
			// Scala's sys.process runs a string or pipes one with #|.
			`(?:^\s*|[;{]\s*|\bdo\s+)sh\s*\(?\s*["'%]|\b(?:c|ctx|context)\.run\(\s*f?["']|#\||["')\]]\s*\.!!?(?:[\s)]|$)|` +
			// Ruby's Kernel#open runs a command string that starts with "|".
			`(?:^|[^.\w])open\(\s*(?:["']\||[A-Za-z_]\w*\s*\)\s*(?:\{|do\b))|\bIO\.(?:read|readlines|foreach|binread)\(\s*["']\||` +
			// Haskell's System.Process (a Cabal Setup.hs hook), a conanfile's
			// self.run of a command string (any class's self.run(obj) is a
			// method), Dart's Process (a build hook).
			`\b(?:callCommand|spawnCommand|callProcess|spawnProcess|rawSystem|readProcess(?:WithExitCode)?|readCreateProcess)\b|\bself\.run\(\s*f?["']|\bProcess\.(?:start|run|runSync)\(|` +
			// Julia's run and pipeline of a command literal (deps/build.jl),
			// a Foundation Process handed a shell's -c (Package.swift).
			"\\b(?:run|pipeline)\\(\\s*`|\\.arguments\\s*=\\s*\\[\\s*\"-c\"\\s*,"),
		sendSink: regexp.MustCompile(`\bfetch\(|\bhttps?\.request\(|\baxios(?:\.\w+)?\(|\brequest\.post\(|\brequests\.(?:post|put|patch)\(|\burlopen\(|\burllib\.request\.Request\(|\bhttpx\.(?:post|put)\(|\.sendall?\(|\bdns\.(?:resolve|lookup)\w*\(|\bNet::HTTP\.post(?:_form)?\b|\bnew\s+WebSocket\(|\.post\(|\.put\(|\bhttp\.(?:Post|PostForm|NewRequest)\(|\bXMLHttpRequest\b|\bsock(?:et)?\.send\(|\.write\(|(?i:\bInvoke-(?:WebRequest|RestMethod)\b.*-(?:Body|InFile)\b)|\bCURLOPT_POSTFIELDS\b|\bstream_context_create\(|\bwp_remote_post\(|->(?:post|put)\(|\bHttp::(?:post|put)\(|\bfsockopen\(|\.createOrUpdateFileContents\(|\bgists\.create\(|\.createComment\(|\.createBlob\(|\.createRelease\(|` +
			// The JVM's HTTP clients (Groovy, Java, Kotlin, Scala): a URL
			// connection's output stream, java.net.http's and OkHttp's
			// request bodies, Ktor's setBody, Jenkins's httpRequest step.
			`\.(?:outputStream|getOutputStream\(\))|\bhttpRequest\b.*\brequestBody\b|\bBodyPublishers\.of\w+\(|\bRequestBody\.create\(|\.toRequestBody\(|\bsetBody\(`),
		writeSink: regexp.MustCompile(`\b(?:appendFile|writeFile)(?:Sync)?\(\s*([^,]+),|\bcreateWriteStream\(\s*([^,)]+)|\bfs::write\(\s*([^,]+),|\bFile\.(?:write|open)\(\s*([^,]+),|\.write_(?:text|bytes)\(|\bfile_put_contents\(\s*([^,]+),|\bOpenOptions::new\(\)|\bos\.(?:OpenFile|WriteFile|Create)\(\s*([^,)]+)|\.open\(\s*["'][aw]|(?i:\b(?:Set-Content|Add-Content|Out-File|Tee-Object)\s+(?:-(?:Path|FilePath|LiteralPath)\s+)?([$\w][\w:.\\/-]*))|(?i:\bCompress-Archive\b.*-DestinationPath\s+([$\w][\w:.\\/-]*))|(?i:\[(?:System\.)?IO\.File\]::(?:Write|Append)All\w*\(\s*([^,]+),)|` +
			// The JVM's: java.nio's Files, Kotlin's and Groovy's File
			// extensions, Groovy's new File(…) << text.
			`\bFiles\.(?:write|writeString|newBufferedWriter|newOutputStream)\(\s*((?:[^,()]|\([^()]*\))+),|` +
			// R's writers name their file by argument: cat(x, file = p,
			// append = TRUE), write(x, file = p), writeLines(x, con = p).
			`\b(?:cat|write|writeLines)\((?:[^()]|\([^()]*\))*?\b(?:file|con)\s*=\s*([^,()]+)|\b([A-Za-z_]\w*)\.(?:appendText|appendBytes|writeText|writeBytes|withWriterAppend|appendLines)\(|\bnew\s+File(?:Writer|OutputStream)?\(((?:[^()]|\([^()]*\))*)\)\s*(?:<<|\.(?:append|write)\(|,\s*true\s*\))`),
		// open(path, "a") (the path may be a call: os.path.join(home, ".bashrc"));
		// Perl's open($fh, '>>', path) and open(FH, ">>path").
		openHandle:  regexp.MustCompile(`\bopen\(\s*((?:[^,()]|\((?:[^()]|\([^()]*\))*\))+?)\s*,\s*['"]([wa])b?\+?['"]\s*\)(?:\s+as\s+(\w+))?|\bopen\(\s*(?:my\s+)?(?:\$\w+|[A-Z]\w*)\s*,\s*(?:['"]>>?['"]\s*,\s*([^)]+?)|["']>>?\s*([^"']+)["'])\s*\)`),
		handleWrite: regexp.MustCompile(`\b(\w+)\.(?:write|Write|WriteString|write_all)\(`),
		secretName:  regexp.MustCompile(`(?i)token|secret|passw|api_?key|access_key|private_key|credential`),
		// for (const rc of [...]) / for rel in (...): the loop name holds the items.
		forBind: regexp.MustCompile(`^\s*for\s*\(?\s*(?:(?:const|let|var|my)\s+)?[\[(]?\$?([A-Za-z_]\w*(?:\s*,\s*\$?[A-Za-z_]\w*)*)[\])]?\s+(?:of|in)\s+(.+)$|^\s*foreach\s*\(\s*(.+?)\s+as\s+(?:\$\w+\s*=>\s*)?\$(\w+)|` +
			// list.each do |rc|, list.map { |f| …: a Ruby block's parameter;
			// list.forEach((rc) =>: a callback's.
			`^(.+)\.(?:each|each_with_index|map|flat_map|select|filter|forEach)\s*(?:do\s*|\{\s*|\(\s*(?:function\s*)?\(?\s*)\|?\s*(\w+)\s*(?:\||\)?\s*=>|\))`),
		augAssign: regexp.MustCompile(`^\s*\$?([A-Za-z_]\w*)\s*(?:\+|\|\||\.|<<)=\s*(.+)$`),
		// r = require, e = eval: a name that is the loader or the evaluator.
		alias:    regexp.MustCompile(`^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*=\s*(?:global(?:This)?\.|window\.)?(require|eval|Function|exec|__import__|execSync|spawn|child_process)\s*(?:[,;]|$)`),
		funcDecl: regexp.MustCompile(`\bfunction\s+([A-Za-z_$][\w$]*)\s*\(|\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)|^\s*def\s+(?:self\.)?(\w+)\s*(?:\(|$)|\bfn\s+(\w+)\s*\(`),
		// obj[decoded("...")](...): a method called by a name the diff does not show.
		dynCall: regexp.MustCompile(`\[((?:[^\[\]]|\[[^\[\]]*\])+)\]\s*\(`),
		// a process that is curl or wget: what it downloads, and to where.
		procDownload: regexp.MustCompile(`(?:Command::new|exec\.Command(?:Context)?|execFileSync|execFile|spawnSync|spawn|execSync|exec|subprocess\.\w+|os\.system|system|Popen|System\.cmd|:os\.cmd)\s*\(\s*(?:ctx\s*,\s*)?\[?\s*["'\x60](?:curl|wget)\b|\[\s*["'](?:curl|wget)["'][^\]]*\]\s*\.execute\(\)|["'](?:curl|wget)\s[^"']*["']\s*\.execute\(\)|^\s*\[\s*["'](?:curl|wget)["']\s*,`),
		procOut:      regexp.MustCompile(`["'](?:-[a-zA-Z]*[oO]|--output|--output-document)["']\s*(?:,|\]\s*\)\s*\.arg\(|\)\s*\.arg\()\s*&?\s*([A-Za-z_$][\w$]*)|["'](?:-[a-zA-Z]*o)\s+([A-Za-z_$][\w$]*)`),
		// processes that unpack or set modes: they touch a file, they do not run it.
		noRun:      regexp.MustCompile(`(?:Command::new|exec\.Command|execFileSync|execFile|spawnSync|spawn|execSync|subprocess\.\w+)\s*\(\s*\[?\s*["'](?:tar|unzip|chmod|chown|mkdir|cp|mv|rm|ls|cat|gzip|gunzip|xattr|codesign|file|stat)["'\s]`),
		handleSend: regexp.MustCompile(`\b([A-Za-z_$][\w$]*)\.(?:end|write|send|sendall|sendto|emit|push)\(`),
		dnsSink:    regexp.MustCompile(`\b(?:dns|require\(\s*['"](?:node:)?dns(?:/promises)?['"]\s*\))\.(?:resolve|lookup|resolve4|resolve6|resolveTxt|resolveAny)\w*\(|\bdns\.resolver\.(?:resolve|query)\(|\bsocket\.(?:gethostbyname|getaddrinfo)\(|\bnet\.Lookup\w*\(|\bResolve-DnsName\b|\b(?:nslookup|dig|host)\s`),
		dnsName:    regexp.MustCompile(`(?:\$\{[^}]+\}|\$\([^)]*\)|\$\w+|["']\s*\+\s*[\w.\[\]]+\s*\+\s*["']|%s|\{\w*\})\.(?:[\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}\b`),
		hostInfo:   regexp.MustCompile(`/etc/(?:passwd|hosts|hostname)\b|\bos\.(?:hostname|userInfo|homedir|networkInterfaces)\(|\bprocess\.cwd\(|\bsocket\.gethostname\(|\bplatform\.node\(|\bgetpass\.getuser\(|\bos\.getlogin\(|\$\(\s*(?:whoami|hostname|id|pwd)\b|\bos\.Hostname\(`),
		// a string that is a shell command downloading and running.
		cmdString:   regexp.MustCompile(`(?i)https?://\S*[^|]*\|\s*(?:sudo\s+)?(?:/usr)?(?:/bin/)?(?:ba|z|da)?sh\b|\b(?:curl|wget)\b[^|]*\|\s*(?:sudo\s+)?(?:/usr)?(?:/bin/)?(?:ba|z|da)?sh\b`),
		getSink:     regexp.MustCompile(`\brequests\.get\(|\bhttpx\.get\(|\bhttps?\.get\(|\brequire\(\s*["'](?:node:)?https?["']\s*\)\.(?:get|request)\(|\bfile_get_contents\(\s*["']https?:|\bhttp\.Get\(|\bNet::HTTP\.get\b|\bURI\.open\b`),
		goInitShell: regexp.MustCompile(`\bexec\.Command(?:Context)?\([^)]*"(?:/usr)?(?:/bin/)?(?:ba|z|da)?sh"\s*,\s*"-c"\s*,\s*[A-Za-z_]`),
		concat:      regexp.MustCompile(`(["'])\s*\+\s*["']`),
		// a process that outlives its parent: npm, pip or cargo returns and
		// it keeps running (its own session or process group: Go's Setsid,
		// Rust's process_group(0), Ruby's pgroup and Process.detach).
		detached: regexp.MustCompile(`\bdetached\s*:\s*true\b|\.unref\(\)|\bstart_new_session\s*=\s*True\b|\bDETACHED_PROCESS\b|\bCREATE_NEW_PROCESS_GROUP\b|\bnohup\s|\bsetsid\s|\bdaemon\s*=\s*True\b|\bProcessStartMode\.detached|[^&]&\s*["']\s*\)|\bSet(?:sid|pgid)\s*:\s*true\b|\bProcess\.detach\(|\bpgroup:\s*true\b|\.process_group\(\s*0\s*\)|\bsetsid\(\)`),
		// a shell started with no script, which runs what its stdin is
		// handed: exec.Command("bash", "-s"), subprocess.Popen(["sh"], stdin=…).
		stdinShell: regexp.MustCompile(`\bexec\.Command(?:Context)?\((?:\w+\s*,\s*)?"(?:/usr)?(?:/bin/)?(?:ba|z|da|k)?sh"\s*(?:,\s*"-s"\s*)?\)|\[\s*["'](?:/usr)?(?:/bin/)?(?:ba|z|da|k)?sh["']\s*(?:,\s*["']-s["']\s*)?\]|` +
			// spawn("bash"), spawn("sh", ["-s"]), Command::new("sh") with no -c.
			`\bspawn\(\s*["'](?:/usr)?(?:/bin/)?(?:ba|z|da|k)?sh["']\s*(?:,\s*\[\s*(?:["']-s["'])?\s*\])?\s*[,)]|\bCommand::new\(\s*"(?:/usr)?(?:/bin/)?(?:ba|z|da|k)?sh"\s*\)(?:\s*\.(?:stdin|stdout|stderr|env|current_dir)\([^)]*\)*)*\s*(?:\.(?:spawn|output|status)\(|;|$)`),
		// a container filled in place: list.append(x), arr.push(x), d[k] = x.
		fill: regexp.MustCompile(`(?:^|[\s;{(>])\$?([A-Za-z_]\w*)\s*(?:\.(?:append|push|extend|update|add|insert|unshift|concat)\((.*)$|\[[^\]]*\]\s*=\s*([^=].*)$)`),
		// with urlopen(u) as r: the name holds what the expression gives.
		withBind: regexp.MustCompile(`\bwith\s+(.+?)\s+as\s+([A-Za-z_]\w*)\s*[:,)]`),
		// the parameters of a callback or block inside a download's
		// statement: (res) =>, function (chunk), |f|, .then(code =>.
		cbParam: regexp.MustCompile(`\(\s*([A-Za-z_$][\w$]*)\s*(?:,\s*[A-Za-z_$][\w$]*\s*)*\)\s*=>|(?:^|[(,\s])([A-Za-z_$][\w$]*)\s*=>|\bfunction\s*\w*\s*\(\s*([A-Za-z_$][\w$]*)|\|\s*([A-Za-z_]\w*)\s*\|`),
		// body += chunk anywhere on a line (inside a callback).
		accum: regexp.MustCompile(`([A-Za-z_$][\w$]*)\s*(?:\+=|\.push\()\s*(.*)$`),
		// path.write_bytes(data): the receiver is the file written.
		recvWrite: regexp.MustCompile(`([A-Za-z_]\w*)(?:\(\))?\.write_(?:text|bytes)\(`),
		// copyFileSync(src, dst), shutil.copy(src, dst), fs::copy(src, dst),
		// Copy-Item src dst: the copy holds what the source held.
		copyTo: regexp.MustCompile(`\b(?:copyFile(?:Sync)?|shutil\.copy\w*|fs::copy|File\.Copy|FileUtils\.cp)\(\s*([^,]+?)\s*,\s*&?\s*([A-Za-z_$][\w$.]*)|(?i:\bCopy-Item\s+(?:-Path\s+)?(\S+)\s+(?:-Destination\s+)?(\$\w+))`),
		// the file a download call writes: urlretrieve(u, p), -OutFile $p.
		dlDest: regexp.MustCompile(`\burlretrieve\(\s*[^,]+,\s*([A-Za-z_]\w*)|\bcopy\(\s*['"]https?:[^'"]*['"]\s*,\s*\$(\w+)|\bdownload(?:_file|_url|File)?\(\s*(?:self\s*,\s*)?[^,()]+,\s*["'](?:\./)?([\w.-]+)["']|\bwget\.download\(\s*[^,]+,\s*(?:out\s*=\s*)?([A-Za-z_]\w*)|\.DownloadFile\(\s*[^,]+,\s*\$?(\w+)|(?i:-OutFile\s+\$(\w+))|\b(?:download\.file|curl_download)\(\s*[^,]+,\s*(?:destfile\s*=\s*)?([A-Za-z_][\w.]*)`),
		// if let Ok(resp) = ureq::get(u).call(): the pattern's name holds it.
		// read_to_end(&mut buf), readinto(buf), io.ReadFull(r, buf): the
		// buffer holds what the reader gives.
		outParam: regexp.MustCompile(`\.(?:read_to_end|read_to_string|read_exact|readinto)\(\s*&?(?:mut\s+)?([A-Za-z_]\w*)|\bio\.ReadFull\([^,]+,\s*([A-Za-z_]\w*)`),
		// the program a process starts: Command::new(&p), Popen([exe, …]).
		progArg: regexp.MustCompile(`(?:Command::new|exec\.Command(?:Context)?|execFile(?:Sync)?|spawn(?:Sync)?|Popen|subprocess\.\w+|ProcessBuilder|os\.StartProcess)\s*\(\s*(?:ctx\s*,\s*)?\[?\s*&?(?:str\(\s*)?([A-Za-z_$][\w$]*)`),
		// import { request, get as g } from 'node:https', const { request } =
		// require('http'): the names call node's HTTP client.
		httpImport: regexp.MustCompile(`\bimport\s*\{([^}]*)\}\s*from\s*["'](?:node:)?https?["']|\b(?:const|let|var)\s*\{([^}]*)\}\s*=\s*require\(\s*["'](?:node:)?https?["']\s*\)`),
		// rc.append(…), rc << …, rc.text += …: a write through the name
		// itself (Groovy's File, Ruby's IO), read only where the name
		// holds a profile's path.
		profileAppend: regexp.MustCompile(`\b([A-Za-z_]\w*)\s*(?:\.(?:append|leftShift|write|print|println|puts|syswrite)\(|<<\s*\S|\.text\s*\+?=)`),
		// A condition on a variable only CI sets (CI, GITHUB_ACTIONS,
		// GITLAB_CI and each system's own).
		ciGuard: regexp.MustCompile(`(?:^|[^\w.])(?:if|when|unless|elif|elsif|while)\b.*(?:env|ENV|getenv|Getenv|environ|Sys\.getenv)\b.*["'.\[](?:CI|CONTINUOUS_INTEGRATION|` + rules.CIDetectVars + `)["'\])\s]`),
		// A shell handed a script on the CI-only branch, or a download
		// (curl and wget, their libraries: Rust's curl crate, libcurl).
		ciShell: regexp.MustCompile(`["'](?:/usr)?(?:/bin/)?(?:ba|z|da)?sh["']\s*\)?\s*(?:,|\.args?\()\s*\[?\s*["']-c["']`),
		ciFetch: regexp.MustCompile(`\bcurl\b|\bwget\b`),
		// A CI test that holds when the variable is absent (the guard of
		// code that returns unless it runs on CI), and a return.
		ciAbsent: regexp.MustCompile(`\.is_err\(\)|\.is_none\(\)|!\s*(?:std::)?(?:env|process|os|ENV|Sys|System)\b|\bnot\s|\bunless\b|(?:==|===|\bis)\s*(?:""|''|None|nil|null|undefined)|\bisEmpty\b|\.empty\?`),
		ciReturn: regexp.MustCompile(`(?:^|[\s{;:)])return\b`),
		// x <- value, x <<- value at a line's start (R).
		rArrow:  regexp.MustCompile(`^(\s*[A-Za-z_][\w.]*)\s*<<?-\s*`),
		letBind: regexp.MustCompile(`\blet\s+(?:Ok|Some)\(\s*(?:mut\s+)?([A-Za-z_]\w*)\s*\)\s*=\s*(.+)$`),
		// a file opened for writing by a handle: let mut f = File::create(&out).
		createFile: regexp.MustCompile(`^\s*(?:(?:let|const|var)\s+(?:mut\s+)?)?([A-Za-z_]\w*)(?:\s*,\s*\w+)?\s*:?=\s*(?:std::)?(?:fs::)?(?:File::create|os\.Create|fs\.createWriteStream|open)\(\s*&?([A-Za-z_]\w*)\s*[,)]`),
		// a stream copied into a handle: io::copy(&mut src, &mut f),
		// shutil.copyfileobj(src, f), src.pipe(f); Go's io.Copy(dst, src).
		streamCopy: regexp.MustCompile(`\bio::copy\(\s*&mut\s+([^,]+),\s*&mut\s+([A-Za-z_]\w*)|\bshutil\.copyfileobj\(\s*([^,]+),\s*([A-Za-z_]\w*)|([A-Za-z_$][\w$.]*)\.pipe\(\s*([A-Za-z_$][\w$]*)\s*\)|\bio\.Copy\(\s*([A-Za-z_]\w*)\s*,\s*([^)]+)\)`),
		pyBlock:    regexp.MustCompile(`^(\s*)(?:async\s+def|def|class)\s`),
		pyProc:     regexp.MustCompile(`\bsubprocess\.(?:Popen|run|call|check_call|check_output)\(|\bos\.(?:system|popen|spawn\w*|exec\w*|startfile)\(`),
		// Clojure's load-string and eval of read-string run the text they are handed.
		evalName: regexp.MustCompile(`\((?:load-string|eval\s+\(read-string)\s+[A-Za-z_][\w-]*\s*\)|(?:^|[^.\w])eval\(\s*[A-Za-z_$][\w$]*\s*\)|\bnew\s+Function\(\s*[A-Za-z_$][\w$]*\s*\)|\brunInThisContext\(\s*[A-Za-z_$][\w$]*\s*\)|(?:^|[^.\w])exec\(\s*[A-Za-z_][\w]*\s*\)`),
	}
})

// codeFlow reads the file's lines in order.
func (fs *fileScan) codeFlow() {
	re := codeRe()
	vars := map[string]taint{} // names that hold tainted data
	profiles := map[string]int{}
	files := map[string]taint{}    // paths (a name or a literal) that hold tainted data
	handles := map[string]string{} // python file handle -> the path it writes
	lastDownload := 0
	// a shell the code started with no script: a later .Stdin = x runs x.
	stdinShell := false
	// the last line that downloads or runs a downloaded installer
	lastFetch := 0
	stdinRecv, stdinT := "", taint{}
	shellRecv := "" // the name that holds such a shell's process
	forgeFile := false
	for _, t := range fs.text {
		if provenance.ForgeURL(t) {
			forgeFile = true
			break
		}
	}
	refTaint := func(s string) taint {
		var t taint
		for _, ix := range re.ident.FindAllStringIndex(s, -1) {
			if ix[0] > 0 && s[ix[0]-1] == '.' && (ix[0] < 2 || s[ix[0]-2] != '.') {
				continue // a property (process.env.X), not the name
			}
			if v, ok := vars[strings.TrimLeft(s[ix[0]:ix[1]], "$")]; ok {
				t = t.or(v)
			}
		}
		for p, v := range files {
			if strings.Contains(s, p) {
				t = t.or(v)
			}
		}
		return t
	}
	hookPaths := map[string]bool{}
	refHook := func(s string) bool {
		for _, id := range re.ident.FindAllString(s, -1) {
			if hookPaths[id] {
				return true
			}
		}
		return false
	}
	refProfile := func(s string) int {
		for _, id := range re.ident.FindAllString(s, -1) {
			if n, ok := profiles[id]; ok {
				return n
			}
		}
		return 0
	}
	// Functions whose body decodes (a call to one decodes), names bound to
	// the loader or the evaluator (r = require), request objects whose
	// end/write sends, and the first line that reads the machine's identity
	// or secrets (what a DNS lookup built from data would carry out).
	decoders := map[string]int{}
	aliases := map[string]bool{}
	requests := map[string]int{} // request objects, by the line that opened them
	curFunc, curFuncLine := "", 0
	// The parameters of the function being read, and the functions that
	// write a file named by one of their parameters: a call of one given
	// a profile's path writes the profile (appendOnce(rc, line)).
	var curParams []string
	writers := map[string]int{}
	rFile := rules.RCode(fs.path)
	// The line of code that checks it runs on CI, and the lines (by
	// indentation) its branch holds: the branch under if CI, or the rest
	// of the block after "unless CI, return" (ciEarly). ciFetched is the
	// branch's first download.
	ciGuard, ciIndent, ciFetched := 0, 0, 0
	ciEarly := false
	type ciRun struct{ line, guard, fetched int }
	var ciRuns []ciRun
	defer func() {
		// A line another reader already holds high for what it runs keeps
		// that item, which says more.
		for _, r := range ciRuns {
			if at, ok := fs.added[r.line]; ok {
				if o, ok := fs.best[at]; ok && o.sev() == rules.High {
					continue
				}
			}
			h := hit{id: "ci-only-build-code", source: r.guard, title: "fetches or starts a shell only when it runs on CI (line " + itoa(r.guard) + " checks)"}
			switch {
			case fs.info.BuildCode != "":
			case r.fetched > 0:
				h.title = "runs a program only when it runs on CI, after downloading on line " + itoa(r.fetched) + " (line " + itoa(r.guard) + " checks)"
				h.source = r.fetched
			default:
				h.title = "starts a hidden process only when it runs on CI (line " + itoa(r.guard) + " checks)"
			}
			fs.report(r.line, h)
		}
	}()
	identity, initLine := 0, 0
	// The last download's statement: the names and paths it binds, and
	// how many of its parentheses are still open (a builder chain over
	// several lines is one statement: its .status() runs the download).
	var dlNames map[string]bool
	dlEnd := 0 // the last line of the download's statement
	// The files the program writes (by the name or path it writes them
	// through), and the first line that downloads or decodes: a program
	// started from a file this code wrote, in code that also fetches or
	// decodes bytes, runs those bytes even where the flow between them
	// passes through something the reader cannot follow.
	written := map[string]int{}
	fetched := 0
	// A package's __init__.py runs at every import; a statement outside
	// any def or class runs then.
	pkgInit := path.Base(fs.path) == "__init__.py"
	inInit, initDetached := false, false
	jsIndex := false
	switch path.Base(fs.path) {
	case "index.js", "index.cjs", "index.mjs":
		jsIndex = true
	}
	pyBlockIndent := -1
	// Node's request and get imported by name: a call to the name is
	// https.request(…) or https.get(…), read as that.
	netCall := map[string]string{}
	for _, t := range fs.text {
		m := re.httpImport.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		for _, it := range strings.Split(m[1]+m[2], ",") {
			f := strings.FieldsFunc(it, func(r rune) bool { return r == ' ' || r == ':' || r == '\t' })
			if len(f) > 0 && (f[0] == "request" || f[0] == "get") {
				netCall[f[len(f)-1]] = "https." + f[0] // request as post, request: post
			}
		}
	}
	var netCallRe *regexp.Regexp
	if len(netCall) > 0 {
		names := slices.Sorted(maps.Keys(netCall))
		for i, n := range names {
			names[i] = regexp.QuoteMeta(n)
		}
		netCallRe = regexp.MustCompile(`(^|[^.\w$])(` + strings.Join(names, "|") + `)\(`)
	}
	for n, t := range fs.text {
		if strings.HasPrefix(t, "func init()") {
			if _, added := fs.added[n]; added {
				initLine = n
			}
		}
		if (re.hostInfo.MatchString(t) || re.bulkSecret.MatchString(t)) && (identity == 0 || n < identity) {
			identity = n
		}
	}
	for _, reg := range fs.regions() {
		for i, l := range reg {
			// "ex" + "ec" is exec.
			s := re.concat.ReplaceAllString(l.text, "")
			if rFile {
				// R assigns with <- (and <<-): read it as the = it is.
				s = re.rArrow.ReplaceAllString(s, "$1 = ")
			}
			if netCallRe != nil {
				s = netCallRe.ReplaceAllStringFunc(s, func(m string) string {
					sm := netCallRe.FindStringSubmatch(m)
					return sm[1] + netCall[sm[2]] + "("
				})
			}
			ts := strings.TrimSpace(s)
			// A comment, a doc comment's line, or one whole /* … */ (a
			// JSDoc type names import('x') without loading it).
			if strings.HasPrefix(ts, "//") || strings.HasPrefix(ts, "#") && !strings.HasPrefix(ts, "#!") || strings.HasPrefix(ts, "* ") ||
				strings.HasPrefix(ts, "/*") && (!strings.Contains(ts, "*/") || strings.HasSuffix(ts, "*/") && strings.Count(ts, "*/") == 1) {
				continue
			}
			// Code that checks whether it runs on CI: what its branch does
			// runs only on the runner, out of the sight of whoever builds
			// or tests it on their own machine. Build code's branch that
			// fetches or hands a shell a script is reported; other code
			// (a library the tests call) when the branch downloads and
			// then starts a program, or starts one hidden and detached:
			// turning colour off or skipping a test does neither.
			ind := len(s) - len(strings.TrimLeft(s, " \t"))
			if ciGuard > 0 && ts != "" && (ciEarly && ind < ciIndent || !ciEarly && ts != "}" && ind <= ciIndent && !strings.HasPrefix(ts, "}")) {
				ciGuard, ciFetched, ciEarly = 0, 0, false
			}
			if re.ciGuard.MatchString(s) {
				ciGuard, ciIndent, ciFetched = l.n, ind, 0
				// "unless on CI, return": the rest of the block is the branch
				ciEarly = re.ciAbsent.MatchString(s) && (re.ciReturn.MatchString(s) || i+1 < len(reg) && re.ciReturn.MatchString(reg[i+1].text))
			}
			window := 12
			if ciEarly {
				window = 40
			}
			if ciGuard > 0 && ciGuard <= l.n && l.n-ciGuard <= window && !(ciEarly && l.n == ciGuard) {
				st := joinCall(reg[i:])
				fetch := re.ciFetch.MatchString(s) || re.download.MatchString(s)
				hidden := re.procSink.MatchString(s) && re.detached.MatchString(st) && rules.HidesOutput(st)
				switch {
				case fs.info.BuildCode != "":
					if fetch || hidden || re.ciShell.MatchString(s) {
						ciRuns = append(ciRuns, ciRun{l.n, ciGuard, 0})
					}
				case hidden, ciFetched > 0 && re.procSink.MatchString(s) && !inertProcess(st):
					ciRuns = append(ciRuns, ciRun{l.n, ciGuard, ciFetched})
				}
				if fetch && ciFetched == 0 {
					ciFetched = l.n
				}
			}
			// What the line's expressions hold.
			var here taint
			decodes := re.decode.MatchString(s)
			if m := re.funcDecl.FindStringSubmatch(s); m != nil {
				curFunc, curFuncLine = strings.Join(m[1:], ""), l.n
				curParams = funcParams(s, curFunc)
			}
			// A function that returns or yields a profile's path makes its
			// call one: for rc in profiles(): open(rc, "a").
			if r, ok := rules.ReturnedExpr(ts); (ok || l.n-curFuncLine <= 3) && curFunc != "" {
				if !ok {
					r = s // Ruby returns its last expression: a short body that names a profile
				}
				if n := refProfile(r); n > 0 {
					profiles[curFunc] = n
				} else if startupPath(r) {
					profiles[curFunc] = l.n
				}
			}
			if decodes && curFunc != "" && l.n-curFuncLine <= 3 {
				decoders[curFunc] = l.n
			}
			for name, at := range decoders {
				if at != l.n && callsName(s, name) {
					decodes = true
				}
			}
			if decodes {
				here = here.or(taint{kind: tDecode, line: l.n})
			}
			procDL := re.procDownload.MatchString(s)
			inDL := false
			if re.download.MatchString(s) || procDL {
				here = here.or(taint{kind: tDownload, line: l.n})
				lastDownload, lastFetch = l.n, l.n
				dlStmt := joinCall(reg[i:])
				dlNames = stmtNames(dlStmt)
				dlEnd = reg[min(i+strings.Count(dlStmt, "\n"), len(reg))-1].n
				for _, m := range re.dlDest.FindAllStringSubmatch(dlStmt, -1) {
					vars[strings.Join(m[1:], "")] = taint{kind: tDownload, line: l.n}
				}
			} else if l.n <= dlEnd {
				inDL = true
			}
			if lastDownload > 0 && (lastDownload == l.n || inDL) {
				// Inside the download's statement, a callback's or block's
				// parameters are the response, and what they add to a name
				// is downloaded: https.get(u, res => res.on('data', c => body += c)).
				dl := taint{kind: tDownload, line: lastDownload}
				for _, m := range re.cbParam.FindAllStringSubmatch(s, -1) {
					if name := strings.Join(m[1:], ""); !callWords[name] {
						vars[name] = dl
					}
				}
			}
			if re.cmdString.MatchString(s) {
				here = here.or(taint{kind: tDownload, line: l.n})
				lastFetch = l.n
			}
			if re.bulkSecret.MatchString(s) && !rules.EnvSubset(s) || rules.CredentialPath(s) && !strings.Contains(s, "authorized_keys") {
				here = here.or(taint{kind: tSecretBulk, line: l.n})
			}
			for _, m := range re.oneSecret.FindAllStringSubmatch(s, -1) {
				if re.secretName.MatchString(strings.Join(m[1:], "")) {
					here = here.or(taint{kind: tSecret, line: l.n})
				}
			}
			used := refTaint(s)
			all := here.or(used)
			// A process that is curl -o NAME downloads into NAME; the
			// line itself runs curl, not what it fetches.
			runT := all
			if procDL {
				// curl -F f=@path, --data @path, -T path: the process
				// uploads what the names it is handed hold.
				if st := joinCall(reg[i:]); procUploadRe().MatchString(st) {
					t := refTaint(st)
					if rules.CredentialPath(st) {
						t = t.or(taint{kind: tSecretBulk, line: l.n})
					}
					if t.secret() {
						// The item goes on the argument that carries it.
						at := l.n
						for _, a := range reg[i:min(i+strings.Count(st, "\n"), len(reg))] {
							if refTaint(a.text).secret() || rules.CredentialPath(a.text) {
								at = a.n
								break
							}
						}
						fs.report(at, hit{id: "secret-send", title: "uploads a credential file or secrets with curl (data from line " + itoa(t.line) + ")", source: t.line})
					}
				}
				for _, m := range re.procOut.FindAllStringSubmatch(joinCall(reg[i:]), -1) {
					vars[m[1]+m[2]] = taint{kind: tDownload, line: l.n}
				}
				if !re.cmdString.MatchString(s) {
					runT = used
				}
			}
			// A call that spans lines is read with its arguments.
			stmt, stmtT := s, all
			if strings.Count(s, "(")+strings.Count(s, "{") > strings.Count(s, ")")+strings.Count(s, "}") &&
				(re.sendSink.MatchString(s) || re.execSink.MatchString(s) || re.procSink.MatchString(s)) {
				stmt = joinCall(reg[i:])
				stmtT = stmtT.or(refTaint(stmt))
				if !procDL && re.procSink.MatchString(s) {
					// Popen(\n [path, …]): the program is on the next line.
					runT = runT.or(refTaint(stmt))
				}
				if re.bulkSecret.MatchString(stmt) {
					stmtT = stmtT.or(taint{kind: tSecretBulk, line: l.n})
				}
			}
			aliasRun := false
			for name := range aliases {
				if callsName(s, name) {
					aliasRun = true
				}
			}
			if pkgInit && ts != "" {
				ind := len(s) - len(strings.TrimLeft(s, " \t"))
				if pyBlockIndent >= 0 && ind <= pyBlockIndent {
					pyBlockIndent = -1
				}
				if m := re.pyBlock.FindStringSubmatch(s); m != nil && pyBlockIndent < 0 {
					pyBlockIndent = len(m[1])
				} else if pyBlockIndent < 0 && re.pyProc.MatchString(s) && !versionProbe(stmt) {
					fs.report(l.n, hit{id: "import-time-process"})
				}
			}
			// Not a test run's: a fixture that starts a server in its own
			// session stops it when the tests end.
			background := fs.info.BuildCode != "" && !testRunCode(fs.info.BuildCode) && re.procSink.MatchString(s) && re.detached.MatchString(stmt)
			if background {
				fs.report(l.n, hit{id: "install-background-process", why: rules.Must("install-background-process").Why + " — " + fs.info.BuildCode})
			} else if lastFetch > 0 && fs.info.BuildCode == "" && !runT.runs() && re.procSink.MatchString(s) && re.detached.MatchString(stmt) && rules.HidesOutput(stmt) {
				// Whatever runs this file, it fetched a program and then left
				// one running with nothing shown: the loader's shape, not a
				// CLI's update check (which fetches inside the child). What
				// the download itself wrote, started here, is a download run.
				fs.report(l.n, hit{id: "install-background-process", title: "starts a detached process with its output hidden, after fetching (line " + itoa(lastFetch) + ")", source: lastFetch,
					why: "the script returns and the process keeps running, out of the log's sight, with the runner's network and secrets (as the Shai-Hulud loader started its payload)"})
			}
			// A detached process started while the package loads: from a Go
			// init() (its own session set up in the lines before), or at the
			// top level of a JavaScript package's index with its output hidden.
			if strings.HasPrefix(l.text, "func init()") {
				inInit = true
			} else if l.text == "}" {
				inInit, initDetached = false, false
			}
			if inInit && re.detached.MatchString(s) {
				initDetached = true
			}
			switch {
			case background:
			case inInit && initDetached && (strings.Contains(s, ".Start()") || strings.Contains(s, ".Run()")):
				fs.report(l.n, hit{id: "import-time-process", title: "starts a detached process from init() (runs on import)",
					why: "any program or test that imports the package starts it, and it keeps running after they exit, out of their output's sight"})
			case jsIndex && l.text == strings.TrimLeft(l.text, " \t") && re.procSink.MatchString(s) && re.detached.MatchString(stmt) && rules.HidesOutput(stmt):
				fs.report(l.n, hit{id: "import-time-process", title: "starts a detached process with its output hidden when the module is loaded",
					why: "every program that requires the package starts it, and it keeps running after they exit, out of their output's sight"})
			}
			if re.stdinShell.MatchString(s) {
				stdinShell = true
				if m := re.assign.FindStringSubmatch(s); m != nil {
					shellRecv = m[1]
				}
			}
			// Sinks.
			noRun := re.noRun.MatchString(s)
			switch {
			case noRun:
			case (re.execSink.MatchString(s) || aliasRun) && runT.runs():
				fs.reportRun(l.n, runT)
			case re.procSink.MatchString(s) && runT.runs() && !decodedArgument(stmt, runT):
				fs.reportRun(l.n, runT)
			case stdinShell && (strings.Contains(s, ".Stdin =") || strings.Contains(s, ".Stdin=")) && runT.runs():
				// The shell runs it when the command is started.
				stdinRecv, stdinT = strings.TrimSpace(s[:strings.Index(s, ".Stdin")]), runT
			case shellRecv != "" && strings.Contains(s, shellRecv+".stdin") && (strings.Contains(s, ".write") || strings.Contains(s, ".end(")) && runT.runs(),
				shellRecv != "" && strings.Contains(s, shellRecv+".communicate(") && runT.runs():
				// What is written to a shell's stdin is its script.
				fs.reportRun(l.n, runT)
			case stdinRecv != "" && (strings.Contains(s, stdinRecv+".Run()") || strings.Contains(s, stdinRecv+".Start()") ||
				strings.Contains(s, stdinRecv+".Output()") || strings.Contains(s, stdinRecv+".CombinedOutput()")):
				fs.reportRun(l.n, stdinT)
			case initLine > 0 && re.goInitShell.MatchString(s):
				// A shell command built at run time and started from init():
				// importing the package runs it, and the diff does not
				// spell the command out.
				fs.report(l.n, hit{id: "download-and-run", title: "starts a shell on a command built at run time, from init() (runs on import)",
					why: "any program or test that imports the package runs it, and what it runs is assembled so the diff does not show it", source: initLine})
			case lastDownload > 0 && lastDownload < l.n && l.n-lastDownload <= 10 && re.evalName.MatchString(s):
				// eval(d) a few lines after a download: the callback that
				// collected the response runs it.
				fs.report(l.n, hit{id: "download-and-run", title: "runs code a few lines after downloading (line " + itoa(lastDownload) + ")", source: lastDownload})
			case re.procSink.MatchString(s) && fs.info.BuildCode != "" && lastDownload > 0 && lastDownload < l.n && !background && !inDL &&
				sharesName(stmt, dlNames) && !inertProcess(stmt):
				// Started just after the download, or given a name or path
				// the download wrote: a later tool run on other files (gn,
				// python, git) is not what was fetched.
				fs.report(l.n, hit{id: "download-and-run", title: "starts a process after downloading (line " + itoa(lastDownload) + ") in code that runs by itself",
					why: "nobody has to call it: " + fs.info.BuildCode + ", and it fetches and starts what the diff does not show", source: lastDownload})
			}
			for _, m := range re.dynCall.FindAllStringSubmatch(s, -1) {
				key := m[1]
				kt := refTaint(key)
				if re.decode.MatchString(key) {
					kt = kt.or(taint{kind: tDecode, line: l.n})
				}
				for name, at := range decoders {
					if callsName(key, name) {
						kt = kt.or(taint{kind: tDecode, line: at})
					}
				}
				if kt.kind&tDecode != 0 && !noRun {
					fs.report(l.n, hit{id: "decode-and-run", title: "calls a function whose name is decoded at run time", source: kt.line})
				}
			}
			if re.sendSink.MatchString(s) && stmtT.secret() && !strings.HasPrefix(ts, "import ") && sentBeyondClient(s, stmt, here, refTaint, re.sendSink).secret() {
				if !stmtT.bulk() && rules.SentToOwnHost(fs.text[stmtT.line]+"\n"+fs.text[refTaint(stmt).line], fs.urlText(stmt)) {
					fs.report(l.n, hit{id: "secret-send", severity: rules.Medium, title: "sends a secret to its own service's host", source: stmtT.line})
				} else if stmtT.bulk() || !forgeFile {
					fs.report(l.n, hit{id: "secret-send", source: stmtT.line})
				}
			}
			if re.getSink.MatchString(s) && stmtT.bulk() && !re.sendSink.MatchString(s) {
				// The environment or a credential file in a GET's URL or
				// parameters leaves as surely as in a POST's body.
				fs.report(l.n, hit{id: "secret-send", source: stmtT.line})
			} else if loc := re.getSink.FindStringIndex(s); loc != nil && !re.sendSink.MatchString(s) {
				// One secret in the URL itself (not a header) goes to the
				// URL's host: high when it was encoded on the way, or is a
				// credential no API takes in a URL (a cloud key, a CI token).
				u := rules.FirstArg(s[loc[1]:])
				if ut := refTaint(u); ut.secret() && !provenance.ForgeURL(u) {
					for _, m := range re.oneSecret.FindAllStringSubmatch(u, -1) {
						if re.secretName.MatchString(strings.Join(m[1:], "")) {
							ut = ut.or(taint{kind: tSecret, line: l.n})
						}
					}
					if encodesSecret().MatchString(u) || signingCredential().MatchString(fs.text[ut.line]) {
						fs.report(l.n, hit{id: "secret-send", title: "puts a secret (line " + itoa(ut.line) + ") in the URL it fetches", source: ut.line})
					}
				}
			}
			if loc := re.handleSend.FindStringSubmatchIndex(s); loc != nil && requests[s[loc[2]:loc[3]]] > 0 && stmtT.secret() {
				// The data sent is what the call is handed, not the
				// request it is sent on (which holds the download's line).
				src := stmtT.line
				if argT := refTaint(s[loc[1]:]); argT.secret() {
					src = argT.line
				}
				fs.report(l.n, hit{id: "secret-send", source: src})
				if at := requests[s[loc[2]:loc[3]]]; at != l.n && stmtT.bulk() {
					// The request opened on that line is what carries the
					// environment out; the vetter reads it there.
					fs.report(at, hit{id: "secret-send", title: "opens the request that line " + itoa(l.n) + " sends the environment with", source: src})
				}
			}
			if re.dnsSink.MatchString(s) && re.dnsName.MatchString(stmt) && (identity > 0 || stmtT.secret()) {
				src := identity
				if stmtT.secret() {
					src = stmtT.line
				}
				fs.report(l.n, hit{id: "dns-exfiltration", source: src})
			}
			if here.runs() && fetched == 0 {
				fetched = l.n
			}
			if m := re.outParam.FindStringSubmatch(s); m != nil {
				if t := all.or(refTaint(s)); t.runs() || t.bulk() {
					vars[m[1]+m[2]] = t
				}
			}
			if m := re.progArg.FindStringSubmatch(stmt); m != nil && fetched > 0 && fetched < l.n && !noRun && !inertProcess(stmt) {
				if at := written[m[1]]; at > 0 {
					fs.report(l.n, hit{id: "download-and-run", title: "starts the file line " + itoa(at) + " wrote, in code that downloads or decodes (line " + itoa(fetched) + ")",
						why: "the file's bytes are not in the diff, and this code fetched or decoded bytes before writing it: what starts is most likely what it fetched", source: fetched})
				}
			}
			// A call of a function that writes the file its argument names,
			// given a profile's path, writes the profile.
			for name, at := range writers {
				if at < l.n && callsName(s, name) && !re.funcDecl.MatchString(s) {
					if args := callArgs(s, name); startupPath(args) || refProfile(args) > 0 {
						fs.report(l.n, hit{id: "persistence", title: "hands a shell profile or start-up file to " + name + ", which writes it (line " + itoa(at) + ")", source: refProfile(args)})
					}
				}
			}
			// Writes: persistence, and files that now hold tainted data.
			if w := re.writeSink.FindStringSubmatch(s); w != nil {
				target := strings.TrimSpace(strings.Join(w[1:], ""))
				if k := strings.Trim(strings.TrimLeft(target, "&*"), " "); k != "" {
					written[k] = l.n
				}
				// The file written is the target where the call names one (a
				// settings file's data written elsewhere is not the file).
				if curFunc != "" && slices.Contains(curParams, strings.Trim(strings.TrimLeft(target, "&*"), " ")) {
					writers[curFunc] = l.n
				}
				if startupPath(s) || refProfile(target) > 0 || target == "" && refProfile(s) > 0 {
					fs.report(l.n, hit{id: "persistence", source: refProfile(s)})
				} else if (rules.GitHookPath(s) || refHook(s)) && all.runs() {
					// A hook that fetches or decodes code runs it at every
					// checkout or merge in the clone; one that lints is set-up.
					fs.report(l.n, hit{id: "persistence", title: "writes a git hook that runs fetched or decoded code", source: all.line})
				} else if (all.runs() || all.bulk()) && target != "" {
					// A file that holds the environment or a credential file
					// is sent as surely as the data (Set-Content $f; -InFile $f).
					files[strings.Trim(strings.TrimLeft(target, "&*"), " ")] = all
				}
			} else if m := re.profileAppend.FindStringSubmatch(s); m != nil && profiles[m[1]] > 0 {
				fs.report(l.n, hit{id: "persistence", source: profiles[m[1]]})
			}
			if m := re.recvWrite.FindStringSubmatch(s); m != nil {
				written[m[1]] = l.n
				if all.runs() || all.bulk() {
					vars[m[1]] = all
				}
			}
			if m := re.copyTo.FindStringSubmatch(s); m != nil {
				src, dst := m[1]+m[3], strings.TrimLeft(m[2]+m[4], "$")
				t := refTaint(src)
				if rules.CredentialPath(src) {
					t = t.or(taint{kind: tSecretBulk, line: l.n})
				}
				if t.runs() || t.bulk() {
					vars[dst] = t
				}
			}
			if m := re.letBind.FindStringSubmatch(s); m != nil {
				if t := here.or(refTaint(m[2])); t.kind != 0 {
					vars[m[1]] = t
				}
			}
			if m := re.createFile.FindStringSubmatch(s); m != nil {
				handles[m[1]] = m[2]
				written[m[2]] = l.n
			}
			if m := re.streamCopy.FindStringSubmatch(s); m != nil {
				src, dst := m[1]+m[3]+m[5]+m[8], m[2]+m[4]+m[6]+m[7]
				if t := refTaint(src); t.runs() || t.bulk() {
					vars[dst] = t
					if p, ok := handles[dst]; ok {
						vars[p] = t // the path the handle writes holds it too
					}
				}
			}
			if m := re.withBind.FindStringSubmatch(s); m != nil {
				if t := here.or(refTaint(m[1])); t.kind != 0 {
					vars[m[2]] = t
				}
			}
			if m := re.openHandle.FindStringSubmatch(s); m != nil {
				target := strings.TrimSpace(m[1] + m[4] + m[5])
				written[target] = l.n
				if curFunc != "" && slices.Contains(curParams, target) {
					writers[curFunc] = l.n
				}
				if startupPath(target) || refProfile(target) > 0 {
					fs.report(l.n, hit{id: "persistence", source: refProfile(target)})
				}
				if m[3] != "" {
					handles[m[3]] = target
				} else if strings.Contains(s[strings.Index(s, m[0]):], ".write(") && all.runs() {
					files[target] = all
				}
			}
			if m := re.handleWrite.FindStringSubmatch(s); m != nil {
				if p, ok := handles[m[1]]; ok && all.runs() && (rules.GitHookPath(p) || refHook(p)) {
					fs.report(l.n, hit{id: "persistence", title: "writes a git hook that runs fetched or decoded code", source: all.line})
				}
				if p, ok := handles[m[1]]; ok && all.runs() {
					files[p] = all
					vars[m[1]] = all // tmp.name names what tmp.write wrote
				} else if all.runs() {
					vars[m[1]] = all // f.Name() names what f.Write wrote
				}
			}
			if m := re.alias.FindStringSubmatch(s); m != nil {
				aliases[m[1]] = true
			}
			// Loops bind their name to the items: for rc of ['.bashrc', ...].
			if m := re.forBind.FindStringSubmatch(s); m != nil {
				rhs := m[2] + m[3] + m[5]
				// for k, v in os.environ.items(): every name bound holds the items.
				for _, name := range strings.Split(m[1]+m[4]+m[6], ",") {
					name = strings.TrimLeft(strings.TrimSpace(name), "$")
					if t := here.or(refTaint(rhs)); t.kind != 0 {
						vars[name] = t
					}
					if startupPath(rhs) {
						profiles[name] = l.n
					} else if n := refProfile(rhs); n > 0 {
						profiles[name] = n
					}
				}
			}
			for _, m := range re.fill.FindAllStringSubmatch(s, 4) {
				if t := here.or(refTaint(m[2] + m[3])); t.kind != 0 {
					vars[m[1]] = vars[m[1]].or(t)
				}
			}
			// body += chunk inside a callback: the name gathers what the
			// chunk holds.
			if inDL {
				for _, m := range re.accum.FindAllStringSubmatch(s, 2) {
					if t := here.or(refTaint(m[2])); t.kind != 0 {
						vars[m[1]] = vars[m[1]].or(t)
					}
				}
			}
			// Assignments carry what their right side holds.
			if m := re.augAssign.FindStringSubmatch(s); m != nil {
				name, rhs := m[1], m[2]
				if t := here.or(refTaint(rhs)); t.kind != 0 {
					vars[name] = vars[name].or(t)
				}
			} else if m := re.assign.FindStringSubmatch(s); m != nil {
				name, rhs := m[1], m[2]
				ut := refTaint(rhs)
				if re.procSink.MatchString(rhs) && !re.sendSink.MatchString(rhs) {
					// A process's result is not the environment it was given.
					ut.kind &^= tSecretBulk
				}
				if ut.bulk() && rules.PicksOnly(rhs, func(n string) bool { return vars[n].bulk() }) {
					ut.kind = ut.kind&^tSecretBulk | tSecret // token = env.get("TOKEN"): one value
				}
				t := here.or(ut)
				if open := strings.TrimSpace(rhs); strings.HasSuffix(open, "{") || strings.HasSuffix(open, "[") || strings.HasSuffix(open, "(") {
					// An object or list spread over lines: { env: process.env, … }.
					lit := joinCall(reg[i:])
					t = t.or(refTaint(lit))
					if re.bulkSecret.MatchString(lit) {
						t = t.or(taint{kind: tSecretBulk, line: bulkLine(reg[i:], re.bulkSecret)})
					}
				}
				if t.kind != 0 {
					vars[name] = t
				} else {
					delete(vars, name)
				}
				if rules.GitHookPath(rhs) {
					hookPaths[name] = true
				}
				if startupPath(rhs) {
					profiles[name] = l.n
				} else if n := refProfile(rhs); n > 0 {
					profiles[name] = n
				}
				if tempFileRe().MatchString(rhs) {
					handles[name] = name
				}
				if re.sendSink.MatchString(rhs) || re.download.MatchString(rhs) || strings.Contains(rhs, "connect(") || strings.Contains(rhs, "createConnection(") {
					requests[name] = l.n
				}
			}
		}
	}
}

// startupPath reports, in a program, a file that runs again by itself
// later: a shell profile or authorized_keys, and the start-up file only a
// program's write is read for (rules.StartupPath).
func startupPath(s string) bool { return rules.ProfilePath(s) || rules.StartupPath(s) }

// urlText is where a statement sends: its own URLs, or else those the
// file names (a URL kept in a constant).
func (fs *fileScan) urlText(stmt string) []string {
	if strings.Contains(stmt, "://") {
		return []string{stmt}
	}
	return urlsOf(fs.text)
}

// testRunCode reports build code that runs at test time (conftest.py, a
// test runner's config, nox), not at install or build.
func testRunCode(buildCode string) bool {
	return strings.HasPrefix(buildCode, "conftest.py") || strings.HasPrefix(buildCode, "the test runner") || strings.HasPrefix(buildCode, "nox")
}

// versionProbe reports a process that asks git or the compiler for a
// version, as packages do at import to name their own version.
func versionProbe(stmt string) bool { return versionProbeRe().MatchString(stmt) }

var versionProbeRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`["'](?:git|hg|nvcc|gcc|cc|clang|uname|nvidia-smi|lscpu|sysctl)["']`)
})

var (
	encodesSecret = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bbase64_encode\(|\bb64encode\(|\bbtoa\(|\.toString\(\s*['"](?:base64|hex)['"]|\bbin2hex\(|\bhexlify\(|\.hex\(\)|\bbase64\.\w*Encoding\.EncodeToString\(`)
	})
	// signingCredential names credentials that sign or authenticate and
	// are never a URL's part: cloud keys and CI and registry tokens.
	signingCredential = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:AWS_(?:SECRET_ACCESS_KEY|ACCESS_KEY_ID|SESSION_TOKEN)|GITHUB_TOKEN|GH_TOKEN|ACTIONS_\w*TOKEN|NPM_TOKEN|NODE_AUTH_TOKEN|PYPI_\w*TOKEN|TWINE_PASSWORD|AZURE_CLIENT_SECRET|GOOGLE_APPLICATION_CREDENTIALS|CARGO_REGISTRY_TOKEN|DOCKER_PASSWORD|NUGET_(?:API_KEY|AUTH_TOKEN|TOKEN)|CI_JOB_TOKEN|GITLAB_TOKEN|CI_JOB_JWT\w*|DOCKERHUB_TOKEN|DOCKER_HUB_TOKEN|GEM_HOST_API_KEY|RUBYGEMS_API_KEY|ARM_CLIENT_SECRET|GOOGLE_CREDENTIALS|GCP_SA_KEY|VAULT_TOKEN|HEROKU_API_KEY|VERCEL_TOKEN|NETLIFY_AUTH_TOKEN|CLOUDFLARE_API_TOKEN|ACTIONS_CACHE_URL|ACTIONS_RESULTS_URL)\b`)
	})
)

// bulkLine is the first line of reg (an object or list spread over lines)
// that reads the whole environment.
func bulkLine(reg []numbered, re *regexp.Regexp) int {
	for i, l := range reg {
		if i >= 24 {
			break
		}
		if re.MatchString(l.text) {
			return l.n
		}
	}
	return reg[0].n
}

// callsName reports a call of name in s: name( not preceded by a letter,
// a digit or a dot.
func callsName(s, name string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], name+"(")
		if j < 0 {
			return false
		}
		j += i
		if j == 0 || !isIdentByte(s[j-1]) && s[j-1] != '.' {
			return true
		}
		i = j + 1
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// joinCall joins a call's lines, from the line that opens it to the one
// that closes its brackets (at most a screenful).
// stmtNames returns the names a statement uses outside its string
// literals, and the path-like literals it holds (where a download went),
// leaving out the words every call is written with.
func stmtNames(st string) map[string]bool {
	out := map[string]bool{}
	for _, q := range stmtLiteral().FindAllStringSubmatch(st, -1) {
		if lit := q[1] + q[2]; strings.ContainsAny(lit, "/\\.") && !strings.Contains(lit, "://") && len(lit) > 3 {
			out[lit] = true
		}
	}
	for _, w := range codeRe().ident.FindAllString(stmtLiteral().ReplaceAllString(st, `""`), -1) {
		w = strings.TrimLeft(w, "$")
		if len(w) > 2 && !callWords[w] {
			out[w] = true
		}
	}
	return out
}

// sharesName reports whether a statement uses one of the names or paths.
func sharesName(st string, names map[string]bool) bool {
	if len(names) == 0 {
		return false
	}
	for n := range names {
		if strings.ContainsAny(n, "/\\.") {
			if strings.Contains(st, n) {
				return true
			}
		}
	}
	for _, w := range codeRe().ident.FindAllString(stmtLiteral().ReplaceAllString(st, `""`), -1) {
		if names[strings.TrimLeft(w, "$")] {
			return true
		}
	}
	return false
}

var stmtLiteral = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"([^"\n]*)"|'([^'\n]*)'`) })

// callWords are the words of a call that say nothing of its data.
var callWords = map[string]bool{"let": true, "mut": true, "const": true, "var": true, "new": true, "Command": true, "arg": true, "args": true,
	"status": true, "output": true, "spawn": true, "unwrap": true, "expect": true, "curl": true, "wget": true, "get": true, "call": true,
	"Some": true, "None": true, "Err": true, "self": true, "std": true, "env": true, "String": true, "str": true, "to_string": true,
	"format": true, "Path": true, "PathBuf": true, "join": true, "into": true, "from": true, "clone": true, "success": true, "assert": true,
	"process": true, "subprocess": true, "run": true, "check": true, "True": true, "False": true, "true": true, "false": true, "null": true,
	"nil": true, "err": true, "await": true, "return": true, "exec": true, "Command::new": true, "current_dir": true, "stdout": true, "stderr": true}

// inertProcess reports a process started on a program that unpacks,
// checks or moves a file rather than runs it.
func inertProcess(st string) bool {
	m := inertProcRe().FindStringSubmatch(st)
	return m != nil
}

var inertProcRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:Command::new|exec\.Command(?:Context)?|spawnSync|spawn|execFileSync|execFile|subprocess\.\w+|Popen)\s*\(\s*(?:ctx\s*,\s*)?\[?\s*["'](?:tar|unzip|7z|gzip|gunzip|xz|sha256sum|shasum|gpg|cp|mv|mkdir|rm|ls)["']`)
})

func joinCall(reg []numbered) string {
	var b strings.Builder
	depth := 0
	for i, l := range reg {
		if i >= 24 {
			break
		}
		b.WriteString(l.text)
		b.WriteByte('\n')
		depth += strings.Count(l.text, "(") + strings.Count(l.text, "{") - strings.Count(l.text, ")") - strings.Count(l.text, "}")
		if depth <= 0 {
			// A builder chain goes on with a line that starts with a
			// method call: Command::new("curl")\n .arg(&out)\n .status().
			if i+1 < len(reg) && strings.HasPrefix(strings.TrimSpace(reg[i+1].text), ".") {
				continue
			}
			break
		}
	}
	return b.String()
}

func (fs *fileScan) reportRun(n int, t taint) {
	switch {
	case t.kind&tDownload != 0:
		title := ""
		if t.line != n {
			title = "runs what line " + itoa(t.line) + " downloaded"
		}
		fs.report(n, hit{id: "download-and-run", title: title, source: t.line})
	default:
		title := ""
		if t.line != n {
			title = "runs what line " + itoa(t.line) + " decoded"
		}
		fs.report(n, hit{id: "decode-and-run", title: title, source: t.line})
	}
}

// tempFileRe matches a temporary file opened for writing: what is written
// to it is what a later line runs by its name.
var tempFileRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\btempfile\.(?:NamedTemporaryFile|TemporaryFile|mkstemp)\(`)
})

// sentBeyondClient is what a send statement carries once the client it is
// called on is left out: octokit.rest.issues.createComment(…) on a client
// made with the token sends the comment, and the token only as the
// client's authentication, to the service it is for.
func sentBeyondClient(s, stmt string, here taint, refTaint func(string) taint, sink *regexp.Regexp) taint {
	loc := sink.FindStringIndex(s)
	if loc == nil {
		return here.or(refTaint(stmt))
	}
	start := loc[0]
	if s[start] != '.' {
		return here.or(refTaint(stmt))
	}
	// The receiver is the identifier chain right before the method.
	r := start
	for r > 0 && (isIdentByte(s[r-1]) || s[r-1] == '.') {
		r--
	}
	if r == start || !strings.HasPrefix(stmt, s[:start]) {
		return here.or(refTaint(stmt))
	}
	// Cut the receiver where it stands, not its first look-alike.
	return here.or(refTaint(stmt[:r] + stmt[start:]))
}

// procUploadRe is a curl or wget argument that sends a file or data.
var procUploadRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`["'](?:-F|--form|-d|--data(?:-binary|-raw|-urlencode)?|-T|--upload-file|--post-file|--body-file)["'\s=]|=@`)
})

var namedProgRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:Command::new|exec\.Command(?:Context)?|execFile(?:Sync)?|spawn(?:Sync)?|Popen|subprocess\.\w+|ProcessBuilder)\s*\(\s*(?:ctx\s*,\s*)?\[?\s*["'\x60]([^"'\x60]+)["'\x60]`)
})

// decodedArgument reports a process whose program the code names (openssl,
// git), not a shell or an interpreter, started with decoded bytes among its
// arguments: they are its data (a certificate, a key), not what runs.
func decodedArgument(stmt string, t taint) bool {
	if t.kind&^tDecode != 0 {
		return false
	}
	m := namedProgRe().FindStringSubmatch(stmt)
	if m == nil {
		return false
	}
	p := strings.TrimSuffix(strings.ToLower(path.Base(m[1])), ".exe")
	return !rules.ShellName(p) && !rules.InterpName(p) && p != "cmd" && p != "java" && p != "rundll32" && p != "regsvr32" && p != "mshta" && !strings.HasSuffix(p, "script")
}

// funcParams returns the parameter names of the function name declares on
// s: function f(a, b), def f(self, path, line="x"), fn f(p: &Path),
// const f = (a, b) =>.
func funcParams(s, name string) []string {
	i := strings.Index(s, name)
	if i < 0 {
		return nil
	}
	rest := s[i+len(name):]
	open := strings.IndexByte(rest, '(')
	if open < 0 {
		return nil
	}
	end := strings.IndexByte(rest[open:], ')')
	if end < 0 {
		end = len(rest) - open
	}
	var out []string
	for _, p := range strings.Split(rest[open+1:open+end], ",") {
		p = strings.TrimLeft(strings.TrimSpace(p), "*&$")
		p = strings.TrimPrefix(p, "mut ")
		if id := codeRe().ident.FindString(p); id != "" && strings.HasPrefix(p, id) && id != "self" && id != "this" {
			out = append(out, strings.TrimLeft(id, "$"))
		}
	}
	return out
}

// callArgs returns the text of the first call of name on s, from its
// opening parenthesis to the line's end.
func callArgs(s, name string) string {
	for i := 0; ; {
		j := strings.Index(s[i:], name+"(")
		if j < 0 {
			return ""
		}
		j += i
		if j == 0 || !isIdentByte(s[j-1]) && s[j-1] != '.' {
			return s[j+len(name):]
		}
		i = j + 1
	}
}
