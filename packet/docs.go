package packet

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// This file understands the packet's markdown documents: lines, headings and
// citations of any document, and what plan.md, change.md,
// change-validation.md and review.md declare (PACKET.md).

// Problem codes this file adds (PACKET.md: "New codes may be added"). They are
// warnings: SeverityOf gives unknown codes that severity.
const (
	CodePlanTitleAbsent    = "plan-title-missing"    // plan.md has no "# " title
	CodePlanRecipesAbsent  = "plan-recipes-missing"  // plan.md names no validation recipes
	CodeChangeCommitAbsent = "change-commit-missing" // change.md states no head SHA
	CodeAssessmentConflict = "assessment-conflict"   // two assessment headings disagree
)

// ParseDocument splits a markdown file into lines and finds its headings and
// citations. Fenced code is skipped for both: a "# comment" in a shell block
// is not a heading, and code is not prose that cites. Truncated is left for
// the loader, which knows the size cap.
func ParseDocument(path string, data []byte) *Document {
	d := parseStructure(path, data)
	d.Citations = d.extractCitations()
	return d
}

// parseStructure reads a document's lines and headings, which is what the
// parsers of the plan, verdict, assessment and findings need; its
// citations, most of the time a long document takes, are left for later.
func parseStructure(path string, data []byte) *Document {
	d := &Document{Path: path, Text: string(data)}
	d.Lines = SplitLines(d.Text)
	inFence := fenceMask(d.Lines)
	setext := false
	for i, line := range d.Lines {
		if inFence[i] {
			continue
		}
		if h, ok := atxHeading(line); ok {
			h.Line = i + 1
			d.Headings = append(d.Headings, h)
			continue
		}
		setext = setext || (i > 0 && setextUnderline(line) && strings.TrimSpace(d.Lines[i-1]) != "")
	}
	if setext {
		d.Headings = mergeHeadings(d.Headings, setextHeadings(d.Text, d.Lines, inFence))
	}
	return d
}

// setextUnderline reports whether line could underline a setext heading:
// up to three spaces, a run of = or of -, trailing blanks. Whether it does
// (rather than being a thematic break, or part of a list) is the parser's
// question; this is the cheap filter that keeps it from running on the
// documents that have none.
func setextUnderline(line string) bool {
	s := strings.TrimRight(line, " \t")
	for k := 0; k < 3 && strings.HasPrefix(s, " "); k++ {
		s = s[1:]
	}
	return s != "" && (strings.Trim(s, "=") == "" || strings.Trim(s, "-") == "")
}

// headingParser reads a document's block structure only: headings are
// blocks, and inline parsing (emphasis, links, code spans) of every
// paragraph is most of what a full parse costs on a long document.
var headingParser = parser.NewParser(
	parser.WithBlockParsers(parser.DefaultBlockParsers()...),
	parser.WithInlineParsers(),
)

// setextHeadings finds the setext headings (a paragraph underlined with ===
// or ---) with goldmark's block parser, as CommonMark defines them: which
// "---" underlines a heading and which is a thematic break, a list item or
// part of a block quote depends on the blocks around it, so it takes a
// parser. ATX headings are left to the line scan (atxHeading), which finds
// them as before, at a tenth of the cost of the parse on a long review
// (BenchmarkParseStructure20000); the parser runs only when a line could
// underline a heading. A setext heading is at the line of its first text
// line, as an editor shows it; one on a line scanFences marks as fenced
// code is dropped, as an ATX one is.
func setextHeadings(doc string, lines []string, inFence []bool) []Heading {
	src := []byte(strings.TrimPrefix(doc, "\ufeff"))
	// starts[i] is the byte offset of line i+1 in src.
	starts := make([]int, 1, len(lines))
	for i, b := range src {
		if b == '\n' && i+1 < len(src) {
			starts = append(starts, i+1)
		}
	}
	var out []Heading
	root := headingParser.Parse(text.NewReader(src))
	ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		h, ok := n.(*ast.Heading)
		if !ok {
			if n.Type() == ast.TypeBlock || n.Type() == ast.TypeDocument {
				return ast.WalkContinue, nil
			}
			return ast.WalkSkipChildren, nil
		}
		segs := h.Lines()
		if segs.Len() == 0 {
			return ast.WalkSkipChildren, nil
		}
		line := sort.SearchInts(starts, segs.At(0).Start+1)
		if line < 1 || line > len(lines) || inFence[line-1] {
			return ast.WalkSkipChildren, nil
		}
		if _, atx := atxHeading(lines[line-1]); atx {
			return ast.WalkSkipChildren, nil
		}
		// A table directly followed by "---" is a table and a rule in GFM,
		// not a heading of the table's rows, which CommonMark alone makes it.
		for k := line - 1; k+1 < len(lines) && k+1 < line-1+segs.Len(); k++ {
			if _, table := tableStart(lines[k], lines[k+1]); table {
				return ast.WalkSkipChildren, nil
			}
		}
		var b strings.Builder
		for i := 0; i < segs.Len(); i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			seg := segs.At(i)
			b.WriteString(strings.TrimSpace(string(seg.Value(src))))
		}
		out = append(out, Heading{Level: h.Level, Text: strings.TrimSpace(b.String()), Line: line})
		return ast.WalkSkipChildren, nil
	})
	return out
}

