package packet

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/vetter-dev/vetter/internal/text"
)

// This file reads review.md's findings table (PACKET.md, "review.md").
//
// The table is the first markdown table under a heading that contains the
// word "Findings" (not "Notes not rising to findings": a "no", "not" or
// "non" before the word rules the heading out) whose header names the five
// columns. Rows are split on unescaped pipes; unlike GFM, a pipe inside a
// backtick code span does not split a cell either, because agents write
// `a|b` in evidence and mean it literally.

// Column roles in a findings table.
const (
	colNumber = iota
	colLocation
	colSeverity
	colClaim
	colEvidence
	colCount
)

var colNames = [colCount]string{"#", "file:line", "severity", "claim", "evidence"}

// colAliases are the header words each column is recognised by, after
// markup and spaces are removed and the word is lower-cased.
var colAliases = map[string]int{
	"#": colNumber, "no": colNumber, "no.": colNumber, "num": colNumber, "number": colNumber, "id": colNumber,
	"file:line": colLocation, "file:lines": colLocation, "file:line(s)": colLocation, "location": colLocation,
	"path:line": colLocation, "file": colLocation, "path": colLocation, "where": colLocation,
	"severity": colSeverity, "sev": colSeverity,
	"claim": colClaim, "finding": colClaim, "issue": colClaim,
	"evidence": colEvidence,
}

// ParseFindings reads the findings table of review.md. A review without a
// findings table has no findings and that is not a problem; a table that
// does not name the five columns, a short row or a row whose "#" is not a
// number is findings-malformed; an unknown severity word is finding-severity.
func ParseFindings(d *Document) ([]*Finding, []Problem) { return parseFindings(d, true) }

// parseFindings is ParseFindings; without cite the findings' citations are
// not extracted (a preview that shows none: OpenPreview), which is most of
// the time a big table takes.
func parseFindings(d *Document, cite bool) ([]*Finding, []Problem) {
	if d == nil {
		return nil, nil
	}
	inFence := fenceMask(d.Lines)
	var (
		hIdx       int
		ctxLevel   int // level of the findings heading we are under; 0 when none
		ctxHeading Heading
		rejected   []Problem // tables under a findings heading that lack columns
	)
	isHeading := func(i int) bool { return hIdx < len(d.Headings) && d.Headings[hIdx].Line == i+1 }
	for i := 0; i < len(d.Lines); i++ {
		if isHeading(i) {
			h := d.Headings[hIdx]
			hIdx++
			switch {
			case isFindingsHeading(h.Text):
				ctxLevel, ctxHeading = h.Level, h
			case ctxLevel > 0 && h.Level <= ctxLevel:
				ctxLevel = 0
			}
			continue
		}
		if ctxLevel == 0 || inFence[i] || i+1 >= len(d.Lines) || inFence[i+1] {
			continue
		}
		header, ok := tableStart(d.Lines[i], d.Lines[i+1])
		if !ok {
			continue
		}
		// The table's rows run to a blank line, a heading, a fence or a
		// thematic break (GFM).
		end := i + 2
		for end < len(d.Lines) && !inFence[end] && strings.TrimSpace(d.Lines[end]) != "" && !thematicBreak(d.Lines[end]) {
			if hIdx < len(d.Headings) && d.Headings[hIdx].Line == end+1 {
				break
			}
			end++
		}
		cols, missing := mapColumns(header)
		if len(missing) > 0 {
			rejected = append(rejected, NewProblem(CodeFindingsMalformed, d.Path, i+1, fmt.Sprintf(
				"the table at line %d under %q (line %d) lacks the column(s) %s; a findings table names #, file:line, severity, claim and evidence",
				i+1, ctxHeading.Text, ctxHeading.Line, strings.Join(missing, ", "))))
			i = end - 1
			continue
		}
		return findingsRows(d, header, cols, i+2, end, cite)
	}
	if len(rejected) > 0 {
		return nil, rejected[:1]
	}
	if p, ok := unheadedFindings(d, inFence); ok {
		return nil, []Problem{p}
	}
	return nil, nil
}

