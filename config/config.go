// Package config reads the settings a person makes once, in
// $XDG_CONFIG_HOME/vetter/config.yml (else ~/.config/vetter/config.yml):
// the theme, key bindings, the regular expression that marks a pull request
// as awaiting vetting, and the repositories of the queue. It only parses
// and checks the file; what a key binding's action names is checked against
// the screens' key tables by whoever owns them (Binding.Line says where to
// point).
//
//	theme: dark                  # dark or light; absent: detected
//	awaiting: '(?i)please vet'   # absent: the queue's default
//	queue:
//	  repositories: [octo/app, ghe.example.com/team/svc]
//	keys:
//	  triage.accept: A         # one key,
//	  global.quit: [q, ctrl+c]   # or several
//
// Every error names the file and line: "config.yml:7: theme: ...".
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Config is the parsed file. The zero Config is no file: every setting at
// its default.
type Config struct {
	// Path is the file read, for messages; empty when there was none.
	Path string
	// Theme is "dark", "light" or "" (detect).
	Theme string
	// Awaiting is the queue's awaiting expression, compiled; nil for the
	// default. AwaitingText is how the file wrote it.
	Awaiting     *regexp.Regexp
	AwaitingText string
	// Repositories are the queue's repositories, as written
	// ([HOST/]OWNER/REPO).
	Repositories []string
	// Keys are the key bindings, in the file's order.
	Keys []Binding
}

// Binding remaps one action to the keys given.
type Binding struct {
	Action string   // "screen.action", as the help lists it
	Keys   []string // key names as Bubble Tea spells them: "a", "A", "ctrl+a", "enter", "f2"
	Line   int      // where the file says so
}

// Error is one thing wrong in the file, at a line.
type Error struct {
	Path string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
}

// Errors is every problem found in the file, in line order.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Path is where the file is: $XDG_CONFIG_HOME/vetter/config.yml, else
// ~/.config/vetter/config.yml (the same place on every system, as gh and
// gh-dash keep theirs).
func Path() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "vetter", "config.yml")
}

// maxFileSize bounds what is read: a settings file is a few hundred bytes.
const maxFileSize = 1 << 20

// Load reads the file at path; a missing file is the zero Config and no
// error, a file with mistakes is as Parse returns it.
func Load(path string) (*Config, error) {
	if path == "" {
		return &Config{}, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Config{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("%s: %d bytes; a config file is at most %d", path, len(data), maxFileSize)
	}
	return Parse(path, data)
}

// Parse parses a config file's contents; path names it in errors. A file
// with mistakes is Errors, every one at its line, and the Config of the
// settings that were sound (nil when the file is not YAML or not a
// mapping).
func Parse(path string, data []byte) (*Config, error) {
	c := &Config{Path: path}
	if len(bytes.TrimSpace(data)) == 0 {
		return c, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, Errors{yamlError(path, err)}
	}
	p := &parser{path: path}
	root := &doc
	if root.Kind == 0 || root.Kind == yaml.DocumentNode && len(root.Content) == 0 {
		return c, nil // comments only
	}
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		p.fail(root, "the file must be a mapping of settings (theme, awaiting, queue, keys)")
		return nil, p.errs
	}
	p.mapping(root, func(key string, k, v *yaml.Node) {
		switch key {
		case "theme":
			if s, ok := p.scalar(v, "theme"); ok {
				switch s {
				case "dark", "light":
					c.Theme = s
				case "", "auto":
				default:
					p.fail(v, fmt.Sprintf("theme: %q is not dark, light or auto", s))
				}
			}
		case "awaiting":
			if s, ok := p.scalar(v, "awaiting"); ok {
				re, err := regexp.Compile(s)
				if err != nil {
					p.fail(v, fmt.Sprintf("awaiting: %q is not a regular expression: %v", s, err))
				} else {
					c.Awaiting, c.AwaitingText = re, s
				}
			}
		case "queue":
			p.queue(v, c)
		case "keys":
			p.keys(v, c)
		default:
			p.fail(k, fmt.Sprintf("unknown setting %q (the settings are theme, awaiting, queue and keys)", key))
		}
	})
	if len(p.errs) > 0 {
		// What the sound lines set comes back beside the errors, so the
		// caller can check the key bindings against the screens' and
		// report those mistakes in the same run.
		return c, p.errs
	}
	return c, nil
}

type parser struct {
	path string
	errs Errors
}

func (p *parser) fail(n *yaml.Node, msg string) {
	p.errs = append(p.errs, &Error{Path: p.path, Line: n.Line, Msg: msg})
}

// mapping calls each for every key of a mapping, refusing repeated keys
// (YAML forbids them, and the later one would silently win).
func (p *parser) mapping(n *yaml.Node, each func(key string, k, v *yaml.Node)) {
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.fail(k, "a setting's name must be a plain word")
			continue
		}
		if line, dup := seen[k.Value]; dup {
			p.fail(k, fmt.Sprintf("%q is set twice (first on line %d)", k.Value, line))
			continue
		}
		seen[k.Value] = k.Line
		each(k.Value, k, v)
	}
}

