package ui

import (
	"reflect"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func TestKeyMapNoCollisions(t *testing.T) {
	km := DefaultKeyMap()
	seen := map[string]string{}
	for _, b := range km.All() {
		h := b.Help()
		if h.Key == "" || h.Desc == "" {
			t.Errorf("binding %v has no help", b.Keys())
		}
		for _, k := range b.Keys() {
			if other, ok := seen[k]; ok {
				t.Errorf("key %q bound to both %q and %q", k, other, h.Desc)
			}
			seen[k] = h.Desc
		}
	}
	const screens = 8 // tui.ScreenID: overview to since, the keys 1-8
	if len(km.Screens()) != screens {
		t.Errorf("%d screen bindings for %d screens", len(km.Screens()), screens)
	}
}

// TestKeyMapContract checks the key contract against the strings Bubble Tea
// v2 produces for real key presses.
func TestKeyMapContract(t *testing.T) {
	km := DefaultKeyMap()
	press := func(code rune, text string, mod tea.KeyMod) tea.KeyPressMsg {
		return tea.KeyPressMsg{Code: code, Text: text, Mod: mod}
	}
	ch := func(r rune) tea.KeyPressMsg { return press(r, string(r), 0) }
	shift := func(r rune) tea.KeyPressMsg { return press(r, string(r), tea.ModShift) }
	ctrl := func(r rune) tea.KeyPressMsg { return press(r, "", tea.ModCtrl) }
	tests := []struct {
		msg  tea.KeyPressMsg
		want key.Binding
		name string
	}{
		{ch('1'), km.Overview, "overview"}, {ch('4'), km.Findings, "findings"}, {ch('7'), km.Decision, "decision"},
		{press(tea.KeyTab, "", 0), km.NextScreen, "tab"}, {press(tea.KeyTab, "", tea.ModShift), km.PrevScreen, "shift+tab"},
		{ch('j'), km.Down, "j"}, {press(tea.KeyDown, "", 0), km.Down, "down"},
		{ch('k'), km.Up, "k"}, {press(tea.KeyUp, "", 0), km.Up, "up"},
		{ctrl('d'), km.HalfPageDown, "ctrl+d"}, {ctrl('u'), km.HalfPageUp, "ctrl+u"},
		{press(tea.KeyPgDown, "", 0), km.PageDown, "pgdown"}, {press(tea.KeyPgUp, "", 0), km.PageUp, "pgup"},
		{ch('g'), km.Top, "g"}, {press(tea.KeyHome, "", 0), km.Top, "home"},
		{shift('G'), km.Bottom, "G"}, {press(tea.KeyEnd, "", 0), km.Bottom, "end"},
		{press(tea.KeyEnter, "", 0), km.Follow, "enter"},
		{press(tea.KeyBackspace, "", 0), km.Back, "backspace"}, {ctrl('o'), km.Back, "ctrl+o"},
		{ch('/'), km.Search, "/"}, {ch('n'), km.NextMatch, "n"}, {shift('N'), km.PrevMatch, "N"},
		{ch(']'), km.NextHunk, "]"}, {ch('['), km.PrevHunk, "["}, {ch('}'), km.NextFile, "}"}, {ch('{'), km.PrevFile, "{"},
		{ch('.'), km.NextAnchor, "."}, {ch(','), km.PrevAnchor, ","}, {ch('s'), km.SideBySide, "s"}, {ch('w'), km.ToggleWrap, "w"},
		{ch('e'), km.NextError, "e"}, {shift('E'), km.PrevError, "E"}, {ch(':'), km.GotoLine, ":"},
		{ctrl('p'), km.Palette, "ctrl+p"}, {ch('?'), km.Help, "?"}, {ch('q'), km.Quit, "q"}, {ctrl('c'), km.Quit, "ctrl+c"},
		{ch('a'), km.Accept, "a"}, {ch('x'), km.Dismiss, "x"}, {ch('f'), km.Defer, "f"}, {ch('u'), km.Reopen, "u"},
		{ch('c'), km.Note, "c"}, {press(tea.KeySpace, " ", 0), km.Mark, "space"},
		{shift('O'), km.OKToTest, "O"}, {shift('H'), km.Hold, "H"}, {shift('R'), km.RequestChanges, "R"},
	}
	for _, tt := range tests {
		if !key.Matches(tt.msg, tt.want) {
			t.Errorf("%s: %q does not match %v", tt.name, tt.msg.String(), tt.want.Keys())
		}
	}
}

func TestKeyMapDisable(t *testing.T) {
	a, b := DefaultKeyMap(), DefaultKeyMap()
	a.Accept.SetEnabled(false)
	if !b.Accept.Enabled() {
		t.Errorf("disabling a binding in one key map affected another")
	}
	if key.Matches(tea.KeyPressMsg{Code: 'a', Text: "a"}, a.Accept) {
		t.Errorf("a disabled binding still matches")
	}
	if len(a.ShortHelp()) == 0 || len(a.FullHelp()) < 5 {
		t.Errorf("help groups missing")
	}
}

// Every binding of the key map has a name a config file can remap, and a
// remap changes what the binding matches and what help shows.
func TestKeyMapRemap(t *testing.T) {
	k := DefaultKeyMap()
	seen := map[string]bool{}
	for _, a := range k.Actions() {
		if seen[a.Name] {
			t.Errorf("%s named twice", a.Name)
		}
		seen[a.Name] = true
	}
	if n := reflect.TypeOf(k).NumField(); len(k.Actions()) != n {
		t.Errorf("%d actions named for the %d bindings of KeyMap", len(k.Actions()), n)
	}
	if err := k.Remap("triage.accept", []string{"A"}); err != nil {
		t.Fatal(err)
	}
	if !key.Matches(tea.KeyPressMsg{Code: 'A', Text: "A"}, k.Accept) || key.Matches(tea.KeyPressMsg{Code: 'a', Text: "a"}, k.Accept) {
		t.Errorf("accept's keys after the remap: %v", k.Accept.Keys())
	}
	if h := k.Accept.Help(); h.Key != "A" || h.Desc != "accept" {
		t.Errorf("help %+v", h)
	}
	if err := k.Remap("triage.dismiss", []string{"f"}); err == nil || !strings.Contains(err.Error(), "triage.defer") {
		t.Errorf("a key another triage action holds: %v", err)
	}
	if err := k.Remap("triage.dismiss", []string{"q"}); err == nil {
		t.Error("global.quit's key taken by a triage action")
	}
	if err := k.Remap("diff.next-hunk", []string{"a"}); err != nil {
		t.Errorf("accept's old key, free after its remap: %v", err)
	}
	if err := k.Remap("triage.acept", []string{"z"}); err == nil {
		t.Error("an unknown action accepted")
	}
}
