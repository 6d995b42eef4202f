package compare

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/sergi/go-diff/diffmatchpatch"
	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/report"
)

// This file holds the two text comparisons behind Compare: the interdiff of
// two change.diffs (files, then hunks, then a line diff of the hunks' own
// lines) and the word-by-word difference of two documents.

// Delta statuses of a file or hunk of the change between two rounds.
const (
	DeltaAdded     = "added"
	DeltaRemoved   = "removed"
	DeltaAltered   = "altered"
	DeltaUnchanged = "unchanged"
)

// Interdiff is what changed in the change itself between two rounds.
type Interdiff struct {
	Files     []FileDelta        `json:"files"`
	Added     int                `json:"added"`
	Removed   int                `json:"removed"`
	Altered   int                `json:"altered"`
	Unchanged int                `json:"unchanged"`
	Old       report.SummaryDiff `json:"old"`
	New       report.SummaryDiff `json:"new"`
}

// FileDelta is one file of either round's diff.
type FileDelta struct {
	Path string `json:"path"` // the new round's name, or the old one's when removed
	// OldPath is the old round's name when it differs (renamed between rounds).
	OldPath string `json:"old_path,omitempty"`
	Status  string `json:"status"` // added, removed, altered, unchanged
	// OldFileStatus and NewFileStatus are the file's status letter (A, M, D,
	// R, C) in each round's diff; empty where the file is absent.
	OldFileStatus string `json:"old_file_status,omitempty"`
	NewFileStatus string `json:"new_file_status,omitempty"`
	// OldLine and NewLine are the "diff --git" lines in each round's change.diff.
	OldLine       int `json:"old_line,omitempty"`
	NewLine       int `json:"new_line,omitempty"`
	OldInsertions int `json:"old_insertions"`
	OldDeletions  int `json:"old_deletions"`
	NewInsertions int `json:"new_insertions"`
	NewDeletions  int `json:"new_deletions"`
	// HeaderChanged says the file's own header differs: status, names,
	// modes, or (for a binary file) its index line.
	HeaderChanged bool `json:"header_changed,omitempty"`
	// Hunks are given for altered files only, every hunk of both rounds.
	Hunks []HunkDelta `json:"hunks,omitempty"`
}

// HunkDelta is one hunk of an altered file.
type HunkDelta struct {
	Status string `json:"status"` // added, removed, altered, unchanged
	// Old and New are the @@ ranges as they read in each round; Section is
	// the function context after them.
	Old     string `json:"old,omitempty"`
	New     string `json:"new,omitempty"`
	Section string `json:"section,omitempty"`
	// OldLine and NewLine are the @@ lines in each round's change.diff.
	OldLine int `json:"old_line,omitempty"`
	NewLine int `json:"new_line,omitempty"`
	// Lines is the diff of diffs of an altered hunk, or the lines of an added
	// or removed one; empty for an unchanged hunk.
	Lines []InterLine `json:"lines,omitempty"`
}

// InterLine is one line of a diff of diffs.
type InterLine struct {
	// Op is " " for a line both rounds have, "-" for one only the old round
	// has and "+" for one only the new round has.
	Op string `json:"op"`
	// Text is the diff line as written, with its own marker: "+\tfoo".
	Text string `json:"text"`
}

