package agentfmt

import (
	"regexp"
	"strings"
)

// review.md posted bare, neither named nor titled: an "Assessment:" heading
// and a findings heading in the comment itself.
var reviewPlainShape = Shape{
	ID:         "review-plain",
	Kind:       KindDocument,
	ModelledOn: "ai-dynamo/dynamo#14461",
	Describe:   "review.md posted bare: an \"Assessment:\" heading and a Findings heading",
	recognise: func(body string) (Result, bool) {
		if !hasAssessmentHeading(body) || !hasHeading(body, findingsHeadRe()) {
			return Result{}, false
		}
		return Result{Doc: trimmedDoc("review.md", body, 0)}, true
	},
}

var (
	assessmentHeadRe = lazyRegexp(`(?i)^assessment\s*:`)
	findingsHeadRe   = lazyRegexp(`(?i)\bfindings\b`)
)

func hasAssessmentHeading(body string) bool { return hasHeading(body, assessmentHeadRe()) }

// hasHeading reports whether a heading outside code matches re.
func hasHeading(body string, re *regexp.Regexp) bool {
	ls := lines(body)
	fence := inFence(ls)
	for i, l := range ls {
		if fence[i] {
			continue
		}
		if lvl, text := heading(l); lvl > 0 && re.MatchString(strings.TrimSpace(cleanInline(text))) {
			return true
		}
	}
	return false
}
