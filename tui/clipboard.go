package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/github/rules"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/tui/screens/walk"
	"github.com/vetter-dev/vetter/ui"
)

// copyKey is y: what is selected goes to the clipboard through the
// terminal (OSC 52, which reaches the local clipboard over ssh and through
// tmux with set-clipboard on), and the status line says what was copied.
func (r *Workbench) copyKey() tea.Cmd {
	text, what := r.copyText()
	if text == "" {
		return func() tea.Msg { return common.StatusMsg{Text: "nothing here to copy"} }
	}
	// What was copied comes first and whole when it can (the command and
	// its SHA fit 80 columns); what it is follows.
	shown := text
	if len([]rune(shown)) > 60 {
		shown = string([]rune(shown)[:59]) + "…"
	}
	note := fmt.Sprintf("copied: %s (%s)", shown, what)
	return tea.Batch(tea.SetClipboard(text), func() tea.Msg { return common.StatusMsg{Text: note} })
}

// copyText is what y copies on the active screen and what to call it.
// Packet text is untrusted and will be pasted, maybe into a shell: it goes
// through the sanitiser, so a control character or a hidden one arrives
// as its visible placeholder, never as itself.
func (r *Workbench) copyText() (text, what string) {
	p := r.ctx.Packet
	here := r.screens[r.active].Here()
	switch r.active {
	case common.ScreenDecision:
		if ls := rules.OkToTestLines(p); len(ls) > 0 {
			return ls[0], "the command"
		}
	case common.ScreenWalk:
		w := r.screens[common.ScreenWalk].(*walk.Walk)
		if c := w.Place(); c != nil {
			return ui.Sanitize(c.Text), "the citation"
		}
	case common.ScreenFindings:
		f := p.Finding(here.Finding)
		if f == nil {
			return "", ""
		}
		if here.Line > 0 && here.Line <= len(f.Citations) {
			return ui.Sanitize(f.Citations[here.Line-1].Text), "the citation"
		}
		return ui.Sanitize(common.OneLine(f.Location)), "the location of " + f.ID
	case common.ScreenDiff:
		if dl := diffLineAt(p, here); dl != nil && here.Path != "" {
			n := dl.New
			if n == 0 {
				n = dl.Old
			}
			return ui.Sanitize(fmt.Sprintf("%s:%d", here.Path, n)), "the citation"
		}
	case common.ScreenEvidence:
		if here.Path != "" && here.Line > 0 {
			return fmt.Sprintf("%s:%d", here.Path, here.Line), "the run's citation"
		}
		if here.Recipe != "" {
			return ui.Sanitize(here.Recipe), "the recipe"
		}
	case common.ScreenLogs:
		if l := p.Log(here.Path); l != nil && here.Line > 0 {
			if got, err := l.ReadLines(here.Line, 1); err == nil && len(got) == 1 {
				// What the screen shows, the ␍ of an overwritten line too.
				return ui.Sanitize(ui.LogLineText(got[0])), fmt.Sprintf("line %d of the log", here.Line)
			}
		}
	}
	if sha := p.DecisionSHA(); sha != "" {
		return ui.Sanitize(sha), "the head SHA"
	}
	return "", ""
}

// diffLineAt is the diff line a diff target points at, nil when none.
func diffLineAt(p *packet.Packet, t common.Target) *packet.DiffLine {
	return p.Diff.LineAt(t.File, t.Hunk, t.DiffLine)
}
