package common

import (
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// A key table dispatches the first enabled binding a key matches, lists
// every binding for help in its order, and leaves unknown and disabled keys
// to the screen.
func TestKeyTable(t *testing.T) {
	var ran []string
	on := func(name string) func(tea.KeyPressMsg) tea.Cmd {
		return func(tea.KeyPressMsg) tea.Cmd { ran = append(ran, name); return nil }
	}
	hold := key.NewBinding(key.WithKeys("H"), key.WithHelp("H", "hold"))
	off := key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "off"))
	off.SetEnabled(false)
	again := key.NewBinding(key.WithKeys("H", "h"), key.WithHelp("h", "again"))
	tbl := KeyTable{{Key: hold, Handler: on("hold")}, {Key: off, Handler: on("off")}, {Key: again, Handler: on("again")}}

	if _, ok := tbl.Dispatch(tea.KeyPressMsg{Code: 'H', Text: "H"}); !ok {
		t.Fatal("H was not dispatched")
	}
	if _, ok := tbl.Dispatch(tea.KeyPressMsg{Code: 'x', Text: "x"}); ok {
		t.Error("a disabled binding was dispatched")
	}
	if _, ok := tbl.Dispatch(tea.KeyPressMsg{Code: 'q', Text: "q"}); ok {
		t.Error("a key of no binding was dispatched")
	}
	tbl.Dispatch(tea.KeyPressMsg{Code: 'h', Text: "h"})
	if got := len(ran); got != 2 || ran[0] != "hold" || ran[1] != "again" {
		t.Errorf("ran %v, want [hold again]", ran)
	}
	keys := tbl.Keys()
	if len(keys) != 3 || keys[0].Help().Desc != "hold" || keys[2].Help().Desc != "again" {
		t.Errorf("help lists %v", keys)
	}
}
