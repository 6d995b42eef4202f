package inbox

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/ui"
)

// This file draws the inbox; inbox.go holds its rows, order and keys.

// inboxCol is a column of the table.
type inboxCol struct {
	title string
	width int
	drop  int // columns with a higher drop go first when the width is short (0 never)
	cell  func(in *Inbox, r *InboxRow) (text, word string)
}

var inboxCols = []inboxCol{
	{"ID", 10, 0, func(in *Inbox, r *InboxRow) (string, string) { return common.OrDash(r.ID), "" }},
	{"Title", 0, 0, nil}, // takes what is left
	{"Head", 11, 2, func(in *Inbox, r *InboxRow) (string, string) {
		// Which round of its work item the row is, as far as vetter has
		// seen it: "eececad r2" is the second head seen.
		h := common.OrDash(commitid.Short(r.Head))
		if r.Round > 0 && r.Rounds > 1 {
			h += fmt.Sprintf(" r%d", r.Round)
		}
		return h, ""
	}},
	{"Verdict", 7, 0, func(in *Inbox, r *InboxRow) (string, string) { return common.OrDash(r.Verdict), r.Verdict }},
	{"Assessment", 13, 3, func(in *Inbox, r *InboxRow) (string, string) { return common.OrDash(r.Assessment), r.Assessment }},
	{"Valid.", 6, 2, func(in *Inbox, r *InboxRow) (string, string) {
		w := "validated"
		if r.Validated < r.Total || r.Total == 0 {
			w = "failing"
		}
		return fmt.Sprintf("%d/%d", r.Validated, r.Total), w
	}},
	{"Open", 5, 4, func(in *Inbox, r *InboxRow) (string, string) {
		w := "ok"
		if r.Open > 0 {
			w = "warn"
		}
		return fmt.Sprintf("%d/%d", r.Open, r.Findings), w
	}},
	{"Gate", 9, 0, func(in *Inbox, r *InboxRow) (string, string) {
		if r.GateReady {
			return "ready", "ready"
		}
		return "not ready", ""
	}},
	{"Decision", 19, 0, func(in *Inbox, r *InboxRow) (string, string) {
		switch {
		case r.Decision == "":
			return "—", ""
		case !r.Decided():
			return decisionWord(r.Decision) + " (old)", ""
		}
		return decisionWord(r.Decision) + " " + commitid.Short(r.DecisionSHA), r.Decision
	}},
	{"Problems", 9, 1, func(in *Inbox, r *InboxRow) (string, string) {
		return problemCells(r), problemWord(r)
	}},
}

// decisionWord shortens request-changes to fit the column; the details
// line spells it out.
func decisionWord(d string) string {
	if d == review.DecisionRequestChanges {
		return "req-changes"
	}
	return d
}

// problemCells counts problems by severity: "1E 2W 1I", zeros left out.
func problemCells(r *InboxRow) string {
	var parts []string
	for _, c := range []struct {
		n int
		s string
	}{{r.Errors, "E"}, {r.Warnings, "W"}, {r.Infos, "I"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d%s", c.n, c.s))
		}
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, " ")
}

func problemWord(r *InboxRow) string {
	switch {
	case r.Errors > 0:
		return "error"
	case r.Warnings > 0:
		return "warn"
	}
	return ""
}

// layout picks the columns that fit: the title gets what is left, at least
// 16 cells, and the least needed columns are dropped to give it that.
func (in *Inbox) layout() (cols []inboxCol, titleW int) {
	cols = slices.Clone(in.src.Columns())
	for {
		used := 2 // the cursor marker
		for _, c := range cols {
			used += c.width + 1
		}
		titleW = in.width - used
		if titleW >= 16 {
			return cols, titleW
		}
		worst := -1
		for i, c := range cols {
			if c.drop > 0 && (worst < 0 || c.drop < cols[worst].drop) {
				worst = i
			}
		}
		if worst < 0 {
			return cols, max(titleW, 0)
		}
		cols = slices.Delete(cols, worst, worst+1)
	}
}

// View draws the inbox at exactly its size: a title line, the column
// header, the rows, the selected packet's details and the status line.
func (in *Inbox) View() string {
	if in.width <= 0 || in.height <= 0 {
		return ""
	}
	st := in.st
	cols, titleW := in.layout()
	lines := make([]string, 0, in.height)

	right := in.src.Count(in)
	if in.filter != "" {
		right = fmt.Sprintf("%d shown · ", len(in.shown)) + right
	}
	left := st.Title.Render(" "+in.src.Title()+" ") + " " + st.Line(in.src.Where(), st.Muted)
	lines = append(lines, common.PadBetween(left, st.Muted.Render(right), in.width))

	var hdr strings.Builder
	hdr.WriteString("  ")
	for _, c := range cols {
		w := c.width
		if c.cell == nil {
			w = titleW
		}
		hdr.WriteString(common.Fit(c.title, w) + " ")
	}
	lines = append(lines, common.Fit(st.Subtitle.Render(hdr.String()), in.width))

	n := in.listRows()
	switch {
	case in.listErr != nil:
		lines = append(lines, common.Fit(st.Error.Render("reading the inbox: ")+st.Text(in.listErr.Error(), st.Error), in.width))
	case len(in.all) == 0:
		lines = append(lines, common.Fit(st.Muted.Render("  "+in.src.Empty(in)), in.width))
	case len(in.shown) == 0 && in.filter != "":
		lines = append(lines, common.Fit(st.Muted.Render("  no packet matches the filter · esc clears it"), in.width))
	case len(in.shown) == 0:
		lines = append(lines, common.Fit(st.Muted.Render("  no row matches the filters"), in.width))
	}
	for i := in.list.Offset; i < len(in.shown) && i < in.list.Offset+n; i++ {
		lines = append(lines, in.rowLine(in.shown[i], i == in.list.Cursor, cols, titleW))
	}
	for len(lines) < in.height-2 {
		lines = append(lines, strings.Repeat(" ", in.width))
	}
	lines = lines[:max(in.height-2, 0)]
	if in.height >= 2 {
		lines = append(lines, common.Fit(in.details(), in.width))
	}
	lines = append(lines, in.statusLine())
	return strings.Join(lines[:in.height], "\n")
}

