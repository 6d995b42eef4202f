package compare

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/report"
)

// How much of a comparison the text and markdown forms show; JSON has it all.
const (
	compareContext     = 3   // unchanged lines kept around a change in a diff of diffs
	compareHunkLines   = 60  // lines shown of one added or removed hunk
	compareDocChanges  = 25  // word changes listed per document
	compareChangeRunes = 160 // runes shown of one side of a word change
)

// Title is the comparison's headline: "Since the last round (old → new)".
func (c Comparison) Title() string {
	return fmt.Sprintf("Since the last round (%s → %s)", shaOrUnknown(c.Old.HeadSHA), shaOrUnknown(c.New.HeadSHA))
}

func shaOrUnknown(s string) string {
	if s == "" {
		return "head unknown"
	}
	return commitid.Long(s)
}

func gateText(r RoundState) string {
	if r.GateReady {
		return "ready"
	}
	if len(r.GateFailing) == 0 {
		return "not ready"
	}
	return "not ready (" + strings.Join(r.GateFailing, ", ") + ")"
}

// joinCounts lists the non-zero counts, "nothing" when all are zero.
func joinCounts(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if !strings.HasPrefix(p, "0 ") {
			keep = append(keep, p)
		}
	}
	if len(keep) == 0 {
		return "no change"
	}
	return strings.Join(keep, ", ")
}

func (d Interdiff) headline() string {
	return joinCounts(text.PluralOf(d.Added, "file added", "files added"), text.PluralOf(d.Removed, "file removed", "files removed"),
		text.PluralOf(d.Altered, "file altered", "files altered"), text.PluralOf(d.Unchanged, "file unchanged", "files unchanged"))
}

func (f FileDelta) hunkCounts() string {
	var a, r, al, u int
	for _, h := range f.Hunks {
		switch h.Status {
		case DeltaAdded:
			a++
		case DeltaRemoved:
			r++
		case DeltaAltered:
			al++
		default:
			u++
		}
	}
	s := joinCounts(fmt.Sprintf("%d added", a), fmt.Sprintf("%d removed", r), fmt.Sprintf("%d altered", al), fmt.Sprintf("%d unchanged", u))
	if f.HeaderChanged {
		s += "; header changed"
	}
	return s
}

func (f FileDelta) name() string {
	if f.OldPath != "" {
		return f.OldPath + " → " + f.Path
	}
	return f.Path
}

func (f FileDelta) stats() string {
	switch f.Status {
	case DeltaAdded:
		return fmt.Sprintf("+%d −%d", f.NewInsertions, f.NewDeletions)
	case DeltaRemoved:
		return fmt.Sprintf("+%d −%d", f.OldInsertions, f.OldDeletions)
	}
	return fmt.Sprintf("+%d −%d → +%d −%d", f.OldInsertions, f.OldDeletions, f.NewInsertions, f.NewDeletions)
}

func (h HunkDelta) headerMarkdown() string {
	if h.Status == DeltaAltered && h.Old != h.New {
		return codeSpan(h.Old) + " → " + codeSpan(h.New)
	}
	return codeSpan(h.header())
}

func (h HunkDelta) header() string {
	switch h.Status {
	case DeltaAdded:
		return h.New
	case DeltaRemoved:
		return h.Old
	}
	if h.Old == h.New {
		return h.New
	}
	return h.Old + " → " + h.New
}

