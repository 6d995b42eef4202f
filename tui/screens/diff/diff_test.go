package diff

import (
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

// newSampleDiff opens the diff screen on the sample packet at w×h.
func newSampleDiff(t testing.TB, w, h int) (*Diff, *packet.Packet) {
	t.Helper()
	p := packet.LoadSample(packet.Options{})
	d := New(common.NewContext(p, true, false))
	d.SetSize(w, h)
	d.View() // shown, as the workbench shows it: the rows are flattened on first use
	return d, p
}

// The rows are flattened when the diff screen is first used, not when the
// workbench opens elsewhere, and in the layout its first size chose: the
// same rows as flattening first and switching layout after.
func TestDiffBuildsOnFirstUse(t *testing.T) {
	p := packet.LoadSample(packet.Options{})
	lazy := New(common.NewContext(p, true, false))
	lazy.SetSize(200, 60)
	lazy.Update(common.ThemeChangedMsg{})
	if lazy.built || lazy.rows != nil {
		t.Fatalf("the diff was flattened before it was shown (built %v, %d rows)", lazy.built, len(lazy.rows))
	}
	if !lazy.sbs {
		t.Fatal("at 200 columns the first size should pick side by side")
	}
	lazy.View()
	if !lazy.built || len(lazy.rows) == 0 {
		t.Fatal("drawing the diff did not flatten it")
	}
	eager := New(common.NewContext(p, true, false))
	eager.ensureBuilt()
	eager.SetSize(200, 60)
	if !eager.sbs || len(eager.rows) != len(lazy.rows) || len(eager.marks) != len(lazy.marks) {
		t.Fatalf("lazy %d rows %d marks, eager %d rows %d marks", len(lazy.rows), len(lazy.marks), len(eager.rows), len(eager.marks))
	}
	for i := range lazy.rows {
		if lazy.rows[i] != eager.rows[i] {
			t.Fatalf("row %d: lazy %+v, eager %+v", i, lazy.rows[i], eager.rows[i])
		}
	}
	for _, open := range []func(d *Diff){
		func(d *Diff) { d.Open(common.Target{Screen: common.ScreenDiff, File: 1, Hunk: 0, DiffLine: 2}) },
		func(d *Diff) { d.Here() },
		func(d *Diff) { d.Status() },
		func(d *Diff) { d.Search("retry") },
		func(d *Diff) { press(d, "j") },
	} {
		d := New(common.NewContext(p, true, false))
		d.SetSize(80, 24)
		open(d)
		if !d.built {
			t.Error("an entry point read the rows before they were flattened")
		}
	}
}

// majorTarget is where review.md#1's first diff citation leads.
func majorTarget(t testing.TB, p *packet.Packet) (common.Target, packet.Citation) {
	t.Helper()
	f := p.Finding("review.md#1")
	if f == nil {
		t.Fatal("sample has no review.md#1")
	}
	for _, c := range f.Citations {
		if c.Kind == packet.CiteDiff {
			tg, ok := common.TargetForCitation(c)
			if !ok {
				t.Fatal("no target for", c.Text)
			}
			return tg, c
		}
	}
	t.Fatal("review.md#1 cites no diff line")
	return common.Target{}, packet.Citation{}
}

// press sends keys ("j", "enter", "ctrl+d", "pgdown", ...) and returns the
// last command.
func press(d *Diff, keys ...string) tea.Cmd { return screentest.Press(d, keys...) }

// cursorLine is the diff line under the cursor, or nil.
func cursorLine(d *Diff) *packet.DiffLine { return d.rowLine(d.rows[d.list.Cursor]) }

// onScreen reports whether the cursor row is drawn.
func onScreen(d *Diff) bool {
	return d.list.Cursor >= d.list.Offset && d.list.Cursor <= d.lastVisible()
}

func TestDiffGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		w, h int
		sbs  bool
	}{
		{"TestDiff80x24", 80, 24, false},
		{"TestDiff160x48", 160, 48, false},
		{"TestDiff200x60SideBySide", 200, 60, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, p := newSampleDiff(t, tc.w, tc.h)
			if d.sbs != tc.sbs {
				t.Fatalf("side by side = %v at %dx%d, want %v", d.sbs, tc.w, tc.h, tc.sbs)
			}
			tg, c := majorTarget(t, p)
			d.Open(tg)
			if dl := cursorLine(d); dl == nil || dl.New != c.Line {
				t.Fatalf("cursor on %+v, want new line %d", dl, c.Line)
			}
			v := d.View()
			screentest.CheckSize(t, v, tc.w, tc.h)
			screentest.Golden(t, tc.name, v)
		})
	}
}