// CompareDiffs computes the interdiff of two parsed change.diffs; either may
// be nil. Files are matched by name (a file renamed between rounds by the
// name it had); hunks only inside files whose hunks differ.
func CompareDiffs(old, new *packet.Diff) Interdiff {
	var oldFiles, newFiles []*packet.DiffFile
	var out Interdiff
	if old != nil {
		oldFiles = old.Files
		out.Old = report.SummaryDiff{Files: len(old.Files), Insertions: old.Insertions, Deletions: old.Deletions}
	}
	if new != nil {
		newFiles = new.Files
		out.New = report.SummaryDiff{Files: len(new.Files), Insertions: new.Insertions, Deletions: new.Deletions}
	}
	out.Files = []FileDelta{}

	byPath := map[string][]int{}
	for i, f := range oldFiles {
		byPath[f.Path()] = append(byPath[f.Path()], i)
	}
	pair := make([]int, len(newFiles)) // new file -> old file, -1 when none
	used := make([]bool, len(oldFiles))
	take := func(name string) int {
		for _, i := range byPath[name] {
			if !used[i] {
				used[i] = true
				return i
			}
		}
		return -1
	}
	for j, f := range newFiles {
		pair[j] = take(f.Path())
	}
	// A file renamed in the new round is still the old round's file by its
	// former name.
	for j, f := range newFiles {
		if pair[j] < 0 && f.OldPath != "" && f.OldPath != f.Path() {
			pair[j] = take(f.OldPath)
		}
	}

	oldIndex := make([]int, len(oldFiles)) // old file -> its delta, to place removed files
	for j, nf := range newFiles {
		if pair[j] < 0 {
			out.Files = append(out.Files, fileDelta(nil, nf, DeltaAdded))
			out.Added++
			continue
		}
		of := oldFiles[pair[j]]
		fd := compareFile(of, nf)
		if fd.Status == DeltaUnchanged {
			out.Unchanged++
		} else {
			out.Altered++
		}
		oldIndex[pair[j]] = len(out.Files)
		out.Files = append(out.Files, fd)
	}
	// Removed files go after the file that preceded them in the old round, so
	// the listing keeps the diffs' order.
	var removed []struct {
		at int
		fd FileDelta
	}
	at := 0
	for i, of := range oldFiles {
		if used[i] {
			at = oldIndex[i] + 1
			continue
		}
		removed = append(removed, struct {
			at int
			fd FileDelta
		}{at, fileDelta(of, nil, DeltaRemoved)})
		out.Removed++
	}
	for k := len(removed) - 1; k >= 0; k-- {
		out.Files = slices.Insert(out.Files, removed[k].at, removed[k].fd)
	}
	return out
}

func fileDelta(of, nf *packet.DiffFile, status string) FileDelta {
	fd := FileDelta{Status: status}
	if of != nil {
		fd.Path = of.Path()
		fd.OldFileStatus = string(rune(of.Status))
		fd.OldLine = of.Line
		fd.OldInsertions, fd.OldDeletions = of.Insertions, of.Deletions
	}
	if nf != nil {
		if of != nil && of.Path() != nf.Path() {
			fd.OldPath = of.Path()
		}
		fd.Path = nf.Path()
		fd.NewFileStatus = string(rune(nf.Status))
		fd.NewLine = nf.Line
		fd.NewInsertions, fd.NewDeletions = nf.Insertions, nf.Deletions
	}
	return fd
}

// compareFile compares a file present in both rounds. Hunks are compared by
// their text first; go-diff runs only on hunks that differ.
func compareFile(of, nf *packet.DiffFile) FileDelta {
	fd := fileDelta(of, nf, DeltaUnchanged)
	fd.HeaderChanged = of.Status != nf.Status || of.OldPath != nf.OldPath || of.NewPath != nf.NewPath ||
		of.OldMode != nf.OldMode || of.NewMode != nf.NewMode || of.Binary != nf.Binary ||
		(of.Binary && !slices.Equal(of.Header, nf.Header))
	oldKeys := hunkKeys(of.Hunks)
	newKeys := hunkKeys(nf.Hunks)
	if !fd.HeaderChanged && slices.Equal(oldKeys, newKeys) {
		return fd
	}
	fd.Status = DeltaAltered
	fd.Hunks = compareHunks(of.Hunks, nf.Hunks, oldKeys, newKeys)
	return fd
}