// unheadedFindings finds, in a review with no findings table read, the first
// table whose header names the location, severity and claim columns and
// that is not under a heading that says it holds no findings ("Notes not
// rising to findings"), where such a table is deliberate.
func unheadedFindings(d *Document, inFence []bool) (Problem, bool) {
	hIdx := 0
	var under *Heading
	for i := 0; i+1 < len(d.Lines); i++ {
		for hIdx < len(d.Headings) && d.Headings[hIdx].Line <= i+1 {
			under = &d.Headings[hIdx]
			hIdx++
		}
		if inFence[i] || inFence[i+1] || (under != nil && under.Line == i+1) {
			continue
		}
		header, ok := tableStart(d.Lines[i], d.Lines[i+1])
		if !ok {
			continue
		}
		cols, _ := mapColumns(header)
		if cols[colLocation] < 0 || cols[colSeverity] < 0 || cols[colClaim] < 0 {
			continue
		}
		if under != nil && mentionsFindings(under.Text) {
			continue
		}
		where := "no heading is above it"
		if under != nil {
			where = fmt.Sprintf("it is under %q (line %d)", under.Text, under.Line)
		}
		return NewProblem(CodeFindingsUnheaded, d.Path, i+1, fmt.Sprintf(
			"the table at line %d names the columns of findings, but %s and no heading containing \"Findings\" holds it, so its rows are not read as findings",
			i+1, where)), true
	}
	return Problem{}, false
}

// mentionsFindings reports whether heading text has the word "findings" at
// all, negated or not.
func mentionsFindings(text string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if w == "findings" {
			return true
		}
	}
	return false
}

// thematicBreak reports whether line is a CommonMark thematic break: up to
// three spaces, then three or more -, * or _ (one kind), blanks between.
func thematicBreak(line string) bool {
	s := strings.TrimRight(line, " \t")
	for k := 0; k < 3 && strings.HasPrefix(s, " "); k++ {
		s = s[1:]
	}
	if s == "" || (s[0] != '-' && s[0] != '*' && s[0] != '_') {
		return false
	}
	n := 0
	for _, r := range s {
		switch {
		case r == rune(s[0]):
			n++
		case r != ' ' && r != '\t':
			return false
		}
	}
	return n >= 3
}

// isFindingsHeading reports whether heading text introduces the findings.
func isFindingsHeading(text string) bool {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	for i, w := range words {
		if w != "findings" {
			continue
		}
		for _, before := range words[:i] {
			if before == "no" || before == "not" || before == "non" {
				return false
			}
		}
		return true
	}
	return false
}

// tableStart reports whether line and next open a table (a header row and a
// delimiter row) and returns the header cells. The delimiter row may have a
// different number of cells than the header: agents miscount, and the header
// is what names the columns.
func tableStart(line, next string) ([]string, bool) {
	if !strings.Contains(line, "|") || !strings.Contains(next, "-") {
		return nil, false
	}
	delim := splitRow(next)
	if len(delim) == 0 || !strings.Contains(next, "|") && len(delim) < 2 {
		return nil, false
	}
	for _, c := range delim {
		c = strings.TrimSuffix(strings.TrimPrefix(c, ":"), ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return nil, false
		}
	}
	return splitRow(line), true
}

// mapColumns gives each required role its header index and lists the roles
// the header does not name.
func mapColumns(header []string) (cols [colCount]int, missing []string) {
	for r := range cols {
		cols[r] = -1
	}
	for i, h := range header {
		key := strings.ToLower(strings.Join(strings.Fields(stripMarkup(h)), ""))
		if r, ok := colAliases[key]; ok && cols[r] < 0 {
			cols[r] = i
		}
	}
	for r, i := range cols {
		if i < 0 {
			missing = append(missing, colNames[r])
		}
	}
	return cols, missing
}