// shownLines is a hunk delta's lines as the text and markdown forms show
// them: an altered hunk's unchanged lines beyond a few around each change
// fold into one "…" line, and a long added or removed hunk is cut.
func (h HunkDelta) shownLines() []InterLine {
	if h.Status != DeltaAltered {
		if len(h.Lines) <= compareHunkLines {
			return h.Lines
		}
		out := append([]InterLine{}, h.Lines[:compareHunkLines]...)
		return append(out, InterLine{Op: "…", Text: fmt.Sprintf("%d more lines", len(h.Lines)-compareHunkLines)})
	}
	keep := make([]bool, len(h.Lines))
	for i, l := range h.Lines {
		if l.Op == " " {
			continue
		}
		for k := max(0, i-compareContext); k <= min(len(h.Lines)-1, i+compareContext); k++ {
			keep[k] = true
		}
	}
	var out []InterLine
	for i := 0; i < len(h.Lines); {
		if keep[i] {
			out = append(out, h.Lines[i])
			i++
			continue
		}
		j := i
		for j < len(h.Lines) && !keep[j] {
			j++
		}
		out = append(out, InterLine{Op: "…", Text: text.PluralOf(j-i, "unchanged line", "unchanged lines")})
		i = j
	}
	return out
}

func (r RunDelta) exit() string { return exitText(r.ExitCode) }

func exitText(p *int) string {
	if p == nil {
		return "no exit"
	}
	return fmt.Sprintf("exit %d", *p)
}

func (r RecipeDelta) text() string {
	switch r.Change {
	case RecipeAdded:
		return fmt.Sprintf("%s: new row, %s", r.Recipe, r.NewStatus)
	case RecipeRemoved:
		return fmt.Sprintf("%s: row gone (was %s)", r.Recipe, r.OldStatus)
	case RecipeRerun:
		return fmt.Sprintf("%s: still %s, now from seq %d (was seq %d)", r.Recipe, r.NewStatus, r.NewSeq, r.OldSeq)
	case RecipeNewlyValidated:
		return fmt.Sprintf("%s: newly %s (was %s)", r.Recipe, r.NewStatus, r.OldStatus)
	case RecipeNewlyFailing:
		return fmt.Sprintf("%s: newly failing (was %s)", r.Recipe, r.OldStatus)
	}
	return fmt.Sprintf("%s: %s → %s", r.Recipe, r.OldStatus, r.NewStatus)
}

func (r RegistryDelta) headline() string {
	return joinCounts(text.PluralOf(len(r.Added), "run added", "runs added"), text.PluralOf(len(r.Removed), "run removed", "runs removed"),
		text.PluralOf(len(r.Changed), "run changed", "runs changed"))
}

func (f FindingsDelta) headline() string {
	return joinCounts(fmt.Sprintf("%d new", len(f.New)), fmt.Sprintf("%d resolved", len(f.Resolved)),
		fmt.Sprintf("%d changed", len(f.Changed)), fmt.Sprintf("%d unchanged", len(f.Unchanged)))
}

func (c Comparison) docsHeadline() string {
	var a, r, ch int
	for _, d := range c.Documents {
		switch d.Status {
		case DocAdded:
			a++
		case DocRemoved:
			r++
		default:
			ch++
		}
	}
	return joinCounts(fmt.Sprintf("%d added", a), fmt.Sprintf("%d removed", r), fmt.Sprintf("%d changed", ch),
		fmt.Sprintf("%d unchanged", c.DocumentsUnchanged))
}

func (w WordChange) place(path string) string {
	if w.EndLine > w.Line {
		return fmt.Sprintf("%s:%d-%d", path, w.Line, w.EndLine)
	}
	return fmt.Sprintf("%s:%d", path, w.Line)
}

func triageText(d FindingDelta) string {
	if d.Triage == "" {
		return "—"
	}
	s := d.Triage
	if d.TriageStale {
		s += " (stale)"
	}
	return s
}

