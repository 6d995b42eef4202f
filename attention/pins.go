package attention

// Impostor commits. A commit pushed to a fork can be addressed through the
// parent repository's name (owner/action@sha), so a pin that looks like
// the action's own may run a fork's code. Whether the commit belongs to
// the repository only GitHub can say: the check asks whether a branch or a
// tag of the named repository has it in its history, the method zizmor's
// impostor-commit audit uses (after Chainguard's clank). The scan itself
// never touches the network: it marks every newly pinned action as not
// checked (gha-pinned-unchecked), and CheckPins, given a checker, turns
// those marks into answers.

import (
	"context"
	"regexp"
	"strings"
	"sync"

	"github.com/vetter-dev/vetter/attention/rules"
	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/packet"
)

// CommitChecker asks the forge about a repository's commits.
type CommitChecker interface {
	// CommitInRepo reports whether commit sha is in the history of a
	// branch or a tag of owner/repo.
	CommitInRepo(ctx context.Context, owner, repo, sha string) (bool, error)
}

var pinRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`uses\s*:\s*["']?([\w.-]+)/([\w.-]+)(?:/[^@\s"']*)?@([0-9a-f]{40})\b`)
})

// CheckPins answers the not-checked pins in items: a commit that is not
// the repository's becomes a high gha-impostor-commit item; one that is
// is dropped, as there is nothing left to look at; one the checker could
// not answer keeps its item, which now says why. Each repository and
// commit is asked once. items is not changed.
func CheckPins(ctx context.Context, items []Item, c CommitChecker) []Item {
	if c == nil {
		return items
	}
	type answer struct {
		in  bool
		err error
	}
	asked := map[string]answer{}
	out := make([]Item, 0, len(items))
	for _, it := range items {
		if it.Rule != "gha-pinned-unchecked" {
			out = append(out, it)
			continue
		}
		m := pinRe().FindStringSubmatch(it.Text)
		if m == nil {
			out = append(out, it)
			continue
		}
		key := m[1] + "/" + m[2] + "@" + m[3]
		a, ok := asked[key]
		if !ok {
			a.in, a.err = c.CommitInRepo(ctx, m[1], m[2], m[3])
			asked[key] = a
		}
		switch {
		case a.err != nil:
			it.Title = "pins an action to a commit SHA (could not check it: " + firstLine(a.err.Error()) + ")"
			out = append(out, it)
		case a.in:
			// The commit is the action's own.
		default:
			r := rules.Must("gha-impostor-commit")
			it.Rule, it.Kind, it.Severity, it.Why = r.ID, r.Kind, r.Severity, r.Why
			it.Title = "pins " + m[1] + "/" + m[2] + " to " + commitid.Long(m[3]) + ", a commit that is not in " + m[1] + "/" + m[2]
			it.Key = strings.Replace(it.Key, "gha-pinned-unchecked|", "gha-impostor-commit|", 1)
			out = append(out, it)
		}
	}
	sortItems(out)
	return out
}

func firstLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	return s
}

// PinnedActions returns the actions d newly pins to a commit, once each:
// what a checker is asked about.
func PinnedActions(d *packet.Diff) []Pin {
	var out []Pin
	seen := map[string]bool{}
	for _, it := range Scan(d) {
		if it.Rule != "gha-pinned-unchecked" {
			continue
		}
		m := pinRe().FindStringSubmatch(it.Text)
		if m == nil || seen[m[1]+"/"+m[2]+"@"+m[3]] {
			continue
		}
		seen[m[1]+"/"+m[2]+"@"+m[3]] = true
		out = append(out, Pin{Owner: m[1], Repo: m[2], SHA: m[3]})
	}
	return out
}

// AskPins answers pins with c, at most limit of them (the rest are left
// out, and stay not checked); an error is kept with its pin.
func AskPins(ctx context.Context, pins []Pin, c CommitChecker, limit int) []Pin {
	if len(pins) > limit {
		pins = pins[:limit]
	}
	out := make([]Pin, 0, len(pins))
	for _, p := range pins {
		in, err := c.CommitInRepo(ctx, p.Owner, p.Repo, p.SHA)
		p.InRepo = in
		if err != nil {
			p.Error = firstLine(err.Error())
		}
		out = append(out, p)
	}
	return out
}