// rowLine draws one row. The selected row is drawn plain in the selection
// style, so the highlight runs unbroken across its cells.
func (in *Inbox) rowLine(r *InboxRow, selected bool, cols []inboxCol, titleW int) string {
	st := in.st
	var b strings.Builder
	marker := "  "
	if selected {
		marker = "▸ "
	}
	b.WriteString(marker)
	for i, c := range cols {
		var text, word string
		w := c.width
		switch {
		case c.cell == nil && (!r.Loaded || r.Err != nil):
			// A row not read yet, or unreadable, has nothing in the columns
			// after the title: its name and why take them all.
			w = titleW
			for _, rest := range cols[i+1:] {
				w += rest.width + 1
			}
			if !r.Loaded {
				text, word = r.Name+" · reading…", "muted"
			} else {
				text, word = r.Name+": "+r.Err.Error(), "error"
			}
		case c.cell == nil:
			w = titleW
			switch {
			case !r.Loaded:
				text, word = r.Name+" · reading…", "muted"
			case r.Err != nil:
				text, word = r.Name+": "+r.Err.Error(), "error"
			default:
				text = r.Title
			}
		case !r.Loaded || r.Err != nil:
			// Nothing is known yet, or nothing could be read.
		default:
			text, word = c.cell(in, r)
		}
		cell := common.Fit(ui.SanitizeLine(text), w)
		if !selected && word != "" {
			style := st.Status(word)
			if word == "muted" {
				style = st.Muted
			}
			cell = style.Render(cell)
		}
		b.WriteString(cell + " ")
		if c.cell == nil && (!r.Loaded || r.Err != nil) {
			break
		}
	}
	line := common.Fit(b.String(), in.width)
	if selected {
		return st.Selection.Render(line)
	}
	return line
}

// details says everything about the selected packet on one line, so the
// columns a narrow terminal drops are still there.
func (in *Inbox) details() string {
	st := in.st
	r := in.Selected()
	if r == nil {
		return ""
	}
	if !r.Loaded {
		return st.Line(r.Path+" · reading…", st.Muted)
	}
	if r.Err != nil {
		return st.Line(r.Err.Error(), st.Error)
	}
	return in.src.Details(in, r)
}

// packetDetails is the folder inbox's line for a packet's row.
func (in *Inbox) packetDetails(r *InboxRow) string {
	st := in.st
	parts := []string{r.Path}
	head := "head " + common.OrDash(commitid.Short(r.Head))
	if r.Round > 0 && r.Rounds > 1 {
		head += fmt.Sprintf(" (round %d of %d seen)", r.Round, r.Rounds)
	}
	parts = append(parts, head, fmt.Sprintf("%s/%s", common.OrDash(r.Verdict), common.OrDash(r.Assessment)))
	parts = append(parts, fmt.Sprintf("%d/%d validated", r.Validated, r.Total))
	f := fmt.Sprintf("%d of %s open", r.Open, text.PluralOf(r.Findings, "finding", "findings"))
	if r.Stale > 0 {
		f += fmt.Sprintf(" (%d stale)", r.Stale)
	}
	parts = append(parts, f)
	if r.GateReady {
		parts = append(parts, "gate ready")
	} else {
		parts = append(parts, "gate: "+strings.Join(r.Failing, ", "))
	}
	switch {
	case r.Decided():
		parts = append(parts, fmt.Sprintf("%s for %s", r.Decision, commitid.Short(r.DecisionSHA)))
	case r.Decision != "":
		parts = append(parts, fmt.Sprintf("%s was for %s; the head is now %s", r.Decision, commitid.Short(r.DecisionSHA), common.OrDash(commitid.Short(r.Head))))
	}
	parts = append(parts, text.PluralOf(r.Errors, "error", "errors")+", "+text.PluralOf(r.Warnings, "warning", "warnings")+fmt.Sprintf(", %d info", r.Infos))
	return st.Line(strings.Join(parts, " · "), st.Muted)
}

func (in *Inbox) statusLine() string {
	st := in.st
	if in.editing {
		return common.Fit(in.input.View(), in.width)
	}
	left := st.StatusBar.Render(" " + in.src.Title() + " ")
	if len(in.shown) > 0 {
		left += " " + st.Base.Render(fmt.Sprintf("%d/%d", in.list.Cursor+1, len(in.shown)))
	}
	if in.filter != "" {
		left += " " + st.Text(fmt.Sprintf("filter %q · esc clears", in.filter), st.Accent)
	}
	right := st.Muted.Render(in.hint())
	if in.status != "" {
		right = st.Line(in.status, st.Accent)
	}
	return common.PadBetween(left, right, in.width)
}
