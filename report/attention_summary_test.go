package report

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/vetter-dev/vetter/internal/reviewtest"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
)

// prtCheckout is a new workflow that checks out the pull request's head
// under pull_request_target.
const prtCheckout = `diff --git a/.github/workflows/preview.yml b/.github/workflows/preview.yml
new file mode 100644
--- /dev/null
+++ b/.github/workflows/preview.yml
@@ -0,0 +1,10 @@
+name: preview
+on: pull_request_target
+jobs:
+  build:
+    runs-on: ubuntu-latest
+    steps:
+      - uses: actions/checkout@v4
+        with:
+          ref: ${{ github.event.pull_request.head.sha }}
+      - run: make preview
`

// corpusPacket is a packet whose diff is diff.
func corpusPacket(t *testing.T, diff string) *packet.Packet {
	t.Helper()
	d, probs := packet.ParseDiff([]byte(diff))
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	return &packet.Packet{Path: "test", Diff: d, FS: fstest.MapFS{}, Change: packet.Change{HeadSHA: strings.Repeat("a", 40)}}
}

func TestSummaryAttention(t *testing.T) {
	p := corpusPacket(t, prtCheckout)
	s := Summarize(p)
	items := p.Attention()
	if len(s.Attention) != len(items) || len(items) == 0 {
		t.Fatalf("summary has %d attention items, the scan %d", len(s.Attention), len(items))
	}
	for i, a := range items {
		got := s.Attention[i]
		if got.Rule != a.Rule || got.File != a.Path || got.Line != a.NewLine || got.Severity != a.Severity || got.Why != a.Why || got.Text != a.Text {
			t.Errorf("attention[%d] = %+v, want the scan's %+v (same order)", i, got, a)
		}
	}

	var js bytes.Buffer
	if err := s.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Attention []map[string]any `json:"attention"`
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"rule", "severity", "file", "line", "why", "text"} {
		if _, ok := back.Attention[0][k]; !ok {
			t.Errorf("summary --json attention items lack %q: %v", k, back.Attention[0])
		}
	}

	var txt, md bytes.Buffer
	s.WriteText(&txt)
	s.WriteMarkdown(&md)
	for _, want := range []string{
		"Attention   2 high, 1 medium",
		".github/workflows/preview.yml:9",
		"gha-untrusted-checkout",
		"> ref: ${{ github.event.pull_request.head.sha }}",
		"! attention-reviewed 0 of 2 high items reviewed",
	} {
		if !strings.Contains(txt.String(), want) {
			t.Errorf("summary text lacks %q:\n%s", want, txt.String())
		}
	}
	for _, want := range []string{
		"#### What a vetter must look at: 2 high (0 reviewed)",
		"- [ ] `.github/workflows/preview.yml:9` `gha-untrusted-checkout`",
		"`ref: ${{ github.event.pull_request.head.sha }}`",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("summary markdown lacks %q:\n%s", want, md.String())
		}
	}
	if strings.Contains(txt.String(), "ci-workflow") {
		t.Errorf("summary text lists a medium item:\n%s", txt.String())
	}
}

// Marks are kept in the state folder, keyed so a line that moved keeps its
// mark, and the gate counts them.
func TestReviewedMarks(t *testing.T) {
	p := corpusPacket(t, prtCheckout)
	p.Plan.ID = "WI-1"
	st := reviewtest.OpenStoreIn(t, p, t.TempDir())
	high := packet.HighAttention(p.Attention())
	if len(high) != 2 {
		t.Fatalf("%d high items, want 2", len(high))
	}
	marks, err := st.SetReviewed(high[:1], true, "ana", time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	p.Reviewed = marks
	if r, n := review.HighReviewed(p, p.Attention()); r != 1 || n != 2 {
		t.Errorf("HighReviewed = %d of %d, want 1 of 2", r, n)
	}
	c := review.Gate(p).Checks
	last := c[len(c)-1]
	if last.Name != review.CheckAttentionReviewed || last.OK || !last.Info || last.Detail != "1 of 2 high items reviewed" {
		t.Errorf("gate check = %+v", last)
	}

	// A later round: two lines added above; the mark follows its line.
	moved := strings.Replace(prtCheckout, "@@ -0,0 +1,10 @@\n+name: preview\n", "@@ -0,0 +1,12 @@\n+# preview builds\n+# for every pull request\n+name: preview\n", 1)
	d2, probs := packet.ParseDiff([]byte(moved))
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	p2 := &packet.Packet{Diff: d2, FS: fstest.MapFS{}, Plan: packet.Plan{ID: "WI-1"}}
	if _, err := review.OpenStore(p2, filepath.Dir(filepath.Dir(st.Dir))); err != nil {
		t.Fatal(err)
	}
	if r, n := review.HighReviewed(p2, p2.Attention()); r != 1 || n != 2 {
		t.Errorf("next round: HighReviewed = %d of %d, want 1 of 2 (keys must not depend on line numbers)", r, n)
	}
	if m := p2.Reviewed[high[0].Key]; m.User != "ana" {
		t.Errorf("mark = %+v, want by ana", m)
	}

	// Unmarking removes it, and keeps the others.
	if _, err := st.SetReviewed(high[1:2], true, "bo", time.Now()); err != nil {
		t.Fatal(err)
	}
	marks, err = st.SetReviewed(high[:1], false, "ana", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := marks[high[0].Key]; ok || len(marks) != 1 {
		t.Errorf("after unmarking: %d marks, first still there: %v", len(marks), ok)
	}
}

// Both forms list the high items alone, ticked once reviewed, and the
// markdown heading counts the reviewed ones.
func TestAttentionFormsTickReviewedHighItems(t *testing.T) {
	items := []SummaryAttention{
		{Rule: "rule-a", Severity: packet.AttentionHigh, File: "a.yml", Line: 3, Why: "why a", Title: "title a", Reviewed: true},
		{Rule: "rule-b", Severity: packet.AttentionMedium, File: "b.yml", Why: "why b", Title: "title b", Reviewed: true},
		{Rule: "rule-c", Severity: packet.AttentionHigh, File: "c.yml", Why: "why c", Title: "title c"},
	}
	var txt, md bytes.Buffer
	writeAttentionText(&txt, items)
	writeAttentionMarkdown(&md, items)
	for _, want := range []string{"Attention   2 high, 1 medium, 0 low", "  ✓ a.yml:3", "    c.yml"} {
		if !strings.Contains(txt.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, txt.String())
		}
	}
	for _, want := range []string{"2 high (1 reviewed), 1 medium, 0 low", "- [x] `a.yml:3` `rule-a`", "- [ ] `c.yml` `rule-c`"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	if strings.Contains(txt.String()+md.String(), "rule-b") {
		t.Errorf("a medium item is listed:\n%s\n%s", txt.String(), md.String())
	}
}
