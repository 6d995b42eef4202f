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
	"regexp"
	"strings"
	"sync"
)

type codeRes struct {
	assign, ident, str                                  *regexp.Regexp
	decode, download, bulkSecret, oneSecret, secretName *regexp.Regexp
	execSink, procSink, sendSink, writeSink, openHandle *regexp.Regexp
	handleWrite                                         *regexp.Regexp
}

var codeRe = sync.OnceValue(func() *codeRes {
	return &codeRes{
		assign:      regexp.MustCompile(`^\s*(?:export\s+)?(?:(?:const|let|var|my|local|final|static)\s+)?(?:mut\s+)?\$?([A-Za-z_][\w]*)\s*(?::\s*[\w<>\[\], .:&']+)?\s*(?:=|:=)\s*([^=].*)$`),
		ident:       regexp.MustCompile(`[A-Za-z_$][\w$]*`),
		str:         regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|` + "`(?:[^`\\\\]|\\\\.)*`"),
		decode:      regexp.MustCompile(`Buffer\.from\([^)]*['"](?:hex|base64|base64url)['"]|\batob\(|String\.fromCharCode\b|fromCharCode\(|\bb(?:64|32|16|85)decode\(|\ba85decode\(|\bbytes\.fromhex\(|\bunhexlify\(|\bcodecs\.decode\(|\bzlib\.decompress\(|\b(?:inflate|gunzip|brotliDecompress)(?:Sync)?\(|\.decode\(\s*['"](?:hex|base64|rot13)|\bBase64\.(?:decode64|strict_decode64|urlsafe_decode64)\b|\.unpack1?\(\s*['"](?:m|H\*)|\bbase64_decode\(|\bhex2bin\(|\bgzinflate\(|\bstr_rot13\(|\bbase64::decode\b|\bSTANDARD\.decode\(|\bhex::decode\(|\bmarshal\.loads\(|\bdecode_base64\(|\bpack\(\s*['"]H\*|\.reverse\(\)\.join\(|\\x[0-9a-fA-F]{2}(?:\\x[0-9a-fA-F]{2}){15}`),
		download:    regexp.MustCompile(`\bfetch\(|\bhttps?\.(?:get|request)\(|\baxios\b|\brequire\(['"](?:request|got|node-fetch)['"]\)|\bgot\(|\burlopen\(|\burllib\.request\b|\brequests\.(?:get|post|request)\(|\bhttpx\.(?:get|stream)\(|\breqwest::|\bureq::|\bNet::HTTP\b|\bURI\.open\b|\bopen-uri\b|file_get_contents\(\s*['"]https?:|\bcurl_exec\(|\bwget\.download\(|\burlretrieve\(`),
		bulkSecret:  regexp.MustCompile(`\bprocess\.env\b(?:\s*[),;}\]]|\s*$)|JSON\.stringify\(\s*process\.env|\{\s*\.\.\.process\.env|\bos\.environ\b(?:\s*[),;}\]]|\.copy\(\)|\.items\(\)|\s*$)|\bdict\(\s*os\.environ|\bENV\.to_h\b|\bstd::env::vars\(\)|\bgetenv\(\)|\$_ENV\b|\$_SERVER\b`),
		oneSecret:   regexp.MustCompile(`\bprocess\.env\.([A-Za-z_]\w*)|\bprocess\.env\[['"]([A-Za-z_]\w*)['"]\]|\bos\.environ\[['"]([A-Za-z_]\w*)['"]\]|\bos\.(?:environ\.get|getenv)\(\s*['"]([A-Za-z_]\w*)['"]|\bENV\[['"]([A-Za-z_]\w*)['"]\]|\benv::var\(\s*"([A-Za-z_]\w*)"|\bgetenv\(\s*['"]([A-Za-z_]\w*)['"]`),
		execSink:    regexp.MustCompile(`\beval\(|\beval\s+\$|\bnew\s+Function\(|(?:^|[^.\w])Function\(|\._compile\(|\bvm\.(?:runIn\w*|Script|compileFunction)\b|\brunIn(?:This|New)Context\(|\bnew\s+vm\.Script\b|\bexec\(|\bcompile\(|\b__import__\(|\bimportlib\.|\binstance_eval\b|\bclass_eval\b|\bKernel\.eval\b|\bmarshal\.loads\(|\bpickle\.loads\(|\bmodule\.constructor\b|\bnew\s+Module\(|\brequire\(\s*[A-Za-z_$]|\bimport\(\s*[A-Za-z_$'"]|\bassert\(\s*\$|\bcreate_function\(`),
		procSink:    regexp.MustCompile(`\bchild_process\b|\bexecSync\(|\bexecFile(?:Sync)?\(|\bspawn(?:Sync)?\(|\bos\.system\(|\bos\.popen\(|\bsubprocess\.|\bos\.exec\w*\(|\bCommand::new\(|\bsystem\(|\bshell_exec\(|\bpassthru\(|\bproc_open\(|\bpopen\(|\bIO\.popen\b|\bOpen3\b|%x\{|\bexec\.Command\(`),
		sendSink:    regexp.MustCompile(`\bfetch\(|\bhttps?\.request\(|\baxios(?:\.\w+)?\(|\brequest\.post\(|\brequests\.(?:post|put|patch)\(|\burlopen\(|\burllib\.request\.Request\(|\bhttpx\.(?:post|put)\(|\.sendall?\(|\bdns\.(?:resolve|lookup)\w*\(|\bNet::HTTP\.post\b|\bnew\s+WebSocket\(|\.post\(|\.put\(|\bXMLHttpRequest\b|\bsock(?:et)?\.send\(|\.write\(`),
		writeSink:   regexp.MustCompile(`\b(?:appendFile|writeFile)(?:Sync)?\(\s*([^,]+),|\bcreateWriteStream\(\s*([^,)]+)|\bfs::write\(\s*([^,]+),|\bFile\.(?:write|open)\(\s*([^,]+),|\.write_(?:text|bytes)\(|\bfile_put_contents\(\s*([^,]+),|\bOpenOptions::new\(\)`),
		openHandle:  regexp.MustCompile(`\bopen\(\s*([^,]+?)\s*,\s*['"]([wa])b?\+?['"]\s*\)(?:\s+as\s+(\w+))?`),
		handleWrite: regexp.MustCompile(`\b(\w+)\.write\(`),
		secretName:  regexp.MustCompile(`(?i)token|secret|passw|api_?key|access_key|private_key|credential`),
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
	forgeFile := false
	for _, t := range fs.text {
		if forgeURL(t) {
			forgeFile = true
			break
		}
	}
	refTaint := func(s string) taint {
		var t taint
		for _, id := range re.ident.FindAllString(s, -1) {
			if v, ok := vars[strings.TrimLeft(id, "$")]; ok {
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
	refProfile := func(s string) int {
		for _, id := range re.ident.FindAllString(s, -1) {
			if n, ok := profiles[id]; ok {
				return n
			}
		}
		return 0
	}
	for _, reg := range fs.regions() {
		for _, l := range reg {
			s := l.text
			ts := strings.TrimSpace(s)
			if strings.HasPrefix(ts, "//") || strings.HasPrefix(ts, "#") && !strings.HasPrefix(ts, "#!") || strings.HasPrefix(ts, "* ") {
				continue
			}
			// What the line's expressions hold.
			var here taint
			if re.decode.MatchString(s) {
				here = here.or(taint{kind: tDecode, line: l.n})
			}
			if re.download.MatchString(s) {
				here = here.or(taint{kind: tDownload, line: l.n})
				lastDownload = l.n
			}
			if re.bulkSecret.MatchString(s) || credentialPath(s) && !strings.Contains(s, "authorized_keys") {
				here = here.or(taint{kind: tSecretBulk, line: l.n})
			}
			for _, m := range re.oneSecret.FindAllStringSubmatch(s, -1) {
				if re.secretName.MatchString(strings.Join(m[1:], "")) {
					here = here.or(taint{kind: tSecret, line: l.n})
				}
			}
			used := refTaint(s)
			all := here.or(used)
			// Sinks.
			switch {
			case re.execSink.MatchString(s) && all.runs():
				fs.reportRun(l.n, all)
			case re.procSink.MatchString(s) && all.runs():
				fs.reportRun(l.n, all)
			case re.procSink.MatchString(s) && fs.info.buildCode != "" && lastDownload > 0:
				fs.report(l.n, hit{id: "download-and-run", title: "starts a process after downloading (line " + itoa(lastDownload) + ") in code that runs by itself",
					why: "nobody has to call it: " + fs.info.buildCode + ", and it fetches and starts what the diff does not show", source: lastDownload})
			}
			if re.sendSink.MatchString(s) && all.secret() && !strings.HasPrefix(ts, "import ") {
				if all.bulk() || !forgeFile {
					fs.report(l.n, hit{id: "secret-send", source: all.line})
				}
			}
			// Writes: persistence, and files that now hold tainted data.
			if w := re.writeSink.FindStringSubmatch(s); w != nil {
				target := strings.TrimSpace(strings.Join(w[1:], ""))
				if profilePath(s) || refProfile(target) > 0 || strings.Contains(s, ".write_") && refProfile(s) > 0 {
					fs.report(l.n, hit{id: "persistence", source: refProfile(s)})
				} else if all.runs() && target != "" {
					files[strings.Trim(strings.TrimLeft(target, "&*"), " ")] = all
				}
			}
			if m := re.openHandle.FindStringSubmatch(s); m != nil {
				target := strings.TrimSpace(m[1])
				if profilePath(target) || refProfile(target) > 0 {
					fs.report(l.n, hit{id: "persistence", source: refProfile(target)})
				}
				if m[3] != "" {
					handles[m[3]] = target
				}
			}
			if m := re.handleWrite.FindStringSubmatch(s); m != nil {
				if p, ok := handles[m[1]]; ok && all.runs() {
					files[p] = all
				}
			}
			// Assignments carry what their right side holds.
			if m := re.assign.FindStringSubmatch(s); m != nil {
				name, rhs := m[1], m[2]
				t := here.or(refTaint(rhs))
				if t.kind != 0 {
					vars[name] = t
				} else {
					delete(vars, name)
				}
				if profilePath(rhs) {
					profiles[name] = l.n
				} else if n := refProfile(rhs); n > 0 {
					profiles[name] = n
				}
			}
		}
	}
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
