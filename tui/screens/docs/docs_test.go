package docs

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

func newSampleDocs(t testing.TB, w, h int) (*Docs, *common.Context) {
	return screentest.SampleScreen(w, h, New)
}

// openSampleDoc is the docs screen at w×h with the sample's document path
// open from its top, where most docs tests start.
func openSampleDoc(t testing.TB, w, h int, path string) (*Docs, *common.Context) {
	d, ctx := newSampleDocs(t, w, h)
	screentest.RunScreen(d, d.Open(common.Target{Screen: common.ScreenDocs, Path: path, File: -1, Hunk: -1, DiffLine: -1}))
	return d, ctx
}

func TestDocsGolden(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		name := func(what string) string {
			return "TestDocs" + what + "_" + strconv.Itoa(sz.w) + "x" + strconv.Itoa(sz.h)
		}
		t.Run(strconv.Itoa(sz.w), func(t *testing.T) {
			d, _ := openSampleDoc(t, sz.w, sz.h, "review.md")
			v := d.View()
			screentest.CheckSize(t, v, sz.w, sz.h)
			screentest.Golden(t, name("ReviewRendered"), v)

			screentest.RunScreen(d, d.Open(common.Target{Screen: common.ScreenDocs, Path: "change-validation.md", Line: 58, EndLine: 61, File: -1, Hunk: -1, DiffLine: -1}))
			v = d.View()
			screentest.CheckSize(t, v, sz.w, sz.h)
			screentest.Golden(t, name("ValidationRaw58"), v)

			screentest.RunScreen(d, d.Update(screentest.KeyMsg("C")))
			v = d.View()
			screentest.CheckSize(t, v, sz.w, sz.h)
			screentest.Golden(t, name("ValidationCitations"), v)
		})
	}
}

func TestDocsOpenRangeHighlighted(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {160, 48}, {200, 60}} {
		d, _ := newSampleDocs(t, sz.w, sz.h)
		screentest.RunScreen(d, d.Open(common.Target{Screen: common.ScreenDocs, Path: "change-validation.md", Line: 112, EndLine: 116, File: -1, Hunk: -1, DiffLine: -1}))
		if d.mode != docsRaw || d.shown != shownRaw {
			t.Fatalf("%dx%d: opened at a line, mode %v shown %v, want the source view", sz.w, sz.h, d.mode, d.shown)
		}
		if d.hlStart != 111 || d.hlEnd != 116 {
			t.Errorf("%dx%d: highlight [%d,%d), want [111,116)", sz.w, sz.h, d.hlStart, d.hlEnd)
		}
		if d.pane.Cursor() != 111 {
			t.Errorf("%dx%d: cursor %d, want 111", sz.w, sz.h, d.pane.Cursor())
		}
		v := ansi.Strip(d.View())
		for _, n := range []string{"▸112 ", "┃113 ", "┃114 ", "┃115 ", "┃116 "} {
			if !regexp.MustCompile(n[:len(n)-4] + ` *` + n[len(n)-4:]).MatchString(v) {
				t.Errorf("%dx%d: %q is not on screen:\n%s", sz.w, sz.h, n, v)
			}
		}
		if !strings.HasPrefix(d.Status(), "change-validation.md · line 112/138 · source") {
			t.Errorf("status %q", d.Status())
		}
	}
}

func TestDocsOpenBeforeSize(t *testing.T) {
	p := packet.LoadSample(packet.Options{})
	d := New(common.NewContext(p, true, false))
	cmd := d.Open(common.Target{Screen: common.ScreenDocs, Path: "change-validation.md", Line: 120, EndLine: 121, File: -1, Hunk: -1, DiffLine: -1})
	d.SetSize(80, 24)
	screentest.RunScreen(d, tea.Batch(cmd, d.Update(tea.WindowSizeMsg{Width: 80, Height: 24})))
	v := ansi.Strip(d.View())
	if !regexp.MustCompile(`▸ *120 `).MatchString(v) || !regexp.MustCompile(`┃ *121 `).MatchString(v) {
		t.Fatalf("range not on screen:\n%s", v)
	}
}

