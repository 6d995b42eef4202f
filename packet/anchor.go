package packet

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vetter-dev/vetter/internal/text"
)

// This file anchors a finding's citations to the text they are about.
// Reviewers quote what they cite ("Each is mapped to its replacement …"),
// name a place in a log by its marker (CLAIM D) and write line numbers that
// drift by a line or two. A citation is anchored where the quoted text
// really is: on the cited lines when it is there, else at its nearest
// occurrence in the cited file, which is a drift to report; a citation that
// names a file but no line is anchored at its quote or marker.

// Anchor is where a citation's quoted text is in the file it cites.
type Anchor struct {
	Quote string // the quote or marker found; "" when none was
	// Line and EndLine are the 1-based lines of the file the anchor marks
	// (new-side lines for a file of the diff); 0 when nothing is marked.
	Line, EndLine int
	// Drift is set when the quote is in the file but not on the cited lines:
	// Line is where it is, the citation's own Line what the finding says.
	Drift bool
	// DiffHunk and DiffLine place Line in change.diff for a file of the
	// diff: the hunk and the line index in it; -1 otherwise.
	DiffHunk, DiffLine int
	// Note says, for people, what the anchor could not do ("no line is
	// cited and none of the quoted text is in it: the file's start").
	Note string
}

// Marked reports whether the anchor marks lines.
func (a Anchor) Marked() bool { return a.Line > 0 }

// noAnchor is the zero anchor, with the diff indices unset.
func noAnchor() Anchor { return Anchor{DiffHunk: -1, DiffLine: -1} }

// anchorQuote is one phrase or marker a finding writes; strong ones (a
// phrase of several words, a named marker) may move a citation, weak ones
// (a single back-ticked word) only anchor a citation that gives no line.
type anchorQuote struct {
	text   string
	strong bool
}

// findingQuotes returns the quotes that speak for citation c of f: the
// claim's for the citation of the location cell, and for a citation written
// in the claim or the evidence those in the same sentence.
func findingQuotes(f *Finding, c *Citation) []anchorQuote {
	if strings.Contains(f.Location, c.Text) {
		return quotesIn(f.Claim)
	}
	for _, cell := range []string{f.Claim, f.Evidence} {
		if k := strings.Index(cell, c.Text); k >= 0 {
			return quotesIn(sentenceAround(cell, k, k+len(c.Text)))
		}
	}
	return nil
}

// sentenceAround is the sentence of s holding s[from:to]: from the end of
// the sentence before to the end of this one. A full stop inside a back-tick
// span or a file name (".log") does not end a sentence.
func sentenceAround(s string, from, to int) string {
	ends := func(i int) bool {
		if s[i] != '.' && s[i] != '!' && s[i] != '?' && s[i] != ';' {
			return false
		}
		return i+1 >= len(s) || s[i+1] == ' ' || s[i+1] == '\n'
	}
	inCode := make([]bool, len(s))
	code := false
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			code = !code
		}
		inCode[i] = code
	}
	lo := 0
	for i := from - 1; i >= 0; i-- {
		if !inCode[i] && ends(i) {
			lo = i + 1
			break
		}
	}
	hi := len(s)
	for i := to; i < len(s); i++ {
		if !inCode[i] && ends(i) {
			hi = i + 1
			break
		}
	}
	return s[lo:hi]
}

