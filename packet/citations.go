package packet

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file finds citations in prose: `path:line`, `path:start-end`, bare
// file and log names, names shortened with a leading "…", and ":N" references
// that lean on a path cited earlier in the same sentence. It only parses;
// resolving a citation against the packet is done elsewhere.
//
// Precision matters more than recall here: a false citation becomes a false
// "unresolved" problem, so a word only counts when it clearly names a file.
// The rules (PACKET.md, "Citations"):
//
//   - a name without a line needs an extension vetter knows (see knownExt),
//     or a slash and a letter-led extension of two or more characters;
//   - a name with a line (":12", ":12-20", ":12–20", ":12,40", "#L12-L20")
//     needs any extension that starts with a letter, or a slash;
//   - URLs, e-mail addresses, absolute paths, host names (github.com/...),
//     versions (1.4.0), times (14:33), SHAs and abbreviations (e.g., i.e.)
//     never count.

// ExtractCitations returns the citations written in text, in order, each
// identical citation once. sourceFile and sourceLine say where text was written.
func ExtractCitations(text, sourceFile string, sourceLine int) []Citation {
	var (
		out      []Citation
		seen     map[citeKey]bool
		lastPath string // the last path cited in the current sentence
		inCode   bool   // inside a backtick code span, toggled on each run
	)
	add := func(c Citation) {
		k := citeKey{c.Path, c.Line, c.EndLine, c.Suffix}
		// A line holds few citations: scan them, and only build a set when
		// a pathological line holds many.
		if seen == nil && len(out) >= 16 {
			seen = make(map[citeKey]bool, 2*len(out))
			for _, o := range out {
				seen[citeKey{o.Path, o.Line, o.EndLine, o.Suffix}] = true
			}
		}
		if seen != nil {
			if seen[k] {
				return
			}
			seen[k] = true
		} else {
			for _, o := range out {
				if o.Path == k.path && o.Line == k.line && o.EndLine == k.endLine && o.Suffix == k.suffix {
					return
				}
			}
		}
		c.SourceFile, c.SourceLine = sourceFile, sourceLine
		c.DiffFile, c.DiffHunk, c.DiffLine = -1, -1, -1
		out = append(out, c)
	}

	i := 0
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == '`' {
			inCode = !inCode
			for i < len(text) && text[i] == '`' {
				i++
			}
			continue
		}
		if r == '|' && (i == 0 || text[i-1] != '\\') {
			// A table cell boundary ends the sentence too: cells are separate prose.
			lastPath = ""
			i += size
			continue
		}
		if isCiteSeparator(r) {
			i += size
			continue
		}
		start := i
		for i < len(text) {
			r, size = utf8.DecodeRuneInString(text[i:])
			if r == '`' || isCiteSeparator(r) {
				break
			}
			i += size
		}
		word := text[start:i]
		// Every citation has an extension or a line, so most prose words
		// are dismissed here without further work.
		if !hasCiteMark(word) {
			continue
		}
		if c, ok := parseCitation(trimWord(word)); ok {
			if c.Path == "" {
				// A bare ":N" reference: it only means something after a path
				// in the same sentence.
				if lastPath != "" {
					c.Path = lastPath
					add(c)
				}
			} else {
				add(c)
				lastPath = c.Path
			}
		}
		if !inCode && endsSentence(word) {
			lastPath = ""
		}
	}
	return out
}

// hasCiteMark reports whether w holds '.', ':' or '#'; a loop, since
// strings.ContainsAny builds a set on every call and this runs per word.
func hasCiteMark(w string) bool {
	for i := 0; i < len(w); i++ {
		switch w[i] {
		case '.', ':', '#':
			return true
		}
	}
	return false
}

type citeKey struct {
	path          string
	line, endLine int
	suffix        bool
}

// isCiteSeparator reports whether r can never be part of a cited name.
// The em dash separates prose ("see args.py—it ..."); the en dash is kept
// because it writes line ranges ("args.py:216–231").
func isCiteSeparator(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\f', '\v', '(', ')', '[', ']', '{', '}', '<', '>',
		'"', '*', '=', '—', '\u00a0', '“', '”', '‘', '|':
		return true
	}
	return false
}

// trimWord removes the punctuation prose wraps around a name.
func trimWord(w string) string {
	for {
		n := len(w)
		for w != "" && strings.IndexByte("',;!?", w[0]) >= 0 {
			w = w[1:]
		}
		w = strings.TrimPrefix(w, "’")
		for w != "" && strings.IndexByte(".,;:!?'-_\\", w[len(w)-1]) >= 0 {
			w = w[:len(w)-1]
		}
		w = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(w, "’"), "'s"), "’s")
		if len(w) == n {
			return w
		}
	}
}

