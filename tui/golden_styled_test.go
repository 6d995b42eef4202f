package tui

import (
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/compare"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/hostile"
	"github.com/vetter-dev/vetter/tui/common"
)

// The escape-injection packet's unit log: what the sanitiser neutralised
// shows as placeholders in their own colour.
func TestStyledLogPlaceholders(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		p := loadDir(t, hostile.Escape())
		r := hostileRoot(p)
		_, cmd := r.Update(common.FollowMsg{To: common.Target{Screen: common.ScreenLogs, Path: hostile.UnitLog, File: -1, Hunk: -1, DiffLine: -1}})
		drive(r, cmd)
		v := r.Render()
		if !strings.Contains(v, screentest.Opens(t, r.ctx.Styles.Placeholder)+"␛") {
			t.Errorf("no ␛ placeholder drawn in the placeholder style:\n%s", v)
		}
		screentest.GoldenStyled(t, "TestStyledLogPlaceholders120x40", v)
	})
}

// The since screen with an earlier round, styled: what changed between
// the rounds, in the colours of added, altered and resolved.
func TestStyledSince(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		p, err := packet.Load("../packet/testdata/rounds/round2", packet.Options{})
		if err != nil {
			t.Fatal(err)
		}
		c := compare.Compare(packet.LoadSample(packet.Options{}), p)
		ctx := common.NewContext(p, true, false)
		ctx.Since = &c
		r := NewWorkbench(ctx, Options{ForceTheme: "dark"})
		drive(r, r.Init())
		r.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		pressOn(t, r, common.ScreenSince, "8", "8")
		screentest.Golden(t, "TestStyledSince120x40", r.Render())
	})
}

// The guided walk as vetter opens it on a packet whose gate is not ready,
// styled: the verdict and the evidence, the step, the keys.
func TestStyledWalk(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r, _ := newWalkRoot(t, false)
		if r.Active() != common.ScreenWalk {
			t.Fatalf("opened on %v, not the walk", r.Active())
		}
		screentest.Golden(t, "TestStyledWalk80x24", r.Render())
	})
}

// The palette over the overview, styled: what is typed, the places that
// match it, the one selected.
func TestStyledPalette(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r := newTestRoot(t, 80, 24)
		pressKeys(r, "ctrl+p", "c", "l", "i")
		if r.palette == nil {
			t.Fatal("ctrl+p opened no palette")
		}
		screentest.Golden(t, "TestStyledPalette80x24", r.Render())
	})
}

// The prompt that asks why a finding is dismissed, styled, over the
// findings screen.
func TestStyledDismissPrompt(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		r := newTestRoot(t, 80, 24)
		pressKeys(r, "4", "x")
		if r.prompt == nil {
			t.Fatal("x opened no prompt")
		}
		screentest.Golden(t, "TestStyledDismissPrompt80x24", r.Render())
	})
}
