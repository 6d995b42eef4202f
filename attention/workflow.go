package attention

// The workflow reader. When the diff holds a workflow's whole text (a new
// file), it is parsed with go.yaml.in/yaml/v3 — the YAML project's own
// continuation of gopkg.in/yaml.v3, already in the module graph, whose node
// tree keeps every key's line — and read as GitHub reads it: the triggers,
// each job's steps in order, the env each step sees, the run: scripts
// (block, folded and quoted alike) handed to the shell reader with their
// lines, artifacts downloaded from another run, caches saved after the pull
// request's head was checked out. rhysd/actionlint's workflow model was the
// other candidate: it types every key, but brings its own dependencies
// (cron parsing, colour output, shellcheck integration) for the handful of
// keys read here, and its positions come from the same yaml.v3 nodes.
//
// A workflow the diff shows only in part is read line by line: the run:
// blocks the hunk shows are cut out by indentation and parsed as shell, and
// the line rules (workflow_lines.go) rate the rest.

import (
	"cmp"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/vetter-dev/vetter/attention/rules"
	"go.yaml.in/yaml/v3"
)

func (fs *fileScan) workflow() {
	fs.artifactUploads()
	if root := fs.workflowRoot(); root != nil {
		fs.workflowModel(root)
	} else {
		fs.workflowRuns()
	}
	fs.reachCalibrate()
}

// reachOnly are the rules whose weight is what the job's token, secrets,
// environment and runner meet on a run: write permissions, a token left on
// disk, what a step writes into the environment of the steps after it, a
// self-hosted runner the pull request's code would run on. Where no
// run of the vetted change starts the job, what they find waits for a run
// a maintainer starts (a tag, a release, a schedule, a dispatch). What
// runs an outsider's code or text (a head checkout under a privileged
// trigger, a pull request's title in a script) is not among them: those
// triggers reach the job whatever the change is.
var reachOnly = map[string]bool{"gha-excessive-permissions": true, "gha-persist-credentials": true, "gha-github-env-privileged": true,
	"gha-env-hijack": true, "gha-path-shadow": true, "gha-self-hosted-runner": true}

// reachCalibrate lowers the reachOnly rules' high items to medium on the
// lines no run of the vetted change reaches (unreached), saying why.
func (fs *fileScan) reachCalibrate() {
	var off map[int]string
	for at, h := range fs.best {
		if !reachOnly[h.id] || h.sev() != rules.High {
			continue
		}
		if off == nil {
			off = fs.unreached()
		}
		if why, ok := off[fs.f.Hunks[at.hunk].Lines[at.line].New]; ok {
			h.severity, h.why = rules.Medium, why
			fs.best[at] = h
		}
	}
}

// triggerNames are a workflow's triggers for a reader: a push whose filter
// keeps the pull request's copy out is one to named branches or tags.
func triggerNames(root *yaml.Node) []string {
	var names []string
	for name, filter := range triggers(root) {
		if name == "push" && !pushReachesPR(filter) {
			name = "push to named branches or tags"
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// shownTriggers reads the workflow's on: block from a hunk that shows it
// whole (from the top-level on: key to the next top-level key), as a
// mapping with that one key for triggers; nil when no hunk does. The
// triggers are then known as the change leaves them, though the rest of
// the file is not.
func (fs *fileScan) shownTriggers() *yaml.Node {
	for _, reg := range fs.regions() {
		for i, l := range reg {
			if k, _, _ := strings.Cut(l.text, ":"); strings.Trim(k, `"'`) != "on" {
				continue
			}
			var b strings.Builder
			for _, r := range reg[i:] {
				t := strings.TrimSpace(r.text)
				if r.n != l.n && t != "" && !strings.HasPrefix(t, "#") && indentOf(r.text) == 0 {
					var doc yaml.Node
					if yaml.Unmarshal([]byte(b.String()), &doc) != nil || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
						return nil
					}
					return doc.Content[0]
				}
				b.WriteString(r.text)
				b.WriteByte('\n')
			}
			return nil // the hunk ends inside the block: more triggers may follow
		}
	}
	return nil
}

// unreachedJobs marks, in a workflow read whole, the lines of each job no
// run of the vetted change reaches: its if: is false for those runs, or it
// needs a job that is (a job whose condition names no status function
// runs only when the jobs it needs succeeded). When no job is reached, the
// workflow's own permissions reach nothing either.
func (fs *fileScan) unreachedJobs(root *yaml.Node, off map[int]string, tail string) {
	jobs := rules.MapGet(root, "jobs")
	if jobs == nil || jobs.Kind != yaml.MappingNode {
		return
	}
	offJob := map[string]string{}
	for changed := true; changed; {
		changed = false
		for i := 0; i+1 < len(jobs.Content); i += 2 {
			id, job := jobs.Content[i].Value, jobs.Content[i+1]
			if _, done := offJob[id]; done {
				continue
			}
			cond := rules.MapGet(job, "if")
			if cond != nil && rules.CondValue(cond.Value, rules.PRRunTest) == rules.False {
				offJob[id] = "no run of this change reaches the job " + id + ": line " + itoa(cond.Line) + " runs it only when " + strings.TrimSpace(cond.Value)
				changed = true
				continue
			}
			if cond != nil && statusCheckRe().MatchString(cond.Value) {
				continue
			}
			for _, need := range needsOf(job) {
				if _, ok := offJob[need]; ok {
					offJob[id] = "no run of this change reaches the job " + id + ": it runs after the job " + need + ", which none reaches"
					changed = true
					break
				}
			}
		}
	}
	for i := 0; i+1 < len(jobs.Content); i += 2 {
		why, ok := offJob[jobs.Content[i].Value]
		if !ok {
			continue
		}
		for n := jobs.Content[i].Line; n <= nodeLastLine(jobs.Content[i+1]); n++ {
			off[n] = why + tail
		}
	}
	if p := rules.MapGet(root, "permissions"); p != nil && len(offJob) == len(jobs.Content)/2 && len(offJob) > 0 {
		for n := mapKey(root, "permissions").Line; n <= nodeLastLine(p); n++ {
			off[n] = "no run of this change reaches any job of the workflow, so none gets its token's permissions" + tail
		}
	}
}

// statusCheckRe is a status function in an if:, which runs a job whatever
// became of the jobs it needs.
var statusCheckRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(?:always|failure|cancelled)\(\s*\)`) })

// needsOf returns the jobs a job needs.
func needsOf(job *yaml.Node) []string {
	n := rules.MapGet(job, "needs")
	switch {
	case n == nil:
		return nil
	case n.Kind == yaml.ScalarNode:
		return []string{n.Value}
	}
	var out []string
	for _, c := range n.Content {
		out = append(out, c.Value)
	}
	return out
}

// unreached returns the lines of a workflow that no run the vetted change
// starts can reach, each with why: /ok to test starts the pull request's
// own run and the push of its copy to pull-request/N, so a workflow with
// no trigger that reaches those (runsForPR), and a job or step whose if:
// is false for them (rules.PRRunTest), runs only when a maintainer makes
// it. The triggers are the ones the change leaves: a trigger it adds
// reaches. This is the one home of a workflow's reach for the rules that
// weigh what a job's token meets (reachOnly).
func (fs *fileScan) unreached() map[int]string {
	const tail = ": /ok to test starts only the pull request's own run and the push of its copy to a branch named pull-request/N, so this waits for a run a maintainer starts; read it before then"
	off := map[int]string{}
	var regions [][]numbered
	if root := fs.workflowRoot(); root != nil {
		if !runsForPR(root) {
			why := "no run of this change starts the workflow, which runs on " + strings.Join(triggerNames(root), ", ") + tail
			for n := range fs.text {
				off[n] = why
			}
			return off
		}
		fs.unreachedJobs(root, off, tail)
		var all []numbered
		for _, reg := range fs.regions() {
			all = append(all, reg...)
		}
		regions = [][]numbered{all}
	} else {
		regions = fs.regions()
		if on := fs.shownTriggers(); on != nil && !runsForPR(on) {
			why := "no run of this change starts the workflow, which runs on " + strings.Join(triggerNames(on), ", ") + tail
			for n := range fs.text {
				off[n] = why
			}
			return off
		}
	}
	for _, reg := range regions {
		lines := make([]rules.NumLine, 0, len(reg))
		for _, l := range reg {
			if !yamlComment(l.text) {
				lines = append(lines, rules.NumLine{N: l.n, Text: l.text})
			}
		}
		for _, c := range rules.IfConditions(lines) {
			if rules.CondValue(c.Text, rules.PRRunTest) != rules.False {
				continue
			}
			why := "no run of this change reaches it: line " + itoa(c.N) + " runs it only when " + strings.TrimSpace(c.Text) + tail
			for n := c.From; n <= c.To; n++ {
				if _, seen := off[n]; !seen {
					off[n] = why
				}
			}
		}
	}
	return off
}

var uploadArtifactRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:-\s+)?uses\s*:\s*["']?[\w.-]+/upload-artifact@v?(\d*)`)
})

