package ui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
)

// KeyMap is vetter's whole key contract. Views disable the bindings that do
// nothing in their current state (SetEnabled) so the help they generate
// never lies; the root routes by key.Matches against these, never by raw
// strings.
type KeyMap struct {
	// Screens: 1-7 jump to a screen; tab and shift+tab cycle.
	Overview, Docs, Diff, Findings, Evidence, Log, Decision key.Binding
	Since                                                   key.Binding // 8: what changed since the last round
	NextScreen, PrevScreen                                  key.Binding

	// Movement in any list or pane.
	Up, Down                 key.Binding
	Left, Right              key.Binding
	HalfPageUp, HalfPageDown key.Binding
	PageUp, PageDown         key.Binding
	Top, Bottom              key.Binding

	// Following citations and coming back.
	Follow, Back key.Binding

	// Search.
	Search, NextMatch, PrevMatch key.Binding

	// Diff.
	NextHunk, PrevHunk     key.Binding
	NextFile, PrevFile     key.Binding
	NextAnchor, PrevAnchor key.Binding // the next/previous line a finding cites
	SideBySide, ToggleWrap key.Binding

	// Log.
	NextError, PrevError key.Binding
	GotoLine             key.Binding

	// Triage of the selected finding.
	Accept, Dismiss, Defer, Reopen, Note, Mark key.Binding

	// The gate decision.
	OKToTest, Hold, RequestChanges key.Binding

	// Global.
	Palette, Help, Quit key.Binding

	// Walk steps to the next thing not yet looked at; Copy puts
	// what is selected in the clipboard; Edit opens the cited packet file
	// in $VISUAL or $EDITOR.
	Walk, Copy, Edit key.Binding
}

// DefaultKeyMap returns the key contract with its help text. Each call
// returns a fresh value, so one view disabling a binding never affects
// another.
func DefaultKeyMap() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Overview:   b("1", "overview", "1"),
		Docs:       b("2", "documents", "2"),
		Diff:       b("3", "diff", "3"),
		Findings:   b("4", "findings", "4"),
		Evidence:   b("5", "evidence", "5"),
		Log:        b("6", "logs", "6"),
		Decision:   b("7", "decision", "7"),
		Since:      b("8", "since last round", "8"),
		NextScreen: b("tab", "next screen", "tab"),
		PrevScreen: b("shift+tab", "previous screen", "shift+tab"),

		Up:           b("↑/k", "up", "up", "k"),
		Down:         b("↓/j", "down", "down", "j"),
		Left:         b("←/h", "scroll left", "left", "h"),
		Right:        b("→/l", "scroll right", "right", "l"),
		HalfPageUp:   b("ctrl+u", "half page up", "ctrl+u"),
		HalfPageDown: b("ctrl+d", "half page down", "ctrl+d"),
		PageUp:       b("pgup", "page up", "pgup"),
		PageDown:     b("pgdn", "page down", "pgdown"),
		Top:          b("g/home", "top", "g", "home"),
		Bottom:       b("G/end", "bottom", "G", "end"),

		Follow: b("enter", "follow", "enter"),
		Back:   b("bksp/ctrl+o", "back", "backspace", "ctrl+o"),

		Search:    b("/", "search", "/"),
		NextMatch: b("n", "next match", "n"),
		PrevMatch: b("N", "previous match", "N"),

		NextHunk:   b("]", "next hunk", "]"),
		PrevHunk:   b("[", "previous hunk", "["),
		NextFile:   b("}", "next file", "}"),
		PrevFile:   b("{", "previous file", "{"),
		NextAnchor: b(".", "next cited line", "."),
		PrevAnchor: b(",", "previous cited line", ","),
		SideBySide: b("s", "split/unified", "s"),
		ToggleWrap: b("w", "wrap", "w"),

		NextError: b("e", "next error", "e"),
		PrevError: b("E", "previous error", "E"),
		GotoLine:  b(":", "go to line", ":"),

		Accept:  b("a", "accept", "a"),
		Dismiss: b("x", "dismiss", "x"),
		Defer:   b("f", "defer", "f"),
		Reopen:  b("u", "reopen", "u"),
		Note:    b("c", "note", "c"),
		Mark:    b("space", "mark", "space"),

		OKToTest:       b("O", "ok to test", "O"),
		Hold:           b("H", "hold", "H"),
		RequestChanges: b("R", "request changes", "R"),

		// ctrl+p only goes somewhere (a heading, file, finding, recipe,
		// log); it runs nothing, so it is not called "commands".
		Palette: b("ctrl+p", "go to…", "ctrl+p"),
		Help:    b("?", "help", "?"),
		Quit:    b("q", "quit", "q", "ctrl+c"),

		Walk: b("W", "walk", "W"),
		Copy: b("y", "copy", "y"),
		Edit: b("v", "open in $EDITOR", "v"),
	}
}

