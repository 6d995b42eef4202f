package github

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/vetter-dev/vetter/packet"
)

// This file rebuilds a packet from the comments the agent posted: each
// document is a comment that names it, and the evidence record stands in for
// the registry. Everything here is a pure function of comment text.

var (
	docNameRe   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._/-]*\.md$`)
	summaryRe   = regexp.MustCompile(`(?i)^(?:<details[^>]*>\s*)?<summary[^>]*>(.*?)</summary>\s*$`)
	headingDocs = []struct{ prefix, doc string }{
		{"# plan", "plan.md"},
		{"# change", "change.md"},
		{"# validation", "change-validation.md"},
		{"# review", "review.md"},
	}
)

// DocFromComment says which packet document a comment is, and its text:
// a first non-blank line that names the document (plan.md, **review.md**,
// ### plan.md, `change.md`, <details><summary>change.md</summary>) is taken
// off and the rest is the document; a first line that is the document's own
// title (# Plan — …, # Change — …, # Validation — …, # Review …) keeps the
// whole comment. ok is false for any other comment.
func DocFromComment(body string) (name, text string, ok bool) {
	body = strings.ReplaceAll(body, "\r\n", "\n")
	lines := strings.Split(body, "\n")
	i := firstNonBlank(lines, 0)
	if i < 0 {
		return "", "", false
	}
	first := strings.TrimSpace(lines[i])
	details := false
	// "<details>" alone on its line, the summary on the next.
	if strings.EqualFold(first, "<details>") || strings.HasPrefix(strings.ToLower(first), "<details ") && strings.HasSuffix(first, ">") && !strings.Contains(strings.ToLower(first), "<summary") {
		details = true
		if i = firstNonBlank(lines, i+1); i < 0 {
			return "", "", false
		}
		first = strings.TrimSpace(lines[i])
	}
	if m := summaryRe.FindStringSubmatch(first); m != nil {
		details = true
		first = m[1]
	}
	if n := undecorate(first); docNameRe.MatchString(n) && !strings.Contains(n, "..") {
		rest := strings.Join(lines[i+1:], "\n")
		if details {
			rest = strings.TrimRight(rest, " \n")
			rest = strings.TrimSuffix(rest, "</details>")
		}
		return n, strings.Trim(rest, "\n") + "\n", true
	}
	low := strings.ToLower(first)
	for _, h := range headingDocs {
		if low == h.prefix || strings.HasPrefix(low, h.prefix+" ") || strings.HasPrefix(low, h.prefix+":") {
			return h.doc, strings.Trim(body, "\n") + "\n", true
		}
	}
	return "", "", false
}

// undecorate takes markdown emphasis, heading marks and code quotes off a
// line that names a file.
func undecorate(s string) string {
	s = strings.TrimSpace(strings.TrimLeft(s, "#"))
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

func firstNonBlank(lines []string, from int) int {
	for i := from; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" {
			return i
		}
	}
	return -1
}

// DocComment is a comment that carries a document.
type DocComment struct {
	Name      string
	Text      string
	CommentID int64
	Author    string
}

// Documents picks each document's latest comment (comments in the order
// they were made; the body as last edited). trusted says whose comments may
// carry documents: a drive-by account must not replace the agent's review.
func Documents(comments []IssueComment, trusted func(IssueComment) bool) map[string]DocComment {
	out := map[string]DocComment{}
	for _, c := range comments {
		if trusted != nil && !trusted(c) {
			continue
		}
		if name, text, ok := DocFromComment(c.Body); ok {
			out[name] = DocComment{Name: name, Text: text, CommentID: c.ID, Author: c.User.Login}
		}
	}
	return out
}

// IsEvidenceRecord reports whether a comment is the agent's evidence record:
// it says it is generated from the registry and holds the evidence table.
func IsEvidenceRecord(body string) bool {
	low := strings.ToLower(body)
	return strings.Contains(low, "generated from validation/registry.jsonl") && len(evidenceRows(body)) > 0
}

// RegistryFromRecord turns the evidence record's table (Recipe | Status |
// Command | Evidence | Note) into validation/registry.jsonl lines, one run a
// row, the logs it names kept as the runs' logs.
func RegistryFromRecord(body string) []byte {
	var b strings.Builder
	for i, row := range evidenceRows(body) {
		run := map[string]any{"seq": i + 1, "recipe": row.recipe, "status": strings.ToLower(row.status), "source": "evidence-record"}
		if row.command != "" {
			run["command"] = row.command
		}
		if row.log != "" {
			run["log"] = row.log
		}
		if row.note != "" {
			run["note"] = row.note
		}
		line, _ := json.Marshal(run)
		b.Write(line)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

type evidenceRow struct{ recipe, status, command, log, note string }

var logPathRe = regexp.MustCompile(`validation/logs/[^\s` + "`" + `<>|)\]]+`)

// evidenceRows reads the first markdown table whose header starts with
// Recipe | Status.
func evidenceRows(body string) []evidenceRow {
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	var out []evidenceRow
	var cols map[string]int
	for i := 0; i < len(lines); i++ {
		cells, ok := tableCells(lines[i])
		if !ok {
			if cols != nil && len(out) > 0 {
				break
			}
			continue
		}
		if cols == nil {
			if len(cells) >= 2 && strings.EqualFold(cells[0], "recipe") && strings.EqualFold(cells[1], "status") {
				cols = map[string]int{}
				for k, c := range cells {
					cols[strings.ToLower(c)] = k
				}
				i++ // the |---| line
			}
			continue
		}
		cell := func(name string) string {
			if k, ok := cols[name]; ok && k < len(cells) {
				return cells[k]
			}
			return ""
		}
		r := evidenceRow{recipe: unquote(cell("recipe")), status: unquote(cell("status")),
			command: unescapeCell(unquote(cell("command"))), note: unescapeCell(cell("note"))}
		if logs := logPathRe.FindAllString(cell("evidence"), -1); len(logs) > 0 {
			r.log = logs[len(logs)-1]
		}
		if r.recipe != "" {
			out = append(out, r)
		}
	}
	return out
}

// tableCells splits a markdown table row on unescaped pipes.
func tableCells(line string) ([]string, bool) {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "|") {
		return nil, false
	}
	t = strings.TrimPrefix(t, "|")
	t = strings.TrimSuffix(t, "|")
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
	cells = append(cells, strings.TrimSpace(cur.String()))
	return cells, true
}