// findingsRows reads the rows d.Lines[from:to] of a table whose columns are known.
func findingsRows(d *Document, header []string, cols [colCount]int, from, to int, cite bool) ([]*Finding, []Problem) {
	var (
		out   []*Finding
		probs []Problem
		seen  = map[int]int{} // number -> times seen
	)
	role := make([]int, len(header)) // column index -> role, or -1
	for i := range role {
		role[i] = -1
	}
	for r, i := range cols {
		role[i] = r
	}
	extraName := make([]string, len(header))
	used := map[string]bool{}
	for i, h := range header {
		name := strings.TrimSpace(h)
		if name == "" || used[name] {
			name = fmt.Sprintf("col %d", i+1)
		}
		used[name] = true
		extraName[i] = name
	}

	citesCut, citesFirst := 0, 0
	split := bothCores(d.Lines[from:max(from, min(to, from+MaxFindings))], splitRow)
	for i := from; i < to; i++ {
		line := i + 1
		if len(out) == MaxFindings {
			// The rows past the cap are counted, not parsed: a review no
			// person could triage must not cost the first screen.
			probs = append(probs, NewProblem(CodeTooManyFindings, d.Path, line, fmt.Sprintf(
				"the review has %s more findings rows after the first %s (from line %d); a person cannot triage that many, so vetter reads the first %s; the rest are not shown or triaged",
				text.Thousands(int64(to-i)), text.Thousands(MaxFindings), line, text.Thousands(MaxFindings))))
			break
		}
		var cells []string
		if k := i - from; k < len(split) {
			cells = split[k]
		} else {
			cells = splitRow(d.Lines[i]) // past rows that were skipped
		}
		if len(cells) < len(header) {
			probs = append(probs, NewProblem(CodeFindingsMalformed, d.Path, line,
				fmt.Sprintf("the findings row at line %d has %d cell(s); the header has %d, so the rest are empty", line, len(cells), len(header))))
		}
		cell := func(r int) (string, bool) {
			if cols[r] < len(cells) {
				return cells[cols[r]], true
			}
			return "", false
		}
		numText, _ := cell(colNumber)
		n, ok := findingNumber(numText)
		if !ok {
			probs = append(probs, NewProblem(CodeFindingsMalformed, d.Path, line,
				fmt.Sprintf("the findings row at line %d has %q where the finding number belongs; the row is skipped", line, text.Clip(numText, 40))))
			continue
		}
		f := &Finding{Number: n, Line: line, ID: fmt.Sprintf("%s#%d", d.Path, n)}
		if seen[n]++; seen[n] > 1 {
			// Two rows with one number would share a triage decision; the
			// repeat gets its own id and the author hears about it.
			f.ID = fmt.Sprintf("%s#%d~%d", d.Path, n, seen[n])
			probs = append(probs, NewProblem(CodeFindingsMalformed, d.Path, line,
				fmt.Sprintf("finding number %d appears again at line %d; this row's id is %s", n, line, f.ID)))
		}
		loc, _ := cell(colLocation)
		f.Location = strings.TrimSpace(strings.ReplaceAll(loc, "`", ""))
		f.Claim, _ = cell(colClaim)
		f.Evidence, _ = cell(colEvidence)
		sev, hasSev := cell(colSeverity)
		var known bool
		f.Severity, known = severityWord(sev)
		if hasSev && !known {
			probs = append(probs, NewProblem(CodeUnknownSeverity, d.Path, line,
				fmt.Sprintf("finding %d has severity %q; expected blocker, major, minor or nit", n, text.Clip(f.Severity, 40))))
		}
		for k, c := range cells {
			if k < len(role) && role[k] >= 0 {
				continue
			}
			if f.Extra == nil {
				f.Extra = map[string]string{}
			}
			name := fmt.Sprintf("col %d", k+1)
			if k < len(extraName) {
				name = extraName[k]
			}
			f.Extra[name] = c
		}
		var cut int
		if cite {
			f.Citations, cut = rowCitations(d.Path, line, loc, f.Claim, f.Evidence)
		}
		if cut > 0 {
			if citesCut == 0 {
				citesFirst = n
			}
			citesCut++
		}
		out = append(out, f)
	}
	if citesCut > 0 {
		probs = append(probs, NewProblem(CodeTooManyCitations, d.Path, 0, fmt.Sprintf(
			"%s cite more than %d places (the first, finding %d); the first %d of each are checked, the rest are not",
			text.PluralOf(citesCut, "finding", "findings"), MaxCitationsPerFinding, citesFirst, MaxCitationsPerFinding)))
	}
	// A table of malformed rows says so a few times and then counts.
	probs = Aggregate(probs, 20, nil, func(code string, rest int, first Problem) string {
		return fmt.Sprintf("%s more like this in the findings table (from line %d)", text.Thousands(int64(rest)), first.Line)
	})
	return out, probs
}

// rowCitations extracts the citations of a row's cells, location first, each
// identical citation once.
// Past MaxCitationsPerFinding the rest are counted in cut.
func rowCitations(file string, line int, cells ...string) (out []Citation, cut int) {
	seen := map[citeKey]bool{}
	for _, c := range cells {
		for _, cit := range ExtractCitations(c, file, line) {
			k := citeKey{cit.Path, cit.Line, cit.EndLine, cit.Suffix}
			if seen[k] {
				continue
			}
			seen[k] = true
			if len(out) == MaxCitationsPerFinding {
				cut++
				continue
			}
			out = append(out, cit)
		}
	}
	return out, cut
}