func (p *parser) scalar(v *yaml.Node, what string) (string, bool) {
	if v.Kind != yaml.ScalarNode {
		p.fail(v, what+": want a single value")
		return "", false
	}
	return v.Value, true
}

// strings reads one string or a list of them.
func (p *parser) strings(v *yaml.Node, what string) ([]string, bool) {
	switch v.Kind {
	case yaml.ScalarNode:
		return []string{v.Value}, true
	case yaml.SequenceNode:
		var out []string
		for _, e := range v.Content {
			if e.Kind != yaml.ScalarNode {
				p.fail(e, what+": want a list of plain values")
				return nil, false
			}
			out = append(out, e.Value)
		}
		return out, true
	}
	p.fail(v, what+": want a value or a list of values")
	return nil, false
}

// repoName is [HOST/]OWNER/REPO as GitHub spells its names.
var repoName = regexp.MustCompile(`^(?:[A-Za-z0-9.-]+/)?[A-Za-z0-9-]+/[A-Za-z0-9._-]+$`)

func (p *parser) queue(v *yaml.Node, c *Config) {
	if v.Kind != yaml.MappingNode {
		p.fail(v, "queue: want a mapping (repositories: [OWNER/REPO, ...])")
		return
	}
	p.mapping(v, func(key string, k, v *yaml.Node) {
		if key != "repositories" {
			p.fail(k, fmt.Sprintf("queue: unknown setting %q (queue has repositories)", key))
			return
		}
		repos, ok := p.strings(v, "queue.repositories")
		if !ok {
			return
		}
		nodes := v.Content
		if v.Kind == yaml.ScalarNode {
			nodes = []*yaml.Node{v}
		}
		for i, r := range repos {
			if !repoName.MatchString(r) {
				p.fail(nodes[i], fmt.Sprintf("queue.repositories: %q is not OWNER/REPO or HOST/OWNER/REPO", r))
				continue
			}
			c.Repositories = append(c.Repositories, r)
		}
	})
}

// actionName is screen.action: lower-case words joined by dashes.
var actionName = regexp.MustCompile(`^[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$`)

func (p *parser) keys(v *yaml.Node, c *Config) {
	if v.Kind != yaml.MappingNode {
		p.fail(v, "keys: want a mapping of screen.action to keys (triage.accept: A)")
		return
	}
	p.mapping(v, func(action string, k, v *yaml.Node) {
		if !actionName.MatchString(action) {
			p.fail(k, fmt.Sprintf("keys: %q is not screen.action as `vetter config` lists them", action))
			return
		}
		keys, ok := p.strings(v, "keys."+action)
		if !ok {
			return
		}
		if len(keys) == 0 {
			p.fail(v, fmt.Sprintf("keys.%s: no key given", action))
			return
		}
		for _, key := range keys {
			if err := CheckKey(key); err != nil {
				p.fail(v, fmt.Sprintf("keys.%s: %v", action, err))
				return
			}
		}
		c.Keys = append(c.Keys, Binding{Action: action, Keys: keys, Line: k.Line})
	})
}

// namedKeys are the keys with names, as Bubble Tea's key messages spell
// them (KeyPressMsg.String()).
var namedKeys = map[string]bool{
	"enter": true, "esc": true, "tab": true, "space": true, "backspace": true, "delete": true,
	"insert": true, "up": true, "down": true, "left": true, "right": true, "home": true,
	"end": true, "pgup": true, "pgdown": true,
	"f1": true, "f2": true, "f3": true, "f4": true, "f5": true, "f6": true,
	"f7": true, "f8": true, "f9": true, "f10": true, "f11": true, "f12": true,
}

// CheckKey says whether key is a key name a binding can hold: one
// character, or a named key, after any of ctrl+, alt+ and shift+.
func CheckKey(key string) error {
	rest := key
	for {
		var cut bool
		for _, mod := range []string{"ctrl+", "alt+", "shift+"} {
			if r, ok := strings.CutPrefix(rest, mod); ok && r != "" {
				rest, cut = r, true
			}
		}
		if !cut {
			break
		}
	}
	if namedKeys[rest] || len([]rune(rest)) == 1 && rest != " " {
		return nil
	}
	if key == "" {
		return errors.New("an empty key")
	}
	return fmt.Errorf("%q is not a key (one character, or enter, esc, tab, space, backspace, delete, up, down, left, right, home, end, pgup, pgdown, f1-f12, after ctrl+, alt+ or shift+)", key)
}

// yamlError turns the parser's message ("yaml: line 3: ...") into one at a
// line of the file.
func yamlError(path string, err error) *Error {
	msg := err.Error()
	line := 0
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		fmt.Sscan(m[1], &line)
		msg = strings.Replace(msg, m[0], "", 1)
	}
	msg = strings.TrimPrefix(strings.TrimPrefix(msg, "yaml: "), "unmarshal errors:\n  ")
	return &Error{Path: path, Line: line, Msg: "not YAML: " + strings.TrimSpace(msg)}
}

var yamlLine = regexp.MustCompile(`line (\d+): `)
