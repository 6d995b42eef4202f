package rules

// What the shell reader knows of commands and paths, as judgements on
// words and strings alone: which commands are shells, interpreters,
// decoders and installers, which flags they were given, and which paths
// hold credentials or run again later (profiles, cron).

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// HasWordFold reports a word, any case (Windows flags).
func HasWordFold(words []string, w string) bool {
	for _, x := range words[1:] {
		if strings.EqualFold(x, w) {
			return true
		}
	}
	return false
}

// HasFlag reports a short flag (alone or bundled: -kc) or a long one.
func HasFlag(words []string, short, long string) bool {
	for _, w := range words[1:] {
		if w == long || strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w[1:], short) {
			return true
		}
	}
	return false
}

// ShellVar reports $SHELL and $BASH, which name a shell.
func ShellVar(w string) bool {
	w = strings.Trim(w, "${}")
	return w == "SHELL" || w == "BASH" || w == "0"
}

// ShellName reports a command that is a shell: what it is given (-c, a
// file, standard input) runs as a script.
func ShellName(n string) bool {
	switch n {
	case "sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "yash", "oksh", "pdksh", "tcsh", "csh", "fish", "pwsh", "powershell", "powershell.exe":
		return true
	}
	return false
}

// InterpName reports a command that is a language interpreter: what it
// is given (-c, -e, a file, standard input) runs as a program.
func InterpName(n string) bool {
	switch {
	case n == "perl" || n == "ruby" || n == "node" || n == "nodejs" || n == "php" || n == "deno" || n == "bun" || n == "lua" || n == "luajit":
		return true
	case n == "osascript" || n == "tclsh":
		// AppleScript's do shell script and Tcl's exec start any program.
		return true
	case strings.HasPrefix(n, "python") || strings.HasPrefix(n, "pypy"):
		return true
	}
	return false
}

// ScriptRun returns the script file a command runs (words are the
// command's, unquoted): an interpreter's or a shell's file operand, or a
// program named by its path (./configure.sh); "" for inline code (-c, -e,
// -p), a module run by name (python -m) or a command that is not a script.
func ScriptRun(words []string) string {
	for len(words) > 1 && (words[0] == "nohup" || words[0] == "setsid" || words[0] == "exec" || words[0] == "env") {
		words = words[1:]
	}
	if len(words) == 0 {
		return ""
	}
	name := path.Base(words[0])
	if !ShellName(name) && !InterpName(name) {
		if strings.Contains(words[0], "/") || scriptExt(words[0]) {
			return words[0]
		}
		return ""
	}
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "-c" || w == "-e" || w == "-p" || w == "-m" || w == "--eval" || w == "--print" || strings.HasPrefix(w, "--eval=") || strings.HasPrefix(w, "--print="):
			return ""
		case w == "-r" || w == "--require" || w == "-W" || w == "-X":
			i++ // an option with its value
		case (name == "deno" || name == "bun") && w == "run":
		case strings.HasPrefix(w, "-"):
		default:
			if strings.Contains(w, "/") || scriptExt(w) {
				return w
			}
			return ""
		}
	}
	return ""
}

// scriptExt reports a file name with a script language's extension.
func scriptExt(f string) bool {
	switch path.Ext(f) {
	case ".js", ".cjs", ".mjs", ".ts", ".mts", ".cts", ".sh", ".bash", ".py", ".rb", ".pl", ".php", ".lua", ".ps1":
		return true
	}
	return false
}

// LauncherName reports a command (lower-cased, without .exe) that runs
// the file or code it is given: a shell, an interpreter, or one of the
// programs that start another (cmd /c, msiexec /i, java -jar, rundll32).
// A download handed to any other program is its data.
func LauncherName(n string) bool {
	switch n {
	case "cmd", "msiexec", "rundll32", "regsvr32", "cscript", "wscript", "mshta", "java", "dotnet", "start-process", "invoke-expression", "iex",
		"sudo", "env", "exec", "nohup", "start", "call", "invoke-item", "ii":
		return true
	}
	return ShellName(n) || InterpName(n)
}

// ImageOperand returns the image a docker run, pull or create names: the
// first operand after the options (those that take a value skip it).
func ImageOperand(words []string) string {
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case !strings.HasPrefix(w, "-"):
			return w
		case strings.Contains(w, "="):
		case w == "--rm" || w == "-d" || w == "-i" || w == "-t" || w == "-it" || w == "-ti" || w == "--privileged" || w == "--init" ||
			w == "-q" || w == "--quiet" || w == "--detach" || w == "--interactive" || w == "--tty" || w == "-P" || w == "--read-only" || w == "--all-tags" || w == "-a":
		default:
			i++ // a flag with its value
		}
	}
	return ""
}

// OnPath reports a folder commonly on the runner's PATH.
func OnPath(dir string) bool {
	switch strings.TrimSuffix(dir, "/") {
	case "/usr/local/bin", "/usr/bin", "/bin", "/usr/local/sbin", "/usr/sbin", "~/.local/bin", "$HOME/.local/bin", "$HOME/bin", "~/bin", "/opt/bin", "$HOME/go/bin", "~/go/bin":
		return true
	}
	return false
}