// WriteText writes the comparison for a person at a terminal. It is plain
// text: the caller neutralises control characters before printing.
func (c Comparison) WriteText(w io.Writer) {
	fmt.Fprintln(w, c.Title())
	if c.New.ID != "" || c.New.Title != "" {
		fmt.Fprintf(w, "  %s  %s\n", text.OrDash(c.New.ID), text.OneLine(c.New.Title))
	}
	fmt.Fprintf(w, "  old  %s\n  new  %s\n\n", c.Old.Path, c.New.Path)

	rows := [][3]string{
		{"head", shaOrUnknown(c.Old.HeadSHA), shaOrUnknown(c.New.HeadSHA)},
		{"verdict", text.OrDash(c.Old.Verdict), text.OrDash(c.New.Verdict)},
		{"assessment", text.OrDash(c.Old.Assessment), text.OrDash(c.New.Assessment)},
		{"evidence", fmt.Sprintf("%d/%d validated", c.Old.Validated, c.Old.Total), fmt.Sprintf("%d/%d validated", c.New.Validated, c.New.Total)},
		{"findings", fmt.Sprint(c.Old.Findings), fmt.Sprint(c.New.Findings)},
		{"gate", gateText(c.Old), gateText(c.New)},
	}
	width := len("before")
	for _, r := range rows {
		width = max(width, len([]rune(r[1])))
	}
	fmt.Fprintf(w, "  %-11s %-*s  %s\n", "", width, "before", "after")
	for _, r := range rows {
		mark := " "
		if r[1] != r[2] {
			mark = "*" // the eye goes to what changed
		}
		fmt.Fprintf(w, "%s %-11s %-*s  %s\n", mark, r[0], width, r[1], r[2])
	}
	if c.Head.Note != "" {
		fmt.Fprintf(w, "\n  %s.\n", upperFirst(c.Head.Note))
	}

	fmt.Fprintf(w, "\nChange: %s (+%d −%d → +%d −%d)\n", c.Change.headline(),
		c.Change.Old.Insertions, c.Change.Old.Deletions, c.Change.New.Insertions, c.Change.New.Deletions)
	for _, f := range c.Change.Files {
		if f.Status == DeltaUnchanged {
			continue
		}
		detail := f.stats()
		if f.Status == DeltaAltered {
			detail = f.hunkCounts() + "; " + detail
		}
		fmt.Fprintf(w, "  %-9s %s  (%s)\n", f.Status, f.name(), detail)
		for _, h := range f.Hunks {
			if h.Status == DeltaUnchanged {
				continue
			}
			fmt.Fprintf(w, "    %s hunk %s  %s\n", h.Status, h.header(), h.Section)
			for _, l := range h.shownLines() {
				if l.Op == "…" {
					fmt.Fprintf(w, "      … %s\n", l.Text)
					continue
				}
				fmt.Fprintf(w, "      %s%s\n", l.Op, l.Text)
			}
		}
	}

	fmt.Fprintf(w, "\nDocuments: %s\n", c.docsHeadline())
	for _, d := range c.Documents {
		switch d.Status {
		case DocAdded:
			fmt.Fprintf(w, "  added    %s (%d lines)\n", d.Path, d.NewLines)
		case DocRemoved:
			fmt.Fprintf(w, "  removed  %s (%d lines)\n", d.Path, d.OldLines)
		default:
			if d.WhitespaceOnly {
				fmt.Fprintf(w, "  changed  %s: white space only\n", d.Path)
				continue
			}
			fmt.Fprintf(w, "  changed  %s: %s\n", d.Path, text.PluralOf(len(d.Changes), "change", "changes"))
			for i, ch := range d.Changes {
				if i == compareDocChanges {
					fmt.Fprintf(w, "    … and %d more\n", len(d.Changes)-i)
					break
				}
				fmt.Fprintf(w, "    %s\n", ch.place(d.Path))
				if ch.Removed != "" {
					fmt.Fprintf(w, "      - %s\n", text.Clip(ch.Removed, compareChangeRunes))
				}
				if ch.Added != "" {
					fmt.Fprintf(w, "      + %s\n", text.Clip(ch.Added, compareChangeRunes))
				}
			}
		}
	}

	fmt.Fprintf(w, "\nRegistry: %s\n", c.Registry.headline())
	for _, r := range c.Registry.Added {
		fmt.Fprintf(w, "  added    seq %d %s %s, %s  %s\n", r.Seq, r.Recipe, text.OrDash(r.Status), r.exit(), r.Log)
	}
	for _, r := range c.Registry.Removed {
		fmt.Fprintf(w, "  removed  seq %d %s %s, %s  %s\n", r.Seq, r.Recipe, text.OrDash(r.Status), r.exit(), r.Log)
	}
	for _, r := range c.Registry.Changed {
		fmt.Fprintf(w, "  changed  seq %d %s %s, %s → %s, %s\n", r.Seq, r.Recipe, text.OrDash(r.OldStatus), exitText(r.OldExitCode), text.OrDash(r.Status), r.exit())
	}
	for _, r := range c.Registry.Recipes {
		fmt.Fprintf(w, "  recipe   %s\n", r.text())
	}

	fmt.Fprintf(w, "\nFindings: %s\n", c.Findings.headline())
	list := func(kind string, ds []FindingDelta) {
		for _, d := range ds {
			sev := d.Severity
			if d.OldSeverity != "" {
				sev = d.OldSeverity + "→" + d.Severity
			}
			fmt.Fprintf(w, "  %-9s #%-3d %-8s triage before: %-10s %s\n", kind, d.Number, sev, triageText(d), d.Location)
			fmt.Fprintf(w, "            %s\n", text.Clip(text.OneLine(d.Claim), 100))
			for _, ch := range d.Changes {
				if ch.Removed != "" {
					fmt.Fprintf(w, "            %s - %s\n", ch.Field, text.Clip(ch.Removed, compareChangeRunes))
				}
				if ch.Added != "" {
					fmt.Fprintf(w, "            %s + %s\n", ch.Field, text.Clip(ch.Added, compareChangeRunes))
				}
			}
		}
	}
	list("new", c.Findings.New)
	list("resolved", c.Findings.Resolved)
	list("changed", c.Findings.Changed)
	if n := len(c.Findings.Unchanged); n > 0 {
		fmt.Fprintf(w, "  unchanged %s\n", findingNumbers(c.Findings.Unchanged))
	}
}