// persistOff reports a workflow whose checkout keeps no token on disk
// (persist-credentials: false).
func (fs *fileScan) persistOff() bool {
	for _, t := range fs.text {
		if strings.Contains(t, "persist-credentials") && strings.Contains(t, "false") {
			return true
		}
	}
	return false
}

// artifactUploads rates what an upload-artifact step takes: the whole
// workspace with its hidden files takes .git/config, where actions/checkout
// left the job's token (unless persist-credentials is false), and a
// credential file is the credential. Anyone who can read the run can
// download the artifact (ArtiPACKED).
func (fs *fileScan) artifactUploads() {
	persistOff := fs.persistOff()
	for _, reg := range fs.regions() {
		for i, l := range reg {
			m := uploadArtifactRe().FindStringSubmatch(l.text)
			if m == nil {
				continue
			}
			ind := indentOf(l.text)
			// Only upload-artifact v4 and later, which hands the artifact
			// out while the job (and its token) still runs, and which
			// takes hidden files only when told to. Before v4 the artifact
			// was downloadable once the run had ended and the token with it.
			hidden, hiddenLine := false, 0
			var paths []numbered
			inPath, pathIndent := false, 0
			for _, r := range reg[i+1:] {
				t := strings.TrimSpace(r.text)
				if t == "" {
					continue
				}
				ri := indentOf(r.text)
				if ri < ind || ri == ind && strings.HasPrefix(t, "-") {
					break
				}
				if inPath && ri > pathIndent {
					paths = append(paths, numbered{r.n, t})
					continue
				}
				inPath = false
				if v, ok := strings.CutPrefix(t, "path:"); ok {
					v = strings.Trim(strings.TrimSpace(v), `"'`)
					if v == "|" || v == ">" || v == "" {
						inPath, pathIndent = true, ri
					} else {
						paths = append(paths, numbered{r.n, v})
					}
				}
				if v, ok := strings.CutPrefix(t, "include-hidden-files:"); ok {
					hidden = strings.TrimSpace(strings.Trim(strings.TrimSpace(v), `"'`)) == "true"
					if hidden {
						hiddenLine = r.n
					}
				}
			}
			for _, p := range paths {
				v := strings.Trim(p.text, `"'`)
				switch {
				case rules.CredentialPath(v) || strings.TrimSuffix(v, "/") == ".git" || strings.HasSuffix(strings.TrimSuffix(v, "/"), "/.git"):
					fs.report(p.n, hit{id: "gha-artifact-credentials", title: "uploads " + v + " as an artifact"})
				case outsideWorkspace(v):
					fs.report(p.n, hit{id: "gha-artifact-credentials", title: "uploads " + v + ", a folder outside the checkout (the runner's home or temp), as an artifact",
						why: "the runner's home and temp folders hold its credential files (.npmrc, .docker/config.json, the git credentials actions write) and the scripts of every step; whoever can read the run downloads them"})
				case workspaceRoot(v) && hidden && !persistOff:
					fs.report(p.n, hit{id: "gha-artifact-credentials"})
					if hiddenLine > 0 {
						fs.report(hiddenLine, hit{id: "gha-artifact-credentials"})
					}
				}
			}
		}
	}
}