// InstallVerb returns the index of the first operand of a package install
// (pip install, uv pip install, npm install/i/add, yarn/pnpm/bun add), or 0.
func InstallVerb(name string, words []string) int {
	switch {
	case strings.HasPrefix(name, "pip") && len(words) > 2 && words[1] == "install":
		return 2
	case name == "uv" && len(words) > 3 && words[1] == "pip" && words[2] == "install":
		return 3
	case (name == "uv" || name == "poetry") && len(words) > 2 && words[1] == "add":
		return 2
	case name == "npm" && len(words) > 2 && (words[1] == "install" || words[1] == "i" || words[1] == "add"):
		return 2
	case (name == "yarn" || name == "pnpm" || name == "bun") && len(words) > 2 && (words[1] == "add" || words[1] == "install"):
		return 2
	case name == "go" && len(words) > 2 && (words[1] == "install" || words[1] == "get" || words[1] == "run"):
		return 2
	case name == "cargo" && len(words) > 2 && (words[1] == "install" || words[1] == "add"):
		return 2
	}
	return 0
}

// BuildArgImages returns the images an image build command passes as build
// arguments named for one (docker build --build-arg BASE_IMAGE=node:20,
// buildah bud, kaniko's executor): the base image a FROM ${…} takes.
func BuildArgImages(name string, words []string) []string {
	switch {
	case strings.HasSuffix(name, "executor"): // kaniko's
	case name != "docker" && name != "podman" && name != "nerdctl" && name != "buildah":
		return nil
	case !slices.ContainsFunc(words[1:], func(w string) bool { return w == "build" || w == "bud" }):
		return nil
	}
	var out []string
	for i, w := range words {
		arg, ok := strings.CutPrefix(w, "--build-arg=")
		if !ok && w == "--build-arg" && i+1 < len(words) {
			arg, ok = words[i+1], true
		}
		if n, v, found := strings.Cut(arg, "="); ok && found && ImageVar(n, v) && !strings.ContainsAny(v, "$`") {
			out = append(out, v)
		}
	}
	return out
}

// InstallEcosystem is the registry whose names an install command of the
// program name takes: "npm", "go" (module paths), "cargo" or "pypi".
func InstallEcosystem(name string) string {
	switch name {
	case "npm", "yarn", "pnpm", "bun":
		return "npm"
	case "go", "cargo":
		return name
	}
	return "pypi"
}

