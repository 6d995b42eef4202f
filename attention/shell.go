package attention

// The shell reader. Shell runs in workflow run: steps, Makefile recipes,
// Dockerfile RUN lines, scripts, package.json scripts and go:generate; it
// is parsed with mvdan.cc/sh/v3/syntax, the parser behind shfmt, which
// handles what a line pattern cannot: continued lines, pipes across them,
// redirections, here-documents, command and process substitution, and
// quoting. The reader then follows the data through the script: what a
// command downloads or decodes, into a variable, a pipe or a file, and
// where it is run; what reads secrets or the environment, and where it is
// sent. The item goes on the line that runs or sends, and names the line
// the data came from.

import (
	"net"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/vetter-dev/vetter/attention/provenance"
	"github.com/vetter-dev/vetter/attention/rules"
	"mvdan.cc/sh/v3/syntax"
)

// taintKind says what a value holds.
type taintKind uint16

const (
	tDownload   taintKind = 1 << iota // fetched from the network
	tDecode                           // decoded (base64, hex, ...): the diff does not show it
	tSecret                           // a secret or token
	tSecretBulk                       // the whole environment, or a credential file
	tArtifact                         // an artifact another workflow's run made
	tUntrusted                        // text whoever opens a pull request or an issue chose (a title, a body, a branch name)
	tRunnerPid                        // the process id of the runner's worker, which holds the job's secrets
	tTamper                           // an installed dependency's files, rewritten by the script
	tHeadFiles                        // a path into the pull request's checked-out files, in a privileged job
	tDigest                           // a digest computed on the runner (sha256sum f): checked against, it proves nothing
)

// taint is what a value holds and the line it came from.
type taint struct {
	kind taintKind
	line int // new-side line of the file where the data came from
}

func (t taint) or(o taint) taint {
	switch {
	case t.kind == 0:
		return o
	case o.kind == 0:
		return t
	}
	// The earliest source names the data; the kinds add up.
	const runs = tDownload | tDecode | tArtifact
	if o.kind&runs != 0 && (t.kind&runs == 0 || o.line > 0 && o.line < t.line) {
		t.line = o.line
	}
	t.kind |= o.kind
	return t
}

func (t taint) runs() bool   { return t.kind&(tDownload|tDecode|tArtifact) != 0 }
func (t taint) bulk() bool   { return t.kind&tSecretBulk != 0 }
func (t taint) secret() bool { return t.kind&(tSecret|tSecretBulk) != 0 }

// flow is what the reader knows within one file (one job of a workflow):
// variables and files that hold tainted data.
type flow struct {
	vars  map[string]taint
	files map[string]taint
	// artifact, when set, taints every relative file: the workflow
	// downloaded another run's artifact into the workspace.
	artifact taint
	// artifactDirs are the folders the artifacts went into, "" for the
	// workspace itself; none known is the workspace.
	artifactDirs []string
	// keys is set when a key gpg imports came from a download: a
	// signature it checks then proves only that the same host signed it.
	keys taint
	// env holds step and job env: names bound to secrets, by name.
	env map[string]taint
	// vals holds the literal text assigned to a variable (or the first
	// item of a for loop), so a path built from it reads as written.
	vals map[string]string
	// head is the line that checked out the pull request's head in a job
	// that may be privileged (pull_request_target, workflow_run, or a
	// trigger the diff does not show); 0 for none.
	head int
}

func newFlow() *flow {
	return &flow{vars: map[string]taint{}, files: map[string]taint{}, env: map[string]taint{}, vals: map[string]string{}}
}

// shellReader reads one parsed script.
type shellReader struct {
	fs     *fileScan
	fl     *flow
	lineOf func(int) int // the script's line (1-based) to the file's new-side line
	exprs  []string      // the ${{ }} expressions replaced by $__gha<n>
	depth  int
	// piped counts the pipes whose left side is being read: that output
	// feeds the next command rather than the log.
	piped int
	// stage is set while a pipeline's stages are read: a check is read
	// whole, at the pipeline (echo "$SUM  f" | sha256sum -c).
	stage int
	// lastIn is what the last stage of the pipeline just read was given
	// (the list a sha256sum -c reads from a pipe); unheeded is set while the
	// left side of an || whose right side does not stop the script is read:
	// a check failing there stops nothing.
	lastIn   taint
	unheeded int
	// echoed is what the directories an echo or printf just named hold,
	// for a line that puts them on GITHUB_PATH.
	echoed taint
	// echoedCheckout is set when an echo or printf just named a directory
	// of the checkout (the workspace, a relative path), or a PATH= that
	// starts with one.
	echoedCheckout int
	echoedPATH     bool // ... and that text was PATH=
	// fn is the function whose body is being read; printed is what the
	// script prints as messages (shared by the readers of its lines), and
	// src the script's lines as parsed.
	fn      string
	printed *printed
	src     []string
}