// mergeHeadings merges two lists of headings in line order; a line both
// name keeps the first list's heading.
func mergeHeadings(a, b []Heading) []Heading {
	out := make([]Heading, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0 || (len(a) > 0 && a[0].Line <= b[0].Line):
			if len(b) > 0 && b[0].Line == a[0].Line {
				b = b[1:]
			}
			out = append(out, a[0])
			a = a[1:]
		default:
			out = append(out, b[0])
			b = b[1:]
		}
	}
	return out
}

// extractCitations finds the citations of every line outside code fences.
// Past MaxCitationsPerDocument it stops and counts the lines left unread
// in CitationsCutAt.
func (d *Document) extractCitations() []Citation {
	var out []Citation
	inFence := fenceMask(d.Lines)
	for i, line := range d.Lines {
		if len(out) >= MaxCitationsPerDocument {
			d.CitationsCutAt = i + 1
			break
		}
		if !inFence[i] && mayCite(line) {
			out = append(out, ExtractCitations(line, d.Path, i+1)...)
		}
	}
	return out
}

// splitLines splits on "\n" and drops a trailing "\r" from each line. A final
// newline ends the last line rather than starting an empty one, so a file of
// N lines has len(Lines) == N, as editors and "path:line" citations count.
// A leading byte-order mark is dropped so the first heading is still seen.
func SplitLines(text string) []string {
	text = strings.TrimPrefix(text, "\ufeff")
	if text == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// mayCite is a cheap filter: a citation needs a dot or a colon.
func mayCite(line string) bool {
	return strings.ContainsAny(line, ".:…")
}

// fence is one fenced code block; lines are 0-based indexes into Lines.
type fence struct {
	open, close int // close is -1 when the fence runs to the end of the file
	info        string
}

// scanFences finds the fenced code blocks. An unterminated fence runs to the
// end of the file, as CommonMark says. Unlike CommonMark, a fence may be
// indented by any amount: agents nest fences in list items, and treating
// those as indented code would expose their contents as headings.
func scanFences(lines []string) []fence {
	var out []fence
	for i := 0; i < len(lines); i++ {
		ch, n, info, ok := fenceOpen(lines[i])
		if !ok {
			continue
		}
		f := fence{open: i, close: -1, info: info}
		for j := i + 1; j < len(lines); j++ {
			if fenceCloses(lines[j], ch, n) {
				f.close = j
				break
			}
		}
		out = append(out, f)
		if f.close < 0 {
			break
		}
		i = f.close
	}
	return out
}

// fenceMask marks the lines that belong to fenced code, fences included.
func fenceMask(lines []string) []bool {
	mask := make([]bool, len(lines))
	for _, f := range scanFences(lines) {
		end := f.close
		if end < 0 {
			end = len(lines) - 1
		}
		for k := f.open; k <= end; k++ {
			mask[k] = true
		}
	}
	return mask
}

// fenceOpen recognises an opening fence: three or more backticks or tildes,
// then an info string (which may not hold a backtick for a backtick fence,
// so "```validation-recipes```" in prose is a code span, not a fence).
func fenceOpen(line string) (ch byte, n int, info string, ok bool) {
	s := strings.TrimLeft(line, " \t")
	if len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return 0, 0, "", false
	}
	ch = s[0]
	for n < len(s) && s[n] == ch {
		n++
	}
	if n < 3 {
		return 0, 0, "", false
	}
	info = strings.TrimSpace(s[n:])
	if ch == '`' && strings.ContainsRune(info, '`') {
		return 0, 0, "", false
	}
	return ch, n, info, true
}