// workspaceRoot reports a path that is the whole checkout.
func workspaceRoot(p string) bool {
	p = strings.TrimSuffix(strings.TrimSpace(p), "/")
	switch p {
	case ".", "./", "*", "**", "./*", "./**", "${{ github.workspace }}", "${{github.workspace}}", "$GITHUB_WORKSPACE", "${GITHUB_WORKSPACE}", "${{ github.workspace }}/**":
		return true
	}
	return false
}

// workflowRoot parses the workflow once, when the diff holds it whole;
// nil otherwise, or when it is not a YAML mapping.
func (fs *fileScan) workflowRoot() *yaml.Node {
	if fs.wfParsed {
		return fs.wfRoot
	}
	fs.wfParsed = true
	if !fs.whole() {
		return nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(fs.newText()), &doc); err == nil && len(doc.Content) == 1 && doc.Content[0].Kind == yaml.MappingNode {
		fs.wfRoot = doc.Content[0]
	}
	return fs.wfRoot
}

// newText is the file's new side, for a file the diff holds whole.
func (fs *fileScan) newText() string {
	var b strings.Builder
	for _, reg := range fs.regions() {
		for _, l := range reg {
			b.WriteString(l.text)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// triggers returns the workflow's events, each with its filter node (nil
// for an event named in a scalar or a list).
func triggers(root *yaml.Node) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	on := rules.MapGet(root, "on")
	if on == nil {
		on = rules.MapGet(root, "true") // YAML 1.1 readers turn the key on into true
	}
	if on == nil {
		return out
	}
	switch on.Kind {
	case yaml.ScalarNode:
		out[on.Value] = nil
	case yaml.SequenceNode:
		for _, c := range on.Content {
			out[c.Value] = nil
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(on.Content); i += 2 {
			out[on.Content[i].Value] = on.Content[i+1]
		}
	}
	return out
}

// memberGated are the rules a comment trigger's danger rests on: anyone's
// comment starting a privileged job on anyone's pull request.
var memberGated = map[string]bool{"gha-privileged-trigger": true, "gha-pr-code-run": true, "gha-cache-poisoning": true, "gha-untrusted-checkout": true}

// membersOnly reports a workflow started only by comments (issue_comment,
// with workflow_dispatch or a schedule beside it), every job of which runs
// only when the comment's author is the repository's owner, a member or a
// collaborator (the job's if: is false, read as an expression, for anyone
// else's comment): the comment that starts it comes from someone who can
// push to the repository already.
func membersOnly(root *yaml.Node) bool {
	trig := triggers(root)
	if _, ok := trig["issue_comment"]; !ok {
		return false
	}
	for name := range trig {
		switch name {
		case "issue_comment", "workflow_dispatch", "schedule":
		default:
			return false
		}
	}
	jobs := rules.MapGet(root, "jobs")
	if jobs == nil || jobs.Kind != yaml.MappingNode || len(jobs.Content) == 0 {
		return false
	}
	for i := 1; i < len(jobs.Content); i += 2 {
		cond := rules.MapGet(jobs.Content[i], "if")
		if cond == nil || rules.CondValue(cond.Value, rules.CommenterTest) != rules.False {
			return false
		}
	}
	return true
}

// sameRepoOnly reports a workflow started by pull_request_target or
// workflow_run (with a schedule or a dispatch beside them) every job of
// which runs only for a pull request from a branch of the repository
// itself (rules.ForkTest): its author can push to the repository already,
// and no fork's pull request reaches the job.
func sameRepoOnly(root *yaml.Node) bool {
	trig := triggers(root)
	privileged := false
	for name := range trig {
		switch name {
		case "pull_request_target", "workflow_run":
			privileged = true
		case "workflow_dispatch", "schedule":
		default:
			return false
		}
	}
	jobs := rules.MapGet(root, "jobs")
	if !privileged || jobs == nil || jobs.Kind != yaml.MappingNode || len(jobs.Content) == 0 {
		return false
	}
	for i := 1; i < len(jobs.Content); i += 2 {
		cond := rules.MapGet(jobs.Content[i], "if")
		if cond == nil || rules.CondValue(cond.Value, rules.ForkTest) != rules.False {
			return false
		}
	}
	return true
}

// pushReachesPR reports whether a push filter lets a push to the branch a
// pull request is copied to (pull-request/N) start the workflow.
func pushReachesPR(f *yaml.Node) bool {
	if f == nil || f.Kind != yaml.MappingNode {
		return true
	}
	list := func(key string) ([]string, bool) {
		n := rules.MapGet(f, key)
		if n == nil {
			return nil, false
		}
		var out []string
		if n.Kind == yaml.ScalarNode {
			return []string{n.Value}, true
		}
		for _, c := range n.Content {
			out = append(out, c.Value)
		}
		return out, true
	}
	matches := func(pats []string) bool {
		for _, p := range pats {
			if p == "**" || strings.HasPrefix(p, "pull-request") || strings.HasPrefix(p, "pull-request/") || p == "*/*" || strings.HasSuffix(p, "/**") && strings.HasPrefix("pull-request/", strings.TrimSuffix(p, "**")) {
				return true
			}
		}
		return false
	}
	if b, ok := list("branches"); ok {
		return matches(b)
	}
	if b, ok := list("branches-ignore"); ok {
		return !matches(b)
	}
	_, tags := list("tags")
	_, tagsIgnore := list("tags-ignore")
	return !tags && !tagsIgnore
}

// mapKey returns the key node of key in a mapping node.
func mapKey(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i]
		}
	}
	return nil
}

// wfModel is what the reader learned of a workflow's triggers.
type wfModel struct {
	privileged  bool // pull_request_target, workflow_run, issue_comment, a check run or suite: secrets and a write token for others' code
	pullRequest bool // pull_request: others' code, in the pull request's own scope
}