var ghaExpr = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{\{.*?\}\}`) })

// printed is what a script prints as messages, kept until the whole script
// is read: only then is it known whether the output of a function that
// prints one is taken by a pipe, a substitution or a file (usage | sh), or
// whether the script moved its own output (exec > file, exec > >(sh)).
type printed struct {
	spans map[string][]span // the message text, by the function that prints it ("" outside any)
	taken map[string]bool   // names whose output a pipe, substitution or file takes
	moved bool
}

// span is the part of a script's line from byte from to byte to.
type span struct {
	n, from, to int // n: the file's new-side line
	text        string
}

// message notes the text an echo or printf prints to the terminal or the
// log: not piped, not written to a file or a descriptor other than 1 and 2,
// not inside a command substitution, and with no command substitution of
// its own. Any other command whose output goes elsewhere is noted as taken.
func (r *shellReader) message(c *syntax.CallExpr, s *syntax.Stmt) {
	if len(c.Args) == 0 {
		return
	}
	if r.printed == nil {
		r.printed = &printed{spans: map[string][]span{}, taken: map[string]bool{}}
	}
	toLog := r.piped == 0 && r.depth == 0
	for _, rd := range s.Redirs {
		if p := r.lit(rd.Word); !(rd.Op == syntax.DplOut && (p == "1" || p == "2")) && p != "/dev/null" && p != "/dev/stderr" && p != "/dev/stdout" {
			toLog = false
		}
	}
	name := r.lit(c.Args[0])
	if !toLog {
		r.printed.taken[name] = true
		r.printed.moved = r.printed.moved || name == "exec" && len(c.Args) == 1
		return
	}
	if name != "echo" && name != "printf" || len(c.Args) < 2 || runsInside(c.Args[1:]) {
		return
	}
	from, to := c.Args[1].Pos(), c.Args[len(c.Args)-1].End()
	for k := int(from.Line()); k <= int(to.Line()); k++ {
		if k < 1 || k > len(r.src) {
			continue
		}
		sp := span{n: r.lineOf(k), to: len(r.src[k-1]), text: r.src[k-1]}
		if k == int(from.Line()) {
			sp.from = int(from.Col()) - 1
		}
		if k == int(to.Line()) {
			sp.to = min(int(to.Col())-1, sp.to)
		}
		r.printed.spans[r.fn] = append(r.printed.spans[r.fn], sp)
	}
}

// runsInside reports whether words hold a command or process substitution.
func runsInside(words []*syntax.Word) bool {
	runs := false
	for _, w := range words {
		syntax.Walk(w, func(n syntax.Node) bool {
			switch n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				runs = true
			}
			return !runs
		})
	}
	return runs
}

// messages records, for each line holding a message nothing runs, the
// line's text outside the message: what the line itself runs.
func (r *shellReader) messages() {
	p := r.printed
	if p == nil || p.moved {
		return
	}
	rest := map[int][]byte{}
	for fn, spans := range p.spans {
		if fn != "" && p.taken[fn] {
			continue
		}
		for _, sp := range spans {
			b, ok := rest[sp.n]
			if !ok {
				b = []byte(sp.text)
			}
			for i := max(sp.from, 0); i < sp.to && i < len(b); i++ {
				b[i] = ' '
			}
			rest[sp.n] = b
		}
	}
	for n, b := range rest {
		if r.fs.messages == nil {
			r.fs.messages = map[int]string{}
		}
		r.fs.messages[n] = strings.TrimSpace(string(b))
	}
}

// shellLines parses lines (new-side numbered) as one script and reads it.
// A script that does not parse (a hunk cut in the middle of a block) is
// read a logical line at a time, continued lines joined; what still does
// not parse is left to the line rules.
func (fs *fileScan) shellLines(lines []numbered, fl *flow, gha bool) {
	if len(lines) == 0 {
		return
	}
	r := &shellReader{fs: fs, fl: fl}
	defer r.messages()
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		t := l.text
		if gha && strings.Contains(t, "${{") {
			t = ghaExpr().ReplaceAllStringFunc(t, func(m string) string {
				r.exprs = append(r.exprs, m)
				return "${__gha" + itoa(len(r.exprs)-1) + "}"
			})
		}
		b.WriteString(t)
	}
	src := b.String()
	r.src = strings.Split(src, "\n")
	r.lineOf = func(k int) int {
		if k < 1 {
			k = 1
		}
		if k > len(lines) {
			k = len(lines)
		}
		return lines[k-1].n
	}
	if f, err := fs.parseShell(src); err == nil {
		if fs.shellRead == nil {
			fs.shellRead = map[int]bool{}
		}
		for _, l := range lines {
			fs.shellRead[l.n] = true
		}
		r.stmts(f.Stmts, taint{})
		return
	}
	// One logical line at a time.
	srcLines := strings.Split(src, "\n")
	start := 0
	for i := range lines {
		if strings.HasSuffix(strings.TrimRight(lines[i].text, " \t"), "\\") && i+1 < len(lines) {
			continue
		}
		first := start
		start = i + 1
		f, err := fs.parseShell(strings.Join(srcLines[first:i+1], "\n"))
		if err != nil {
			continue
		}
		sub := *r
		off := first
		sub.lineOf = func(k int) int { return r.lineOf(k + off) }
		sub.src = srcLines[first : i+1]
		sub.stmts(f.Stmts, taint{})
	}
}

func (fs *fileScan) parseShell(src string) (*syntax.File, error) {
	if fs.parser == nil {
		fs.parser = syntax.NewParser(syntax.Variant(syntax.LangBash))
	}
	return fs.parser.Parse(strings.NewReader(src), "")
}

func (r *shellReader) line(p syntax.Pos) int { return r.lineOf(int(p.Line())) }

func (r *shellReader) stmts(ss []*syntax.Stmt, stdin taint) taint {
	var out taint
	for _, s := range ss {
		out = r.stmt(s, stdin)
	}
	return out
}

// stmt reads one statement given what its standard input holds, and
// returns what its standard output holds.
func (r *shellReader) stmt(s *syntax.Stmt, stdin taint) taint {
	if s == nil || r.depth > 20 {
		return taint{}
	}
	for _, rd := range s.Redirs {
		switch rd.Op {
		case syntax.RdrIn:
			// < file, or < <(cmd): a process substitution's output.
			stdin = stdin.or(r.fileTaint(r.lit(rd.Word), r.line(rd.Pos()))).or(r.wordTaint(rd.Word))
		case syntax.WordHdoc:
			stdin = stdin.or(r.wordTaint(rd.Word))
		case syntax.Hdoc, syntax.DashHdoc:
			if rd.Hdoc != nil {
				stdin = stdin.or(r.wordTaint(rd.Hdoc))
			}
		}
	}
	var out taint
	r.echoed, r.echoedCheckout = taint{}, 0
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		r.message(c, s)
		out = r.call(c, s, stdin)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.Pipe, syntax.PipeAll:
			r.piped++
			r.stage++
			in := r.stmt(c.X, stdin)
			r.piped--
			if _, ok := c.Y.Cmd.(*syntax.CallExpr); ok {
				r.lastIn = in
			}
			out = r.stmt(c.Y, in)
			r.stage--
			if r.depth == 0 && r.piped == 0 && r.toLog(s.Redirs) && r.toLog(c.Y.Redirs) && in.secret() && in.kind&tSecretBulk == 0 && maskBreaker(r, c.Y) {
				r.fs.report(r.line(c.Y.Pos()), hit{id: "secret-unmasked", source: in.line})
			}
		default:
			heeded := c.Op != syntax.OrStmt || stops(c.Y)
			if !heeded {
				r.unheeded++
			}
			r.stmt(c.X, stdin)
			if !heeded {
				r.unheeded--
			}
			out = r.stmt(c.Y, taint{})
		}
	case *syntax.Block:
		out = r.stmts(c.Stmts, stdin)
	case *syntax.Subshell:
		out = r.stmts(c.Stmts, stdin)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			r.stmts(ic.Cond, taint{})
			out = r.stmts(ic.Then, stdin)
		}
	case *syntax.WhileClause:
		r.stmts(c.Cond, stdin) // while read line: the condition reads the loop's input
		out = r.stmts(c.Do, stdin)
	case *syntax.ForClause:
		if it, ok := c.Loop.(*syntax.WordIter); ok && it.Name != nil && len(it.Items) > 0 {
			r.fl.vals[it.Name.Value] = r.lit(it.Items[0])
			// for chunk in $(xxd -p env.json): each item holds what the list does.
			var t taint
			for _, w := range it.Items {
				t = t.or(r.wordTaint(w))
			}
			if t.kind != 0 {
				r.fl.vars[it.Name.Value] = t
			}
		}
		out = r.stmts(c.Do, stdin)
	case *syntax.FuncDecl:
		fn := r.fn
		r.fn = c.Name.Value
		r.stmt(c.Body, taint{})
		r.fn = fn
	case *syntax.CaseClause:
		for _, it := range c.Items {
			out = r.stmts(it.Stmts, stdin)
		}
	case *syntax.DeclClause:
		words := []string{c.Variant.Value}
		for _, a := range c.Args {
			r.assign(a)
			if a.Name != nil {
				words = append(words, a.Name.Value)
			} else {
				words = append(words, r.lit(a.Value)) // a flag: -x, -p
			}
		}
		if rules.EnvDump(c.Variant.Value, words) {
			out = taint{kind: tSecretBulk, line: r.line(c.Pos())}
		}
	case *syntax.TimeClause:
		out = r.stmt(c.Stmt, stdin)
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr, *syntax.TestClause:
		r.verify(s)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			r.verify(s)
		}
	}
	for _, rd := range s.Redirs {
		switch rd.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob:
			p := r.lit(rd.Word)
			if strings.HasPrefix(p, "&") || p == "/dev/null" || p == "/dev/stderr" || p == "/dev/stdout" {
				continue
			}
			if strings.Contains(p, "GITHUB_PATH") && r.echoed.kind&tHeadFiles != 0 {
				r.fs.report(r.line(rd.Pos()), hit{id: "gha-github-env-privileged", title: "puts the pull request's files (checked out on line " + itoa(r.echoed.line) + ") on the PATH of every later step",
					why: "every later step, the privileged ones with the write token and secrets included, runs the pull request's programs in place of the commands it names", source: r.echoed.line})
			} else if r.echoedCheckout > 0 && (strings.Contains(p, "GITHUB_PATH") || r.echoedPATH && strings.Contains(p, "GITHUB_ENV")) && r.fs.laterSecretStep(r.line(rd.Pos())) > 0 {
				at := r.fs.laterSecretStep(r.line(rd.Pos()))
				r.fs.report(r.line(rd.Pos()), hit{id: "gha-path-shadow", title: "puts a directory of the checkout first on PATH before the step on line " + itoa(at) + ", which holds a secret",
					source: r.echoedCheckout})
			} else if strings.Contains(p, "GITHUB_PATH") && r.echoed.runs() {
				r.fs.report(r.line(rd.Pos()), hit{id: "gha-github-env-privileged", title: "puts a directory holding what line " + itoa(r.echoed.line) + " fetched on the PATH of every later step",
					why: "every later step that runs a command by name may run the downloaded file instead", source: r.echoed.line})
			}
			r.written(p, out, r.line(rd.Pos()), rd.Op == syntax.AppOut || rd.Op == syntax.AppAll)
			out = taint{}
		}
	}
	return out
}

// written records that p now holds t, and rates where it was written.
func (r *shellReader) written(p string, t taint, line int, appending bool) {
	key := rules.NormPath(p)
	if appending {
		t = r.fl.files[key].or(t)
	}
	if t.kind != 0 {
		r.fl.files[key] = t
	} else {
		delete(r.fl.files, key)
	}
	switch {
	case runnerCachePath(p):
		r.fs.report(line, hit{id: "runner-action-cache"})
	case selfHostedRunnerPath(p):
		// A self-hosted runner reads its .env and .path (and the job hooks
		// they name) before every later job, another workflow's included.
		r.fs.report(line, hit{id: "runner-action-cache", title: "writes into the self-hosted runner's own files (" + p + ")", source: t.line})
	case strings.Contains(p, ".git/hooks/") && !strings.HasSuffix(p, ".sample"):
		// A hook written into a checkout runs at its next git command: a
		// later step's commit, fetch or checkout, with the job's token.
		r.fs.report(line, hit{id: "git-hooks", title: "writes a git hook into " + p, source: t.line})
	case dependencyPath(p):
		r.fl.files[key] = r.fl.files[key].or(taint{kind: tTamper, line: line})
		r.fs.report(line, hit{id: "dependency-tamper"})
	case rules.ProfilePath(p):
		if installerPath(r.fs.path) && rules.ShellRCPath(p) && !t.runs() && !rules.RCLineFetches(r.fs.text[line]) {
			r.fs.report(line, hit{id: "persistence", severity: rules.Medium, title: "an installer writes the shell profile", why: whyInstallerProfile})
		} else {
			r.fs.report(line, hit{id: "persistence", source: t.line})
		}
	case strings.Contains(p, "GITHUB_ENV") || strings.Contains(p, "GITHUB_PATH"):
		if t.kind&tUntrusted != 0 && t.line != line {
			title := "writes text from the pull request or issue (line " + itoa(t.line) + ") into GITHUB_ENV or GITHUB_PATH"
			r.fs.report(line, hit{id: "gha-env-injection", title: title, source: t.line})
		} else if t.runs() {
			r.fs.report(line, hit{id: "gha-github-env-privileged", title: "writes downloaded or decoded data into GITHUB_ENV or GITHUB_PATH",
				why: "every later step of the job runs with an environment nobody can read in the diff", source: t.line})
		}
	}
}

// runAsRoot rates RUNNER_ALLOW_RUNASROOT: in a workflow a job prepares a
// runner of its own; in a script it is high beside a registration that
// names its own target, and otherwise what a runner image sets.
func (r *shellReader) runAsRoot(line int) {
	if r.fs.ciJob() || r.fs.registersLiteral() {
		r.fs.report(line, hit{id: "runner-register", title: "lets a self-hosted runner run as root"})
		return
	}
	r.fs.report(line, hit{id: "runner-register", severity: rules.Medium, title: "lets a self-hosted runner run as root (set by a runner image)",
		why: "a runner image sets it for the runner it starts; a job that runs it hands the runner to whoever named its repository"})
}

var registerLiteralRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bconfig\.(?:sh|cmd|ps1)\b.*--url\s+["']?https?://`)
})

var assignWordRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`) })

// pidArg is the taint of the runner worker's process id among args: a
// variable holding it. (A $(pgrep … Runner.Worker) on the line itself is
// the line rule's.)
func (r *shellReader) pidArg(args []*syntax.Word) taint {
	var t taint
	for _, w := range args {
		for _, p := range w.Parts {
			if q, ok := p.(*syntax.DblQuoted); ok && len(q.Parts) == 1 {
				p = q.Parts[0]
			}
			switch x := p.(type) {
			case *syntax.ParamExp:
				if x.Param != nil && r.fl.vars[x.Param.Value].kind&tRunnerPid != 0 {
					t = r.fl.vars[x.Param.Value]
				}
			}
		}
	}
	return t
}

var dependencyPathRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|/|~)(?:node_modules/(?:@[^/]+/)?(?:[^/.][^/]*|\.bin)/|(?:site|dist)-packages/|\.cargo/registry/|go/pkg/mod/|\.m2/repository/|\.gradle/caches/|vendor/bundle/|\.npm/_cacache/|\.cache/pip/|\.pnpm-store/|\.yarn/cache/)`)
})

// dependencyPath reports a file inside an installed dependency: what the
// package manager fetched, which the next step that loads it runs.
func dependencyPath(p string) bool {
	return strings.Contains(p, "/") && dependencyPathRe().MatchString(p)
}

// inWorkspace reports a directory inside the job's workspace, where the
// checkouts are: $GITHUB_WORKSPACE/…, ${{ github.workspace }}, $PWD, a
// relative path.
func inWorkspace(w string) bool {
	w = strings.Trim(w, `"'`)
	switch {
	case strings.Contains(w, "GITHUB_WORKSPACE") || strings.Contains(w, "github.workspace") || strings.HasPrefix(w, "$PWD") || strings.HasPrefix(w, "${PWD}"):
		return true
	case w == "" || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~") || strings.HasPrefix(w, "$") || strings.HasPrefix(w, "-"):
		return false
	}
	return strings.Contains(w, "/") || w == "."
}

// pwdWord reports a word that starts with $(pwd): the working directory,
// which in a workflow step is the checkout.
func pwdWord(w *syntax.Word) bool {
	parts := w.Parts
	if len(parts) > 0 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) == 0 {
		return false
	}
	cs, ok := parts[0].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return false
	}
	call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	return ok && len(call.Args) == 1 && call.Args[0].Lit() == "pwd"
}

