package compare

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/internal/packettest"
	"github.com/vetter-dev/vetter/internal/reviewtest"
	"github.com/vetter-dev/vetter/packet"
)

const round2 = "../packet/testdata/rounds/round2"

// The second round is a well-formed packet: its problems are the one the
// sample already has, and the drift its review carried over: it still cites
// the verdict at change-validation.md:138, which the longer round-2 report
// moved to line 151.
func TestRound2IsClean(t *testing.T) {
	p := packettest.Round2(t)
	for _, pr := range p.Problems {
		switch {
		case pr.Code == packet.CodeCitationUnresolved && strings.Contains(pr.Message, "compute-env.md:41"):
		case pr.Code == packet.CodeCitationDrift && strings.Contains(pr.Message, "change-validation.md:138: quoted text is on line 151"):
		default:
			t.Errorf("unexpected problem in round 2: %+v", pr)
		}
	}
}

func fileDeltaOf(t *testing.T, d Interdiff, path string) FileDelta {
	t.Helper()
	for _, f := range d.Files {
		if f.Path == path {
			return f
		}
	}
	t.Fatalf("no file delta for %s", path)
	return FileDelta{}
}

func hunkStatuses(f FileDelta) map[string]int {
	m := map[string]int{}
	for _, h := range f.Hunks {
		m[h.Status]++
	}
	return m
}

func hasLine(ls []InterLine, op, substr string) bool {
	for _, l := range ls {
		if l.Op == op && strings.Contains(l.Text, substr) {
			return true
		}
	}
	return false
}

