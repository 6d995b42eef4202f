package views

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"vetter/packet"
)

func TestOverviewGolden(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		p := packet.LoadSample(packet.Options{})
		o := NewOverview(NewContext(p, true, false))
		o.SetSize(sz[0], sz[1])
		v := o.View()
		checkSize(t, v, sz[0], sz[1])
		golden(t, fmt.Sprintf("TestOverview%dx%d", sz[0], sz[1]), v)
	}
}

// Every problem on the overview leads to its file and line.
func TestOverviewProblemFollows(t *testing.T) {
	p := packet.LoadSample(packet.Options{})
	o := NewOverview(NewContext(p, true, false))
	o.SetSize(120, 60)
	o.Update(keyMsg("G")) // the last selectable row is the last problem
	cmd := o.Update(keyMsg("enter"))
	if cmd == nil {
		t.Fatal("enter on a problem does nothing")
	}
	f, ok := cmd().(FollowMsg)
	if !ok || f.To.Screen != ScreenDocs || f.To.Path != "review.md" || f.To.Line != 56 {
		t.Errorf("problem follows to %+v, want review.md:56 on the documents", f.To)
	}
	if !strings.Contains(ansi.Strip(o.View()), "compute-env.md:41") {
		t.Error("the problem is not shown")
	}
}