// laterSecretStep is the first line after line, in a later step of the
// same job, that hands that step a secret or the job's token (in its env:
// or with:), 0 when the diff shows none. A command name put on PATH before
// it is then resolved, in a step that holds a secret the step that wrote
// PATH did not, to whatever the directory holds.
func (fs *fileScan) laterSecretStep(line int) int {
	if fs.info.Scope&rules.ScopeWorkflow == 0 {
		return 0
	}
	// A workflow no pull request starts (a dispatch, a schedule, a push to
	// named branches) checks out the repository's own code.
	if root := fs.workflowRoot(); root != nil && !runsForPR(root) {
		return 0
	}
	// Under pull_request_target or workflow_run the workspace holds the
	// base branch's own files unless the pull request's head is checked
	// out, which the head-files rule rates where it is put on PATH.
	for _, t := range fs.text {
		if wfRe().wfTriggerLine.MatchString(t) && wfRe().wfDangerous.MatchString(t) {
			return 0
		}
	}
	last := 0
	for n := range fs.text {
		last = max(last, n)
	}
	newStep := false
	for n := line + 1; n <= last; n++ {
		t, ok := fs.text[n]
		if !ok {
			continue
		}
		tt := strings.TrimSpace(t)
		switch {
		case strings.HasPrefix(tt, "runs-on:"):
			return 0 // another job
		case strings.HasPrefix(tt, "- ") && strings.Contains(tt, ":"):
			newStep = true
		}
		if newStep && strings.Contains(t, "${{") && (strings.Contains(t, "secrets.") || strings.Contains(t, "secrets[") || strings.Contains(t, "github.token")) {
			return n
		}
	}
	return 0
}

// ciJob reports a file whose scripts a CI system runs as its jobs (a
// workflow, any other system's pipeline): a job that registers a runner
// is the caller, not a runner image handed its target by one.
func (fs *fileScan) ciJob() bool {
	return fs.info.Scope&rules.ScopeWorkflow != 0 || fs.info.Rule == "ci-config"
}

// registersLiteral reports a file that registers a runner with a
// repository it names itself.
func (fs *fileScan) registersLiteral() bool {
	for _, t := range fs.text {
		if strings.Contains(t, "--url") && registerLiteralRe().MatchString(t) {
			return true
		}
	}
	return false
}

// assign records a variable assignment.
func (r *shellReader) assign(a *syntax.Assign) {
	if a == nil || a.Name == nil {
		return
	}
	name := a.Name.Value
	var t taint
	if a.Value != nil {
		t = r.wordTaint(a.Value)
	}
	if name == "RUNNER_ALLOW_RUNASROOT" {
		r.runAsRoot(r.line(a.Pos()))
	}
	if t.kind != 0 {
		r.fl.vars[name] = t
	} else {
		delete(r.fl.vars, name)
	}
	if a.Value != nil {
		r.fl.vals[name] = r.lit(a.Value)
	}
}

