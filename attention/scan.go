package attention

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/vetter-dev/vetter/attention/provenance"
	"github.com/vetter-dev/vetter/attention/rules"
	"github.com/vetter-dev/vetter/packet"
	"go.yaml.in/yaml/v3"
	"mvdan.cc/sh/v3/syntax"
)

// hit is what a detector says about one line, before it becomes an Item.
type hit struct {
	id       string
	title    string // "" takes the rule's title
	severity string // "" takes the rule's severity
	why      string // "" takes the rule's reason
	source   int    // the new-side line the data came from; 0 for none
	// parsed marks a hit from a reader that parsed the line (shell, YAML,
	// the data-flow reader): on a tie it says more than a line pattern.
	parsed bool
}

func (h hit) sev() string {
	if h.severity != "" {
		return h.severity
	}
	return rules.Must(h.id).Severity
}

// better reports whether h says more than o about the same line: more
// severe, or as severe and following the data from another line.
func (h hit) better(o hit) bool {
	if a, b := severityRank(h.sev()), severityRank(o.sev()); a != b {
		return a < b
	}
	if (h.source > 0) != (o.source > 0) {
		return h.source > 0
	}
	return h.parsed && !o.parsed
}

// loc is where an added line sits in its file's hunks.
type loc struct{ hunk, line int }

// fileScan is the scan of one diff file: every reader reports hits by
// new-side line number, and the best hit of each added line becomes its one
// item.
type fileScan struct {
	f    *packet.DiffFile
	fi   int
	path string
	info rules.FileInfo
	// added maps an added line's new-side number to where it is; built
	// only for the files a structural reader looks at.
	added map[int]loc
	text  map[int]string // every new-side line the diff shows, by number
	best  map[loc]hit
	// parser is the shell parser, made once per file: a parser is cheap to
	// reuse and costly to make for every line of a Makefile.
	parser *syntax.Parser
	// wfRoot is a workflow's YAML, parsed once when the diff holds the
	// whole file (workflowRoot).
	wfRoot   *yaml.Node
	wfParsed bool
	// shown holds the paths of the files the diff shows (not deleted).
	shown map[string]bool
	// shellRead holds the lines the shell parser read whole; there its
	// reading of what is sent where replaces the line pattern's guess.
	shellRead map[int]bool
	// envSubset holds the lines where the shell parser read the
	// environment filtered to the variables one prefix names (env | grep
	// '^CI_COMMIT'): no dump of its secrets.
	envSubset map[int]bool
	// messages holds, for the lines of text an echo or printf prints to
	// the terminal, what the line holds outside that text: a command
	// spelled in the message (an install hint, a usage line) is read by a
	// person, not run; what is left is.
	messages map[int]string
	// wfNames are a workflow's names bound to untrusted text, made once.
	wfNames map[string]bool
	// declared holds the function names the file declares, made once.
	declared map[string]bool
	// hot holds the added lines of a file that is not prose that the
	// build-file checks may concern, sorted by lineRules (buildfiles.go).
	hot [hotGroups][]numbered
	// keyed is whether an added line holds a class key: 0 not asked yet
	// (a prose file, whose lines lineRules does not look up), 1 no, 2 yes
	// (anyClassKey).
	keyed int8
}

// Scan finds what a vetter must look at in d: high severity first,
// then in diff order (file, hunk, line), whole-file items before their lines.
func Scan(d *packet.Diff) []Item {
	if d == nil {
		return nil
	}
	var (
		out   []Item
		lines []Item
		lower []byte // reused buffer for the ASCII-lower-cased line
		// best is each file's fileScan.best, emptied for the next: a file
		// of many flagged lines grew a new map every time.
		best = map[loc]hit{}
	)
	hooked := lifecycleTargets(d)
	named := configTargets(d)
	inDiff := map[string]bool{}
	for _, f := range d.Files {
		if f != nil && f.Status != packet.StatusDeleted {
			inDiff[f.Path()] = true
		}
	}
	for fi, f := range d.Files {
		if f == nil {
			continue
		}
		clear(best)
		fs := &fileScan{f: f, fi: fi, path: f.Path(), info: rules.ClassifyFile(f), best: best, shown: inDiff}
		if hook, ok := hooked[fs.path]; ok && fs.info.BuildCode == "" && f.Status != packet.StatusDeleted {
			fs.info.BuildCode = "npm runs it at " + hook + " (the package.json in this change says so)"
		}
		if fs.info.BuildCode == "" && f.Status != packet.StatusDeleted {
			fs.info.BuildCode = buildCodeOf(f, named)
		}
		if rules.HasHiddenName(f.OldPath) || rules.HasHiddenName(f.NewPath) {
			it := fs.fileItem("hidden-bidi")
			it.Title = "file name holds hidden or bidirectional-control characters"
			out = append(out, it)
		}
		shebang := fs.lineRules(&lower)
		if fs.highs() <= MaxLinesPerFile {
			// A file with more high lines than the screen shows is flagged
			// already; reading its structure too would only let a hostile
			// diff make the scan slow.
			fs.structure()
			fs.classes(inDiff)
			fs.leaving()
			fs.hiddenRun()
			fs.buildFiles()
			fs.runnerReads()
		}
		fs.deferToParser()
		lines = lines[:0]
		for l, h := range fs.best {
			lines = append(lines, fs.lineItem(l, h))
		}
		slices.SortFunc(lines, compareItems)
		switch {
		case fs.info.Rule != "":
			it := fs.fileItem(fs.info.Rule)
			it.Severity = fs.info.Severity
			it.Title = fs.info.Noun + " " + fs.info.Verb
			out = append(out, it)
		case shebang && !f.Binary:
			it := fs.fileItem("script")
			it.Title = "script with a shebang " + rules.StatusVerb(f)
			out = append(out, it)
		case f.NewMode == "100755" && f.OldMode != "100755" && f.Status != packet.StatusDeleted:
			it := fs.fileItem("executable-bit")
			if f.Status == packet.StatusAdded {
				it.Title = "executable file added"
			}
			out = append(out, it)
		}
		out = appendPlumbing(out, fs)
		out = appendCapped(out, lines)
	}
	seen := map[string]int{}
	for i := range out {
		out[i].Key = attentionKey(&out[i], d, seen)
	}
	slices.SortStableFunc(out, compareItems)
	return out
}

