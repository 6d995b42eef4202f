package common

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/ui"
)

// Binding is one key a screen answers: the key, from the Context's key map
// (so a remapping of the key map remaps it), with its help text, and what
// pressing it does. A screen keeps its keys in one KeyTable, which both
// dispatches the keys and lists them for help and the status line, so the
// help can never name a key the screen does not answer, or miss one.
//
// A binding with no Handler is a key the workbench answers before the
// screen sees it (triage, copy, edit): the screen lists it where its help
// should show it, and Dispatch passes it by. An Unlisted binding is
// answered but not shown: a key that here only says there is nothing to do.
type Binding struct {
	Key      key.Binding
	Handler  func(tea.KeyPressMsg) tea.Cmd
	Unlisted bool
}

// KeyTable is a screen's keys in the order help lists them.
type KeyTable []Binding

// Dispatch runs the handler of the first enabled binding msg matches. ok is
// false when none matches, and the screen goes on to what it does with any
// other key (moving a list, say).
func (t KeyTable) Dispatch(msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	for _, b := range t {
		if b.Handler != nil && key.Matches(msg, b.Key) {
			return b.Handler(msg), true
		}
	}
	return nil, false
}

// Keys are the table's listed keys, for help.
func (t KeyTable) Keys() []key.Binding {
	out := make([]key.Binding, 0, len(t))
	for _, b := range t {
		if !b.Unlisted {
			out = append(out, b.Key)
		}
	}
	return out
}

// Movement are the keys every list and pane shares; the screens list them
// among their own, and help shows them once, under "Move".
func Movement(k ui.KeyMap) []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Left, k.Right, k.HalfPageUp, k.HalfPageDown, k.PageUp, k.PageDown, k.Top, k.Bottom}
}

// Relabel is a binding of the key map with the description a screen gives
// it ("go to the cited line" for follow): the keys stay the key map's, so a
// remapping remaps what the screen answers and what its help shows alike.
func Relabel(b key.Binding, desc string) key.Binding {
	r := key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, desc))
	r.SetEnabled(b.Enabled())
	return r
}
