package tui

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/github/rules"
	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/common"
)

// FindingPicker is a screen on which findings can be selected for triage:
// the Findings screen (the marked findings, else the selected one) and the
// Diff screen (the finding shown under the cursor).
type FindingPicker interface {
	PickedFindings() []string
}

// markClearer is a screen with findings marked for a batch (Findings).
type markClearer interface {
	ClearMarks() bool
}

// triageKey applies a/x/f/u/c to the findings the active screen picks.
func (r *Workbench) triageKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	picker, ok := r.screens[r.active].(FindingPicker)
	if !ok {
		return nil, false
	}
	if msg.String() == "esc" {
		if m, ok := picker.(markClearer); ok && m.ClearMarks() {
			return func() tea.Msg { return common.StatusMsg{Text: "marks cleared"} }, true
		}
		return nil, false
	}
	return r.triageKeys(picker).Dispatch(msg)
}

// triageKeys are the keys that triage what a screen picks, in the order
// help lists them; picker may be nil for the listing alone.
func (r *Workbench) triageKeys(picker FindingPicker) common.KeyTable {
	km := r.ctx.Keys
	set := func(state string) func(tea.KeyPressMsg) tea.Cmd {
		return func(tea.KeyPressMsg) tea.Cmd { return r.triage(picker, state) }
	}
	return common.KeyTable{
		{Key: km.Accept, Handler: set(packet.TriageAccepted)},
		{Key: km.Dismiss, Handler: set(packet.TriageDismissed)},
		{Key: km.Defer, Handler: set(packet.TriageDeferred)},
		{Key: km.Reopen, Handler: set(packet.TriageOpen)},
		{Key: km.Note, Handler: set("note")},
	}
}