// report records h on the added line numbered n (new side); a line that is
// not an added line of the diff (context, or outside the hunks) gets
// nothing: the change did not write it.
func (fs *fileScan) report(n int, h hit) {
	l, ok := fs.added[n]
	if !ok {
		return
	}
	h.parsed = true
	fs.put(l, h)
}

func (fs *fileScan) put(l loc, h hit) {
	dl := &fs.f.Hunks[l.hunk].Lines[l.line]
	if h.source == dl.New {
		h.source = 0
	}
	h.lowerWhereHarmless(fs.path, fs.text[dl.New-1], dl.Text)
	if h.id == "download-and-run" && h.sev() == rules.High && provenance.LocalFetchOnly(dl.Text) {
		// curl of a file:// URL reads the checkout, not the network: the
		// test of an install script piped through curl as users run it.
		h.severity = rules.Medium
		h.title = "pipes a local file (file://) to a shell"
		h.why = "curl reads a file of the checkout here, not the network: what runs is in the tree, so read that file"
	}
	if h.id == "persistence" && fs.info.Scope&rules.ScopeDockerfile != 0 && h.sev() == rules.High && !strings.Contains(dl.Text, "authorized_keys") {
		// A Dockerfile's RUN writes the image it builds, not the runner:
		// the profile, unit or cron entry is the image's own set-up. A key
		// that lets someone log in to every container stays high.
		h.severity = rules.Medium
		h.why = "a Dockerfile's RUN writes the image it builds, not the runner: what it sets up runs in the containers started from the image, so read what it runs"
	}
	if h.id == "persistence" && h.sev() == rules.High && rules.PackageScript(fs.path) && !strings.Contains(dl.Text, "authorized_keys") {
		h.severity = rules.Medium
		h.why = "a package's maintainer script runs on the machine that installs the package, not on the runner, and registering the package's own service is its job: read what the service runs"
	}
	o, ok := fs.best[l]
	if ok && !h.better(o) {
		return
	}
	if ok && o.id == h.id && h.title == "" && o.sev() == h.sev() {
		// The pattern's title says which form it took; one it lowered
		// (a string nothing runs) does not describe a reader's finding.
		h.title = o.title
	}
	fs.best[l] = h
}

