package views

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"vetter/packet"
)

// FindingPicker is a screen on which findings can be selected for triage:
// the Findings screen (the marked findings, else the selected one) and the
// Diff screen (the finding shown under the cursor).
type FindingPicker interface {
	PickedFindings() []string
}

// triageKey applies a/x/f/u/c to the findings the active screen picks.
func (r *Workbench) triageKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	km := r.ctx.Keys
	picker, ok := r.screens[r.active].(FindingPicker)
	if !ok {
		return nil, false
	}
	var state string
	switch {
	case key.Matches(msg, km.Accept):
		state = packet.TriageAccepted
	case key.Matches(msg, km.Defer):
		state = packet.TriageDeferred
	case key.Matches(msg, km.Reopen):
		state = packet.TriageOpen
	case key.Matches(msg, km.Dismiss):
		state = packet.TriageDismissed
	case key.Matches(msg, km.Note):
		state = "note"
	default:
		return nil, false
	}
	ids := picker.PickedFindings()
	if len(ids) == 0 {
		return func() tea.Msg { return StatusMsg{Text: "no finding here to triage"} }, true
	}
	switch state {
	case packet.TriageDismissed:
		r.openPrompt(fmt.Sprintf("Dismiss %s: why is it not valid?", idList(ids)), "", true, func(note string) tea.Cmd {
			return r.saveTriage(ids, packet.TriageDismissed, note)
		})
		return r.prompt.focus(), true
	case "note":
		initial := ""
		if f := r.ctx.Packet.Finding(ids[0]); f != nil {
			if _, _, d := r.ctx.Packet.TriageOf(f); d != nil {
				initial = d.Note
			}
		}
		r.openPrompt(fmt.Sprintf("Note on %s", idList(ids[:1])), initial, false, func(note string) tea.Cmd {
			return r.saveNote(ids[0], note)
		})
		return r.prompt.focus(), true
	}
	return r.saveTriage(ids, state, ""), true
}

func (r *Workbench) openPrompt(title, initial string, required bool, save func(string) tea.Cmd) {
	r.prompt = newPrompt(r.ctx, title, initial, required, save)
	r.prompt.setSize(r.width, r.bodyHeight())
}

func idList(ids []string) string {
	if len(ids) > 3 {
		return fmt.Sprintf("%d findings", len(ids))
	}
	return strings.Join(ids, ", ")
}

// saveTriage records a decision at once and tells every screen. It writes in
// Update, not in a command, on purpose: the store changes the packet's
// decisions in memory, which every View reads, so doing it on another
// goroutine would race the drawing; the write is one small file.
func (r *Workbench) saveTriage(ids []string, state, note string) tea.Cmd {
	if r.ctx.Store == nil {
		return r.cannotSave()
	}
	rep, err := r.ctx.Store.Set(ids, state, note, r.ctx.User, r.ctx.Now())
	if err != nil {
		return ReportError(err)
	}
	text := fmt.Sprintf("%s → %s · saved to %s", idList(ids), state, r.ctx.Store.Where())
	if rep.Merged() {
		text += " · merged with another vetter's changes: " + rep.String()
	}
	return tea.Batch(r.broadcast(TriageChangedMsg{}), func() tea.Msg { return StatusMsg{Text: text} })
}

func (r *Workbench) saveNote(id, note string) tea.Cmd {
	if r.ctx.Store == nil {
		return r.cannotSave()
	}
	rep, err := r.ctx.Store.SetNote(id, note, r.ctx.User, r.ctx.Now())
	if err != nil {
		return ReportError(err)
	}
	text := fmt.Sprintf("note on %s saved to %s", id, r.ctx.Store.Where())
	if rep.Merged() {
		text += " · merged: " + rep.String()
	}
	return tea.Batch(r.broadcast(TriageChangedMsg{}), func() tea.Msg { return StatusMsg{Text: text} })
}

func (r *Workbench) cannotSave() tea.Cmd {
	err := r.ctx.StoreErr
	if err == nil {
		err = errors.New("no triage store")
	}
	return ReportError(fmt.Errorf("not saved: %w", err))
}

// askDecision opens the note prompt for a gate decision; ok-to-test on a
// gate that is not ready asks for the override's reason instead.
func (r *Workbench) askDecision(decision string) tea.Cmd {
	if r.ctx.Store == nil {
		return r.cannotSave()
	}
	g := r.ctx.Packet.Gate()
	if decision == packet.DecisionOkToTest && !g.Ready {
		title := fmt.Sprintf("The gate is not ready (%s). To give ok-to-test anyway, write why:", strings.Join(g.FailingChecks(), ", "))
		r.openPrompt(title, "", true, func(why string) tea.Cmd { return r.decide(decision, why, why) })
		return r.prompt.focus()
	}
	r.openPrompt(fmt.Sprintf("%s for %s — note (optional):", decision, r.ctx.Packet.Change.HeadSHA), "", false,
		func(note string) tea.Cmd { return r.decide(decision, note, "") })
	return r.prompt.focus()
}

func (r *Workbench) decide(decision, note, override string) tea.Cmd {
	gd, rep, err := r.ctx.Store.Decide(decision, note, r.ctx.User, override, r.ctx.Now())
	if err != nil {
		return ReportError(err)
	}
	text := fmt.Sprintf("recorded %s for %s in %s", gd.Decision, gd.SHA, r.ctx.Store.Where())
	if rep.GateChanged {
		text += " · another vetter decided meanwhile: " + rep.String()
	}
	cmds := []tea.Cmd{r.broadcast(TriageChangedMsg{})}
	if decision == packet.DecisionOkToTest {
		r.exitLines = r.ctx.Packet.OkToTestLines()
		if len(r.exitLines) > 0 {
			// OSC 52: the command lands in the clipboard, ready to paste.
			cmds = append(cmds, tea.SetClipboard(r.exitLines[0]))
			text += " · " + r.exitLines[0] + " copied to the clipboard and printed on exit"
		}
	}
	cmds = append(cmds, func() tea.Msg { return StatusMsg{Text: text} })
	return tea.Batch(cmds...)
}
