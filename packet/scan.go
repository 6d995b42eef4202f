package packet

import (
	"fmt"
	"unicode/utf8"
)

// TextFlags says what a piece of packet text hides or would do to a terminal.
type TextFlags struct {
	Controls int // escape sequences and control characters (other than tab, newline, CR)
	Hidden   int // bidirectional-control and zero-width characters
	Invalid  int // bytes that are not UTF-8
}

// IsHidden reports whether r is a bidirectional control or zero-width
// character: ones that change what a reader sees without being seen (the
// Trojan Source attack).
func IsHidden(r rune) bool {
	switch {
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069,
		r == 0x200E, r == 0x200F, r == 0x061C,
		r >= 0x200B && r <= 0x200D, r == 0x2060, r == 0xFEFF:
		return true
	}
	return false
}

// ScanText counts what a string hides or would do to a terminal.
func ScanText(s string) TextFlags {
	var f TextFlags
	for i := 0; i < len(s); {
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
		case IsHidden(r):
			f.Hidden++
		}
		i += size
	}
	return f
}

// scanText reports hidden characters, invalid UTF-8 and control sequences in
// the documents, the diff (lines and file names) and the findings: one problem
// per file and kind, at its first line, so a hostile file cannot flood the list.
func (p *Packet) scanText() {
	type acc struct {
		first map[string]int
		count map[string]int
	}
	perFile := map[string]*acc{}
	var order []string
	note := func(file string, line int, s string) {
		f := ScanText(s)
		if f == (TextFlags{}) {
			return
		}
		a := perFile[file]
		if a == nil {
			a = &acc{first: map[string]int{}, count: map[string]int{}}
			perFile[file] = a
			order = append(order, file)
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
		add(CodeHiddenCharacters, f.Hidden)
		add(CodeInvalidUTF8, f.Invalid)
	}
	for _, d := range p.Docs {
		for i, l := range d.Lines {
			note(d.Path, i+1, l)
		}
	}
	if p.Diff != nil {
		for _, f := range p.Diff.Files {
			note(DiffPath, f.Line, f.OldPath+"\n"+f.NewPath)
			for _, h := range f.Hunks {
				for i, l := range h.Lines {
					note(DiffPath, h.Line+1+i, l.Text)
				}
			}
		}
	}
	for _, run := range p.Registry.Runs {
		note(RegistryFile, run.Line, run.Recipe+run.Status+run.Command+run.Log+run.Note+run.Disposition)
	}
	what := map[string]string{
		CodeControlSequences: "terminal control sequences or control characters, shown neutralised",
		CodeHiddenCharacters: "bidirectional-control or zero-width characters, shown as visible markers",
		CodeInvalidUTF8:      "bytes that are not valid UTF-8, shown as \uFFFD",
	}
	for _, file := range order {
		a := perFile[file]
		for _, code := range []string{CodeHiddenCharacters, CodeInvalidUTF8, CodeControlSequences} {
			if n := a.count[code]; n > 0 {
				p.problem(code, file, a.first[code], fmt.Sprintf("%s holds %d %s (first at line %d)", file, n, what[code], a.first[code]))
			}
		}
	}
}