// lineRules runs the per-line readers over every added line: hidden
// characters, the line patterns and, for a workflow, the line-by-line
// workflow rules. It reports whether the file starts with a shebang.
func (fs *fileScan) lineRules(lower *[]byte) (shebang bool) {
	f, info := fs.f, fs.info
	var wf *workflowScan
	if info.Scope&rules.ScopeWorkflow != 0 {
		wf = newWorkflowScan(f, fs.workflowRoot())
	}
	agent := rules.AgentInstructions(fs.path)
	inComment := false
	for hi, h := range f.Hunks {
		if h == nil {
			continue
		}
		if wf != nil {
			wf.startHunk()
		}
		for li := range h.Lines {
			l := &h.Lines[li]
			if l.Kind == packet.LineRemoved {
				continue
			}
			inRun := false
			if wf != nil {
				inRun = wf.step(l.Text)
			}
			if l.Kind != packet.LineAdded {
				continue
			}
			at := loc{hi, li}
			// Hidden and look-alike characters are none of them ASCII,
			// and nearly every line is ASCII only.
			if !asciiOnly(l.Text) {
				if id, title, ok := rules.HiddenInText(l.Text, l.New == 1, info.Prose, agent); ok {
					fs.put(at, hit{id: id, title: title})
				} else if w := rules.MixedScriptWord(l.Text); w != "" {
					h := hit{id: "hidden-confusable", title: "\"" + w + "\" mixes Latin letters with Cyrillic or Greek ones drawn the same"}
					if info.Prose || rules.CommentLine(l.Text) {
						h.severity = rules.Medium
					}
					fs.put(at, h)
				}
			}
			if l.New == 1 && strings.HasPrefix(l.Text, "#!") {
				shebang = true
			}
			if info.Prose {
				// Documentation does not run; its install examples are the
				// commonest false alarm. An HTML comment is another matter:
				// the rendered page hides it, while an AI agent reading the
				// file, or anyone who pastes it, gets the command in it.
				if c := markdownComment(&inComment, l.Text); c != "" {
					*lower = rules.ASCIILower((*lower)[:0], c)
					if r := rules.MatchLine(0, c, *lower); r != nil && rules.Must(r.ID).Severity == rules.High {
						t := r.Title
						if t == "" {
							t = rules.Must(r.ID).Title
						}
						fs.put(at, hit{id: "hidden-instructions", title: "an HTML comment, hidden when the page is rendered, " + t})
					}
				}
				continue
			}
			sc := info.Scope
			if inRun {
				sc |= rules.ScopeWorkflowRun
			}
			line, set := rules.LineCandidates(l.Text, hotKeys())
			if set != 0 {
				for g := 0; g < hotGroups; g++ {
					if set&(1<<g) != 0 {
						fs.hot[g] = append(fs.hot[g], numbered{l.New, l.Text})
					}
				}
				if set&(1<<classKeyed) != 0 {
					fs.keyed = 2
				}
			}
			if r := rules.MatchCandidates(sc, l.Text, line); r != nil {
				h := hit{id: r.ID, title: r.Title}
				inert := (r.Promote || r.ID == "download-and-run") && inertString(sc, l.Text)
				switch {
				case r.Promote && info.BuildCode != "" && !inert && !provenance.LoopbackOnly(l.Text) && !importLine(l.Text) && !fs.ownFunctionOnly(sc, l.Text, r.ID):
					h = hit{id: "build-code-fetch", why: rules.Must("build-code-fetch").Why + " — " + info.BuildCode}
				case inert && r.ID == "download-and-run":
					h.severity = rules.Medium
					h.title = "spells out a download piped to a shell in a string that nothing on this line runs"
					h.why = "a message or a value: it runs only if something passes it to a shell, which the code reader follows"
				case r.ID == "native-load" && info.BuildCode != "" && !testRunCode(info.BuildCode) && treeLibrary(l.Text):
					h.severity = rules.High
					h.why = rules.Must("native-load").Why + " — " + info.BuildCode
				case r.ID == "powershell-hidden" && sc&(rules.ScopeCode|rules.ScopeGo) != 0 && info.BuildCode == "":
					// An application may hide the console of a helper it
					// starts; a build or install step has none to hide.
					h.severity = rules.Medium
				case r.ID == "runner-register" && !fs.ciJob():
					// Outside a workflow the shell reader says whether the
					// registration names its own target (high) or takes it
					// from its caller, as a runner image's entrypoint does.
					h.severity = rules.Medium
				case r.ID == "persistence" && systemctlEnableRe().MatchString(l.Text) && !fs.namesUnitFile():
					// Enabling a service whose unit the file does not
					// write: the unit came with a package the system's
					// package manager installed (tailscaled, docker), and
					// the package decides what it runs.
					h.severity = rules.Medium
					h.title = "enables a service a package installed"
					h.why = "it runs again at every boot, but this file writes no unit: what runs is the installed package's own service, so read which package it is"
				case r.ID == "persistence" && sc&rules.ScopeShell != 0 && installerPath(fs.path) && rules.ShellRCPath(l.Text) && !rules.RCLineFetches(l.Text):
					// An installer's job is to add itself to the profile;
					// the shell reader raises it when what it writes runs a
					// download.
					h.severity = rules.Medium
					h.title = "an installer writes the shell profile"
					h.why = whyInstallerProfile
				}
				fs.put(at, h)
			}
			if wf != nil {
				if w, ok := wf.check(l.Text, inRun); ok {
					fs.put(at, w)
				}
			}
		}
	}
	if !info.Prose && fs.keyed == 0 {
		fs.keyed = 1 // every added line was looked up, none holds a class key
	}
	return shebang
}

var lifecycleNodeRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*"(preinstall|install|postinstall|prepare|preprepare|postprepare|prepublish|prepack|postpack)"\s*:\s*".*?\b(?:node|nodejs|bun|deno\s+run(?:\s+-\S+)*|tsx|ts-node|python[0-9.]*|ruby|perl)\s+(?:-\S+\s+)*([\w./@-]+\.(?:[cm]?[jt]s|py|rb|pl))\b`)
})

// lifecycleTargets maps each file an npm lifecycle script added in this
// change runs with node, bun, deno, python, ruby or perl (scripts/setup.js,
// by its path in the diff) to the script's name: that file's code runs by
// itself at install, like setup.py's.
func lifecycleTargets(d *packet.Diff) map[string]string {
	var out map[string]string
	for _, f := range d.Files {
		if f == nil || f.Status == packet.StatusDeleted || path.Base(f.Path()) != "package.json" {
			continue
		}
		dir := path.Dir(f.Path())
		for _, h := range f.Hunks {
			if h == nil {
				continue
			}
			for _, l := range h.Lines {
				if l.Kind != packet.LineAdded || !strings.Contains(l.Text, "install") && !strings.Contains(l.Text, "prep") && !strings.Contains(l.Text, "pack") {
					continue
				}
				if m := lifecycleNodeRe().FindStringSubmatch(l.Text); m != nil {
					if out == nil {
						out = map[string]string{}
					}
					out[path.Join(dir, m[2])] = m[1]
				}
			}
		}
	}
	return out
}

// inertString reports a line of code (not shell) whose rule matched only
// text inside string literals, with nothing on the line that runs, starts,
// sends or writes: a message that spells out "curl … | sh", a
// shutil.which("curl") check. What such a string becomes is the code
// reader's to follow.
func inertString(sc rules.Scope, text string) bool {
	if sc&(rules.ScopeCode|rules.ScopeSetupPy|rules.ScopeGo) == 0 || sc&(rules.ScopeWorkflowRun|rules.ScopeShell|rules.ScopeMakefile|rules.ScopeDockerfile) != 0 {
		return false
	}
	re := codeRe()
	// A method named compile (re.compile, the cc crate's Build::compile)
	// is not Python's compile builtin.
	if re.execSink.MatchString(strings.ReplaceAll(text, ".compile(", ".c(")) || re.procSink.MatchString(text) || re.writeSink.MatchString(text) || re.sendSink.MatchString(text) ||
		strings.Contains(text, ".write(") {
		return false
	}
	// Backticks run a command in Ruby, Perl and PHP: only quotes are text.
	bare := quotedRe().ReplaceAllString(text, `""`)
	if bare == text {
		return false
	}
	return rules.MatchLine(sc, bare, rules.ASCIILower(nil, bare)) == nil
}

var quotedRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'`) })

var treeLibraryRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`__dirname|__file__|import\.meta|path\.join\(|os\.path\.|['"]\.{1,2}/|['"][\w-]+/[^'"]+\.(?:node|dll|so|dylib)['"]`)
})

// treeLibrary reports a library loaded from the package's own files (not a
// system library such as libc or kernel32).
func treeLibrary(line string) bool { return treeLibraryRe().MatchString(line) }

// installerPath reports an installer script (install.sh, installer.ps1,
// tools/install-deps.sh): writing the user's shell profile is its job.
func installerPath(p string) bool {
	b := strings.ToLower(path.Base(p))
	return strings.HasPrefix(b, "install") && (strings.HasSuffix(b, ".sh") || strings.HasSuffix(b, ".bash") || strings.HasSuffix(b, ".zsh") || strings.HasSuffix(b, ".ps1"))
}

const whyInstallerProfile = "installers add their own lines to the profile, and every new shell runs them; check it adds nothing fetched at run time"

// structure runs the readers that know a file's structure: shell, the
// workflow model, package.json scripts, the data-flow reader for code, and
// the rules on where code comes from. Each needs the file's lines by
// number, built here once for the files that have such a reader.
func (fs *fileScan) structure() {
	if fs.info.Prose || fs.f.Binary {
		return
	}
	sc := fs.info.Scope
	const structured = rules.ScopeWorkflow | rules.ScopeShell | rules.ScopeMakefile | rules.ScopeDockerfile | rules.ScopePackageJSON | rules.ScopeCode |
		rules.ScopeNpmrc | rules.ScopePipConf | rules.ScopeGradleWrapper | rules.ScopePreCommit | rules.ScopeGitmodules | rules.ScopeRequirements | rules.ScopeGo | rules.ScopeGoMod | rules.ScopeLock | rules.ScopeCargoConfig
	if sc&structured == 0 && fs.info.BuildCode == "" {
		return
	}
	// Go code is followed for data only where it starts processes or
	// writes files by path: most Go files have nothing for a reader.
	goFlow, goDirective := false, false
	if sc&rules.ScopeGo != 0 {
		goFlow, goDirective = fs.goMarks()
	}
	if sc&rules.ScopeGo != 0 && sc&^rules.ScopeGo == 0 && !goFlow && !goDirective {
		return
	}
	fs.index()
	switch {
	case sc&rules.ScopeWorkflow != 0:
		fs.workflow()
	case sc&rules.ScopeShell != 0:
		fs.shellFile()
	case sc&rules.ScopeMakefile != 0:
		fs.makefile()
	case sc&rules.ScopeDockerfile != 0:
		fs.dockerfile()
	case sc&rules.ScopePackageJSON != 0:
		fs.packageJSON()
	case sc&rules.ScopeGo != 0:
		fs.goFile()
	}
	if sc&rules.ScopeCode != 0 || fs.info.BuildCode != "" || goFlow {
		fs.codeFlow()
		fs.runtimeRuns()
	}
	if sc&(rules.ScopeGo|rules.ScopeCode) == 0 || sc&(rules.ScopeGoMod|rules.ScopeShell) != 0 || rules.RubyManifest(fs.path) {
		fs.sources() // a PowerShell script is code and shell, a Gemfile code and a manifest: they set sources too
	}
	fs.runnerMemory()
}

