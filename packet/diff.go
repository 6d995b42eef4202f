package packet

// This is a hand-written parser rather than github.com/bluekeyes/go-gitdiff
// because that library stops at the first malformed section and returns an
// error, losing every file after it, while a packet's diff is untrusted input
// whose good parts must still show. It also allocates a string per line and
// keeps its own fragment structures; here every line is a substring of one
// conversion of the input, every line gets old/new numbers as it is read,
// and all hunk lines share one backing array, so a 200,000-line diff costs a
// handful of allocations.

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseDiff parses change.diff (output of `git diff base...head`, unified,
// git extended headers). It never fails: what it cannot understand becomes
// problems (file "change.diff", with lines), and everything else is kept.
func ParseDiff(data []byte) (*Diff, []Problem) {
	s := string(data)
	n := strings.Count(s, "\n")
	if len(s) > 0 && s[len(s)-1] != '\n' {
		n++
	}
	p := &diffParser{
		s: s,
		d: &Diff{Lines: n},
		// Every hunk line is one line of the input, so this never grows.
		lines: make([]DiffLine, 0, n),
	}
	p.run()
	return p.d, p.problems
}

// hunkBodyMax bounds hunk header counts so line numbers cannot overflow.
const hunkBodyMax = 1 << 31

type diffParser struct {
	s      string
	pos    int // byte offset of the next unread line
	lineNo int // 1-based number of the line last read

	d        *Diff
	problems []Problem

	// Shared backing arrays: each hunk's Lines and each file's Header are
	// capped sub-slices, so appending for the next one never overwrites them.
	lines   []DiffLine
	headers []string
	hunks   []*Hunk

	cur        *DiffFile
	curHeaders int  // start of cur's headers in p.headers
	curHunks   int  // start of cur's hunks in p.hunks
	inHeader   bool // after "diff --git", before ---/+++ or the first hunk
	gitFile    bool // cur started with "diff --git"
	sawPaths   bool // cur's ---/+++ were read
	oldNull    bool // cur's old side is /dev/null or "new file mode"
	newNull    bool // cur's new side is /dev/null or "deleted file mode"
	renamed    bool
	copied     bool
	modeChange bool // "old mode"/"new mode" were read

	hunk               *Hunk
	hunkStart          int // start of the open hunk's lines in p.lines
	oldNext, newNext   int // numbers the next old/new line gets
	oldLeft, newLeft   int // lines the header still promises per side
	oldFirst, newFirst int

	binary bool // skipping a "GIT binary patch" payload
	skip   bool // skipping after a header that could not be used

	strayFirst, strayLast int // a run of diff-like lines outside any hunk
}

// readLine returns the next line without its "\n" and without one trailing
// "\r", and whether that "\r" was there.
func (p *diffParser) readLine() (string, bool) {
	rest := p.s[p.pos:]
	var line string
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		line = rest[:i]
		p.pos += i + 1
	} else {
		line = rest
		p.pos = len(p.s)
	}
	p.lineNo++
	if strings.HasSuffix(line, "\r") {
		return line[:len(line)-1], true
	}
	return line, false
}

// peekLine returns the k-th line after the current position (0 = next one)
// without consuming anything, "\r" stripped; ok is false past the end.
func (p *diffParser) peekLine(k int) (string, bool) {
	pos := p.pos
	for {
		if pos >= len(p.s) {
			return "", false
		}
		rest := p.s[pos:]
		i := strings.IndexByte(rest, '\n')
		line := rest
		if i >= 0 {
			line = rest[:i]
			pos += i + 1
		} else {
			pos = len(p.s)
		}
		if k == 0 {
			return strings.TrimSuffix(line, "\r"), true
		}
		k--
	}
}

func (p *diffParser) problem(code string, line int, format string, args ...any) {
	p.problems = append(p.problems, NewProblem(code, DiffPath, line, fmt.Sprintf(format, args...)))
}

func (p *diffParser) run() {
	for p.pos < len(p.s) {
		line, cr := p.readLine()
		if p.hunk != nil {
			if p.hunkLine(line, cr) {
				continue
			}
			p.closeHunk()
		}
		if p.binary {
			if !p.isFileStart(line) {
				continue
			}
			p.binary = false
		}
		p.structural(line)
	}
	if p.hunk != nil {
		p.closeHunk()
	}
	p.flushStray()
	p.closeFile()
}

