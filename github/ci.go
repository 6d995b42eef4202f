package github

import (
	"context"
	"fmt"
	"net/url"

	"github.com/vetter-dev/vetter/packet"
)

// ciOf is the head's CI as the gate reads it: its check runs and its commit
// statuses (the older API many bots and Jenkins still use) counted together,
// one per name, the required ones marked when branch protection was read.
func ciOf(d *Data) packet.OriginCI {
	return packet.NewOriginCI(ciChecks(d.CheckRuns, d.Statuses), d.Required, d.RequiredKnown)
}

// ciChecks turns both APIs' answers into one list of checks.
func ciChecks(runs []CheckRun, statuses []Status) []packet.CICheck {
	var out []packet.CICheck
	for _, r := range runs {
		out = append(out, packet.CICheck{Name: r.Name, Kind: packet.CIKindCheckRun, State: runState(r)})
	}
	for _, s := range statuses {
		out = append(out, packet.CICheck{Name: s.Context, Kind: packet.CIKindStatus, State: statusState(s.State)})
	}
	return out
}

// runState is a check run's state: not completed is pending, else its
// conclusion (docs.github.com/rest/checks/runs).
func runState(r CheckRun) string {
	if r.Status != "" && r.Status != "completed" {
		return packet.CIPending
	}
	switch r.Conclusion {
	case "success":
		return packet.CISuccess
	case "failure", "timed_out", "action_required", "startup_failure":
		return packet.CIFailure
	case "skipped":
		return packet.CISkipped
	case "":
		return packet.CIPending
	}
	return packet.CIOther // neutral, cancelled, stale
}

// statusState is a commit status's state (docs.github.com/rest/commits/statuses):
// error counts as a failure.
func statusState(s string) string {
	switch s {
	case "success":
		return packet.CISuccess
	case "failure", "error":
		return packet.CIFailure
	case "pending":
		return packet.CIPending
	}
	return packet.CIOther
}

// requiredChecks reads the checks the base branch's protection requires
// (docs.github.com/rest/branches/branch-protection, "Get status checks
// protection"). Reading it needs more than read access; when the token
// cannot, or the branch is not protected, it answers nothing known, and the
// gate then counts every failing check.
func requiredChecks(ctx context.Context, c *Client, repo, branch string) ([]string, bool) {
	if branch == "" {
		return nil, false
	}
	var rs struct {
		Contexts []string `json:"contexts"`
		Checks   []struct {
			Context string `json:"context"`
		} `json:"checks"`
	}
	path := fmt.Sprintf("%s/branches/%s/protection/required_status_checks", repo, url.PathEscape(branch))
	if err := c.getJSON(ctx, path, "the required checks of "+branch, &rs); err != nil {
		return nil, false
	}
	out := append([]string{}, rs.Contexts...)
	for _, ch := range rs.Checks {
		out = append(out, ch.Context)
	}
	return out, true
}
