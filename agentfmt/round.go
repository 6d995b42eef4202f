package agentfmt

import (
	"strconv"
	"strings"
)

// Round is a comment saying the agent went round again: a repair or
// babysitter round, or review findings addressed in a commit.
type Round struct {
	// Kind is the word before "round" (repair, babysitter …), lower case,
	// or "addressed".
	Kind string
	// N is the round's number; 0 when the comment gives none.
	N int
	// SHA is the commit the round pushed, Was the head before it, when the
	// comment names them (as written: short or full).
	SHA string
	Was string
	// Text is the comment's first line.
	Text string
}

// "Repair round 1", "Babysitter round 2 — pushed eececad6a (was ff62a64a)".
var roundShape = Shape{
	ID:         "round",
	Kind:       KindRound,
	ModelledOn: "ai-dynamo/dynamo#14486",
	Describe:   "a first line \"<kind> round N\", with the commit pushed and the head before it when named",
	recognise: func(body string) (Result, bool) {
		line := firstLine(body)
		m := roundRe().FindStringSubmatch(line)
		if m == nil {
			return Result{}, false
		}
		n, _ := strconv.Atoi(m[2])
		r := &Round{Kind: strings.ToLower(m[1]), N: n, Text: line}
		r.SHA, r.Was = shasOf(line)
		return Result{Round: r}, true
	},
}

// "Addressed three review findings in `cd30ee4`".
var addressedShape = Shape{
	ID:         "addressed",
	Kind:       KindRound,
	ModelledOn: "ai-dynamo/dynamo#14453",
	Describe:   "a first line \"Addressed … in <sha>\"",
	recognise: func(body string) (Result, bool) {
		line := firstLine(body)
		m := addressedRe().FindStringSubmatch(line)
		if m == nil || !hasDigit(m[1]) {
			return Result{}, false
		}
		return Result{Round: &Round{Kind: "addressed", SHA: strings.ToLower(m[1]), Text: line}}, true
	},
}

var (
	roundRe     = lazyRegexp(`(?i)^[^A-Za-z0-9]*([a-z][a-z-]*)\s+round\s+#?(\d{1,4})\b`)
	addressedRe = lazyRegexp("(?i)^[^A-Za-z0-9]*addressed\\b.*?\\bin\\s+(?:commit\\s+)?`?([0-9a-f]{7,40})`?\\b")
	pushedRe    = lazyRegexp("(?i)\\bpushed\\s+(?:commit\\s+)?`?([0-9a-f]{7,40})\\b")
	wasRe       = lazyRegexp("(?i)\\bwas\\s+`?([0-9a-f]{7,40})\\b")
	hexRe       = lazyRegexp(`\b[0-9a-f]{7,40}\b`)
)

// shasOf reads the commit a round line says it pushed, and the one before.
func shasOf(line string) (sha, was string) {
	if m := pushedRe().FindStringSubmatch(line); m != nil && hasDigit(m[1]) {
		sha = strings.ToLower(m[1])
	}
	if m := wasRe().FindStringSubmatch(line); m != nil && hasDigit(m[1]) {
		was = strings.ToLower(m[1])
	}
	if sha == "" {
		for _, h := range hexRe().FindAllString(strings.ToLower(line), -1) {
			if hasDigit(h) && h != was {
				sha = h
				break
			}
		}
	}
	return sha, was
}

// hasDigit keeps words made of hex letters ("defaced") from being commits.
func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// firstLine is the comment's first non-blank line, trimmed, heading marks
// and emphasis off.
func firstLine(body string) string {
	ls := lines(body)
	i := firstNonBlank(ls, 0)
	if i < 0 {
		return ""
	}
	return strings.TrimSpace(strings.TrimLeft(cleanInline(ls[i]), "# "))
}