// triage gives the findings picker picks the state ("note": a note alone),
// asking first for the reason of a dismissal or the text of a note.
func (r *Workbench) triage(picker FindingPicker, state string) tea.Cmd {
	clearMarks := func() {
		if m, ok := picker.(markClearer); ok {
			m.ClearMarks()
		}
	}
	ids := picker.PickedFindings()
	if len(ids) == 0 {
		return func() tea.Msg { return common.StatusMsg{Text: "no finding here to triage"} }
	}
	switch state {
	case packet.TriageDismissed:
		r.openPrompt(fmt.Sprintf("Dismiss %s: why is it not valid?", idList(ids)), "", true, func(note string) tea.Cmd {
			clearMarks()
			return r.saveTriage(ids, packet.TriageDismissed, note)
		})
		return r.prompt.focus()
	case "note":
		initial := ""
		if f := r.ctx.Packet.Finding(ids[0]); f != nil {
			if _, _, d := review.TriageOf(r.ctx.Packet, f); d != nil {
				initial = d.Note
			}
		}
		r.openPrompt(fmt.Sprintf("Note on %s", idList(ids[:1])), initial, false, func(note string) tea.Cmd {
			return r.saveNote(ids[0], note)
		})
		return r.prompt.focus()
	}
	clearMarks()
	return r.saveTriage(ids, state, "")
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

// TriageSavedMsg carries a finished save of triage or of a gate decision
// back to Update, which puts the saved decisions in the packet and says so.
// It is a workbench message, so it still reaches its workbench after the
// packet was reloaded meanwhile, and no other.
type TriageSavedMsg struct {
	store *review.Store
	text  string // the status line
	err   error
	// okToTest is set when ok-to-test was recorded: the lines to copy and
	// print on exit, and on a pull request the question whether to post.
	okToTest bool
	sha      string // the SHA the decision was recorded for
	// holds: the save was started on the walk, and the keys typed after
	// it wait for it (typeahead.go).
	holds bool
}

// A save is its workbench's, after a reload of the packet too (stored reads
// the file again then), but never another packet's.
func (TriageSavedMsg) WorkbenchMsg() {}

// store is the context's store, detached so that saving in a command never
// changes the packet the screens are drawing; nil when there is none.
func (r *Workbench) store() *review.Store {
	if r.ctx.Store != nil {
		r.ctx.Store.Detach()
	}
	return r.ctx.Store
}

// saveTriage records a decision at once, in a command: the store waits for
// the folder's lock, which another vetter may hold, and syncs to disk, and
// neither may freeze the screen. The result comes back as a TriageSavedMsg.
func (r *Workbench) saveTriage(ids []string, state, note string) tea.Cmd {
	store := r.store()
	if store == nil {
		return r.cannotSave()
	}
	holds := r.holdForSave()
	user, now := r.ctx.Who(), r.ctx.Now()
	return func() tea.Msg {
		rep, err := store.Set(ids, state, note, user, now)
		if err != nil {
			return TriageSavedMsg{store: store, err: err, holds: holds}
		}
		// Where it is saved is the same for every save (the work item's
		// state folder, shown on the overview and the decision screen), so
		// the status line keeps its width for what changed.
		text := fmt.Sprintf("%s → %s · saved", idList(ids), state)
		if rep.Merged() {
			text += " · merged with another vetter's changes: " + rep.String()
		}
		return TriageSavedMsg{store: store, text: text, holds: holds}
	}
}

func (r *Workbench) saveNote(id, note string) tea.Cmd {
	store := r.store()
	if store == nil {
		return r.cannotSave()
	}
	holds := r.holdForSave()
	user, now := r.ctx.Who(), r.ctx.Now()
	return func() tea.Msg {
		rep, err := store.SetNote(id, note, user, now)
		if err != nil {
			return TriageSavedMsg{store: store, err: err, holds: holds}
		}
		text := fmt.Sprintf("note on %s saved", id)
		if rep.Merged() {
			text += " · merged: " + rep.String()
		}
		return TriageSavedMsg{store: store, text: text, holds: holds}
	}
}

// stored shows a finished save: the saved decisions go into the packet
// (here, in Update, where the screens read them) and every screen is told.
// A save made by a store the workbench has since replaced (the packet was
// reloaded meanwhile) is on disk but not in the new store's copy, so that
// store reads the file again.
func (r *Workbench) stored(msg TriageSavedMsg) tea.Cmd {
	if msg.store != r.ctx.Store {
		if r.ctx.Store == nil {
			return nil
		}
		store := r.store()
		if msg.err != nil {
			return common.ReportError(msg.err)
		}
		return func() tea.Msg {
			if err := store.Reload(); err != nil {
				return TriageSavedMsg{store: store, err: err, holds: msg.holds}
			}
			again := msg // what was recorded (ok-to-test, its SHA) still counts
			again.store = store
			return again
		}
	}
	if msg.err != nil {
		return common.ReportError(msg.err)
	}
	msg.store.Publish()
	text := msg.text
	cmds := []tea.Cmd{r.broadcast(common.TriageChangedMsg{})}
	if msg.okToTest {
		r.exitLines = rules.OkToTestLines(r.ctx.Packet)
		if len(r.exitLines) > 0 {
			// OSC 52: the command lands in the clipboard, ready to paste.
			cmds = append(cmds, tea.SetClipboard(r.exitLines[0]))
			// The command first: at 80 columns the rest is what is cut.
			text = "copied: " + r.exitLines[0] + " · " + text + " · printed on exit"
		}
	}
	cmds = append(cmds, func() tea.Msg { return common.StatusMsg{Text: text} })
	if msg.okToTest && r.ctx.PostOkToTest != nil {
		sha := msg.sha
		cmds = append(cmds, func() tea.Msg { return confirmPostMsg{sha: sha} })
	}
	return tea.Batch(cmds...)
}

func (r *Workbench) cannotSave() tea.Cmd {
	err := r.ctx.StoreErr
	if err == nil {
		err = errors.New("no triage store")
	}
	return common.ReportError(fmt.Errorf("not saved: %w", err))
}

// askDecision opens the note prompt for a gate decision; ok-to-test on a
// gate that is not ready asks for the override's reason instead.
func (r *Workbench) askDecision(decision string) tea.Cmd {
	if r.ctx.Store == nil {
		return r.cannotSave()
	}
	g := review.Gate(r.ctx.Packet)
	if decision == review.DecisionOkToTest && !g.Ready {
		title := fmt.Sprintf("The gate is not ready (%s). To give ok-to-test anyway, write why:", strings.Join(review.FailingChecks(g), ", "))
		r.openPrompt(title, "", true, func(why string) tea.Cmd { return r.decide(decision, why, why) })
		return r.prompt.focus()
	}
	r.openPrompt(fmt.Sprintf("%s for %s — note (optional):", decision, r.ctx.Packet.DecisionSHA()), "", false,
		func(note string) tea.Cmd { return r.decide(decision, note, "") })
	return r.prompt.focus()
}

// decide records a gate decision in a command, on the gate the person saw.
func (r *Workbench) decide(decision, note, override string) tea.Cmd {
	store := r.store()
	if store == nil {
		return r.cannotSave()
	}
	holds := r.holdForSave()
	g, user, now := review.Gate(r.ctx.Packet), r.ctx.Who(), r.ctx.Now()
	return func() tea.Msg {
		gd, rep, err := store.DecideOn(g, decision, note, user, override, now)
		if err != nil {
			return TriageSavedMsg{store: store, err: err, holds: holds}
		}
		text := fmt.Sprintf("recorded %s for %s, by %s", gd.Decision, commitid.Short(gd.SHA), gd.User)
		if rep.GateChanged {
			text += " · another vetter decided meanwhile: " + rep.String()
		}
		return TriageSavedMsg{store: store, text: text, okToTest: decision == review.DecisionOkToTest, sha: gd.SHA, holds: holds}
	}
}