// fenceCloses reports whether line closes a fence opened with n ch's.
func fenceCloses(line string, ch byte, n int) bool {
	s := strings.TrimSpace(line)
	if len(s) < n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] != ch {
			return false
		}
	}
	return true
}

// atxHeading parses "## Text ##" (CommonMark ATX: up to three spaces of
// indent, one to six #s, then a space or the end of the line).
func atxHeading(line string) (Heading, bool) {
	s := line
	for k := 0; k < 3 && strings.HasPrefix(s, " "); k++ {
		s = s[1:]
	}
	level := 0
	for level < len(s) && s[level] == '#' {
		level++
	}
	if level == 0 || level > 6 {
		return Heading{}, false
	}
	rest := s[level:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return Heading{}, false
	}
	text := strings.TrimSpace(rest)
	// An optional closing run of #s, preceded by a space, is not part of the text.
	if t := strings.TrimRight(text, "#"); t != text && (t == "" || strings.HasSuffix(t, " ") || strings.HasSuffix(t, "\t")) {
		text = strings.TrimSpace(t)
	}
	return Heading{Level: level, Text: text}, true
}

// ---- plan.md ---------------------------------------------------------------

var workItemID = regexp.MustCompile(`\b[A-Z][A-Z0-9]+-[0-9]+\b`)

// ParsePlan reads the title, work-item id, header lines and recipes of plan.md.
func ParsePlan(d *Document) (Plan, []Problem) {
	var p Plan
	if d == nil {
		return p, nil
	}
	var probs []Problem
	for _, h := range d.Headings {
		if h.Level == 1 {
			p.Title = h.Text
			p.ID = workItemID.FindString(h.Text)
			break
		}
	}
	if p.Title == "" {
		probs = append(probs, NewProblem(CodePlanTitleAbsent, d.Path, 0,
			fmt.Sprintf(`%s has no "# " title, so the work item has no name or id`, d.Path)))
	}

	// Header lines sit near the top: before the first section heading.
	end := len(d.Lines)
	for _, h := range d.Headings {
		if h.Level >= 2 {
			end = h.Line - 1
			break
		}
	}
	fences := scanFences(d.Lines)
	inFence := fenceMask(d.Lines)
	p.Headers = map[string]string{}
	for i := 0; i < end; i++ {
		if inFence[i] {
			continue
		}
		k, v, ok := headerLine(d.Lines[i])
		if !ok {
			continue
		}
		if _, dup := p.Headers[k]; !dup {
			p.Headers[k] = v
		}
		switch strings.ToLower(k) {
		case "route":
			p.Route = firstNonEmpty(p.Route, v)
		case "template":
			p.Template = firstNonEmpty(p.Template, v)
		case "engine":
			p.Engine = firstNonEmpty(p.Engine, v)
		}
	}

	for _, f := range fences {
		first, _, _ := strings.Cut(f.info, " ")
		if !strings.EqualFold(first, "validation-recipes") {
			continue
		}
		p.RecipesLine = f.open + 1
		end := f.close
		if end < 0 {
			end = len(d.Lines)
		}
		for _, l := range d.Lines[f.open+1 : end] {
			if id := recipeID(l); id != "" {
				p.Recipes = append(p.Recipes, id)
			}
		}
		break
	}
	switch {
	case p.RecipesLine == 0:
		probs = append(probs, NewProblem(CodePlanRecipesAbsent, d.Path, 0,
			fmt.Sprintf("%s has no ```validation-recipes block, so no recipe is planned", d.Path)))
	case len(p.Recipes) == 0:
		probs = append(probs, NewProblem(CodePlanRecipesAbsent, d.Path, p.RecipesLine,
			fmt.Sprintf("the validation-recipes block of %s names no recipe", d.Path)))
	}
	return p, probs
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// headerLine parses "Key: value", also written "**Key:** value" or
// "**Key**: value". A key is at most four words, so a sentence with a colon
// is not taken for a header.
func headerLine(line string) (key, value string, ok bool) {
	s := strings.TrimSpace(line)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "**"), "__")
	k, v, found := strings.Cut(s, ":")
	if !found {
		return "", "", false
	}
	k = strings.TrimRight(k, "*_")
	v = strings.TrimSpace(strings.TrimLeft(v, "*_"))
	if k == "" || v == "" || strings.HasPrefix(v, "//") || len(k) > 40 || len(strings.Fields(k)) > 4 || k != strings.TrimSpace(k) {
		return "", "", false
	}
	r, _ := utf8.DecodeRuneInString(k)
	if !unicode.IsLetter(r) {
		return "", "", false
	}
	for _, c := range k {
		if !(unicode.IsLetter(c) || unicode.IsDigit(c) || c == ' ' || c == '-' || c == '_') {
			return "", "", false
		}
	}
	return k, v, true
}