// runtimeRuns reports a program started from a directory the code
// downloads into (rules.RuntimeRuns).
func (fs *fileScan) runtimeRuns() {
	if !slices.ContainsFunc(slices.Collect(maps.Values(fs.text)), rules.MayFetch) {
		return
	}
	var lines []rules.UnitLine
	for n, t := range fs.text {
		_, added := fs.added[n]
		lines = append(lines, rules.UnitLine{N: n, Text: t, Added: added})
	}
	slices.SortFunc(lines, func(a, b rules.UnitLine) int { return a.N - b.N })
	for _, r := range rules.RuntimeRuns(lines) {
		fs.report(r.Sink, hit{id: "download-and-run", title: r.Title, source: r.Source})
	}
}

var memReadRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)/proc/[^/\s]+/(?:mem|maps|smaps)\b|\bprocess_vm_readv\b|\bReadProcessMemory\b|\bgcore\b|\bgdb\b.*\s-p\b|\b(?:memdump|procdump|MiniDumpWriteDump|dumpcore|minidump)\b|\bPTRACE_(?:ATTACH|SEIZE|PEEKDATA)\b|\bptrace\(`)
})

// runnerMemory rates, in a file that names the runner's worker process
// anywhere, each line that reads a process's memory: the worker is found
// on one line and read on another (psutil, ps, a loop over /proc).
func (fs *fileScan) runnerMemory() {
	worker := 0
	for n, t := range fs.text {
		if (strings.Contains(t, "Runner.Worker") || strings.Contains(t, "Runner.Listener")) && (worker == 0 || n < worker) {
			worker = n
		}
	}
	if worker == 0 {
		return
	}
	for n := range fs.added {
		if t := fs.text[n]; memReadRe().MatchString(t) {
			fs.report(n, hit{id: "runner-memory-read", title: "reads a process's memory in a file that looks for the runner's worker (line " + itoa(worker) + ")", source: worker})
		}
	}
}

// highs counts the high hits so far.
func (fs *fileScan) highs() int {
	n := 0
	for _, h := range fs.best {
		if h.sev() == rules.High {
			n++
		}
	}
	return n
}

// goMarks reads a Go file's added lines once: whether one starts a
// process, writes a file by path or reads the environment (the code reader
// follows the file), and whether one is a go:generate or #cgo directive.
// Most lines hold neither "os." nor "exec." nor a directive, and two
// substring tests rule them out.
func (fs *fileScan) goMarks() (flow, directive bool) {
	for _, h := range fs.f.Hunks {
		if h == nil {
			continue
		}
		for _, l := range h.Lines {
			if l.Kind != packet.LineAdded {
				continue
			}
			t := l.Text
			if strings.Contains(t, "go:generate") || strings.Contains(t, "#cgo") {
				directive = true
			}
			if !flow && (strings.Contains(t, "os.") || strings.Contains(t, "exec.")) {
				for _, k := range []string{"exec.Command", "os.OpenFile", "os.WriteFile", "syscall.Exec", "os.StartProcess", "os.Environ()"} {
					if strings.Contains(t, k) {
						flow = true
						break
					}
				}
			}
			if flow && directive {
				return
			}
		}
	}
	return
}

// deferToParser drops what a line pattern guessed about a line the shell
// parser read whole, where the parser knows better: a secret sent to
// GitHub's own API on a continued line is how the token is meant to be
// used, and the parser, which sees the URL, said nothing.
//
// It also rates a download that is run by where it comes from: a vendor's
// documented installer fetched from the vendor's own host (rustup,
// NodeSource, Docker, Poetry, uv, Codecov's uploader, ...) is what build
// files everywhere do, and is medium; anything else stays high.
func (fs *fileScan) deferToParser() {
	gated, why := false, ""
	if fs.info.Scope&rules.ScopeWorkflow != 0 && fs.wfRoot != nil {
		switch {
		case membersOnly(fs.wfRoot):
			gated, why = true, "; here only a comment by the repository's owners, members or collaborators starts the job, so the pull request is one they chose to run"
		case sameRepoOnly(fs.wfRoot):
			gated, why = true, "; here every job runs only for a pull request from a branch of the repository itself, whose author can push to it already: no fork's pull request reaches it"
		}
	}
	for l, h := range fs.best {
		if gated && h.sev() == rules.High && memberGated[h.id] {
			h.severity = rules.Medium
			h.why = rules.Must(h.id).Why + why
			fs.best[l] = h
			continue
		}
		n := fs.f.Hunks[l.hunk].Lines[l.line].New
		switch {
		case h.id == "secret-exfiltration" && !h.parsed && fs.shellRead[n]:
			fs.best[l] = hit{id: "gha-secret-in-run"}
		case h.id == "env-exfiltration" && !h.parsed && fs.envSubset[n] && h.sev() == rules.High:
			h.severity = rules.Medium
			h.title = "prints the environment's variables of one prefix"
			h.why = "grep keeps only the variables its pattern names, and the pattern names no credential: check the prefix holds no secret"
			fs.best[l] = h
		case h.id == "dependency-url" && h.sev() == rules.High && fs.ownOrgSource(fs.f.Hunks[l.hunk].Lines[l.line].Text):
			h.severity = rules.Medium
			h.title = "takes a dependency from a git repository of the project's own owner"
			h.why = "the manifest names this owner as the project's own: the code comes from the project's own organisation rather than the registry; read which repository and ref"
			fs.best[l] = h
		case !h.parsed && fs.onlyMessage(n) && h.sev() == rules.High && messageLowered[h.id]:
			h.severity = rules.Medium
			h.title = rules.Must(h.id).Title + " (spelled out in a message the script prints)"
			h.why = "echo or printf prints the text to the terminal and nothing runs it; check the line really is only a message"
			fs.best[l] = h
		case (h.id == "download-and-run" || h.id == "npm-lifecycle-runs") && !strings.HasPrefix(fs.info.BuildCode, "npm runs it at") && !strings.HasPrefix(fs.info.Noun, "package.json"):
			// An npm install that fetches an installer (a runtime, a
			// tool) is no vendor's documented step: it is how the
			// Shai-Hulud loader brought its own runtime.
			src := fs.f.Hunks[l.hunk].Lines[l.line].Text
			if h.source > 0 {
				src = fs.command(h.source)
			}
			if v := fs.vendorInstaller(fs.expandVars(src, n)); v != "" {
				fs.best[l] = hit{id: "vendor-installer", title: "runs the installer " + v + " publishes (fetched from its own host)", source: h.source, parsed: h.parsed}
			}
		}
	}
}

// onlyMessage reports whether what line n holds outside the messages it
// prints matches no line rule: the pattern found was in the message.
func (fs *fileScan) onlyMessage(n int) bool {
	rest, ok := fs.messages[n]
	return ok && (rest == "" || rules.MatchLine(fs.info.Scope, rest, rules.ASCIILower(nil, rest)) == nil)
}

// messageLowered are the rules about what a command does: spelled out in a
// message the script prints, the command does not run. A secret or a hidden
// character in the message is still where it is.
var messageLowered = map[string]bool{"download-and-run": true, "runner-register": true, "persistence": true, "decode-and-run": true, "indirect-run": true}

// ownOrgSource reports a dependency line whose git source belongs to the
// owner the manifest itself names as the project's (its repository or
// homepage field): a project taking one of its own organisation's
// repositories, not someone else's fork. A change that rewrites the field
// of a manifest that was already there names whatever owner it likes.
func (fs *fileScan) ownOrgSource(line string) bool {
	dep := provenance.DepOwner(line)
	if dep == "" {
		return false
	}
	for n, t := range fs.text {
		if _, added := fs.added[n]; added && fs.f.Status != packet.StatusAdded {
			continue
		}
		if o := provenance.ManifestOwner(t); o != "" {
			return o == dep
		}
	}
	return false
}

var funcDeclRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:fn|def|function|func|fun|sub|proc)\s+([A-Za-z_]\w*)\s*\(`)
})

