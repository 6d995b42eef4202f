package tui

import (
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

// Truncation never cuts what a vetter compares with the plan or the
// diff: a recipe name
// in the evidence table, a location's line in the findings list.
func TestTruncationKeepsNamesAndLines(t *testing.T) {
	screentest.InBubble(t, testTruncationKeepsNamesAndLines)
}

func testTruncationKeepsNamesAndLines(t *testing.T) {
	p := packet.LoadSample(packet.Options{})
	long := "00-dynamo-editable-install-and-smoke-check"
	p.Evidence.Rows[0].Recipe = long
	p.Findings[0].Location = "docs/guides/serving/backends/vllm-configuration.mdx:228"
	r := NewWorkbench(common.NewContext(p, true, false), Options{ForceTheme: "dark"})
	drive(r, r.Init())
	r.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	pressKeys(r, "5")
	if got := ansi.Strip(r.Render()); !strings.Contains(got, long) {
		t.Errorf("the evidence table cuts the recipe name:\n%s", got)
	}
	for _, w := range []int{80, 120} {
		r.Update(tea.WindowSizeMsg{Width: w, Height: 30})
		pressKeys(r, "4")
		got := ansi.Strip(r.Render())
		lines := strings.Split(got, "\n")
		if !strings.Contains(lines[2], ".mdx:228 ") {
			t.Errorf("at %d columns the list row lost the location's line: %q", w, lines[2])
		}
		if !strings.Contains(got, "vllm-configuration.mdx:228 ·") {
			t.Errorf("at %d columns the detail header lost the location's line:\n%s", w, got)
		}
	}
}

func TestClipPath(t *testing.T) {
	for _, c := range []struct {
		in   string
		w    int
		want string
	}{
		{"docs/guides/serving/vllm-configuration.mdx:228", 80, "docs/guides/serving/vllm-configuration.mdx:228"},
		{"docs/guides/serving/vllm-configuration.mdx:228", 41, "docs/…/serving/vllm-configuration.mdx:228"},
		{"docs/guides/serving/vllm-configuration.mdx:228", 33, "docs/…/vllm-configuration.mdx:228"},
		{"docs/guides/serving/vllm-configuration.mdx:228", 28, "…/vllm-configuration.mdx:228"},
		{"docs/guides/serving/vllm-configuration.mdx:228", 12, "…ion.mdx:228"},
		{"a.go:97-98", 6, ":97-98"},
	} {
		if got := common.ClipPath(c.in, c.w); got != c.want || ansi.StringWidth(got) > c.w {
			t.Errorf("clipPath(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
	}
}
