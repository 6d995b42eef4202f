package github

import (
	"regexp"
	"strings"

	"github.com/vetter-dev/vetter/agentfmt"
	"github.com/vetter-dev/vetter/github/rules"
)

// This file rebuilds a packet from the comments the agent posted: each
// document is a comment that names it, and the evidence record stands in for
// the registry. Everything here is a pure function of comment text.

// DocFromComment says which packet document a comment is, and its text,
// in any of the shapes agentfmt knows (named by its first line or a details
// summary, titled by its heading, review.md inside a details block …).
// ok is false for any other comment.
func DocFromComment(body string) (name, text string, ok bool) {
	r := agentfmt.Recognise(body)
	if r.Kind != agentfmt.KindDocument || r.Doc == nil {
		return "", "", false
	}
	return r.Doc.Name, r.Doc.Text, true
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
				Counts: rules.OkToTestCounts(c.AuthorAssociation)})
		}
	}
	return out
}
