package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/tui/internal/screentest"
)

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
