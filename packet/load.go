package packet

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet/source"
)

// Options tune loading.
type Options struct {
	// DeferLogIndex leaves logs unindexed (those larger than DeferAbove, when
	// it is set) so a screen can show at once; the caller indexes them in the
	// background (Log.Index) and may call (*Packet).Reresolve when done.
	DeferLogIndex bool
	DeferAbove    int64
	// Reuse holds logs already open, by packet-relative path (a preview's,
	// see OpenLogPreview): the load takes them instead of opening the files
	// again, so their index, complete or not, carries over. The loaded packet
	// owns them from then on.
	Reuse map[string]*Log
	// OriginRoot is the folder vetter writes the packets it builds from an
	// origin (a pull request) into, with the origin's state beside them
	// (OriginFile). Only a packet under it has its OriginFile read: anywhere
	// else that file is the packet speaking for GitHub, and is reported.
	OriginRoot string
}

// SmallLog is a size below which a log indexes in milliseconds: the
// workbench indexes such logs while loading so their citations are checked.
const SmallLog = 16 << 20

// DiffLimit caps change.diff in memory; a 200,000-line diff is about 15 MiB.
const DiffLimit = 256 << 20

// Load opens the packet at path (a directory or an archive) and understands
// it. It returns an error wrapping source.ErrNotAPacket only when path cannot
// be read as a packet at all; everything else it could not use is a problem
// in the result.
func Load(p string, opts Options) (*Packet, error) {
	src, err := source.Open(p)
	if err != nil {
		return nil, err
	}
	pk := Analyze(src, opts)
	if !pk.looksLikePacket() {
		src.Close()
		return nil, fmt.Errorf("%s: %w: no plan.md, change.md, change.diff, change-validation.md, review.md or validation/registry.jsonl in it", p, source.ErrNotAPacket)
	}
	return pk, nil
}

// OpenLogPreview opens one log of a packet folder and reads nothing else, so
// the workbench can draw that log before the packet is loaded (vetter --open
// validation/logs/x.log:40 DIR); Load with Options.Reuse takes the log over,
// index and all.
func OpenLogPreview(dir, name string) (*Packet, error) {
	p, err := openPreview(dir)
	if err != nil {
		return nil, err
	}
	l, err := OpenLog(p.Src, name)
	if err != nil {
		p.Close()
		return nil, err
	}
	p.Logs = []*Log{l}
	return p, nil
}

// OpenFindingsPreview reads review.md's assessment and findings table and
// the triage, and nothing else, so the workbench can draw a finding before
// the packet is loaded (vetter --open review.md#12 DIR). The citations are
// found but not resolved: the diff and logs they lead to are not read yet.
func OpenFindingsPreview(dir string) (*Packet, error) {
	p, err := openPreview(dir)
	if err != nil {
		return nil, err
	}
	data, truncated, err := source.ReadCapped(p.FS, ReviewFile, DocLimit)
	if err != nil {
		p.Close()
		return nil, err
	}
	d := parseStructure(ReviewFile, data)
	d.Truncated = truncated
	p.Docs = []*Document{d}
	p.Assessment, _ = ParseAssessment(d)
	p.Findings, _ = ParseFindings(d)
	p.readIdentity()
	p.shippedDecisions()
	return p, nil
}

// OpenPreview reads everything of a packet folder but change.diff and the
// citations (found, resolved and anchored in the diff): the documents, the
// findings, the registry, the logs (indexed as opts says), the evidence and
// the triage it ships. On a big packet the diff and the citations are most
// of the reading, and the workbench's first screen (the verdict, the
// evidence, the gate, how many findings are open) shows none of them, so
// the workbench draws this first and loads the packet behind it (Load with
// Options.Reuse takes its logs over); keys wait for that. It is Partial
// with DiffPending set: the gate says the diff is not read yet rather than
// what it would find there.
func OpenPreview(dir string, opts Options) (*Packet, error) {
	p, err := openPreview(dir)
	if err != nil {
		return nil, err
	}
	p.DiffPending = true
	p.readDocuments(false)
	p.readRest(opts)
	p.scanText(newTextScan())
	p.shippedDecisions()
	return p, nil
}

// openPreview opens a packet folder for a preview: a folder only (an archive
// must be read whole to find anything in it), holding at least one of the
// packet's files.
func openPreview(dir string) (*Packet, error) {
	src, err := source.Open(dir)
	if err != nil {
		return nil, err
	}
	if src.Kind != source.KindDir {
		src.Close()
		return nil, fmt.Errorf("%s: a preview needs a folder, not a %s", dir, src.Kind)
	}
	for _, n := range []string{PlanFile, ChangeFile, DiffPath, ValidationFile, ReviewFile, RegistryFile} {
		if _, err := fs.Stat(src.FS, n); err == nil {
			return &Packet{Path: src.Path, Source: src.Kind, FS: src.FS, Src: src, Partial: true}, nil
		}
	}
	src.Close()
	return nil, fmt.Errorf("%s: %w", dir, source.ErrNotAPacket)
}