// call reads one simple command.
func (r *shellReader) call(c *syntax.CallExpr, s *syntax.Stmt, stdin taint) taint {
	if len(c.Args) == 0 {
		for _, a := range c.Assigns {
			r.assign(a)
		}
		return taint{}
	}
	for _, a := range c.Assigns {
		if a.Name != nil && a.Name.Value == "RUNNER_ALLOW_RUNASROOT" {
			r.runAsRoot(r.line(a.Pos()))
		}
	}
	args := c.Args
	// Wrappers that run the rest as the command.
	for len(args) > 0 {
		switch path.Base(r.lit(args[0])) {
		case "sudo", "nohup", "exec", "time", "command", "builtin", "nice", "stdbuf", "doas", "busybox", "toybox":
			// busybox sh, toybox wget: the applet named is the command.
			args = args[1:]
			for len(args) > 0 && (strings.HasPrefix(r.lit(args[0]), "-") || assignWordRe().MatchString(r.lit(args[0]))) {
				// sudo takes VAR=value words before the command.
				if strings.HasPrefix(r.lit(args[0]), "RUNNER_ALLOW_RUNASROOT=") {
					r.runAsRoot(r.line(args[0].Pos()))
				}
				args = args[1:]
			}
			continue
		case "env":
			rest := args[1:]
			for len(rest) > 0 && (strings.HasPrefix(r.lit(rest[0]), "-") || strings.Contains(r.lit(rest[0]), "=")) {
				if strings.HasPrefix(r.lit(rest[0]), "RUNNER_ALLOW_RUNASROOT=") {
					r.runAsRoot(r.line(rest[0].Pos()))
				}
				rest = rest[1:]
			}
			if len(rest) == 0 {
				break // env alone prints the environment
			}
			args = rest
			continue
		case "timeout":
			if len(args) > 2 {
				args = args[2:]
				continue
			}
		}
		break
	}
	if len(args) == 0 {
		return taint{}
	}
	words := make([]string, len(args))
	for i, w := range args {
		words[i] = r.lit(w)
	}
	args, words = r.unhide(args, words)
	if strings.Contains(words[0], "\\") {
		words[0] = strings.ReplaceAll(words[0], "\\", "") // c\u\r\l is curl
	}
	name := path.Base(strings.ReplaceAll(words[0], "\\", "/"))
	if len(name) > 4 && strings.EqualFold(name[len(name)-4:], ".exe") {
		name = name[:len(name)-4] // curl.exe, python.exe: the same programs on Windows
	}
	line := r.line(args[0].Pos())
	lastLine := r.line(args[len(args)-1].Pos())
	if rules.DigestCommand(name) && !rules.HasFlag(words, "c", "--check") {
		return taint{kind: tDigest, line: line}
	}
	argTaint := func(from int) taint {
		var t taint
		for _, w := range args[from:] {
			t = t.or(r.wordTaint(w))
		}
		return t
	}
	if name != "kill" && name != "echo" && name != "printf" && name != "test" && name != "[" && name != "wait" {
		if t := r.pidArg(args[1:]); t.kind != 0 {
			r.fs.report(line, hit{id: "runner-memory-read", title: "hands the runner worker's process (found on line " + itoa(t.line) + ") to " + name,
				source: t.line})
		}
	}
	if (name == "gpg" || name == "gpg2") && (slices.Contains(words, "--import") || slices.Contains(words, "--dearmor")) {
		if t := stdin.or(argTaint(1)); t.kind&tDownload != 0 {
			r.fl.keys = t
		}
		for _, w := range words[1:] {
			if t := r.fileTaint(w, line); !strings.HasPrefix(w, "-") && t.kind&tDownload != 0 {
				r.fl.keys = t
			}
		}
	}
	if kv, ok := npmConfigSet(words); ok {
		// npm config set writes the same settings an .npmrc holds.
		r.fs.npmExec(line, kv)
	}
	if name == "find" {
		// find … -exec cp/sed -i/sh -c '… > "$1"' {} rewrites every file it
		// finds: under the runner's action cache or its own files, that is
		// the write a redirection or cp there would be.
		for _, p := range rules.FindRewrites(words) {
			if p = strings.TrimSuffix(p, "/") + "/"; runnerCachePath(p) || selfHostedRunnerPath(p) {
				r.written(p, taint{}, line, false)
			}
		}
	}
	if title, ok := rules.Tunnel(name, words); ok {
		r.fs.report(line, hit{id: "reverse-shell", title: title})
	}
	encIn, encOut, encrypts := rules.Encrypts(name, words)
	regURL, registers := rules.Registration(name, words)
	switch {
	case (name == "pgrep" || name == "pidof" || name == "grep" || name == "awk") && strings.Contains(strings.ToLower(strings.Join(words, " ")), "runner.worker"):
		return taint{kind: tRunnerPid, line: line}
	case rules.Fetcher(name):
		return r.network(name, args, words, stdin, line)
	case name == "xargs" && stdin.kind != 0:
		// xargs hands what it reads to the command it names as arguments:
		// a shell's or interpreter's script, or a request's address.
		for i := 1; i < len(words); i++ {
			w := words[i]
			if strings.HasPrefix(w, "-") {
				if w == "-I" || w == "-d" || w == "-n" || w == "-P" || w == "-L" || w == "-s" || w == "-E" || w == "-a" {
					i++
				}
				continue
			}
			switch {
			case rules.ShellName(path.Base(w)) || rules.InterpName(path.Base(w)) || w == "eval":
				r.runs(stdin, line, "")
			case rules.Fetcher(path.Base(w)) && stdin.secret():
				r.fs.report(lastLine, hit{id: "secret-send", source: stdin.line})
			}
			break
		}
		return taint{}
	case rules.MailSender(name):
		if t := stdin.or(argTaint(1)); t.secret() {
			r.fs.report(lastLine, hit{id: "secret-send", source: t.line})
		}
		return taint{}
	case name == "nc" || name == "ncat" || name == "netcat" || name == "socat" || name == "telnet" || name == "openssl" && len(words) > 1 && words[1] == "s_client":
		t := stdin.or(argTaint(1))
		if t.secret() {
			r.fs.report(lastLine, hit{id: "secret-send", source: t.line})
		}
		return taint{kind: tDownload, line: line}
	case strings.EqualFold(strings.TrimSuffix(name, ".exe"), "certutil") && rules.HasWordFold(words, "-urlcache") ||
		strings.EqualFold(strings.TrimSuffix(name, ".exe"), "bitsadmin") && rules.HasWordFold(words, "/transfer"):
		// Windows' own downloaders: the last word is the file written.
		if len(words) > 2 {
			r.written(words[len(words)-1], taint{kind: tDownload, line: line}, line, false)
		}
		return taint{}
	case strings.EqualFold(strings.TrimSuffix(name, ".exe"), "rundll32") || strings.EqualFold(strings.TrimSuffix(name, ".exe"), "regsvr32"):
		for i, w := range words[1:] {
			if !strings.HasPrefix(w, "/") && !strings.HasPrefix(w, "-") {
				r.runs(r.fileTaint(strings.SplitN(w, ",", 2)[0], line), r.line(args[i+1].Pos()), "")
				break
			}
		}
		return taint{}
	case name == "nslookup" || name == "dig" || name == "host" || name == "drill" || name == "ping":
		// A name made of command output or secrets in front of a fixed
		// domain carries them to whoever answers for that domain.
		for i, w := range args[1:] {
			if name == "ping" && words[i] == "-p" && r.wordTaint(w).secret() {
				// ping -p: up to 16 bytes of pattern in every packet.
				r.fs.report(r.line(w.Pos()), hit{id: "dns-exfiltration", title: "sends secrets in the pattern of ping's packets", source: r.wordTaint(w).line})
				continue
			}
			if !dnsLabelRe().MatchString(words[i+1]) {
				continue
			}
			t := r.wordTaint(w)
			if t.secret() || hasCmdSubst(w) {
				r.fs.report(r.line(w.Pos()), hit{id: "dns-exfiltration", source: t.line})
			}
		}
		return taint{}
	case rules.Uploads(name, words) != nil:
		for _, i := range rules.Uploads(name, words) {
			f := words[i]
			if _, v, ok := strings.Cut(f, "=@"); ok {
				f = v // gh api -F body=@file
			}
			// What the upload takes: the file, or the files the script
			// wrote under a folder it names.
			f = strings.TrimPrefix(f, "@")
			if t := r.fileTaint(f, line).or(r.underTaint(f)); t.secret() {
				r.fs.report(r.line(args[i].Pos()), hit{id: "secret-send", source: t.line})
			} else if h, ok := r.checkoutSent(f, words); ok {
				r.fs.report(r.line(args[i].Pos()), h)
			}
		}
		return taint{}
	case name == "ssh" || rules.FTPClient(name):
		// An FTP client's script (its -e or -c command, a here-document)
		// puts files; ssh sends its standard input to the remote command.
		script := strings.Join(words[1:], " ") + "\n" + hereText(r, s)
		t := stdin
		if name != "ssh" {
			t = taint{}
		}
		for _, f := range rules.FTPPuts(script) {
			t = t.or(r.fileTaint(f, line)).or(r.underTaint(f))
		}
		if t.secret() {
			r.fs.report(lastLine, hit{id: "secret-send", source: t.line})
		}
		return taint{}
	case rules.Decoder(name, words):
		out := taint{kind: tDecode, line: line}
		if name == "xxd" {
			// xxd -r -p in.hex out: the second operand is the file written.
			var ops []int
			for i, w := range words[1:] {
				if !strings.HasPrefix(w, "-") {
					ops = append(ops, i+1)
				}
			}
			if len(ops) == 2 {
				r.written(words[ops[1]], out, r.line(args[ops[1]].Pos()), false)
				return taint{}
			}
		}
		if strings.EqualFold(name, "certutil") && len(words) > 3 {
			// certutil -decode in out: the last word is the file written.
			r.written(words[len(words)-1], out, r.line(args[len(args)-1].Pos()), false)
			return taint{}
		}
		for i, w := range words {
			if (w == "-out" || w == "-o" || w == "--output") && i+1 < len(words) {
				if o := words[i+1]; o == "-" || o == "/dev/stdout" || o == "/dev/fd/1" {
					return out // uudecode -o /dev/stdout: still a stream
				}
				r.written(words[i+1], out, r.line(args[i+1].Pos()), false)
				return taint{}
			}
		}
		return out
	case name == "printf" || name == "echo":
		t := argTaint(1)
		r.echoed, r.echoedCheckout, r.echoedPATH = taint{}, 0, false
		for i, w := range words[1:] {
			if i+1 < len(args) && pwdWord(args[i+1]) {
				r.echoedCheckout = line
			}
			if d, ok := strings.CutPrefix(strings.Trim(w, `"'`), "PATH="); ok && !strings.HasPrefix(d, "$PATH") && !strings.HasPrefix(d, "${PATH}") {
				w = strings.SplitN(d, ":", 2)[0] // PATH=dir:$PATH puts dir first
				r.echoedPATH = true
			}
			if inWorkspace(w) || strings.HasPrefix(w, "$(pwd)") || strings.HasPrefix(w, "`pwd`") {
				r.echoedCheckout = line
			}
			if strings.HasPrefix(w, "/") || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "~") || r.fl.artifact.kind != 0 && strings.HasPrefix(w, "$") && strings.Contains(w, "/") {
				r.echoed = r.echoed.or(r.dirTaint(w, line))
			}
			if r.fl.head > 0 && inWorkspace(w) {
				r.echoed = r.echoed.or(taint{kind: tHeadFiles, line: r.fl.head})
			}
		}
		if rules.HexEscapes(strings.Join(words[1:], " ")) {
			t = t.or(taint{kind: tDecode, line: line})
		}
		if codeRe().cmdString.MatchString(strings.Join(words[1:], " ")) {
			// echo 'curl … | sh': the text written runs a download
			// wherever it lands (a profile, a cron table, a script).
			t = t.or(taint{kind: tDownload, line: line})
		}
		return t
	case encrypts:
		// What comes out of an encryption holds what went in.
		t := stdin
		if encIn != "" {
			t = t.or(r.fileTaint(encIn, line))
		}
		if encOut != "" {
			r.written(encOut, t, line, false)
			return taint{}
		}
		return t
	case name == "read" || name == "mapfile" || name == "readarray":
		// The names read fills hold what its input held.
		if stdin.kind != 0 {
			for i := 1; i < len(words); i++ {
				w := words[i]
				switch {
				case w == "-a":
					continue // the array's name follows
				case w == "-t" && name != "read":
					// mapfile -t: strip the newlines; read -t: a timeout.
				case w == "-d" || w == "-p" || w == "-n" || w == "-N" || w == "-t" || w == "-u" || w == "-C" || w == "-c" || w == "-s" || w == "-O":
					i++
				case strings.HasPrefix(w, "-"):
				default:
					r.fl.vars[w] = stdin
				}
			}
		}
		return taint{}
	case rules.EnvDump(name, words):
		return taint{kind: tSecretBulk, line: line}
	case name == "bsdtar" || name == "gtar":
		// libarchive's and GNU's tar under their own names read as tar.
		return r.archive("tar", args, words, stdin, line)
	case name == "tar" || name == "zip" || name == "7z" || name == "unzip" || name == "gzip" && !rules.HasFlag(words, "d", "--decompress"):
		return r.archive(name, args, words, stdin, line)
	case rules.PSWriter(name):
		// PowerShell's Out-File, Set-Content, Add-Content, Tee-Object:
		// what is piped in, or -Value, lands in the file they name.
		f, val := rules.PSWriteArgs(words)
		t := stdin
		if val >= 0 {
			t = t.or(r.wordTaint(args[val]))
		}
		if f != "" {
			r.written(f, t, line, strings.EqualFold(name, "Add-Content"))
		}
		if strings.EqualFold(name, "Tee-Object") {
			return t
		}
		return taint{}
	case strings.EqualFold(name, "Get-Content") || strings.EqualFold(name, "gc") || name == "type":
		var t taint
		for _, w := range words[1:] {
			if !strings.HasPrefix(w, "-") {
				t = t.or(r.fileTaint(w, line))
			}
		}
		return t
	case rules.TextFilter(name):
		out := stdin.or(argTaint(1))
		if (name == "grep" || name == "egrep") && stdin.bulk() && rules.GrepSelectsOwn(words) {
			// env | grep '^CI_COMMIT': only the variables a prefix names.
			out.kind &^= tSecretBulk
			if r.fs.envSubset == nil {
				r.fs.envSubset = map[int]bool{}
			}
			r.fs.envSubset[line] = true
		}
		for i, w := range words[1:] {
			if strings.HasPrefix(w, "-") {
				continue
			}
			if name == "tee" {
				r.written(w, out, r.line(args[i+1].Pos()), true)
				continue
			}
			if name == "sed" && strings.Contains(strings.Join(words, " "), "-i") && (strings.Contains(w, "_actions/") || rules.ProfilePath(w) || dependencyPath(w)) {
				r.written(w, out, r.line(args[i+1].Pos()), true)
			}
			out = out.or(r.fileTaint(w, r.line(args[i+1].Pos())))
		}
		return out
	case (name == "deno" || name == "bun") && len(words) > 2 && (words[1] == "run" || words[1] == "x" || words[1] == "eval"):
		if words[1] == "eval" {
			r.runs(r.wordTaint(args[2]), r.line(args[2].Pos()), "")
		} else if words[len(words)-1] == "-" {
			r.runs(stdin, line, "") // deno run -: the program is read from standard input
		}
		for i, w := range words[2:] {
			if strings.HasPrefix(w, "http://") || strings.HasPrefix(w, "https://") {
				h := hit{id: "download-and-run", title: name + " runs a program from a URL"}
				if provenance.PinnedScriptURL(w) {
					h.severity = rules.Medium
					h.why = "the URL names a registry's versioned module or a repository file at a commit, so the code is fixed; read it there"
				}
				r.fs.report(r.line(args[i+2].Pos()), h)
				break
			}
		}
		return taint{}
	case rules.ShellName(name) || rules.InterpName(name):
		if rules.InterpName(name) {
			r.inlineSend(strings.Join(words[1:], " ")+"\n"+hereText(r, s), lastLine)
		}
		return r.interpreter(name, args, words, stdin, line)
	case name == "source" || name == ".":
		if len(args) > 1 {
			t := r.fileTaint(words[1], line).or(r.wordTaint(args[1]))
			if words[1] == "/dev/stdin" || words[1] == "-" || words[1] == "/proc/self/fd/0" {
				t = t.or(stdin)
			}
			r.runs(t, r.line(args[1].Pos()), "")
		}
		return taint{}
	case name == "eval":
		t := argTaint(1)
		r.runs(t, line, "")
		return taint{}
	case name == "buildkite-agent" && len(words) > 2 && words[1] == "pipeline" && words[2] == "upload":
		// The uploaded file (or standard input) is the rest of the
		// pipeline: steps the agents run with the pipeline's secrets.
		t := stdin
		if len(words) > 3 && !strings.HasPrefix(words[3], "-") {
			t = r.fileTaint(words[3], line)
		}
		if t.kind&(tDownload|tDecode) != 0 {
			r.fs.report(line, hit{id: "ci-remote-config", title: "uploads as the pipeline what line " + itoa(t.line) + " downloaded or decoded", source: t.line})
		}
		return taint{}
	case name == "cp" || name == "mv" || name == "ln" || name == "rsync" || name == "install" && (words[0] == "install" || strings.HasPrefix(words[0], "/")):
		// (./install, tools/install: a script of that name, not coreutils)
		if len(words) >= 3 {
			src, dst := words[len(words)-2], words[len(words)-1]
			t := r.fileTaint(src, line)
			if src == "/dev/stdin" || src == "-" {
				t = t.or(stdin) // install -m 755 /dev/stdin bin/t: what the pipe held
			}
			r.written(dst, t, r.line(args[len(args)-1].Pos()), false)
		}
		return taint{}
	case registers:
		switch {
		case r.fs.ciJob() || strings.HasPrefix(regURL, "http"):
			h := hit{id: "runner-register"}
			if strings.HasPrefix(name, "java") || strings.HasSuffix(name, "-runner") || name == "act_runner" {
				h.title = "starts a CI build agent connected to the controller it names"
				h.why = "the controller sends the agent jobs to run on this machine, with what the job left on it, secrets included"
			}
			r.fs.report(line, h)
		default:
			r.fs.report(line, hit{id: "runner-register", severity: rules.Medium, title: "registers a self-hosted runner with the repository its caller names",
				why: "what a runner image's entrypoint does with the URL and token it is started with; a job that runs it hands the runner to whoever named them"})
		}
		return taint{}
	case rules.CLIToken(strings.Join(words, " ")) != "", rules.SecretReader(name, words):
		return taint{kind: tSecret, line: line}
	case name == "gh" && len(words) > 2 && words[1] == "repo" && words[2] == "create" && (rules.HasWordFold(words, "--push") || rules.HasWordFold(words, "--source=.")):
		// The checkout pushed into a new repository of the token's choosing.
		if owner := provenance.RemoteOwner("https://github.com/" + words[min(3, len(words)-1)]); !provenance.OwnRepository(owner) {
			r.fs.report(line, hit{id: "repo-exfiltration", title: "pushes the checkout into a new repository (gh repo create --push)"})
		}
		return taint{}
	case name == "go" && len(words) > 2 && words[1] == "run":
		for i, w := range words[2:] {
			mod, ver, ok := strings.Cut(w, "@")
			if !ok || strings.HasPrefix(w, "-") || !strings.Contains(mod, ".") || !strings.Contains(mod, "/") {
				continue
			}
			// Where the module comes from decides: a look-alike of a
			// well-known module, owner or tool, or a host that imitates
			// one or is a bare address, runs whoever registered it; a
			// module under its own name runs its publisher's code, which
			// the Go checksum database keeps the same for everyone.
			h := hit{id: "download-and-run", title: "go run fetches and runs " + w, severity: rules.Medium,
				why: "go downloads that module and runs it; at @latest or a branch whoever publishes it decides what runs: read whose module it is"}
			host, _, _ := strings.Cut(mod, "/")
			switch k := rules.SquatOf(mod, "go-tool"); {
			case k != "":
				h.severity, h.title = rules.High, "go run fetches and runs "+w+", a look-alike of "+k
				h.why = "a module path a letter or a word off a well-known one, or a well-known tool's name under another module, is how a typosquat gets run; go downloads it and runs it on the runner"
			case net.ParseIP(host) != nil || provenance.LookalikeHost(host) != "":
				h.severity, h.title = rules.High, "go run fetches and runs "+w+" from "+host
				h.why = "the module's host is a bare address or imitates a well-known one: whoever runs it decides what code go fetches and runs on the runner"
			case ver != "latest" && ver != "master" && ver != "main":
				h.why = "go downloads that module and runs it; the version is fixed and the Go checksum database vouches for it, so read what it is"
			}
			r.fs.report(r.line(args[i+2].Pos()), h)
			break
		}
		return taint{}
	case remoteRun(words):
		r.fs.report(line, hit{id: "download-and-run", title: name + " runs a package fetched from a URL or git repository"})
		return taint{}
	case name == "git" && strings.Contains(strings.Join(words, " "), "extraheader"):
		return taint{kind: tSecret, line: line}
	case name == "git":
		r.git(words, line)
		return taint{}
	case rules.InstallVerb(name, words) > 0:
		// A package or a requirements list from another run's artifact:
		// its install code, the pull request's, runs here.
		for i, w := range words[rules.InstallVerb(name, words):] {
			if t := r.fileTaint(w, line); t.kind&tArtifact != 0 && !strings.HasPrefix(w, "-") {
				r.runs(t, r.line(args[i+rules.InstallVerb(name, words)].Pos()), "installs "+w+", from another run's artifact (downloaded on line "+itoa(t.line)+")")
				break
			}
		}
		// pip install colourama, npm i crossenv, go install of a module
		// under a look-alike owner: a squat installed by name.
		eco := rules.InstallEcosystem(name)
		for i, w := range words[rules.InstallVerb(name, words):] {
			// A module path, a scoped name; not a URL, a file or a variable.
			path := eco == "go" || eco == "npm" && strings.HasPrefix(w, "@")
			if strings.HasPrefix(w, "-") || strings.ContainsAny(w, ":$") || !path && strings.Contains(w, "/") {
				continue
			}
			pkg := w
			switch eco {
			case "npm", "go":
				if at := strings.LastIndexByte(pkg, '@'); at > 0 {
					pkg = pkg[:at]
				}
			default:
				if i := strings.IndexAny(pkg, "<>=!~;[ "); i > 0 {
					pkg = pkg[:i]
				}
			}
			squat := eco
			if eco == "go" {
				squat = "go-tool" // go install builds the module as a program
			}
			if k := rules.SquatOf(pkg, squat); k != "" {
				r.fs.report(r.line(args[i+rules.InstallVerb(name, words)].Pos()), squatHit("installs the package "+pkg, pkg, k))
			}
		}
	case (name == "docker" || name == "podman" || name == "nerdctl") && len(words) > 2 && (words[1] == "run" || words[1] == "pull" || words[1] == "create"):
		// The image is read as a Dockerfile's FROM is: its code runs here.
		if img := rules.ImageOperand(words[2:]); img != "" && strings.Contains(img, "/") && !strings.ContainsAny(img, "$`") {
			r.fs.fromLine(line, img)
		}
	case len(rules.BuildArgImages(name, words)) > 0:
		// docker build --build-arg BASE_IMAGE=…: the image the
		// Dockerfile's FROM ${BASE_IMAGE} builds from.
		for _, img := range rules.BuildArgImages(name, words) {
			r.fs.fromLine(line, img)
		}
	case !strings.Contains(words[0], "/") && !strings.HasPrefix(words[0], "$"):
		// A program written into a PATH folder earlier in the script runs
		// when it is called by its name.
		for p, t := range r.fl.files {
			if t.runs() && path.Base(p) == words[0] && rules.OnPath(path.Dir(p)) {
				r.runs(t, line, "runs "+words[0]+", which line "+itoa(t.line)+" downloaded onto the PATH")
				break
			}
		}
	}
	if r.fl.artifact.kind != 0 && r.fl.inArtifact("package.json") && rules.BuildCommand(strings.Join(words, " ")) {
		// An artifact unpacked over the checkout may replace any file a
		// build reads (package.json, a Makefile, a script).
		r.runs(r.fl.artifact, line, "builds or runs the checkout after another run's artifact was unpacked into it (line "+itoa(r.fl.artifact.line)+")")
	}
	// A command named by a path or a variable runs that file or value.
	w0 := words[0]
	if strings.HasPrefix(w0, "$") {
		t := r.wordTaint(args[0])
		if strings.Contains(w0, "/") {
			t = t.or(r.fileTaint(w0, line))
		}
		r.runs(t, line, "")
		if rules.ShellVar(w0) {
			return r.interpreter("sh", args, words, stdin, line)
		}
		return taint{}
	}
	if strings.EqualFold(w0, "call") || strings.EqualFold(w0, "start") {
		// cmd's call and start run the file they name (start's options
		// and an empty window title before it).
		for i, w := range words[1:] {
			if !strings.HasPrefix(w, "/") && w != "" {
				r.runs(r.fileTaint(w, line), r.line(args[i+1].Pos()), "")
				break
			}
		}
		return taint{}
	}
	// A file named by its path, or by the bare name the script wrote
	// decoded bytes under (cmd and PowerShell run it from the working
	// directory).
	if t := r.fileTaint(w0, line); strings.Contains(w0, "/") || t.kind&tDecode != 0 {
		r.runs(t, line, "")
	}
	return taint{}
}

