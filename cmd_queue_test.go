package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/github/fakeapi"
)

type jsonQueueRow struct {
	Number         int
	Class          string
	Packet         bool
	Awaiting       bool
	Draft          bool
	Author         string
	CommitsSinceOK *int `json:"commits_since_ok"`
	OkToTest       *struct {
		SHA, By string
		Current bool
	} `json:"ok_to_test"`
	Evidence struct{ Validated, Total int }
	Decision *struct {
		Decision, SHA string
		Current       bool
	}
}

func queueJSONRows(t *testing.T, args ...string) []jsonQueueRow {
	t.Helper()
	out := mustRun(t, append([]string{"queue", "acme/depot", "--json"}, args...)...)
	var rows []jsonQueueRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("queue --json: %v\n%s", err, out)
	}
	return rows
}

func numbers(rows []jsonQueueRow) string {
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, " #%d %s", r.Number, r.Class)
	}
	return strings.TrimSpace(b.String())
}

func TestQueueJSON(t *testing.T) {
	s := fakeGitHub(t)
	s.AddQueue(fakeapi.QueueSpecs())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	rows := queueJSONRows(t)
	if got := numbers(rows); got != "#43 ready #47 work #44 work #42 moved #45 vetted #46 draft" {
		t.Errorf("queue --json order: %s", got)
	}
	if r := rows[0]; !r.Packet || !r.Awaiting || r.Evidence.Total != 3 || r.Decision != nil {
		t.Errorf("first row %+v", r)
	}
	// The contract of docs/packet-format.md, on the fixture.
	golden(t, "queue.json", mustRun(t, "queue", "acme/depot", "--json"))

	// --offline: the last visit's rows, without a request.
	before := s.Requests
	if got := numbers(queueJSONRows(t, "--offline")); got != "#43 ready #47 work #44 work #42 moved #45 vetted #46 draft" || s.Requests != before {
		t.Errorf("queue --offline --json: %s (%d requests)", got, s.Requests-before)
	}
	if got := numbers(queueJSONRows(t, "--has-packet")); got != "#43 ready #47 work #42 moved #45 vetted" {
		t.Errorf("--has-packet: %s", got)
	}
	if got := numbers(queueJSONRows(t, "--awaiting-me")); got != "#43 ready #47 work #44 work" {
		t.Errorf("--awaiting-me: %s", got)
	}
	if got := numbers(queueJSONRows(t, "--author", "outside-dev")); got != "#44 work" {
		t.Errorf("--author: %s", got)
	}
	if got := numbers(queueJSONRows(t, "--all")); got != "#43 ready #47 work #44 work #42 work #45 vetted #46 draft" {
		t.Errorf("--all: %s", got)
	}
	if got := numbers(queueJSONRows(t, "--awaiting", "needs a maintainer")); got != "#42 work #47 moved #45 vetted #44 other #43 other #46 draft" {
		t.Errorf("--awaiting: %s", got)
	}

	// A decision of yours shows on its row, and takes it off --awaiting-me.
	mustRun(t, "decide", "acme/depot#43", "--ok-to-test", "--note", "looked")
	if got := numbers(queueJSONRows(t, "--awaiting-me")); got != "#47 work #44 work" {
		t.Errorf("--awaiting-me after a decision on #43: %s", got)
	}
	if d := queueJSONRows(t)[0].Decision; d == nil || d.Decision != "ok-to-test" || !d.Current {
		t.Errorf("the decision on #43: %+v", d)
	}
}
