package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
)

// GitHubReview is the body of a pull-request review
// (POST /repos/{owner}/{repo}/pulls/{n}/reviews).
type GitHubReview struct {
	CommitID string                `json:"commit_id,omitempty"`
	Event    string                `json:"event"`
	Body     string                `json:"body"`
	Comments []GitHubReviewComment `json:"comments"`
}

// GitHubReviewComment is one inline comment, on the new side of the diff.
type GitHubReviewComment struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Side      string `json:"side"`
	StartLine int    `json:"start_line,omitempty"`
	StartSide string `json:"start_side,omitempty"`
	Body      string `json:"body"`
}

// GitHubReview builds the review: REQUEST_CHANGES when a blocker or major
// finding is accepted (and not stale), else COMMENT; an inline comment for
// each finding not dismissed whose location is a line inside a hunk of the
// diff (added or context: GitHub accepts a comment on either, and a
// finding about unchanged code beside the change is still about it); the
// decision, the gate and every other finding in the body. The commit is the
// head SHA, so the review lands on exactly what was vetted.
func BuildGitHubReview(p *packet.Packet) GitHubReview {
	r := GitHubReview{Event: "COMMENT", Comments: []GitHubReviewComment{}}
	if sha := p.DiffSHA(); commitid.Valid(sha) {
		r.CommitID = sha
	}
	es := exportFindings(p)
	var rest, dismissed []exported
	for _, e := range es {
		if e.f.Source != "" {
			// Another reviewer's thread is already on the PR; it is not
			// posted back as vetter's.
			continue
		}
		if e.state == packet.TriageAccepted && !e.stale && packet.SeverityRank(e.f.Severity) <= 1 {
			r.Event = "REQUEST_CHANGES"
		}
		switch {
		case e.state == packet.TriageDismissed:
			dismissed = append(dismissed, e)
		case inHunk(p, e.loc):
			r.Comments = append(r.Comments, reviewComment(p, e))
		default:
			rest = append(rest, e)
		}
	}

	r.Body = reviewBody(p, es, r, rest, dismissed, len(rest), len(dismissed))
	// GitHub refuses a body over 65,536 characters: the lists are cut,
	// the dismissed first, and the body says how many it left out.
	for keepRest, keepDis := len(rest), len(dismissed); len(r.Body) > GitHubBodyLimit && (keepRest > 0 || keepDis > 0); {
		if keepDis > 0 {
			keepDis /= 2
		} else {
			keepRest /= 2
		}
		r.Body = reviewBody(p, es, r, rest, dismissed, keepRest, keepDis)
	}
	if len(r.Body) > GitHubBodyLimit {
		r.Body = cutBody(r.Body)
	}
	for i := range r.Comments {
		if len(r.Comments[i].Body) > GitHubBodyLimit {
			r.Comments[i].Body = cutBody(r.Comments[i].Body)
		}
	}
	return r
}

// GitHubBodyLimit is the most characters GitHub takes in a review's or a
// comment's body. Bytes are counted, never fewer than characters.
const GitHubBodyLimit = 65536

// cutBody cuts a body to the limit at a line, saying where the rest is.
func cutBody(s string) string {
	const tail = "\n\n_… cut at GitHub's 65,536-character limit; `vetter export --format markdown` has all of it._\n"
	s = s[:GitHubBodyLimit-len(tail)]
	if i := strings.LastIndexByte(s, '\n'); i > 0 {
		s = s[:i]
	}
	return strings.ToValidUTF8(s, "") + tail
}

