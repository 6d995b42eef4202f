package github

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/vetter-dev/vetter/internal/commitid"
)

// maxCompares caps the comparisons one commit costs: a repository with
// thousands of branches and tags would otherwise cost thousands of
// requests. Past the cap the answer is an error saying what was not asked.
const maxCompares = 40

// CommitInRepo reports whether commit sha is in the history of a branch or
// a tag of owner/repo, as the REST API answers it: first whether a branch or
// a tag points at it, then, for each, whether comparing it with the commit
// says the commit is behind it or identical. A commit GitHub knows only
// through a fork (an impostor commit, addressable through the parent's name)
// is in none. It is the attention scan's CommitChecker.
func (c *Client) CommitInRepo(ctx context.Context, owner, repo, sha string) (bool, error) {
	type ref struct {
		Name   string `json:"name"`
		Commit struct {
			SHA string `json:"sha"`
		} `json:"commit"`
	}
	base := "repos/" + url.PathEscape(owner) + "/" + url.PathEscape(repo)
	name := owner + "/" + repo
	branches, cutB, err := getAll[ref](ctx, c, base+"/branches", "the branches of "+name)
	if err != nil {
		return false, err
	}
	tags, cutT, err := getAll[ref](ctx, c, base+"/tags", "the tags of "+name)
	if err != nil {
		return false, err
	}
	refs := append(branches, tags...)
	for _, r := range refs {
		if commitid.Same(r.Commit.SHA, sha) {
			return true, nil
		}
	}
	for i, r := range refs {
		if i == maxCompares {
			return false, fmt.Errorf("%s is not in the first %d of %d branches and tags of %s; vetter did not ask about the rest", commitid.Long(sha), maxCompares, len(refs), name)
		}
		var cmp struct {
			Status string `json:"status"`
		}
		what := "the comparison of " + name + "'s " + r.Name + " with " + sha
		err := c.getJSON(ctx, base+"/compare/"+refPath(r.Name)+"..."+url.PathEscape(sha), what, &cmp)
		switch {
		case IsKind(err, KindNotFound):
			continue // no common history
		case err != nil:
			return false, err
		case cmp.Status == "behind" || cmp.Status == "identical":
			return true, nil
		}
	}
	if cut := cutB + cutT; cut != "" {
		// Not every branch or tag was listed: "no" would be a guess.
		return false, fmt.Errorf("%s is in none of the branches and tags listed, but not all were: %s", commitid.Long(sha), cut)
	}
	return false, nil
}

// refPath escapes a branch or tag name for a URL path, keeping its slashes.
func refPath(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}