// ANSIC decodes the escapes of a $'…' string: \xHH, \NNN octal, \uHHHH and
// the letter escapes.
func ANSIC(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c != '\\' || i+1 >= len(v) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := v[i]; {
		case e == 'x' || e == 'u' || e == 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			j := i + 1
			for j < len(v) && j-i-1 < max && strings.IndexByte("0123456789abcdefABCDEF", v[j]) >= 0 {
				j++
			}
			if n, err := strconv.ParseUint(v[i+1:j], 16, 32); err == nil && j > i+1 {
				b.WriteRune(rune(n))
			}
			i = j - 1
		case e >= '0' && e <= '7':
			j := i
			for j < len(v) && j-i < 3 && v[j] >= '0' && v[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(v[i:j], 8, 8)
			b.WriteByte(byte(n))
			i = j - 1
		case e == 'n':
			b.WriteByte('\n')
		case e == 't':
			b.WriteByte('\t')
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}

// FindRewrites returns the starting points of a find command whose -exec
// (or -execdir, -ok) action writes to the files it finds: cp, mv, install,
// ln, tee, dd or rsync, sed or perl editing in place, or a shell whose
// script copies or redirects into them. A find that only lists, greps or
// deletes writes nothing there.
func FindRewrites(words []string) []string {
	var starts []string
	i := 1
	for ; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") || w == "(" || w == "!" {
			break
		}
		starts = append(starts, w)
	}
	if len(starts) == 0 {
		return nil
	}
	for ; i < len(words); i++ {
		switch words[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		end := i + 1
		for end < len(words) && words[end] != ";" && words[end] != "+" {
			end++
		}
		if findActionWrites(words[i+1 : end]) {
			return starts
		}
		i = end
	}
	return nil
}

// shellWritesRe matches a shell script that copies onto or edits a file.
var shellWritesRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[\s;&|])(?:cp|mv|install|tee|dd)\s|\bsed\s+-i`)
})

// findActionWrites reports a find action's command that writes a file.
func findActionWrites(cmd []string) bool {
	if len(cmd) == 0 {
		return false
	}
	inPlace := slices.ContainsFunc(cmd[1:], func(w string) bool { return strings.HasPrefix(w, "-i") || strings.HasPrefix(w, "--in-place") })
	switch path.Base(cmd[0]) {
	case "cp", "mv", "install", "ln", "tee", "dd", "rsync":
		return true
	case "sed", "perl":
		return inPlace
	case "sh", "bash", "dash", "zsh", "ash":
		for j := 1; j+1 < len(cmd); j++ {
			if cmd[j] == "-c" {
				script := cmd[j+1]
				return strings.Contains(script, ">") || shellWritesRe().MatchString(script)
			}
		}
	}
	return false
}

// PackageRunner returns the operands of a command that fetches a package
// and runs its program in one go (npx, pnpx, uvx, bunx, pipx run, uv tool
// run, pnpm dlx, yarn dlx, npm exec), and whether words is one: the
// subcommand, where the tool has one, is not the package.
func PackageRunner(words []string) ([]string, bool) {
	if len(words) == 0 {
		return nil, false
	}
	sub := func(n int, names ...string) ([]string, bool) {
		if len(words) > n && slices.Contains(names, words[n]) {
			return words[n+1:], true
		}
		return nil, false
	}
	switch path.Base(words[0]) {
	case "npx", "pnpx", "uvx", "bunx":
		return words[1:], true
	case "pipx":
		return sub(1, "run")
	case "pnpm", "yarn":
		return sub(1, "dlx")
	case "npm":
		return sub(1, "exec", "x")
	case "uv":
		if len(words) > 2 && words[1] == "tool" {
			return sub(2, "run")
		}
	}
	return nil, false
}

// RemoteSpec reports a package runner's operand that names a URL or a git
// repository rather than a registry package.
//
// Only the package is looked at (a --package= or -p value, or the first
// operand): what follows is the arguments the package's program gets, such
// as the URL wait-on waits for.
func RemoteSpec(words []string) bool {
	remote := func(v string) bool {
		return strings.HasPrefix(v, "git+") || strings.HasPrefix(v, "github:") || strings.HasPrefix(v, "https://") || strings.HasPrefix(v, "http://")
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if k, v, ok := strings.Cut(w, "="); ok && strings.HasPrefix(k, "-") {
			if remote(v) {
				return true
			}
			continue
		}
		if w == "-p" || w == "--package" || w == "--from" || w == "--spec" {
			if i+1 < len(words) && remote(words[i+1]) {
				return true
			}
			i++
			continue
		}
		if strings.HasPrefix(w, "-") {
			continue
		}
		return remote(w)
	}
	return false
}

// DataNamed reports a path named like an image, a font or media.
func DataNamed(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".png", ".jpg", ".jpeg", ".gif", ".ico", ".bmp", ".svg", ".webp", ".woff", ".woff2", ".ttf", ".otf", ".eot", ".mp3", ".mp4", ".wav", ".dat", ".db", ".log":
		return true
	}
	return false
}

// Decoder reports a command that decodes its input.
func Decoder(name string, words []string) bool {
	has := func(flags ...string) bool {
		for _, w := range words[1:] {
			for _, f := range flags {
				if w == f || strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && len(f) == 2 && strings.Contains(w[1:], f[1:]) && len(w) <= 4 {
					return true
				}
			}
		}
		return false
	}
	switch name {
	case "base64", "base32", "basenc":
		return has("-d", "-D", "--decode")
	case "xxd":
		return has("-r")
	case "openssl":
		// openssl enc -d, openssl base64 -d, openssl aes-256-cbc -d: a
		// cipher's name is a subcommand of its own.
		return len(words) > 1 && (words[1] == "enc" || words[1] == "base64" || opensslCipherRe().MatchString(words[1])) && has("-d")
	case "uudecode", "gunzip", "zcat", "bunzip2", "bzcat", "unxz", "xzcat", "lzcat", "unlzma", "zstdcat", "unzstd", "lz4cat", "unlz4", "brcat":
		return true
	case "gzip", "xz", "zstd", "bzip2", "brotli", "lz4", "lzip", "lzma", "lzop", "pigz", "pbzip2", "lbzip2":
		return has("-d", "--decompress")
	case "jq", "yq":
		return slices.ContainsFunc(words[1:], func(w string) bool { return strings.Contains(w, "@base64d") })
	case "certutil", "CertUtil":
		return HasWordFold(words, "-decode") || HasWordFold(words, "-decodehex")
	case "rev":
		// Text spelled backwards is as unreadable in the diff as base64.
		return true
	case "tr":
		return TrCipher(words)
	case "gpg", "gpg2", "age":
		// Decrypted bytes are as unreadable in the diff as decoded ones.
		return has("-d", "--decrypt")
	case "unzip":
		return has("-p") // members to standard output
	case "tar", "bsdtar":
		// -O alone or bundled (tar -xOzf a.tgz f), or in the old form (tar xOf).
		for _, w := range words[1:] {
			if w == "--to-stdout" || strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && len(w) <= 8 && strings.Contains(w, "O") {
				return true
			}
		}
		return len(words) > 1 && !strings.HasPrefix(words[1], "-") && strings.Contains(words[1], "O")
	case "7z", "7za", "7zz":
		return has("-so")
	}
	return false
}

var opensslCipherRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^-?(?:aes|des|des3|bf|blowfish|camellia|cast5?|chacha20|rc[245]|seed|sm4|aria)(?:-|\d|$)`)
})

// TrCipher reports a tr that maps a set of characters onto the same set in
// another order (tr 'A-Za-z' 'N-ZA-Mn-za-m' is ROT13, '!-~' 'P-~!-O' ROT47):
// a substitution cipher, whose output the diff does not show. Case mapping,
// deleting and squeezing change no letter into another.
func TrCipher(words []string) bool {
	var sets []string
	for _, w := range words[1:] {
		if strings.HasPrefix(w, "-") && len(sets) == 0 && len(w) > 1 {
			return false // -d, -s, -c: not a mapping of one set onto another
		}
		sets = append(sets, w)
	}
	if len(sets) != 2 {
		return false
	}
	a, b := trSet(sets[0]), trSet(sets[1])
	if len(a) < 4 || len(a) != len(b) || string(a) == string(b) {
		return false
	}
	sa, sb := slices.Clone(a), slices.Clone(b)
	slices.Sort(sa)
	slices.Sort(sb)
	return string(sa) == string(sb)
}

