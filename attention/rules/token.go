package rules

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// A write permission is what the job's token can do; what the change can
// do with it depends on whether the token reaches a step that runs the
// change's code. actions/checkout leaves the token in .git/config for every
// later step (unless persist-credentials is false); a step handed the token
// in its env or its text has it. A job whose token goes only to named
// commands and actions (a pinned push action, gh with the token to open a
// pull request) while the change's code runs without it grants the change
// nothing it can use.

// TokenReachesCode reports whether a job of a workflow (root is the
// workflow's mapping) hands its token to a step that runs the change's
// code: a build, test or script after a checkout that kept the token, or
// with the token in its env; a local action after such a checkout or
// given the token; a reusable workflow, whose steps the file does not show.
func TokenReachesCode(root, job *yaml.Node) bool {
	if job == nil || job.Kind != yaml.MappingNode {
		return true
	}
	if MapGet(job, "uses") != nil {
		return true
	}
	steps := MapGet(job, "steps")
	if steps == nil || steps.Kind != yaml.SequenceNode {
		return true
	}
	outer := holdsToken(MapGet(root, "env")) || holdsToken(MapGet(job, "env"))
	onDisk := false
	for _, st := range steps.Content {
		if st.Kind != yaml.MappingNode {
			continue
		}
		handed := outer || holdsToken(MapGet(st, "env")) || holdsToken(MapGet(st, "with"))
		if u := MapGet(st, "uses"); u != nil {
			ref, _, _ := strings.Cut(u.Value, "@")
			switch {
			case strings.HasSuffix(ref, "/checkout"):
				p := MapGet(MapGet(st, "with"), "persist-credentials")
				onDisk = onDisk || p == nil || strings.TrimSpace(p.Value) != "false"
			case strings.HasPrefix(ref, "./") && (onDisk || handed):
				return true
			}
			continue
		}
		run := MapGet(st, "run")
		if run == nil {
			continue
		}
		if !(onDisk || handed || tokenExpr(run.Value)) {
			continue
		}
		for _, l := range strings.Split(run.Value, "\n") {
			if BuildCommand(l) {
				return true
			}
		}
	}
	return false
}

func holdsToken(n *yaml.Node) bool { return AnyValue(n, tokenExpr) }

// AnyValue reports whether a mapping node (an env: or with: block) has a
// value of which holds is true; false when n is not a mapping.
func AnyValue(n *yaml.Node, holds func(string) bool) bool {
	if n == nil || n.Kind != yaml.MappingNode {
		return false
	}
	for i := 1; i < len(n.Content); i += 2 {
		if holds(n.Content[i].Value) {
			return true
		}
	}
	return false
}

func tokenExpr(v string) bool {
	v = strings.ToLower(strings.ReplaceAll(v, " ", ""))
	return strings.Contains(v, "github.token") || strings.Contains(v, "secrets.github_token") || strings.Contains(v, "secrets['github_token']")
}

// MapValue returns the text of key's value in a mapping node, "" when it
// has none.
func MapValue(m *yaml.Node, key string) string {
	if v := MapGet(m, key); v != nil {
		return v.Value
	}
	return ""
}

// MapGet returns the value node of key in a mapping node, nil when m is
// not a mapping or has no such key.
func MapGet(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			if v := m.Content[i+1]; v.Kind == yaml.AliasNode && v.Alias != nil {
				return v.Alias // run: *script is the anchored text, run in this step's turn
			}
			return m.Content[i+1]
		}
	}
	return nil
}

// MatrixValues returns every value a workflow's job matrices give key
// (listed under the key, or in an include: entry), nil when a value is
// not a plain string (a list, an expression) or none is given: a
// ${{ matrix.key }} then stands for any one of them.
func MatrixValues(root *yaml.Node, key string) []string {
	jobs := MapGet(root, "jobs")
	if jobs == nil || jobs.Kind != yaml.MappingNode {
		return nil
	}
	var out []string
	take := func(v *yaml.Node) bool {
		if v == nil || v.Kind != yaml.ScalarNode || strings.Contains(v.Value, "${{") {
			return false
		}
		out = append(out, v.Value)
		return true
	}
	for i := 1; i < len(jobs.Content); i += 2 {
		m := MapGet(MapGet(jobs.Content[i], "strategy"), "matrix")
		if m == nil {
			continue
		}
		if v := MapGet(m, key); v != nil {
			if v.Kind != yaml.SequenceNode {
				return nil
			}
			for _, e := range v.Content {
				if !take(e) {
					return nil
				}
			}
		}
		if inc := MapGet(m, "include"); inc != nil && inc.Kind == yaml.SequenceNode {
			for _, e := range inc.Content {
				if v := MapGet(e, key); v != nil && !take(v) {
					return nil
				}
			}
		}
	}
	return out
}

// NodeLines marks the lines of a key and everything under its value.
func NodeLines(k, v *yaml.Node, into map[int]bool) {
	into[k.Line] = true
	into[v.Line] = true
	for _, c := range v.Content {
		NodeLines(c, c, into)
	}
}
