// Package rules is what vetter knows of GitHub's own rules without talking
// to it: whose /ok to test lets CI run, and the gh command lines a person
// pastes to post a decision or a review. It is a leaf under github so that
// the workbench and the commands can print those lines without taking in
// the API client.
package rules

import (
	"strconv"
	"strings"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/internal/prref"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
)

// OkToTestCounts says whether a /ok to test from an account with this
// author association vets: anyone may type the words, only an owner, a
// member or a collaborator may let CI run.
func OkToTestCounts(association string) bool {
	switch strings.ToUpper(association) {
	case "OWNER", "MEMBER", "COLLABORATOR":
		return true
	}
	return false
}

// OkToTestLines are what a maintainer posts once the change may run on CI:
// the "/ok to test <sha>" comment and, when the pull request is on GitHub,
// the gh command that posts it. It is empty when the head SHA is not a valid
// commit id.
func OkToTestLines(p *packet.Packet) []string {
	sha := p.DecisionSHA()
	if !commitid.Valid(sha) {
		return nil
	}
	lines := []string{review.OkToTestBody(sha)}
	if pr, ok := review.PullRequest(p); ok {
		lines = append(lines, "gh pr comment "+ShellQuote(pr.URL())+" --body "+ShellQuote(review.OkToTestBody(sha)))
	}
	return lines
}

// ReviewCommand is the gh command that posts the review read from input
// ("-" for standard input); ok is false when the change's address (PRURL:
// the origin's own for a packet read from a pull request) is not a GitHub
// pull request.
func ReviewCommand(p *packet.Packet, input string) (cmd string, ok bool) {
	pr, ok := prref.ParseURL(review.PRURL(p))
	if !ok {
		return "", false
	}
	cmd = reviewCommand(pr.Owner, pr.Repo, strconv.Itoa(pr.Number), ShellQuote(input))
	if pr.Host != "github.com" {
		// An enterprise host: gh sends the request there with GH_HOST.
		cmd = "GH_HOST=" + ShellQuote(pr.Host) + " " + cmd
	}
	return cmd, true
}

// ReviewCommandPattern is ReviewCommand's shape with OWNER, REPO and N left
// for the person to fill in, for a change that names no pull request; input
// is put as given.
func ReviewCommandPattern(input string) string {
	return reviewCommand("OWNER", "REPO", "N", input)
}

func reviewCommand(owner, repo, number, input string) string {
	return "gh api repos/" + owner + "/" + repo + "/pulls/" + number + "/reviews --input " + input
}

// ShellQuote quotes s for a POSIX shell: as is when it holds only characters
// no shell treats specially, else in single quotes.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