func (fs *fileScan) workflowModel(root *yaml.Node) {
	m := wfModel{}
	for n := range triggers(root) {
		switch n {
		case "pull_request_target", "workflow_run", "issue_comment", "check_run", "check_suite":
			m.privileged = true
		case "pull_request":
			m.pullRequest = true
		}
	}
	env := fs.envOf(rules.MapGet(root, "env"), nil)
	// A composite action's steps run like a job's.
	if runs := rules.MapGet(root, "runs"); runs != nil {
		fs.workflowSteps(m, rules.MapGet(runs, "steps"), env)
	}
	jobs := rules.MapGet(root, "jobs")
	if jobs == nil || jobs.Kind != yaml.MappingNode {
		return
	}
	wfRestricted := readOnlyToken(rules.MapGet(root, "permissions"))
	withSecrets := prWithSecrets(root)
	allRestricted := true
	// unused are the lines of permissions blocks whose write reaches no
	// step that runs the change's code (rules.TokenReachesCode).
	unused, rootReaches := map[int]bool{}, false
	for i := 1; i < len(jobs.Content); i += 2 {
		job := jobs.Content[i]
		if p := rules.MapGet(job, "permissions"); p != nil && !rules.TokenReachesCode(root, job) {
			rules.NodeLines(mapKey(job, "permissions"), p, unused)
		} else if p == nil {
			rootReaches = rootReaches || rules.TokenReachesCode(root, job)
		}
		fs.workflowSteps(m, rules.MapGet(job, "steps"), fs.envOf(rules.MapGet(job, "env"), env))
		restricted := wfRestricted
		if p := rules.MapGet(job, "permissions"); p != nil {
			restricted = readOnlyToken(p)
		}
		allRestricted = allRestricted && restricted
	}
	if p := rules.MapGet(root, "permissions"); p != nil && !rootReaches {
		rules.NodeLines(mapKey(root, "permissions"), p, unused)
	}
	for at, h := range fs.best {
		if h.id == "gha-excessive-permissions" && h.sev() == rules.High && unused[fs.f.Hunks[at.hunk].Lines[at.line].New] {
			h.severity = rules.Medium
			h.why = "the job's token can write, but no step that runs the change's code gets it: no checkout keeps it on disk before a build, and only named commands and actions are handed it"
			fs.best[at] = h
		}
	}
	// The token a checkout leaves on disk is read by the later steps of
	// the job: it matters where the pull request's code is among them with
	// a token worth taking — a push that reaches its copy, or a privileged
	// trigger that checks its head out.
	why := ""
	switch {
	case !runsForPR(root):
		// No run of the change starts the workflow: reachCalibrate says so.
	case !withSecrets:
		why = "the later steps of the job can read the token from .git/config, but on pull_request GitHub hands a fork's pull request a read-only token, and no push this workflow runs for reaches a pull request's copy"
	case m.privileged && !prCopyPushed(root) && !fs.checksOutHead():
		why = "the later steps of the job can read the token from .git/config, but they run the base branch's code: no step checks out the pull request's head"
	case allRestricted:
		why = "the later steps of the job can read the token from .git/config, but its permissions leave it unable to change code, releases or packages"
	}
	if why != "" {
		for at, h := range fs.best {
			if h.id == "gha-persist-credentials" && h.sev() == rules.High {
				h.severity = rules.Medium
				h.why = why
				fs.best[at] = h
			}
		}
	}
}

// prWithSecrets reports whether a trigger that runs for a pull request
// gives the run the repository's secrets and the token the workflow asks
// for: a push to the branch /ok to test copies it to, a privileged
// trigger, a caller (workflow_call) whose trigger is not known here, or no
// trigger the reader knows. pull_request alone does not: a fork's pull
// request runs with a read-only token and no secrets.
func prWithSecrets(root *yaml.Node) bool {
	tr := triggers(root)
	if len(tr) == 0 {
		return true
	}
	for name, filter := range tr {
		switch name {
		case "push":
			if pushReachesPR(filter) {
				return true
			}
		case "pull_request_target", "workflow_run", "issue_comment", "workflow_call", "pull_request_review_comment", "merge_group", "check_run", "check_suite":
			return true
		}
	}
	return false
}

// prCopyPushed reports a push trigger that reaches a pull request's copy.
func prCopyPushed(root *yaml.Node) bool {
	f, ok := triggers(root)["push"]
	return ok && pushReachesPR(f)
}

// checksOutHead reports a file that checks out the pull request's head
// somewhere (ref: head.sha, gh pr checkout, git fetch pull/N).
func (fs *fileScan) checksOutHead() bool {
	for _, t := range fs.text {
		if !yamlComment(t) && wfRe().wfHeadCheckout.MatchString(t) {
			return true
		}
	}
	return false
}

// runsForPR reports whether any of the workflow's triggers starts it for a
// pull request: its own events, a comment on it, a run it caused, or a
// push that reaches the branch the pull request is copied to. A workflow
// with no trigger the reader knows is taken to run for one.
func runsForPR(root *yaml.Node) bool {
	tr := triggers(root)
	if len(tr) == 0 {
		return true
	}
	for name, filter := range tr {
		switch {
		case name == "push":
			if pushReachesPR(filter) {
				return true
			}
		case !rules.OffPREvents[name]:
			return true
		}
	}
	return false
}

// readOnlyToken reports a permissions: block under which the job's token
// cannot change code, releases, packages or cloud access: read-all, {},
// or write only to issues, pull requests, checks and the like. No block
// at all is not read-only: the repository's default may be write-all.
func readOnlyToken(n *yaml.Node) bool {
	switch {
	case n == nil:
		return false
	case n.Kind == yaml.ScalarNode:
		return n.Value == "read-all" || n.Value == "" || n.Value == "{}"
	case n.Kind != yaml.MappingNode:
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i+1].Value != "write" {
			continue
		}
		switch n.Content[i].Value {
		case "contents", "actions", "id-token", "packages", "pages", "deployments", "attestations", "security-events":
			return false
		}
	}
	return true
}

