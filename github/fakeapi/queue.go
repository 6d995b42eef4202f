package fakeapi

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
)

// CopyPRBotMarker is the sentence copy-pr-bot posts on a pull request from
// outside the trusted set.
const CopyPRBotMarker = "This pull request requires additional validation before any workflows can run on NVIDIA's runners."

// PRSpec describes a pull request of the queue's fixture.
type PRSpec struct {
	Number  int
	Title   string
	Author  string
	Draft   bool
	Created string // RFC 3339
	// Packet posts plan, change (naming the head), validation (pass), a
	// review (sound) and an evidence record (3/3) as comments; Findings
	// gives the review that many findings (0: none, so the gate can be
	// ready).
	Packet   bool
	Findings int
	// Marker posts copy-pr-bot's sentence.
	Marker bool
	// OkToTest are "/ok to test" comments: SHA (short or full) and the
	// author's association (MEMBER, COLLABORATOR, CONTRIBUTOR...).
	OkToTest []OkSpec
	// CIFailure makes one check run fail.
	CIFailure bool
	// Commits is how many commits the PR has; the head is the last. 1 when 0.
	Commits int
}

// OkSpec is one "/ok to test" comment.
type OkSpec struct {
	SHA         string // "head", "head~1"... or a literal SHA; cut to Short characters when set
	Short       int
	By          string
	Association string
}

// SHAOf is the commit SHA of commit i (0-based) of pull request n.
func SHAOf(n, i int) string {
	sum := sha1.Sum(fmt.Appendf(nil, "pull request %d, commit %d", n, i))
	return hex.EncodeToString(sum[:])
}

// NewPR builds a fixture pull request from a spec, in GitHub's shapes.
func NewPR(owner, repo string, sp PRSpec) *Fixture {
	commits := max(sp.Commits, 1)
	head := SHAOf(sp.Number, commits-1)
	created := sp.Created
	if created == "" {
		created = "2026-11-30T09:00:00Z"
	}
	author := sp.Author
	if author == "" {
		author = "relay-agent[bot]"
	}
	f := &Fixture{Owner: owner, Repo: repo, Number: sp.Number}
	f.Pull = map[string]any{
		"number": sp.Number, "state": "open", "title": sp.Title, "draft": sp.Draft,
		"html_url":   fmt.Sprintf("https://github.com/%s/%s/pull/%d", owner, repo, sp.Number),
		"user":       map[string]any{"login": author, "type": "Bot"},
		"body":       "Opened by the relay agent.",
		"created_at": created, "updated_at": created,
		"head": map[string]any{"sha": head, "ref": fmt.Sprintf("fix/item-%d", sp.Number)},
		"base": map[string]any{"sha": strings.Repeat("0", 40), "ref": "main"},
	}
	for i := range commits {
		f.Commits = append(f.Commits, map[string]any{"sha": SHAOf(sp.Number, i),
			"commit": map[string]any{"message": fmt.Sprintf("item %d: step %d", sp.Number, i+1)}})
	}
	id := int64(sp.Number) * 1000
	add := func(user, assoc, body string) {
		id++
		f.Comments = append(f.Comments, map[string]any{
			"id": id, "node_id": fmt.Sprintf("IC_%d", id), "body": body,
			"user": map[string]any{"login": user}, "author_association": assoc,
			"created_at": created, "updated_at": created,
			"html_url": fmt.Sprintf("https://github.com/%s/%s/pull/%d#issuecomment-%d", owner, repo, sp.Number, id),
		})
	}
	if sp.Marker {
		add("copy-pr-bot[bot]", "NONE", CopyPRBotMarker+"\n\nContributors can view more details about this message here.")
	}
	if sp.Packet {
		key := fmt.Sprintf("ITEM-%d", sp.Number)
		add(author, "NONE", fmt.Sprintf("### plan.md\n\n# Plan — %s: %s\n\n## Validation\n\n```validation-recipes\n01-unit-tests\n02-lint\n03-race\n```\n", key, sp.Title))
		add(author, "NONE", fmt.Sprintf("change.md\n\n# Change — %s: %s\n\n## Commit\n\nOne commit:\n\n**`%s`** — `%s`\n\nPR URL: https://github.com/%s/%s/pull/%d\n",
			key, sp.Title, head, sp.Title, owner, repo, sp.Number))
		add(author, "NONE", fmt.Sprintf("**change-validation.md**\n\n# Validation — %s\n\n## Verdict: pass — the recipes are green at the head.\n", key))
		var rows strings.Builder
		for i := range sp.Findings {
			fmt.Fprintf(&rows, "| %d | `internal/item%d.go:%d` | minor | Finding %d of item %d. | none |\n", i+1, sp.Number, 10+i, i+1, sp.Number)
		}
		add(author, "NONE", fmt.Sprintf("review.md\n\n# Review — %s\n\n## Assessment: sound\n\n## Findings\n\n| # | file:line | Severity | Claim | Evidence |\n|---|---|---|---|---|\n%s", key, rows.String()))
		add(author, "NONE", "Automated evidence record — validation complete\n\nEvidence [3/3 validated]\n\nGenerated from validation/registry.jsonl — do not edit by hand.\n\n"+
			"| Recipe | Status | Command | Evidence | Note |\n|---|---|---|---|---|\n"+
			"| 01-unit-tests | validated | `go test ./...` | `validation/logs/a.log` | |\n"+
			"| 02-lint | validated | `go vet ./...` | `validation/logs/b.log` | |\n"+
			"| 03-race | validated | `go test -race ./...` | `validation/logs/c.log` | |\n")
	}
	for _, ok := range sp.OkToTest {
		sha := ok.SHA
		switch {
		case sha == "head":
			sha = head
		case strings.HasPrefix(sha, "head~"):
			var back int
			fmt.Sscanf(sha, "head~%d", &back)
			sha = SHAOf(sp.Number, commits-1-back)
		}
		if ok.Short > 0 && ok.Short < len(sha) {
			sha = sha[:ok.Short]
		}
		add(ok.By, ok.Association, "/ok to test "+sha)
	}
	runs := []map[string]any{
		{"id": 1, "name": "build", "status": "completed", "conclusion": "success", "head_sha": head},
		{"id": 2, "name": "unit-tests", "status": "completed", "conclusion": "success", "head_sha": head},
	}
	if sp.CIFailure {
		runs = append(runs, map[string]any{"id": 3, "name": "lint", "status": "completed", "conclusion": "failure", "head_sha": head})
	}
	f.CheckRuns, _ = json.Marshal(map[string]any{"total_count": len(runs), "check_runs": runs})
	f.Status = json.RawMessage(`{"state": "success", "statuses": []}`)
	f.PRDiff = fmt.Sprintf("diff --git a/internal/item%d.go b/internal/item%d.go\n--- a/internal/item%d.go\n+++ b/internal/item%d.go\n@@ -1 +1 @@\n-old\n+new\n",
		sp.Number, sp.Number, sp.Number, sp.Number)
	f.Compare = json.RawMessage(`{"commits": [], "files": []}`)
	return f
}