func TestDocsFollowCitation(t *testing.T) {
	d, _ := openSampleDoc(t, 160, 48, "change-validation.md")
	screentest.RunScreen(d, d.Update(screentest.KeyMsg("C")))
	if d.panel != panelCitations {
		t.Fatal("C did not open the citations")
	}
	// The second citation is the setup run's log.
	screentest.RunScreen(d, d.Update(screentest.KeyMsg("j")))
	to := screentest.FollowTarget(t, screentest.RunScreen(d, d.Update(screentest.KeyMsg("enter"))))
	want := common.Target{Screen: common.ScreenLogs, Path: "validation/logs/2026-10-14T10-16-31.402Z-bash-a91f.log", File: -1, Hunk: -1, DiffLine: -1}
	if to != want {
		t.Errorf("followed to %+v, want %+v", to, want)
	}

	// An external citation says so instead of following.
	doc := d.doc()
	for i, c := range doc.Citations {
		if c.Kind == packet.CiteExternal {
			d.panelList.Cursor = i
			break
		}
	}
	msgs := screentest.RunScreen(d, d.Update(screentest.KeyMsg("enter")))
	if len(msgs) != 1 || !strings.Contains(msgs[0].(common.StatusMsg).Text, "outside the packet") {
		t.Errorf("external citation gave %#v", msgs)
	}

	// esc closes the list; enter on a source line follows its citation.
	screentest.RunScreen(d, d.Update(screentest.KeyMsg("esc")))
	screentest.RunScreen(d, d.Open(common.Target{Screen: common.ScreenDocs, Path: "change-validation.md", Line: 46, File: -1, Hunk: -1, DiffLine: -1}))
	to = screentest.FollowTarget(t, screentest.RunScreen(d, d.Update(screentest.KeyMsg("enter"))))
	if to.Screen != common.ScreenLogs || to.Path != "validation/logs/2026-10-14T10-22-07.114Z-bash-7c1e.log" {
		t.Errorf("enter on line 46 followed to %+v", to)
	}
}

func TestDocsFollowInRendered(t *testing.T) {
	d, _ := openSampleDoc(t, 160, 48, "review.md")
	// Find the rendered row that carries "change.md:8" and follow from it.
	row := -1
	for i, l := range d.view.lines {
		if strings.Contains(ansi.Strip(l), "change.md:8") {
			row = i
			break
		}
	}
	if row < 0 {
		t.Fatal("change.md:8 not rendered")
	}
	d.pane.SetCursor(row)
	to := screentest.FollowTarget(t, screentest.RunScreen(d, d.Update(screentest.KeyMsg("enter"))))
	if to.Screen != common.ScreenDocs || to.Path != "change.md" || to.Line != 8 {
		t.Errorf("followed to %+v", to)
	}
}