// recipeID reads one line of the validation-recipes block: blank lines and
// "#" comments are skipped, a list marker or backticks around the id are
// tolerated, and anything after the id (a trailing comment) is ignored.
func recipeID(line string) string {
	s := strings.TrimSpace(line)
	if s == "" || strings.HasPrefix(s, "#") {
		return ""
	}
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(s, "- "), "* "))
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return ""
	}
	return strings.Trim(fields[0], "`")
}

// ---- change.md -------------------------------------------------------------

var (
	branchWord = regexp.MustCompile("(?i)\\bbranch\\b[^`]*?`([^`\\s]+)`")
	baseSHA    = regexp.MustCompile("(?i)branched\\s+from\\s+\\**`[^`]+`\\**\\s+at\\s+\\**`?([0-9a-f]{7,40})\\b")
	boldSHA    = regexp.MustCompile("(?i)\\*\\*`([0-9a-f]{7,40})`\\*\\*")
	prURL      = regexp.MustCompile(`(?i)\b(?:MR|PR)\s+URL\**\s*:\**\s*(\S.*)`)
)

// ParseChange reads the branch, base and head SHAs and the pull-request URL
// from change.md. The commit facts come from the "## Commit" section; when
// there is none the whole document is searched, since the facts still matter.
func ParseChange(d *Document) (Change, []Problem) {
	var c Change
	if d == nil {
		return c, nil
	}
	from, to := commitSection(d)
	inFence := fenceMask(d.Lines)
	// Joining the prose lines lets "branched from `main` at\n`<sha>`" match.
	var b strings.Builder
	starts := make([]int, 0, to-from) // byte offset in b of each joined line
	lineOf := make([]int, 0, to-from)
	for i := from; i < to; i++ {
		if inFence[i] {
			continue
		}
		starts = append(starts, b.Len())
		lineOf = append(lineOf, i+1)
		b.WriteString(d.Lines[i])
		b.WriteByte('\n')
	}
	text := b.String()

	if m := branchWord.FindStringSubmatch(text); m != nil {
		c.Branch = m[1]
	}
	if m := baseSHA.FindStringSubmatch(text); m != nil {
		c.BaseSHA = strings.ToLower(m[1])
	}
	// The head is the bold backticked SHA; a full one wins over an abbreviation.
	var short []int
	for _, m := range boldSHA.FindAllStringSubmatchIndex(text, -1) {
		sha := strings.ToLower(text[m[2]:m[3]])
		if sha == c.BaseSHA {
			continue
		}
		if len(sha) == 40 {
			c.HeadSHA, c.HeadLine = sha, lineAt(starts, lineOf, m[2])
			break
		}
		if short == nil {
			short = m
		}
	}
	if c.HeadSHA == "" && short != nil {
		c.HeadSHA, c.HeadLine = strings.ToLower(text[short[2]:short[3]]), lineAt(starts, lineOf, short[2])
	}

	for i, l := range d.Lines {
		if inFence[i] {
			continue
		}
		if m := prURL.FindStringSubmatch(l); m != nil {
			if u := cleanURL(m[1]); u != "" {
				c.URL = u
				break
			}
		}
	}

	var probs []Problem
	if c.HeadSHA == "" {
		where := `its "## Commit" section`
		if from == 0 && to == len(d.Lines) {
			where = `it (there is no "## Commit" section)`
		}
		probs = append(probs, NewProblem(CodeChangeCommitAbsent, d.Path, 0,
			fmt.Sprintf("%s names no head commit: no bold backticked SHA (**`<sha>`**) in %s", d.Path, where)))
	}
	return c, probs
}

// commitSection returns the 0-based line range of the "## Commit" section,
// or the whole document when there is none.
func commitSection(d *Document) (from, to int) {
	for k, h := range d.Headings {
		if h.Level < 2 || !strings.HasPrefix(strings.ToLower(strings.TrimSpace(stripMarkup(h.Text))), "commit") {
			continue
		}
		from, to = h.Line, len(d.Lines)
		for _, next := range d.Headings[k+1:] {
			if next.Level <= h.Level {
				to = next.Line - 1
				break
			}
		}
		return from, to
	}
	return 0, len(d.Lines)
}