// QueueSpecs is the queue fixture beside pull request 42 (the fixture of
// github/testdata/pr): one pull request per case the queue must tell apart.
func QueueSpecs() []PRSpec {
	return []PRSpec{
		// A packet whose gate is ready, awaiting: the first row.
		{Number: 43, Title: "cache: bound the entry count", Packet: true, Marker: true, Created: "2026-11-29T10:00:00Z"},
		// No packet; an outside account's /ok to test on the head does not count.
		{Number: 44, Title: "docs: fix a typo", Author: "outside-dev", Marker: true, Created: "2026-11-28T10:00:00Z",
			OkToTest: []OkSpec{{SHA: "head", By: "drive-by", Association: "CONTRIBUTOR"}}},
		// A collaborator's /ok to test with a short SHA of the head: vetted.
		{Number: 45, Title: "http: close idle connections", Packet: true, Findings: 1, Marker: true, Created: "2026-11-27T10:00:00Z",
			OkToTest: []OkSpec{{SHA: "head", Short: 7, By: "kim-collab", Association: "COLLABORATOR"}}},
		// A draft.
		{Number: 46, Title: "wip: new scheduler", Draft: true, Marker: true, Created: "2026-11-26T10:00:00Z"},
		// A packet with an untriaged finding and failing CI, awaiting; two
		// commits since a member's /ok to test.
		{Number: 47, Title: "parser: reject empty keys", Packet: true, Findings: 2, Marker: true, CIFailure: true, Commits: 3, Created: "2026-11-25T10:00:00Z",
			OkToTest: []OkSpec{{SHA: "head~2", By: "dana-maintainer", Association: "MEMBER"}}},
	}
}

// AddQueue adds the queue fixture's pull requests to the server.
func (s *Server) AddQueue(specs []PRSpec) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sp := range specs {
		s.More = append(s.More, NewPR(s.F.Owner, s.F.Repo, sp))
	}
}

// BenchSpecs is n open pull requests for the queue's benchmark, numbered
// from 100, each with a packet, copy-pr-bot's marker and a finding; every
// third has a member's /ok to test on an older commit, every fifth fails CI.
func BenchSpecs(n int) []PRSpec {
	out := make([]PRSpec, n)
	for i := range out {
		sp := PRSpec{Number: 100 + i, Title: fmt.Sprintf("item %d: a change to vet", 100+i), Packet: true, Findings: 1 + i%3,
			Marker: true, CIFailure: i%5 == 0, Commits: 2, Created: fmt.Sprintf("2026-11-%02dT10:00:00Z", 1+i%28)}
		if i%3 == 0 {
			sp.OkToTest = []OkSpec{{SHA: "head~1", By: "dana-maintainer", Association: "MEMBER"}}
		}
		out[i] = sp
	}
	return out
}