// quotesIn finds quoted phrases ("…", “…”), back-ticked spans and named
// markers (CLAIM D, MATCH) in prose, longest first within each kind.
func quotesIn(s string) []anchorQuote {
	var out []anchorQuote
	seen := map[string]bool{}
	add := func(q string, strong bool) {
		q = strings.Join(strings.Fields(q), " ")
		// An ellipsis in a quote elides text: its longest piece is what
		// the file holds verbatim.
		q = longestPiece(q)
		if q == "" || seen[q] {
			return
		}
		seen[q] = true
		if strong && !phrase(q) {
			strong = false
		}
		if !strong && utf8.RuneCountInString(q) < 3 {
			return
		}
		out = append(out, anchorQuote{q, strong})
	}
	for _, pair := range [][2]string{{"\"", "\""}, {"“", "”"}} {
		rest := s
		for {
			i := strings.Index(rest, pair[0])
			if i < 0 {
				break
			}
			rest = rest[i+len(pair[0]):]
			j := strings.Index(rest, pair[1])
			if j < 0 {
				break
			}
			q := rest[:j]
			rest = rest[j+len(pair[1]):]
			add(q, true)
			// A quote with back-ticks in it is also matched without them:
			// the file may write the code plain.
			if strings.Contains(q, "`") {
				add(strings.ReplaceAll(q, "`", ""), true)
			}
		}
	}
	rest := s
	for {
		i := strings.IndexByte(rest, '`')
		if i < 0 {
			break
		}
		rest = rest[i+1:]
		j := strings.IndexByte(rest, '`')
		if j < 0 {
			break
		}
		q := rest[:j]
		rest = rest[j+1:]
		if _, ok := parseCitation(trimWord(q)); ok && !strings.Contains(q, " ") {
			continue // a cited name is not a quote of the file it names
		}
		add(q, strings.Contains(strings.TrimSpace(q), " "))
	}
	for _, m := range markersIn(s) {
		add(m, true)
	}
	// A marker names the place; then the longer a phrase the surer its match.
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].strong != out[j].strong {
			return out[i].strong
		}
		if mi, mj := isMarker(out[i].text), isMarker(out[j].text); mi != mj {
			return mi
		}
		return len(out[i].text) > len(out[j].text)
	})
	return out
}

// phrase reports whether a quote says enough to be found in one place: two
// words or more and eight characters, or a marker.
func phrase(q string) bool {
	if isMarker(q) {
		return true
	}
	return strings.Contains(q, " ") && utf8.RuneCountInString(q) >= 8
}

// longestPiece is the longest part of q between ellipses.
func longestPiece(q string) string {
	q = strings.ReplaceAll(q, "...", "…")
	best := ""
	for _, p := range strings.Split(q, "…") {
		p = strings.TrimSpace(p)
		if len(p) > len(best) {
			best = p
		}
	}
	return best
}

// markersIn finds the names a log gives its places: an upper-case word of
// four letters or more, alone or followed by a one- or two-character label
// ("CLAIM D", "STEP 3", "MATCH"). Upper-case words prose uses as words
// (acronyms of tools and protocols) are not markers.
func markersIn(s string) []string {
	if !hasMarkerRun(s) {
		return nil
	}
	// Code spans are not prose, and a word runs through '.', '/' and ':' so
	// that no part of a file name ("ops/RUNBOOK.md") is taken for a marker.
	var b strings.Builder
	code := false
	for _, r := range s {
		if r == '`' {
			code = !code
			b.WriteByte(' ')
			continue
		}
		if code {
			continue
		}
		b.WriteRune(r)
	}
	prose := b.String()
	words := strings.FieldsFunc(prose, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_-./:…", r))
	})
	var out []string
	for i, w := range words {
		w = strings.TrimRight(w, ".:")
		if !markerWord(w) {
			continue
		}
		m := w
		if i+1 < len(words) {
			next := strings.TrimRight(words[i+1], ".:")
			// The label must follow with one space in the prose itself.
			if len(next) <= 2 && upperOrDigits(next) && strings.Contains(prose, w+" "+next) {
				m += " " + next
			}
		}
		out = append(out, m)
	}
	return out
}

// hasMarkerRun reports whether s has a run of the bytes a marker word is
// made of (A-Z, 0-9, _) holding four capitals. Every marker is such a run
// of the prose, and the prose is s without its code spans, so most of a
// finding's sentences, which have none, are passed over without splitting
// them into words: anchoring asks this of every citation of every finding
// on the first screen's path.
func hasMarkerRun(s string) bool {
	letters := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z':
			if letters++; letters == 4 {
				return true
			}
		case c >= '0' && c <= '9' || c == '_':
		default:
			letters = 0
		}
	}
	return false
}

func isMarker(q string) bool {
	w, label, _ := strings.Cut(q, " ")
	return markerWord(w) && (label == "" || len(label) <= 2 && upperOrDigits(label))
}