// trSet expands a tr set's ranges and escapes; a class ([:upper:]) gives nil.
func trSet(s string) []byte {
	if strings.Contains(s, "[:") {
		return nil
	}
	// next reads one character at i, an escape included.
	next := func(i int) (byte, int) {
		if s[i] != '\\' || i+1 >= len(s) {
			return s[i], i + 1
		}
		switch s[i+1] {
		case 't':
			return '\t', i + 2
		case 'n':
			return '\n', i + 2
		}
		return s[i+1], i + 2
	}
	var out []byte
	for i := 0; i < len(s); {
		c, j := next(i)
		if j+1 < len(s) && s[j] == '-' {
			if d, k := next(j + 1); c <= d {
				for x := int(c); x <= int(d); x++ {
					out = append(out, byte(x))
				}
				i = k
				continue
			}
		}
		out = append(out, c)
		i = j
	}
	return out
}

var hexEscRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\\\\?x[0-9a-fA-F]{2}){4}|(?:\\\\?[0-7]{3}){4}`)
})

// HexEscapes reports a run of four or more hex or octal escapes, the way
// a payload is spelled so that no word of it can be read.
func HexEscapes(s string) bool { return hexEscRe().MatchString(s) }

// SecretName reports a variable that by its name holds a credential.
func SecretName(n string) bool {
	u := strings.ToUpper(n)
	switch u {
	case "GITHUB_TOKEN", "GH_TOKEN", "ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN", "NPM_TOKEN", "NODE_AUTH_TOKEN":
		return true
	}
	for _, s := range []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "API_KEY", "APIKEY", "ACCESS_KEY", "PRIVATE_KEY", "CREDENTIAL"} {
		if strings.Contains(u, s) {
			return true
		}
	}
	return false
}

// NormPath makes ./x and x, "$HOME/x" and ~/x the same file.
func NormPath(p string) string {
	p = strings.Trim(p, `"'`)
	for _, h := range []string{"${HOME}", "$HOME"} {
		if strings.HasPrefix(p, h) {
			p = "~" + p[len(h):]
		}
	}
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") && !strings.HasPrefix(p, "$") {
		p = path.Clean(p)
	}
	return p
}

var credentialPathRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{?(?:NPM_CONFIG_USERCONFIG|AWS_SHARED_CREDENTIALS_FILE|GOOGLE_APPLICATION_CREDENTIALS|KUBECONFIG|DOCKER_CONFIG|CLOUDSDK_CONFIG)\b|(?:^|/|~|['"])\.(?:ssh/(?:id_\w+|config|known_hosts)?|netrc|git-credentials|aws/credentials|docker/config\.json|pypirc|npmrc|kube/config|config/gcloud|config/gh/hosts\.yml)\b|/proc/(?:self|\d+|\$\w+)/environ|actions-runner/\.(?:credentials\w*|runner)\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|(?:^|/)\.git/config$|\.cargo/credentials\b|(?:^|[/'"}])credentials\.toml\b|` +
		// the folders credentials live in, whole (tar czf x ~/.ssh ~/.aws), and BuildKit's secret mounts
		`(?:^|/|~)\.(?:ssh|aws|kube|docker|gnupg|azure)/?$|(?:^|/|~)\.config/(?:gh|gcloud)(?:/|$)|^/run/secrets(?:/|$)|` +
		// the runner's own copies of the job's run: scripts, written with
		// every ${{ secrets.* }} already expanded into them
		`(?:^|/)_temp/[^/\s]*\.(?:sh|ps1|cmd)$|\$\{?RUNNER_TEMP\}?/[^/\s]*\.(?:sh|ps1|cmd)$|` +
		// a macOS runner's keychains, where a release job imports its
		// signing certificates and their private keys (a provisioning
		// profile holds no key)
		`(?:^|/)Library/Keychains(?:/|$)|\.keychain(?:-db)?$`)
})

// CredentialPath reports a file that holds the runner's own credentials.
func CredentialPath(p string) bool { return credentialPathRe().MatchString(p) }

var profileRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[/~'"\s])\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin)(?:$|[^\w.-])|/etc/profile\b|/etc/profile\.d/|/etc/bash\.bashrc|authorized_keys\b|/etc/ld\.so\.preload|/etc/cron|/etc/rc\.local|` + agentConfig)
})

var shellRCRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[/~'"\s])\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin)(?:$|[^\w.-])|` +
		`(?:^|[/~'"\s$])\.?config["'/\\, ]+fish["'/\\, ]+(?:config\.fish|conf\.d\b)|\bfish_config\b|\bPowerShell["'/\\, ]+\w*[Pp]rofile\.ps1|\$PROFILE\b|` +
		// the system-wide profile every login shell reads
		`/etc/profile\.d/|/etc/(?:profile|bash\.bashrc|zshrc|zshenv|zsh/zshrc|zsh/zshenv)(?:$|[^\w./-])`)
})