func TestCompareSampleRounds(t *testing.T) {
	old := packet.LoadSample(packet.Options{})
	cur := packettest.Round2(t)
	c := Compare(old, cur)

	t.Run("head", func(t *testing.T) {
		if !c.Head.Moved || c.Head.Old != "1bb1c70f4285cf39d8ebaf61573f0095423d52b1" || c.Head.New != "5e2f0c7a9d14b38e6f1a2c0b7d9e4a3f81c6b250" {
			t.Errorf("head = %+v", c.Head)
		}
		if c.Head.Decision != nil || !strings.Contains(c.Head.Note, "no longer stands") {
			t.Errorf("head note = %q", c.Head.Note)
		}
	})

	t.Run("before and after", func(t *testing.T) {
		if c.Old.Verdict != "pass" || c.New.Verdict != "pass" {
			t.Errorf("verdict %q → %q", c.Old.Verdict, c.New.Verdict)
		}
		if c.Old.Assessment != "needs_changes" || c.New.Assessment != "sound" {
			t.Errorf("assessment %q → %q", c.Old.Assessment, c.New.Assessment)
		}
		if c.Old.Validated != 4 || c.Old.Total != 4 || c.New.Validated != 4 || c.New.Total != 4 {
			t.Errorf("evidence %d/%d → %d/%d", c.Old.Validated, c.Old.Total, c.New.Validated, c.New.Total)
		}
		if c.Old.GateReady || c.New.GateReady {
			t.Error("neither round's gate should be ready: findings are untriaged")
		}
		if strings.Join(c.Old.GateFailing, ",") != "assessment-sound,findings-triaged" || strings.Join(c.New.GateFailing, ",") != "findings-triaged" {
			t.Errorf("gate failing %v → %v", c.Old.GateFailing, c.New.GateFailing)
		}
	})

	t.Run("interdiff", func(t *testing.T) {
		d := c.Change
		if d.Added != 0 || d.Removed != 0 || d.Altered != 2 || d.Unchanged != 4 {
			t.Errorf("files: +%d -%d ~%d =%d", d.Added, d.Removed, d.Altered, d.Unchanged)
		}
		client := fileDeltaOf(t, d, "internal/upload/client.go")
		if client.Status != DeltaAltered || hunkStatuses(client)[DeltaAltered] != 1 || hunkStatuses(client)[DeltaUnchanged] != 4 {
			t.Fatalf("client.go: %s, hunks %v", client.Status, hunkStatuses(client))
		}
		for _, h := range client.Hunks {
			if h.Status != DeltaAltered {
				if len(h.Lines) != 0 {
					t.Errorf("unchanged hunk %s carries lines", h.New)
				}
				continue
			}
			if h.Old != "@@ -61,30 +70,43 @@" || h.New != "@@ -61,30 +70,45 @@" || h.OldLine != 172 || h.NewLine != 172 {
				t.Errorf("the clamp hunk: %s (line %d) → %s (line %d)", h.Old, h.OldLine, h.New, h.NewLine)
			}
			if !hasLine(h.Lines, "-", "+\t\t\t\twait = ra // the store knows better") || !hasLine(h.Lines, "+", "+\t\t\t\twait = min(ra, c.policy.Max)") {
				t.Errorf("the clamp hunk's diff of diffs lacks the fix:\n%+v", h.Lines)
			}
			if !hasLine(h.Lines, " ", "+\t\tif isStatus {") {
				t.Error("the clamp hunk's diff of diffs lost its context")
			}
		}
		// The last hunk only moved (+124 → +126): same change, unchanged.
		last := client.Hunks[len(client.Hunks)-1]
		if last.Status != DeltaUnchanged || last.Old != "@@ -102,12 +124,24 @@" || last.New != "@@ -102,12 +126,24 @@" {
			t.Errorf("the moved hunk: %+v", last)
		}
		test := fileDeltaOf(t, d, "internal/upload/client_test.go")
		if test.Status != DeltaAltered || hunkStatuses(test)[DeltaAdded] != 1 || hunkStatuses(test)[DeltaUnchanged] != 4 || len(test.Hunks) != 5 {
			t.Fatalf("client_test.go: %s, hunks %v", test.Status, hunkStatuses(test))
		}
		added := test.Hunks[4]
		if added.Status != DeltaAdded || !hasLine(added.Lines, "+", "+func TestUploadClampsRetryAfter") {
			t.Errorf("the new test hunk: %+v", added)
		}
		for _, name := range []string{"docs/uploading-artifacts.md", "internal/upload/backoff.go", "tools/acmeup/acmeup.py", "tools/acmeup/test_acmeup.py"} {
			if f := fileDeltaOf(t, d, name); f.Status != DeltaUnchanged || len(f.Hunks) != 0 {
				t.Errorf("%s: %s with %d hunks, want unchanged", name, f.Status, len(f.Hunks))
			}
		}
		if d.Old.Insertions != 262 || d.New.Insertions != 286 {
			t.Errorf("insertions %d → %d", d.Old.Insertions, d.New.Insertions)
		}
	})

	t.Run("findings", func(t *testing.T) {
		ids := func(ds []FindingDelta) string {
			var s []string
			for _, d := range ds {
				s = append(s, d.ID)
			}
			return strings.Join(s, ",")
		}
		f := c.Findings
		if ids(f.Resolved) != "review.md#1" || ids(f.Changed) != "review.md#2" || ids(f.New) != "review.md#6" ||
			ids(f.Unchanged) != "review.md#3,review.md#4,review.md#5" {
			t.Fatalf("resolved %s, changed %s, new %s, unchanged %s", ids(f.Resolved), ids(f.Changed), ids(f.New), ids(f.Unchanged))
		}
		if f.Resolved[0].Severity != "major" || f.Resolved[0].Triage != packet.TriageOpen || f.Resolved[0].Line != 54 {
			t.Errorf("resolved #1: %+v", f.Resolved[0])
		}
		if f.New[0].Triage != "" || f.New[0].Severity != "nit" {
			t.Errorf("new #6: %+v", f.New[0])
		}
		ch := f.Changed[0]
		var claim, evidence bool
		for _, wc := range ch.Changes {
			claim = claim || (wc.Field == "claim" && strings.Contains(wc.Added, "still there after the review round"))
			evidence = evidence || (wc.Field == "evidence" && strings.Contains(wc.Added, "e2c4.log:20-21"))
		}
		if !claim || !evidence {
			t.Errorf("changed #2's word changes: %+v", ch.Changes)
		}
	})

	t.Run("registry", func(t *testing.T) {
		r := c.Registry
		if len(r.Added) != 1 || r.Added[0].Seq != 6 || r.Added[0].Recipe != "01-go-unit-tests" ||
			r.Added[0].Log != "validation/logs/2026-10-15T08-41-52.306Z-bash-e2c4.log" || r.Added[0].Status != packet.StatusValidated {
			t.Errorf("added runs: %+v", r.Added)
		}
		if len(r.Changed) != 1 || r.Changed[0].Seq != 3 || r.Changed[0].OldStatus != packet.StatusValidated || r.Changed[0].Status != packet.StatusSuperseded {
			t.Errorf("changed runs: %+v", r.Changed)
		}
		if len(r.Removed) != 0 {
			t.Errorf("removed runs: %+v", r.Removed)
		}
		if len(r.Recipes) != 1 {
			t.Fatalf("recipes: %+v", r.Recipes)
		}
		if rc := r.Recipes[0]; rc.Recipe != "01-go-unit-tests" || rc.Change != RecipeRerun || rc.OldStatus != packet.StatusValidated ||
			rc.NewStatus != packet.StatusValidated || rc.OldSeq != 3 || rc.NewSeq != 6 {
			t.Errorf("01-go-unit-tests: %+v", rc)
		}
	})

	t.Run("documents", func(t *testing.T) {
		if c.DocumentsUnchanged != 2 {
			t.Errorf("unchanged documents = %d, want 2 (plan.md, compute-env.md)", c.DocumentsUnchanged)
		}
		byPath := map[string]DocumentDelta{}
		for _, d := range c.Documents {
			byPath[d.Path] = d
			if d.Status != DocChanged {
				t.Errorf("%s: %s", d.Path, d.Status)
			}
			checkLanding(t, cur.Doc(d.Path), old.Doc(d.Path), d.Changes)
		}
		if len(byPath) != 3 || byPath[packet.ChangeFile].Path == "" || byPath[packet.ReviewFile].Path == "" {
			t.Errorf("changed documents: %v", byPath)
		}
		cv := byPath[packet.ValidationFile]
		want := []struct {
			line           int
			removed, added string
		}{
			{60, "Together with the `Retry-After` test", "This bounds the jittered draw only"},
			{124, "", "## Review round — re-run against `5e2f0c7`"},
			{151, "", "clamp to Max"},
		}
		for _, w := range want {
			found := false
			for _, ch := range cv.Changes {
				if ch.Line == w.line && strings.Contains(ch.Removed, w.removed) && strings.Contains(ch.Added, w.added) {
					found = true
				}
			}
			if !found {
				t.Errorf("change-validation.md has no change at line %d adding %q: %+v", w.line, w.added, cv.Changes)
			}
		}
	})
}