func markerWord(w string) bool {
	if len(w) < 4 || !upperOrDigits(w) || !unicode.IsLetter(rune(w[0])) || notMarkers[w] {
		return false
	}
	letters := 0
	for _, r := range w {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters >= 4
}

func upperOrDigits(w string) bool {
	for _, r := range w {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return w != ""
}

// notMarkers are upper-case words prose writes as words.
var notMarkers = setOf("HEAD", "JSON", "YAML", "HTTP", "HTTPS", "TODO", "NOTE", "FIXME", "PASS", "FAIL",
	"SKIP", "TRUE", "FALSE", "NULL", "NONE", "GPUS", "CUDA", "UTF8", "ASCII", "README", "LGTM", "HTML",
	"POST", "HTTP2", "GRPC", "AMD64", "ARM64", "CPUS", "NVIDIA", "WARN", "INFO", "DEBUG", "ERROR")

// fileText is the text of a cited file as anchoring searches it: lines
// with their 1-based numbers, folded to one string so a quote wrapped
// across lines is found whole.
type fileText struct {
	nums   []int  // file line of each entry
	starts []int  // byte offset of each entry in joined
	joined []byte // the lines' words, one space between
	seg    []int  // segment of each entry: a quote never spans two
}

func (t *fileText) add(num, segment int, line string) {
	if len(t.nums) > 0 {
		t.joined = append(t.joined, ' ')
	}
	t.nums = append(t.nums, num)
	t.starts = append(t.starts, len(t.joined))
	t.seg = append(t.seg, segment)
	t.joined = appendFolded(t.joined, line)
}

// appendFolded appends s's words to dst with one space between, which is
// strings.Join(strings.Fields(s), " ") without the slice of words that
// would be allocated for every line of every cited file and every cell of
// every finding. Runs of ASCII are copied whole; only other bytes are
// decoded to ask whether they are spaces.
func appendFolded(dst []byte, s string) []byte {
	first := len(dst)
	gap := false
	word := func(w string) {
		if gap && len(dst) > first {
			dst = append(dst, ' ')
		}
		gap = false
		dst = append(dst, w...)
	}
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if asciiSpace[c] {
				gap = true
				i++
				continue
			}
			j := i + 1
			for j < len(s) && s[j] < utf8.RuneSelf && !asciiSpace[s[j]] {
				j++
			}
			word(s[i:j])
			i = j
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			gap = true
		} else {
			word(s[i : i+n])
		}
		i += n
	}
	return dst
}

// asciiSpace is what unicode.IsSpace calls space below utf8.RuneSelf.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// entryAt is the entry whose text holds byte offset off of joined.
func (t *fileText) entryAt(off int) int {
	return sort.Search(len(t.starts), func(i int) bool { return t.starts[i] > off }) - 1
}

// occurrences returns every place q is, as first and last entry.
func (t *fileText) occurrences(q string) [][2]int {
	var out [][2]int
	for from := 0; from <= len(t.joined); {
		k := bytes.Index(t.joined[from:], []byte(q))
		if k < 0 {
			break
		}
		a, b := t.entryAt(from+k), t.entryAt(from+k+len(q)-1)
		if a >= 0 && b >= 0 && t.seg[a] == t.seg[b] {
			out = append(out, [2]int{a, b})
		}
		from += k + 1
	}
	return out
}

// anchorIn anchors a citation of lines [line, end] (0 when none) in t:
// the first quote on the cited lines, else the nearest occurrence of a
// strong quote (or, with no line, of any quote). It returns the entries
// of the anchor and whether it drifted; ok is false when nothing was found.
func anchorIn(t *fileText, quotes []anchorQuote, line, end int) (a, b int, q string, drift, ok bool) {
	if line > 0 {
		for _, qu := range quotes {
			for _, o := range t.occurrences(qu.text) {
				if t.nums[o[0]] <= end && t.nums[o[1]] >= line {
					return o[0], o[1], qu.text, false, true
				}
			}
		}
	}
	best := -1
	for _, qu := range quotes {
		if line > 0 && !qu.strong {
			continue
		}
		for _, o := range t.occurrences(qu.text) {
			d := 0
			if line > 0 {
				d = min(abs(t.nums[o[0]]-line), abs(t.nums[o[1]]-end))
			}
			if best < 0 || d < best {
				best, a, b, q = d, o[0], o[1], qu.text
			}
		}
		if best >= 0 && line == 0 {
			break // with no line, the longest strong quote found wins
		}
	}
	return a, b, q, line > 0 && best >= 0, best >= 0
}