// hunkKeys is each hunk's body as text, without its position, so a hunk
// that only moved because an earlier one grew compares equal.
func hunkKeys(hs []*packet.Hunk) []string {
	keys := make([]string, len(hs))
	for i, h := range hs {
		var b strings.Builder
		for _, l := range hunkText(h) {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		keys[i] = b.String()
	}
	return keys
}

// hunkText is a hunk's lines as written in a diff, marker included.
func hunkText(h *packet.Hunk) []string {
	out := make([]string, 0, len(h.Lines))
	for _, l := range h.Lines {
		out = append(out, string(rune(l.Kind))+l.Text)
		if l.NoNewline {
			out = append(out, `\ No newline at end of file`)
		}
	}
	return out
}

// hunkHeader is a hunk's "@@ -a,b +c,d @@", without its section text.
func hunkHeader(h *packet.Hunk) string {
	return "@@ -" + rangeText(h.OldStart, h.OldLines) + " +" + rangeText(h.NewStart, h.NewLines) + " @@"
}

func rangeText(start, n int) string {
	if n == 1 {
		return strconv.Itoa(start)
	}
	return strconv.Itoa(start) + "," + strconv.Itoa(n)
}

// maxRunes bounds how many distinct tokens (lines or words) one comparison
// maps to runes: go-diff works on runes, and there are about 1.1 million.
const maxRunes = 1 << 20

// diffTimeout bounds one go-diff run; past it go-diff returns a valid but
// coarser diff, so a pathological input cannot stall a comparison.
const diffTimeout = 2 * time.Second

func newDMP() *diffmatchpatch.DiffMatchPatch {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = diffTimeout
	return dmp
}

// compareHunks aligns the hunks of a file present in both rounds. Identical
// hunk bodies align first (in order, as a diff of the hunk sequences); in
// each gap between them, a removed and an added hunk that touch the same
// base lines are one altered hunk.
func compareHunks(oldH, newH []*packet.Hunk, oldKeys, newKeys []string) []HunkDelta {
	ops := alignKeys(oldKeys, newKeys)
	var out []HunkDelta
	var gapOld, gapNew []int
	flush := func() {
		out = append(out, pairGap(oldH, newH, gapOld, gapNew)...)
		gapOld, gapNew = gapOld[:0], gapNew[:0]
	}
	for _, op := range ops {
		switch {
		case op.old >= 0 && op.new >= 0:
			flush()
			oh, nh := oldH[op.old], newH[op.new]
			out = append(out, HunkDelta{Status: DeltaUnchanged, Old: hunkHeader(oh), New: hunkHeader(nh),
				Section: nh.Section, OldLine: oh.Line, NewLine: nh.Line})
		case op.old >= 0:
			gapOld = append(gapOld, op.old)
		default:
			gapNew = append(gapNew, op.new)
		}
	}
	flush()
	return out
}

type alignOp struct{ old, new int }

// alignKeys aligns two sequences of keys with go-diff, each distinct key
// mapped to one rune as DiffLinesToChars does for lines.
func alignKeys(a, b []string) []alignOp {
	ids := map[string]rune{}
	toRunes := func(keys []string) []rune {
		rs := make([]rune, len(keys))
		for i, k := range keys {
			r, ok := ids[k]
			if !ok {
				r = indexRune(len(ids))
				ids[k] = r
			}
			rs[i] = r
		}
		return rs
	}
	var ops []alignOp
	if len(a)+len(b) > maxRunes {
		// Too many hunks to map: everything in one gap, paired by position.
		for i := range a {
			ops = append(ops, alignOp{i, -1})
		}
		for j := range b {
			ops = append(ops, alignOp{-1, j})
		}
		return ops
	}
	ra, rb := toRunes(a), toRunes(b)
	i, j := 0, 0
	for _, d := range newDMP().DiffMainRunes(ra, rb, false) {
		n := len([]rune(d.Text))
		for range n {
			switch d.Type {
			case diffmatchpatch.DiffEqual:
				ops = append(ops, alignOp{i, j})
				i++
				j++
			case diffmatchpatch.DiffDelete:
				ops = append(ops, alignOp{i, -1})
				i++
			case diffmatchpatch.DiffInsert:
				ops = append(ops, alignOp{-1, j})
				j++
			}
		}
	}
	return ops
}

// indexRune maps a token index to a rune, skipping the surrogate range so
// every rune survives a round trip through a Go string.
func indexRune(i int) rune {
	if i < 0xD800 {
		return rune(i)
	}
	return rune(i + 0x800)
}

func runeIndex(r rune) int {
	if r < 0xD800 {
		return int(r)
	}
	return int(r) - 0x800
}

// pairGap turns the hunks between two aligned ones into deltas. A removed
// and an added hunk are one altered hunk when their base (old-side) ranges
// overlap; the rest are removed or added. The result is in base order.
func pairGap(oldH, newH []*packet.Hunk, gapOld, gapNew []int) []HunkDelta {
	if len(gapOld) == 0 && len(gapNew) == 0 {
		return nil
	}
	type entry struct {
		base int
		hd   HunkDelta
	}
	var entries []entry
	paired := make([]bool, len(gapNew))
	for _, oi := range gapOld {
		oh := oldH[oi]
		match := -1
		for k, ni := range gapNew {
			if !paired[k] && baseOverlap(oh, newH[ni]) {
				match = k
				break
			}
		}
		if match < 0 {
			entries = append(entries, entry{oh.OldStart, HunkDelta{Status: DeltaRemoved, Old: hunkHeader(oh),
				Section: oh.Section, OldLine: oh.Line, Lines: sideLines("-", hunkText(oh))}})
			continue
		}
		paired[match] = true
		nh := newH[gapNew[match]]
		entries = append(entries, entry{oh.OldStart, HunkDelta{Status: DeltaAltered, Old: hunkHeader(oh), New: hunkHeader(nh),
			Section: nh.Section, OldLine: oh.Line, NewLine: nh.Line, Lines: lineDiff(hunkText(oh), hunkText(nh))}})
	}
	for k, ni := range gapNew {
		if paired[k] {
			continue
		}
		nh := newH[ni]
		entries = append(entries, entry{nh.OldStart, HunkDelta{Status: DeltaAdded, New: hunkHeader(nh),
			Section: nh.Section, NewLine: nh.Line, Lines: sideLines("+", hunkText(nh))}})
	}
	slices.SortStableFunc(entries, func(a, b entry) int { return a.base - b.base })
	out := make([]HunkDelta, len(entries))
	for i, e := range entries {
		out[i] = e.hd
	}
	return out
}

// baseOverlap reports whether two hunks touch the same lines of the base.
// An empty range (a hunk adding at the top of a new file) counts as one line.
func baseOverlap(a, b *packet.Hunk) bool {
	aEnd := a.OldStart + max(a.OldLines, 1)
	bEnd := b.OldStart + max(b.OldLines, 1)
	return a.OldStart < bEnd && b.OldStart < aEnd
}

func sideLines(op string, lines []string) []InterLine {
	out := make([]InterLine, len(lines))
	for i, l := range lines {
		out[i] = InterLine{Op: op, Text: l}
	}
	return out
}

// lineDiff is the line diff of two hunks' lines, with go-diff in line mode.
func lineDiff(a, b []string) []InterLine {
	if len(a)+len(b) > maxRunes {
		return append(sideLines("-", a), sideLines("+", b)...)
	}
	join := func(ls []string) string {
		var sb strings.Builder
		for _, l := range ls {
			sb.WriteString(l)
			sb.WriteByte('\n')
		}
		return sb.String()
	}
	dmp := newDMP()
	ra, rb, lineArray := dmp.DiffLinesToRunes(join(a), join(b))
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(ra, rb, false), lineArray)
	var out []InterLine
	for _, d := range diffs {
		op := " "
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			op = "-"
		case diffmatchpatch.DiffInsert:
			op = "+"
		}
		for _, l := range strings.SplitAfter(d.Text, "\n") {
			if l == "" {
				continue
			}
			out = append(out, InterLine{Op: op, Text: strings.TrimSuffix(l, "\n")})
		}
	}
	return out
}