// isFileStart reports whether line (just read) begins a new file section.
func (p *diffParser) isFileStart(line string) bool {
	if strings.HasPrefix(line, "diff ") {
		return true
	}
	return p.isPlainHeader(line)
}

// isPlainHeader reports whether line (just read) is a "--- " line followed by
// a "+++ " line: the two-line header of a file.
func (p *diffParser) isPlainHeader(line string) bool {
	if !strings.HasPrefix(line, "--- ") {
		return false
	}
	next, ok := p.peekLine(0)
	return ok && strings.HasPrefix(next, "+++ ")
}

// structural handles a line outside any hunk.
func (p *diffParser) structural(line string) {
	switch {
	case strings.HasPrefix(line, "diff --git "):
		p.flushStray()
		p.startGitFile(line)
	case strings.HasPrefix(line, "diff --cc ") || strings.HasPrefix(line, "diff --combined "):
		p.flushStray()
		p.closeFile()
		p.problem(CodeDiffParse, p.lineNo, "line %d starts a combined (merge) diff, which vetter does not read; skipped up to the next file", p.lineNo)
		p.skip = true
	case p.isPlainHeader(line):
		p.flushStray()
		p.plainHeader(line)
	case strings.HasPrefix(line, "@@"):
		p.flushStray()
		p.hunkHeader(line)
	case p.cur != nil && p.inHeader && p.extendedHeader(line):
		// applied to cur
	case len(line) >= len("Binary files  differ") && strings.HasPrefix(line, "Binary files ") && strings.HasSuffix(line, " differ"):
		p.flushStray()
		p.binaryLine(line)
	case line == "GIT binary patch" && p.cur != nil:
		p.flushStray()
		p.cur.Binary = true
		p.inHeader = false
		p.binary = true
		p.skip = false
	default:
		if !p.skip && line != "" && (line[0] == '+' || line[0] == '-' || line[0] == ' ') {
			if p.strayFirst == 0 {
				p.strayFirst = p.lineNo
			}
			p.strayLast = p.lineNo
			return
		}
		// Anything else between files (notes, blank lines) is not the diff's
		// business and is skipped silently.
		p.flushStray()
	}
}

// flushStray reports a run of diff-like lines found outside any hunk.
func (p *diffParser) flushStray() {
	if p.strayFirst == 0 {
		return
	}
	if p.strayFirst == p.strayLast {
		p.problem(CodeDiffParse, p.strayFirst, "line %d looks like a diff line but is outside any hunk; skipped", p.strayFirst)
	} else {
		p.problem(CodeDiffParse, p.strayFirst, "lines %d-%d look like diff lines but are outside any hunk; skipped", p.strayFirst, p.strayLast)
	}
	p.strayFirst, p.strayLast = 0, 0
}

// newFile closes the current file and opens one whose header is at this line.
func (p *diffParser) newFile(git bool) *DiffFile {
	p.closeFile()
	f := &DiffFile{Line: p.lineNo}
	p.cur = f
	p.curHeaders = len(p.headers)
	p.curHunks = len(p.hunks)
	p.gitFile = git
	p.inHeader = git
	p.sawPaths, p.oldNull, p.newNull = false, false, false
	p.renamed, p.copied, p.modeChange = false, false, false
	p.skip = false
	return f
}

func (p *diffParser) startGitFile(line string) {
	f := p.newFile(true)
	f.OldPath, f.NewPath = splitGitHeader(line[len("diff --git "):])
}

// plainHeader reads a "--- "/"+++ " pair: the paths of the current git file,
// or the start of a file in a plain unified diff.
func (p *diffParser) plainHeader(line string) {
	next, _ := p.readLine()
	f := p.cur
	if f == nil || !p.gitFile || p.sawPaths || len(p.hunks) > p.curHunks {
		f = p.newFile(false)
		// The header of a plain file is its "--- " line, one before this one.
		f.Line = p.lineNo - 1
	}
	p.inHeader = false
	p.skip = false
	p.sawPaths = true
	oldName := headerName(line[len("--- "):])
	newName := headerName(next[len("+++ "):])
	if oldName == "/dev/null" {
		p.oldNull = true
	} else if !p.renamed && !p.copied {
		f.OldPath = stripPrefix(oldName, oldPrefixes)
	}
	if newName == "/dev/null" {
		p.newNull = true
	} else if !p.renamed && !p.copied {
		f.NewPath = stripPrefix(newName, newPrefixes)
	}
}

