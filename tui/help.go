package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/tui/common"
	helpscreen "github.com/vetter-dev/vetter/tui/screens/help"
	"github.com/vetter-dev/vetter/tui/screens/walk"
)

// mainKeys are the current screen's keys without the movement ones: what
// the status line and the top of help show. A screen on which findings are
// triaged has the triage keys first.
func (r *Workbench) mainKeys() []key.Binding {
	k := r.ctx.Keys
	var out []key.Binding
	seen := map[string]bool{}
	for _, b := range common.Movement(k) {
		seen[b.Help().Key] = true
	}
	add := func(bs ...key.Binding) {
		for _, b := range bs {
			if b.Enabled() && !seen[b.Help().Key] {
				seen[b.Help().Key] = true
				out = append(out, b)
			}
		}
	}
	picking := false
	if _, ok := r.screens[r.active].(FindingPicker); ok {
		// The walk picks a finding only on a finding's step.
		w, isWalk := r.screens[r.active].(*walk.Walk)
		picking = !isWalk || w.Current() != ""
	}
	triage := r.triageKeys(nil).Keys()
	if picking {
		add(triage[:3]...)
		if r.active == common.ScreenFindings {
			add(k.Mark)
		}
	}
	add(r.screens[r.active].Bindings()...)
	if picking {
		add(triage[3:]...)
	}
	return out
}

// helpSections are the groups help shows, the current screen's first;
// a key already shown is not repeated.
func (r *Workbench) helpSections() []helpscreen.Section {
	k := r.ctx.Keys
	secs := []helpscreen.Section{{Title: r.active.String(), Keys: r.mainKeys()}}
	if _, ok := r.screens[r.active].(FindingPicker); !ok {
		secs = append(secs, helpscreen.Section{Title: "On a finding (findings, diff, walk)", Keys: append(r.triageKeys(nil).Keys(), k.Mark)})
	}
	if r.active != common.ScreenDecision {
		secs = append(secs, helpscreen.Section{Title: "On the decision screen", Keys: []key.Binding{k.OKToTest, k.Hold, k.RequestChanges}})
	}
	secs = append(secs,
		helpscreen.Section{Title: "Everywhere", Keys: r.keys().Keys()},
		helpscreen.Section{Title: "Screens", Keys: r.tabKeys().Keys()},
		helpscreen.Section{Title: "Move", Keys: common.Movement(k)},
	)
	if r.active != common.ScreenDiff {
		secs = append(secs, helpscreen.Section{Title: "On the diff", Keys: []key.Binding{k.NextHunk, k.PrevHunk, k.NextFile, k.PrevFile, k.NextAnchor, k.PrevAnchor, k.SideBySide, k.ToggleWrap}})
	}
	if r.active != common.ScreenLogs {
		secs = append(secs, helpscreen.Section{Title: "On a log", Keys: []key.Binding{k.NextError, k.PrevError, k.GotoLine}})
	}
	seen := map[string]bool{}
	for i := range secs {
		var keep []key.Binding
		for _, b := range secs[i].Keys {
			h := b.Help()
			id := h.Key + "\x00" + h.Desc
			if h.Key == "" || seen[id] {
				continue
			}
			seen[id] = true
			keep = append(keep, b)
		}
		secs[i].Keys = keep
	}
	return secs
}

// openHelp shows help for the active screen.
func (r *Workbench) openHelp() {
	r.helpm = r.newHelp()
	r.showHelp = true
}

// helpKey gives a key to the open help.
func (r *Workbench) helpKey(msg tea.KeyPressMsg) tea.Cmd {
	done, cmd := r.helpm.Update(msg)
	if done {
		r.showHelp, r.helpm = false, nil
	}
	return cmd
}

func (r *Workbench) helpView() string {
	if r.helpm == nil {
		r.helpm = r.newHelp()
	}
	return r.helpm.View()
}

// newHelp is help for the active screen at the body's size.
func (r *Workbench) newHelp() *helpscreen.Model {
	return helpscreen.New(r.ctx, r.active.String(), r.helpSections(), r.width, r.bodyHeight())
}
