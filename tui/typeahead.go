package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/tui/common"
)

// Keys typed ahead (a practised hand's "a a a", a paste) arrive faster than
// their effects: a triage key's save comes back as a message, and only then
// does the walk step on; O on the decision screen opens its prompt through a
// message. A key read before those messages would act on the state before
// them: the second a would accept the first finding again. So a key whose
// effect comes back as a message holds the keys typed after it until it has,
// and they are then applied one by one, in order; none is dropped.

// keysReleasedMsg says that what the held keys waited for has been applied.
type keysReleasedMsg struct{}

func (keysReleasedMsg) WorkbenchMsg() {}

func release() tea.Msg { return keysReleasedMsg{} }

// holding reports whether a key typed now must wait.
func (r *Workbench) holding() bool { return r.saves > 0 || r.waiting || len(r.held) > 0 }

// keyInTurn applies a key; when it starts a save, the keys after it wait
// for the save, and when it leaves a command on the walk or the decision
// screen (a step to another screen, a decision's prompt), they wait for that
// command's message. Keys typed into a prompt, the search or the palette
// never wait: their commands are a cursor's blinking.
func (r *Workbench) keyInTurn(msg tea.KeyPressMsg) tea.Cmd {
	before, active := r.saves, r.active
	overlay := r.prompt != nil || r.searching || r.palette != nil || r.showHelp
	cmd := r.key(msg)
	if r.saves > before || cmd == nil || overlay {
		return cmd
	}
	if active == common.ScreenWalk || active == common.ScreenDecision {
		r.waiting = true
		return tea.Sequence(cmd, release)
	}
	return cmd
}

// holdForSave counts a save started on the walk, whose keys typed ahead
// must wait for it: the walk steps to the next finding only once the save
// shows this one decided. Elsewhere the keys act on what the cursor or the
// marks pick, which a save does not move, so they never wait for a save
// (another vetter holding the state folder's lock must not stop the keys).
func (r *Workbench) holdForSave() bool {
	if r.active != common.ScreenWalk {
		return false
	}
	r.saves++
	return true
}

// savedThenRelease shows a finished save; once no save is in flight, the
// held keys are applied after what the save set off (the walk stepping on,
// the decision screen it hands over to).
func (r *Workbench) savedThenRelease(msg TriageSavedMsg) tea.Cmd {
	// A save by a store since replaced is read again and comes back as
	// another TriageSavedMsg: it is still in flight.
	again := msg.store != r.ctx.Store && r.ctx.Store != nil && msg.err == nil
	cmd := r.stored(msg)
	if again || !msg.holds || r.saves == 0 {
		return cmd
	}
	r.saves--
	if r.saves > 0 {
		return cmd
	}
	r.waiting = true
	return tea.Sequence(cmd, release)
}

// replay applies the held keys in order until one must wait again.
func (r *Workbench) replay() tea.Cmd {
	var cmds []tea.Cmd
	for len(r.held) > 0 && r.saves == 0 && !r.waiting {
		k := r.held[0]
		r.held = r.held[1:]
		if k.String() == "ctrl+c" {
			return tea.Quit
		}
		cmds = append(cmds, r.keyInTurn(k))
	}
	return tea.Batch(cmds...)
}