// ---- words -------------------------------------------------------------

// WordChange is one place where two texts differ, word by word.
type WordChange struct {
	// Field names the finding cell that changed (location, severity, claim,
	// evidence); empty for a document.
	Field string `json:"field,omitempty"`
	// Line and EndLine are the 1-based lines of the new text where the change
	// lands (for a removal, the line where the words used to be); OldLine is
	// the old text's line. Zero for a finding's cell.
	Line    int `json:"line,omitempty"`
	EndLine int `json:"end_line,omitempty"`
	OldLine int `json:"old_line,omitempty"`
	// Removed and Added are the words, runs of white space folded.
	Removed string `json:"removed,omitempty"`
	Added   string `json:"added,omitempty"`
}

// tokenize splits text into words and runs of white space, so joining the
// tokens gives the text back.
func tokenize(s string) []string {
	var toks []string
	start := 0
	space := false
	for i, r := range s {
		sp := unicode.IsSpace(r)
		if i > start && sp != space {
			toks = append(toks, s[start:i])
			start = i
		}
		space = sp
	}
	if start < len(s) {
		toks = append(toks, s[start:])
	}
	return toks
}

// runeMapper maps distinct tokens (lines or words) to runes, as
// DiffLinesToChars does for lines, so go-diff can compare sequences of them.
type runeMapper struct {
	ids   map[string]rune
	vocab []string
}