func TestDiffStatus(t *testing.T) {
	d, p := newSampleDiff(t, 160, 48)
	tg, _ := majorTarget(t, p)
	d.Open(tg)
	// The cursor is on the cited line, above its finding, which the
	// counter counts as reached (it once said 8 here and 9 after ., so
	// the same place counted twice).
	want := "file 3/6 internal/upload/client.go · line 97 · hunk 7/18 · finding 9/16"
	if got := d.Status(); got != want {
		t.Errorf("Status() = %q, want %q", got, want)
	}
}

func TestDiffNextHunkAndFile(t *testing.T) {
	d, p := newSampleDiff(t, 80, 24)
	files := p.Diff.Files
	// ] walks every hunk header in order, across files.
	var got [][2]int
	for range 30 {
		before := d.list.Cursor
		press(d, "]")
		if d.list.Cursor == before {
			break
		}
		r := d.rows[d.list.Cursor]
		if r.kind != rowHunk {
			t.Fatalf("] put the cursor on a %v row", r.kind)
		}
		if !onScreen(d) {
			t.Fatal("] left the hunk header off screen")
		}
		got = append(got, [2]int{int(r.file), int(r.hunk)})
	}
	var want [][2]int
	for fi, f := range files {
		for hi := range f.Hunks {
			want = append(want, [2]int{fi, hi})
		}
	}
	if len(got) != len(want) {
		t.Fatalf("] visited %d hunks, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("hunk %d: got %v, want %v", i, got[i], want[i])
		}
	}
	press(d, "[")
	if r := d.rows[d.list.Cursor]; r.kind != rowHunk || int(r.file) != want[len(want)-2][0] || int(r.hunk) != want[len(want)-2][1] {
		t.Fatalf("[ went to %+v", r)
	}

	// } visits each file header, { goes back.
	press(d, "g")
	for fi := 1; fi < len(files); fi++ {
		press(d, "}")
		if r := d.rows[d.list.Cursor]; r.kind != rowFile || int(r.file) != fi {
			t.Fatalf("} #%d: cursor on %+v, want file %d header", fi, r, fi)
		}
	}
	press(d, "}")
	if int(d.rows[d.list.Cursor].file) != len(files)-1 {
		t.Fatal("} past the last file moved the cursor")
	}
	press(d, "j", "j", "{")
	if r := d.rows[d.list.Cursor]; r.kind != rowFile || int(r.file) != len(files)-1 {
		t.Fatalf("{ inside the last file went to %+v, want its header", r)
	}
	press(d, "{")
	if r := d.rows[d.list.Cursor]; r.kind != rowFile || int(r.file) != len(files)-2 {
		t.Fatalf("{ went to %+v", r)
	}
}

func TestDiffNextFinding(t *testing.T) {
	for _, sbs := range []bool{false, true} {
		d, _ := newSampleDiff(t, 200, 60)
		if d.sbs != sbs {
			press(d, "s")
		}
		n := 0
		for {
			before := d.list.Cursor
			press(d, ".")
			if d.list.Cursor == before {
				break
			}
			r := d.rows[d.list.Cursor]
			if r.kind != rowFinding || !onScreen(d) {
				t.Fatalf("sbs=%v: . put the cursor on %+v (on screen %v)", sbs, r, onScreen(d))
			}
			// The finding sits under the line it cites, after any other
			// findings on that line.
			above := d.list.Cursor - 1
			for d.rows[above].kind == rowFinding {
				above--
			}
			if d.rows[above].kind != rowLine {
				t.Fatalf("sbs=%v: finding row %d is not under a line", sbs, d.list.Cursor)
			}
			n++
		}
		if n != len(d.anchorRow) || n == 0 {
			t.Fatalf("sbs=%v: . visited %d findings, want %d", sbs, n, len(d.anchorRow))
		}
		press(d, ",")
		if d.list.Cursor != int(d.anchorRow[n-2]) {
			t.Fatalf("sbs=%v: , went to row %d, want %d", sbs, d.list.Cursor, d.anchorRow[n-2])
		}
	}
}

