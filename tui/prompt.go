package tui

import (
	"strings"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/tui/common"
)

// promptModel is the note editor: a text area over the screen that asks for
// a note, a dismissal's reason or an override's justification. enter saves,
// ctrl+j adds a line, esc cancels.
type promptModel struct {
	ctx      *common.Context
	title    string
	hint     string
	area     textarea.Model
	required bool
	err      string
	save     func(text string) tea.Cmd
}

func newPrompt(ctx *common.Context, title, initial string, required bool, save func(string) tea.Cmd) *promptModel {
	p := &promptModel{ctx: ctx, title: title, required: required, save: save, area: textarea.New()}
	p.area.ShowLineNumbers = false
	p.area.Placeholder = "write here"
	p.area.CharLimit = 4000
	p.area.SetValue(initial)
	p.hint = "enter save · ctrl+j new line · esc cancel"
	if required {
		p.hint = "enter save (required) · ctrl+j new line · esc cancel"
	}
	return p
}

func (p *promptModel) setSize(w, h int) {
	p.area.SetWidth(max(min(w-4, 100), 10))
	// A few lines: the prompt sits under the screen it is about, which
	// stays in view above it (the finding being dismissed, the gate).
	p.area.SetHeight(max(min(h/4, 4), 1))
}

// over draws the prompt over the bottom of a screen's body of w×h: the
// screen's top stays visible, so the text the note is about is not hidden.
func (p *promptModel) over(screen string, w, h int) string {
	st := p.ctx.Styles
	lines := []string{st.Muted.Render(strings.Repeat("─", max(w, 1))), " " + st.Title.Render(st.Text(p.title, st.Title))}
	for _, l := range strings.Split(p.area.View(), "\n") {
		lines = append(lines, "  "+l)
	}
	hint := " " + st.Muted.Render(p.hint)
	if p.err != "" {
		hint += "  " + st.Error.Render(p.err)
	}
	lines = append(lines, hint)
	body := strings.Split(common.FitBlock(screen, w, h), "\n")
	top := max(h-len(lines), 0)
	out := append(body[:top:top], lines...)
	return common.FitBlock(strings.Join(out, "\n"), w, h)
}

func (p *promptModel) focus() tea.Cmd { return p.area.Focus() }

// update returns whether the prompt closes and the command to run.
func (p *promptModel) update(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	switch msg.String() {
	case "esc":
		return true, func() tea.Msg { return common.StatusMsg{Text: "cancelled"} }
	case "enter":
		text := strings.TrimSpace(p.area.Value())
		if p.required && text == "" {
			p.err = "a reason is required"
			return false, nil
		}
		return true, p.save(text)
	case "ctrl+j":
		p.area.InsertString("\n")
		return false, nil
	}
	var cmd tea.Cmd
	p.area, cmd = p.area.Update(msg)
	p.err = ""
	return false, cmd
}

// paste puts pasted text (a reason written elsewhere) in the text area.
func (p *promptModel) paste(msg tea.PasteMsg) tea.Cmd {
	var cmd tea.Cmd
	p.area, cmd = p.area.Update(msg)
	p.err = ""
	return cmd
}