// envOf binds the names of an env: mapping that hold secrets, on top of
// the outer env.
func (fs *fileScan) envOf(n *yaml.Node, outer map[string]taint) map[string]taint {
	out := map[string]taint{}
	for k, v := range outer {
		out[k] = v
	}
	if n == nil || n.Kind != yaml.MappingNode {
		return out
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if t := exprTaint(v.Value, v.Line, fs.workflowNames()); t.kind != 0 {
			out[k.Value] = t
		} else {
			delete(out, k.Value)
		}
	}
	return out
}

// workflowSteps reads one job's steps in order, with one flow: the steps
// of a job share the runner's file system.
func (fs *fileScan) workflowSteps(m wfModel, steps *yaml.Node, env map[string]taint) {
	if steps == nil || steps.Kind != yaml.SequenceNode {
		return
	}
	fl := newFlow()
	headOut := 0
	// headPath is the folder the pull request's head was checked out
	// into when it is not the workspace itself; ran is set once a step
	// runs what is there.
	headPath, ran := "", false
	// opaque is set once an action of neither GitHub nor the change runs
	// after the head's checkout: what it does with the workspace is not in
	// the diff.
	opaque := false
	for _, st := range steps.Content {
		if st.Kind != yaml.MappingNode {
			continue
		}
		stepEnv := fs.envOf(rules.MapGet(st, "env"), env)
		if u := rules.MapGet(st, "uses"); u != nil && u.Kind == yaml.ScalarNode {
			ref, _, _ := strings.Cut(u.Value, "@")
			with := rules.MapGet(st, "with")
			if owner, _, _ := strings.Cut(ref, "/"); headOut > 0 && owner != "actions" && owner != "github" {
				opaque = true
			}
			switch {
			case ref == "actions/checkout":
				at := 0
				if r := rules.MapGet(with, "ref"); r != nil && wfRe().wfHeadCheckout.MatchString("ref: "+r.Value) {
					at = r.Line
				}
				if r := rules.MapGet(with, "repository"); r != nil && wfRe().wfHeadCheckout.MatchString("repository: "+r.Value) {
					at = cmp.Or(at, r.Line)
				}
				if at > 0 {
					headOut = at
					headPath = ""
					if p := rules.MapGet(with, "path"); p != nil && !workspaceRoot(p.Value) {
						headPath = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(p.Value), "./"), "/")
					}
				}
			case m.privileged && headOut > 0 && strings.HasPrefix(ref, "./") &&
				(headPath == "" || underPath(strings.TrimPrefix(ref, "./"), headPath)):
				// A local action from the pull request's checkout: its
				// action.yml is the pull request's.
				fs.report(u.Line, hit{id: "gha-pr-code-run", title: "uses an action from the pull request's checkout in a privileged workflow", source: headOut})
				ran = true
			case ref == "actions/download-artifact" || ref == "dawidd6/action-download-artifact" || strings.HasSuffix(ref, "/download-artifact"):
				if m.privileged {
					if fl.artifact.kind == 0 {
						fl.artifact = taint{kind: tArtifact, line: u.Line}
					}
					dir := ""
					if p := rules.MapGet(with, "path"); p != nil && !workspaceRoot(p.Value) {
						dir = strings.TrimSuffix(rules.WorkspacePath(p.Value), "/")
						if strings.Contains(dir, "${{") {
							dir = "" // a folder the diff does not name: the workspace, for all it shows
						}
					}
					fl.artifactDirs = append(fl.artifactDirs, dir)
				}
			case ref == "actions/github-script" && fl.artifact.kind != 0:
				// A script that requires or imports a module from the
				// artifact runs the pull request's code with the job's token.
				if sc := rules.MapGet(with, "script"); sc != nil && sc.Kind == yaml.ScalarNode {
					for _, l := range fs.scalarLines(sc, mapKey(with, "script").Column-1) {
						for _, m := range jsLoadRe().FindAllStringSubmatch(l.text, -1) {
							// a file (./x.js, ${process.env.RUNNER_TEMP}/x.js), not a package ('fs', '@actions/core')
							p := jsEnvRe().ReplaceAllString(m[1], "$$$1")
							if (strings.HasPrefix(p, ".") || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "$")) && fl.inArtifact(p) {
								fs.report(l.n, hit{id: "gha-artifact-run", title: "loads " + m[1] + ", a module from another run's artifact (downloaded on line " + itoa(fl.artifact.line) + "), into a privileged script", source: fl.artifact.line})
							}
						}
					}
				}
			case rules.CacheSaves(ref, func(k string) string { return rules.MapValue(with, k) }):
				switch p := rules.MapGet(with, "path"); {
				case m.privileged && headOut > 0:
					fs.report(u.Line, hit{id: "gha-cache-poisoning", source: headOut})
				case m.pullRequest && headOut > 0: // the pull request's own cache scope, which the base branch does not restore
					fs.report(u.Line, hit{id: "gha-cache-poisoning", severity: rules.Medium, title: "saves a cache after checking out the pull request's head", source: headOut})
				case p != nil:
					fs.cacheSaved(fl, u.Line, strings.Split(p.Value, "\n"))
				}
			}
			continue
		}
		run, runKey := rules.MapGet(st, "run"), mapKey(st, "run")
		if run == nil || run.Kind != yaml.ScalarNode {
			continue
		}
		if sh := rules.MapGet(st, "shell"); sh != nil && !strings.Contains(sh.Value, "bash") && !strings.HasPrefix(sh.Value, "sh") {
			continue // pwsh, python, cmd: the line rules read those
		}
		fl.env = stepEnv
		if m.privileged {
			fl.head = headOut
		}
		if strings.Contains(run.Value, "gh run download") && m.privileged {
			fl.artifact = taint{kind: tArtifact, line: run.Line}
			dir := "" // the working directory: the workspace
			if d := ghRunDir().FindStringSubmatch(run.Value); d != nil && !rules.WorkspaceRoot(d[1]) {
				dir = strings.TrimSuffix(rules.WorkspacePath(d[1]), "/")
			}
			fl.artifactDirs = append(fl.artifactDirs, dir)
		}
		lines := fs.scalarLines(run, runKey.Column-1)
		if m.privileged && headOut > 0 {
			if headPath == "" {
				ran = fs.prCodeRun(lines, headOut) || ran
			} else {
				wd := ""
				if w := rules.MapGet(st, "working-directory"); w != nil {
					wd = w.Value
				}
				ran = fs.prPathRun(lines, headOut, headPath, wd) || ran
			}
		}
		fs.shellLines(lines, fl, true)
		if headOut == 0 && wfRe().wfHeadCheckout.MatchString(run.Value) && (!strings.Contains(run.Value, "git fetch") || slices.ContainsFunc(slices.Collect(maps.Values(fs.text)), rules.TreeChange)) {
			// gh pr checkout, git fetch origin pull/N/head: the steps after
			// it run the pull request's code, and so may this step's own
			// lines after it.
			headOut = run.Line
			for i, l := range lines {
				if loc := wfRe().wfHeadCheckout.FindStringIndex(l.text); loc != nil {
					headOut = l.n
					if m.privileged {
						// The line's own build after the checkout (gh pr
						// checkout N && make test) runs the pull request's
						// code as surely as a build on the next line does.
						if rules.BuildCommand(l.text[loc[1]:]) {
							if at, ok := fs.added[l.n]; !ok || fs.best[at].sev() != rules.High {
								fs.report(l.n, hit{id: "gha-pr-code-run", title: "checks out the pull request's head and builds or runs it on the same line, in a privileged workflow", source: headOut})
							}
							ran = true
						} else {
							ran = fs.prCodeRun(lines[i+1:], headOut) || ran
						}
					}
					break
				}
			}
		}
	}
	if m.privileged && headOut > 0 && headPath == "" && !ran && !opaque {
		// The head checked out into the workspace and no later step
		// builds, installs or runs from it, and no action whose code is
		// not in the diff works there: its files stay data. A later step
		// that is high on its own (a downloaded script piped to sh) is such
		// code too: it runs in the workspace the pull request wrote.
		last := nodeLastLine(steps)
		for l, h := range fs.best {
			n := fs.f.Hunks[l.hunk].Lines[l.line].New
			if h.sev() == rules.High && (h.source == headOut || n > headOut && n <= last) {
				ran = true
			}
		}
		if at, ok := fs.added[headOut]; ok && !ran && fs.best[at].id == "gha-untrusted-checkout" {
			h := fs.best[at]
			h.severity = rules.Medium
			h.why = "no later step of the job builds, installs or runs what the pull request wrote, and no action whose code the diff does not show works in the workspace: its files are read as data, with the write token and secrets beside them, so check what reads them"
			fs.best[at] = h
		}
	}
	if m.privileged && headOut > 0 && headPath != "" && !ran {
		// Another reader may have followed the checkout's files into a
		// later step (onto the PATH, into a cache): then they run.
		for _, h := range fs.best {
			if h.source == headOut && h.sev() == rules.High {
				ran = true
			}
		}
	}
	if m.privileged && headOut > 0 && headPath != "" && !ran {
		if at, ok := fs.added[headOut]; ok && fs.best[at].id == "gha-untrusted-checkout" {
			h := fs.best[at]
			h.severity = rules.Medium
			h.title = "checks out the pull request's head into " + headPath + " in a privileged workflow"
			h.why = "no later step of the job runs what is there (no build, install, script or action from " + headPath + ", nor a step working in it): the pull request's files are read as data, with the write token and secrets beside them, so check what reads them"
			fs.best[at] = h
		}
	}
}