// extendedHeader applies one git extended header line to the current file and
// reports whether it was one.
func (p *diffParser) extendedHeader(line string) bool {
	f := p.cur
	switch {
	case strings.HasPrefix(line, "old mode "):
		f.OldMode = line[len("old mode "):]
		p.modeChange = true
	case strings.HasPrefix(line, "new mode "):
		f.NewMode = line[len("new mode "):]
		p.modeChange = true
	case strings.HasPrefix(line, "new file mode "):
		f.NewMode = line[len("new file mode "):]
		p.oldNull = true
	case strings.HasPrefix(line, "deleted file mode "):
		f.OldMode = line[len("deleted file mode "):]
		p.newNull = true
	case strings.HasPrefix(line, "rename from "):
		f.OldPath = unquoteName(line[len("rename from "):])
		p.renamed = true
	case strings.HasPrefix(line, "rename to "):
		f.NewPath = unquoteName(line[len("rename to "):])
		p.renamed = true
	case strings.HasPrefix(line, "rename old "): // written by git before 1.5
		f.OldPath = unquoteName(line[len("rename old "):])
		p.renamed = true
	case strings.HasPrefix(line, "rename new "):
		f.NewPath = unquoteName(line[len("rename new "):])
		p.renamed = true
	case strings.HasPrefix(line, "copy from "):
		f.OldPath = unquoteName(line[len("copy from "):])
		p.copied = true
	case strings.HasPrefix(line, "copy to "):
		f.NewPath = unquoteName(line[len("copy to "):])
		p.copied = true
	case strings.HasPrefix(line, "similarity index "):
		f.Similarity = percent(line[len("similarity index "):])
	case strings.HasPrefix(line, "dissimilarity index "):
	case strings.HasPrefix(line, "index "):
		// "index abc..def 100644" names the mode when it did not change.
		if i := strings.LastIndexByte(line, ' '); i > len("index") {
			if m := line[i+1:]; !strings.Contains(m, "..") {
				if f.OldMode == "" && !p.oldNull {
					f.OldMode = m
				}
				if f.NewMode == "" && !p.newNull {
					f.NewMode = m
				}
			}
		}
	default:
		return false
	}
	p.headers = append(p.headers, line)
	return true
}

// binaryLine handles "Binary files A and B differ".
func (p *diffParser) binaryLine(line string) {
	f := p.cur
	// It belongs to the open git file until that file has content; otherwise
	// (diff -r output) it is a file of its own.
	if f == nil || !p.gitFile || f.Binary || len(p.hunks) > p.curHunks {
		f = p.newFile(false)
	}
	p.inHeader = false
	p.skip = false
	f.Binary = true
	if p.sawPaths || p.renamed || p.copied || (p.gitFile && (f.OldPath != "" || f.NewPath != "")) {
		return
	}
	oldName, newName := splitPair(line[len("Binary files "):len(line)-len(" differ")], " and ")
	if oldName == "/dev/null" {
		p.oldNull = true
	} else {
		f.OldPath = stripPrefix(oldName, oldPrefixes)
	}
	if newName == "/dev/null" {
		p.newNull = true
	} else {
		f.NewPath = stripPrefix(newName, newPrefixes)
	}
}

// closeFile finishes the current file: its status, totals and header slices.
func (p *diffParser) closeFile() {
	f := p.cur
	if f == nil {
		return
	}
	p.cur = nil
	p.inHeader = false
	p.binary = false
	f.Header = p.headers[p.curHeaders:len(p.headers):len(p.headers)]
	f.Hunks = p.hunks[p.curHunks:len(p.hunks):len(p.hunks)]
	if len(f.Header) == 0 {
		f.Header = nil
	}
	if len(f.Hunks) == 0 {
		f.Hunks = nil
	}
	switch {
	case p.copied:
		f.Status = StatusCopied
	case p.renamed:
		f.Status = StatusRenamed
	case p.oldNull:
		f.Status = StatusAdded
		f.OldPath = ""
	case p.newNull:
		f.Status = StatusDeleted
		f.NewPath = ""
	default:
		f.Status = StatusModified
	}
	f.ModeOnly = p.modeChange && f.Status == StatusModified && len(f.Hunks) == 0 && !f.Binary
	if f.OldPath == "" && f.NewPath == "" {
		p.problem(CodeDiffParse, f.Line, "could not read the file name in the header at line %d", f.Line)
	}
	p.d.Files = append(p.d.Files, f)
	p.d.Insertions += f.Insertions
	p.d.Deletions += f.Deletions
}