func newRuneMapper() *runeMapper { return &runeMapper{ids: map[string]rune{}} }

// runes maps toks; false when there are more distinct tokens than runes.
func (m *runeMapper) runes(toks []string) ([]rune, bool) {
	rs := make([]rune, len(toks))
	for i, t := range toks {
		r, ok := m.ids[t]
		if !ok {
			if len(m.vocab) >= maxRunes {
				return nil, false
			}
			r = indexRune(len(m.vocab))
			m.ids[t] = r
			m.vocab = append(m.vocab, t)
		}
		rs[i] = r
	}
	return rs, true
}

// tokens maps a diff's runes back to the tokens they stand for.
func (m *runeMapper) tokens(text string) []string {
	var out []string
	for _, r := range text {
		if i := runeIndex(r); i >= 0 && i < len(m.vocab) {
			out = append(out, m.vocab[i])
		}
	}
	return out
}

// diffSeqs diffs two token sequences; ok is false when they cannot be mapped.
func diffSeqs(a, b []string) (m *runeMapper, diffs []diffmatchpatch.Diff, ok bool) {
	m = newRuneMapper()
	ra, okA := m.runes(a)
	rb, okB := m.runes(b)
	if !okA || !okB {
		return nil, nil, false
	}
	return m, newDMP().DiffMainRunes(ra, rb, false), true
}

// splitKeepNL splits text into lines that keep their "\n", so joining them
// gives the text back.
func splitKeepNL(s string) []string {
	out := strings.SplitAfter(s, "\n")
	if out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// WordDiff returns where two texts differ, word by word, each change at the
// lines where it lands. Lines are aligned first (go-diff in line mode); in
// each run of replaced lines, lines similar enough to be edits of each
// other anchor the run, and what lies between is compared word by word
// (go-diff on words mapped to runes, with semantic cleanup so a rewritten
// phrase reads as one change). Changes of white space alone are left out.
func WordDiff(old, new string) []WordChange {
	if old == new {
		return nil
	}
	la, lb := splitKeepNL(old), splitKeepNL(new)
	out := lineThenWords(old, new, la, lb)
	// Words removed after the new text's last line land on that line.
	last := max(len(lb), 1)
	for i := range out {
		out[i].Line = min(out[i].Line, last)
		out[i].EndLine = min(max(out[i].EndLine, out[i].Line), last)
	}
	return out
}

func lineThenWords(old, new string, la, lb []string) []WordChange {
	m, diffs, ok := diffSeqs(la, lb)
	if !ok {
		return wordBlock(old, new, 1, 1)
	}
	var out []WordChange
	oldLine, newLine := 1, 1
	var delLines, insLines []string
	flush := func() {
		out = append(out, replacedLines(delLines, insLines, oldLine, newLine)...)
		oldLine += len(delLines)
		newLine += len(insLines)
		delLines, insLines = nil, nil
	}
	for _, d := range diffs {
		lines := m.tokens(d.Text)
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			flush()
			oldLine += len(lines)
			newLine += len(lines)
		case diffmatchpatch.DiffDelete:
			delLines = append(delLines, lines...)
		case diffmatchpatch.DiffInsert:
			insLines = append(insLines, lines...)
		}
	}
	flush()
	return out
}