var (
	jsLoadRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("\\b(?:require|import)\\(\\s*[`'\"]([^`'\"]+)[`'\"]")
	})
	jsEnvRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{process\.env\.(\w+)\}`) })
)

var ghRunDir = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bgh\s+run\s+download\b[^\n]*?\s(?:-D|--dir)[ =]("[^"]*"|'[^']*'|\$\{\{[^}]*\}\}\S*|\S+)`)
})

// underPath reports whether p is dir or inside it.
func underPath(p, dir string) bool {
	p = strings.TrimPrefix(strings.TrimSpace(p), "./")
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// prPathRun rates the run: lines of a step after the pull request's head
// was checked out into dir under a privileged trigger: the pull request's
// code runs when the step works in dir (working-directory, cd) and builds
// or runs there, or names a file in dir as the program, the script an
// interpreter runs, or what an installer or build tool takes. dir given to
// a program from elsewhere as the value of an option is read as data.
func (fs *fileScan) prPathRun(lines []numbered, head int, dir, wd string) bool {
	inDir := underPath(wd, dir)
	for _, l := range lines {
		words := strings.Fields(l.text)
		for i, w := range words {
			w = strings.Trim(w, `"'`)
			if (w == "cd" || w == "pushd") && i+1 < len(words) && underPath(strings.Trim(words[i+1], `"'`), dir) {
				inDir = true
			}
		}
		if inDir && rules.BuildCommand(l.text) {
			fs.report(l.n, hit{id: "gha-pr-code-run", source: head})
			return true
		}
		for i, w := range words {
			w = strings.Trim(w, `"'();&|`)
			w = strings.TrimPrefix(strings.TrimPrefix(w, "${{ github.workspace }}/"), "$GITHUB_WORKSPACE/")
			if !underPath(w, dir) {
				continue
			}
			prev := ""
			if i > 0 {
				prev = strings.Trim(words[i-1], `"'`)
			}
			switch {
			case i == 0 || prev == "&&" || prev == ";" || prev == "|" || prev == "sudo":
				// the program itself
			case runsPathArg[prev] || pathOptions[prev]:
			case strings.HasPrefix(prev, "-"):
				continue // an option's value: data for the program from elsewhere
			case !rules.BuildCommand(l.text):
				continue
			}
			fs.report(l.n, hit{id: "gha-pr-code-run", source: head})
			return true
		}
	}
	return false
}

// runsPathArg are the words after which a path is run, installed or built.
var runsPathArg = map[string]bool{"bash": true, "sh": true, "zsh": true, "source": true, ".": true, "python": true, "python3": true,
	"node": true, "ruby": true, "perl": true, "pwsh": true, "php": true, "deno": true, "bun": true, "install": true, "build": true,
	"exec": true, "run": true, "eval": true}

// pathOptions are the options whose value is the folder a tool works in
// or the manifest it builds.
var pathOptions = map[string]bool{"-C": true, "--prefix": true, "--cwd": true, "--dir": true, "--directory": true, "--manifest-path": true,
	"--project": true, "--project-dir": true, "-f": true, "--file": true, "-e": true, "--editable": true, "--rootdir": true,
	"--chdir": true, "--working-dir": true, "--config": true, "-c": true}

// scalarLines returns a run: value as numbered lines: a block scalar's
// lines as the file holds them, dedented; a one-line value at its line.
func (fs *fileScan) scalarLines(n *yaml.Node, keyIndent int) []numbered {
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
		lines := strings.Split(n.Value, "\n")
		out := make([]numbered, len(lines))
		for i, l := range lines {
			out[i] = numbered{n.Line, l}
		}
		return out
	}
	var out []numbered
	indent := -1
	for ln := n.Line + 1; ; ln++ {
		t, ok := fs.text[ln]
		if !ok {
			break
		}
		if strings.TrimSpace(t) == "" {
			out = append(out, numbered{ln, ""})
			continue
		}
		ind := indentOf(t)
		if indent < 0 {
			indent = ind
		}
		if ind < indent || ind <= keyIndent {
			break
		}
		out = append(out, numbered{ln, t[indent:]})
	}
	for len(out) > 0 && out[len(out)-1].text == "" {
		out = out[:len(out)-1]
	}
	return out
}

