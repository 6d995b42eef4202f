package agentfmt

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Record is the agent's evidence record, whatever its shape: what it says
// about itself (verdict, assessment, its own N/M) and the checks it shows.
type Record struct {
	// Summary is the text of the <summary> that names the record, if any.
	Summary string
	// Status is the "Validation status" line's value ("complete").
	Status Labelled
	// Verdict is read from the "Validation result" line: pass, fail or
	// blocked, or "" when the line names none of them.
	Verdict Labelled
	// Assessment is the AI review assessment: sound or needs_changes.
	Assessment Labelled
	// Audit is the evidence audit line, as written.
	Audit Labelled
	// Claims are every N/M the record states about itself (the evidence
	// summary, a heading's brackets, the audit line), in order.
	Claims []Claim
	// Checks are what the record shows: one a table row or a Check section.
	Checks []Check
}

// Labelled is one labelled line of the record.
type Labelled struct {
	// Value is the normalised word ("pass", "sound"), "" when none was read.
	Value string
	// Label is the label as written ("AI review assessment (advisory, not an
	// approval)"); Text the rest of the line and its continuation.
	Label string
	Text  string
	// Line is the 1-based line of the comment, 0 when absent.
	Line int
}

// Claim is an N/M the record states.
type Claim struct {
	Where     string // "evidence summary", "heading", "evidence audit"
	Validated int
	Total     int
	Line      int
}

// Check is one command the record shows.
type Check struct {
	// Number is the check's number (a Check section's N, a table row's
	// position).
	Number int
	// Name is the recipe (table) or "check-N" (Check sections).
	Name string
	// Description is the one-line description, or the table's note.
	Description string
	// Result is the normalised outcome: validated, failing, dispositioned,
	// superseded, n/a, or what the record wrote when it is none of them.
	Result string
	// ResultText is the result as written ("Passed").
	ResultText string
	// ExitCode is the command's exit status when the record gives one.
	ExitCode *int
	// Command is the exact command, only when the record shows it.
	Command string
	// CommandHidden: the record says the command is not shown (it held
	// private run data). Command is then always "".
	CommandHidden bool
	// Log is the log path a table row names.
	Log  string
	Line int
}

// CommandShown is what to print for the command: the command, "not shown"
// for a hidden one, "" when the record gives none.
func (c Check) CommandShown() string {
	if c.CommandHidden {
		return "not shown"
	}
	return c.Command
}

// Counts is N/M as the checks show it: checks validated or dispositioned,
// of all checks.
func (r *Record) Counts() (validated, total int) {
	for _, c := range r.Checks {
		if c.Result == "validated" || c.Result == "dispositioned" {
			validated++
		}
	}
	return validated, len(r.Checks)
}

// Mismatch is the first claim whose N/M is not what the checks show.
func (r *Record) Mismatch() (Claim, bool) {
	v, t := r.Counts()
	for _, c := range r.Claims {
		if c.Validated != v || c.Total != t {
			return c, true
		}
	}
	return Claim{}, false
}

// MismatchText says the mismatch in a sentence, or "".
func (r *Record) MismatchText() string {
	c, ok := r.Mismatch()
	if !ok {
		return ""
	}
	v, t := r.Counts()
	return fmt.Sprintf("the record's %s says %d/%d validated; its checks show %d/%d", c.Where, c.Validated, c.Total, v, t)
}

var (
	// countRe is an evidence-like count: "[5/5 validated]", "3/3 validated".
	countRe = lazyRegexp(`(?i)\[?\s*(\d{1,4})\s*/\s*(\d{1,4})\s+validated\s*\]?`)
	// labelRe finds the record's labelled lines, bold or not, as a list
	// item or not: the label is what the line is, the words after it vary.
	labelRe          = lazyRegexp(`(?i)^\s*(?:[-*+]\s+)?(?:\*\*|__)?\s*((?:validation\s+status)|(?:validation\s+result)|(?:evidence\s+summary)|(?:evidence\s+audit)|(?:(?:ai|automated)\s+review\s+assessment))\b`)
	verdictWordRe    = lazyRegexp(`(?i)\b(pass|passed|passing|fail|failed|failing|blocked)\b`)
	assessmentWordRe = lazyRegexp(`(?i)\b(sound|needs[ _-]changes|unsound)\b`)
)

