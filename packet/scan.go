package packet

import (
	"fmt"
	"unicode/utf8"
)

// TextFlags says what a piece of packet text hides or would do to a terminal.
type TextFlags struct {
	Controls int // escape sequences and control characters (other than tab, newline, CR)
	Hidden   int // characters of the hidden table (hidden.go), every class
	Invalid  int // bytes that are not UTF-8

	// HiddenBy is Hidden by class (indexed by HiddenClass), and FirstHidden
	// each class's first character, so check can say which kind of hidden
	// text a file holds and show one.
	HiddenBy    [numHiddenClasses]int
	FirstHidden [numHiddenClasses]rune
}

// ScanText counts what a string hides or would do to a terminal.
func ScanText(s string) TextFlags {
	var f TextFlags
	for i := 0; i < len(s); {
		// Eight bytes at a time while they are printable ASCII, the common
		// case: the scan covers every line of a packet's documents and diff
		// on load, and byte by byte it was a sixth of loading a big packet.
		if i+8 <= len(s) && plainASCII8(s[i:i+8]) {
			i += 8
			continue
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f {
				f.Controls++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			f.Invalid++
		case r >= 0x80 && r <= 0x9f:
			f.Controls++
		default:
			if c := HiddenClassOf(r); c != NotHidden {
				f.Hidden++
				if f.HiddenBy[c] == 0 {
					f.FirstHidden[c] = r
				}
				f.HiddenBy[c]++
			}
		}
		i += size
	}
	return f
}

// plainASCII8 reports whether the eight bytes of s are all printable ASCII
// (0x20-0x7e); it may say false for some that are, never true for others.
func plainASCII8(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	_ = s[7] // one bounds check; the loads combine into one
	w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	high := w & highs                   // a byte of 0x80 or more
	low := (w - 0x20*ones) & ^w & highs // a byte below 0x20 (or a false alarm)
	del := w ^ 0x7f*ones                // a zero byte where w held DEL
	del = (del - ones) & ^del & highs
	return high|low|del == 0
}

// plainText reports whether s is printable ASCII, tabs and line breaks
// only, where ScanText finds nothing; it may say false for some such text,
// never true for other. It is ScanText's answer for most lines of a
// packet without the counts: the diff's 200,000 lines pass here on the
// first screen's path.
func plainText(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if !plainASCII8(s[i:i+8]) && !plainBytes(s[i:i+8]) {
			return false
		}
	}
	return plainBytes(s[i:])
}

// plainBytes is plainText byte by byte.
func plainBytes(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c >= 0x7f {
			return false
		}
	}
	return true
}

// textScan gathers, per file, what ScanText finds: one problem per file and
// kind, at its first line, so a hostile file cannot flood the list.
type textScan struct {
	perFile map[string]*scanAcc
	order   []string // files in the order first seen
}

type scanAcc struct {
	first map[string]int
	count map[string]int
	// Hidden characters are counted by class: one problem per class, each
	// naming its first character.
	hiddenFirst [numHiddenClasses]int
	hiddenCount [numHiddenClasses]int
	hiddenRune  [numHiddenClasses]rune
}

func newTextScan() *textScan { return &textScan{perFile: map[string]*scanAcc{}} }

func (t *textScan) note(file string, line int, s string) {
	if plainText(s) {
		return // the common line: nothing to count
	}
	f := ScanText(s)
	if f == (TextFlags{}) {
		return
	}
	a := t.perFile[file]
	if a == nil {
		a = &scanAcc{first: map[string]int{}, count: map[string]int{}}
		t.perFile[file] = a
		t.order = append(t.order, file)
	}
	add := func(code string, n int) {
		if n == 0 {
			return
		}
		if a.count[code] == 0 {
			a.first[code] = line
		}
		a.count[code] += n
	}
	add(CodeControlSequences, f.Controls)
	add(CodeInvalidUTF8, f.Invalid)
	for _, c := range HiddenClasses {
		if n := f.HiddenBy[c]; n > 0 {
			if a.hiddenCount[c] == 0 {
				a.hiddenFirst[c], a.hiddenRune[c] = line, f.FirstHidden[c]
			}
			a.hiddenCount[c] += n
		}
	}
}

// scanDiff notes the diff's file names and lines.
func (t *textScan) scanDiff(d *Diff) {
	if d == nil {
		return
	}
	for _, f := range d.Files {
		t.note(DiffPath, f.Line, f.OldPath+"\n"+f.NewPath)
		for _, h := range f.Hunks {
			for i, l := range h.Lines {
				t.note(DiffPath, h.Line+1+i, l.Text)
			}
		}
	}
}

// scanText reports hidden characters, invalid UTF-8 and control sequences in
// the documents (findings included), the diff (lines and file names) and the
// registry. diff is the diff's scan, made where the diff was parsed, or nil.
func (p *Packet) scanText(diff *textScan) {
	t := newTextScan()
	for _, d := range p.Docs {
		for i, l := range d.Lines {
			t.note(d.Path, i+1, l)
		}
	}
	if diff == nil {
		diff = newTextScan()
		diff.scanDiff(p.Diff)
	}
	// Documents are markdown files, never change.diff, so the two scans
	// share no file and the order stays documents, diff, registry.
	for _, file := range diff.order {
		t.perFile[file] = diff.perFile[file]
		t.order = append(t.order, file)
	}
	for _, run := range p.Registry.Runs {
		t.note(RegistryFile, run.Line, run.Recipe+run.Status+run.Command+run.Log+run.Note+run.Disposition)
	}
	what := map[string]string{
		CodeControlSequences: "terminal control sequences or control characters, shown neutralised",
		CodeInvalidUTF8:      "bytes that are not valid UTF-8, shown as \uFFFD",
	}
	for _, file := range t.order {
		a := t.perFile[file]
		// One hidden-characters problem per class, so check names every
		// kind of hidden text a file holds, each with its first line.
		for _, c := range HiddenClasses {
			if n := a.hiddenCount[c]; n > 0 {
				p.problem(CodeHiddenCharacters, file, a.hiddenFirst[c], fmt.Sprintf("%s holds %d %s, shown as visible markers (first %s at line %d)",
					file, n, c, codePoint(a.hiddenRune[c]), a.hiddenFirst[c]))
			}
		}
		for _, code := range []string{CodeInvalidUTF8, CodeControlSequences} {
			if n := a.count[code]; n > 0 {
				p.problem(code, file, a.first[code], fmt.Sprintf("%s holds %d %s (first at line %d)", file, n, what[code], a.first[code]))
			}
		}
	}
}
