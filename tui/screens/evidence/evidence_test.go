package evidence

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/packet/source"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/ui"
)

func evKey(code rune, text string) tea.KeyPressMsg {
	return tea.KeyPressMsg{Code: code, Text: text}
}

var (
	evEnter = tea.KeyPressMsg{Code: tea.KeyEnter}
	evSpace = tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	evDown  = evKey('j', "j")
)

// evMsg runs a command and returns its message (nil for none).
func evMsg(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	return cmd()
}

func TestEvidenceGolden(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			e := New(screentest.Sample(t))
			e.SetSize(size.w, size.h)
			e.Open(common.Target{Screen: common.ScreenEvidence, Recipe: "01-go-unit-tests"})
			e.Update(evSpace)
			e.Update(evDown) // onto the superseded run
			if e.Status() != "recipe 1/4 · run 1/2" {
				t.Errorf("status %q", e.Status())
			}
			v := e.View()
			screentest.CheckSize(t, v, size.w, size.h)
			screentest.Golden(t, fmt.Sprintf("TestEvidenceGolden_%dx%d", size.w, size.h), v)
		})
	}
}

func TestEvidenceEnterFollowsToLog(t *testing.T) {
	e := New(screentest.Sample(t))
	e.SetSize(80, 24)
	e.Open(common.Target{Recipe: "01-go-unit-tests"})
	// enter on the recipe opens its latest run's log (seq 3).
	msg, ok := evMsg(e.Update(evEnter)).(common.FollowMsg)
	if !ok || msg.To.Screen != common.ScreenLogs || msg.To.Path != "validation/logs/2026-10-14T10-22-07.114Z-bash-7c1e.log" {
		t.Fatalf("enter on the recipe gave %#v", msg)
	}
	// On the superseded run, enter opens that run's log.
	e.Update(evSpace)
	e.Update(evDown)
	msg, ok = evMsg(e.Update(evEnter)).(common.FollowMsg)
	if !ok || msg.To.Path != "validation/logs/2026-10-14T10-18-55.730Z-bash-3b06.log" {
		t.Fatalf("enter on the superseded run gave %#v", msg)
	}
}

func TestEvidenceOpenRegistryLine(t *testing.T) {
	e := New(screentest.Sample(t))
	e.SetSize(80, 24)
	// Line 2 of the registry is seq 2, the superseded run of 01.
	if cmd := e.Open(common.Target{Screen: common.ScreenEvidence, Path: packet.RegistryFile, Line: 2, EndLine: 2}); cmd != nil {
		t.Fatalf("Open reported %v", evMsg(cmd))
	}
	it := e.items[e.cursor]
	if it.run == nil || it.run.Seq != 2 || !e.expanded["01-go-unit-tests"] {
		t.Fatalf("cursor on %+v", it)
	}
	if got := e.Status(); got != "recipe 1/4 · run 1/2" {
		t.Errorf("status %q", got)
	}
	// Here and Open round trip, on a run and on a recipe.
	here := e.Here()
	e2 := New(e.ctx)
	e2.SetSize(80, 24)
	e2.Open(here)
	if e2.Here() != here || e2.Status() != e.Status() {
		t.Errorf("round trip: %+v → %+v (%s)", here, e2.Here(), e2.Status())
	}
	e.Update(evKey('G', "G"))
	here = e.Here()
	e.Update(evKey('g', "g"))
	e.Open(here)
	if e.Here() != here {
		t.Errorf("round trip at the bottom: %+v → %+v", here, e.Here())
	}
	// A registry line holding no run says so.
	if _, ok := evMsg(e.Open(common.Target{Path: packet.RegistryFile, Line: 99})).(common.StatusMsg); !ok {
		t.Errorf("no status for a line holding no run")
	}
}

func TestEvidenceExpandCollapse(t *testing.T) {
	e := New(screentest.Sample(t))
	e.SetSize(160, 48)
	n := len(e.items)
	e.Open(common.Target{Recipe: "01-go-unit-tests"})
	e.Update(evKey(tea.KeyRight, ""))
	if len(e.items) != n+2 {
		t.Fatalf("expanding 01 gave %d items, want %d", len(e.items), n+2)
	}
	e.Update(evDown)
	e.Update(evDown)
	e.Update(evKey('h', "h")) // collapse from a run: back on the recipe
	if len(e.items) != n || e.items[e.cursor].row.Recipe != "01-go-unit-tests" || e.items[e.cursor].run != nil {
		t.Fatalf("collapse left %d items, cursor on %+v", len(e.items), e.items[e.cursor])
	}
}