// endsSentence reports whether a prose word closes a sentence, so a later
// ":N" no longer refers to a path cited before it.
func endsSentence(w string) bool {
	w = strings.TrimRight(w, ")]}\"'’”*_")
	if !strings.HasSuffix(w, ".") && !strings.HasSuffix(w, "!") && !strings.HasSuffix(w, "?") {
		return false
	}
	lw := strings.ToLower(strings.TrimLeft(w, "([{\"'‘“*_"))
	switch lw {
	case "e.g.", "i.e.", "etc.", "vs.", "cf.", "al.", "approx.", "fig.", "no.", "esp.", "resp.", "incl.":
		return false
	}
	return true
}

// parseCitation parses one trimmed word. A bare ":N" reference comes back
// with an empty Path for the caller to fill.
func parseCitation(w string) (Citation, bool) {
	if w == "" || len(w) > 1024 {
		return Citation{}, false
	}
	if strings.Contains(w, ",") {
		// "a.py,b.py" is rare and ambiguous; "a.py:535,560" keeps its first line.
		head, _, _ := strings.Cut(w, ",")
		if strings.Contains(head, ":") || strings.Contains(head, "#L") {
			c, ok := parseCitation(head)
			if ok {
				c.Text = w
			}
			return c, ok && commaTailIsLines(w[len(head):])
		}
		return Citation{}, false
	}
	if strings.Contains(w, "://") || strings.ContainsRune(w, '@') || strings.ContainsRune(w, '\\') {
		return Citation{}, false
	}

	c := Citation{Text: w}
	if strings.HasPrefix(w, ":") {
		line, end, ok := parseLineSpec(w[1:])
		if !ok || line == 0 {
			return Citation{}, false
		}
		c.Line, c.EndLine = line, end
		return c, true
	}

	path, spec, hasSpec := splitLineSpec(w)
	if hasSpec {
		line, end, ok := parseLineSpec(spec)
		if !ok {
			return Citation{}, false
		}
		c.Line, c.EndLine = line, end
	}

	// A leading or inner ellipsis shortens the name: what follows is its end.
	if k := lastEllipsis(path); k >= 0 {
		c.Suffix = true
		path = path[k:]
		path = strings.TrimPrefix(strings.TrimPrefix(path, "…"), "...")
	}
	path = strings.TrimPrefix(path, "./")
	if !plausiblePath(path, hasSpec, c.Suffix) {
		return Citation{}, false
	}
	c.Path = path
	return c, true
}

// commaTailIsLines reports whether the text after "path:line" is only more
// line numbers (",560" or ",560-570").
func commaTailIsLines(tail string) bool {
	for tail != "" {
		if tail[0] != ',' {
			return false
		}
		tail = tail[1:]
		j := 0
		for j < len(tail) && (tail[j] >= '0' && tail[j] <= '9' || tail[j] == '-') {
			j++
		}
		if j == 0 {
			return false
		}
		tail = tail[j:]
	}
	return true
}

// splitLineSpec splits "path:12-20" or "path#L12-L20" into the path and the
// line part (without ":" or "#L"); other "#fragments" are dropped.
func splitLineSpec(w string) (path, spec string, ok bool) {
	if k := strings.Index(w, "#"); k >= 0 {
		frag := w[k+1:]
		if strings.HasPrefix(frag, "L") && len(frag) > 1 && frag[1] >= '0' && frag[1] <= '9' {
			return w[:k], strings.ReplaceAll(frag[1:], "-L", "-"), true
		}
		return w[:k], "", false
	}
	k := strings.Index(w, ":")
	if k < 0 {
		return w, "", false
	}
	return w[:k], w[k+1:], true
}

// parseLineSpec parses "12", "12-20", "12–20", "12..20", "L12" and an
// ignored trailing ":column". Line 0 and absurd numbers do not count.
func parseLineSpec(s string) (line, end int, ok bool) {
	s = strings.TrimPrefix(s, "L")
	num := func() (int, bool) {
		j := 0
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == 0 || j > 9 {
			return 0, false
		}
		n, err := strconv.Atoi(s[:j])
		s = s[j:]
		return n, err == nil
	}
	line, ok = num()
	if !ok || line == 0 {
		return 0, 0, false
	}
	end = line
	for _, dash := range []string{"-", "–", ".."} {
		if strings.HasPrefix(s, dash) {
			s = strings.TrimPrefix(s[len(dash):], "L")
			e, ok := num()
			if !ok {
				return 0, 0, false
			}
			if e > line {
				end = e
			}
			break
		}
	}
	if strings.HasPrefix(s, ":") {
		// path:line:column; the column is not a line.
		s = s[1:]
		if _, ok := num(); !ok {
			return 0, 0, false
		}
	}
	return line, end, s == ""
}

// lastEllipsis returns the byte offset of the last "…" or "..." in p, or -1.
// ".." alone (a parent directory) is not an ellipsis.
func lastEllipsis(p string) int {
	a := strings.LastIndex(p, "…")
	b := strings.LastIndex(p, "...")
	if b > a {
		return b
	}
	return a
}

