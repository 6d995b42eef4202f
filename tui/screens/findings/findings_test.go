package findings

import (
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

func newSampleFindings(t testing.TB, w, h int) (*Findings, *common.Context) {
	return screentest.SampleScreen(w, h, New)
}

func TestFindingsGolden(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		t.Run(strconv.Itoa(sz.w), func(t *testing.T) {
			f, _ := newSampleFindings(t, sz.w, sz.h)
			v := f.View()
			screentest.CheckSize(t, v, sz.w, sz.h)
			screentest.Golden(t, "TestFindingsFirst_"+strconv.Itoa(sz.w)+"x"+strconv.Itoa(sz.h), v)

			screentest.RunScreen(f, f.Update(screentest.KeyMsg("j")))
			screentest.RunScreen(f, f.Update(screentest.KeyMsg("l")))
			screentest.RunScreen(f, f.Update(screentest.KeyMsg("j")))
			v = f.View()
			screentest.CheckSize(t, v, sz.w, sz.h)
			screentest.Golden(t, "TestFindingsCitations_"+strconv.Itoa(sz.w)+"x"+strconv.Itoa(sz.h), v)
		})
	}
}

func TestFindingsEnterFollowsDiffAnchor(t *testing.T) {
	f, ctx := newSampleFindings(t, 160, 48)
	to := screentest.FollowTarget(t, screentest.RunScreen(f, f.Update(screentest.KeyMsg("enter"))))
	var c packet.Citation
	for _, x := range ctx.Packet.Finding("review.md#1").Citations {
		if x.Kind == packet.CiteDiff {
			c = x
			break
		}
	}
	want := common.Target{Screen: common.ScreenDiff, Path: "internal/upload/client.go", Line: 97, EndLine: 98,
		File: c.DiffFile, Hunk: c.DiffHunk, DiffLine: c.DiffLine}
	if to != want || c.DiffLine < 0 {
		t.Errorf("enter followed to %+v, want %+v", to, want)
	}
}

func TestFindingsCitationFollow(t *testing.T) {
	f, ctx := newSampleFindings(t, 80, 24)
	screentest.RunScreen(f, f.Update(screentest.KeyMsg("l")))
	if f.focus != focusCitations {
		t.Fatal("l did not move to the citations")
	}
	// Finding 1's fourth citation is plan.md:86-90.
	for range 3 {
		screentest.RunScreen(f, f.Update(screentest.KeyMsg("j")))
	}
	to := screentest.FollowTarget(t, screentest.RunScreen(f, f.Update(screentest.KeyMsg("enter"))))
	want := common.Target{Screen: common.ScreenDocs, Path: "plan.md", Line: 86, EndLine: 90, File: -1, Hunk: -1, DiffLine: -1}
	if to != want {
		t.Errorf("followed to %+v, want %+v", to, want)
	}
	if s := f.Status(); s != "finding 1/5 · major · open · citation 4/11" {
		t.Errorf("status %q", s)
	}

	// Finding 3 cites a line past the end of compute-env.md: enter says so.
	screentest.RunScreen(f, f.Update(screentest.KeyMsg("esc")))
	f.Open(common.Target{Screen: common.ScreenFindings, Finding: "review.md#3"})
	screentest.RunScreen(f, f.Update(screentest.KeyMsg("l")))
	fd := ctx.Packet.Finding("review.md#3")
	for i, c := range fd.Citations {
		if !c.Resolved {
			f.cites.Cursor = i
		}
	}
	msgs := screentest.RunScreen(f, f.Update(screentest.KeyMsg("enter")))
	if len(msgs) != 1 || !strings.Contains(msgs[0].(common.StatusMsg).Text, "unresolved") {
		t.Errorf("unresolved citation gave %#v", msgs)
	}
	if v := ansi.Strip(f.View()); !strings.Contains(v, "unresolved: line 41 is past the end") {
		t.Errorf("the unresolved citation is not shown as such:\n%s", v)
	}
}