func TestDiffFindingsUnderTheirLines(t *testing.T) {
	d, p := newSampleDiff(t, 160, 48)
	for _, sbs := range []bool{false, true} {
		if d.sbs != sbs {
			press(d, "s")
		}
		for _, f := range p.Findings {
			for _, c := range f.Citations {
				if c.Kind != packet.CiteDiff || c.DiffHunk < 0 {
					continue
				}
				// Find the finding's row for this citation: the line row above
				// it (skipping other findings) holds the cited line.
				found := false
				for mi, m := range d.marks {
					if m.f != f || int(m.line) != c.DiffLine || int(m.hunk) != c.DiffHunk || int(m.file) != c.DiffFile {
						continue
					}
					r := int(d.markRow[mi])
					for d.rows[r].kind == rowFinding {
						r--
					}
					row := d.rows[r]
					if row.kind != rowLine || (int(row.a) != c.DiffLine && !(sbs && int(row.b) == c.DiffLine)) {
						t.Errorf("sbs=%v: %s (%s) drawn under %+v", sbs, f.ID, c.Text, row)
					}
					found = true
				}
				if !found {
					t.Errorf("sbs=%v: %s's citation %s has no inline row", sbs, f.ID, c.Text)
				}
			}
		}
	}
	// File list counts: distinct findings citing the file (diff or diff-file).
	want := map[string]int{
		"docs/uploading-artifacts.md": 3, "internal/upload/backoff.go": 4, "internal/upload/client.go": 2,
		"internal/upload/client_test.go": 2, "tools/acmeup/acmeup.py": 3, "tools/acmeup/test_acmeup.py": 2,
	}
	for i, f := range p.Diff.Files {
		if d.fileFindings[i] != want[f.Path()] {
			t.Errorf("%s: %d findings, want %d", f.Path(), d.fileFindings[i], want[f.Path()])
		}
	}
}

func TestDiffOpenCitations(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}, {200, 60}} {
		for _, wrap := range []bool{false, true} {
			d, p := newSampleDiff(t, sz[0], sz[1])
			if wrap {
				press(d, "w")
			}
			for _, c := range p.AllCitations() {
				if c.Kind != packet.CiteDiff {
					continue
				}
				tg, _ := common.TargetForCitation(*c)
				d.Open(tg)
				dl := cursorLine(d)
				if dl == nil || dl.New != c.Line {
					t.Errorf("%dx%d wrap=%v: Open(%s) put the cursor on %+v", sz[0], sz[1], wrap, c.Text, dl)
					continue
				}
				if d.rows[d.list.Cursor].kind != rowLine {
					t.Errorf("Open(%s): cursor on a %v row", c.Text, d.rows[d.list.Cursor].kind)
				}
				if !onScreen(d) {
					t.Errorf("%dx%d wrap=%v: Open(%s) left the cursor off screen", sz[0], sz[1], wrap, c.Text)
				}
				// Every line of the cited range on the new side is highlighted.
				end := max(c.EndLine, c.Line)
				for i, r := range d.rows {
					if r.kind != rowLine || int(r.file) != c.DiffFile {
						continue
					}
					l := d.rowLine(r)
					in := l != nil && l.New >= c.Line && l.New <= end
					if in && !d.highlighted(d.rows[i]) {
						t.Errorf("Open(%s): line %d not highlighted", c.Text, l.New)
					}
					if !in && d.highlighted(d.rows[i]) && !d.sbs {
						t.Errorf("Open(%s): line %+v highlighted outside the range", c.Text, l)
					}
				}
			}
		}
	}
}

func TestDiffOpenCentres(t *testing.T) {
	d, p := newSampleDiff(t, 160, 48)
	tg, _ := majorTarget(t, p)
	d.Open(tg)
	if mid := d.list.Cursor - d.list.Offset; mid < 20 || mid > 26 {
		t.Errorf("cursor is row %d of the view, want it near the middle of 48", mid)
	}
}

func TestDiffOpenFileAndLine(t *testing.T) {
	d, p := newSampleDiff(t, 120, 40)
	fi := p.Diff.FileIndex("tools/acmeup/acmeup.py")
	d.Open(common.Target{Screen: common.ScreenDiff, File: fi, Hunk: -1, DiffLine: -1})
	if r := d.rows[d.list.Cursor]; r.kind != rowFile || int(r.file) != fi || d.list.Offset != d.list.Cursor {
		t.Fatalf("Open(file) put the cursor on %+v, top %d", r, d.list.Offset)
	}
	d.Open(common.Target{Screen: common.ScreenDiff, Path: "tools/acmeup/acmeup.py", Line: 117, EndLine: 118, File: -1, Hunk: -1, DiffLine: -1})
	if dl := cursorLine(d); dl == nil || dl.New != 117 || int(d.rows[d.list.Cursor].file) != fi {
		t.Fatalf("Open(path:117) put the cursor on %+v", dl)
	}
	d.Open(common.Target{Screen: common.ScreenDiff, Finding: "review.md#4", File: -1, Hunk: -1, DiffLine: -1})
	if r := d.rows[d.list.Cursor]; r.kind != rowFinding || d.marks[r.b].f.ID != "review.md#4" {
		t.Fatalf("Open(finding) put the cursor on %+v", r)
	}
}