// looksLikePacket reports whether anything of a packet was found.
// Any other markdown does not count: a repository root with a README is not
// a packet.
func (p *Packet) looksLikePacket() bool {
	for _, n := range []string{PlanFile, ChangeFile, ValidationFile, ReviewFile} {
		if p.Doc(n) != nil {
			return true
		}
	}
	return p.Diff != nil || p.Registry.Present || len(p.Logs) > 0
}

// Analyze reads and understands everything in an opened source.
func Analyze(src *source.Source, opts Options) *Packet {
	p := &Packet{Path: src.Path, Source: src.Kind, FS: src.FS, Src: src, attention: &attentionScan{}}
	p.Problems = append(p.Problems, sourceProblems(src.Problems)...)
	// The diff is read, parsed and scanned on another core while the
	// documents and findings are: on a big packet each takes tens of
	// milliseconds, and the first screen waits for both.
	diffc := make(chan diffRead, 1)
	go func() { diffc <- readDiff(p.FS) }()
	p.readDocuments(true)
	dr := <-diffc
	p.Diff = dr.diff
	p.Problems = append(p.Problems, dr.problems...)
	p.readRest(opts)
	p.Reresolve()
	p.scanText(dr.scan)
	p.shippedDecisions()
	return p
}

// readRest reads what follows the documents and the diff: the registry,
// the logs, the origin, and the evidence made of the plan and the runs.
func (p *Packet) readRest(opts Options) {
	p.readRegistry()
	p.readLogs(opts)
	p.readOrigin(opts.OriginRoot)
	p.Evidence = BuildEvidence(p.Plan.Recipes, p.Registry.Runs)
	p.auditEvidence()
}

// Close releases the files the packet holds open (logs, archives).
func (p *Packet) Close() error {
	for _, l := range p.Logs {
		l.Close()
	}
	if p.Src != nil {
		return p.Src.Close()
	}
	return nil
}

// AllCitations returns every citation of the documents and the findings.
func (p *Packet) AllCitations() []*Citation {
	var out []*Citation
	for _, d := range p.Docs {
		for i := range d.Citations {
			out = append(out, &d.Citations[i])
		}
	}
	for _, f := range p.Findings {
		for i := range f.Citations {
			out = append(out, &f.Citations[i])
		}
	}
	return out
}

// Reresolve resolves every citation again (after logs finish indexing) and
// rebuilds the citation problems.
func (p *Packet) Reresolve() {
	kept := p.Problems[:0]
	for _, pr := range p.Problems {
		if pr.Code != CodeCitationUnresolved && pr.Code != CodeCitationDrift {
			kept = append(kept, pr)
		}
	}
	p.Problems = kept
	seen := map[string]bool{}
	ix := newDiffIndex(p.Diff)
	for _, c := range p.AllCitations() {
		p.resolve(c, ix)
		if c.Kind == CiteUnresolved {
			key := c.SourceFile + "\x00" + fmt.Sprint(c.SourceLine) + "\x00" + c.Text
			if seen[key] {
				continue
			}
			seen[key] = true
			p.Problems = append(p.Problems, NewProblem(CodeCitationUnresolved, c.SourceFile, c.SourceLine,
				fmt.Sprintf("%s cites %s, which is not in the packet: %s", c.SourceFile, c.Text, c.Note)))
		}
	}
	p.anchorFindings()
}

// documentOrder ranks the known documents first, in reading order.
var documentOrder = map[string]int{PlanFile: 0, ChangeFile: 1, ValidationFile: 2, ReviewFile: 3}

