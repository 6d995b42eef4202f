package overview

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/internal/screentest"

	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

func TestOverviewGolden(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		p := packet.LoadSample(packet.Options{})
		o := New(common.NewContext(p, true, false))
		o.SetSize(sz[0], sz[1])
		v := o.View()
		screentest.CheckSize(t, v, sz[0], sz[1])
		screentest.Golden(t, fmt.Sprintf("TestOverview%dx%d", sz[0], sz[1]), v)
	}
}

// Every problem on the overview leads to its file and line.
func TestOverviewProblemFollows(t *testing.T) {
	p := packet.LoadSample(packet.Options{})
	o := New(common.NewContext(p, true, false))
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
		o := New(ctx)
		o.SetSize(120, 200)
		if got := strings.Contains(ansi.Strip(o.View()), packet.UnboundNote); got != c.want {
			t.Errorf("the overview says %q: %v, want %v", packet.UnboundNote, got, c.want)
		}
	}
}
