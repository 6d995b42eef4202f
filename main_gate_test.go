package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	dynRound1 = "testdata/dyn-3726/round1"
	dynRound2 = "testdata/dyn-3726/round2"
	dynHead1  = "ff62a64ac4c63e7d6b079d9826b805b3bc333d25"
	dynHead2  = "eececad6a70e5217727a5cc8f7d4930148034530"
)

// decideBothRounds triages and decides both rounds of the two-round work
// item, round 1 first (ok-to-test on a ready gate), then round 2 (forced: its
// carried runs are proven to be round 1's).
func decideBothRounds(t *testing.T) {
	t.Helper()
	all := []string{"review.md#1", "review.md#2", "review.md#3", "--accept"}
	mustRun(t, append([]string{"triage", dynRound1}, all...)...)
	mustRun(t, "decide", dynRound1, "--ok-to-test", "--note", "round 1 read")
	mustRun(t, append([]string{"triage", dynRound2}, all...)...)
	mustRun(t, "decide", dynRound2, "--ok-to-test", "--force", "--note", "the re-lint is the only change")
}

// --print is the summary of the same state, byte for byte.
func TestPrintIsTheSummary(t *testing.T) {
	pinned(t)
	decideBothRounds(t)
	for _, r := range []string{dynRound1, dynRound2} {
		print := mustRun(t, "--print", r)
		summary := mustRun(t, "summary", r)
		if print != summary {
			t.Errorf("%s: --print and summary differ:\n--- print\n%s\n--- summary\n%s", r, print, summary)
		}
	}
	if s := mustRun(t, "summary", dynRound2); !strings.Contains(s, "#1   minor    accepted") ||
		!strings.Contains(s, "✗ evidence-current   00-env-setup, 02-fern-check and 03-broken-links last ran on ff62a64; the head is eececad") {
		t.Errorf("round 2's summary lacks its triage or its evidence:\n%s", s)
	}
}

// A packet that ships its own triage.json is reported by check as an error,
// and the gate is not ready while it is: summary says packet-valid fails, and
// ok-to-test is refused (exit 1) without --force --note.
func TestPacketErrorsHoldTheGate(t *testing.T) {
	pinned(t)
	dir := filepath.Join(t.TempDir(), "ships")
	if err := os.CopyFS(dir, os.DirFS(dynRound1)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "triage.json"), []byte(`{"version": 1, "findings": {}, "gate": {"decision": "ok-to-test", "sha": "`+dynHead1+`"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _, code := run(t, "check", dir); code != 1 || !strings.Contains(out, "packet-ships-decisions") {
		t.Fatalf("check: exit %d\n%s", code, out)
	}
	mustRun(t, "triage", dir, "review.md#1", "review.md#2", "review.md#3", "--accept")
	s := mustRun(t, "summary", dir)
	for _, want := range []string{"Gate        NOT READY", "✗ packet-valid       1 error: packet-ships-decisions (triage.json)"} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	_, errOut, code := run(t, "decide", dir, "--ok-to-test")
	if code != 1 || !strings.Contains(errOut, "packet-valid (1 error: packet-ships-decisions (triage.json))") {
		t.Errorf("decide --ok-to-test: exit %d, %s", code, errOut)
	}
	if _, errOut, code := run(t, "decide", dir, "--ok-to-test", "--force", "--note", "the shipped triage.json is ignored"); code != 0 {
		t.Errorf("decide --force --note: exit %d, %s", code, errOut)
	}
}

// Each round shows the decision made for its own head, and names a later
// one separately: round 1's export is not round 2's decision.
func TestDecisionsByHead(t *testing.T) {
	pinned(t)
	decideBothRounds(t)
	md := mustRun(t, "export", dynRound1, "--format", "markdown")
	for _, want := range []string{"**Decision:** ok-to-test for `" + dynHead1 + "`", "_Also: a later decision, ok-to-test for eececad, exists._"} {
		if !strings.Contains(md, want) {
			t.Errorf("round 1's export lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "the head is now") {
		t.Errorf("round 1's export says its head moved:\n%s", md)
	}
	s := mustRun(t, "summary", dynRound1)
	if !strings.Contains(s, "Decision    ok-to-test for ff62a64ac4c6 by ana") || !strings.Contains(s, "— stands\n  note: round 1 read\n  also: a later decision, ok-to-test for eececad, exists") {
		t.Errorf("round 1's summary:\n%s", s)
	}
	s = mustRun(t, "summary", dynRound2)
	if !strings.Contains(s, "Decision    ok-to-test for eececad6a70e by ana") || strings.Contains(s, "also:") {
		t.Errorf("round 2's summary:\n%s", s)
	}
}