// readLabels reads the labelled lines of a record body (a paragraph's
// continuation lines belong to its label: a label's colon may wrap), and
// the claims in them. offset is the comment line of body's first line.
func readLabels(r *Record, body string, offset int) {
	ls := lines(body)
	fence := inFence(ls)
	for i := 0; i < len(ls); i++ {
		if fence[i] {
			continue
		}
		m := labelRe().FindStringSubmatchIndex(ls[i])
		if m == nil {
			continue
		}
		label := strings.ToLower(strings.Join(strings.Fields(ls[i][m[2]:m[3]]), " "))
		text := ls[i][m[3]:]
		j := i + 1
		for ; j < len(ls) && !fence[j] && strings.TrimSpace(ls[j]) != "" && !labelRe().MatchString(ls[j]) && !isBlockStart(ls[j]); j++ {
			text += " " + strings.TrimSpace(ls[j])
		}
		suffix, value := splitLabel(text)
		l := Labelled{Label: cleanInline(ls[i][m[2]:m[3]] + " " + suffix), Text: value, Line: offset + i + 1}
		switch {
		case label == "validation status":
			l.Value = strings.ToLower(firstWord(value))
			r.Status = first(r.Status, l)
		case label == "validation result":
			l.Value = verdictWord(value)
			r.Verdict = first(r.Verdict, l)
		case label == "evidence summary":
			addClaim(r, "evidence summary", value, l.Line)
		case label == "evidence audit":
			r.Audit = first(r.Audit, l)
			addClaim(r, "evidence audit", value, l.Line)
		default:
			l.Value = assessmentWord(value)
			r.Assessment = first(r.Assessment, l)
		}
		i = j - 1
	}
}

// sortClaims puts a record's claims in the order they are written.
func sortClaims(r *Record) {
	sort.SliceStable(r.Claims, func(a, b int) bool { return r.Claims[a].Line < r.Claims[b].Line })
}

// isBlockStart is a line that begins something else: a heading, a table, a
// fence, a details block.
func isBlockStart(l string) bool {
	t := strings.TrimSpace(l)
	if lvl, _ := heading(l); lvl > 0 {
		return true
	}
	return strings.HasPrefix(t, "|") || fenceMark(t) != "" || strings.HasPrefix(strings.ToLower(t), "<details") || strings.HasPrefix(strings.ToLower(t), "</details")
}

// first keeps the first labelled line of a kind: a later one quoting it
// (a round comment repeating "Validation status") does not replace it.
func first(have, l Labelled) Labelled {
	if have.Line != 0 {
		return have
	}
	return l
}

// splitLabel separates what follows a label into the label's own suffix
// (a parenthesis, "(advisory, not an approval)") and the value after the
// first colon outside parentheses; emphasis around either is dropped.
func splitLabel(text string) (suffix, value string) {
	depth := 0
	for i, c := range text {
		switch c {
		case '(', '[':
			depth++
		case ')', ']':
			if depth > 0 {
				depth--
			}
		case ':':
			if depth == 0 {
				return strings.TrimSpace(text[:i]), strings.TrimSpace(strings.Trim(strings.TrimSpace(text[i+1:]), "*_ "))
			}
		}
	}
	// No colon: "Validation result — pass".
	return "", strings.TrimSpace(strings.TrimLeft(strings.Trim(strings.TrimSpace(text), "*_ "), "—–-: "))
}

func addClaim(r *Record, where, text string, line int) {
	if m := countRe().FindStringSubmatch(text); m != nil {
		v, _ := strconv.Atoi(m[1])
		t, _ := strconv.Atoi(m[2])
		r.Claims = append(r.Claims, Claim{Where: where, Validated: v, Total: t, Line: line})
	}
}

func firstWord(s string) string {
	f := strings.FieldsFunc(s, func(r rune) bool {
		return !(r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// verdictWord is pass, fail or blocked: the first such word in the value.
func verdictWord(s string) string {
	m := verdictWordRe().FindString(s)
	switch strings.ToLower(m) {
	case "pass", "passed", "passing":
		return "pass"
	case "fail", "failed", "failing":
		return "fail"
	case "blocked":
		return "blocked"
	}
	return ""
}

// assessmentWord is sound or needs_changes.
func assessmentWord(s string) string {
	m := strings.ToLower(assessmentWordRe().FindString(s))
	switch {
	case m == "sound":
		return "sound"
	case m != "":
		return "needs_changes"
	}
	return ""
}

// resultWord normalises a check's or a row's outcome to the registry's
// status words; anything else is kept as written, lower case.
func resultWord(s string) string {
	w := strings.ToLower(strings.Trim(strings.TrimSpace(s), "*_`.:"))
	switch w {
	case "passed", "pass", "ok", "success", "succeeded", "validated", "green", "✅":
		return "validated"
	case "failed", "fail", "failure", "failing", "error", "red", "❌":
		return "failing"
	case "dispositioned", "waived":
		return "dispositioned"
	case "superseded":
		return "superseded"
	case "n/a", "skipped", "not applicable":
		return "n/a"
	}
	return w
}
