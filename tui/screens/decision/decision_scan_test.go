package decision

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/attention"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

// The decision screen scans the diff in the background: before the scan
// lands it says so, after it lists what it found; Attention() scans on demand.
func TestDecisionScansInBackground(t *testing.T) {
	p := packet.LoadSample(packet.Options{})
	d := New(common.NewContext(p, true, false))
	d.SetSize(120, 60)
	if s := ansi.Strip(d.View()); !strings.Contains(s, "scanning the diff") {
		t.Errorf("before the scan:\n%s", s)
	}
	if st := d.Status(); !strings.Contains(st, "scanning") {
		t.Errorf("status before the scan: %q", st)
	}
	msg := d.Init()()
	d.Update(msg)
	want := len(attention.Scan(p.Diff))
	s := ansi.Strip(d.View())
	if strings.Contains(s, "scanning the diff") || !strings.Contains(s, "What a vetter must look at (") {
		t.Errorf("after the scan:\n%s", s)
	}
	if got := len(d.Attention()); got != want {
		t.Errorf("Attention() = %d items, want %d", got, want)
	}
}

func TestDecisionAttentionBeforeInit(t *testing.T) {
	p := packet.LoadSample(packet.Options{})
	d := New(common.NewContext(p, true, false))
	if got, want := len(d.Attention()), len(attention.Scan(p.Diff)); got != want {
		t.Errorf("Attention() before Init = %d items, want %d", got, want)
	}
}