// lineAt maps a byte offset in the joined section text to its 1-based line.
func lineAt(starts, lineOf []int, off int) int {
	lo, hi := 0, len(starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if len(lineOf) == 0 {
		return 0
	}
	return lineOf[lo]
}

// cleanURL takes the URL out of the rest of a "MR URL:" line: "<url>",
// "[text](url)", "`url`" or a bare url, without trailing punctuation.
// Anything that is not http(s) is not a URL.
func cleanURL(s string) string {
	if k := strings.Index(s, "]("); k >= 0 {
		s = s[k+2:]
		if e := strings.IndexByte(s, ')'); e >= 0 {
			s = s[:e]
		}
	}
	if f := strings.Fields(s); len(f) > 0 {
		s = f[0]
	}
	s = strings.Trim(s, "<>`*_")
	s = strings.TrimRight(s, ".,;:)]>*_`")
	l := strings.ToLower(s)
	if !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") {
		return ""
	}
	return s
}

// ---- change-validation.md --------------------------------------------------

// ParseVerdict finds the verdict: the last heading (level two or deeper)
// "Verdict: <word>[ — <summary>]" whose word is pass, fail or blocked. It
// also returns the "Investigation outcome" heading, the last one, or nil.
func ParseVerdict(d *Document) (Verdict, *Heading, []Problem) {
	var v Verdict
	if d == nil {
		return v, nil, nil
	}
	v.File = d.Path
	var (
		probs   []Problem
		valid   []Verdict
		last    *Verdict // the last verdict-like heading, valid or not
		lastRaw string
		outcome *Heading
	)
	for i := range d.Headings {
		h := d.Headings[i]
		if h.Level < 2 {
			continue
		}
		if labelled(h.Text, "investigation outcome") {
			hh := h // a copy, so the caller cannot edit the document through it
			outcome = &hh
			continue
		}
		rest, ok := labelValue(h.Text, "verdict", "final verdict")
		if !ok {
			continue
		}
		word, summary := splitWord(rest)
		cand := Verdict{Value: strings.ToLower(word), Summary: summary, File: d.Path, Line: h.Line}
		last, lastRaw = &cand, word
		switch cand.Value {
		case "pass", "fail", "blocked":
			valid = append(valid, cand)
		}
	}

	switch {
	case len(valid) == 0 && last == nil:
		probs = append(probs, NewProblem(CodeVerdictMissing, d.Path, 0,
			fmt.Sprintf(`%s has no "## Verdict: pass|fail|blocked" heading`, d.Path)))
	case len(valid) == 0:
		probs = append(probs, NewProblem(CodeVerdictMissing, d.Path, last.Line,
			fmt.Sprintf(`the verdict heading at line %d says %s; expected pass, fail or blocked`, last.Line, quoteWord(lastRaw))))
	default:
		v = valid[len(valid)-1]
		for _, o := range valid[:len(valid)-1] {
			if o.Value != v.Value {
				probs = append(probs, NewProblem(CodeVerdictConflict, d.Path, v.Line,
					fmt.Sprintf("verdict headings disagree: %q at line %d, %q at line %d; the last stands", o.Value, o.Line, v.Value, v.Line)))
				break
			}
		}
		if last.Line > v.Line {
			// A later heading that is not a verdict word must not let an
			// earlier pass stand silently.
			probs = append(probs, NewProblem(CodeVerdictConflict, d.Path, last.Line,
				fmt.Sprintf("the last verdict heading (line %d) says %s, which is not pass, fail or blocked; %q at line %d stands", last.Line, quoteWord(lastRaw), v.Value, v.Line)))
		}
	}
	if outcome == nil {
		probs = append(probs, NewProblem(CodeInvestigationAbsent, d.Path, 0,
			fmt.Sprintf(`%s has no "## Investigation outcome:" section`, d.Path)))
	}
	return v, outcome, probs
}

func quoteWord(w string) string {
	if w == "" {
		return "nothing"
	}
	return fmt.Sprintf("%q", w)
}

// stripMarkup removes emphasis and code marks, which agents put around labels
// and verdict words ("**Verdict:** `pass`").
func stripMarkup(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '*', '`':
			return -1
		}
		return r
	}, s)
}

// labelled reports whether heading text starts with label (case-insensitive)
// followed by the end, a colon, a dash or a space.
func labelled(text, label string) bool {
	t := strings.ToLower(strings.TrimSpace(stripMarkup(text)))
	if !strings.HasPrefix(t, label) {
		return false
	}
	rest := t[len(label):]
	return rest == "" || strings.ContainsAny(rest[:1], ": -—–\t")
}

