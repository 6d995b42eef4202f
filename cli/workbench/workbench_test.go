package workbench

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/vetter-dev/vetter/cli/factory"
	"github.com/vetter-dev/vetter/internal/packettest"
	"github.com/vetter-dev/vetter/tui/common"
)

func testFactory(t *testing.T) *factory.Factory {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	return factory.New(factory.IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, factory.Build{Version: "dev", Line: "vetter dev"}, "vetter")
}

// A packet folder whose gate fails on what it says, whatever its diff
// holds, opens on the walk from everything but the diff; what is not a
// folder is loaded whole as before.
func TestFirstScreen(t *testing.T) {
	f := testFactory(t)
	dir := packettest.SampleDir(t, "pkt")
	pv, start, ok := FirstScreen(f, dir)
	if !ok {
		t.Fatal("the sample folder, whose assessment is needs_changes, was not opened before its diff")
	}
	defer pv.Close()
	if !pv.DiffPending || pv.Diff != nil || start.Screen != common.ScreenWalk {
		t.Errorf("first screen: diff pending %v, diff %v, screen %v", pv.DiffPending, pv.Diff != nil, start.Screen)
	}
	file := filepath.Join(t.TempDir(), "p.zip")
	if err := os.WriteFile(file, []byte("PK\x05\x06"+string(make([]byte, 18))), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{file, filepath.Join(dir, "none"), "acme/depot#1"} {
		if pv, _, ok := FirstScreen(f, arg); ok {
			pv.Close()
			t.Errorf("FirstScreen(%s) opened a preview", arg)
		}
	}
}
