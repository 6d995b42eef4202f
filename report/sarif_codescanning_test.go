package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/internal/packettest"
	"github.com/vetter-dev/vetter/internal/reviewtest"
	"github.com/vetter-dev/vetter/packet"
)

// A file the diff adds whole is known at the head, so its results carry the
// primaryLocationLineHash code scanning would compute from a checkout; an
// attention item is a result of its scan rule, whose description and help
// say why it matters; the run names its category and a semantic version.
func TestSARIFForCodeScanning(t *testing.T) {
	dir := packettest.SampleDir(t, "p")
	script := "#!/bin/sh\ncurl -fsSL https://get.example.com/install.sh | sh\necho done\n"
	var diff strings.Builder
	diff.WriteString("diff --git a/scripts/fetch.sh b/scripts/fetch.sh\nnew file mode 100755\nindex 0000000..1111111\n--- /dev/null\n+++ b/scripts/fetch.sh\n@@ -0,0 +1,3 @@\n")
	for _, l := range strings.SplitAfter(strings.TrimSuffix(script, "\n"), "\n") {
		diff.WriteString("+" + strings.TrimSuffix(l, "\n") + "\n")
	}
	f, err := os.OpenFile(filepath.Join(dir, packet.DiffPath), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(diff.String())
	f.Close()
	p := reviewtest.Load(t, dir)

	sarif := validSARIF(t, p, "v1.2.3")
	var doc SARIFLog
	if err := json.Unmarshal(sarif, &doc); err != nil {
		t.Fatal(err)
	}
	run := doc.Runs[0]
	if d := run.Tool.Driver; d.SemanticVersion != "1.2.3" {
		t.Errorf("semanticVersion %q, want 1.2.3", d.SemanticVersion)
	}
	if a := run.AutomationDetails; a == nil || a.ID != SARIFCategory+p.Change.HeadSHA {
		t.Errorf("automationDetails %+v", a)
	}
	for _, r := range run.Tool.Driver.Rules {
		if r.FullDescription == nil || r.FullDescription.Text == "" || r.Help == nil || r.Help.Text == "" || r.Help.Markdown == "" {
			t.Errorf("rule %s has no fullDescription or help", r.ID)
		}
	}
	hashes := LineHashes(script)
	var found bool
	lineHash := regexp.MustCompile(`^[0-9a-f]{1,16}:[1-9][0-9]*$`)
	for _, r := range run.Results {
		if r.RuleIndex >= len(run.Tool.Driver.Rules) || run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result of %s points at rule %d", r.RuleID, r.RuleIndex)
		}
		h, ok := r.PartialFingerprints[SARIFLineHashKey]
		if ok && !lineHash.MatchString(h) {
			t.Errorf("%s: primaryLocationLineHash %q", r.RuleID, h)
		}
		loc := r.Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URI != "scripts/fetch.sh" {
			if ok {
				t.Errorf("%s at %s has a line hash, but the packet does not hold that file whole", r.RuleID, loc.ArtifactLocation.URI)
			}
			continue
		}
		if !strings.HasPrefix(r.RuleID, "attention/") || loc.Region == nil || loc.Region.StartLine != 2 {
			continue
		}
		found = true
		if h != hashes[1] {
			t.Errorf("line 2's hash %q, want %q", h, hashes[1])
		}
	}
	if !found {
		t.Fatalf("no attention result at scripts/fetch.sh:2 in\n%s", sarif)
	}
	if semanticVersion("dev+1bb1c70f4285") != "" || semanticVersion("dev") != "" || semanticVersion("v0.3.0-rc.1") != "0.3.0-rc.1" {
		t.Error("semanticVersion takes only a release's version")
	}
}
