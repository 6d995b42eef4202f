package packet

import (
	"fmt"
	"strings"

	"github.com/vetter-dev/vetter/internal/text"
)

// CheckCI is the gate check of a pull request's CI on the head that would
// run: a failing required check holds the gate.
const CheckCI = "ci"

// States of one CI check, whichever API reported it.
const (
	CISuccess = "success"
	CIFailure = "failure" // failure, error, timed out, action required, startup failure
	CISkipped = "skipped"
	CIPending = "pending" // queued, in progress, or a status still pending
	CIOther   = "other"   // neutral, cancelled, stale
)

// Kinds of CI check: GitHub's two APIs for the same question.
const (
	CIKindCheckRun = "check-run"
	CIKindStatus   = "status"
)

// CICheck is one check of the head, by name: a check run or a commit status.
type CICheck struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	State string `json:"state"`
	// Required: the base branch's protection requires it. Without a
	// readable protection (OriginCI.RequiredKnown) nothing is marked and
	// every failure counts.
	Required bool `json:"required,omitempty"`
}

// ciRank orders states by how much they say against the head: one name
// reported twice (a check run and a status of that name) keeps the worse.
func ciRank(state string) int {
	switch state {
	case CIFailure:
		return 4
	case CIPending:
		return 3
	case CIOther:
		return 2
	case CISuccess:
		return 1
	}
	return 0 // skipped
}

// NewOriginCI counts checks together, one per name (the worse state when a
// name is reported twice), and marks the required ones when required is
// known (requiredKnown).
func NewOriginCI(checks []CICheck, required []string, requiredKnown bool) OriginCI {
	ci := OriginCI{Failing: []string{}, RequiredKnown: requiredKnown}
	req := map[string]bool{}
	for _, r := range required {
		req[r] = true
	}
	at := map[string]int{}
	for _, c := range checks {
		c.Required = requiredKnown && req[c.Name]
		if i, ok := at[c.Name]; ok {
			if ciRank(c.State) > ciRank(ci.Checks[i].State) {
				ci.Checks[i].State, ci.Checks[i].Kind = c.State, c.Kind
			}
			continue
		}
		at[c.Name] = len(ci.Checks)
		ci.Checks = append(ci.Checks, c)
	}
	for _, c := range ci.Checks {
		switch c.State {
		case CISuccess:
			ci.Success++
		case CIFailure:
			ci.Failure++
			ci.Failing = append(ci.Failing, c.Name)
		case CISkipped:
			ci.Skipped++
		case CIPending:
			ci.Pending++
		default:
			ci.Other++
		}
	}
	return ci
}

// counts reports whether a failing check holds the gate: a required one, or
// any when the required list could not be read.
func (c OriginCI) counts(ch CICheck) bool { return ch.Required || !c.RequiredKnown }

// names lists the checks in state s that hold the gate (blocking) or not.
func (c OriginCI) names(s string, blocking bool) []string {
	var out []string
	for _, ch := range c.Checks {
		if ch.State == s && (s != CIFailure || c.counts(ch) == blocking) {
			out = append(out, ch.Name)
		}
	}
	return out
}

// Blocking names the failing checks that hold the gate. A record written
// before checks were listed one by one has only Failing: all of them count.
func (c OriginCI) Blocking() []string {
	if len(c.Checks) == 0 {
		return c.Failing
	}
	return c.names(CIFailure, true)
}

// CILine is the head's checks in one line: "14 success, 2 failure
// (pre-commit required, docs-preview), 4 skipped, 1 pending (e2e)".
func (c OriginCI) CILine() string {
	var parts []string
	add := func(n int, word string, names []string) {
		if n == 0 {
			return
		}
		w := fmt.Sprintf("%d %s", n, word)
		if len(names) > 0 {
			w += " (" + strings.Join(names, ", ") + ")"
		}
		parts = append(parts, w)
	}
	add(c.Success, "success", nil)
	failing := c.Failing
	if len(c.Checks) > 0 {
		failing = nil
		for _, ch := range c.Checks {
			if ch.State != CIFailure {
				continue
			}
			if ch.Required {
				failing = append(failing, ch.Name+" required")
			} else {
				failing = append(failing, ch.Name)
			}
		}
	}
	add(c.Failure, "failure", failing)
	add(c.Skipped, "skipped", nil)
	add(c.Pending, "pending", c.names(CIPending, false))
	add(c.Other, "other", nil)
	if len(parts) == 0 {
		return "no checks reported"
	}
	return strings.Join(parts, ", ")
}

// Check is the ci gate check: it fails while a failing check counts
// (Blocking); a failing optional check and pending ones are named and do not
// hold it.
func (c OriginCI) Check() (ok bool, detail string) {
	line := c.CILine()
	blocking := c.Blocking()
	which := "required"
	if !c.RequiredKnown {
		which = "failing (the required checks could not be read, so every failure counts)"
	}
	if len(blocking) > 0 {
		if c.RequiredKnown {
			return false, JoinAnd(blocking) + " " + isAre(len(blocking)) + " required and failing; " + line
		}
		return false, text.PluralOf(len(blocking), "check", "checks") + " " + which + ": " + JoinAnd(blocking) + "; " + line
	}
	if opt := c.names(CIFailure, false); len(opt) > 0 {
		return true, "no required check fails; optional: " + JoinAnd(opt) + "; " + line
	}
	return true, line
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// PendingCounted is how many of the head's checks are still pending among
// those that count (the required ones, or all when which are required is
// not known): a result that may yet hold the gate.
func (c OriginCI) PendingCounted() int {
	if len(c.Checks) == 0 {
		return c.Pending
	}
	n := 0
	for _, ch := range c.Checks {
		if ch.State == CIPending && c.counts(ch) {
			n++
		}
	}
	return n
}

// CIPending is PendingCounted of the pull request's CI; 0 for a packet not
// read from a pull request, which has no CI to wait for.
func (p *Packet) CIPending() int {
	if p.Origin == nil || p.Origin.Kind != OriginKindPR {
		return 0
	}
	return p.Origin.CI.PendingCounted()
}

// joinAnd lists names as people write them: "a", "a and b", "a, b and c".
func JoinAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