func TestDiffFollowFinding(t *testing.T) {
	d, _ := newSampleDiff(t, 80, 24)
	if cmd := press(d, "enter"); cmd != nil {
		t.Fatal("enter on a file header followed something")
	}
	press(d, ".")
	want := d.marks[d.rows[d.list.Cursor].b].f.ID
	cmd := press(d, "enter")
	if cmd == nil {
		t.Fatal("enter on an inline finding returned no command")
	}
	msg, ok := cmd().(common.FollowMsg)
	if !ok || msg.To.Screen != common.ScreenFindings || msg.To.Finding != want {
		t.Fatalf("enter sent %#v, want FollowMsg to %s on Findings", cmd(), want)
	}
	// enter on the line the finding sits under follows it too.
	press(d, "k")
	if cmd := press(d, "enter"); cmd == nil || cmd().(common.FollowMsg).To.Finding != want {
		t.Fatal("enter on a cited line did not follow its finding")
	}
	press(d, "k")
	if d.rows[d.list.Cursor+1].kind != rowFinding {
		if cmd := press(d, "enter"); cmd != nil {
			t.Fatal("enter on a plain line followed something")
		}
	}
}

func TestDiffSideBySideToggle(t *testing.T) {
	d, p := newSampleDiff(t, 160, 48)
	tg, c := majorTarget(t, p)
	d.Open(tg)
	screenRow := d.list.Cursor - d.list.Offset
	press(d, "s")
	if !d.sbs {
		t.Fatal("s did not switch to side by side")
	}
	if dl := cursorLine(d); dl == nil || dl.New != c.Line || d.list.Cursor-d.list.Offset != screenRow {
		t.Fatalf("after s: cursor on %+v at screen row %d, want new line %d at %d", dl, d.list.Cursor-d.list.Offset, c.Line, screenRow)
	}
	screentest.CheckSize(t, d.View(), 160, 48)
	press(d, "s")
	if d.sbs {
		t.Fatal("s did not switch back")
	}
	if dl := cursorLine(d); dl == nil || dl.New != c.Line {
		t.Fatal("cursor moved off the line after two toggles")
	}
}

func TestDiffHereOpenRoundTrip(t *testing.T) {
	moves := [][]string{
		{},
		{"j", "j", "j"},
		{"ctrl+d", "j"},
		{"."},
		{"]", "]"},
		{"}", "}"},
		{"G"},
		{"pgdown", "k"},
	}
	for _, sz := range [][2]int{{80, 24}, {200, 60}} {
		for _, wrap := range []bool{false, true} {
			for _, m := range moves {
				d, p := newSampleDiff(t, sz[0], sz[1])
				if wrap {
					press(d, "w")
				}
				tg, _ := majorTarget(t, p)
				d.Open(tg)
				press(d, m...)
				here := d.Here()
				cursor, top, status := d.list.Cursor, d.list.Offset, d.Status()

				d2, _ := newSampleDiff(t, sz[0], sz[1])
				if wrap {
					press(d2, "w")
				}
				press(d2, "G") // start somewhere else
				d2.Open(here)
				if d2.list.Cursor != cursor || d2.list.Offset != top || d2.Status() != status {
					t.Errorf("%v wrap=%v %v: Open(Here()) gave cursor %d top %d (%s), want %d %d (%s)",
						sz, wrap, m, d2.list.Cursor, d2.list.Offset, d2.Status(), cursor, top, status)
				}
				if again := d2.Here(); again != here {
					t.Errorf("%v %v: Here() after Open = %+v, want %+v", sz, m, again, here)
				}
			}
		}
	}
}