// Screens returns the 1-7 bindings in screen order.
func (k KeyMap) Screens() []key.Binding {
	return []key.Binding{k.Overview, k.Docs, k.Diff, k.Findings, k.Evidence, k.Log, k.Decision, k.Since}
}

// ShortHelp is the one-line help: what works everywhere.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Down, k.Up, k.Follow, k.Back, k.Search, k.Palette, k.Help, k.Quit}
}

// FullHelp groups every binding into columns for the help screen.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		append(k.Screens(), k.NextScreen, k.PrevScreen),
		{k.Up, k.Down, k.Left, k.Right, k.HalfPageUp, k.HalfPageDown, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Walk, k.Follow, k.Back, k.Search, k.NextMatch, k.PrevMatch, k.Copy, k.Edit, k.Palette, k.Help, k.Quit},
		{k.NextHunk, k.PrevHunk, k.NextFile, k.PrevFile, k.NextAnchor, k.PrevAnchor, k.SideBySide, k.ToggleWrap},
		{k.NextError, k.PrevError, k.GotoLine},
		{k.Accept, k.Dismiss, k.Defer, k.Reopen, k.Note, k.Mark},
		{k.OKToTest, k.Hold, k.RequestChanges},
	}
}

// All returns every binding, for checks that no two collide.
func (k KeyMap) All() []key.Binding {
	var all []key.Binding
	for _, g := range k.FullHelp() {
		all = append(all, g...)
	}
	return all
}

// KeyAction is one binding of the key map under the name a config file
// gives it: "group.action", as `vetter config` lists them.
type KeyAction struct {
	Name    string
	Binding *key.Binding
}

// Actions names every binding of k, in help's order. The names are the
// config file's: remapping "triage.accept" remaps k.Accept wherever a
// screen reads it, in dispatch and in help alike.
func (k *KeyMap) Actions() []KeyAction {
	return []KeyAction{
		{"screen.overview", &k.Overview}, {"screen.docs", &k.Docs}, {"screen.diff", &k.Diff},
		{"screen.findings", &k.Findings}, {"screen.evidence", &k.Evidence}, {"screen.log", &k.Log},
		{"screen.decision", &k.Decision}, {"screen.since", &k.Since},
		{"screen.next", &k.NextScreen}, {"screen.previous", &k.PrevScreen},
		{"move.up", &k.Up}, {"move.down", &k.Down}, {"move.left", &k.Left}, {"move.right", &k.Right},
		{"move.half-page-up", &k.HalfPageUp}, {"move.half-page-down", &k.HalfPageDown},
		{"move.page-up", &k.PageUp}, {"move.page-down", &k.PageDown},
		{"move.top", &k.Top}, {"move.bottom", &k.Bottom},
		{"cite.follow", &k.Follow}, {"cite.back", &k.Back},
		{"search.start", &k.Search}, {"search.next", &k.NextMatch}, {"search.previous", &k.PrevMatch},
		{"diff.next-hunk", &k.NextHunk}, {"diff.previous-hunk", &k.PrevHunk},
		{"diff.next-file", &k.NextFile}, {"diff.previous-file", &k.PrevFile},
		{"diff.next-cited", &k.NextAnchor}, {"diff.previous-cited", &k.PrevAnchor},
		{"diff.side-by-side", &k.SideBySide}, {"diff.wrap", &k.ToggleWrap},
		{"log.next-error", &k.NextError}, {"log.previous-error", &k.PrevError}, {"log.goto-line", &k.GotoLine},
		{"triage.accept", &k.Accept}, {"triage.dismiss", &k.Dismiss}, {"triage.defer", &k.Defer},
		{"triage.reopen", &k.Reopen}, {"triage.note", &k.Note}, {"triage.mark", &k.Mark},
		{"decision.ok-to-test", &k.OKToTest}, {"decision.hold", &k.Hold}, {"decision.request-changes", &k.RequestChanges},
		{"global.palette", &k.Palette}, {"global.help", &k.Help}, {"global.quit", &k.Quit},
		{"global.walk", &k.Walk}, {"global.copy", &k.Copy}, {"global.edit", &k.Edit},
	}
}

// Remap gives the named action the keys given, and help shows them. A key
// another action holds is refused: the default map has no key that means
// two things (the screens share the triage and movement keys), and a remap
// must not make one.
func (k *KeyMap) Remap(name string, keys []string) error {
	var target *key.Binding
	for _, a := range k.Actions() {
		if a.Name == name {
			target = a.Binding
		}
	}
	if target == nil {
		return fmt.Errorf("no action %q (`vetter config` lists them)", name)
	}
	for _, a := range k.Actions() {
		if a.Binding == target {
			continue
		}
		for _, held := range a.Binding.Keys() {
			if slices.Contains(keys, held) {
				return fmt.Errorf("%s: %q is %s's key; remap that too", name, held, a.Name)
			}
		}
	}
	target.SetKeys(keys...)
	target.SetHelp(strings.Join(keys, "/"), target.Help().Desc)
	return nil
}