func TestDocsVerdictAndOutcome(t *testing.T) {
	d, ctx := openSampleDoc(t, 160, 48, "review.md")

	screentest.RunScreen(d, d.Update(screentest.KeyMsg("V")))
	if got := d.doc().Path; got != "change-validation.md" {
		t.Fatalf("V opened %s", got)
	}
	if d.shown != shownRendered {
		t.Fatalf("V left the rendered view (shown %v)", d.shown)
	}
	if row := ansi.Strip(d.view.lines[d.pane.Cursor()]); !strings.Contains(row, "## Verdict: pass") {
		t.Errorf("V put the cursor on %q", row)
	}
	if !strings.Contains(ansi.Strip(d.View()), "## Verdict: pass") {
		t.Error("verdict not on screen")
	}

	screentest.RunScreen(d, d.Update(screentest.KeyMsg("I")))
	if row := ansi.Strip(d.view.lines[d.pane.Cursor()]); !strings.Contains(row, "## Investigation outcome:") {
		t.Errorf("I put the cursor on %q", row)
	}
	if !strings.Contains(ansi.Strip(d.View()), "## Investigation outcome:") {
		t.Error("investigation outcome not on screen")
	}

	// In the source view they land on the exact line, highlighted.
	screentest.RunScreen(d, d.Update(screentest.KeyMsg("r")))
	screentest.RunScreen(d, d.Update(screentest.KeyMsg("V")))
	if d.pane.Cursor() != ctx.Packet.Verdict.Line-1 || d.hlStart != ctx.Packet.Verdict.Line-1 {
		t.Errorf("V in source: cursor %d highlight %d, want %d", d.pane.Cursor(), d.hlStart, ctx.Packet.Verdict.Line-1)
	}
	screentest.RunScreen(d, d.Update(screentest.KeyMsg("I")))
	if d.pane.Cursor() != ctx.Packet.Outcome.Line-1 {
		t.Errorf("I in source: cursor %d, want %d", d.pane.Cursor(), ctx.Packet.Outcome.Line-1)
	}
}

func TestDocsOutline(t *testing.T) {
	d, _ := openSampleDoc(t, 80, 24, "change-validation.md")
	screentest.RunScreen(d, d.Update(screentest.KeyMsg("o")))
	if d.panel != panelOutline {
		t.Fatal("o did not open the outline")
	}
	screentest.Golden(t, "TestDocsOutline_80x24", d.View())
	for range 3 {
		screentest.RunScreen(d, d.Update(screentest.KeyMsg("j")))
	}
	screentest.RunScreen(d, d.Update(screentest.KeyMsg("enter")))
	if d.panel != panelNone {
		t.Error("the outline stayed open after the jump")
	}
	h := d.doc().Headings[3]
	if row := ansi.Strip(d.view.lines[d.pane.Cursor()]); !strings.Contains(row, h.Text) {
		t.Errorf("jump to %q put the cursor on %q", h.Text, row)
	}
}

func TestDocsSearch(t *testing.T) {
	d, _ := openSampleDoc(t, 160, 48, "change-validation.md")
	screentest.RunScreen(d, d.Update(screentest.KeyMsg("r"))) // source lines, so the matches are known lines
	n := d.Search("recipe 0")
	var want []int
	for i, l := range d.doc().Lines {
		if strings.Contains(strings.ToLower(l), "recipe 0") {
			want = append(want, i)
		}
	}
	if n != len(want) || n < 3 {
		t.Fatalf("Search found %d, want %d (%v)", n, len(want), want)
	}
	if d.pane.Cursor() != want[0] {
		t.Errorf("first match at %d, want %d", d.pane.Cursor(), want[0])
	}
	d.NextMatch(1)
	if d.pane.Cursor() != want[1] {
		t.Errorf("n went to %d, want %d", d.pane.Cursor(), want[1])
	}
	d.NextMatch(-1)
	d.NextMatch(-1)
	if d.pane.Cursor() != want[len(want)-1] {
		t.Errorf("N twice went to %d, want the last match %d", d.pane.Cursor(), want[len(want)-1])
	}
	// Switching to the rendering searches the rendered rows.
	screentest.RunScreen(d, d.Update(screentest.KeyMsg("r")))
	if c := strings.ToLower(ansi.Strip(d.view.lines[0])); d.marks == nil || (d.marks[0] != strings.Contains(c, "recipe 0")) {
		t.Error("marks were not recomputed for the rendering")
	}
}