// hunkHeader reads "@@ -a,b +c,d @@ section" and opens the hunk.
func (p *diffParser) hunkHeader(line string) {
	if p.cur == nil {
		if p.skip {
			return // already reported for this stretch
		}
		p.problem(CodeDiffParse, p.lineNo, "hunk at line %d is not inside any file (no diff --git or ---/+++ header before it); skipped", p.lineNo)
		p.skip = true
		return
	}
	h, ok := parseHunkHeader(line)
	if !ok {
		p.problem(CodeDiffParse, p.lineNo, "could not read the hunk header at line %d (want \"@@ -start,count +start,count @@\"); skipped up to the next header", p.lineNo)
		p.skip = true
		return
	}
	p.skip = false
	p.inHeader = false
	h.Line = p.lineNo
	p.hunk = h
	p.hunkStart = len(p.lines)
	// A side with no lines names the line before the change, so the next line
	// on that side is one further.
	p.oldNext, p.newNext = h.OldStart, h.NewStart
	if h.OldLines == 0 {
		p.oldNext++
	}
	if h.NewLines == 0 {
		p.newNext++
	}
	// "@@ -0 +0 @@" claims lines at line 0; number them from 1 all the same.
	p.oldNext, p.newNext = max(p.oldNext, 1), max(p.newNext, 1)
	p.oldFirst, p.newFirst = p.oldNext, p.newNext
	p.oldLeft, p.newLeft = h.OldLines, h.NewLines
}

// hunkLine adds line to the open hunk and reports whether it belonged there.
func (p *diffParser) hunkLine(line string, cr bool) bool {
	promised := p.oldLeft > 0 || p.newLeft > 0
	kind := LineContext
	text := line
	switch {
	case line == "":
		// Some tools strip the space of an empty context line.
		if p.oldLeft <= 0 || p.newLeft <= 0 {
			return false
		}
	case line[0] == '\\':
		if n := len(p.lines); n > p.hunkStart {
			p.lines[n-1].NoNewline = true
		}
		return true
	case line[0] == ' ' || line[0] == '+' || line[0] == '-':
		if line[0] == '-' && p.isPlainHeader(line) {
			// A "--- "/"+++ " pair ends the hunk when its lines are all read;
			// before that, only when a hunk header follows, since a hunk line
			// can never be "@@" and the hunk is short anyway.
			if !promised {
				return false
			}
			if third, ok := p.peekLine(1); ok && strings.HasPrefix(third, "@@ ") {
				return false
			}
		}
		kind = LineKind(line[0])
		text = line[1:]
	default:
		return false
	}
	dl := DiffLine{Kind: kind, Text: text, CR: cr}
	switch kind {
	case LineContext:
		dl.Old, dl.New = p.oldNext, p.newNext
		p.oldNext++
		p.newNext++
		p.oldLeft--
		p.newLeft--
	case LineAdded:
		dl.New = p.newNext
		p.newNext++
		p.newLeft--
		p.cur.Insertions++
	case LineRemoved:
		dl.Old = p.oldNext
		p.oldNext++
		p.oldLeft--
		p.cur.Deletions++
	}
	p.lines = append(p.lines, dl)
	return true
}

// closeHunk attaches the open hunk to its file and reports counts that lie.
func (p *diffParser) closeHunk() {
	h := p.hunk
	p.hunk = nil
	h.Lines = p.lines[p.hunkStart:len(p.lines):len(p.lines)]
	if len(h.Lines) == 0 {
		h.Lines = nil
	}
	p.hunks = append(p.hunks, h)
	gotOld, gotNew := p.oldNext-p.oldFirst, p.newNext-p.newFirst
	badOld, badNew := gotOld != h.OldLines, gotNew != h.NewLines
	switch {
	case badOld && badNew:
		p.problem(CodeDiffHunkCount, h.Line, "hunk at line %d says %d old and %d new lines but %d old and %d new follow", h.Line, h.OldLines, h.NewLines, gotOld, gotNew)
	case badOld:
		p.problem(CodeDiffHunkCount, h.Line, "hunk at line %d says %d old lines but %d follow", h.Line, h.OldLines, gotOld)
	case badNew:
		p.problem(CodeDiffHunkCount, h.Line, "hunk at line %d says %d new lines but %d follow", h.Line, h.NewLines, gotNew)
	}
}

