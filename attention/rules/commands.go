package rules

// What the shell reader knows of commands and paths, as judgements on
// words and strings alone: which commands are shells, interpreters,
// decoders and installers, which flags they were given, and which paths
// hold credentials or run again later (profiles, cron).

import (
	"path"
	"regexp"
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
	case "sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish", "pwsh", "powershell", "powershell.exe":
		return true
	}
	return false
}

// InterpName reports a command that is a language interpreter: what it
// is given (-c, -e, a file, standard input) runs as a program.
func InterpName(n string) bool {
	switch {
	case n == "perl" || n == "ruby" || n == "node" || n == "nodejs" || n == "php" || n == "deno" || n == "bun" || n == "lua":
		return true
	case strings.HasPrefix(n, "python"):
		return true
	}
	return false
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
		return len(words) > 1 && (words[1] == "enc" || words[1] == "base64") && has("-d")
	case "uudecode", "gunzip", "zcat", "bunzip2", "unxz", "xzcat", "lzcat", "zstdcat":
		return true
	case "gzip", "xz", "zstd", "bzip2":
		return has("-d", "--decompress")
	case "gpg", "gpg2", "age":
		// Decrypted bytes are as unreadable in the diff as decoded ones.
		return has("-d", "--decrypt")
	case "unzip":
		return has("-p") // members to standard output
	case "tar", "bsdtar":
		return has("-O", "--to-stdout") || len(words) > 1 && !strings.HasPrefix(words[1], "-") && strings.Contains(words[1], "O")
	case "7z", "7za", "7zz":
		return has("-so")
	}
	return false
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
	return regexp.MustCompile(`\$\{?(?:NPM_CONFIG_USERCONFIG|AWS_SHARED_CREDENTIALS_FILE|GOOGLE_APPLICATION_CREDENTIALS|KUBECONFIG|DOCKER_CONFIG|CLOUDSDK_CONFIG)\b|(?:^|/|~|['"])\.(?:ssh/(?:id_\w+|config|known_hosts)?|netrc|git-credentials|aws/credentials|docker/config\.json|pypirc|npmrc|kube/config|config/gcloud|config/gh/hosts\.yml)\b|/proc/(?:self|\d+|\$\w+)/environ|actions-runner/\.(?:credentials\w*|runner)\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|(?:^|/)\.git/config$|\.cargo/credentials\b|(?:^|[/'"}])credentials\.toml\b`)
})

// CredentialPath reports a file that holds the runner's own credentials.
func CredentialPath(p string) bool { return credentialPathRe().MatchString(p) }

var profileRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[/~'"\s])\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin)(?:$|[^\w.-])|/etc/profile\b|/etc/profile\.d/|/etc/bash\.bashrc|authorized_keys\b|/etc/ld\.so\.preload|/etc/cron|/etc/rc\.local|` + agentConfig)
})

var shellRCRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[/~'"\s])\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin)(?:$|[^\w.-])`)
})

// ShellRCPath reports a user's shell start-up file (not cron, keys or
// the system's profile): the file an installer adds its PATH line to.
func ShellRCPath(p string) bool {
	return shellRCRe().MatchString(p) && !strings.Contains(p, "authorized_keys")
}

// ProfilePath reports a file whose content runs again later: a shell
// profile, cron, authorized keys, an agent's or editor's settings that run
// commands.
func ProfilePath(p string) bool { return profileRe().MatchString(p) }
