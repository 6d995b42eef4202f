package diff

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

// kindsPacket is a packet holding only the diff under testdata, with
// binary, mode-only, renamed, deleted, wide and hostile content.
func kindsPacket(t *testing.T) *packet.Packet {
	t.Helper()
	data, err := os.ReadFile("testdata/TestDiffKinds.diff")
	if err != nil {
		t.Fatal(err)
	}
	diff, _ := packet.ParseDiff(data)
	return &packet.Packet{Diff: diff}
}

var nonSGR = regexp.MustCompile(`\x1b[^\[]|\x1b\[[0-9;:]*[^0-9;:m]`)

func TestDiffKinds(t *testing.T) {
	p := kindsPacket(t)
	for _, sz := range [][2]int{{100, 20}, {80, 20}, {200, 20}} {
		d := New(common.NewContext(p, true, false))
		d.SetSize(sz[0], sz[1])
		v := d.View()
		screentest.CheckSize(t, v, sz[0], sz[1])
		if m := nonSGR.FindString(v); m != "" {
			t.Fatalf("%v: the view carries a non-SGR escape %q", sz, m)
		}
		plain := ansi.Strip(v)
		for _, want := range []string{"binary", "こんにちは", "␛[2J", "⟦U+202E⟧"} {
			if !strings.Contains(plain, want) && sz[0] >= 100 {
				t.Errorf("%v: view lacks %q:\n%s", sz, want, plain)
			}
		}
		if sz[0] == 100 {
			screentest.Golden(t, "TestDiffKinds100x20", v)
		}
	}
}

func TestDiffEmptyAndTiny(t *testing.T) {
	for _, p := range []*packet.Packet{{}, kindsPacket(t), packet.LoadSample(packet.Options{})} {
		d := New(common.NewContext(p, false, true))
		for _, sz := range [][2]int{{0, 0}, {1, 1}, {5, 2}, {12, 3}, {99, 5}, {100, 2}, {170, 4}} {
			d.SetSize(sz[0], sz[1])
			for _, k := range []string{"j", "]", "}", ".", "G", "s", "w", "enter", "[", "{", ",", "g", "l", "ctrl+d", "pgup"} {
				press(d, k)
				v := d.View()
				if sz[0] > 0 && sz[1] > 0 {
					screentest.CheckSize(t, v, sz[0], sz[1])
				}
			}
			d.Open(d.Here())
			_ = d.Status()
			_ = d.Bindings()
			d.Search("x")
			d.NextMatch(-1)
		}
	}
}

func TestOverlayKeepsText(t *testing.T) {
	styled := "\x1b[31mfunc\x1b[m main() {\x1b[1m}\x1b[m"
	out := overlay(styled, []span{{From: 5, To: 9}}, "\x1b[42m", "\x1b[4m")
	if ansi.Strip(out) != ansi.Strip(styled) {
		t.Fatalf("overlay changed the text: %q", ansi.Strip(out))
	}
	if !strings.Contains(out, "\x1b[m\x1b[4mmain") {
		t.Errorf("emphasis does not start at the span: %q", out)
	}
}