// parseHunkHeader reads "@@ -a[,b] +c[,d] @@[ section]".
func parseHunkHeader(line string) (*Hunk, bool) {
	rest, ok := strings.CutPrefix(line, "@@ -")
	if !ok {
		return nil, false
	}
	h := &Hunk{}
	if h.OldStart, h.OldLines, rest, ok = hunkRange(rest); !ok {
		return nil, false
	}
	if rest, ok = strings.CutPrefix(rest, " +"); !ok {
		return nil, false
	}
	if h.NewStart, h.NewLines, rest, ok = hunkRange(rest); !ok {
		return nil, false
	}
	if rest, ok = strings.CutPrefix(rest, " @@"); !ok {
		return nil, false
	}
	h.Section = strings.TrimPrefix(rest, " ")
	return h, true
}

// hunkRange reads "start[,count]" (count defaults to 1) and returns the rest.
func hunkRange(s string) (start, count int, rest string, ok bool) {
	start, s, ok = hunkNumber(s)
	if !ok {
		return 0, 0, "", false
	}
	count = 1
	if after, found := strings.CutPrefix(s, ","); found {
		if count, s, ok = hunkNumber(after); !ok {
			return 0, 0, "", false
		}
	}
	return start, count, s, true
}

// hunkNumber reads a run of decimal digits below hunkBodyMax.
func hunkNumber(s string) (int, string, bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i > 10 {
		return 0, "", false
	}
	n, err := strconv.Atoi(s[:i])
	if err != nil || n >= hunkBodyMax {
		return 0, "", false
	}
	return n, s[i:], true
}

func percent(s string) int {
	n, _, ok := hunkNumber(strings.TrimSpace(s))
	if !ok || n > 100 {
		return 0
	}
	return n
}

// Prefixes git puts before paths: a/ and b/ by default, and the mnemonic ones
// of diff.mnemonicPrefix (c/ commit, i/ index, w/ worktree, o/ object).
var (
	oldPrefixes = []string{"a/", "c/", "i/", "o/", "w/"}
	newPrefixes = []string{"b/", "i/", "w/", "o/"}
)

func stripPrefix(name string, prefixes []string) string {
	for _, pre := range prefixes {
		if strings.HasPrefix(name, pre) && len(name) > len(pre) {
			return name[len(pre):]
		}
	}
	return name
}

// headerName reads the name of a "--- " or "+++ " line: quoted, or up to a
// tab (git ends names with spaces with one; other tools put a date there).
func headerName(s string) string {
	if strings.HasPrefix(s, `"`) {
		if name, _, ok := unquoteC(s); ok {
			return name
		}
	}
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	return s
}

// unquoteName reads a name that may be C-quoted (rename from, copy to ...).
func unquoteName(s string) string {
	if strings.HasPrefix(s, `"`) {
		if name, rest, ok := unquoteC(s); ok && rest == "" {
			return name
		}
	}
	return s
}

// splitGitHeader reads the two names of "diff --git A B" and strips their
// prefixes. Unquoted names may hold spaces, so the split git would make is
// the one whose two names agree after the prefix; when none does (a rename),
// the middle space is the best guess and the rename or ---/+++ headers that
// follow correct it.
func splitGitHeader(s string) (oldPath, newPath string) {
	oldName, newName := splitPair(s, " ")
	return stripPrefix(oldName, oldPrefixes), stripPrefix(newName, newPrefixes)
}