// anchorTexts holds the searchable text of each cited file, built once per
// load: thousands of findings citing the same files would otherwise fold
// the same lines again for every citation, on the first screen's path.
type anchorTexts struct {
	docs  map[*Document]*fileText
	files map[int]*diffText
	// win is the window around the cited lines, made again for each
	// citation in the same memory: a few lines each, for thousands of
	// citations, which built their own slices cost more than the search.
	win diffText
	// claimOf's claim has the quotes claim: a finding's location cell
	// and its evidence usually cite the same place, and both take the
	// claim's quotes.
	claimOf *Finding
	claim   []anchorQuote
}

// quotes is findingQuotes(f, c), the claim's read once per finding.
func (at *anchorTexts) quotes(f *Finding, c *Citation) []anchorQuote {
	if !strings.Contains(f.Location, c.Text) {
		return findingQuotes(f, c)
	}
	if at.claimOf != f {
		at.claimOf, at.claim = f, quotesIn(f.Claim)
	}
	return at.claim
}

// diffText is a diff file's new side as anchoring searches it, with each
// entry's hunk and line.
type diffText struct {
	t    fileText
	keys [][2]int
}

func (at *anchorTexts) doc(d *Document) *fileText {
	if t, ok := at.docs[d]; ok {
		return t
	}
	t := &fileText{}
	for i, l := range d.Lines {
		t.add(i+1, 0, l)
	}
	at.docs[d] = t
	return t
}

func (at *anchorTexts) diffFile(df *DiffFile, i int) *diffText {
	if t, ok := at.files[i]; ok {
		return t
	}
	t := &diffText{}
	for hi, h := range df.Hunks {
		for li, l := range h.Lines {
			if l.Kind != LineRemoved {
				t.t.add(l.New, hi, l.Text)
				t.keys = append(t.keys, [2]int{hi, li})
			}
		}
	}
	at.files[i] = t
	return t
}

// anchorCitation anchors one citation of a finding in the file it cites.
func (p *Packet) anchorCitation(at *anchorTexts, f *Finding, c *Citation) {
	c.Anchor = noAnchor()
	if !c.Resolved {
		return
	}
	quotes := at.quotes(f, c)
	end := max(c.EndLine, c.Line)
	// With a line and nothing quoted there is nothing to look for: the
	// cited line stands, and the file's text is not folded for nothing.
	search := len(quotes) > 0 || c.Line == 0
	// Past the cited lines, only a strong quote is looked for (anchorIn):
	// with none, the window around them is all there is to search.
	whole := c.Line == 0 || !anchorWindows
	for _, q := range quotes {
		whole = whole || q.strong
	}
	switch c.Kind {
	case CiteRegistry:
		if c.Line > 0 {
			c.Anchor.Line, c.Anchor.EndLine = c.Line, c.Line
		}
	case CitePacket:
		if d := p.Doc(c.Target); d != nil && search {
			if anchorWindows && c.Line > 0 && onCited(c, at.docWindow(d, c.Line-quoteSpan(quotes), end+quoteSpan(quotes)), quotes, end) {
				return
			}
			if whole {
				p.anchorLines(c, at.doc(d), quotes, end, func(int) (int, int) { return -1, -1 })
			}
		}
	case CiteDiff, CiteDiffFile:
		if p.Diff == nil || c.DiffFile < 0 || c.DiffFile >= len(p.Diff.Files) {
			return
		}
		df := p.Diff.Files[c.DiffFile]
		if anchorWindows && search && c.Line > 0 && onCited(c, at.diffWindow(df, c.Line-quoteSpan(quotes), end+quoteSpan(quotes)), quotes, end) {
			return
		}
		if search && whole {
			dt := at.diffFile(p.Diff.Files[c.DiffFile], c.DiffFile)
			p.anchorLines(c, &dt.t, quotes, end, func(e int) (int, int) { return dt.keys[e][0], dt.keys[e][1] })
		}
		if !c.Anchor.Drift && c.Kind == CiteDiff && c.Anchor.Line == 0 {
			c.Anchor.DiffHunk, c.Anchor.DiffLine = c.DiffHunk, c.DiffLine
		}
	case CiteLog:
		if l := p.Log(c.Target); l != nil {
			p.anchorLog(c, l, quotes, end)
		}
	}
}

