package agentfmt

import (
	"strings"
)

// Status comments another bot posts beside the agent's: a first line that
// begins "nursery:".
var nurseryShape = Shape{
	ID:         "nursery-status",
	Kind:       KindStatus,
	ModelledOn: "ai-dynamo/dynamo#14453",
	Describe:   "a status line that begins \"nursery:\"",
	recognise: func(body string) (Result, bool) {
		line := firstLine(body)
		m := nurseryRe().FindStringSubmatch(line)
		if m == nil {
			return Result{}, false
		}
		return Result{Status: &Status{Source: "nursery", Text: strings.TrimSpace(m[1])}}, true
	},
}

var nurseryRe = lazyRegexp(`(?i)^\W*nursery\s*:\s*(.*)$`)