// readDocuments reads the documents and what the plan, verdict,
// assessment and findings say; with cite, their citations too (a preview
// that shows none leaves them to the load behind it).
func (p *Packet) readDocuments(cite bool) {
	var names []string
	for _, n := range []string{PlanFile, ChangeFile, ValidationFile, ReviewFile} {
		if _, err := fs.Stat(p.FS, n); err == nil {
			names = append(names, n)
		} else if errors.Is(err, fs.ErrNotExist) {
			p.problem(CodeMissingFile, n, 0, fmt.Sprintf("%s is missing from the packet", n))
		} else {
			p.problem(CodeUnreadableFile, n, 0, fmt.Sprintf("reading %s: %v", n, err))
		}
	}
	if entries, err := fs.ReadDir(p.FS, "."); err == nil {
		var others []string
		for _, e := range entries {
			n := e.Name()
			if _, known := documentOrder[n]; known || e.IsDir() || !strings.EqualFold(path.Ext(n), ".md") {
				continue
			}
			others = append(others, n)
		}
		sort.Strings(others)
		names = append(names, others...)
	}
	// Each document's citations are extracted on another core while the
	// plan, verdict, assessment and findings are parsed from its lines and
	// headings: on a big review.md each takes tens of milliseconds. Its
	// problems keep their place: after the document's own, before what
	// the parsers report.
	type read struct {
		d        *Document
		problems []Problem // the reading's, before the citations'
	}
	var docs []read
	for _, n := range names {
		before := len(p.Problems)
		d := p.readDocument(n)
		docs = append(docs, read{d, append([]Problem(nil), p.Problems[before:]...)})
		p.Problems = p.Problems[:before]
		if d != nil {
			p.Docs = append(p.Docs, d)
		}
	}
	cited := make(chan struct{})
	if cite {
		go func() {
			defer close(cited)
			for _, r := range docs {
				if r.d != nil {
					r.d.Citations = r.d.extractCitations()
				}
			}
		}()
	} else {
		close(cited)
	}
	parsed := p.parseDocuments(cite)
	<-cited
	for _, r := range docs {
		p.Problems = append(p.Problems, r.problems...)
		if d := r.d; d != nil && d.CitationsCutAt > 0 {
			p.problem(CodeTooManyCitations, d.Path, d.CitationsCutAt, fmt.Sprintf(
				"%s cites more than %s places; citations from line %d on are not read or checked", d.Path, text.Thousands(MaxCitationsPerDocument), d.CitationsCutAt))
		}
	}
	p.Problems = append(p.Problems, parsed...)
}

// readDocument reads one document's lines and headings, or nil when it
// cannot be read, and reports what it cut or could not read.
func (p *Packet) readDocument(n string) *Document {
	data, truncated, more, cuts, err := source.ReadCappedLines(p.FS, n, DocLimit, MaxLineBytes, MaxDocumentLines)
	if errors.Is(err, source.ErrOutsidePacket) {
		p.problem(CodeLogOutsidePacket, n, 0, fmt.Sprintf("%s leads outside the packet (a link); it is not read", n))
		return nil
	}
	if err != nil {
		p.problem(CodeUnreadableFile, n, 0, err.Error())
		return nil
	}
	if truncated {
		p.problem(CodeFileTooLarge, n, 0, fmt.Sprintf("%s is larger than %d MiB; only the first %d MiB are shown", n, DocLimit>>20, DocLimit>>20))
	}
	d := parseStructure(n, data)
	d.Truncated, d.CutLines = truncated || more, cuts
	if more {
		p.problem(CodeTooManyLines, n, MaxDocumentLines, fmt.Sprintf(
			"%s has more than %s lines; a person cannot read that much to review one change, so vetter reads the first %s and not the rest",
			n, text.Thousands(MaxDocumentLines), text.Thousands(MaxDocumentLines)))
	}
	if pr, ok := cutLinesProblem(n, cuts); ok {
		p.Problems = append(p.Problems, pr)
	}
	return d
}

// parseDocuments reads the plan, the change, the verdict, the assessment and
// the findings from the documents' lines and headings (not their
// citations, which readDocuments extracts beside it) and returns what they
// report.
func (p *Packet) parseDocuments(cite bool) []Problem {
	var out []Problem
	problem := func(code, file string, line int, msg string) {
		out = append(out, NewProblem(code, file, line, msg))
	}
	if d := p.Doc(PlanFile); d != nil {
		var probs []Problem
		p.Plan, probs = ParsePlan(d)
		out = append(out, probs...)
	}
	if d := p.Doc(ChangeFile); d != nil {
		var probs []Problem
		p.Change, probs = ParseChange(d)
		out = append(out, probs...)
	}
	if d := p.Doc(ValidationFile); d != nil {
		var probs []Problem
		p.Verdict, p.Outcome, probs = ParseVerdict(d)
		out = append(out, probs...)
	} else {
		problem(CodeVerdictMissing, ValidationFile, 0, "there is no verdict: change-validation.md is missing")
	}
	if d := p.Doc(ReviewFile); d != nil {
		var probs []Problem
		p.Assessment, probs = ParseAssessment(d)
		out = append(out, probs...)
		p.Findings, probs = parseFindings(d, cite)
		out = append(out, probs...)
	} else {
		problem(CodeAssessmentMissing, ReviewFile, 0, "there is no assessment: review.md is missing")
	}
	return out
}