func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && strings.HasPrefix(s, "`") && strings.HasSuffix(s, "`") {
		s = strings.Trim(s, "`")
	}
	return strings.TrimSpace(s)
}

func unescapeCell(s string) string {
	s = strings.ReplaceAll(s, `\|`, "|")
	s = strings.ReplaceAll(s, "&lt;", "<")
	s = strings.ReplaceAll(s, "<br>", " ")
	return strings.TrimSpace(s)
}

// OkToTest is one "/ok to test <sha>" comment.
type OkToTest struct {
	SHA string
	By  string
	At  string
	// Counts is false for an account GitHub does not mark as OWNER, MEMBER
	// or COLLABORATOR: anyone may type the words, only those may vet.
	Counts bool
}

var okToTestRe = regexp.MustCompile(`(?mi)^\s*/ok to test\s+([0-9a-f]{7,40})\b`)

// OkToTests finds every /ok to test comment, in order.
func OkToTests(comments []IssueComment) []OkToTest {
	var out []OkToTest
	for _, c := range comments {
		for _, m := range okToTestRe.FindAllStringSubmatch(c.Body, -1) {
			out = append(out, OkToTest{SHA: strings.ToLower(m[1]), By: c.User.Login, At: c.CreatedAt.UTC().Format("2006-01-02T15:04:05Z"),
				Counts: packet.OkToTestCounts(c.AuthorAssociation)})
		}
	}
	return out
}