// labelValue returns what follows "label:" (or "label —") in heading text.
// A heading that is only the label returns "" and true; "Verdict rationale"
// is not a verdict heading.
func labelValue(text string, labels ...string) (string, bool) {
	t := strings.TrimSpace(stripMarkup(text))
	t = strings.TrimLeftFunc(t, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, label := range labels {
		if len(t) < len(label) || !strings.EqualFold(t[:len(label)], label) {
			continue
		}
		rest := strings.TrimSpace(t[len(label):])
		if rest == "" {
			return "", true
		}
		for _, sep := range []string{":", "—", "–", "--", "-"} {
			if strings.HasPrefix(rest, sep) {
				return strings.TrimSpace(rest[len(sep):]), true
			}
		}
	}
	return "", false
}

// splitWord splits "pass — summary" into the word and the summary. Leading
// symbols (an emoji, markup) before the word are skipped; the summary is
// whatever follows the word, without a leading dash.
func splitWord(s string) (word, summary string) {
	s = strings.TrimLeftFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	k := 0
	for k < len(s) {
		c := s[k]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			break
		}
		k++
	}
	word = strings.TrimRight(s[:k], "-")
	rest := strings.TrimSpace(s[len(word):])
	for _, sep := range []string{"—", "–", "--", "-", ":", ","} {
		if strings.HasPrefix(rest, sep) {
			rest = strings.TrimSpace(rest[len(sep):])
			break
		}
	}
	return word, rest
}

// ---- review.md -------------------------------------------------------------

// ParseAssessment reads "## Assessment: sound|needs_changes". "needs changes"
// and "needs-changes" mean needs_changes; the last assessment heading stands.
func ParseAssessment(d *Document) (Assessment, []Problem) {
	var a Assessment
	if d == nil {
		return a, nil
	}
	a.File = d.Path
	var (
		valid []Assessment
		last  *Assessment
	)
	for _, h := range d.Headings {
		if h.Level < 2 {
			continue
		}
		rest, ok := labelValue(h.Text, "assessment")
		if !ok {
			continue
		}
		cand := assessmentWord(rest)
		cand.File, cand.Line = d.Path, h.Line
		last = &cand
		if cand.Value != "" {
			valid = append(valid, cand)
		}
	}
	var probs []Problem
	switch {
	case last == nil:
		probs = append(probs, NewProblem(CodeAssessmentMissing, d.Path, 0,
			fmt.Sprintf(`%s has no "## Assessment: sound|needs_changes" heading`, d.Path)))
	case len(valid) == 0:
		a = *last
		probs = append(probs, NewProblem(CodeAssessmentMissing, d.Path, last.Line,
			fmt.Sprintf("the assessment heading at line %d says %s; expected sound or needs_changes", last.Line, quoteWord(last.Raw))))
	default:
		a = valid[len(valid)-1]
		for _, o := range valid[:len(valid)-1] {
			if o.Value != a.Value {
				probs = append(probs, NewProblem(CodeAssessmentConflict, d.Path, a.Line,
					fmt.Sprintf("assessment headings disagree: %q at line %d, %q at line %d; the last stands", o.Value, o.Line, a.Value, a.Line)))
				break
			}
		}
		if last.Line > a.Line {
			probs = append(probs, NewProblem(CodeAssessmentConflict, d.Path, last.Line,
				fmt.Sprintf("the last assessment heading (line %d) says %s; %q at line %d stands", last.Line, quoteWord(last.Raw), a.Value, a.Line)))
		}
	}
	return a, probs
}

// assessmentWord reads the assessment word at the start of s.
func assessmentWord(s string) Assessment {
	s = strings.TrimLeftFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	l := strings.ToLower(s)
	for _, w := range []struct{ written, value string }{
		{"sound", "sound"}, {"needs_changes", "needs_changes"},
		{"needs-changes", "needs_changes"}, {"needs changes", "needs_changes"},
	} {
		if strings.HasPrefix(l, w.written) && wordEnds(l[len(w.written):]) {
			return Assessment{Value: w.value, Raw: s[:len(w.written)]}
		}
	}
	word, _ := splitWord(s)
	return Assessment{Raw: word}
}

// wordEnds reports whether rest starts where a word has ended.
func wordEnds(rest string) bool {
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
}