// ShellRCPath reports a shell start-up file, a user's or the system-wide
// profile (not cron or keys): the file an installer adds its PATH line to,
// /etc/profile.d when it installs for every user.
func ShellRCPath(p string) bool {
	return shellRCRe().MatchString(p) && !strings.Contains(p, "authorized_keys")
}

var rcFetchRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:curl|wget|aria2c)\b|\binvoke-(?:webrequest|restmethod)\b|\b(?:iwr|irm)\s|\burlopen\(|\brequests\.get\(|/dev/(?:tcp|udp)/|\bnc\s|\bbase64\s+(?:-\w*d|--decode)|\bxxd\s+-r|\bFromBase64String\b`)
})

// RCLineFetches reports text written into a shell start-up file that
// reaches the network or decodes what it runs (eval "$(curl -fsSL …)"): the
// shell then runs, at every start, what the diff does not show. An
// installer's PATH line or init hook (eval "$(tool init bash)") does not.
func RCLineFetches(text string) bool { return rcFetchRe().MatchString(text) }

// ProfilePath reports a file whose content runs again later: a shell
// profile, cron, authorized keys, an agent's or editor's settings that run
// commands.
func ProfilePath(p string) bool { return profileRe().MatchString(p) }

// secretReaders are the commands that print a secret a CI job can reach
// from a secret store: the program, and the words that start its read
// ("" for any). A registry's login password (aws ecr get-login-password,
// gcloud auth print-access-token) is not among them: it goes to the
// registry's login, its use.
var secretReaders = []struct{ name, op1, op2 string }{
	{"vault", "kv", "get"}, {"vault", "read", ""},
	{"aws", "secretsmanager", "get-secret-value"}, {"aws", "ssm", "get-parameter"}, {"aws", "ssm", "get-parameters"},
	{"aws", "ssm", "get-parameters-by-path"},
	{"gcloud", "secrets", "versions"},
	{"az", "keyvault", "secret"},
	{"buildkite-agent", "secret", "get"},
	{"op", "read", ""}, {"op", "item", "get"},
	{"doppler", "secrets", ""},
	{"infisical", "secrets", ""}, {"infisical", "export", ""},
	{"chamber", "read", ""}, {"chamber", "export", ""},
	{"berglas", "access", ""},
	{"bw", "get", ""},
	{"kubectl", "get", "secret"}, {"kubectl", "get", "secrets"},
	{"sops", "-d", ""}, {"sops", "--decrypt", ""}, {"sops", "decrypt", ""},
}

// SecretReader reports a command that prints a secret from a secret store
// (Vault, AWS Secrets Manager and SSM, Google's and Azure's secret stores,
// Buildkite's secrets, 1Password, Doppler, Infisical, chamber, berglas,
// Bitwarden, a Kubernetes secret, a sops file decrypted): what it prints
// is that secret wherever it is carried next.
func SecretReader(name string, words []string) bool {
	for _, r := range secretReaders {
		if name == r.name && len(words) > 1 && words[1] == r.op1 && (r.op2 == "" || len(words) > 2 && words[2] == r.op2) {
			return true
		}
	}
	return false
}

// EnvDump reports a command that prints the whole environment, and with it
// every secret the job holds: env and printenv with no name, set, export
// and declare or typeset listing what is exported, compgen -e, jq's env,
// PowerShell's env: drive. Only a name given (printenv HOME, declare -x
// FOO=1) makes it one variable or an assignment.
func EnvDump(name string, words []string) bool {
	var ops []string
	for _, w := range words[1:] {
		if !strings.HasPrefix(w, "-") {
			ops = append(ops, w)
		}
	}
	switch strings.ToLower(name) {
	case "env", "printenv":
		return len(ops) == 0
	case "set":
		return len(words) == 1
	case "export":
		return len(ops) == 0 && (len(words) == 1 || words[1] == "-p")
	case "declare", "typeset":
		return len(ops) == 0 && len(words) > 1 && (HasFlag(words, "x", "") || HasFlag(words, "p", ""))
	case "compgen":
		return len(words) == 2 && words[1] == "-e"
	case "buildkite-agent":
		// The agent's own dump of the job's environment, secrets included.
		return len(words) > 2 && words[1] == "env" && (words[2] == "dump" || words[2] == "get")
	case "jq":
		// The filter is the first operand: env, $ENV, env | tostring.
		return len(ops) > 0 && jqEnvRe().MatchString(ops[0])
	case "get-childitem", "gci", "dir", "ls", "get-item":
		for _, o := range ops {
			if strings.EqualFold(strings.TrimSuffix(o, "*"), "env:") {
				return true
			}
		}
	}
	return false
}

var jqEnvRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(?:env|\$ENV)\s*(?:$|\|)`) })

// uploadValued are the uploaders' long options whose value is the next
// word: a pattern, a profile or a mode, not a file sent.
var uploadValued = map[string]bool{"--exclude": true, "--include": true, "--filter": true, "--exclude-from": true, "--include-from": true,
	"--files-from": true, "--chmod": true, "--chown": true, "--rsync-path": true, "--password-file": true, "--port": true, "--log-file": true,
	"--timeout": true, "--bwlimit": true, "--link-dest": true, "--compare-dest": true, "--copy-dest": true, "--backup-dir": true, "--temp-dir": true,
	"--suffix": true, "--profile": true, "--region": true, "--endpoint-url": true, "--acl": true, "--cache-control": true, "--content-type": true,
	"--storage-class": true}

