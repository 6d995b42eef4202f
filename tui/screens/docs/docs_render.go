package docs

import (
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

// docsRenderedMsg carries a document rendered by Glamour at one width. Gen
// drops results the user has moved on from.
type docsRenderedMsg struct {
	Path    string
	Width   int
	Gen     int
	Lines   []string
	Anchors []docsAnchor
	Err     error
}

func (docsRenderedMsg) EpochBound() {}

// docsAnchor ties a source line to the rendered row it became. Glamour
// keeps no line mapping, so the headings, which survive rendering as their
// own rows, are found again and everything between them is interpolated.
type docsAnchor struct {
	Src int // 0-based source line
	Row int // 0-based rendered row
}

func (a docsAnchor) src() int { return a.Src }
func (a docsAnchor) row() int { return a.Row }

// docsRender is the current render of the selected document.
type docsRender struct {
	path    string
	width   int
	lines   []string
	anchors []docsAnchor
}

func (r *docsRender) ready(path string, width int) bool {
	return r.lines != nil && r.path == path && r.width == width
}

// renderDocCmd renders text in the background; everything it needs is
// captured so the command never touches the model.
func renderDocCmd(ctx *common.Context, doc *packet.Document, width, gen int) tea.Cmd {
	md, path, text := ctx.Markdown, doc.Path, doc.Text
	headings := doc.Headings
	return ctx.Work.Cmd(func() tea.Msg {
		out, err := md.Render(path, text, width)
		if err != nil {
			return docsRenderedMsg{Path: path, Width: width, Gen: gen, Err: err}
		}
		lines := strings.Split(out, "\n")
		// Glamour opens with an empty row and closes with blank ones.
		for len(lines) > 1 && strings.TrimSpace(ansi.Strip(lines[len(lines)-1])) == "" {
			lines = lines[:len(lines)-1]
		}
		for len(lines) > 1 && strings.TrimSpace(ansi.Strip(lines[0])) == "" {
			lines = lines[1:]
		}
		return docsRenderedMsg{Path: path, Width: width, Gen: gen, Lines: lines,
			Anchors: findAnchors(headings, lines)}
	})
}

// findAnchors finds each heading's first rendered row, in order: the row
// whose text, spaces and markup removed, begins the heading's text.
func findAnchors(headings []packet.Heading, lines []string) []docsAnchor {
	anchors := make([]docsAnchor, 0, len(headings))
	row := 0
	for _, h := range headings {
		want := anchorKey(h.Text)
		if want == "" {
			continue
		}
		for r := row; r < len(lines); r++ {
			got := anchorKey(ansi.Strip(lines[r]))
			if got == "" || len(got) < min(len(want), 4) {
				continue
			}
			if strings.HasPrefix(want, got) || strings.HasPrefix(got, want) {
				anchors = append(anchors, docsAnchor{Src: h.Line - 1, Row: r})
				row = r + 1
				break
			}
		}
	}
	return anchors
}

// anchorKey folds text to what survives rendering: no white space, no
// inline markup, no heading marks.
func anchorKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsSpace(r) || strings.ContainsRune("`*_#", r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// srcToRow maps a 0-based source line to its rendered row; exact for a
// heading, interpolated between headings otherwise.
func (r *docsRender) srcToRow(src, srcLen int) int {
	return r.mapAnchored(src, srcLen, docsAnchor.src, docsAnchor.row)
}

// rowToSrc maps a rendered row back to a 0-based source line.
func (r *docsRender) rowToSrc(row, srcLen int) int {
	return r.mapAnchored(row, srcLen, docsAnchor.row, docsAnchor.src)
}

// mapAnchored maps v from one side of the anchors (from) to the other (to):
// between the anchors around v, in proportion.
func (r *docsRender) mapAnchored(v, srcLen int, from, to func(docsAnchor) int) int {
	a, b := docsAnchor{0, 0}, docsAnchor{srcLen, len(r.lines)}
	for _, an := range r.anchors {
		if from(an) <= v {
			a = an
		} else {
			b = an
			break
		}
	}
	return interpolate(v, from(a), from(b), to(a), to(b))
}

func interpolate(x, x0, x1, y0, y1 int) int {
	if x1 <= x0 {
		return y0
	}
	return y0 + (x-x0)*(y1-y0)/(x1-x0)
}

// RenderedMsg is the message a rendering of path, at the screen's current
// width and generation, would arrive as: the app's tests send it from an
// earlier read to see that a reload drops it.
func (d *Docs) RenderedMsg(path string, lines []string) tea.Msg {
	return docsRenderedMsg{Path: path, Width: d.renderWidth(), Gen: d.gen, Lines: lines}
}

// HoldsRendering reports whether a rendering the screen keeps, cached or
// shown, starts with first.
func (d *Docs) HoldsRendering(first string) bool {
	for _, r := range d.cache {
		if len(r.lines) > 0 && r.lines[0] == first {
			return true
		}
	}
	return len(d.rend.lines) > 0 && d.rend.lines[0] == first
}