func TestDocsHereRoundTrip(t *testing.T) {
	d, _ := openSampleDoc(t, 160, 48, "plan.md")
	for range 3 {
		screentest.RunScreen(d, d.Update(screentest.KeyMsg("pgdown")))
	}
	screentest.RunScreen(d, d.Update(screentest.KeyMsg("j")))
	here := d.Here()
	off, cur := d.pane.Offset(), d.pane.Cursor()
	screentest.RunScreen(d, d.Open(common.Target{Screen: common.ScreenDocs, Path: "review.md", File: -1, Hunk: -1, DiffLine: -1}))
	screentest.RunScreen(d, d.Open(here))
	if d.doc().Path != "plan.md" || d.shown != shownRendered || d.pane.Offset() != off || d.pane.Cursor() != cur {
		t.Errorf("rendered round trip: %s shown %v offset %d cursor %d, want plan.md offset %d cursor %d",
			d.doc().Path, d.shown, d.pane.Offset(), d.pane.Cursor(), off, cur)
	}

	screentest.RunScreen(d, d.Open(common.Target{Screen: common.ScreenDocs, Path: "change-validation.md", Line: 58, EndLine: 61, File: -1, Hunk: -1, DiffLine: -1}))
	screentest.RunScreen(d, d.Update(screentest.KeyMsg("j")))
	here = d.Here()
	off, cur = d.pane.Offset(), d.pane.Cursor()
	screentest.RunScreen(d, d.Open(common.Target{Screen: common.ScreenDocs, Path: "plan.md", File: -1, Hunk: -1, DiffLine: -1}))
	screentest.RunScreen(d, d.Open(here))
	if d.doc().Path != "change-validation.md" || d.shown != shownRaw || d.pane.Offset() != off || d.pane.Cursor() != cur ||
		d.hlStart != 57 || d.hlEnd != 61 {
		t.Errorf("source round trip: %s shown %v offset %d cursor %d hl [%d,%d)", d.doc().Path, d.shown,
			d.pane.Offset(), d.pane.Cursor(), d.hlStart, d.hlEnd)
	}
}

func TestDocsModeKeepsPlace(t *testing.T) {
	d, _ := openSampleDoc(t, 160, 48, "change-validation.md")
	screentest.RunScreen(d, d.Update(screentest.KeyMsg("I")))
	screentest.RunScreen(d, d.Update(screentest.KeyMsg("r")))
	if got, want := d.pane.Cursor(), d.doc().Headings[len(d.doc().Headings)-2].Line-1; got != want {
		t.Errorf("rendered→source moved the cursor to %d, want the outcome heading %d", got, want)
	}
	screentest.RunScreen(d, d.Update(screentest.KeyMsg("}")))
	if d.doc().Path != "review.md" {
		t.Errorf("} went to %s", d.doc().Path)
	}
	screentest.RunScreen(d, d.Update(screentest.KeyMsg("{")))
	screentest.RunScreen(d, d.Update(screentest.KeyMsg("{")))
	if d.doc().Path != "change.md" {
		t.Errorf("{ twice went to %s", d.doc().Path)
	}
}

func TestDocsSizes(t *testing.T) {
	p := packet.LoadSample(packet.Options{})
	empty := &packet.Packet{}
	for _, pk := range []*packet.Packet{p, empty} {
		for _, sz := range []struct{ w, h int }{{0, 0}, {1, 1}, {10, 3}, {40, 10}, {99, 30}, {100, 30}, {200, 60}} {
			d := New(common.NewContext(pk, false, true))
			d.SetSize(sz.w, sz.h)
			screentest.RunScreen(d, d.Init())
			screentest.RunScreen(d, d.Update(screentest.KeyMsg("C")))
			v := d.View()
			if sz.w > 0 && sz.h > 0 {
				screentest.CheckSize(t, v, sz.w, sz.h)
			}
			_ = d.Status()
			_ = d.Bindings()
			d.Search("the")
			d.NextMatch(1)
		}
	}
}

