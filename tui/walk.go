package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/tui/screens/walk"
)

// walkKey is W: from anywhere, the next thing not looked at (the walk, or
// the decision when nothing is left); on the walk, it passes over what is
// shown, as space does.
func (r *Workbench) walkKey() tea.Cmd {
	w := r.screens[common.ScreenWalk].(*walk.Walk)
	if r.active == common.ScreenWalk {
		return w.Advance()
	}
	if w.Done() {
		if r.active == common.ScreenDecision {
			return nil
		}
		return common.Follow(walk.DecisionTarget())
	}
	return common.Follow(walk.Target())
}
