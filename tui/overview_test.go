package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

func TestOverviewGolden(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		p := packet.LoadSample(packet.Options{})
		o := NewOverview(common.NewContext(p, true, false))
		o.SetSize(sz[0], sz[1])
		v := o.View()
		screentest.CheckSize(t, v, sz[0], sz[1])
		screentest.Golden(t, fmt.Sprintf("TestOverview%dx%d", sz[0], sz[1]), v)
	}
}

// Every problem on the overview leads to its file and line.
func TestOverviewProblemFollows(t *testing.T) {
	p := packet.LoadSample(packet.Options{})
	o := NewOverview(common.NewContext(p, true, false))
	o.SetSize(120, 60)
	o.Update(screentest.KeyMsg("G")) // the last selectable row is the last problem
	cmd := o.Update(screentest.KeyMsg("enter"))
	if cmd == nil {
		t.Fatal("enter on a problem does nothing")
	}
	f, ok := cmd().(common.FollowMsg)
	if !ok || f.To.Screen != common.ScreenDocs || f.To.Path != "review.md" || f.To.Line != 56 {
		t.Errorf("problem follows to %+v, want review.md:56 on the documents", f.To)
	}
	if !strings.Contains(ansi.Strip(o.View()), "compute-env.md:41") {
		t.Error("the problem is not shown")
	}
}

// The overview's last rows lead nowhere (a problem in a file outside the
// packet's documents, where triage is saved): G still shows them, errors
// come first among the problems, and a packet that ships its own triage
// says so at 80×24.
func TestOverviewShowsItsLastRows(t *testing.T) { screentest.InBubble(t, testOverviewShowsItsLastRows) }

func testOverviewShowsItsLastRows(t *testing.T) {
	dir := sampleCopy(t, "p")
	os.WriteFile(filepath.Join(dir, packet.TriageFile), []byte(`{"version":1}`), 0o644)
	p := loadCopy(t, dir)
	ctx := common.NewContext(p, true, false)
	st, err := review.OpenStore(p, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx.Store = st
	r := NewWorkbench(ctx, Options{ForceTheme: "dark"})
	drive(r, r.Init())
	r.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	pressKeys(r, "1", "G")
	s := ansi.Strip(r.Render())
	e := strings.Index(s, "error   triage.json")
	w := strings.Index(s, "warning review.md")
	if e < 0 || !strings.Contains(s, "triage is saved in") {
		t.Fatalf("G does not show the last rows:\n%s", s)
	}
	if w >= 0 && w < e {
		t.Errorf("a warning is listed before the error:\n%s", s)
	}
}

// A packet that names no repository says, where triage is saved, that its
// triage is kept for it alone.
func TestOverviewSaysUnboundWorkItem(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p")
	if err := packet.WriteSample(dir); err != nil {
		t.Fatal(err)
	}
	change := filepath.Join(dir, packet.ChangeFile)
	data, _ := os.ReadFile(change)
	os.WriteFile(change, []byte(strings.ReplaceAll(string(data), "MR URL: https://github.com/acme/depot/pull/2318", "")), 0o644)
	for _, c := range []struct {
		dir  string
		want bool
	}{{dir, true}} {
		p, err := packet.Load(c.dir, packet.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s, err := review.OpenStore(p, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		ctx := common.NewContext(p, true, false)
		ctx.Store = s
		o := NewOverview(ctx)
		o.SetSize(120, 200)
		if got := strings.Contains(ansi.Strip(o.View()), packet.UnboundNote); got != c.want {
			t.Errorf("the overview says %q: %v, want %v", packet.UnboundNote, got, c.want)
		}
	}
}