func TestDocsPlainUntilRendered(t *testing.T) {
	p := packet.LoadSample(packet.Options{})
	d := New(common.NewContext(p, true, false))
	d.SetSize(80, 24)
	cmd := d.Open(common.Target{Screen: common.ScreenDocs, Path: "review.md", File: -1, Hunk: -1, DiffLine: -1})
	if cmd == nil {
		t.Fatal("Open asked for no rendering")
	}
	if !strings.Contains(d.Status(), "rendering…") {
		t.Errorf("status before the rendering: %q", d.Status())
	}
	if v := ansi.Strip(d.View()); !strings.Contains(v, "## Assessment: needs_changes") {
		t.Errorf("the plain text is not shown while rendering:\n%s", v)
	}
	msg := cmd()
	// A rendering for an older request is dropped.
	stale := msg.(docsRenderedMsg)
	stale.Gen--
	d.Update(stale)
	if d.shown == shownRendered && d.view.path == "review.md" && d.gen != stale.Gen {
		// The cache may hold it, but the request in flight is still the newer one.
		if d.inflightPath == "" {
			t.Error("a stale rendering cleared the request in flight")
		}
	}
	d.Update(msg)
	if d.shown != shownRendered {
		t.Errorf("after the rendering, shown %v", d.shown)
	}
}

func TestDocsHostileText(t *testing.T) {
	evil := "# Title \x1b]0;owned\x07\n\nText \x1b[2J\x1b[31mred\x1b[0m and \x9b6n done.\n\nSee `evil.md:1`.\n"
	pk := &packet.Packet{Docs: []*packet.Document{packet.ParseDocument("evil\x1b[1m.md", []byte(evil))}}
	for _, raw := range []bool{false, true} {
		d := New(common.NewContext(pk, true, false))
		d.SetSize(120, 20)
		screentest.RunScreen(d, d.Init())
		if raw {
			screentest.RunScreen(d, d.Update(screentest.KeyMsg("r")))
		}
		screentest.RunScreen(d, d.Update(screentest.KeyMsg("C")))
		v := d.View() + d.Status()
		if !utf8.ValidString(v) || strings.ContainsRune(v, 0x9b) {
			t.Errorf("raw=%v: a C1 control or invalid UTF-8 reached the screen", raw)
		}
		for _, bad := range []string{"\x1b]", "\x1b[2J", "\x07", "\x1b[31m"} {
			if strings.Contains(v, bad) {
				t.Errorf("raw=%v: %q reached the screen", raw, bad)
			}
		}
	}
}

func TestDocsThemeChange(t *testing.T) {
	d, ctx := openSampleDoc(t, 160, 48, "change-validation.md")
	screentest.RunScreen(d, d.Update(screentest.KeyMsg("I")))
	before := ansi.Strip(d.View())
	old := d.view.lines
	ctx.SetDark(false)
	screentest.RunScreen(d, d.Update(common.ThemeChangedMsg{}))
	if d.shown != shownRendered || &d.view.lines[0] == &old[0] {
		t.Fatalf("not rendered again after the theme changed (shown %v)", d.shown)
	}
	if after := ansi.Strip(d.View()); after != before {
		t.Errorf("the theme change moved the view:\n%s\n---\n%s", before, after)
	}
}

// A click in the source view selects the line drawn under the pointer, with
// long lines wrapped over several rows above it.
func TestDocsClickUnderWrap(t *testing.T) {
	d, _ := screentest.SampleScreen(80, 24, New)
	screentest.RunScreen(d, d.Update(screentest.KeyMsg("r"))) // the source view, which wraps
	doc := d.doc()
	if doc == nil || !d.rawWrap {
		t.Fatalf("no wrapped source view: doc %v wrap %v", doc, d.rawWrap)
	}
	// Find a row whose line is not offset+row: a long line wrapped above it.
	for y := 1; y < d.layout().paneH; y++ {
		want, ok := d.pane.LineAt(y)
		if !ok || want == d.pane.Offset()+y {
			continue
		}
		d.Update(tea.MouseClickMsg{X: 10, Y: y + 1, Button: tea.MouseLeft}) // the strip row above the pane
		if got := d.pane.Cursor(); got != want {
			t.Fatalf("click on row %d selected line %d, want %d (the line drawn there)", y, got, want)
		}
		return
	}
	t.Fatal("no wrapped line on the first screen of the sample's first document")
}