func TestEvidenceSearch(t *testing.T) {
	e := New(screentest.Sample(t))
	e.SetSize(80, 24)
	// "race" is in the commands and notes of runs 2 and 3 (01) only.
	if n := e.Search("-race"); n != 2 {
		t.Fatalf("Search found %d, want 2", n)
	}
	if it := e.items[e.cursor]; it.run == nil || it.run.Seq != 2 {
		t.Fatalf("first match %+v", it)
	}
	e.NextMatch(1)
	if it := e.items[e.cursor]; it.run == nil || it.run.Seq != 3 {
		t.Fatalf("next match %+v", it)
	}
	e.NextMatch(1) // wraps
	if it := e.items[e.cursor]; it.run == nil || it.run.Seq != 2 {
		t.Fatalf("wrapped match %+v", it)
	}
	e.NextMatch(-1)
	if it := e.items[e.cursor]; it.run == nil || it.run.Seq != 3 {
		t.Fatalf("previous match %+v", it)
	}
	if n := e.Search("lint"); n < 1 || e.items[e.cursor].row.Recipe != "02-lint" {
		t.Fatalf("recipe search: %d, on %s", n, e.items[e.cursor].row.Recipe)
	}
}

func TestEvidenceMissingRecipe(t *testing.T) {
	ctx := screentest.Sample(t)
	p := *ctx.Packet
	p.Evidence = packet.BuildEvidence(append([]string{"09-never-run"}, p.Plan.Recipes...), p.Registry.Runs)
	ctx.Packet = &p
	e := New(ctx)
	e.SetSize(80, 24)
	v := e.View()
	screentest.CheckSize(t, v, 80, 24)
	if !evContains(v, "09-never-run") || !evContains(v, "missing") {
		t.Errorf("missing recipe not shown:\n%s", v)
	}
	if _, ok := evMsg(e.Update(evEnter)).(common.StatusMsg); !ok {
		t.Errorf("enter on a missing recipe should explain there is no log")
	}
}

func TestEvidenceSmallSizes(t *testing.T) {
	e := New(screentest.Sample(t))
	for _, s := range [][2]int{{1, 1}, {20, 5}, {40, 10}, {99, 30}, {100, 30}, {200, 60}} {
		e.SetSize(s[0], s[1])
		e.Update(evSpace)
		screentest.CheckSize(t, e.View(), s[0], s[1])
	}
}

func evContains(view, s string) bool { return strings.Contains(ansi.Strip(view), s) }

func TestEvidenceWordWrap(t *testing.T) {
	for _, tt := range []struct {
		in   string
		w    int
		want []string
	}{
		{"pytest --color=yes -rf", 12, []string{"pytest", "--color=yes", "-rf"}},
		{"a\nb c", 10, []string{"a", "b c"}},
		{"abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"漢字漢字漢", 4, []string{"漢字", "漢字", "漢"}},
		{"", 5, []string{""}},
		{"validation/logs/x-3b06.log", 20, []string{"validation/logs/", "x-3b06.log"}},
	} {
		if got := text.WrapWhole(tt.in, tt.w); fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tt.want) {
			t.Errorf("text.WrapWhole(%q, %d) = %q, want %q", tt.in, tt.w, got, tt.want)
		}
	}
}

// FuzzEvidenceWordWrap: any text wraps without panicking, every line within
// the width (a character wider than the width alone excepted).
func FuzzEvidenceWordWrap(f *testing.F) {
	f.Add("bash -lc 'set -euo pipefail; cd /home/x; go test ./...'", 20)
	f.Add("漢字 emoji 👍🏽 tab\tnew\nline", 3)
	f.Add("\x1b[2J\u202e/a/b/c/d", 1)
	f.Fuzz(func(t *testing.T, s string, w int) {
		w = max(min(w, 200), 1)
		for _, l := range text.WrapWhole(ui.Sanitize(s), w) {
			if n := ansi.StringWidth(l); n > w && n > 2 {
				t.Fatalf("line %q is %d wide, limit %d", l, n, w)
			}
		}
	})
}

