package agentfmt

import "strings"

// looksLikeAgentDocument says why a comment no shape matched still looks
// like something an agent posted for the packet: a <details> block, a
// heading an agent document has, or a count of validated checks. "" when
// it looks like an ordinary comment.
func looksLikeAgentDocument(body string) string {
	ls := lines(body)
	fence := inFence(ls)
	for i, l := range ls {
		if fence[i] {
			continue
		}
		if detailsOpenRe().MatchString(l) {
			return "a <details> block"
		}
		if lvl, text := heading(l); lvl > 0 {
			low := strings.ToLower(cleanInline(text))
			for _, h := range agentHeadings {
				if strings.Contains(low, h) {
					return "a heading \"" + cleanInline(text) + "\""
				}
			}
		}
		if countRe().MatchString(l) {
			return "a count of validated checks (\"" + strings.TrimSpace(countRe().FindString(l)) + "\")"
		}
	}
	return ""
}

// agentHeadings are words of the headings agent documents carry.
var agentHeadings = []string{"assessment", "verdict", "findings", "commands and results", "evidence", "validation", "check "}