func TestFindingsOpenHereStatus(t *testing.T) {
	f, _ := newSampleFindings(t, 160, 48)
	screentest.RunScreen(f, f.Open(common.Target{Screen: common.ScreenFindings, Finding: "review.md#2", File: -1, Hunk: -1, DiffLine: -1}))
	if s := f.Status(); s != "finding 2/5 · minor · open" {
		t.Errorf("status %q", s)
	}
	if f.Selected().ID != "review.md#2" {
		t.Fatalf("selected %s", f.Selected().ID)
	}
	screentest.RunScreen(f, f.Update(screentest.KeyMsg("l")))
	screentest.RunScreen(f, f.Update(screentest.KeyMsg("j")))
	here := f.Here()
	screentest.RunScreen(f, f.Open(common.Target{Screen: common.ScreenFindings, Finding: "review.md#5"}))
	screentest.RunScreen(f, f.Open(here))
	if f.Selected().ID != "review.md#2" || f.focus != focusCitations || f.cites.Cursor != 1 || f.list.Offset != here.Offset {
		t.Errorf("round trip: %s focus %v cite %d top %d", f.Selected().ID, f.focus, f.cites.Cursor, f.list.Offset)
	}
	if got := f.Here(); got != here {
		t.Errorf("Here after Open(Here) = %+v, want %+v", got, here)
	}
	if cmd := f.Open(common.Target{Screen: common.ScreenFindings, Finding: "review.md#99"}); cmd == nil {
		t.Error("opening a missing finding said nothing")
	}
}

func TestFindingsTriageShown(t *testing.T) {
	f, ctx := newSampleFindings(t, 160, 48)
	fd := ctx.Packet.Finding("review.md#2")
	ctx.Packet.Triage.Findings[fd.ID] = &packet.Decision{State: packet.TriageAccepted, Fingerprint: packet.Fingerprint(fd)}
	ctx.Packet.Triage.Findings["review.md#3"] = &packet.Decision{State: packet.TriageDismissed, Fingerprint: "changed"}
	v := ansi.Strip(f.View())
	if !strings.Contains(v, "accepted") || !strings.Contains(v, "stale") {
		t.Errorf("triage states not drawn:\n%s", v)
	}
	screentest.RunScreen(f, f.Open(common.Target{Screen: common.ScreenFindings, Finding: "review.md#3"}))
	if s := f.Status(); s != "finding 3/5 · minor · dismissed (stale)" {
		t.Errorf("status %q", s)
	}
}

func TestFindingsSearch(t *testing.T) {
	f, _ := newSampleFindings(t, 80, 24)
	if n := f.Search("acmeup.py"); n != 2 {
		t.Fatalf("Search found %d, want 2 (findings 2 and 5)", n)
	}
	if f.Selected().Number != 2 {
		t.Errorf("first match is finding %d, want 2", f.Selected().Number)
	}
	f.NextMatch(1)
	if f.Selected().Number != 5 {
		t.Errorf("n went to finding %d, want 5", f.Selected().Number)
	}
	f.NextMatch(1)
	if f.Selected().Number != 2 {
		t.Errorf("n wrapped to finding %d, want 2", f.Selected().Number)
	}
	f.NextMatch(-1)
	if f.Selected().Number != 5 {
		t.Errorf("N went to finding %d, want 5", f.Selected().Number)
	}
	if n := f.Search("registry.jsonl"); n != 1 || f.Selected().Number != 3 {
		t.Errorf("location search: %d matches, on finding %d", n, f.Selected().Number)
	}
}

func TestFindingsSizes(t *testing.T) {
	p := packet.LoadSample(packet.Options{})
	for _, pk := range []*packet.Packet{p, {}} {
		for _, sz := range []struct{ w, h int }{{0, 0}, {1, 1}, {10, 3}, {40, 10}, {99, 30}, {100, 30}, {200, 60}} {
			f := New(common.NewContext(pk, false, true))
			f.SetSize(sz.w, sz.h)
			screentest.RunScreen(f, f.Init())
			for _, k := range []string{"j", "G", "l", "j", "g", "h", "enter"} {
				screentest.RunScreen(f, f.Update(screentest.KeyMsg(k)))
			}
			v := f.View()
			if sz.w > 0 && sz.h > 0 {
				screentest.CheckSize(t, v, sz.w, sz.h)
			}
			_ = f.Status()
			_ = f.Bindings()
			f.Search("retry")
			f.NextMatch(-1)
		}
	}
}

func TestFindingsPlainUntilRendered(t *testing.T) {
	p := packet.LoadSample(packet.Options{})
	f := New(common.NewContext(p, true, false))
	f.SetSize(160, 48)
	first := f.Init()
	cmd := f.Update(screentest.KeyMsg("j"))
	if v := ansi.Strip(f.View()); !strings.Contains(v, "**Claim.** Off by one") {
		t.Errorf("the plain claim is not shown while rendering:\n%s", v)
	}
	// Finding 1's rendering arrives late: kept, but not shown over finding 2.
	f.Update(first())
	if v := ansi.Strip(f.View()); !strings.Contains(v, "Off by one") || strings.Contains(v, "Claim. A  Retry-After") {
		t.Errorf("a late rendering replaced the selected finding:\n%s", v)
	}
	screentest.RunScreen(f, cmd)
	if v := ansi.Strip(f.View()); !strings.Contains(v, "Claim. Off by one") {
		t.Errorf("finding 2 not rendered:\n%s", v)
	}
}

