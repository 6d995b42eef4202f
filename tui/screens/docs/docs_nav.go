package docs

import (
	"strings"

	"github.com/vetter-dev/vetter/tui/common"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/ui"
)

// This file moves around inside the documents screen: the verdict and
// outcome jumps, source-line positioning and search.

// jumpVerdict shows the verdict line of change-validation.md.
func (d *Docs) jumpVerdict() tea.Cmd {
	v := d.ctx.Packet.Verdict
	if v.Line <= 0 {
		return common.Status("no verdict in " + packet.ValidationFile)
	}
	return d.jumpTo(firstNonEmptyStr(v.File, packet.ValidationFile), v.Line)
}

// jumpOutcome shows the investigation outcome heading.
func (d *Docs) jumpOutcome() tea.Cmd {
	o := d.ctx.Packet.Outcome
	if o == nil {
		return common.Status("no investigation outcome in " + packet.ValidationFile)
	}
	return d.jumpTo(packet.ValidationFile, o.Line)
}

func (d *Docs) jumpTo(path string, line int) tea.Cmd {
	i := d.docIndex(path)
	if i < 0 {
		return common.Status("no document " + ui.Sanitize(path))
	}
	d.panel = panelNone
	d.selectDoc(i)
	d.relayout()
	d.goToSource(line-1, pendTop)
	if d.mode == docsRaw {
		d.setHighlight(line-1, line)
	}
	return nil
}

func (d *Docs) docIndex(path string) int {
	for i, doc := range d.ctx.Packet.Docs {
		if doc.Path == path {
			return i
		}
	}
	return -1
}

func firstNonEmptyStr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// goToSource puts a 0-based source line at the top (or centre) of the view
// in whichever mode is on, now or as soon as the lines are there.
func (d *Docs) goToSource(src, kind int) {
	d.pending = &docsPending{kind: kind, line: src, src: true}
	d.sync()
}

func (d *Docs) setHighlight(start, end int) {
	d.hlStart, d.hlEnd = start, end
	if d.shown == shownRaw {
		d.pane.SetHighlight(start, end)
		d.pane.Invalidate()
	}
}

// cursorSource is the source line under the cursor, mapped from the
// rendering when that is what is shown.
func (d *Docs) cursorSource() int {
	doc := d.doc()
	if doc == nil {
		return 0
	}
	if d.shown == shownRendered {
		return d.view.rowToSrc(d.pane.Cursor(), len(doc.Lines))
	}
	return d.pane.Cursor()
}

// Search marks the lines of the shown document that contain query (case
// folded, styles ignored) and moves to the first at or after the cursor.
func (d *Docs) Search(query string) int {
	d.query = query
	n := d.mark()
	if n > 0 && !d.marks[d.pane.Cursor()] {
		d.pane.FindMatch(1, 0)
	} else if n > 0 {
		d.pane.CenterOn(d.pane.Cursor())
	}
	return n
}

// NextMatch moves to the next (1) or previous (-1) marked line.
func (d *Docs) NextMatch(dir int) {
	if d.query == "" {
		return
	}
	d.pane.FindMatch(dir, 0)
}

// mark recomputes the search marks for the lines now shown.
func (d *Docs) mark() int {
	d.marks = nil
	d.pane.SetMatch(nil)
	doc := d.doc()
	if d.query == "" || doc == nil {
		return 0
	}
	q := strings.ToLower(d.query)
	n := d.pane.Len()
	d.marks = make([]bool, n)
	count := 0
	for i := range n {
		var text string
		if d.shown == shownRendered {
			text = ansi.Strip(d.view.lines[i])
		} else {
			text = doc.Lines[i]
		}
		if strings.Contains(strings.ToLower(text), q) {
			d.marks[i] = true
			count++
		}
	}
	marks := d.marks
	d.pane.SetMatch(func(i int) bool { return i < len(marks) && marks[i] })
	d.pane.Invalidate()
	return count
}