// Round 2 of the sample, with round 1 known: each run's head shows in the
// table and in the detail pane, muted on the head, in the warning colour on
// the older one, "?" where nothing tells.
func TestEvidenceRunHeads(t *testing.T) {
	p1 := packet.LoadSample(packet.Options{})
	p2, err := packet.Load("../../../packet/testdata/rounds/round2", packet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p2.Close() })
	// Round 1's registry, recorded when it was seen: round 2's holds all of
	// it and more, so round 1 is the older, and its runs carried unchanged
	// ran on its head.
	p2.History = &packet.History{Rounds: []packet.Round{
		{Head: p1.Change.HeadSHA, Registry: review.RegistryKeys(p1)},
		{Head: p2.Change.HeadSHA, Registry: review.RegistryKeys(p2)},
	}}
	ctx := common.NewContext(p2, true, false)
	e := New(ctx)
	e.SetSize(80, 24)
	e.Open(common.Target{Screen: common.ScreenEvidence, Recipe: "02-lint"})
	v := e.View()
	screentest.CheckSize(t, v, 80, 24)
	plain := ansi.Strip(v)
	for recipe, head := range map[string]string{
		"01-go-unit-tests": "5e2f0c7", "02-lint": "1bb1c70", "00-go-toolchain-setup": "1bb1c70",
	} {
		if !rowShowsHead(plain, recipe, head) {
			t.Errorf("the row of %s does not show head %s:\n%s", recipe, head, plain)
		}
	}
	if !strings.Contains(v, ctx.Styles.Warn.Render("1bb1c70")) {
		t.Errorf("an older head is not drawn in the warning colour:\n%q", v)
	}
	if !strings.Contains(v, ctx.Styles.Muted.Render("5e2f0c7")) {
		t.Errorf("the current head is not drawn muted:\n%q", v)
	}
	if want := "head        1bb1c70, not the head 5e2f0c7 (from the older round's"; !strings.Contains(plain, want) {
		t.Errorf("the detail pane does not say 02-lint ran on the old head (%q):\n%s", want, plain)
	}

	// Without History, a run whose log names no head is "?".
	p2.History = nil
	e = New(common.NewContext(p2, true, false))
	e.SetSize(80, 24)
	if plain := ansi.Strip(e.View()); !rowShowsHead(plain, "02-lint", "?") {
		t.Errorf("02-lint's head should be ?:\n%s", plain)
	}
}

// rowShowsHead reports whether a line of s starts a row of recipe and shows
// head in the HEAD column, after the status and the run count.
func rowShowsHead(s, recipe, head string) bool {
	for _, l := range strings.Split(s, "\n") {
		f := strings.Fields(l)
		if len(f) >= 5 && f[1] == recipe && f[4] == head {
			return true
		}
	}
	return false
}

// TestEvidenceHostile opens the evidence of a packet whose registry carries
// escape sequences, control characters and hidden characters: only SGR
// reaches the terminal.
func TestEvidenceHostile(t *testing.T) {
	const name = "validation/logs/2026-01-01T00-00-00.000Z-bash-evil.log"
	logText := "plain\n\x1b[2Jcleared\x1b]0;title\x07\n\x1b]8;;http://x.invalid\x1b\\link\x1b]8;;\x1b\\\n" +
		"bell\a back\bspace \u202eevil\u202c\n\x1b[31mred\x1b[0m \x1b[38;2;1;2;3mrgb\x1b[0m\n" +
		"progress 10%\rprogress 100%\n\xff\xfe invalid\n" + strings.Repeat("wide 漢字 ", 50) + "\n[exit 3 after 1 s]\n"
	reg := `{"seq":1,"recipe":"01-\u001b[2Jevil","status":"failing","command":"echo \u001b]0;pwn\u0007 hi\nnext","log":"` + name + `","exit_code":3,"note":"tab\there \u202e"}` + "\n"
	fsys := fstest.MapFS{
		name:                        {Data: []byte(logText)},
		"validation/registry.jsonl": {Data: []byte(reg)},
		"plan.md":                   {Data: []byte("# Plan — EVIL-1: hostile\n\n```validation-recipes\n01-\x1b[2Jevil\n```\n")},
	}
	p := packet.Analyze(source.FromFS(fsys, "dir", "evil"), packet.Options{})
	ctx := common.NewContext(p, true, false)
	e := New(ctx)
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		e.SetSize(sz[0], sz[1])
		e.Update(evSpace)
		v := e.View()
		screentest.CheckSize(t, v, sz[0], sz[1])
		screentest.OnlySGR(t, v)
	}
}