// git remembers the remotes a script adds and rates its pushes: the
// repository's whole history (--mirror, --all, every tag) pushed to a
// remote whose owner is written out, not the repository's own, is the
// repository leaving for someone else's account, with the job's clone
// (a private repository's included) and often a token the job was given.
// A push to origin, or to a URL built from GITHUB_REPOSITORY, goes home.
func (r *shellReader) git(words []string, line int) {
	i := 1
	for i < len(words) && strings.HasPrefix(words[i], "-") {
		if words[i] == "-C" || words[i] == "-c" {
			i++
		}
		i++
	}
	if i >= len(words) {
		return
	}
	var ops []string
	flags := map[string]bool{}
	for _, w := range words[i+1:] {
		if strings.HasPrefix(w, "-") {
			flags[w] = true
			continue
		}
		ops = append(ops, w)
	}
	switch words[i] {
	case "remote":
		if len(ops) >= 3 && (ops[0] == "add" || ops[0] == "set-url") {
			r.fl.vals["\x00remote "+ops[1]] = ops[2]
		}
	case "push":
		if len(ops) == 0 {
			return
		}
		remote := ops[0]
		u, named := r.fl.vals["\x00remote "+remote]
		switch {
		case strings.Contains(remote, "://") || strings.Contains(remote, "@") && strings.Contains(remote, ":"):
			u = remote
		case !named:
			return // origin, or a remote this script did not add
		}
		whole := flags["--mirror"] || flags["--all"] || flags["--tags"]
		for _, ref := range ops[1:] {
			whole = whole || strings.Contains(ref, "*") || strings.HasPrefix(ref, "refs/") && !strings.HasPrefix(ref, "refs/heads/") && !strings.HasPrefix(ref, "refs/tags/")
		}
		owner := provenance.RemoteOwner(u)
		switch {
		case owner == "" || provenance.OwnRepository(owner):
			return
		case strings.HasPrefix(owner, "$"):
			r.fs.report(line, hit{id: "repo-exfiltration", severity: rules.Medium, title: "pushes to a remote whose owner a variable names (" + u + ")",
				why: "check the variable names the repository's own account; elsewhere the job's clone, history included, leaves with it"})
		case whole:
			r.fs.report(line, hit{id: "repo-exfiltration", title: "pushes the repository's whole history to " + u})
		default:
			r.fs.report(line, hit{id: "repo-exfiltration", severity: rules.Medium, title: "pushes to a remote of another owner (" + u + ")",
				why: "a built site or a release pushed to its own repository is common; check the owner is the project's and what is pushed"})
		}
	}
}

// archive reads tar, zip, unzip and gzip: what goes into an archive is in
// the archive (a directory holds the files written under it), and what
// comes out lands where -C or -d says.
func (r *shellReader) archive(name string, args []*syntax.Word, words []string, stdin taint, line int) taint {
	var (
		out, dest string
		ins       []string
		extract   bool
	)
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case name == "tar" && (i == 1 && !strings.HasPrefix(w, "-") || strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--")):
			extract = extract || strings.Contains(w, "x")
			if strings.HasSuffix(w, "f") && i+1 < len(words) {
				out = words[i+1]
				i++
			} else if w == "-C" && i+1 < len(words) {
				dest = words[i+1]
				i++
			}
		case w == "-C" || w == "--directory" || name == "unzip" && w == "-d" || w == "-o" && name == "7z":
			if i+1 < len(words) {
				dest = words[i+1]
				i++
			}
		case strings.HasPrefix(w, "--file="):
			out = strings.TrimPrefix(w, "--file=")
		case w == "-f" || w == "--file":
			if i+1 < len(words) {
				out = words[i+1]
				i++
			}
		case strings.HasPrefix(w, "-"):
		case (name == "zip" || name == "7z") && out == "":
			if name == "7z" && (w == "a" || w == "x" || w == "e") {
				extract = w != "a"
				continue
			}
			out = w
		case name == "unzip" && out == "":
			out, extract = w, true
		default:
			ins = append(ins, w)
		}
	}
	if name == "unzip" {
		extract = true
	}
	t := stdin
	if extract {
		if out != "" && out != "-" {
			t = t.or(r.dirTaint(out, line))
		}
		if dest == "" {
			dest = "."
		}
		if t.kind != 0 {
			r.written(dest, t, line, false)
		}
		if t.kind&tArtifact != 0 {
			// An artifact's archive unpacked: its files are in dest too.
			r.fl.artifactDirs = append(r.fl.artifactDirs, strings.TrimSuffix(rules.WorkspacePath(dest), "/"))
		}
		return taint{}
	}
	for _, in := range ins {
		// tar -C dir names what it packs relative to dir.
		if name == "tar" && dest != "" && !path.IsAbs(in) {
			in = path.Join(dest, in)
		}
		t = t.or(r.dirTaint(in, line))
	}
	if name == "gzip" && len(ins) > 0 {
		for _, in := range ins {
			if rules.HasFlag(words, "c", "--stdout") {
				return t
			}
			r.written(in+".gz", t, line, false)
		}
		return taint{}
	}
	if out == "" || out == "-" {
		return t
	}
	r.written(out, t, line, false)
	return taint{}
}

