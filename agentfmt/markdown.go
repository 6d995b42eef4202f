package agentfmt

import (
	"strings"
)

// The few pieces of markdown structure the shapes are made of. They read
// lines, not a document tree: a comment is recognised by where its details
// block, headings, tables and labelled lines are, and a line number must
// stay the comment's own.

// lines splits a normalised body; a trailing newline adds no line.
func lines(body string) []string {
	return strings.Split(strings.TrimSuffix(body, "\n"), "\n")
}

func firstNonBlank(ls []string, from int) int {
	for i := from; i < len(ls); i++ {
		if strings.TrimSpace(ls[i]) != "" {
			return i
		}
	}
	return -1
}

// inFence marks the lines that are inside a fenced code block, the fence
// lines included: a heading or a label there is code, not structure.
func inFence(ls []string) []bool {
	out := make([]bool, len(ls))
	open := ""
	for i, l := range ls {
		t := strings.TrimLeft(l, " ")
		if len(l)-len(t) > 3 {
			out[i] = open != ""
			continue
		}
		if open == "" {
			if f := fenceMark(t); f != "" {
				open = f
				out[i] = true
			}
			continue
		}
		out[i] = true
		if strings.HasPrefix(t, open) && strings.TrimSpace(strings.TrimLeft(t, open[:1])) == "" {
			open = ""
		}
	}
	return out
}

// fenceMark is the run of backticks or tildes opening a fence, or "".
func fenceMark(t string) string {
	for _, c := range []string{"`", "~"} {
		n := 0
		for n < len(t) && t[n] == c[0] {
			n++
		}
		if n >= 3 {
			if c == "`" && strings.Contains(t[n:], "`") {
				return ""
			}
			return t[:n]
		}
	}
	return ""
}

var headingRe = lazyRegexp(`^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$`)

// heading is a line's ATX heading level and text, or 0.
func heading(l string) (int, string) {
	m := headingRe().FindStringSubmatch(l)
	if m == nil {
		return 0, ""
	}
	return len(m[1]), m[2]
}

var (
	detailsOpenRe  = lazyRegexp(`(?i)^\s*<details(\s[^>]*)?>`)
	summaryRe      = lazyRegexp(`(?is)<summary[^>]*>(.*?)</summary>`)
	detailsCloseRe = lazyRegexp(`(?i)^\s*</details>\s*$`)
	tagRe          = lazyRegexp(`<[^>]*>`)
)

// details is a comment wrapped whole in a <details> block: its summary as
// text, what is inside, and how many lines of the comment come first.
type details struct {
	summary string
	inner   string
	offset  int
}

// unwrapDetails reads a comment whose first non-blank line opens a
// <details> block. The block ends at the comment's last </details> line (a
// nested block inside stays inside); a block never closed runs to the end.
func unwrapDetails(body string) (details, bool) {
	ls := lines(body)
	i := firstNonBlank(ls, 0)
	if i < 0 || !detailsOpenRe().MatchString(ls[i]) {
		return details{}, false
	}
	// The summary may share the opening line or follow it, over several lines.
	rest := strings.Join(ls[i:], "\n")
	loc := detailsOpenRe().FindStringIndex(rest)
	after := rest[loc[1]:]
	start := i + 1
	summary := ""
	if m := summaryRe().FindStringSubmatchIndex(after); m != nil && strings.TrimSpace(after[:m[0]]) == "" {
		summary = cleanInline(after[m[2]:m[3]])
		start = i + strings.Count(after[:m[1]], "\n") + 1
	} else if strings.TrimSpace(firstLineOf(after)) != "" {
		// Text right after <details> on its line belongs to the inside.
		start = i
		ls = append(append([]string{}, ls[:i]...), append([]string{firstLineOf(after)}, ls[i+1:]...)...)
	}
	end := len(ls)
	for j := len(ls) - 1; j >= start; j-- {
		if detailsCloseRe().MatchString(ls[j]) {
			end = j
			break
		}
		if strings.TrimSpace(ls[j]) != "" {
			break
		}
	}
	if start > end {
		start = end
	}
	return details{summary: summary, inner: strings.Join(ls[start:end], "\n") + "\n", offset: start}, true
}

func firstLineOf(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// cleanInline is a line of markdown or HTML as text: tags, emphasis marks
// and surrounding space taken off, runs of space made one.
func cleanInline(s string) string {
	s = tagRe().ReplaceAllString(s, "")
	s = strings.NewReplacer("**", "", "__", "", "&amp;", "&", "&lt;", "<", "&gt;", ">", "&nbsp;", " ").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// undecorate takes emphasis, heading marks and code quotes off a line that
// names something, and a trailing colon.
func undecorate(s string) string {
	s = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(s), "#"))
	for {
		t := strings.TrimSpace(s)
		for _, m := range []string{"**", "__", "`", "*", "_"} {
			if len(t) > 2*len(m) && strings.HasPrefix(t, m) && strings.HasSuffix(t, m) {
				t = t[len(m) : len(t)-len(m)]
			}
		}
		t = strings.TrimSuffix(strings.TrimSpace(t), ":")
		if t == s {
			return t
		}
		s = t
	}
}

// tableCells splits a markdown table row on unescaped pipes; ok is false
// for a line that is not a row.
func tableCells(line string) ([]string, bool) {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "|") {
		return nil, false
	}
	t = strings.TrimSuffix(strings.TrimPrefix(t, "|"), "|")
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(t); i++ {
		if t[i] == '\\' && i+1 < len(t) && t[i+1] == '|' {
			cur.WriteString(`\|`)
			i++
			continue
		}
		if t[i] == '|' {
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
			continue
		}
		cur.WriteByte(t[i])
	}
	return append(cells, strings.TrimSpace(cur.String())), true
}

var delimiterRowRe = lazyRegexp(`^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$`)

// unquote takes one pair of backticks off a cell.
func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && strings.HasPrefix(s, "`") && strings.HasSuffix(s, "`") {
		s = strings.Trim(s, "`")
	}
	return strings.TrimSpace(s)
}

// unescapeCell is a cell's text as written before it was escaped for a table.
func unescapeCell(s string) string {
	s = strings.ReplaceAll(s, `\|`, "|")
	s = strings.ReplaceAll(s, "&lt;", "<")
	s = strings.ReplaceAll(s, "&gt;", ">")
	s = strings.ReplaceAll(s, "&amp;", "&")
	s = strings.ReplaceAll(s, "<br>", " ")
	return strings.TrimSpace(s)
}