// Most citations quote what is on the lines they cite. Finding that needs
// only the lines around them, folded: a quote of n words touches at most n
// lines, since every line it touches gives it a word. Only a quote that is
// not there sends anchoring to the whole file, which anchorTexts folds once.

// anchorWindows is false only in the test that proves the windows change
// no anchor.
var anchorWindows = true

// quoteSpan is the most lines any of quotes can touch.
func quoteSpan(quotes []anchorQuote) int {
	n := 1
	for _, q := range quotes {
		n = max(n, len(strings.Fields(q.text)))
	}
	return n
}

// window is at.win emptied, its memory kept.
func (at *anchorTexts) window() *diffText {
	t := &at.win
	t.t = fileText{nums: t.t.nums[:0], starts: t.t.starts[:0], joined: t.t.joined[:0], seg: t.t.seg[:0]}
	t.keys = t.keys[:0]
	return t
}

// docWindow is lines [from, to] of d as anchoring searches them, valid
// until the next window.
func (at *anchorTexts) docWindow(d *Document, from, to int) *diffText {
	t := at.window()
	for i := max(from, 1); i <= min(to, len(d.Lines)); i++ {
		t.t.add(i, 0, d.Lines[i-1])
		t.keys = append(t.keys, [2]int{-1, -1})
	}
	return t
}

// diffWindow is the new side of df between new lines from and to, valid
// until the next window.
func (at *anchorTexts) diffWindow(df *DiffFile, from, to int) *diffText {
	t := at.window()
	for hi, h := range df.Hunks {
		// A hunk's new side numbers its lines one after another: one that
		// ends before the window or starts after it is passed over whole.
		first, last := 0, -1
		for _, l := range h.Lines {
			if l.Kind != LineRemoved {
				first = l.New
				break
			}
		}
		for i := len(h.Lines) - 1; i >= 0; i-- {
			if h.Lines[i].Kind != LineRemoved {
				last = h.Lines[i].New
				break
			}
		}
		if last < from || first > to {
			continue
		}
		// The new side's line n is at index n-first or later (removed
		// lines only push it down), and the new lines rise from there:
		// the window is read from that index to its last line, not the
		// whole hunk for each of thousands of citations.
		for li := max(from-first, 0); li < len(h.Lines); li++ {
			l := h.Lines[li]
			if l.Kind == LineRemoved {
				continue
			}
			if l.New > to {
				break
			}
			if l.New >= from {
				t.t.add(l.New, hi, l.Text)
				t.keys = append(t.keys, [2]int{hi, li})
			}
		}
	}
	return t
}

// onCited anchors c at the first of quotes found on its cited lines in w,
// as anchorIn's first pass would in the whole file, and says whether one was.
func onCited(c *Citation, w *diffText, quotes []anchorQuote, end int) bool {
	for _, qu := range quotes {
		for _, o := range w.t.occurrences(qu.text) {
			if w.t.nums[o[0]] <= end && w.t.nums[o[1]] >= c.Line {
				c.Anchor.Quote, c.Anchor.Drift = qu.text, false
				c.Anchor.Line, c.Anchor.EndLine = w.t.nums[o[0]], w.t.nums[o[1]]
				c.Anchor.DiffHunk, c.Anchor.DiffLine = w.keys[o[0]][0], w.keys[o[0]][1]
				return true
			}
		}
	}
	return false
}

// anchorLines anchors c in a file held as lines; place maps an entry of t
// to its diff hunk and line.
func (p *Packet) anchorLines(c *Citation, t *fileText, quotes []anchorQuote, end int, place func(int) (int, int)) {
	a, b, q, drift, ok := anchorIn(t, quotes, c.Line, end)
	switch {
	case ok:
		c.Anchor.Quote, c.Anchor.Drift = q, drift
		c.Anchor.Line, c.Anchor.EndLine = t.nums[a], t.nums[b]
		c.Anchor.DiffHunk, c.Anchor.DiffLine = place(a)
	case c.Line == 0:
		c.Anchor.Note = "no line is cited and none of the finding's quoted text is in it: its start is shown"
		if len(t.nums) > 0 {
			c.Anchor.DiffHunk, c.Anchor.DiffLine = place(0)
		}
	}
}