// ownFunctionOnly reports a build-code line whose match for the rule id is
// only a function the file itself declares (build.zig's fn fetch(, a
// def download(: its body is in the file and read there), not the
// language's or a library's download or process call.
func (fs *fileScan) ownFunctionOnly(sc rules.Scope, line, id string) bool {
	if fs.declared == nil {
		if fs.added == nil {
			fs.index()
		}
		fs.declared = map[string]bool{}
		for _, t := range fs.text {
			for _, m := range funcDeclRe().FindAllStringSubmatch(t, -1) {
				fs.declared[m[1]] = true
			}
		}
	}
	if len(fs.declared) == 0 {
		return false
	}
	stripped := funcDeclRe().ReplaceAllString(line, "_(")
	for name := range fs.declared {
		if strings.Contains(stripped, name+"(") {
			stripped = regexp.MustCompile(`\b`+regexp.QuoteMeta(name)+`\(`).ReplaceAllString(stripped, "_(")
		}
	}
	if stripped == line {
		return false
	}
	r := rules.MatchLine(sc, stripped, rules.ASCIILower(nil, stripped))
	return r == nil || r.ID != id
}

// expandVars is line with the variables the file gives one value (a
// shell's local root="https://…/$sub/tools") replaced, twice over for a
// value built from another; what stays unknown is left as written.
func (fs *fileScan) expandVars(line string, n int) string {
	value := func(name string) (string, bool) {
		v, at := rules.VarValue(name, n, fs.text, false)
		return v, at > 0
	}
	for range 2 {
		if !strings.Contains(line, "$") {
			break
		}
		line, _ = rules.Expand(line, value)
	}
	// A matrix value stands for every value the matrix lists: a judgement
	// of the line holds for each of them or for none.
	if fs.info.Scope&rules.ScopeWorkflow != 0 && strings.Contains(line, "matrix.") && fs.workflowRoot() != nil {
		root := fs.workflowRoot()
		line = matrixRefRe().ReplaceAllStringFunc(line, func(ref string) string {
			if vs := rules.MatrixValues(root, matrixRefRe().FindStringSubmatch(ref)[1]); len(vs) > 0 {
				return strings.Join(vs, " ")
			}
			return ref
		})
	}
	return line
}

var matrixRefRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{\{\s*matrix\.([\w-]+)\s*\}\}`) })

// vendorInstaller returns the host of a download line whose every URL is a
// vendor's documented installer: a well-known one, or the installer of the
// tool this install script is named after.
func (fs *fileScan) vendorInstaller(line string) string {
	if v := provenance.VendorInstaller(line); v != "" {
		return v
	}
	return provenance.OwnInstaller(fs.path, line)
}

// index numbers the file's new-side lines.
func (fs *fileScan) index() {
	fs.added = map[int]loc{}
	fs.text = map[int]string{}
	for hi, h := range fs.f.Hunks {
		if h == nil {
			continue
		}
		for li, l := range h.Lines {
			if l.Kind == packet.LineRemoved {
				continue
			}
			fs.text[l.New] = l.Text
			if l.Kind == packet.LineAdded {
				fs.added[l.New] = loc{hi, li}
			}
		}
	}
}

// whole reports whether the diff holds the file's whole new text: an added
// file, or one hunk that starts at line 1 of a file that was empty.
func (fs *fileScan) whole() bool {
	f := fs.f
	if f.Status == packet.StatusAdded {
		return true
	}
	if len(f.Hunks) != 1 || f.Hunks[0] == nil {
		return false
	}
	h := f.Hunks[0]
	return h.OldStart <= 1 && h.OldLines == 0 && h.NewStart <= 1
}

// regions returns the new-side text of each hunk as runs of consecutive
// line numbers: what a parser can read when the whole file is not known.
func (fs *fileScan) regions() [][]numbered {
	var out [][]numbered
	for _, h := range fs.f.Hunks {
		if h == nil {
			continue
		}
		var cur []numbered
		for _, l := range h.Lines {
			if l.Kind == packet.LineRemoved {
				continue
			}
			cur = append(cur, numbered{l.New, l.Text})
		}
		if len(cur) > 0 {
			out = append(out, cur)
		}
	}
	return out
}

// numbered is a new-side line and its number.
type numbered struct {
	n    int
	text string
}

// removed returns the removed lines of the hunk around new-side line n,
// for the rules that compare what a line replaced.
func (fs *fileScan) removedNear(n int) []string {
	for _, h := range fs.f.Hunks {
		if h == nil || n < h.NewStart || n >= h.NewStart+h.NewLines {
			continue
		}
		var out []string
		for _, l := range h.Lines {
			if l.Kind == packet.LineRemoved {
				out = append(out, l.Text)
			}
		}
		return out
	}
	return nil
}

func (fs *fileScan) fileItem(id string) Item {
	r := rules.Must(id)
	return Item{Kind: r.Kind, Rule: id, Title: r.Title, Why: r.Why, Path: fs.path, File: fs.fi, Hunk: -1, Line: -1, Severity: r.Severity}
}

func (fs *fileScan) lineItem(l loc, h hit) Item {
	r := rules.Must(h.id)
	dl := &fs.f.Hunks[l.hunk].Lines[l.line]
	it := Item{Kind: r.Kind, Rule: h.id, Title: r.Title, Why: r.Why, Path: fs.path, File: fs.fi, Hunk: l.hunk, Line: l.line,
		NewLine: dl.New, Text: dl.Text, Severity: h.sev(), Source: h.source}
	if h.title != "" {
		it.Title = h.title
	}
	if h.why != "" {
		it.Why = h.why
	}
	if h.source > 0 {
		it.SourceText = fs.text[h.source]
	}
	return it
}

// appendCapped appends a file's line items, sorted by compareItems,
// keeping the most severe MaxLinesPerFile and summarising the rest in one
// item at the first of them, so the most important lines are never the
// ones cut.
func appendCapped(out, lines []Item) []Item {
	if n := min(len(lines), MaxLinesPerFile+1); cap(out)-len(out) < n {
		// Grow by doubling: append grows a long slice by a quarter, and
		// on a diff of many flagged files copying the items (some 200
		// bytes each) to ever larger arrays was most of what the scan
		// allocated.
		out = slices.Grow(out, max(n, len(out)))
	}
	if len(lines) <= MaxLinesPerFile {
		return append(out, lines...)
	}
	out = append(out, lines[:MaxLinesPerFile]...)
	rest := lines[MaxLinesPerFile:]
	more := rest[0]
	r := rules.Must("more")
	more.Title = "and " + itoa(len(rest)) + " more to look at in this file"
	more.Rule, more.Why, more.Kind, more.Source, more.SourceText = r.ID, r.Why, r.Kind, 0, ""
	more.More = len(rest)
	return append(out, more)
}

func asciiOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// markdownComment returns the part of a Markdown line inside an HTML
// comment (<!-- … -->), following a comment across lines through open.
func markdownComment(open *bool, s string) string {
	var b strings.Builder
	for s != "" {
		if !*open {
			i := strings.Index(s, "<!--")
			if i < 0 {
				break
			}
			s, *open = s[i+4:], true
			continue
		}
		i := strings.Index(s, "-->")
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		b.WriteByte(' ')
		s, *open = s[i+3:], false
	}
	return b.String()
}

var (
	systemctlEnableRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bsystemctl\s+(?:--\S+\s+)*(?:enable|daemon-reload)\b`)
	})
	unitFileRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`/systemd/(?:system|user)\b|\.config/systemd\b|\.(?:service|timer|socket)\s*<<|\bExecStart\s*=|\bsystemctl\s+(?:--\S+\s+)*(?:link|edit)\b`)
	})
)