func TestDiffSearch(t *testing.T) {
	d, p := newSampleDiff(t, 120, 40)
	want := 0
	for _, f := range p.Diff.Files {
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				if strings.Contains(strings.ToLower(l.Text), "retryafter") {
					want++
				}
			}
		}
	}
	n := d.Search("RetryAFTER")
	if n != want || n < 2 {
		t.Fatalf("Search found %d, want %d", n, want)
	}
	first := d.list.Cursor
	if !strings.Contains(strings.ToLower(cursorLine(d).Text), "retryafter") || !onScreen(d) {
		t.Fatal("Search did not move to a match")
	}
	d.NextMatch(1)
	if d.list.Cursor <= first {
		t.Fatal("NextMatch(1) did not move forward")
	}
	d.NextMatch(-1)
	if d.list.Cursor != first {
		t.Fatal("NextMatch(-1) did not come back")
	}
	for range n {
		d.NextMatch(1)
	}
	if d.list.Cursor != first {
		t.Fatal("NextMatch did not cycle through all matches")
	}
	if !strings.Contains(ansi.Strip(d.View()), "•") {
		t.Error("matches are not marked")
	}
	if d.Search("no such text anywhere") != 0 || d.Search("") != 0 {
		t.Error("a missing query matched")
	}
	press(d, "s")
	if got := d.Search("retryafter"); got == 0 {
		t.Error("side-by-side search found nothing")
	}
}

func TestDiffScrollKeys(t *testing.T) {
	d, _ := newSampleDiff(t, 80, 24)
	press(d, "j", "j")
	if d.list.Cursor != 2 {
		t.Fatalf("j j: cursor %d", d.list.Cursor)
	}
	press(d, "ctrl+d")
	if d.list.Offset != 11 || d.list.Cursor != 13 {
		t.Fatalf("ctrl+d: top %d cursor %d", d.list.Offset, d.list.Cursor)
	}
	press(d, "ctrl+u")
	if d.list.Offset != 0 || d.list.Cursor != 2 {
		t.Fatalf("ctrl+u: top %d cursor %d", d.list.Offset, d.list.Cursor)
	}
	press(d, "pgdown")
	if d.list.Offset != 23 {
		t.Fatalf("pgdown: top %d", d.list.Offset)
	}
	press(d, "G")
	if d.list.Cursor != len(d.rows)-1 || !onScreen(d) {
		t.Fatal("G did not go to the last row")
	}
	press(d, "g")
	if d.list.Cursor != 0 || d.list.Offset != 0 {
		t.Fatal("g did not go to the top")
	}
	d.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if d.list.Offset != 3 {
		t.Fatalf("wheel down: top %d, want 3", d.list.Offset)
	}
	d.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if d.list.Offset != 0 {
		t.Fatalf("wheel up: top %d", d.list.Offset)
	}
	press(d, "l", "l")
	if d.xOff != 16 {
		t.Fatalf("l l: x offset %d", d.xOff)
	}
	press(d, "h")
	if d.xOff != 8 {
		t.Fatalf("h: x offset %d", d.xOff)
	}
	press(d, "w")
	if d.xOff != 0 || !d.wrap {
		t.Fatal("w did not turn wrap on and reset the offset")
	}
	press(d, "l")
	if d.xOff != 0 {
		t.Fatal("l scrolled while wrapping")
	}
}

func TestDiffWrap(t *testing.T) {
	d, p := newSampleDiff(t, 80, 24)
	tg, _ := majorTarget(t, p)
	d.Open(tg)
	press(d, "w")
	v := d.View()
	screentest.CheckSize(t, v, 80, 24)
	// The long line 102 is cut unwrapped and whole wrapped.
	if !strings.Contains(ansi.Strip(v), "Millisecond))") {
		t.Errorf("wrapped view does not show the end of a long line:\n%s", ansi.Strip(v))
	}
	if !onScreen(d) {
		t.Error("cursor off screen after wrap")
	}
	press(d, "s")
	screentest.CheckSize(t, d.View(), 80, 24)
}

// The wheel over the diff's file list walks the files; over the diff it scrolls.
func TestDiffWheelUnderPointer(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		d := New(common.NewContext(packet.LoadSample(packet.Options{}), true, false))
		d.SetSize(160, 40)
		st0 := d.Status()
		d.Update(tea.MouseWheelMsg{X: 5, Y: 5, Button: tea.MouseWheelDown})
		if st := d.Status(); !strings.Contains(st, "file 2/6") {
			t.Errorf("wheel over the list: %q (was %q)", st, st0)
		}
		top := d.Here().Offset
		d.Update(tea.MouseWheelMsg{X: 100, Y: 5, Button: tea.MouseWheelDown})
		if d.Here().Offset == top || !strings.Contains(d.Status(), "file 2/6") {
			t.Errorf("wheel over the diff did not scroll within the file: offset %d→%d, %q", top, d.Here().Offset, d.Status())
		}
	})
}