// diffRead is change.diff read, parsed and scanned for hidden text.
type diffRead struct {
	diff     *Diff
	problems []Problem
	scan     *textScan
}

// readDiff touches nothing but fsys, so it can run beside readDocuments.
func readDiff(fsys fs.FS) (r diffRead) {
	r.scan = newTextScan()
	data, truncated, _, cuts, err := source.ReadCappedLines(fsys, DiffPath, DiffLimit, MaxLineBytes, 0)
	if errors.Is(err, fs.ErrNotExist) {
		r.problems = append(r.problems, NewProblem(CodeMissingFile, DiffPath, 0, "change.diff is missing from the packet"))
		return r
	}
	if err != nil {
		r.problems = append(r.problems, NewProblem(CodeUnreadableFile, DiffPath, 0, fmt.Sprintf("reading change.diff: %v", err)))
		return r
	}
	if truncated {
		r.problems = append(r.problems, NewProblem(CodeFileTooLarge, DiffPath, 0, fmt.Sprintf("change.diff is larger than %d MiB; the rest is not shown", DiffLimit>>20)))
	}
	if pr, ok := cutLinesProblem(DiffPath, cuts); ok {
		r.problems = append(r.problems, pr)
	}
	var probs []Problem
	r.diff, probs = ParseDiff(data)
	r.problems = append(r.problems, probs...)
	r.scan.scanDiff(r.diff)
	return r
}

func (p *Packet) readRegistry() {
	data, truncated, err := source.ReadCapped(p.FS, RegistryFile, DocLimit)
	if errors.Is(err, fs.ErrNotExist) {
		p.problem(CodeMissingFile, RegistryFile, 0, "validation/registry.jsonl is missing: no validation run is recorded")
		return
	}
	if err != nil {
		p.problem(CodeUnreadableFile, RegistryFile, 0, fmt.Sprintf("reading validation/registry.jsonl: %v", err))
		return
	}
	if truncated {
		p.problem(CodeFileTooLarge, RegistryFile, 0, fmt.Sprintf("validation/registry.jsonl is larger than %d MiB; later runs are not read", DocLimit>>20))
	}
	var probs []Problem
	p.Registry, probs = ParseRegistry(data)
	p.Problems = append(p.Problems, probs...)
}

// readLogs opens every log under validation/logs and every log the registry
// names, and checks each registry run against its log.
func (p *Packet) readLogs(opts Options) {
	open := map[string]*Log{}
	openLog := func(name string) (*Log, error) {
		if l, ok := open[name]; ok {
			return l, nil
		}
		l := opts.Reuse[name]
		if l == nil {
			var err error
			if l, err = OpenLog(p.Src, name); err != nil {
				return nil, err
			}
		}
		open[name] = l
		p.Logs = append(p.Logs, l)
		// Where opening cut the log (a compressed entry over its cap).
		p.Problems = append(p.Problems, l.Problems...)
		return l, nil
	}
	_ = fs.WalkDir(p.FS, LogsDir, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if _, err := openLog(name); err != nil {
			if errors.Is(err, source.ErrOutsidePacket) {
				p.problem(CodeLogOutsidePacket, name, 0, fmt.Sprintf("%s points outside the packet and is not read", name))
			} else {
				p.problem(CodeUnreadableFile, name, 0, fmt.Sprintf("reading %s: %v", name, err))
			}
		}
		return nil
	})
	reported := map[string]bool{}
	for _, run := range p.Registry.Runs {
		if run.Log == "" {
			continue
		}
		name := cleanPacketPath(run.Log)
		l, err := openLog(name)
		if err != nil {
			if reported[run.Log] {
				continue
			}
			reported[run.Log] = true
			switch {
			case errors.Is(err, source.ErrOutsidePacket):
				p.problem(CodeLogOutsidePacket, RegistryFile, run.Line,
					fmt.Sprintf("run %d (%s) names log %q, which lies outside the packet; it is not read", run.Seq, run.Recipe, text.Clip(run.Log, 120)))
			case errors.Is(err, fs.ErrNotExist):
				p.problem(CodeLogMissing, RegistryFile, run.Line,
					fmt.Sprintf("run %d (%s) names log %s, which is not in the packet", run.Seq, run.Recipe, text.Clip(run.Log, 120)))
			default:
				p.problem(CodeUnreadableFile, RegistryFile, run.Line, fmt.Sprintf("reading %s: %v", text.Clip(run.Log, 120), err))
			}
			continue
		}
		run.Log = l.Path
		if l.Size == 0 {
			if !reported[l.Path] {
				reported[l.Path] = true
				p.problem(CodeLogEmpty, l.Path, 0, fmt.Sprintf("%s is empty, yet run %d (%s) cites it", l.Path, run.Seq, run.Recipe))
			}
			continue
		}
		p.checkExit(run, l)
	}
	for _, l := range p.Logs {
		if !opts.DeferLogIndex || (opts.DeferAbove > 0 && l.Size <= opts.DeferAbove) {
			if err := l.Index(context.Background(), nil); err != nil {
				p.problem(CodeUnreadableFile, l.Path, 0, fmt.Sprintf("indexing %s: %v", l.Path, err))
			}
		}
	}
}