func findingNumbers(ds []FindingDelta) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = fmt.Sprintf("#%d", d.Number)
	}
	return strings.Join(parts, ", ")
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// codeSpan wraps s in a markdown code span long enough that no backtick run
// inside it closes the span early.
func codeSpan(s string) string {
	s = text.OneLine(s)
	if s == "" {
		return "` `"
	}
	run, longest := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	tick := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return tick + s + tick
}

// cellCode is codeSpan for a table cell, where a pipe must be escaped even
// inside code.
func cellCode(s string) string {
	return strings.ReplaceAll(codeSpan(s), "|", `\|`)
}

// fenceFor returns a code fence longer than any backtick run at the start of
// a line of the block, so the block cannot close it.
func fenceFor(lines []string) string {
	longest := 0
	for _, l := range lines {
		l = strings.TrimLeft(l, " +-")
		n := len(l) - len(strings.TrimLeft(l, "`"))
		longest = max(longest, n)
	}
	return strings.Repeat("`", max(3, longest+1))
}

// WriteMarkdown writes the comparison as a pull-request comment.
func (c Comparison) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "### %s\n\n", c.Title())
	if c.New.ID != "" || c.New.Title != "" {
		fmt.Fprintf(w, "**%s** — %s\n\n", report.MdCell(text.OrDash(c.New.ID)), report.MdCell(c.New.Title))
	}
	fmt.Fprintf(w, "| | Before | After |\n|---|---|---|\n")
	row := func(name, a, b string) {
		if a != b {
			b = "**" + b + "**"
		}
		fmt.Fprintf(w, "| %s | %s | %s |\n", name, a, b)
	}
	row("Head", "`"+report.MdCell(shaOrUnknown(c.Old.HeadSHA))+"`", "`"+report.MdCell(shaOrUnknown(c.New.HeadSHA))+"`")
	row("Verdict", report.MdCell(text.OrDash(c.Old.Verdict)), report.MdCell(text.OrDash(c.New.Verdict)))
	row("Assessment", report.MdCell(text.OrDash(c.Old.Assessment)), report.MdCell(text.OrDash(c.New.Assessment)))
	row("Evidence", fmt.Sprintf("%d/%d validated", c.Old.Validated, c.Old.Total), fmt.Sprintf("%d/%d validated", c.New.Validated, c.New.Total))
	row("Findings", fmt.Sprint(c.Old.Findings), fmt.Sprint(c.New.Findings))
	row("Gate", report.MdCell(gateText(c.Old)), report.MdCell(gateText(c.New)))
	if c.Head.Note != "" {
		fmt.Fprintf(w, "\n> %s.\n", report.MdCell(upperFirst(c.Head.Note)))
	}

	fmt.Fprintf(w, "\n#### The change: %s\n\n", c.Change.headline())
	fmt.Fprintf(w, "Before: %d files, +%d −%d. After: %d files, +%d −%d.\n", c.Change.Old.Files, c.Change.Old.Insertions,
		c.Change.Old.Deletions, c.Change.New.Files, c.Change.New.Insertions, c.Change.New.Deletions)
	var unchanged []string
	var changed []FileDelta
	for _, f := range c.Change.Files {
		if f.Status == DeltaUnchanged {
			unchanged = append(unchanged, cellCode(f.Path))
		} else {
			changed = append(changed, f)
		}
	}
	if len(changed) > 0 {
		fmt.Fprintf(w, "\n| File | Since | Hunks | Lines |\n|---|---|---|---|\n")
		for _, f := range changed {
			hunks := "—"
			if f.Status == DeltaAltered {
				hunks = f.hunkCounts()
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s |\n", cellCode(f.name()), f.Status, hunks, f.stats())
		}
	}
	if len(unchanged) > 0 {
		fmt.Fprintf(w, "\nUnchanged: %s.\n", strings.Join(unchanged, ", "))
	}
	for _, f := range changed {
		for _, h := range f.Hunks {
			if h.Status == DeltaUnchanged {
				continue
			}
			fmt.Fprintf(w, "\n%s — hunk %s: %s", codeSpan(f.Path), h.Status, h.headerMarkdown())
			if h.Section != "" {
				fmt.Fprintf(w, " in %s", codeSpan(h.Section))
			}
			fmt.Fprintf(w, "\n\n")
			shown := h.shownLines()
			texts := make([]string, len(shown))
			for i, l := range shown {
				if l.Op == "…" {
					texts[i] = "  … " + l.Text
				} else {
					texts[i] = l.Op + l.Text
				}
			}
			fence := fenceFor(texts)
			fmt.Fprintf(w, "%sdiff\n%s\n%s\n", fence, strings.Join(texts, "\n"), fence)
		}
	}

	fmt.Fprintf(w, "\n#### Documents: %s\n", c.docsHeadline())
	for _, d := range c.Documents {
		switch d.Status {
		case DocAdded:
			fmt.Fprintf(w, "\n- %s added (%d lines)\n", codeSpan(d.Path), d.NewLines)
		case DocRemoved:
			fmt.Fprintf(w, "\n- %s removed (%d lines)\n", codeSpan(d.Path), d.OldLines)
		default:
			if d.WhitespaceOnly {
				fmt.Fprintf(w, "\n%s — white space only\n", codeSpan(d.Path))
				continue
			}
			fmt.Fprintf(w, "\n%s — %s\n\n", codeSpan(d.Path), text.PluralOf(len(d.Changes), "change", "changes"))
			for i, ch := range d.Changes {
				if i == compareDocChanges {
					fmt.Fprintf(w, "- … and %d more\n", len(d.Changes)-i)
					break
				}
				fmt.Fprintf(w, "- %s %s\n", codeSpan(ch.place(d.Path)), wordChangeMarkdown(ch))
			}
		}
	}

	fmt.Fprintf(w, "\n#### Registry: %s\n\n", c.Registry.headline())
	for _, r := range c.Registry.Added {
		fmt.Fprintf(w, "- added: seq %d %s **%s**, %s — %s\n", r.Seq, codeSpan(r.Recipe), report.MdCell(text.OrDash(r.Status)), r.exit(), codeSpan(text.OrDash(r.Log)))
	}
	for _, r := range c.Registry.Removed {
		fmt.Fprintf(w, "- removed: seq %d %s %s, %s — %s\n", r.Seq, codeSpan(r.Recipe), report.MdCell(text.OrDash(r.Status)), r.exit(), codeSpan(text.OrDash(r.Log)))
	}
	for _, r := range c.Registry.Changed {
		fmt.Fprintf(w, "- changed: seq %d %s %s, %s → **%s**, %s\n", r.Seq, codeSpan(r.Recipe), report.MdCell(text.OrDash(r.OldStatus)), exitText(r.OldExitCode), report.MdCell(text.OrDash(r.Status)), r.exit())
	}
	for _, r := range c.Registry.Recipes {
		fmt.Fprintf(w, "- recipe %s\n", report.MdCell(r.text()))
	}

	fmt.Fprintf(w, "\n#### Findings: %s\n", c.Findings.headline())
	var rows []struct {
		kind string
		d    FindingDelta
	}
	for _, g := range []struct {
		kind string
		ds   []FindingDelta
	}{{"new", c.Findings.New}, {"resolved", c.Findings.Resolved}, {"changed", c.Findings.Changed}} {
		for _, d := range g.ds {
			rows = append(rows, struct {
				kind string
				d    FindingDelta
			}{g.kind, d})
		}
	}
	slices.SortStableFunc(rows, func(a, b struct {
		kind string
		d    FindingDelta
	}) int {
		return packet.CompareFindingIDs(a.d.ID, b.d.ID)
	})
	if len(rows) > 0 {
		fmt.Fprintf(w, "\n| # | Since | Severity | Location | Triage before | Claim |\n|---|---|---|---|---|---|\n")
		for _, r := range rows {
			sev := report.MdCell(r.d.Severity)
			if r.d.OldSeverity != "" {
				sev = report.MdCell(r.d.OldSeverity) + " → " + sev
			}
			loc := cellCode(r.d.Location)
			if r.d.OldLocation != "" {
				loc = cellCode(r.d.OldLocation) + " → " + loc
			}
			fmt.Fprintf(w, "| %d | %s | %s | %s | %s | %s |\n", r.d.Number, r.kind, sev, loc, report.MdCell(triageText(r.d)), report.MdCell(text.Clip(r.d.Claim, 160)))
		}
	}
	for _, d := range c.Findings.Changed {
		if len(d.Changes) == 0 {
			continue
		}
		fmt.Fprintf(w, "\nFinding %d, what changed:\n\n", d.Number)
		for _, ch := range d.Changes {
			fmt.Fprintf(w, "- %s: %s\n", ch.Field, wordChangeMarkdown(ch))
		}
	}
	if len(c.Findings.Unchanged) > 0 {
		fmt.Fprintf(w, "\nUnchanged: %s; their triage carries over.\n", findingNumbers(c.Findings.Unchanged))
	}
}

// wordChangeMarkdown shows a word change as struck-out old words and new ones.
func wordChangeMarkdown(ch WordChange) string {
	removed := "~~" + codeSpan(text.Clip(ch.Removed, compareChangeRunes)) + "~~"
	added := codeSpan(text.Clip(ch.Added, compareChangeRunes))
	switch {
	case ch.Added == "":
		return "removed " + removed
	case ch.Removed == "":
		return "added " + added
	}
	return removed + " → " + added
}