// lineSimilar is how alike two lines must be, by shared words, to count as
// an edit of one another rather than a line removed and another added.
const lineSimilar = 0.75

// pairBudget bounds the line pairs scored in one run of replaced lines;
// a larger run is compared word by word as a whole.
const pairBudget = 40000

// replacedLines compares a run of removed lines with the run of added lines
// that replaced it, starting at the given lines of each text.
func replacedLines(del, ins []string, oldLine, newLine int) []WordChange {
	if len(del) == 0 && len(ins) == 0 {
		return nil
	}
	if len(del) == 0 || len(ins) == 0 || len(del)*len(ins) > pairBudget {
		return wordBlock(strings.Join(del, ""), strings.Join(ins, ""), oldLine, newLine)
	}
	// Order-preserving pairing of similar lines that maximises the total
	// similarity (a weighted LCS).
	n, k := len(del), len(ins)
	bags := func(ls []string) []wordBag {
		out := make([]wordBag, len(ls))
		for i, l := range ls {
			out[i] = newWordBag(l)
		}
		return out
	}
	wd, wi := bags(del), bags(ins)
	score := make([][]float64, n+1)
	for i := range score {
		score[i] = make([]float64, k+1)
	}
	sim := func(i, j int) float64 { return similarity(wd[i], wi[j]) }
	for i := n - 1; i >= 0; i-- {
		for j := k - 1; j >= 0; j-- {
			best := max(score[i+1][j], score[i][j+1])
			if s := sim(i, j); s >= lineSimilar {
				best = max(best, score[i+1][j+1]+s)
			}
			score[i][j] = best
		}
	}
	if score[0][0] == 0 {
		return wordBlock(strings.Join(del, ""), strings.Join(ins, ""), oldLine, newLine)
	}
	var out []WordChange
	i, j := 0, 0
	si, sj := 0, 0 // start of the current gap between anchors
	gap := func(ei, ej int) {
		if si < ei || sj < ej {
			out = append(out, wordBlock(strings.Join(del[si:ei], ""), strings.Join(ins[sj:ej], ""), oldLine+si, newLine+sj)...)
		}
	}
	for i < n && j < k {
		if s := sim(i, j); s >= lineSimilar && score[i][j] == score[i+1][j+1]+s {
			gap(i, j)
			out = append(out, wordBlock(del[i], ins[j], oldLine+i, newLine+j)...)
			i, j = i+1, j+1
			si, sj = i, j
			continue
		}
		if score[i+1][j] >= score[i][j+1] {
			i++
		} else {
			j++
		}
	}
	gap(n, k)
	// Anchoring on similar lines reads best for tables and lists, but splits
	// a re-wrapped paragraph into per-line changes; keep whichever of the two
	// readings changes fewer words.
	whole := wordBlock(strings.Join(del, ""), strings.Join(ins, ""), oldLine, newLine)
	if changedWords(whole) <= changedWords(out) {
		return whole
	}
	return out
}

func changedWords(cs []WordChange) int {
	n := 0
	for _, c := range cs {
		n += len(strings.Fields(c.Removed)) + len(strings.Fields(c.Added))
	}
	return n
}

// wordBag counts a line's words, built once per line so scoring every pair
// of a run costs only the lookups.
type wordBag struct {
	count map[string]int
	n     int
}

func newWordBag(line string) wordBag {
	b := wordBag{count: map[string]int{}}
	for _, w := range strings.Fields(line) {
		b.count[w]++
		b.n++
	}
	return b
}

