package rules

// Pipeline configuration a CI system fetches by itself when the pipeline
// starts: GitLab's include (remote:, project:, component:), CircleCI's
// orbs, Azure Pipelines' repository resources whose templates a pipeline
// extends, a Jenkinsfile's library loaded from a repository URL. The CI
// system runs what it fetches with the job's token and secrets, and none
// of it is in the diff; what a reference names is judged by provenance.

import (
	"path"
	"regexp"
	"strings"
	"sync"
)

// ConfigPull is one reference to pipeline configuration kept elsewhere.
type ConfigPull struct {
	N       int    // the line that names it
	Kind    string // "remote", "project", "component", "orb", "repository", "library"
	Ref     string // a URL, a project or repository path, an orb
	Version string // the ref, tag or version it is taken at; "" for none
	Type    string // an Azure repository's type (github, git, bitbucket)
}

var (
	glIncludeKeyRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(\s*)(?:-\s+)?include\s*:\s*["']?([^\s"'#]*)`)
	})
	glEntryRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(\s*)(-\s+)?(?:(remote|project|component|ref|integrity|local|template|file)\s*:\s*)?["']?([^\s"'#]*)["']?`)
	})
	orbRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(\s+)[\w-]+\s*:\s*["']?([\w-]+)/([\w-]+)@([^\s"'#]+)`)
	})
	azureKeyRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*(-\s+)?(repository|type|name|ref)\s*:\s*["']?([^\s"'#]+)`)
	})
	pluginRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*-\s+["']?((?:[a-z+]+://)?[\w.@:/-]+?)(?:#([\w./-]+))?["']?\s*:?\s*(?:\{.*\}|~|null)?\s*$`)
	})
	jenkinsLibRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\blibrary\s*\(?\s*(?:identifier\s*:\s*)?["']([^"'@]+)(?:@([^"']+))?["']`)
	})
	jenkinsRemoteRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:remote|url)\s*:\s*["']((?:https?|git|ssh)://[^"']+|git@[^"']+)["']`)
	})
)

// ConfigPulls returns the references to pipeline configuration kept
// elsewhere that the lines of the CI file at p make, lines in order.
func ConfigPulls(p string, lines []NumLine) []ConfigPull {
	lb := strings.ToLower(path.Base(p))
	switch {
	case strings.Contains(p, ".gitlab-ci") || strings.Contains(p, ".gitlab/ci/"):
		return gitlabIncludes(lines)
	case strings.Contains(p, ".circleci/"):
		return circleOrbs(lines)
	case strings.HasPrefix(lb, "azure-pipelines") || strings.Contains(p, ".azure-pipelines/"):
		return azureRepositories(lines)
	case lb == "jenkinsfile" || strings.HasPrefix(lb, "jenkinsfile.") || strings.HasSuffix(lb, ".groovy"):
		return jenkinsLibraries(lines)
	case strings.Contains(p, ".buildkite/") || strings.HasPrefix(lb, "buildkite."):
		return buildkitePlugins(lines)
	}
	return nil
}

func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }

// gitlabIncludes reads include: in its forms: one string, a list of
// strings, a list of maps (remote:, project: with ref:, component:, and
// local: and template:, which stay in the project or with GitLab), as the
// top-level key or under a trigger.
func gitlabIncludes(lines []NumLine) []ConfigPull {
	var out []ConfigPull
	under := -1 // the include: key's indent while its block lasts
	var cur *ConfigPull
	for i, l := range lines {
		if i > 0 && lines[i-1].N != l.N-1 {
			under, cur = -1, nil // a gap between hunks
		}
		t := strings.TrimSpace(l.Text)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if m := glIncludeKeyRe().FindStringSubmatch(l.Text); m != nil {
			under, cur = indentOf(l.Text), nil
			if strings.Contains(m[2], "://") {
				out = append(out, ConfigPull{N: l.N, Kind: "remote", Ref: m[2]})
			}
			out = append(out, glFlow(l)...)
			continue
		}
		if under < 0 {
			continue
		}
		in := indentOf(l.Text)
		if in < under || in == under && !strings.HasPrefix(t, "-") {
			under, cur = -1, nil
			continue
		}
		if strings.Contains(t, "{") {
			out = append(out, glFlow(l)...) // - { remote: …, integrity: … }
			continue
		}
		m := glEntryRe().FindStringSubmatch(l.Text)
		if m == nil {
			continue
		}
		key, val := m[3], strings.Trim(m[4], `"'`)
		if m[2] != "" {
			cur = nil // a new entry
		}
		switch {
		case key == "" && m[2] != "" && strings.Contains(val, "://"):
			out = append(out, ConfigPull{N: l.N, Kind: "remote", Ref: val})
		case key == "remote" || key == "project" || key == "component":
			out = append(out, ConfigPull{N: l.N, Kind: key, Ref: val})
			cur = &out[len(out)-1]
			if key == "component" {
				cur.Ref, cur.Version, _ = strings.Cut(val, "@")
			}
		case (key == "ref" || key == "integrity") && cur != nil:
			cur.Version = val // a remote file's integrity: hash fixes it as a commit does
		}
	}
	return out
}

var glFlowRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(remote|component)\s*:\s*["']?([^\s"',}]+)["']?(?:[^}]*\b(?:integrity|ref)\s*:\s*["']?([^\s"',}]+))?`)
})

// glFlow reads include entries written as flow mappings on one line:
// include: { remote: … }, - { component: …@1.0 }.
func glFlow(l NumLine) []ConfigPull {
	var out []ConfigPull
	for _, m := range glFlowRe().FindAllStringSubmatch(l.Text, -1) {
		p := ConfigPull{N: l.N, Kind: m[1], Ref: m[2], Version: m[3]}
		if p.Kind == "component" {
			p.Ref, p.Version, _ = strings.Cut(m[2], "@")
		}
		out = append(out, p)
	}
	return out
}

// circleOrbs reads the orbs: block: name: namespace/orb@version.
func circleOrbs(lines []NumLine) []ConfigPull {
	var out []ConfigPull
	in := false
	for i, l := range lines {
		if i > 0 && lines[i-1].N != l.N-1 {
			in = false
		}
		if strings.HasPrefix(l.Text, "orbs:") {
			in = true
			continue
		}
		if l.Text != "" && indentOf(l.Text) == 0 && !strings.HasPrefix(strings.TrimSpace(l.Text), "#") {
			in = false
		}
		if !in {
			continue
		}
		if m := orbRe().FindStringSubmatch(l.Text); m != nil {
			out = append(out, ConfigPull{N: l.N, Kind: "orb", Ref: m[2] + "/" + m[3], Version: m[4]})
		}
	}
	return out
}

// azureRepositories reads resources: repositories: entries, each a
// repository alias with its type, name and ref, numbered by the name's
// line: a template taken from it (template: x.yml@alias) is fetched from
// that repository at that ref whenever the pipeline runs.
func azureRepositories(lines []NumLine) []ConfigPull {
	var out []ConfigPull
	var cur *ConfigPull
	flush := func() {
		if cur != nil && cur.N > 0 {
			out = append(out, *cur)
		}
		cur = nil
	}
	for i, l := range lines {
		if i > 0 && lines[i-1].N != l.N-1 {
			flush()
		}
		m := azureKeyRe().FindStringSubmatch(l.Text)
		if m == nil {
			continue
		}
		switch {
		case m[2] == "repository" && m[1] != "":
			flush()
			cur = &ConfigPull{Kind: "repository"}
		case cur == nil:
		case m[2] == "type":
			cur.Type = strings.ToLower(m[3])
		case m[2] == "name":
			cur.N, cur.Ref = l.N, m[3]
		case m[2] == "ref":
			cur.Version = m[3]
		}
	}
	flush()
	return out
}

// jenkinsLibraries reads a library step that names where the library is
// cloned from (retriever: modernSCM with a remote:, legacySCM with a url:),
// numbered by the line that holds the URL; @Library('name') takes a library
// the Jenkins administrator configured, and is not read.
func jenkinsLibraries(lines []NumLine) []ConfigPull {
	var out []ConfigPull
	version, at := "", -100
	for i, l := range lines {
		if i > 0 && lines[i-1].N != l.N-1 {
			at = -100
		}
		if m := jenkinsLibRe().FindStringSubmatch(l.Text); m != nil && !strings.Contains(l.Text, "@Library") {
			version, at = m[2], l.N
		}
		if l.N-at > 8 {
			continue
		}
		if m := jenkinsRemoteRe().FindStringSubmatch(l.Text); m != nil {
			out = append(out, ConfigPull{N: l.N, Kind: "library", Ref: m[1], Version: version})
			at = -100
		}
	}
	return out
}