// checkExit compares a run with its log's closing "[exit N ...]" line.
func (p *Packet) checkExit(run *Run, l *Log) {
	if l.Exit == nil {
		return
	}
	code := l.Exit.Code
	switch {
	case run.ExitCode != nil && *run.ExitCode != code:
		p.problem(CodeLogExitMismatch, RegistryFile, run.Line,
			fmt.Sprintf("run %d (%s) records exit %d but its log %s ends with exit %d", run.Seq, run.Recipe, *run.ExitCode, l.Path, code))
	case run.Status == StatusValidated && code != 0:
		p.problem(CodeLogExitMismatch, RegistryFile, run.Line,
			fmt.Sprintf("run %d (%s) is marked validated but its log %s ends with exit %d", run.Seq, run.Recipe, l.Path, code))
	case run.Status == StatusFailing && code == 0:
		p.problem(CodeLogExitMismatch, RegistryFile, run.Line,
			fmt.Sprintf("run %d (%s) is marked failing but its log %s ends with exit 0", run.Seq, run.Recipe, l.Path))
	}
}

func (p *Packet) auditEvidence() {
	failingOrMissing := []string{}
	for _, row := range p.Evidence.Rows {
		switch row.Status {
		case StatusMissing:
			p.problem(CodeRecipeMissing, PlanFile, p.Plan.RecipesLine,
				fmt.Sprintf("the plan asks for recipe %s but the registry has no run of it", row.Recipe))
			failingOrMissing = append(failingOrMissing, row.Recipe+" (missing)")
		case StatusFailing:
			line := 0
			if row.Latest != nil {
				line = row.Latest.Line
			}
			p.problem(CodeRecipeFailing, RegistryFile, line,
				fmt.Sprintf("recipe %s is failing in its latest run and is not dispositioned", row.Recipe))
			if row.Planned {
				failingOrMissing = append(failingOrMissing, row.Recipe+" (failing)")
			}
		}
	}
	if p.Verdict.Value == "pass" && len(failingOrMissing) > 0 {
		p.problem(CodePassWithFailing, ValidationFile, p.Verdict.Line,
			fmt.Sprintf("the verdict is pass while planned recipes are not validated: %s", strings.Join(failingOrMissing, ", ")))
	}
}

func (p *Packet) problem(code, file string, line int, msg string) {
	p.Problems = append(p.Problems, NewProblem(code, file, line, msg))
}

// cleanPacketPath turns a path as written into a packet-relative one
// ("./validation/logs/x.log" → "validation/logs/x.log"); it leaves ".." and
// absolute paths for OpenLog to refuse.
func cleanPacketPath(s string) string {
	s = strings.TrimSpace(s)
	for strings.HasPrefix(s, "./") {
		s = s[2:]
	}
	return s
}

// SortProblems orders problems by file, line, then severity.
func SortProblems(ps []Problem) {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].File != ps[j].File {
			return ps[i].File < ps[j].File
		}
		return ps[i].Line < ps[j].Line
	})
}

// Counts returns how many problems there are of each severity.
func (p *Packet) Counts() (errs, warns, infos int) {
	for _, pr := range p.Problems {
		switch pr.Severity {
		case SevError:
			errs++
		case SevWarning:
			warns++
		default:
			infos++
		}
	}
	return
}

// readIdentity reads what names a preview's work item — plan.md's id and
// change.md's head and pull request — so its triage is the work item's
// (OpenStore) before the rest of the packet is read.
func (p *Packet) readIdentity() {
	for _, n := range []string{PlanFile, ChangeFile} {
		data, _, err := source.ReadCapped(p.FS, n, DocLimit)
		if err != nil {
			continue
		}
		d := ParseDocument(n, data)
		if n == PlanFile {
			p.Plan, _ = ParsePlan(d)
		} else {
			p.Change, _ = ParseChange(d)
		}
	}
}
