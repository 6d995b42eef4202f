package agentfmt

import (
	"strconv"
	"strings"
)

// The August 2026 evidence record: labelled lines (validation status,
// assessment, result, audit), an "Evidence [N/M validated]" line, and a
// table generated from the registry whose header starts Recipe | Status,
// with Command, Evidence (the log) and Note columns in any order.
var recordTableShape = Shape{
	ID:         "record-table",
	Kind:       KindRecord,
	ModelledOn: "ai-dynamo/dynamo#12568",
	Describe:   "an evidence record with a Recipe | Status | Command | Evidence | Note table and an \"Evidence [N/M validated]\" line",
	recognise: func(body string) (Result, bool) {
		r, ok := readTableRecord(body, 0)
		if !ok {
			return Result{}, false
		}
		return Result{Record: r}, true
	},
}

var (
	logPathRe = lazyRegexp(`validation/logs/[^\s` + "`" + `<>|)\]]+`)
	// evidenceHeadRe is the line that titles the table: "Evidence [4/4
	// validated]", as a heading, in bold, or plain.
	evidenceHeadRe = lazyRegexp(`(?i)^\s*(?:#{1,6}\s+)?(?:\*\*|__)?\s*evidence\s*(?:\*\*|__)?\s*\[\s*\d+\s*/\s*\d+\s+validated\s*\]`)
)

// readTableRecord reads a record whose checks are the first table with a
// Recipe | Status header; offset is the comment line before body's first.
func readTableRecord(body string, offset int) (*Record, bool) {
	ls := lines(body)
	fence := inFence(ls)
	r := &Record{}
	var cols map[string]int
	for i := 0; i < len(ls); i++ {
		if fence[i] {
			continue
		}
		cells, isRow := tableCells(ls[i])
		if !isRow {
			if cols != nil {
				break
			}
			continue
		}
		if cols == nil {
			if len(cells) >= 2 && strings.EqualFold(unquote(cells[0]), "recipe") && strings.EqualFold(unquote(cells[1]), "status") {
				cols = map[string]int{}
				for k, c := range cells {
					cols[strings.ToLower(unquote(c))] = k
				}
				if i+1 < len(ls) && delimiterRowRe().MatchString(ls[i+1]) {
					i++
				}
			}
			continue
		}
		cell := func(name string) string {
			if k, ok := cols[name]; ok && k < len(cells) {
				return cells[k]
			}
			return ""
		}
		c := Check{Number: len(r.Checks) + 1, Name: unquote(cell("recipe")), ResultText: unquote(cell("status")),
			Command: unescapeCell(unquote(cell("command"))), Description: unescapeCell(cell("note")), Line: offset + i + 1}
		c.Result = resultWord(c.ResultText)
		if logs := logPathRe().FindAllString(cell("evidence"), -1); len(logs) > 0 {
			c.Log = logs[len(logs)-1]
		}
		if code, ok := exitCodeOf(cell("exit") + " " + cell("exit code")); ok {
			c.ExitCode = &code
		}
		if c.Name != "" {
			r.Checks = append(r.Checks, c)
		}
	}
	if cols == nil {
		return nil, false
	}
	readLabels(r, body, offset)
	for i, l := range ls {
		if !fence[i] && evidenceHeadRe().MatchString(l) {
			addClaim(r, "heading", l, offset+i+1)
		}
	}
	sortClaims(r)
	return r, true
}

var (
	exitRe     = lazyRegexp(`(?i)\bexit(?:ed)?(?:\s*(?:code|status))?\s*[:=]?\s*(-?\d{1,3})\b`)
	bareExitRe = lazyRegexp(`^\s*(-?\d{1,3})\s*$`)
)

// exitCodeOf reads an exit status: "exit code 0", "exit 1", "(exit status: 2)",
// or a cell that is only a number.
func exitCodeOf(s string) (int, bool) {
	m := exitRe().FindStringSubmatch(s)
	if m == nil {
		m = bareExitRe().FindStringSubmatch(s)
	}
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}