// similarity is the share of words two lines have in common (Dice).
func similarity(a, b wordBag) float64 {
	if a.n+b.n == 0 {
		return 1
	}
	if len(a.count) > len(b.count) {
		a, b = b, a
	}
	common := 0
	for w, n := range a.count {
		common += min(n, b.count[w])
	}
	return 2 * float64(common) / float64(a.n+b.n)
}

// wordOp is one token of a word diff: kept, removed or added.
type wordOp struct {
	op  diffmatchpatch.Operation
	tok string
	// absorbed marks a kept token inside a change (see absorbShortEqualities).
	absorbed bool
}

// absorbShortEqualities folds a single kept word between two changes into
// the change, so "the" shared by two rewritten sentences does not split
// them into many small changes. go-diff's semantic cleanup does this by
// character count; on word tokens, where a space weighs as much as a word,
// it merges whole sentences that share a long run of words.
func absorbShortEqualities(ops []wordOp) {
	for i := 0; i < len(ops); {
		if ops[i].op != diffmatchpatch.DiffEqual {
			i++
			continue
		}
		j, words := i, 0
		for j < len(ops) && ops[j].op == diffmatchpatch.DiffEqual {
			if strings.TrimSpace(ops[j].tok) != "" {
				words++
			}
			j++
		}
		if i > 0 && j < len(ops) && words <= 1 {
			for k := i; k < j; k++ {
				ops[k].absorbed = true
			}
		}
		i = j
	}
}

// wordBlock compares two pieces of text word by word; oldLine and newLine
// are the lines where each piece starts.
func wordBlock(old, new string, oldLine, newLine int) []WordChange {
	if old == new {
		return nil
	}
	m, diffs, ok := diffSeqs(tokenize(old), tokenize(new))
	if !ok {
		// Too many distinct words to map: one change covering both pieces.
		return []WordChange{{Line: newLine, EndLine: newLine + max(0, strings.Count(strings.TrimSuffix(new, "\n"), "\n")), OldLine: oldLine,
			Removed: text.Clip(text.OneLine(old), 400), Added: text.Clip(text.OneLine(new), 400)}}
	}
	var ops []wordOp
	for _, d := range diffs {
		for _, tok := range m.tokens(d.Text) {
			ops = append(ops, wordOp{op: d.Type, tok: tok})
		}
	}
	absorbShortEqualities(ops)

	var out []WordChange
	var cur *WordChange
	var removed, added []string
	finish := func() {
		if cur == nil {
			return
		}
		cur.Removed = strings.Join(removed, " ")
		cur.Added = strings.Join(added, " ")
		if cur.Removed != cur.Added {
			if cur.EndLine < cur.Line {
				cur.EndLine = cur.Line
			}
			out = append(out, *cur)
		}
		cur, removed, added = nil, nil, nil
	}
	start := func() {
		if cur == nil {
			cur = &WordChange{Line: newLine, OldLine: oldLine}
		}
	}
	for _, o := range ops {
		nl := strings.Count(o.tok, "\n")
		isWord := strings.TrimSpace(o.tok) != ""
		switch {
		case o.op == diffmatchpatch.DiffEqual && o.absorbed:
			if isWord && cur != nil {
				removed = append(removed, o.tok)
				added = append(added, o.tok)
				cur.EndLine = newLine
			}
			oldLine += nl
			newLine += nl
		case o.op == diffmatchpatch.DiffEqual:
			if isWord {
				finish()
			}
			oldLine += nl
			newLine += nl
		case o.op == diffmatchpatch.DiffDelete:
			if isWord {
				start()
				removed = append(removed, o.tok)
			}
			oldLine += nl
		default:
			if isWord {
				if cur != nil && len(added) == 0 {
					cur.Line = newLine // a replacement lands where its new words start
				}
				start()
				added = append(added, o.tok)
				cur.EndLine = newLine
			}
			newLine += nl
		}
	}
	finish()
	return out
}