// checkLanding holds for every word change: its first added word is on the
// new document's line it names, its first removed word on the old one's.
func checkLanding(t *testing.T, nd, od *packet.Document, changes []WordChange) {
	t.Helper()
	for _, ch := range changes {
		if ch.Line < 1 || ch.EndLine < ch.Line || ch.EndLine > len(nd.Lines) {
			t.Errorf("%s: change at lines %d-%d outside the document (%d lines)", nd.Path, ch.Line, ch.EndLine, len(nd.Lines))
			continue
		}
		if words := strings.Fields(ch.Added); len(words) > 0 && !strings.Contains(nd.Lines[ch.Line-1], words[0]) {
			t.Errorf("%s:%d does not hold %q (first added word): %q", nd.Path, ch.Line, words[0], nd.Lines[ch.Line-1])
		}
		if words := strings.Fields(ch.Removed); len(words) > 0 && ch.Added == "" && !strings.Contains(od.Lines[ch.OldLine-1], words[0]) {
			t.Errorf("%s: old line %d does not hold %q (first removed word)", od.Path, ch.OldLine, words[0])
		}
	}
}

// writeTriage writes triage.json into a packet folder with decisions on the
// given findings (by number) and a gate decision for sha.
// writeTriage writes p's work item's triage.json in the test's reviewer
// state (testState), as earlier vetter runs would have left it.
func writeTriage(t *testing.T, p *packet.Packet, states map[int]string, gateSHA string) {
	t.Helper()
	st := packet.TriageState{Version: 1, Findings: map[string]*packet.Decision{}}
	when := time.Date(2026, 10, 14, 12, 0, 0, 0, time.UTC)
	for n, state := range states {
		f := p.LookupFinding(strconv.Itoa(n))
		st.Findings[f.ID] = &packet.Decision{State: state, Note: "note on " + f.ID, Time: when, User: "ana", Fingerprint: packet.Fingerprint(f)}
	}
	if gateSHA != "" {
		st.Gate = &packet.GateDecision{Decision: "request-changes", SHA: gateSHA, Time: when, User: "ana"}
	}
	data, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	where := filepath.Join(packettest.State(t), "vetter", p.WorkItem().Dir)
	if err := os.MkdirAll(where, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(where, packet.TriageFile), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// Each finding carries the decision it had in the old round; the old gate
// decision, made for the old head, no longer stands.
func TestCompareCarriesOldTriage(t *testing.T) {
	dir := t.TempDir()
	if err := packet.WriteSample(dir); err != nil {
		t.Fatal(err)
	}
	sample := packet.LoadSample(packet.Options{})
	writeTriage(t, sample, map[int]string{1: packet.TriageAccepted, 2: packet.TriageDismissed, 3: packet.TriageDeferred}, sample.Change.HeadSHA)
	old := reviewtest.Load(t, dir)
	c := Compare(old, packettest.Round2(t))

	if r := c.Findings.Resolved[0]; r.Triage != packet.TriageAccepted || r.TriageNote != "note on review.md#1" || r.TriageStale {
		t.Errorf("resolved #1 triage: %+v", r)
	}
	if ch := c.Findings.Changed[0]; ch.Triage != packet.TriageDismissed {
		t.Errorf("changed #2 triage: %+v", ch)
	}
	if u := c.Findings.Unchanged[0]; u.ID != "review.md#3" || u.Triage != packet.TriageDeferred {
		t.Errorf("unchanged #3 triage: %+v", u)
	}
	if u := c.Findings.Unchanged[1]; u.Triage != packet.TriageOpen {
		t.Errorf("unchanged #4 triage: %+v", u)
	}
	h := c.Head
	if h.Decision == nil || h.Decision.Decision != "request-changes" || h.DecisionStands ||
		!strings.Contains(h.Note, "request-changes decision recorded for 1bb1c70f4285 no longer stands") {
		t.Errorf("head: %+v", h)
	}

	// The same round against itself: nothing moved, the decision stands.
	same := Compare(old, old)
	if same.Head.Moved || !same.Head.DecisionStands || same.Change.Unchanged != 6 || len(same.Documents) != 0 ||
		len(same.Findings.Unchanged) != 5 || len(same.Registry.Added)+len(same.Registry.Changed)+len(same.Registry.Recipes) != 0 {
		t.Errorf("a round against itself: %+v", same)
	}
}

// fdiff builds one file's section of a git diff.
func fdiff(oldPath, newPath string, extra string, hunks ...string) string {
	a, b := "a/"+oldPath, "b/"+newPath
	s := "diff --git " + a + " " + b + "\n" + extra
	if oldPath == "" {
		s = "diff --git b/" + newPath + " b/" + newPath + "\nnew file mode 100644\n"
		a = "/dev/null"
	}
	if newPath == "" {
		s = "diff --git a/" + oldPath + " a/" + oldPath + "\ndeleted file mode 100644\n"
		b = "/dev/null"
	}
	s += "--- " + a + "\n+++ " + b + "\n"
	return s + strings.Join(hunks, "")
}

const (
	hunkA  = "@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n"
	hunkA2 = "@@ -1,3 +1,3 @@\n one\n-two\n+Two, again\n three\n"
	hunkB  = "@@ -10,3 +10,4 @@ func b() {\n ten\n+ten and a half\n eleven\n twelve\n"
	hunkB5 = "@@ -10,3 +12,4 @@ func b() {\n ten\n+ten and a half\n eleven\n twelve\n" // moved by two lines
	hunkC  = "@@ -40,2 +41,3 @@\n forty\n+forty-one\n forty-two\n"
)

func TestCompareDiffs(t *testing.T) {
	type want struct {
		files string // path:status, in order
		hunks string // statuses of the hunks of the first altered file
	}
	cases := []struct {
		name     string
		old, new string
		want     want
	}{
		{"identical", fdiff("a.go", "a.go", "", hunkA, hunkB), fdiff("a.go", "a.go", "", hunkA, hunkB),
			want{"a.go:unchanged", ""}},
		{"file added", fdiff("a.go", "a.go", "", hunkA), fdiff("a.go", "a.go", "", hunkA) + fdiff("", "b.go", "", "@@ -0,0 +1 @@\n+package b\n"),
			want{"a.go:unchanged b.go:added", ""}},
		{"file removed", fdiff("a.go", "a.go", "", hunkA) + fdiff("b.go", "", "", "@@ -1 +0,0 @@\n-package b\n"), fdiff("a.go", "a.go", "", hunkA),
			want{"a.go:unchanged b.go:removed", ""}},
		{"file removed keeps its place", fdiff("a.go", "a.go", "", hunkA) + fdiff("m.go", "m.go", "", hunkA) + fdiff("z.go", "z.go", "", hunkA),
			fdiff("a.go", "a.go", "", hunkA) + fdiff("z.go", "z.go", "", hunkA),
			want{"a.go:unchanged m.go:removed z.go:unchanged", ""}},
		{"file renamed", fdiff("a.go", "a.go", "", hunkA),
			fdiff("a.go", "b.go", "similarity index 90%\nrename from a.go\nrename to b.go\n", hunkA),
			want{"b.go:altered", "unchanged"}},
		{"hunk added", fdiff("a.go", "a.go", "", hunkA), fdiff("a.go", "a.go", "", hunkA, hunkB),
			want{"a.go:altered", "unchanged added"}},
		{"hunk removed", fdiff("a.go", "a.go", "", hunkA, hunkB), fdiff("a.go", "a.go", "", hunkB),
			want{"a.go:altered", "removed unchanged"}},
		{"hunk altered", fdiff("a.go", "a.go", "", hunkA, hunkB), fdiff("a.go", "a.go", "", hunkA2, hunkB),
			want{"a.go:altered", "altered unchanged"}},
		{"hunk moved only", fdiff("a.go", "a.go", "", hunkA, hunkB), fdiff("a.go", "a.go", "", hunkA, hunkB5),
			want{"a.go:unchanged", ""}},
		{"altered, added and removed at once", fdiff("a.go", "a.go", "", hunkA, hunkC), fdiff("a.go", "a.go", "", hunkA2, hunkB),
			want{"a.go:altered", "altered added removed"}},
		{"empty old", "", fdiff("a.go", "a.go", "", hunkA), want{"a.go:added", ""}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			od, probs := packet.ParseDiff([]byte(tc.old))
			nd, probs2 := packet.ParseDiff([]byte(tc.new))
			if len(probs)+len(probs2) > 0 {
				t.Fatalf("the test's diffs do not parse cleanly: %v %v", probs, probs2)
			}
			d := CompareDiffs(od, nd)
			var files, hunks []string
			for _, f := range d.Files {
				files = append(files, f.Path+":"+f.Status)
				if f.Status == DeltaAltered && hunks == nil {
					hunks = []string{}
					for _, h := range f.Hunks {
						hunks = append(hunks, h.Status)
					}
				}
			}
			if got := strings.Join(files, " "); got != tc.want.files {
				t.Errorf("files = %q, want %q", got, tc.want.files)
			}
			if got := strings.Join(hunks, " "); got != tc.want.hunks {
				t.Errorf("hunks = %q, want %q", got, tc.want.hunks)
			}
		})
	}

	// The details of the cases above that the table does not show.
	od, _ := packet.ParseDiff([]byte(fdiff("a.go", "a.go", "", hunkA)))
	nd, _ := packet.ParseDiff([]byte(fdiff("a.go", "b.go", "rename from a.go\nrename to b.go\n", hunkA)))
	if f := CompareDiffs(od, nd).Files[0]; f.OldPath != "a.go" || !f.HeaderChanged || f.OldFileStatus != "M" || f.NewFileStatus != "R" {
		t.Errorf("rename: %+v", f)
	}
	od, _ = packet.ParseDiff([]byte(fdiff("a.go", "a.go", "", hunkA)))
	nd, _ = packet.ParseDiff([]byte(fdiff("a.go", "a.go", "", hunkA2)))
	h := CompareDiffs(od, nd).Files[0].Hunks[0]
	wantLines := []InterLine{{" ", " one"}, {" ", "-two"}, {"-", "+TWO"}, {"+", "+Two, again"}, {" ", " three"}}
	if len(h.Lines) != len(wantLines) {
		t.Fatalf("diff of diffs = %+v", h.Lines)
	}
	for i := range wantLines {
		if h.Lines[i] != wantLines[i] {
			t.Errorf("diff of diffs line %d = %+v, want %+v", i, h.Lines[i], wantLines[i])
		}
	}
	if d := CompareDiffs(nil, nil); len(d.Files) != 0 || d.Altered+d.Added+d.Removed+d.Unchanged != 0 {
		t.Errorf("nil diffs: %+v", d)
	}
}

func TestWordDiff(t *testing.T) {
	type change struct {
		line           int
		removed, added string
	}
	cases := []struct {
		name     string
		old, new string
		want     []change
	}{
		{"same", "a b\nc\n", "a b\nc\n", nil},
		{"one word", "the quick fox\njumps\n", "the slow fox\njumps\n", []change{{1, "quick", "slow"}}},
		{"rewrap only", "one two\nthree four\n", "one two three\nfour\n", nil},
		{"added line", "a\nb\n", "a\nnew words\nb\n", []change{{2, "", "new words"}}},
		{"removed line", "a\ngone now\nb\n", "a\nb\n", []change{{2, "gone now", ""}}},
		{"second line", "keep\nthe cat sat\n", "keep\nthe dog sat\n", []change{{2, "cat", "dog"}}},
		{"a shared short word does not split a rewrite", "the cat sat on the mat", "a bird flew over the house",
			[]change{{1, "the cat sat on the mat", "a bird flew over the house"}}},
		{"table row dropped, next row edited", "| 1 | x | major | first claim here |\n| 2 | y | minor | second claim stays mostly the same |\n",
			"| 2 | y | minor | second claim stays mostly the same, now longer |\n",
			[]change{{1, "| 1 | x | major | first claim here |", ""}, {1, "same", "same, now longer"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := WordDiff(tc.old, tc.new)
			if len(got) != len(tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			for i, w := range tc.want {
				g := got[i]
				if g.Line != w.line || g.Removed != w.removed || g.Added != w.added {
					t.Errorf("change %d = line %d -%q +%q, want line %d -%q +%q", i, g.Line, g.Removed, g.Added, w.line, w.removed, w.added)
				}
			}
		})
	}
}

func TestCompareWriters(t *testing.T) {
	c := Compare(packet.LoadSample(packet.Options{}), packettest.Round2(t))
	var text, md strings.Builder
	c.WriteText(&text)
	c.WriteMarkdown(&md)
	for _, want := range []string{"Since the last round (1bb1c70f4285 → 5e2f0c7a9d14)", "altered hunk @@ -61,30 +70,43 @@ → @@ -61,30 +70,45 @@",
		"-+\t\t\t\twait = ra // the store knows better", "added    seq 6 01-go-unit-tests validated", "resolved  #1"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q", want)
		}
	}
	for _, want := range []string{"### Since the last round (1bb1c70f4285 → 5e2f0c7a9d14)", "```diff\n", "| 1 | resolved | major |",
		"- `change-validation.md:60-61` ~~"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"old", "new", "head", "change", "documents", "documents_unchanged", "registry", "findings"} {
		if _, ok := m[key]; !ok {
			t.Errorf("JSON lacks %q", key)
		}
	}
	for _, key := range []string{`"head_sha"`, `"gate_ready"`, `"old_line"`, `"triage"`, `"end_line"`} {
		if !strings.Contains(string(data), key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
}

// A code span holds any text, backticks included.
func TestCodeSpan(t *testing.T) {
	for in, want := range map[string]string{
		"plain":        "`plain`",
		"has `tick`":   "`` has `tick` ``",
		"`edge":        "`` `edge ``",
		"a ``` b":      "````a ``` b````",
		"":             "` `",
		"two\nlines  ": "`two lines`",
	} {
		if got := codeSpan(in); got != want {
			t.Errorf("codeSpan(%q) = %q, want %q", in, got, want)
		}
	}
}

func BenchmarkCompareRounds(b *testing.B) {
	old := packet.LoadSample(packet.Options{})
	cur, err := packet.Load(round2, packet.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer cur.Close()
	for b.Loop() {
		Compare(old, cur)
	}
}

// A large change where one file of 5,000 moved: only that file is diffed.
func BenchmarkCompareDiffsLarge(b *testing.B) {
	var old, cur strings.Builder
	for i := range 5000 {
		name := "pkg/f" + strconv.Itoa(i) + ".go"
		old.WriteString(fdiff(name, name, "", hunkA, hunkB))
		if i == 2500 {
			cur.WriteString(fdiff(name, name, "", hunkA2, hunkB))
			continue
		}
		cur.WriteString(fdiff(name, name, "", hunkA, hunkB))
	}
	od, _ := packet.ParseDiff([]byte(old.String()))
	nd, _ := packet.ParseDiff([]byte(cur.String()))
	for b.Loop() {
		if d := CompareDiffs(od, nd); d.Altered != 1 || d.Unchanged != 4999 {
			b.Fatalf("altered %d, unchanged %d", d.Altered, d.Unchanged)
		}
	}
}