// anchorLog anchors c in a log, reading it with the log's own search; a
// log that is not indexed yet is anchored when it is (Reresolve runs again).
func (p *Packet) anchorLog(c *Citation, l *Log, quotes []anchorQuote, end int) {
	if !l.Indexed() {
		return
	}
	ctx := context.Background()
	// The log's echo of its command ("$ bash -lc '… echo CLAIM D …'")
	// names every marker the run prints: a match there is not the place.
	echo := func(n int) bool {
		got, err := l.ReadLines(n, 1)
		return err == nil && len(got) == 1 && strings.HasPrefix(got[0], "$ ")
	}
	find := func(q string, from int, backward bool) int {
		for from >= 1 {
			n, err := l.Search(ctx, []byte(q), from, backward, nil)
			if err != nil || n <= 0 || !echo(n) {
				if err != nil {
					return -1
				}
				return n
			}
			if backward {
				from = n - 1
			} else {
				from = n + 1
			}
		}
		return -1
	}
	if c.Line > 0 {
		for _, qu := range quotes {
			if n := find(qu.text, c.Line, false); n >= c.Line && n <= end {
				c.Anchor.Quote, c.Anchor.Line, c.Anchor.EndLine = qu.text, n, n
				return
			}
		}
	}
	best, at, quote := -1, 0, ""
	for _, qu := range quotes {
		if c.Line > 0 && !qu.strong {
			continue
		}
		from := max(c.Line, 1)
		for _, n := range []int{find(qu.text, from, false), find(qu.text, from, true)} {
			if n <= 0 {
				continue
			}
			d := abs(n - from)
			if c.Line > 0 {
				d = min(abs(n-c.Line), abs(n-end))
			}
			if best < 0 || d < best {
				best, at, quote = d, n, qu.text
			}
		}
		if best >= 0 && c.Line == 0 {
			break
		}
	}
	switch {
	case best >= 0:
		c.Anchor.Quote, c.Anchor.Line, c.Anchor.EndLine, c.Anchor.Drift = quote, at, at, c.Line > 0
	case c.Line == 0:
		c.Anchor.Note = "no line is cited and none of the finding's quoted text is in it: its start is shown"
	}
}

// anchorFindings anchors every finding's citations and reports each drift
// as citation-drift.
func (p *Packet) anchorFindings() {
	at := &anchorTexts{docs: map[*Document]*fileText{}, files: map[int]*diffText{}}
	for _, f := range p.Findings {
		for i := range f.Citations {
			c := &f.Citations[i]
			p.anchorCitation(at, f, c)
		}
		for i := range f.Citations {
			c := &f.Citations[i]
			if c.Anchor.Drift && citedElsewhere(f, c) {
				// The quote belongs to another citation of the same
				// sentence or cell ("MaxRetries: 3" at :119 beside :125):
				// this one is not about it.
				c.Anchor = noAnchor()
				if c.Kind == CiteDiff {
					c.Anchor.DiffHunk, c.Anchor.DiffLine = c.DiffHunk, c.DiffLine
				}
			}
			if c.Anchor.Drift {
				p.Problems = append(p.Problems, NewProblem(CodeCitationDrift, c.SourceFile, c.SourceLine, driftMessage(f, c)))
			}
		}
	}
}

// citedElsewhere reports whether the lines c's anchor drifted to are cited
// by another citation of f in the same file.
func citedElsewhere(f *Finding, c *Citation) bool {
	for i := range f.Citations {
		o := &f.Citations[i]
		if o == c || o.Target != c.Target || o.Line == 0 {
			continue
		}
		if o.Line <= c.Anchor.EndLine && max(o.EndLine, o.Line) >= c.Anchor.Line {
			return true
		}
	}
	return false
}

// driftMessage says where the quoted text is and what the finding cites.
func driftMessage(f *Finding, c *Citation) string {
	return fmt.Sprintf("finding %d cites %s: quoted text is on line %s; the finding cites %s (%q)",
		f.Number, c.Text, lineSpan(c.Anchor.Line, c.Anchor.EndLine), lineSpan(c.Line, c.EndLine), text.Clip(c.Anchor.Quote, 60))
}