func TestFindingsHostileText(t *testing.T) {
	review := "## Findings\n\n| # | file:line | Severity | Claim | Evidence |\n|---|---|---|---|---|\n" +
		"| 1 | `a.go:1` \x1b[2J | ma\x1b[31mjor | Claim \x1b]8;;http://x\x07link\x1b]8;;\x07 and \x9b6n | Ev \x07 |\n"
	doc := packet.ParseDocument(packet.ReviewFile, []byte(review))
	fs, _ := packet.ParseFindings(doc)
	if len(fs) != 1 {
		t.Fatalf("parsed %d findings", len(fs))
	}
	pk := &packet.Packet{Docs: []*packet.Document{doc}, Findings: fs}
	f := New(common.NewContext(pk, true, false))
	f.SetSize(120, 30)
	screentest.RunScreen(f, f.Init())
	screentest.RunScreen(f, f.Update(screentest.KeyMsg("l")))
	v := f.View() + f.Status()
	if !utf8.ValidString(v) || strings.ContainsRune(v, 0x9b) {
		t.Error("a C1 control or invalid UTF-8 reached the screen")
	}
	for _, bad := range []string{"\x1b]", "\x1b[2J", "\x07", "\x1b[31m"} {
		if strings.Contains(v, bad) {
			t.Errorf("%q reached the screen", bad)
		}
	}
}

func TestFindingsThemeChange(t *testing.T) {
	f, ctx := newSampleFindings(t, 160, 48)
	before := f.View()
	ctx.SetDark(false)
	screentest.RunScreen(f, f.Update(common.ThemeChangedMsg{}))
	after := f.View()
	if ansi.Strip(after) != ansi.Strip(before) {
		t.Error("the theme change altered the text")
	}
	if after == before {
		t.Error("the theme change kept the old colours")
	}
}

// A click on a citation selects that citation, for every finding (each
// sizes the detail differently), with and without a triage note above the
// text, wide and narrow. The detail pane kept the first finding's height,
// so the rows clicked and the rows drawn disagreed by one or more.
func TestFindingsClickSelectsTheCitationUnderIt(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		for _, note := range []bool{false, true} {
			f, ctx := newSampleFindings(t, sz[0], sz[1])
			if note {
				st := &packet.TriageState{Findings: map[string]*packet.Decision{}}
				for _, fd := range ctx.Packet.Findings {
					st.Findings[fd.ID] = &packet.Decision{State: packet.TriageDeferred, Note: "a note"}
				}
				ctx.Packet.Triage = st
				f.Update(common.TriageChangedMsg{})
			}
			clicked := 0
			for fi := range ctx.Packet.Findings {
				f.selectIndex(fi)
				rows := strings.Split(ansi.Strip(f.View()), "\n")
				hy, hx := -1, 0
				for y, r := range rows {
					if i := strings.Index(r, "Citations ("); i >= 0 {
						hy, hx = y, ansi.StringWidth(r[:i])
					}
				}
				if hy < 0 {
					t.Fatalf("%v note %v finding %d: no citations drawn", sz, note, fi)
				}
				for k := 1; hy+k < len(rows) && strings.Contains(rows[hy+k], "→"); k++ {
					f.focus, f.cites.Cursor = focusList, -1
					f.Update(tea.MouseClickMsg{X: hx + 4, Y: hy + k, Button: tea.MouseLeft})
					if want := f.cites.Offset + k - 1; f.cites.Cursor != want || f.focus != focusCitations {
						t.Errorf("%v note %v finding %d: clicking the citation on row %d selected %d, want %d", sz, note, fi, hy+k, f.cites.Cursor, want)
					}
					clicked++
				}
				// The row under the citations selects none.
				f.cites.Cursor = 0
				f.Update(tea.MouseClickMsg{X: hx + 4, Y: hy, Button: tea.MouseLeft})
				if f.cites.Cursor != 0 {
					t.Errorf("%v finding %d: clicking the Citations title selected %d", sz, fi, f.cites.Cursor)
				}
			}
			if clicked < 10 {
				t.Errorf("%v: only %d citations clicked", sz, clicked)
			}
		}
	}
}

// The findings screen: each severity's badge in its colour.
func TestStyledFindingsBadges(t *testing.T) {
	f, ctx := newSampleFindings(t, 80, 24)
	v := f.View()
	for _, sev := range []string{"major", "minor", "nit"} {
		if badge := ctx.Styles.SeverityBadge(sev); !strings.Contains(v, badge) {
			t.Errorf("the %s badge is not drawn in its style %q", sev, badge)
		}
	}
	screentest.GoldenStyled(t, "TestStyledFindings80x24", v)
}
