package packet

import (
	"fmt"

	"github.com/vetter-dev/vetter/internal/hidden"
)

// textScan gathers, per file, what hidden.Scan finds: one problem per file and
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
	hiddenFirst [hidden.NumClasses]int
	hiddenCount [hidden.NumClasses]int
	hiddenRune  [hidden.NumClasses]rune
}

func newTextScan() *textScan { return &textScan{perFile: map[string]*scanAcc{}} }

func (t *textScan) note(file string, line int, s string) {
	if hidden.Plain(s) {
		return // the common line: nothing to count
	}
	f := hidden.Scan(s)
	if f == (hidden.Flags{}) {
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
	for _, c := range hidden.Classes {
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
		for _, c := range hidden.Classes {
			if n := a.hiddenCount[c]; n > 0 {
				p.problem(CodeHiddenCharacters, file, a.hiddenFirst[c], fmt.Sprintf("%s holds %d %s, shown as visible markers (first %s at line %d)",
					file, n, c, hidden.CodePoint(a.hiddenRune[c]), a.hiddenFirst[c]))
			}
		}
		for _, code := range []string{CodeInvalidUTF8, CodeControlSequences} {
			if n := a.count[code]; n > 0 {
				p.problem(code, file, a.first[code], fmt.Sprintf("%s holds %d %s (first at line %d)", file, n, what[code], a.first[code]))
			}
		}
	}
}