// prCodeRun rates the run: lines of a step after the pull request's head
// was checked out under a privileged trigger: a line that installs, builds,
// tests or runs a script runs the pull request's code with the write token
// and secrets.
func (fs *fileScan) prCodeRun(lines []numbered, head int) bool {
	for _, l := range lines {
		if rules.BuildCommand(l.text) {
			fs.report(l.n, hit{id: "gha-pr-code-run", source: head})
			return true
		}
	}
	return false
}

// cacheSaved rates a cache step whose paths hold what an earlier step
// downloaded or decoded: the next run that restores the cache, a
// privileged one included, runs it.
func (fs *fileScan) cacheSaved(fl *flow, line int, paths []string) {
	for _, p := range paths {
		p = strings.TrimSpace(p)
		if p == "" || strings.HasPrefix(p, "!") {
			continue
		}
		if t := fl.pathTaint(p); t.runs() {
			fs.report(line, hit{id: "gha-cache-poisoning", title: "saves a cache holding what line " + itoa(t.line) + " downloaded or decoded", source: t.line})
			return
		} else if t.kind&tTamper != 0 {
			fs.report(line, hit{id: "gha-cache-poisoning", title: "saves a cache holding dependency code line " + itoa(t.line) + " rewrote", source: t.line})
			return
		}
	}
}

// pathTaint is what a file holds, or a directory by the files written under it.
func (fl *flow) pathTaint(p string) taint {
	key := strings.TrimSuffix(rules.NormPath(p), "/")
	t := fl.files[key]
	for k, v := range fl.files {
		if strings.HasPrefix(k, key+"/") {
			t = t.or(v)
		}
	}
	return t
}

var wfEnvBind = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*["']?(\$\{\{.*)$`)
})

// workflowRuns reads the run: blocks a partial workflow diff shows: each
// hunk's lines inside a run: value, cut out by indentation. The env a hunk
// shows binding secrets or pull-request text is bound for the whole file,
// and an artifact of the triggering run, once downloaded, taints the files
// the later steps run.
func (fs *fileScan) workflowRuns() {
	fl := newFlow()
	ws := newWorkflowScan(fs.f, nil)
	for _, reg := range fs.regions() {
		for _, l := range reg {
			if m := wfEnvBind().FindStringSubmatch(l.text); m != nil && m[1] != "run" && m[1] != "if" {
				if t := exprTaint(m[2], l.n, fs.workflowNames()); t.kind != 0 {
					fl.env[m[1]] = t
				}
			}
		}
	}
	head, cache, ran := 0, 0, 0 // ran: a run of the pull request's code after its checkout
	for _, reg := range fs.regions() {
		w := &workflowScan{runIndent: -1, unknown: true}
		var cur []numbered
		indent := -1
		flush := func() {
			if len(cur) > 0 {
				if head > 0 && (ws.dangerous || cache > 0 && !ws.triggersKnown) {
					fs.prCodeRunPartial(cur, head, cache, ws.dangerous)
				}
				if i := slices.IndexFunc(cur, func(l numbered) bool { return rules.BuildCommand(l.text) }); i >= 0 && head > 0 && ran == 0 && (ws.dangerous || !ws.triggersKnown) {
					ran = cur[i].n
				}
				fs.shellLines(cur, fl, true)
			}
			cur, indent = nil, -1
		}
		for i, l := range reg {
			inRun := w.step(l.text)
			if !inRun {
				flush()
				switch {
				case wfRe().wfHeadCheckout.MatchString(l.text):
					head = l.n
					if ws.dangerous || !ws.triggersKnown {
						fl.head = head
					}
				case strings.Contains(l.text, "github.event.workflow_run") && strings.Contains(l.text, "run-id") ||
					ws.dangerous && strings.Contains(l.text, "download-artifact"):
					fl.artifact = taint{kind: tArtifact, line: l.n}
				}
				if m := wfRe().wfUses.FindStringSubmatch(l.text); m != nil && rules.CacheSaves(m[1], func(k string) string {
					return strings.Join(stepInputs(reg[i+1:], indentOf(l.text), k), " ")
				}) {
					cache = l.n
					if ran > 0 { // under pull_request_target, which the hunk does not rule out, the base branch's cache
						fs.report(l.n, hit{id: "gha-cache-poisoning", title: "saves a cache after running the pull request's code (line " + itoa(ran) + "); the trigger is not shown, and under pull_request_target the cache is the base branch's", source: ran})
					}
					fs.cacheSaved(fl, l.n, stepInputs(reg[i+1:], indentOf(l.text), "path"))
				}
			}
			if m := wfRe().wfRunKey.FindStringSubmatch(l.text); m != nil {
				flush()
				if rest := strings.TrimSpace(m[3]); rest != "" && rest[0] != '|' && rest[0] != '>' {
					cur = []numbered{{l.n, unquoteYAML(rest)}}
					flush()
				}
				continue
			}
			if !inRun {
				flush()
				continue
			}
			if strings.TrimSpace(l.text) == "" {
				cur = append(cur, numbered{l.n, ""})
				continue
			}
			ind := indentOf(l.text)
			if indent < 0 || ind < indent {
				indent = ind
			}
			cur = append(cur, numbered{l.n, l.text[min(indent, ind):]})
		}
		flush()
	}
}

