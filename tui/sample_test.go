package tui

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/common"
)

// sampleCopy writes the sample packet to a folder called name in a new
// temporary directory: a copy a test may edit, triage and decide, unlike
// the shared one LoadSample reads.
func sampleCopy(t testing.TB, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := packet.WriteSample(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// loadCopy loads the packet at dir whole, as vetter does with no flags.
func loadCopy(t testing.TB, dir string) *packet.Packet {
	t.Helper()
	p, err := packet.Load(dir, packet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// storeContext is the context of the reviewer "tester" on p at a fixed
// time, with a triage store in a temporary state folder, so that triage and
// decisions are written where the test can see them and nowhere else.
func storeContext(t *testing.T, p *packet.Packet, now time.Time) *common.Context {
	t.Helper()
	ctx := common.NewContext(p, true, false)
	ctx.User = "tester"
	ctx.Now = func() time.Time { return now }
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	if ctx.Store, ctx.StoreErr = review.OpenStore(p, ""); ctx.StoreErr != nil {
		t.Fatal(ctx.StoreErr)
	}
	return ctx
}