// checkoutSent rates an upload, in a workflow, of the checkout's .git
// folder or of the checkout whole, where actions/checkout left the job's
// token in .git/config: .git itself has no other reason to leave (high);
// the checkout whole is how a site is deployed (rsync ./ to the web host),
// so it is medium unless .git is left out or no token was kept.
func (r *shellReader) checkoutSent(f string, words []string) (hit, bool) {
	if r.fs.info.Scope&rules.ScopeWorkflow == 0 || r.fs.persistOff() {
		return hit{}, false
	}
	p := strings.TrimSuffix(rules.WorkspacePath(f), "/")
	switch {
	case p == ".git" || strings.HasPrefix(p, ".git/"):
		return hit{id: "secret-send", title: "sends the checkout's .git folder, where actions/checkout left the job's token"}, true
	case rules.WorkspaceRoot(f):
		for _, w := range words {
			if strings.Contains(w, ".git") && (strings.Contains(w, "exclude") || strings.HasPrefix(w, ".git") || strings.HasPrefix(w, "'.git") || strings.HasPrefix(w, "\".git")) {
				return hit{}, false // --exclude .git, --exclude=.git/*
			}
		}
		return hit{id: "secret-send", severity: rules.Medium, title: "sends the whole checkout, .git/config and the job's token actions/checkout left there included",
			why: "a deploy of the site sends the checkout too; check .git is left out (or persist-credentials: false) and the destination is the project's own"}, true
	}
	return hit{}, false
}

// dirTaint is what a file holds, or, for a directory, what the files the
// script wrote under it hold.
func (r *shellReader) dirTaint(p string, line int) taint {
	t := r.fileTaint(p, line)
	if r.fs.info.Scope&rules.ScopeWorkflow != 0 {
		if rules.WorkspaceRoot(p) || strings.TrimSuffix(rules.NormPath(p), "/") == ".git" {
			// The checkout itself: actions/checkout leaves the job's token
			// in .git/config unless told not to.
			t = t.or(taint{kind: tSecret, line: line})
		}
	}
	return t.or(r.underTaint(p))
}

// underTaint is what the files the script wrote under directory p hold.
func (r *shellReader) underTaint(p string) taint {
	var t taint
	pre := strings.TrimSuffix(rules.NormPath(p), "/") + "/"
	for k, v := range r.fl.files {
		if strings.HasPrefix(k, pre) || pre == "./" && !strings.HasPrefix(k, "/") && !strings.HasPrefix(k, "~") && !strings.HasPrefix(k, "$") {
			t = t.or(v)
		}
	}
	return t
}

var dnsLabelRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\$\(…\)|\$\w+)\.(?:[\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}$`)
})

// hasCmdSubst reports a word that holds a command substitution.
func hasCmdSubst(w *syntax.Word) bool {
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		if _, ok := n.(*syntax.CmdSubst); ok {
			found = true
		}
		return !found
	})
	return found
}

// unhide undoes the spellings that hide a command from a reader of words:
// ${IFS} for a space ({curl,-sSL,x}${IFS}|${IFS}bash) and a brace list
// for the words of a command ({curl,-sSL,x} is "curl -sSL x").
func (r *shellReader) unhide(args []*syntax.Word, words []string) ([]*syntax.Word, []string) {
	hidden := false
	for _, w := range words {
		if strings.Contains(w, "$IFS") || strings.HasPrefix(w, "{") && strings.Contains(w, ",") {
			hidden = true
			break
		}
	}
	if !hidden {
		return args, words
	}
	var na []*syntax.Word
	var nw []string
	for i, w := range words {
		changed := false
		if strings.Contains(w, "$IFS") {
			w, changed = strings.ReplaceAll(w, "$IFS", " "), true
		}
		// Only an unquoted brace list is expanded: {"a": 1, "b": 2} in
		// quotes is JSON.
		if lit, ok := firstLit(args[i]); ok && strings.HasPrefix(lit, "{") {
			if j := strings.IndexByte(w, '}'); j > 0 && strings.Contains(w[:j], ",") && !strings.ContainsAny(w[:j], " \"'$") {
				w, changed = strings.ReplaceAll(w[1:j], ",", " ")+" "+w[j+1:], true
			}
		}
		if !changed {
			na, nw = append(na, args[i]), append(nw, w)
			continue
		}
		for _, f := range strings.Fields(w) {
			na = append(na, args[i])
			nw = append(nw, f)
		}
	}
	if len(nw) == 0 {
		return args, words
	}
	return na, nw
}

// firstLit returns a word's first part when it is unquoted literal text.
func firstLit(w *syntax.Word) (string, bool) {
	if w == nil || len(w.Parts) == 0 {
		return "", false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return "", false
	}
	return l.Value, true
}

// interpreter reads sh/bash/python... : an inline program (-c, -e), a file
// to run, or a program read from standard input.
func (r *shellReader) interpreter(name string, args []*syntax.Word, words []string, stdin taint, line int) taint {
	if name == "pwsh" || strings.HasPrefix(name, "powershell") {
		for i, w := range words[:len(words)-1] {
			if i > 0 && (strings.EqualFold(w, "-File") || strings.EqualFold(w, "-f")) {
				// powershell -ExecutionPolicy Bypass -File x.ps1: the options
				// before -File take values; the file is what runs.
				r.runs(r.fileTaint(words[i+1], line).or(r.wordTaint(args[i+1])), r.line(args[i+1].Pos()), "")
				return taint{}
			}
		}
	}
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "-c" || w == "-e" || w == "-Command" || w == "-command" || w == "--eval" || w == "-p" && rules.InterpName(name) || w == "-r" && name == "php" ||
			(name == "perl" || name == "ruby") && len(w) > 2 && len(w) <= 5 && w[1] != '-' && strings.HasSuffix(w, "e"):
			// perl -ne, -lpe: the last letter takes the program.
			if i+1 < len(words) {
				t := r.wordTaint(args[i+1])
				r.runs(t, r.line(args[i+1].Pos()), "")
				if rules.InterpName(name) && inlineFetchRun(name, words[i+1]) {
					// node -e "https.get(u, r => … eval(d))": the program
					// fetches code and runs it, whatever the shell around it.
					r.fs.report(r.line(args[i+1].Pos()), hit{id: "download-and-run", title: "runs an inline " + name + " program that downloads code and runs it"})
				}
				if rules.InterpName(name) && codeRe().bulkSecret.MatchString(words[i+1]) {
					// python -c 'print(dict(os.environ))': the environment
					// on standard output.
					return taint{kind: tSecretBulk, line: r.line(args[i+1].Pos())}
				}
				if rules.InterpName(name) && (codeRe().decode.MatchString(words[i+1]) || rules.InlineDecodes(words[i+1])) {
					// ruby -e 'print ARGV[0].unpack1("m")': what it prints is decoded.
					return taint{kind: tDecode, line: r.line(args[i+1].Pos())}
				}
				if rules.ShellName(name) && r.depth < 4 {
					sub := *r
					sub.depth++
					at := r.line(args[i+1].Pos())
					sub.lineOf = func(int) int { return at }
					if f, err := r.fs.parseShell(words[i+1]); err == nil {
						sub.stmts(f.Stmts, stdin)
					}
				}
			}
			return taint{}
		case w == "-" || w == "-s" && rules.ShellName(name) || w == "--" && i+1 == len(words):
			// sh -s -- args, bash -: the program is read from standard input.
			r.runs(stdin, line, "")
			return taint{}
		case strings.HasPrefix(w, "-"):
			if w == "-m" && rules.InterpName(name) {
				return taint{}
			}
			continue
		}
		// The first operand is the program file (or a process substitution).
		if rules.DataNamed(w) {
			r.fs.report(r.line(args[i].Pos()), hit{id: "download-and-run", title: name + " runs " + w + ", a file named like data (an image, a font), as a program",
				why: "a program hidden in a data file is not code anyone reads in the diff, yet it runs on the machine that builds or opens the project"})
		}
		t := r.fileTaint(w, line).or(r.wordTaint(args[i]))
		r.runs(t, r.line(args[i].Pos()), "")
		return taint{}
	}
	// No program named: it reads one from standard input.
	r.runs(stdin, line, "")
	return taint{}
}

// inlineSend rates an interpreter's inline program (-c, -e, a
// here-document) that sends a request and names a file the script filled
// with the environment or a secret, or a credential file: the file's text
// leaves with the request.
func (r *shellReader) inlineSend(prog string, line int) {
	if !classRe().send.MatchString(prog) {
		return
	}
	src := 0
	for k, t := range r.fl.files {
		if b := path.Base(k); t.secret() && (len(b) > 2 && strings.Contains(prog, b) || strings.Contains(prog, k)) && (src == 0 || t.line < src) {
			src = t.line
		}
	}
	if src > 0 {
		r.fs.report(line, hit{id: "secret-send", source: src})
	}
}

var (
	inlineFetchRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\brequire\(\s*['"](?:node:)?https?['"]\s*\)\s*\.\s*(?:get|request)\(`)
	})
	phpIncludeRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(?:include|require)(?:_once)?\b`) })
)

// inlineFetchRun reports an inline program (-e, -c) that both fetches from
// the network and runs code or a process. In a PHP one-liner an include of
// any file after a download (copy('https://…', 'o.php'); include 'o.php')
// is the download run: the line has nothing else to include.
func inlineFetchRun(name, prog string) bool {
	re := codeRe()
	return (re.download.MatchString(prog) || inlineFetchRe().MatchString(prog)) &&
		(re.execSink.MatchString(prog) || re.procSink.MatchString(prog) || name == "php" && phpIncludeRe().MatchString(prog))
}

// maskBreaker reports the last command of a pipeline that rewrites its
// input (base64, hex, reversed, spaced out) onto the log: the runner masks
// a secret's exact text in the log, not an encoding of it.
func maskBreaker(r *shellReader, st *syntax.Stmt) bool {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return false
	}
	switch path.Base(r.lit(c.Args[0])) {
	case "base64", "base32", "basenc", "xxd", "od", "hexdump", "rev", "sed", "tr", "fold", "cut", "awk", "openssl", "gzip", "iconv":
		// One told to write a file (base64 --output, openssl -out)
		// prints nothing to the log: decoding a certificate into a file
		// is how release jobs install it.
		for _, a := range c.Args[1:] {
			switch v := r.lit(a); {
			case v == "-o" || v == "--output" || v == "-out" || strings.HasPrefix(v, "--output=") || strings.HasPrefix(v, "-out="):
				return false
			}
		}
		return true
	}
	return false
}

// network reads curl, wget and their kin: what they send, and what they
// fetch (into a file or to standard output).
func (r *shellReader) network(name string, args []*syntax.Word, words []string, stdin taint, line int) taint {
	var (
		outFile   string
		remote    bool // -O: the file is named after the URL
		toStdout  = name != "wget"
		urls      []string
		dataTaint taint
		hdrTaint  taint
		urlTaint  taint
	)
	flagVal := func(i int) (string, taint, int) {
		if i+1 < len(words) {
			return words[i+1], r.wordTaint(args[i+1]), r.line(args[i+1].Pos())
		}
		return "", taint{}, line
	}
	sendLine := line
	dataFile := func(v string, at int) {
		// @file, name=@file, name=<file, and --data-urlencode's name@file
		if strings.HasPrefix(v, "@") || strings.Contains(v, "=@") || strings.Contains(v, "=<") || rules.HTTPieFile(v) != "" {
			f := v[strings.IndexAny(v, "@<")+1:]
			f, _, _ = strings.Cut(f, ";") // -F "f=@file;type=text/plain"
			if f == "-" {
				dataTaint = dataTaint.or(stdin)
			} else {
				dataTaint = dataTaint.or(r.fileTaint(f, at))
			}
			sendLine = at
		}
	}
	for i := 1; i < len(words); i++ {
		w := words[i]
		if name == "curl" && len(w) > 2 && w[0] == '-' && w[1] != '-' && strings.IndexByte("oTdFHub", w[len(w)-1]) >= 0 {
			w = "-" + w[len(w)-1:] // -sT FILE, -fsSLo FILE: the last letter takes the value
		}
		switch {
		case w == "-o" || w == "--output" || w == "-O" && name == "wget" || w == "--output-document":
			v, _, _ := flagVal(i)
			outFile, toStdout = v, v == "-"
			i++
		case strings.HasPrefix(w, "--output-document=") || strings.HasPrefix(w, "-O") && name == "wget" && len(w) > 2:
			v := strings.TrimPrefix(strings.TrimPrefix(w, "--output-document="), "-O")
			outFile, toStdout = v, v == "-"
		case name == "wget" && strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "O"):
			// Bundled short flags: -qO- (to standard output), -qO FILE.
			if v := w[strings.Index(w, "O")+1:]; v != "" {
				outFile, toStdout = v, v == "-"
			} else {
				v, _, _ := flagVal(i)
				outFile, toStdout = v, v == "-"
				i++
			}
		case name == "curl" && (w == "-O" || w == "--remote-name"):
			remote, toStdout = true, false
		case name == "curl" && strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.ContainsAny(w[1:], "oO") && len(w) > 2:
			// Bundled short flags: -fsSLo FILE, -sLO.
			if strings.HasSuffix(w, "o") {
				v, _, _ := flagVal(i)
				outFile, toStdout = v, false
				i++
			} else if strings.Contains(w, "O") {
				remote, toStdout = true, false
			}
		case w == "-d" || strings.HasPrefix(w, "--data") || w == "--json" || w == "-F" || strings.HasPrefix(w, "--form") ||
			w == "-T" || w == "--upload-file" || w == "--post-data" || w == "--post-file" || w == "--body-data" || w == "--body-file":
			v, t, at := flagVal(i)
			dataTaint = dataTaint.or(t)
			if t.kind != 0 {
				sendLine = at
			}
			if w == "-T" || w == "--upload-file" || w == "--post-file" || w == "--body-file" {
				if v == "-" || v == "." {
					dataTaint = dataTaint.or(stdin)
				} else {
					dataTaint = dataTaint.or(r.fileTaint(v, at))
				}
				sendLine = at
			} else {
				dataFile(v, at)
			}
			i++
		case strings.EqualFold(w, "-OutFile"):
			v, _, _ := flagVal(i)
			outFile, toStdout = v, false
			i++
		case strings.EqualFold(w, "-InFile") || strings.EqualFold(w, "-Body"):
			// PowerShell's request sends a file (-InFile) or a value (-Body).
			v, t, at := flagVal(i)
			dataTaint = dataTaint.or(t)
			if strings.EqualFold(w, "-InFile") {
				dataTaint = dataTaint.or(r.fileTaint(v, at))
			}
			sendLine = at
			i++
		case strings.HasPrefix(w, "--post-data=") || strings.HasPrefix(w, "--post-file=") || strings.HasPrefix(w, "--body-data=") || strings.HasPrefix(w, "--body-file=") ||
			strings.HasPrefix(w, "--data") && strings.Contains(w, "="):
			k, v, _ := strings.Cut(w, "=")
			at := r.line(args[i].Pos())
			dataTaint = dataTaint.or(r.wordTaint(args[i]))
			if k == "--post-file" || k == "--body-file" {
				dataTaint = dataTaint.or(r.fileTaint(v, at))
			} else {
				dataFile(v, at)
			}
			sendLine = at
		case w == "-H" || w == "--header" || w == "-u" || w == "--user" || w == "-b" || w == "--cookie":
			_, t, _ := flagVal(i)
			hdrTaint = hdrTaint.or(t)
			i++
		case strings.HasPrefix(w, "--header="):
			hdrTaint = hdrTaint.or(r.wordTaint(args[i]))
		case strings.HasPrefix(w, "-"):
		case (name == "http" || name == "https" || name == "xh") && rules.HTTPieFile(w) != "":
			at := r.line(args[i].Pos())
			dataTaint = dataTaint.or(r.fileTaint(rules.HTTPieFile(w), at))
			sendLine = at
		default:
			urls = append(urls, w)
			urlTaint = urlTaint.or(r.wordTaint(args[i]))
			// A secret inside the URL (its path or query) is sent to the
			// URL's host; a secret that is the whole URL (a webhook kept
			// as a secret) is where the request goes, not what it sends.
			if t := r.wordTaint(args[i]); t.kind != 0 && !strings.HasPrefix(w, "$") && !strings.HasPrefix(w, "${{") {
				dataTaint = dataTaint.or(t)
				sendLine = r.line(args[i].Pos())
			}
		}
	}
	if (name == "http" || name == "https" || name == "xh") && stdin.kind != 0 {
		dataTaint = dataTaint.or(stdin) // HTTPie sends what it is fed as the body
	}
	forge := len(urls) > 0
	for _, u := range urls {
		forge = forge && provenance.ForgeURL(u)
	}
	switch {
	case dataTaint.bulk() || hdrTaint.bulk():
		r.fs.report(sendLine, hit{id: "secret-send", source: dataTaint.or(hdrTaint).line})
	case dataTaint.secret() && !forge && !provenance.ExchangesToken(urls) && rules.SentToOwnHost(r.fs.text[dataTaint.line], urls):
		r.fs.report(sendLine, hit{id: "secret-send", severity: rules.Medium, title: "sends a secret to its own service's host", source: dataTaint.line})
	case dataTaint.secret() && !forge && !provenance.ExchangesToken(urls):
		r.fs.report(sendLine, hit{id: "secret-send", source: dataTaint.line})
	}
	out := taint{kind: tDownload, line: line}
	if onHost := len(urls) > 0; onHost {
		// What the runner's own machine answers (a loopback server, the
		// instance's metadata) did not come over the network.
		for _, u := range urls {
			onHost = onHost && provenance.OnRunnerHost(provenance.HostOf(u))
		}
		for _, t := range r.fs.text {
			onHost = onHost && !provenance.SetsProxy(t) // the request goes through that host
		}
		if onHost {
			out = taint{}
		}
	}
	// What a credential buys is a credential: the response of a token
	// endpoint asked with one (the OIDC token GitHub mints for the job, an
	// installation token, an OAuth grant) or of a cloud metadata service is
	// itself a secret wherever it is carried next.
	if provenance.MintsToken(urls) && (hdrTaint.secret() || urlTaint.secret() || dataTaint.secret()) || provenance.MetadataCredentials(urls) {
		out = out.or(taint{kind: tSecret, line: line})
	}
	switch {
	case outFile != "" && outFile != "-":
		r.written(outFile, out, line, false)
		return taint{}
	case remote || !toStdout && name == "wget":
		for _, u := range urls {
			if b := path.Base(strings.SplitN(u, "?", 2)[0]); b != "" && b != "." && b != "/" {
				r.written(b, out, line, false)
			}
		}
		return taint{}
	}
	return out
}

// runs reports code run from t: on this line, naming where the data came from.
func (r *shellReader) runs(t taint, line int, title string) {
	switch {
	case t.kind&tArtifact != 0:
		r.fs.report(line, hit{id: "gha-artifact-run", title: title, source: t.line})
	case t.kind&tUntrusted != 0 && t.kind&(tDownload|tDecode) == 0:
		if title == "" && t.line != line {
			title = "runs text from the pull request or issue (line " + itoa(t.line) + ") as code"
		}
		r.fs.report(line, hit{id: "gha-script-injection", title: title, source: t.line})
	case t.kind&tDownload != 0:
		if title == "" && t.line != line {
			title = "runs what line " + itoa(t.line) + " downloaded"
		}
		r.fs.report(line, hit{id: "download-and-run", title: title, source: t.line})
	case t.kind&tDecode != 0:
		if title == "" && t.line != line {
			title = "runs what line " + itoa(t.line) + " decoded"
		}
		r.fs.report(line, hit{id: "decode-and-run", title: title, source: t.line})
	}
}

// lit is a word's text as the script spells it, expansions written $name.
func (r *shellReader) lit(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	var b strings.Builder
	var part func(p syntax.WordPart)
	part = func(p syntax.WordPart) {
		switch x := p.(type) {
		case *syntax.Lit:
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			if x.Dollar {
				// $'\x63\x75\x72\x6c' is "curl": what the shell runs.
				b.WriteString(rules.ANSIC(x.Value))
			} else {
				b.WriteString(x.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				part(q)
			}
		case *syntax.ParamExp:
			if x.Param != nil {
				n := x.Param.Value
				if strings.HasPrefix(n, "__gha") {
					if i := atoiSafe(n[5:]); i >= 0 && i < len(r.exprs) {
						b.WriteString(r.exprs[i])
						return
					}
				}
				if v, ok := r.fl.vals[n]; ok && len(v) < 4096 {
					b.WriteString(v)
					return
				}
				b.WriteString("$" + n)
			}
		case *syntax.CmdSubst:
			b.WriteString("$(…)")
		case *syntax.ProcSubst:
			b.WriteString("<(…)")
		}
	}
	for _, p := range w.Parts {
		part(p)
	}
	return b.String()
}

// wordTaint is what a word holds: the variables it expands, the commands
// it substitutes, the ${{ }} expressions of a workflow.
func (r *shellReader) wordTaint(w *syntax.Word) taint {
	if w == nil {
		return taint{}
	}
	var t taint
	var part func(p syntax.WordPart)
	part = func(p syntax.WordPart) {
		switch x := p.(type) {
		case *syntax.Lit:
			t = t.or(r.quotedExprs(x.Value, x.Pos()))
		case *syntax.SglQuoted:
			t = t.or(r.quotedExprs(x.Value, x.Pos()))
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				part(q)
			}
		case *syntax.ParamExp:
			if x.Param == nil {
				return
			}
			t = t.or(r.varTaint(x.Param.Value, r.line(x.Pos())))
		case *syntax.CmdSubst:
			r.depth++
			t = t.or(r.stmts(x.Stmts, taint{}))
			r.depth--
		case *syntax.ProcSubst:
			r.depth++
			t = t.or(r.stmts(x.Stmts, taint{}))
			r.depth--
		}
	}
	for _, p := range w.Parts {
		part(p)
	}
	return t
}

// quotedExprs is what the ${{ }} expressions in quoted text hold: GitHub
// substitutes them before the shell runs, quotes or not (a quoted
// here-document included).
func (r *shellReader) quotedExprs(v string, pos syntax.Pos) taint {
	var t taint
	for {
		i := strings.Index(v, "${__gha")
		if i < 0 {
			return t
		}
		v = v[i+7:]
		j := strings.IndexByte(v, '}')
		if j < 0 {
			return t
		}
		t = t.or(r.varTaint("__gha"+v[:j], r.line(pos)))
		v = v[j:]
	}
}

// varTaint is what a variable holds: what the script put in it, what the
// workflow bound to it, or a secret by its name.
func (r *shellReader) varTaint(name string, line int) taint {
	if strings.HasPrefix(name, "__gha") {
		i := atoiSafe(name[5:])
		if i < 0 || i >= len(r.exprs) {
			return taint{}
		}
		return exprTaint(r.exprs[i], line, r.fs.workflowNames())
	}
	if t, ok := r.fl.vars[name]; ok {
		return t
	}
	if t, ok := r.fl.env[name]; ok {
		return t
	}
	if rules.OutsiderEnv(name) {
		return taint{kind: tUntrusted, line: line}
	}
	if rules.SecretName(name) {
		return taint{kind: tSecret, line: line}
	}
	return taint{}
}

// exprTaint is what a ${{ }} expression hands a step: every secret, one
// secret, or text the pull request's or issue's author wrote. A test of
// them (a comparison of a secret, a contains of the body) hands only a
// boolean.
func exprTaint(e string, line int, names map[string]bool) taint {
	if e = rules.ExprValue(e); e == "" {
		return taint{}
	}
	switch {
	case strings.Contains(e, "toJSON(secrets)") || strings.Contains(e, "toJson(secrets)") || strings.Contains(e, "tojson(secrets)"):
		return taint{kind: tSecretBulk, line: line}
	case strings.Contains(e, "secrets.") || strings.Contains(e, "github.token") || strings.Contains(e, "secrets["):
		return taint{kind: tSecret, line: line}
	case strings.Contains(e, "${{"):
		if untrustedExpr(e, names) {
			return taint{kind: tUntrusted, line: line}
		}
	}
	return taint{}
}

// fileTaint is what a file holds, as far as this file shows.
func (r *shellReader) fileTaint(p string, line int) taint {
	if p == "" {
		return taint{}
	}
	if t, ok := r.fl.files[rules.NormPath(p)]; ok {
		return t
	}
	if rules.CredentialPath(p) || strings.Contains(p, "\\") && rules.CredentialPath(strings.ReplaceAll(p, "\\", "/")) {
		return taint{kind: tSecretBulk, line: line}
	}
	if rules.DataNamed(p) {
		// An image, a font or a .dat is bytes nobody reads in the diff:
		// fed to a shell or an interpreter, they are a hidden program.
		return taint{kind: tDecode, line: line}
	}
	if r.fl.artifact.kind != 0 && r.fl.inArtifact(p) {
		return r.fl.artifact
	}
	return taint{}
}

// inArtifact reports whether a path may hold an artifact's files: any
// file of the checkout when one went into the workspace itself, else one
// under the folders they went into. An artifact unpacked into temp/size,
// or into the runner's temp folder, cannot replace scripts/report.js.
func (fl *flow) inArtifact(p string) bool {
	p = rules.WorkspacePath(p)
	outside := strings.HasPrefix(p, "/") || strings.HasPrefix(p, "$") || strings.HasPrefix(p, "~")
	if len(fl.artifactDirs) == 0 {
		return !outside
	}
	for _, d := range fl.artifactDirs {
		if d == "" && !outside || d != "" && (p == d || strings.HasPrefix(p, d+"/")) {
			return true
		}
	}
	return false
}

func atoiSafe(s string) int {
	n := 0
	if s == "" {
		return -1
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// hereText is the text of the here-documents and here-strings fed to a
// statement: a script for the program that reads standard input.
func hereText(r *shellReader, s *syntax.Stmt) string {
	var b strings.Builder
	for _, rd := range s.Redirs {
		switch {
		case rd.Op == syntax.WordHdoc:
			b.WriteString(r.lit(rd.Word) + "\n")
		case (rd.Op == syntax.Hdoc || rd.Op == syntax.DashHdoc) && rd.Hdoc != nil:
			b.WriteString(r.lit(rd.Hdoc) + "\n")
		}
	}
	return b.String()
}

// verify clears the download mark of the files a statement checks against
// a digest or a signature (rules.VerifiesDownload): what runs after the
// check is the file the change fixed. A check of one file leaves the
// others downloaded.
func (r *shellReader) verify(s *syntax.Stmt) {
	if r.stage > 0 {
		return
	}
	fetched := false
	for _, t := range r.fl.files {
		fetched = fetched || t.kind&tDownload != 0
	}
	if !fetched {
		return
	}
	var b strings.Builder
	if syntax.NewPrinter().Print(&b, s) != nil || !rules.VerifiesDownload(b.String()) {
		return
	}
	if r.unheeded > 0 {
		return // check || echo "mismatch": the script goes on whatever the check says
	}
	// A digest the check itself downloads, a list downloaded beside the
	// file, or a digest computed from the file on the runner proves nothing.
	var names []string
	fetched = false
	checks, computed := 0, 0
	syntax.Walk(s, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Word:
			names = append(names, strings.Fields(r.lit(x))...)
		case *syntax.ParamExp:
			if x.Param != nil && r.fl.vars[x.Param.Value].kind&tDownload != 0 {
				fetched = true
			}
			if x.Param != nil && r.fl.vars[x.Param.Value].kind&tDigest != 0 {
				computed++
			}
		case *syntax.CallExpr:
			if len(x.Args) == 0 {
				break
			}
			words := make([]string, len(x.Args))
			for i, w := range x.Args {
				words[i] = r.lit(w)
			}
			switch name := path.Base(words[0]); {
			case rules.Fetcher(name):
				fetched = true
			case (name == "gpg" || name == "gpg2" || name == "gpgv" || name == "gpgv2") && r.fl.keys.kind != 0:
				fetched = true // the key was downloaded too
			case rules.DigestCommand(name) && rules.HasFlag(words, "c", "--check"):
				checks++
				for _, w := range words[1:] {
					if !strings.HasPrefix(w, "-") && r.fileTaint(w, 0).kind&tDownload != 0 {
						fetched = true // the list itself was downloaded
					}
				}
			case rules.DigestCommand(name):
				computed++
			}
		}
		return true
	})
	if checks > 0 && r.lastIn.kind&tDownload != 0 {
		fetched = true // grep t.tgz SHA256SUMS | sha256sum -c, the list downloaded
	}
	if fetched || checks > 0 && computed > 0 || computed > 1 {
		return
	}
	for k, t := range r.fl.files {
		if b := path.Base(k); t.kind&tDownload != 0 && len(b) > 1 && namesFile(names, b) {
			if t.kind &^= tDownload; t.kind == 0 {
				delete(r.fl.files, k)
			} else {
				r.fl.files[k] = t
			}
		}
	}
}

// namesFile reports a word that names the file base, or a list or
// signature named after it (t.tgz.sha256, t.tgz.asc).
func namesFile(words []string, base string) bool {
	for _, w := range words {
		if b := path.Base(strings.Trim(w, `"'`)); b == base || strings.HasPrefix(b, base+".") {
			return true
		}
	}
	return false
}