// namesUnitFile reports a file that writes or names a systemd unit file
// of its own (a path under systemd/system or .config/systemd, a heredoc
// into a .service file, an ExecStart= line): enabling a unit it wrote is
// the persistence; enabling one a package installed is not its own.
func (fs *fileScan) namesUnitFile() bool {
	if fs.added == nil {
		fs.index()
	}
	for _, t := range fs.text {
		if unitFileRe().MatchString(t) {
			return true
		}
	}
	return false
}

// command is the command that starts on line n: the line and the lines a
// trailing backslash continues it onto (the URL of a download is often on
// the line after the curl).
func (fs *fileScan) command(n int) string {
	s := fs.text[n]
	for k := n; strings.HasSuffix(strings.TrimSpace(fs.text[k]), "\\") && k < n+12; {
		k++
		t, ok := fs.text[k]
		if !ok {
			break
		}
		s += "\n" + t
	}
	return s
}

// lowerWhereHarmless makes a high item medium where the line cannot do
// what the rule fears: a comment does not run (a token or a key in one is
// still a secret, and hidden text in one is Trojan Source's own trick), and a
// private key among test files is most likely a test key.
func (h *hit) lowerWhereHarmless(path, prev, text string) {
	if h.sev() != rules.High {
		return
	}
	switch {
	case h.id == "private-key" && rules.TestPath(path):
		h.severity = rules.Medium
		h.why = "a key among test files is most likely a test key; check it is not a real one"
	case rules.Must(h.id).Kind == rules.KindHiddenUnicode && rules.FixtureData(path):
		if h.title == "" {
			h.title = rules.Must(h.id).Title
		}
		h.severity = rules.Medium
		h.title += " (in a test fixture)"
		h.why = "a fixture is what a test feeds the tool under test, and the tests of a linter or parser keep such characters there; check that no code outside the fixtures reads it"
	case h.id != "live-token" && h.id != "private-key" && h.id != "hidden-bidi" && h.id != "hidden-linebreak" && h.id != "cgo-flags" && rules.CommentIn(path, prev, text):
		if h.title == "" {
			h.title = rules.Must(h.id).Title
		}
		h.severity = rules.Medium
		h.title += " (in a comment)"
		h.why = "a comment does not run; check the line really is one"
	}
}