// findingNumber reads the "#" cell: "3", "#3", "**3**", "3.", "F3", "R-3".
func findingNumber(s string) (int, bool) {
	s = strings.TrimSpace(strings.Trim(stripMarkup(s), "[]_ "))
	s = strings.TrimRight(s, ".)")
	k := 0
	for k < len(s) && k < 3 && (s[k] == '#' || s[k] >= 'A' && s[k] <= 'Z' || s[k] >= 'a' && s[k] <= 'z') {
		k++
	}
	s = s[k:]
	if k > 0 {
		s = strings.TrimPrefix(s, "-")
	}
	if s == "" || len(s) > 6 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// severityWord lower-cases a severity cell. A known word first ("nit
// (cosmetic)", "🟡 minor") counts as that word; anything else is kept as
// written and reported.
func severityWord(s string) (string, bool) {
	clean := strings.ToLower(strings.TrimSpace(stripMarkup(s)))
	first := strings.TrimLeftFunc(clean, func(r rune) bool { return !unicode.IsLetter(r) })
	k := strings.IndexFunc(first, func(r rune) bool { return !unicode.IsLetter(r) })
	if k >= 0 {
		first = first[:k]
	}
	switch first {
	case "blocker", "major", "minor", "nit":
		return first, true
	}
	return clean, false
}

// splitRow splits a table row into trimmed cells. A pipe splits unless it is
// escaped ("\|", which becomes "|") or inside a backtick code span. Linear in
// the row's length: the closing run of each code span is found through
// per-length cursors that only move forward.
func splitRow(line string) []string {
	s := strings.TrimSpace(line)
	s = strings.TrimPrefix(s, "|")
	if strings.HasSuffix(s, "|") && !strings.HasSuffix(s, "\\|") {
		s = s[:len(s)-1]
	}
	spans := newCodeSpans(s)
	cells := make([]string, 0, 8)
	cellStart, escaped := 0, false
	emit := func(end int) {
		c := s[cellStart:end]
		if escaped {
			c = strings.ReplaceAll(c, "\\|", "|")
		}
		cells = append(cells, strings.TrimSpace(c))
		escaped = false
	}
	for i := 0; i < len(s); {
		// Straight to the next byte that matters.
		k := strings.IndexAny(s[i:], "\\|`")
		if k < 0 {
			break
		}
		i += k
		switch s[i] {
		case '\\':
			if i+1 < len(s) && s[i+1] == '|' {
				escaped = true
				i += 2
				continue
			}
			i++
		case '|':
			emit(i)
			cellStart = i + 1
			i++
		case '`':
			n := 0
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			if k := spans.closing(n, i); k >= 0 {
				// GFM unescapes "\|" inside code spans in tables too.
				escaped = escaped || strings.Contains(s[i:k], "\\|")
				i = k + n
			} else {
				i += n
			}
		default:
			i++
		}
	}
	emit(len(s))
	return cells
}

// bothCores applies f to each element, the first half of a long slice on
// another core: splitting a big review's table into cells and hashing its
// findings are most of what the first screen waits for in it. Short slices
// stay on this goroutine, where a second one costs more than it saves.
func bothCores[T, U any](in []T, f func(T) U) []U {
	out := make([]U, len(in))
	half := len(in) / 2
	done := make(chan struct{})
	if len(in) < 256 {
		half = 0
		close(done)
	} else {
		go func() {
			defer close(done)
			for i, v := range in[:half] {
				out[i] = f(v)
			}
		}()
	}
	for i, v := range in[half:] {
		out[half+i] = f(v)
	}
	<-done
	return out
}

// codeSpans finds, for a backtick run, the next run of the same length.
// A row holds a few runs, kept in place and searched in turn; past
// fewSpans they are kept by length, so a hostile row of thousands of
// backticks is still read in linear time.
type codeSpans struct {
	few    [fewSpans]backtickRun
	nfew   int
	runs   map[int][]int // run length -> start offsets, in order
	cursor map[int]int
}

// fewSpans is how many backtick runs a row may hold before they are
// kept by length: a finding's row quotes a few paths and names, each a
// pair of runs.
const fewSpans = 16

type backtickRun struct{ at, n int }

func newCodeSpans(s string) codeSpans {
	var cs codeSpans
	if strings.IndexByte(s, '`') < 0 {
		return cs
	}
	for i := 0; i < len(s); {
		k := strings.IndexByte(s[i:], '`')
		if k < 0 {
			break
		}
		i += k
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		switch {
		case cs.runs == nil && cs.nfew < fewSpans:
			cs.few[cs.nfew] = backtickRun{i, j - i}
			cs.nfew++
		default:
			if cs.runs == nil {
				cs.runs, cs.cursor = map[int][]int{}, map[int]int{}
				for _, r := range cs.few[:cs.nfew] {
					cs.runs[r.n] = append(cs.runs[r.n], r.at)
				}
			}
			cs.runs[j-i] = append(cs.runs[j-i], i)
		}
		i = j
	}
	return cs
}

// closing returns the offset of the next run of n backticks after offset
// after, or -1. Calls must come with increasing offsets.
func (cs *codeSpans) closing(n, after int) int {
	if cs.runs == nil {
		for _, r := range cs.few[:cs.nfew] {
			if r.n == n && r.at > after {
				return r.at
			}
		}
		return -1
	}
	list := cs.runs[n]
	c := cs.cursor[n]
	for c < len(list) && list[c] <= after {
		c++
	}
	cs.cursor[n] = c
	if c < len(list) {
		return list[c]
	}
	return -1
}