// stops reports a statement that ends the script or fails the step when
// it runs: exit 1, { echo bad; exit 1; }, die "bad".
func stops(s *syntax.Stmt) bool {
	found := false
	syntax.Walk(s, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			if w := c.Args[0].Lit(); rules.Stops(w) {
				found = true
			}
		}
		return !found
	})
	return found
}

// remoteRun reports a package runner (npx, pipx run, uv tool run, …) whose
// package is a URL or a git repository rather than a registry package.
func remoteRun(words []string) bool {
	ops, ok := rules.PackageRunner(words)
	return ok && rules.RemoteSpec(ops)
}

// runnerCachePath reports a path in the runner's action or tool cache,
// where a later step (an action's post step included) runs what it finds.
func runnerCachePath(p string) bool {
	return strings.Contains(p, "_actions/") || strings.Contains(p, "/_tool/") || strings.Contains(p, "RUNNER_TOOL_CACHE")
}

// selfHostedRunnerPath reports a self-hosted runner's own files: it reads
// its .env and .path (and the job hooks they name) before every later job,
// another workflow's included.
func selfHostedRunnerPath(p string) bool {
	return strings.Contains(p, "actions-runner/") || strings.Contains(p, "RUNNER_ROOT") || strings.HasSuffix(p, "/runner/.env") || strings.HasSuffix(p, "/runner/.path")
}

// toLog reports redirections that leave a command's output where anyone
// who can read the run reads it: none (the job's log), or only the job
// summary, which the run's page shows beside the log.
func (r *shellReader) toLog(redirs []*syntax.Redirect) bool {
	for _, rd := range redirs {
		switch rd.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll:
			if !strings.Contains(r.lit(rd.Word), "GITHUB_STEP_SUMMARY") {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// npmConfigSet returns what npm, pnpm or yarn config set writes, as the
// line of an .npmrc that would hold it (key=value): the command and the
// file set the same thing, for this job's later steps and, on a
// self-hosted runner with --location=global, for later jobs too.
func npmConfigSet(words []string) (string, bool) {
	if len(words) < 4 || words[1] != "config" || words[2] != "set" {
		return "", false
	}
	switch path.Base(words[0]) {
	case "npm", "pnpm", "yarn":
	default:
		return "", false
	}
	for i := 3; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") {
			continue
		}
		if strings.Contains(w, "=") {
			return w, true
		}
		if i+1 < len(words) {
			return w + "=" + words[i+1], true
		}
		return "", false
	}
	return "", false
}