// reviewBody is the review's body with the first keepRest findings outside
// the diff and the first keepDis dismissed ones listed.
func reviewBody(p *packet.Packet, es []exported, r GitHubReview, rest, dismissed []exported, keepRest, keepDis int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### vetter review — %s\n\n", MdCell(exportTitle(p)))
	decisionMarkdown(p, &b)
	g := review.Gate(p)
	if g.Ready {
		b.WriteString("**Gate:** ready.\n\n")
	} else {
		fmt.Fprintf(&b, "**Gate:** not ready — %s.\n\n", strings.Join(review.FailingChecks(g), ", "))
	}
	fmt.Fprintf(&b, "%d findings (%s): %d inline", len(es), triageCounts(es), len(r.Comments))
	fmt.Fprintf(&b, ", %d below, %d dismissed.\n", len(rest), len(dismissed))
	if len(rest) > 0 {
		b.WriteString("\n#### Outside the diff\n\n")
		for _, e := range rest[:keepRest] {
			fmt.Fprintf(&b, "- **%s:** %s (`%s`, %s)", conventionalLabel(e.f.Severity), MdCell(text.OneLine(e.f.Claim)), MdCell(e.f.Location), MdCell(e.f.ID))
			if t := e.triageSentence(); t != "" {
				fmt.Fprintf(&b, "\n  _Triage: %s_", MdCell(t))
			}
			b.WriteString("\n")
		}
		if n := len(rest) - keepRest; n > 0 {
			fmt.Fprintf(&b, "- _… and %s more, left out to stay under GitHub's 65,536-character limit (`vetter export --format markdown` lists them)._\n", text.PluralOf(n, "finding", "findings"))
		}
	}
	if len(dismissed) > 0 {
		b.WriteString("\n#### Dismissed\n\n")
		for _, e := range dismissed[:keepDis] {
			fmt.Fprintf(&b, "- %s (%s, `%s`): %s\n", MdCell(e.f.ID), MdCell(e.f.Severity), MdCell(e.f.Location), MdCell(e.triageSentence()))
		}
		if n := len(dismissed) - keepDis; n > 0 {
			fmt.Fprintf(&b, "- _… and %s more dismissed, left out to stay under GitHub's 65,536-character limit._\n", text.PluralOf(n, "finding", "findings"))
		}
	}
	return b.String()
}

// inHunk reports whether a diff citation sits on a line GitHub takes an
// inline comment on: an added or context line of a hunk (the new side,
// RIGHT; a citation names new-side lines, so never a removed one).
// Anything else would make GitHub refuse the whole review.
func inHunk(p *packet.Packet, c *packet.Citation) bool {
	l := diffLine(p, c)
	return l != nil && l.Kind != packet.LineRemoved
}

// reviewComment is the inline comment of a finding on a line of a hunk; a
// range whose end is in the same hunk becomes a multi-line comment.
func reviewComment(p *packet.Packet, e exported) GitHubReviewComment {
	c := e.loc
	rc := GitHubReviewComment{Path: c.Target, Line: c.Line, Side: "RIGHT"}
	if c.EndLine > c.Line {
		if fi, hi, _, in := p.Diff.Locate(c.Target, c.EndLine); in && fi == c.DiffFile && hi == c.DiffHunk {
			rc.StartLine, rc.StartSide, rc.Line = c.Line, "RIGHT", c.EndLine
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s:** %s\n\n", conventionalLabel(e.f.Severity), MdCell(text.OneLine(e.f.Claim)))
	if ev := text.OneLine(e.f.Evidence); ev != "" {
		fmt.Fprintf(&b, "<details><summary>Evidence</summary>\n\n%s\n\n</details>\n\n", MdCell(ev))
	}
	fmt.Fprintf(&b, "<sub>%s · %s", MdCell(e.f.ID), MdCell(e.f.Severity))
	if t := e.triageSentence(); t != "" {
		fmt.Fprintf(&b, " · %s", MdCell(t))
	}
	b.WriteString("</sub>")
	rc.Body = b.String()
	return rc
}

// ExportGitHubReview writes the review as indented JSON, ready for
// `gh api ... --input`.
func ExportGitHubReview(p *packet.Packet, w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(BuildGitHubReview(p)); err != nil {
		return fmt.Errorf("writing the GitHub review: %w", err)
	}
	return nil
}
