package diff

import (
	"github.com/vetter-dev/vetter/tui/internal/screentest"

	"testing"

	"github.com/vetter-dev/vetter/tui/common"
)

// bigDiff is the diff screen on the big packet at 200×60, unified, opened
// in the middle of the diff.
func bigDiff(b *testing.B) *Diff {
	b.Helper()
	d := New(common.NewContext(screentest.BigDiff(b), true, false))
	d.SetSize(200, 60)
	if d.sbs {
		press(d, "s")
	}
	d.Open(common.Target{Screen: common.ScreenDiff, File: len(d.files) / 2, Hunk: 0, DiffLine: 100})
	return d
}

// BenchmarkDiffBuild is the diff screen's first use on 200,000 diff lines
// and 2,000 findings: flattening the rows and placing the findings.
func BenchmarkDiffBuild(b *testing.B) {
	ctx := common.NewContext(screentest.BigDiff(b), true, false)
	b.ReportAllocs()
	for b.Loop() {
		New(ctx).ensureBuilt()
	}
}

// BenchmarkDiffView draws one screen of the big diff: the same screen again
// (what every frame costs), the split layout, and a new screen each time
// (page down: nothing on it highlighted or diffed yet).
func BenchmarkDiffView(b *testing.B) {
	p := screentest.BigDiff(b)
	setup := func(sbs bool) *Diff {
		d := New(common.NewContext(p, true, false))
		d.SetSize(200, 60)
		if d.sbs != sbs {
			press(d, "s")
		}
		d.Open(common.Target{Screen: common.ScreenDiff, File: len(d.files) / 2, Hunk: 0, DiffLine: 100})
		return d
	}
	b.Run("unified", func(b *testing.B) {
		d := setup(false)
		b.ReportAllocs()
		for b.Loop() {
			_ = d.View()
		}
	})
	b.Run("split", func(b *testing.B) {
		d := setup(true)
		b.ReportAllocs()
		for b.Loop() {
			_ = d.View()
		}
	})
	b.Run("pagedown", func(b *testing.B) { benchPageDown(b, setup(false), func() {}) })
}

// benchPageDown pages through d, drawing each new screen, back to the top
// at the end; after runs after each frame.
func benchPageDown(b *testing.B, d *Diff, after func()) {
	b.ReportAllocs()
	for b.Loop() {
		if d.list.Cursor >= len(d.rows)-1 {
			press(d, "g")
		}
		press(d, "pgdown")
		_ = d.View()
		after()
	}
}

// BenchmarkDiffNextHunk is ] through the big diff.
func BenchmarkDiffNextHunk(b *testing.B) {
	benchJumps(b, "]", func(d *Diff) int { return int(d.hunkRow[len(d.hunkRow)-1]) })
}

// BenchmarkDiffNextFile is } through the big diff.
func BenchmarkDiffNextFile(b *testing.B) {
	benchJumps(b, "}", func(d *Diff) int { return int(d.fileRow[len(d.fileRow)-1]) })
}

// benchJumps presses key through the big diff, back to the top once the
// cursor reaches the row last gives (the last hunk or file).
func benchJumps(b *testing.B, key string, last func(*Diff) int) {
	d := bigDiff(b)
	b.ReportAllocs()
	for b.Loop() {
		if d.list.Cursor >= last(d) {
			d.list.Cursor, d.list.Offset = 0, 0
		}
		press(d, key)
	}
}

// BenchmarkDiffLastFile is G from the top of the big diff and drawing the
// last screen.
func BenchmarkDiffLastFile(b *testing.B) {
	d := bigDiff(b)
	b.ReportAllocs()
	for b.Loop() {
		d.list.Cursor, d.list.Offset = 0, 0
		press(d, "G")
		_ = d.View()
	}
}

// BenchmarkDiffSearch scans the big diff's 200,000 lines for a word.
func BenchmarkDiffSearch(b *testing.B) {
	d := bigDiff(b)
	b.ReportAllocs()
	for b.Loop() {
		if d.Search("OFFSET") == 0 {
			b.Fatal("no match")
		}
	}
}
