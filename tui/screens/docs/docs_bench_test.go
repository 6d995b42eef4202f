package docs

import (
	"testing"

	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/tui/internal/screentest"
)

// BenchmarkDocsView draws a frame of the documents screen on the sample's
// review at 200x60, rendered.
func BenchmarkDocsView(b *testing.B) {
	d, _ := newSampleDocs(b, 200, 60)
	screentest.RunScreen(d, d.Open(common.Target{Screen: common.ScreenDocs, Path: "review.md", File: -1, Hunk: -1, DiffLine: -1}))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_ = d.View()
	}
}