// plausiblePath applies the naming rules in the comment at the top of the file.
func plausiblePath(p string, hasLine, suffix bool) bool {
	if p == "" || len(p) > 512 {
		return false
	}
	if !suffix && (p[0] == '/' || p[0] == '~') {
		return false // absolute: neither the packet nor the repository
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '.' || c == '_' || c == '-' || c == '/' || c == '+') {
			return false
		}
	}
	p = strings.TrimPrefix(p, "/") // a suffix may start at a directory boundary
	if p == "" || strings.Contains(p, "//") || strings.HasSuffix(p, "/") {
		return false
	}
	first, _, slash := strings.Cut(p, "/")
	name := p[strings.LastIndexByte(p, '/')+1:]
	if hostLike(first) && !suffix {
		// "github.com/owner/repo" is a URL without its scheme, and
		// "example.com:443" a host and port.
		return false
	}
	if len(name) <= 6 && abbreviations[strings.ToLower(name)] {
		return false
	}
	stem, ext, hasExt := cutExt(name)
	if hasExt && stem == "" && !knownDotfiles[name] {
		return false // ".log" is what is left of "*.log"
	}
	switch {
	case !hasExt:
		return (slash && hasLine) || knownDotfiles[name]
	case !letterLed(ext):
		return false // 1.4.0, 5.22s, python3.12
	case hasLine:
		return true
	case slash:
		// "release/3.x" is a branch, not a file: an unknown one-letter
		// extension is not enough without a line.
		return knownExt[ext] || len(ext) >= 2
	default:
		return knownDotfiles[name] || knownExt[ext] && !jsLibraries[strings.ToLower(name)]
	}
}

// cutExt splits a file name at its last dot.
func cutExt(name string) (stem, ext string, ok bool) {
	k := strings.LastIndexByte(name, '.')
	if k < 0 || k == len(name)-1 {
		return name, "", false
	}
	return name[:k], name[k+1:], true
}

// letterLed reports whether an extension looks like one: a letter, then
// letters or digits.
func letterLed(ext string) bool {
	if ext == "" || len(ext) > 16 {
		return false
	}
	if !(ext[0] >= 'a' && ext[0] <= 'z' || ext[0] >= 'A' && ext[0] <= 'Z') {
		return false
	}
	for i := 1; i < len(ext); i++ {
		c := ext[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// hostLike reports whether a first path segment is a host name.
func hostLike(seg string) bool {
	_, ext, ok := cutExt(seg)
	return ok && topLevelDomains[strings.ToLower(ext)]
}

// knownExt are the extensions a slash-less name without a line must carry to
// count as a file: common source, document, data and log types. "m" and "r"
// are left out because "a.m." and "p.m." are prose.
var knownExt = setOf(
	"log", "txt", "out", "md", "mdx", "markdown", "rst", "adoc",
	"json", "jsonl", "ndjson", "yaml", "yml", "toml", "ini", "cfg", "conf", "env", "lock", "properties",
	"py", "pyi", "pyx", "ipynb", "go", "mod", "sum", "rs", "c", "h", "cc", "cpp", "cxx", "hpp", "hh",
	"cu", "cuh", "java", "kt", "kts", "scala", "groovy", "gradle", "js", "mjs", "cjs", "ts", "mts", "cts",
	"tsx", "jsx", "vue", "svelte", "rb", "php", "pl", "pm", "sh", "bash", "zsh", "fish", "ps1", "bat",
	"sql", "html", "htm", "css", "scss", "less", "xml", "csv", "tsv", "proto", "diff", "patch",
	"dockerfile", "tf", "hcl", "nix", "lua", "swift", "cs", "fs", "jl", "dart", "ex", "exs", "erl",
	"hs", "ml", "zig", "vim", "el", "cmake", "mk", "bzl", "bazel", "pbtxt", "j2", "jinja", "tmpl",
	"tpl", "svg", "png", "jpg", "jpeg", "gif", "pdf", "tar", "tgz", "gz", "zip", "whl",
)

var knownDotfiles = setOf(
	".env", ".gitignore", ".gitattributes", ".gitmodules", ".dockerignore", ".editorconfig",
	".bashrc", ".profile", ".npmrc", ".python-version", ".clang-format", ".flake8", ".pylintrc",
)

// abbreviations are prose words that look like file names.
var abbreviations = setOf("e.g", "i.e", "a.m", "p.m", "n.b", "a.k.a", "et.al", "u.s", "vs", "etc", "cf")

// jsLibraries are product names spelled like files.
var jsLibraries = setOf("node.js", "vue.js", "next.js", "nuxt.js", "express.js", "three.js", "d3.js", "chart.js", "react.js")

var topLevelDomains = setOf(
	"com", "org", "net", "io", "ai", "dev", "edu", "gov", "co", "app", "cloud", "info", "biz",
	"us", "uk", "de", "fr", "jp", "cn", "ru", "in", "eu",
)

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