// Uploads returns the operands an uploader sends off the machine: the
// files a copy to a remote host or a bucket takes (scp, rsync, sftp, aws
// s3, gsutil, gcloud storage, azcopy, az storage, rclone, s3cmd, mc), a
// release or gist upload's files. The sources are the operands before the
// first remote one, so a download (a remote source, a local target) sends
// nothing.
func Uploads(name string, words []string) []int {
	var ops []int
	for i := 1; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") {
			if (name == "scp" || name == "sftp") && len(w) == 2 && strings.Contains("iPoFcSJDl", w[1:]) || name == "rsync" && (w == "-e" || w == "--rsh" || w == "-f") || uploadValued[w] {
				i++ // -i key, -P port, -e "ssh -p 22", --exclude .git: a value, not a file
			}
			continue
		}
		ops = append(ops, i)
	}
	remote := func(w string) bool {
		return strings.Contains(w, "://") || strings.Contains(w, ":") && !strings.HasPrefix(w, "/") && !strings.HasPrefix(w, "$") && !strings.HasPrefix(w, "~")
	}
	// after returns the operands following the verb words (aws s3 cp),
	// up to the first remote one, when there is one.
	after := func(verbs ...string) []int {
		k := 0
		for j, o := range ops {
			if k < len(verbs) {
				if words[o] == verbs[k] {
					k++
				}
				continue
			}
			for _, d := range ops[j:] {
				if remote(words[d]) {
					var src []int
					for _, x := range ops[j:] {
						if x == d {
							return src
						}
						src = append(src, x)
					}
				}
			}
			return nil
		}
		return nil
	}
	has := func(verbs ...string) bool {
		k := 0
		for _, o := range ops {
			if k < len(verbs) && words[o] == verbs[k] {
				k++
			}
		}
		return k == len(verbs)
	}
	switch name {
	case "scp", "rsync", "sftp":
		return after()
	case "aws":
		if has("s3api", "put-object") {
			return flagValues(words, "--body")
		}
		for _, v := range []string{"cp", "mv", "sync"} {
			if has("s3", v) {
				return after("s3", v)
			}
		}
	case "gcloud":
		for _, v := range []string{"cp", "mv", "rsync"} {
			if has("storage", v) {
				return after("storage", v)
			}
		}
	case "gsutil", "s3cmd", "mc", "azcopy", "rclone":
		for _, v := range []string{"cp", "mv", "rsync", "sync", "put", "copy", "copyto", "move", "moveto"} {
			if len(ops) > 0 && words[ops[0]] == v {
				return after(v)
			}
		}
	case "az":
		if has("storage", "blob", "upload") || has("storage", "blob", "upload-batch") {
			return flagValues(words, "--file", "-f", "--source", "-s")
		}
	case "gh":
		// What gh publishes: a gist's or a release's files, a comment's,
		// an issue's or release notes' body file, an API request's input
		// (--input, -F field=@file).
		out := flagValues(words, "--body-file", "-F", "--notes-file", "--input", "--field", "--raw-field")
		switch {
		case has("gist", "create") && len(ops) > 2:
			out = append(out, ops[2:]...)
		case (has("release", "upload") || has("release", "create")) && len(ops) > 3:
			out = append(out, ops[3:]...)
		}
		return out
	}
	return nil
}

// flagValues returns the indices of the values given to any of flags.
func flagValues(words []string, flags ...string) []int {
	var out []int
	for i := 1; i+1 < len(words); i++ {
		for _, f := range flags {
			if words[i] == f {
				out = append(out, i+1)
			}
		}
	}
	return out
}

var ftpPutRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)(?:^|[\s;"'])m?put\s+(?:-\S+\s+)*([^\s;"']+)`) })

var inlineDecodeRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\bdecode_?base64\b|\bbase64_decode\(|\bchr\(\s*hex\(|\bpack\(\s*["']H|\bunpack1?\(\s*["'](?:m|u)`)
})

// InlineDecodes reports an interpreter's inline program that decodes
// (Perl's decode_base64 and chr(hex), PHP's base64_decode): what it
// prints is as unreadable in the diff as base64 -d's output.
func InlineDecodes(prog string) bool { return inlineDecodeRe().MatchString(prog) }

// TextFilter reports a command whose output holds what its input and its
// files held: cat, a text filter, an encoder, a compressor. Encoded or
// folded into lines, a secret is still the secret.
func TextFilter(name string) bool {
	switch name {
	case "cat", "tee", "head", "tail", "sort", "tr", "sed", "awk", "cut", "jq", "yq", "tac", "rev", "strings", "grep", "egrep", "fgrep", "uniq",
		"fold", "paste", "nl", "column", "expand", "fmt", "iconv", "split",
		"base64", "base32", "basenc", "xxd", "od", "hexdump",
		"gzip", "bzip2", "xz", "zstd", "brotli", "lz4", "zip", "tar":
		return true
	}
	return false
}

// MailSender reports a command that mails what it reads on standard
// input or is given as the body.
func MailSender(name string) bool {
	switch name {
	case "mail", "mailx", "s-nail", "mutt", "sendmail", "msmtp", "ssmtp", "swaks":
		return true
	}
	return false
}

// FTPClient reports a client that puts files by the commands of a script
// (ftp, lftp, sftp, smbclient).
func FTPClient(name string) bool {
	switch name {
	case "ftp", "lftp", "sftp", "smbclient", "tftp", "ncftp":
		return true
	}
	return false
}

// FTPPuts returns the files an FTP client's script puts (lftp -e "put f",
// an ftp or sftp here-document, smbclient -c): what it sends.
func FTPPuts(script string) []string {
	var out []string
	for _, m := range ftpPutRe().FindAllStringSubmatch(script, -1) {
		out = append(out, m[1])
	}
	return out
}

// Encrypts reports a command that encrypts or signs a file or its standard
// input (openssl enc, gpg -c/-e/-s, age): what comes out holds what went
// in, readable to whoever has the key. It returns the input file ("" for
// standard input) and the output file ("" for standard output).
func Encrypts(name string, words []string) (in, out string, ok bool) {
	val := func(flags ...string) string {
		for _, i := range flagValues(words, flags...) {
			return words[i]
		}
		return ""
	}
	last := ""
	if n := len(words); n > 1 && !strings.HasPrefix(words[n-1], "-") && (n < 3 || !strings.HasPrefix(words[n-2], "-")) {
		last = words[n-1]
	}
	switch name {
	case "openssl":
		if len(words) > 1 && (words[1] == "enc" || words[1] == "smime" || words[1] == "cms") && !HasWordFold(words, "-d") && !HasWordFold(words, "-decrypt") {
			return val("-in"), val("-out"), true
		}
	case "gpg", "gpg2":
		if HasFlag(words, "c", "--symmetric") || HasFlag(words, "e", "--encrypt") || HasFlag(words, "s", "--sign") {
			out = val("-o", "--output")
			if out == "" && last != "" {
				out = last + ".gpg"
			}
			return last, out, true
		}
	case "age":
		if !HasFlag(words, "d", "--decrypt") {
			return last, val("-o", "--output"), true
		}
	}
	return "", "", false
}

// Fetcher reports a command that requests a URL: curl, wget, aria2c,
// HTTPie (http, https), xh, and PowerShell's Invoke-WebRequest and
// Invoke-RestMethod (iwr, irm) in any case.
func Fetcher(name string) bool {
	switch name {
	case "curl", "wget", "aria2c", "http", "https", "xh":
		return true
	}
	for _, n := range []string{"Invoke-WebRequest", "iwr", "irm", "Invoke-RestMethod"} {
		if strings.EqualFold(name, n) {
			return true
		}
	}
	return false
}

// digestCmds are the commands that print a file's digest or check a list
// of them (-c).
const digestCmds = `(?:sha(?:1|224|256|384|512)?sum|shasum|md5sum|b2sum|b3sum|cksum|xxh\d*sum)`

var digestCmdRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^` + digestCmds + `$`) })

// DigestCommand reports a command that prints a file's digest, or with -c
// checks files against a list of them.
func DigestCommand(name string) bool { return digestCmdRe().MatchString(name) }

// Stops reports a command run when a check fails that ends the script or
// fails the step: exit, return, false, or a function named for that (die,
// fail, abort, fatal, panic, error).
func Stops(name string) bool {
	switch n := strings.ToLower(name); n {
	case "exit", "return", "false":
		return true
	default:
		for _, w := range []string{"die", "fail", "abort", "fatal", "panic", "error", "bail"} {
			if strings.Contains(n, w) {
				return true
			}
		}
	}
	return false
}

var verifyRe = sync.OnceValue(func() *regexp.Regexp {
	const hash = `\b` + digestCmds + `\b`
	return regexp.MustCompile(
		// a checksum list checked: sha256sum -c, shasum -a 256 --check
		hash + `[^|;&\n]*\s(?:-[a-zA-Z]*c[a-zA-Z]*|--check)\b|` +
			// a signature checked: gpg --verify, gpgv, cosign, minisign (-V, alone or among its
			// one-letter flags: -Vqm), signify, openssl dgst -verify, SLSA
			`\bgpg2?\b[^|;&\n]*\s--verify\b|\bgpgv2?\s|\bcosign\s+verify(?:-blob)?\b|\bminisign\b[^|;&\n]*\s-[a-zA-Z]*V[a-zA-Z]*\b|\bsignify(?:-openbsd)?\s+-C?V|` +
			`\bopenssl\s+(?:dgst|pkeyutl)\b[^|;&\n]*\s-verify\b|\bslsa-verifier\s+verify|\bgh\s+attestation\s+verify\b|\bsigstore\s+verify\b|` +
			// a digest compared: [ "$(sha256sum f | cut …)" = "$SUM" ], sha256sum f | grep -q "$SUM",
			// (Get-FileHash f).Hash -ne $sum
			`(?:\[\[?|\btest)\s[^;&\n]*` + hash + `[^;&\n]*\s(?:!?==?|-eq|-ne)\s|(?:\[\[?|\btest)\s[^;&\n]*\s(?:!?==?|-eq|-ne)\s[^;&\n]*` + hash + `|` +
			hash + `[^;&\n]*\|\s*grep\s+-\w*q|(?i:Get-FileHash\b[^;\n]*-(?:eq|ne)\b|-(?:eq|ne)\s[^;\n]*Get-FileHash\b)`)
})

// VerifiesDownload reports a command that checks a file against a digest
// or a signature the change fixes (a checksum list, a hash compared, gpg
// --verify, cosign): a download that passes is the file the change names,
// not whatever the host serves that day.
func VerifiesDownload(text string) bool { return verifyRe().MatchString(text) }

var runnerTempRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:\$\{\{\s*runner\.temp\s*\}\}|\$\{RUNNER_TEMP\}|\$RUNNER_TEMP\b)`)
})

// WorkspacePath spells a workflow's path one way whatever the workflow
// wrote: relative to the workspace for a path under it, $RUNNER_TEMP for
// the runner's temp folder (${{ runner.temp }}, ${RUNNER_TEMP}).
func WorkspacePath(p string) string {
	p = strings.Trim(strings.TrimSpace(p), `"'`)
	for _, w := range []string{"${{ github.workspace }}/", "${{github.workspace}}/", "$GITHUB_WORKSPACE/", "${GITHUB_WORKSPACE}/"} {
		p = strings.TrimPrefix(p, w)
	}
	p = runnerTempRe().ReplaceAllString(p, "$$RUNNER_TEMP")
	return strings.TrimPrefix(NormPath(p), "./")
}

// WorkspaceRoot reports a path that is the workflow's checkout itself: ".",
// $GITHUB_WORKSPACE, ${{ github.workspace }}, however written.
func WorkspaceRoot(p string) bool {
	switch strings.TrimSuffix(WorkspacePath(p), "/") {
	case "", ".", "$GITHUB_WORKSPACE", "${GITHUB_WORKSPACE}", "${{ github.workspace }}", "${{github.workspace}}":
		return true
	}
	return false
}

var httpieFileRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[\w.-]+:?=?@([^@\s]+)$`) })

// HTTPieFile returns the file an HTTPie request item sends (field@file
// uploads it, field=@file embeds its text), "" for any other word.
func HTTPieFile(w string) string {
	if m := httpieFileRe().FindStringSubmatch(w); m != nil {
		return m[1]
	}
	return ""
}

// pinnedFetchRe is a digest given to a build file's download: a hex value
// or a variable of the build (set where the change can be read) after
// CMake's EXPECTED_HASH ALGO= or EXPECTED_MD5, or Docker's --checksum=.
var pinnedFetchRe = sync.OnceValue(func() *regexp.Regexp {
	const digest = `(?:[0-9a-fA-F]{32,}|\$\{\w+\}|\$\w+)(?:[\s)"]|$)`
	return regexp.MustCompile(`(?i)(?:^|\s)(?:EXPECTED_HASH\s+"?\w+=|EXPECTED_MD5\s+"?|--checksum=sha\d+:)` + digest)
})

var cmakeCommentRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)(?:^|\s)#.*$`) })

// PinnedFetch reports a build file's download that names the digest the
// file must have (CMake's EXPECTED_HASH, Docker's ADD --checksum=): it
// fails unless the host serves the file the change fixed. The words in a
// comment, or the option with no digest, fix nothing.
func PinnedFetch(call string) bool {
	return pinnedFetchRe().MatchString(cmakeCommentRe().ReplaceAllString(call, ""))
}

// PSWriter reports PowerShell's cmdlets that write what they are given to
// a file: Out-File, Set-Content, Add-Content, Tee-Object.
func PSWriter(name string) bool {
	for _, c := range []string{"Out-File", "Set-Content", "Add-Content", "Tee-Object"} {
		if strings.EqualFold(name, c) {
			return true
		}
	}
	return false
}

// PSWriteArgs returns the file a PowerShell writer names (-FilePath,
// -Path, -LiteralPath or its first operand) and the index of its -Value
// word, -1 for none.
func PSWriteArgs(words []string) (file string, value int) {
	value = -1
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case strings.EqualFold(w, "-FilePath") || strings.EqualFold(w, "-Path") || strings.EqualFold(w, "-LiteralPath"):
			if i+1 < len(words) {
				file = words[i+1]
			}
			i++
		case strings.EqualFold(w, "-Value"):
			if i+1 < len(words) {
				value = i + 1
			}
			i++
		case strings.EqualFold(w, "-Encoding") || strings.EqualFold(w, "-Variable"):
			i++
		case strings.HasPrefix(w, "-"):
		case file == "":
			file = w
		}
	}
	return file, value
}

var fetchedRuntimeRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:npx|pnpx|bunx|pnpm\s+(?:dlx|exec)|yarn\s+dlx|npm\s+exec)\s+(?:(?:-y|--yes|-q|--quiet|--silent|-p|--package)(?:[=\s]+\S+)?\s+)*(?:--\s+)?(bun|deno|node)(?:@[\w.^~*-]+)?(?:\s|$)`)
})

// FetchedRuntime returns the JavaScript runtime (bun, deno, a node release)
// a command has the package manager fetch from the registry and start
// (npx --yes bun@1 run x.mjs, pnpm dlx deno run x.ts), or "".
func FetchedRuntime(cmd string) string {
	if m := fetchedRuntimeRe().FindStringSubmatch(cmd); m != nil {
		return m[1]
	}
	return ""
}