// buildkitePlugins reads a step's plugins: list; each entry is a plugin
// repository (name, owner/name or a git URL) at #ref, which the agent
// clones and whose hooks it runs around the step.
func buildkitePlugins(lines []NumLine) []ConfigPull {
	var out []ConfigPull
	under := -1
	for i, l := range lines {
		if i > 0 && lines[i-1].N != l.N-1 {
			under = -1
		}
		t := strings.TrimSpace(l.Text)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if strings.TrimPrefix(t, "- ") == "plugins:" {
			under = indentOf(l.Text)
			if strings.HasPrefix(t, "- ") {
				under += 2 // the key of a list item
			}
			continue
		}
		if under < 0 {
			continue
		}
		if in := indentOf(l.Text); in < under || in == under && !strings.HasPrefix(t, "-") {
			under = -1
			continue
		}
		if m := pluginRe().FindStringSubmatch(l.Text); m != nil && indentOf(l.Text) <= under+2 {
			out = append(out, ConfigPull{N: l.N, Kind: "plugin", Ref: m[1], Version: m[2]})
		}
	}
	return out
}

// Checkout is a workflow step that checks another repository out into the
// workspace: actions/checkout with repository:, ref: and path:.
type Checkout struct {
	N    int    // the repository: line
	Repo string // owner/name
	Ref  string // "" for the default branch
	Path string // "" for the workspace itself
}

var checkoutKeyRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:-\s+)?(uses|repository|ref|path)\s*:\s*["']?([^\s"'#]+)`)
})

// ForeignCheckouts returns the checkouts of a named repository the lines of
// a workflow make; one whose repository is an expression (the pull
// request's head, the workflow's own) is left to the readers of those.
func ForeignCheckouts(lines []NumLine) []Checkout {
	var out []Checkout
	var cur *Checkout
	in := false // inside a checkout step
	for i, l := range lines {
		if i > 0 && lines[i-1].N != l.N-1 {
			in = false
		}
		m := checkoutKeyRe().FindStringSubmatch(l.Text)
		if m == nil {
			continue
		}
		switch m[1] {
		case "uses":
			in = strings.HasPrefix(strings.ToLower(m[2]), "actions/checkout@")
			cur = nil
		case "repository":
			if in && !strings.Contains(m[2], "$") && strings.Count(m[2], "/") == 1 {
				out = append(out, Checkout{N: l.N, Repo: m[2]})
				cur = &out[len(out)-1]
			}
		case "ref":
			if cur != nil {
				cur.Ref = m[2]
			}
		case "path":
			if cur != nil {
				cur.Path = strings.Trim(strings.TrimPrefix(m[2], "./"), "/")
			}
		}
	}
	return out
}

// RunsFrom reports a workflow line that runs code from under dir: a local
// action (uses: ./dir/…) or a command that names a file there.
func RunsFrom(line, dir string) bool {
	if dir == "" {
		return false
	}
	t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "-"))
	if u, ok := strings.CutPrefix(t, "uses:"); ok {
		u = strings.Trim(strings.TrimSpace(u), `"'`)
		return strings.HasPrefix(u, "./"+dir+"/") || u == "./"+dir
	}
	if !strings.Contains(t, dir+"/") {
		return false
	}
	re := regexp.MustCompile(`(?:^|[\s"'=(./])` + regexp.QuoteMeta(dir) + `/\S*\.(?:sh|py|js|mjs|ts|rb|pl|ps1)\b`)
	for _, seg := range cmdSegments().Split(t, -1) {
		if re.MatchString(writtenOnly(seg)) {
			return true
		}
	}
	return false
}

var (
	cmdSegments    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`&&|\|\||;|\|`) })
	redirectTarget = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`>>?\s*\S+`) })
)

// writtenOnly drops from a command what it writes to rather than runs: the
// destination a copy, move, link or install ends with, a redirection's
// target, tee's files (cp build/x.rb tap/Casks/x.rb fills the checkout).
func writtenOnly(seg string) string {
	seg = redirectTarget().ReplaceAllString(seg, "")
	f := strings.Fields(strings.Trim(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(seg), "run:")), `"'`))
	for len(f) > 0 && (f[0] == "sudo" || f[0] == "command") {
		f = f[1:]
	}
	if len(f) < 2 {
		return strings.Join(f, " ")
	}
	switch f[0] {
	case "cp", "mv", "ln", "install", "rsync":
		return strings.Join(f[:len(f)-1], " ")
	case "tee":
		return ""
	}
	return strings.Join(f, " ")
}