// splitPair splits "A<sep>B" where A and B may be C-quoted or hold sep.
func splitPair(s, sep string) (string, string) {
	if strings.HasPrefix(s, `"`) {
		if a, rest, ok := unquoteC(s); ok {
			if rest, ok = strings.CutPrefix(rest, sep); ok {
				return a, unquoteName(rest)
			}
		}
	}
	if strings.HasSuffix(s, `"`) {
		for i := 0; ; i++ {
			j := strings.Index(s[i:], sep+`"`)
			if j < 0 {
				break
			}
			i += j
			if b, rest, ok := unquoteC(s[i+len(sep):]); ok && rest == "" {
				return s[:i], b
			}
		}
	}
	// Symmetric split: the names agree once their first component is gone.
	var cuts []int
	for i := 0; ; i++ {
		j := strings.Index(s[i:], sep)
		if j < 0 {
			break
		}
		i += j
		cuts = append(cuts, i)
	}
	for _, i := range cuts {
		a, b := s[:i], s[i+len(sep):]
		if dropComponent(a) == dropComponent(b) {
			return a, b
		}
	}
	if len(cuts) == 0 {
		return s, s
	}
	// No agreeing split: take the cut nearest the middle.
	best := cuts[0]
	for _, i := range cuts[1:] {
		if abs(2*i+len(sep)-len(s)) < abs(2*best+len(sep)-len(s)) {
			best = i
		}
	}
	return s[:best], s[best+len(sep):]
}

func dropComponent(s string) string {
	if i := strings.IndexByte(s, '/'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// unquoteC reads a C-style quoted string at the start of s, as git writes
// names with unusual bytes ("caf\303\251.txt"), and returns the rest after
// the closing quote.
func unquoteC(s string) (string, string, bool) {
	if !strings.HasPrefix(s, `"`) {
		return "", s, false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			return b.String(), s[i+1:], true
		case '\\':
			i++
			if i >= len(s) {
				return "", s, false
			}
			switch e := s[i]; e {
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			case 'v':
				b.WriteByte('\v')
			case 'f':
				b.WriteByte('\f')
			case 'r':
				b.WriteByte('\r')
			case '"', '\\':
				b.WriteByte(e)
			case '0', '1', '2', '3':
				if i+2 >= len(s) || !isOctal(s[i+1]) || !isOctal(s[i+2]) {
					return "", s, false
				}
				b.WriteByte((e-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0'))
				i += 2
			default:
				return "", s, false
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", s, false
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

// FileIndex returns the index of the file with that path (its new path, else
// its old path), or -1.
func (d *Diff) FileIndex(path string) int {
	if d == nil || path == "" {
		return -1
	}
	for i, f := range d.Files {
		if f.NewPath == path {
			return i
		}
	}
	for i, f := range d.Files {
		if f.OldPath == path {
			return i
		}
	}
	return -1
}

// HunkAt is hunk hunk of file file, nil when either index is out of range:
// a citation or a screen's target holds indices, and the diff they were
// taken from may not be the one loaded now.
func (d *Diff) HunkAt(file, hunk int) *Hunk {
	if d == nil || file < 0 || file >= len(d.Files) {
		return nil
	}
	f := d.Files[file]
	if hunk < 0 || hunk >= len(f.Hunks) {
		return nil
	}
	return f.Hunks[hunk]
}

// LineAt is line line of that hunk, nil when any index is out of range.
func (d *Diff) LineAt(file, hunk, line int) *DiffLine {
	h := d.HunkAt(file, hunk)
	if h == nil || line < 0 || line >= len(h.Lines) {
		return nil
	}
	return &h.Lines[line]
}

// Locate finds the new-side line `line` of the file whose new path (or old
// path, if deleted) equals path exactly. It returns the file index and, when
// the line lies inside a hunk's new side, the hunk index and the index in
// Hunk.Lines of that line with inHunk set; fileIdx is -1 when no file matches.
// A path with several sections (a malformed or concatenated diff) is searched
// in all of them; without a hit the first section is the file.
func (d *Diff) Locate(path string, line int) (fileIdx, hunkIdx, lineIdx int, inHunk bool) {
	if d == nil || path == "" {
		return -1, -1, -1, false
	}
	fileIdx = -1
	for fi, f := range d.Files {
		if f.Path() != path {
			continue
		}
		if fileIdx < 0 {
			fileIdx = fi
		}
		if line <= 0 {
			break
		}
		for hi, h := range f.Hunks {
			for li := range h.Lines {
				if h.Lines[li].New == line {
					return fi, hi, li, true
				}
			}
		}
	}
	return fileIdx, -1, -1, false
}