// prCodeRunPartial rates a run: block of a partial workflow after a
// checkout of the pull request's head: under a privileged trigger it runs
// the pull request's code; with the trigger not shown and a cache in the
// job, what it leaves in the cache is restored by the workflows after it.
func (fs *fileScan) prCodeRunPartial(lines []numbered, head, cache int, privileged bool) {
	if privileged {
		fs.prCodeRun(lines, head)
		return
	}
	for _, l := range lines {
		if rules.BuildCommand(l.text) {
			fs.report(l.n, hit{id: "gha-cache-poisoning", title: "runs the pull request's code (checked out on line " + itoa(head) + ") in a job that caches", source: cache})
			return
		}
	}
}

// stepInputs returns the values of one key of a step (a cache step's
// path:, a setup action's cache:), from the lines after its uses: line, up
// to the next step.
func stepInputs(rest []numbered, usesIndent int, key string) []string {
	var out []string
	inPath, pathIndent := false, 0
	for _, l := range rest {
		t := strings.TrimSpace(l.text)
		if t == "" {
			continue
		}
		ind := indentOf(l.text)
		if ind < usesIndent || ind == usesIndent && strings.HasPrefix(t, "-") {
			break
		}
		if inPath && ind > pathIndent {
			out = append(out, t)
			continue
		}
		inPath = false
		if v, ok := strings.CutPrefix(t, key+":"); ok {
			v = strings.Trim(strings.TrimSpace(v), `"'`)
			if v == "|" || v == ">" || v == "" {
				inPath, pathIndent = true, ind
			} else {
				out = append(out, v)
			}
		}
	}
	return out
}

// unquoteYAML strips the quotes of a one-line YAML scalar.
func unquoteYAML(s string) string {
	var v string
	if yaml.Unmarshal([]byte("v: "+s), &struct {
		V *string `yaml:"v"`
	}{&v}) == nil && v != "" {
		return v
	}
	return s
}

// outsideWorkspace reports an artifact path that reaches out of the
// checkout into the runner's home, temp or root folders.
func outsideWorkspace(v string) bool {
	v = strings.TrimSpace(v)
	lv := strings.ReplaceAll(strings.ToLower(v), " ", "")
	switch {
	case v == "~" || v == "~/" || v == "/" || strings.HasPrefix(v, "$HOME") || strings.HasPrefix(v, "${HOME}") || strings.HasPrefix(lv, "/home/runner") && !strings.Contains(lv, "/work/"):
		return true
	case strings.HasPrefix(lv, "${{runner.temp}}") || strings.HasPrefix(lv, "${{runner.tool_cache}}") || strings.HasPrefix(lv, "/tmp") && strings.Count(strings.Trim(lv, "/"), "/") == 0:
		return strings.Contains(lv, "..") || strings.TrimRight(strings.TrimPrefix(strings.TrimPrefix(lv, "${{runner.temp}}"), "${{runner.tool_cache}}"), "/*") == "" && !strings.HasPrefix(lv, "/tmp")
	case strings.HasPrefix(lv, "..") || strings.Contains(lv, "${{github.workspace}}/.."):
		return true
	}
	return false
}

// runnerReads hands the file's lines to the runner's reader: a workflow's
// to rules.WorkflowRunner, any file that names the runner's own places to
// rules.ProgramRunner.
func (fs *fileScan) runnerReads() {
	if fs.info.Prose || fs.f.Binary {
		return
	}
	wf := fs.info.Scope&rules.ScopeWorkflow != 0 && (strings.HasSuffix(fs.path, ".yml") || strings.HasSuffix(fs.path, ".yaml"))
	keyed := len(fs.hot[hotRunner]) > 0
	if !wf && !keyed {
		return
	}
	if fs.added == nil {
		fs.index()
	}
	var ls []rules.SrcLine
	for _, reg := range fs.regions() {
		for _, l := range reg {
			_, added := fs.added[l.n]
			t := l.text
			if rest, ok := fs.messages[l.n]; ok && !wf {
				t = rest // a command spelled out in a message the script prints does not run
			}
			ls = append(ls, rules.SrcLine{N: l.n, Text: t, Added: added})
		}
	}
	var found []rules.Finding
	if wf {
		found = rules.WorkflowRunner(ls)
	}
	if keyed {
		found = append(found, rules.ProgramRunner(ls)...)
	}
	for _, f := range found {
		fs.report(f.Line, hit{id: f.ID, title: f.Title, why: f.Why, severity: f.Sev, source: f.Source})
	}
}

// nodeLastLine is the last line a YAML node's text reaches: its own, or its
// last child's, a block scalar counted by its lines.
func nodeLastLine(n *yaml.Node) int {
	for len(n.Content) > 0 {
		n = n.Content[len(n.Content)-1]
	}
	end := n.Line + strings.Count(strings.TrimRight(n.Value, "\n"), "\n")
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		end++ // the text starts on the line after | or >
	}
	return end
}
