package common

import tea "charm.land/bubbletea/v2"

// WorkbenchMsg marks a message the workbench routes (FollowMsg, StatusMsg,
// ...): sent by a command of a workbench, it still means something to the
// same workbench after a reload, but not to one opened later.
type WorkbenchMsg interface{ WorkbenchMsg() }

// EpochBound marks a screen's own data message (a rendering of a document's
// text, an index of a log): it answers a command of one epoch and means
// nothing to the screens a reload builds, so it is dropped after one.
type EpochBound interface{ EpochBound() }

// ThemeChangedMsg tells every screen the styles were rebuilt (the terminal's
// background was detected), so cached drawings must be redone.
type ThemeChangedMsg struct{}

func (ThemeChangedMsg) WorkbenchMsg() {}

// TriageChangedMsg tells every screen that a triage decision changed.
type TriageChangedMsg struct{}

func (TriageChangedMsg) WorkbenchMsg() {}

// Status returns a command that shows text on the status line.
func Status(text string) tea.Cmd {
	return func() tea.Msg { return StatusMsg{Text: text} }
}

// LogIndexedMsg marks the logs screen's news that a log's index grew or
// ended, which other screens waiting on a log's line (the walk) hear too.
type LogIndexedMsg interface{ LogIndexed() }
