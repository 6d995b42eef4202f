package agentfmt

import (
	"fmt"
	"strconv"
	"strings"
)

// The September 2026 evidence record: no table. Usually inside a <details>
// block; labelled lines (validation status and result, evidence summary,
// evidence audit, the review assessment), a heading carrying the record's
// own "[N/M validated]", then one "Check N" section per recorded command:
// a one-line description, a Result line (Passed or Failed, with the exit
// code) and a Command label followed by a fenced block, or a sentence that
// the command is not shown because it held private run data.
var recordChecksShape = Shape{
	ID:         "record-checks",
	Kind:       KindRecord,
	ModelledOn: "ai-dynamo/dynamo#14453",
	Describe:   "an evidence record of \"Check N\" sections, each with a description, a Result line with the exit code, and a Command block or a sentence that it is not shown",
	recognise: func(body string) (Result, bool) {
		inner, offset, summary := body, 0, ""
		if d, ok := unwrapDetails(body); ok {
			inner, offset, summary = d.inner, d.offset, d.summary
		}
		r, ok := readCheckRecord(inner, offset)
		if !ok {
			return Result{}, false
		}
		r.Summary = summary
		return Result{Record: r}, true
	},
}

var (
	checkHeadRe   = lazyRegexp(`(?i)^check\s+#?(\d{1,4})\b\s*[:.—–-]?\s*(.*)$`)
	resultLabelRe = lazyRegexp(`(?i)^\s*(?:[-*+]\s+)?(?:\*\*|__)?\s*result\s*(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.*)$`)
	// cmdLabelRe is "Command:" or a bold "Command", never a sentence that
	// begins with the word.
	cmdLabelRe   = lazyRegexp(`(?i)^\s*(?:[-*+]\s+)?(?:(?:\*\*|__)\s*command\s*:?\s*(?:\*\*|__)\s*:?|command\s*:)\s*(.*)$`)
	inlineCodeRe = lazyRegexp("^`([^`]+)`")
	// hiddenRe is the sentence saying a command is withheld; what matters
	// is that it says so, not how.
	hiddenRe = lazyRegexp(`(?i)\b(not (?:shown|included|displayed|reproduced)|private|redacted|withheld|omitted|hidden)\b`)
	// countedHeadRe is any heading that carries an N/M ("Commands and
	// results [5/5 validated]").
	countedHeadRe = lazyRegexp(`(?i)\[\s*\d+\s*/\s*\d+\s+validated\s*\]|\b\d+\s*/\s*\d+\s+validated\b`)
)

// readCheckRecord reads the Check sections of body; ok is false unless at
// least one section has a Result line.
func readCheckRecord(body string, offset int) (*Record, bool) {
	ls := lines(body)
	fence := inFence(ls)
	r := &Record{}
	withResult := 0
	for i := 0; i < len(ls); i++ {
		if fence[i] {
			continue
		}
		lvl, text := heading(ls[i])
		if lvl == 0 {
			continue
		}
		if countedHeadRe().MatchString(text) {
			addClaim(r, "heading", text, offset+i+1)
			continue
		}
		m := checkHeadRe().FindStringSubmatch(cleanInline(text))
		if m == nil {
			continue
		}
		end := i + 1
		for end < len(ls) {
			if !fence[end] {
				if l, _ := heading(ls[end]); l > 0 && l <= lvl {
					break
				}
			}
			end++
		}
		c := readCheck(ls[i+1:end], fence[i+1:end], offset+i+1)
		c.Number, _ = strconv.Atoi(m[1])
		c.Name = fmt.Sprintf("check-%d", c.Number)
		if c.Description == "" {
			c.Description = strings.TrimSpace(m[2])
		}
		c.Line = offset + i + 1
		if c.ResultText != "" {
			withResult++
		}
		r.Checks = append(r.Checks, c)
		i = end - 1
	}
	if withResult == 0 {
		return nil, false
	}
	readLabels(r, body, offset)
	sortClaims(r)
	return r, true
}

// readCheck reads one section's lines (after its heading); base is the
// comment line of the heading.
func readCheck(ls []string, fence []bool, base int) Check {
	var c Check
	cmdLabel := false
	var prose []string
	for i := 0; i < len(ls); i++ {
		l := ls[i]
		if fence[i] {
			if cmdLabel && c.Command == "" && fenceMark(strings.TrimSpace(l)) != "" {
				j := i + 1
				for j < len(ls) && !(fence[j] && fenceMark(strings.TrimSpace(ls[j])) != "" && j > i) {
					j++
				}
				c.Command = strings.TrimSpace(strings.Join(ls[i+1:min(j, len(ls))], "\n"))
				cmdLabel = false
				i = j
			}
			continue
		}
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if m := resultLabelRe().FindStringSubmatch(l); m != nil && c.ResultText == "" {
			v := strings.TrimSpace(strings.Trim(m[1], "*_ "))
			c.ResultText = firstWord(v)
			c.Result = resultWord(c.ResultText)
			if code, ok := exitCodeOf(v); ok {
				c.ExitCode = &code
			}
			continue
		}
		if m := cmdLabelRe().FindStringSubmatch(l); m != nil && !cmdLabel && c.Command == "" {
			rest := strings.TrimSpace(m[1])
			if im := inlineCodeRe().FindStringSubmatch(rest); im != nil {
				c.Command = strings.TrimSpace(im[1])
			} else {
				cmdLabel = true
				if rest != "" {
					prose = append(prose, rest)
				}
			}
			continue
		}
		prose = append(prose, t)
	}
	if c.Command == "" {
		for _, p := range prose {
			if hiddenRe().MatchString(p) {
				c.CommandHidden = true
				break
			}
		}
	}
	// The description is the first line of prose that is not the
	// sentence about the command.
	for _, p := range prose {
		if c.CommandHidden && hiddenRe().MatchString(p) {
			continue
		}
		c.Description = cleanInline(p)
		break
	}
	return c
}
