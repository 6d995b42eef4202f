// Package help is the help screen (?): every key of the current screen
// first, then the others, searchable. It draws the sections it is given;
// the workbench, which knows the screens, says what they are.
package help

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/ui"
)

// Model is ?, so that no key has to be remembered: every key of the current screen first, then
// what works on a finding or a decision, then the global keys and the other
// screens' keys, in as many columns as fit, scrollable (it is a ui.Pane)
// and searchable: / keeps the keys whose name or description holds what is
// typed.
type Model struct {
	ctx      *common.Context
	title    string // the screen whose keys come first
	pane     ui.Pane
	search   textinput.Model
	typing   bool
	query    string
	sections []Section
	width    int
	height   int
	closing  bool // a key of the table closed help
}

// Section is a group of keys under a title.
type Section struct {
	Title string
	Keys  []key.Binding
}

// New is help for the screen called title, over sections, at w×h.
func New(ctx *common.Context, title string, sections []Section, w, h int) *Model {
	m := &Model{ctx: ctx, title: title, sections: sections, pane: ui.NewPane(ctx.Styles), search: textinput.New()}
	m.pane.SetShowCursor(false)
	m.search.Prompt = "/"
	m.search.CharLimit = 64
	m.SetSize(w, h)
	return m
}

// SetSize gives help the body's size.
func (h *Model) SetSize(w, ht int) {
	h.width, h.height = w, ht
	h.search.SetWidth(max(w-4, 10))
	h.layout()
}

// layout lays the sections out in columns for the width, keeping the keys
// that match the query.
func (h *Model) layout() {
	st := h.ctx.Styles
	q := strings.ToLower(h.query)
	var lines []string
	for _, s := range h.sections {
		var keys []key.Binding
		for _, b := range s.Keys {
			hb := b.Help()
			if q == "" || strings.Contains(strings.ToLower(hb.Key+" "+hb.Desc), q) {
				keys = append(keys, b)
			}
		}
		if len(keys) == 0 {
			continue
		}
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, " "+st.Subtitle.Render(s.Title))
		lines = append(lines, helpColumns(st, keys, h.width-2)...)
	}
	if len(lines) == 0 {
		lines = []string{" " + st.Muted.Render(fmt.Sprintf("no key matches %q", h.query))}
	}
	h.pane.SetSource(ui.Lines(lines))
	h.pane.SetSize(h.width, max(h.paneHeight(), 1))
}

// helpColumns draws keys in as many columns as fit in w cells, filled
// down then across, each column as wide as its widest key and description.
func helpColumns(st *ui.Styles, keys []key.Binding, w int) []string {
	kw, dw := 0, 0
	for _, b := range keys {
		kw = max(kw, ansi.StringWidth(b.Help().Key))
		dw = max(dw, ansi.StringWidth(b.Help().Desc))
	}
	colW := kw + 1 + dw
	gap := 3
	cols := max(1, (w+gap)/(colW+gap))
	if colW > w {
		dw = max(w-kw-1, 4)
		colW = kw + 1 + dw
	}
	rows := (len(keys) + cols - 1) / cols
	out := make([]string, rows)
	for i, b := range keys {
		r, c := i%rows, i/rows
		hb := b.Help()
		cell := st.HelpKey.Render(fmt.Sprintf("%-*s", kw, hb.Key)) + " " + st.HelpDesc.Render(common.ClipTo(hb.Desc, dw+1))
		if c > 0 {
			out[r] += strings.Repeat(" ", gap)
		}
		if pad := colW - ansi.StringWidth(ansi.Strip(cell)); pad > 0 && c < cols-1 {
			cell += strings.Repeat(" ", pad)
		}
		out[r] += cell
	}
	for i := range out {
		out[i] = "   " + out[i]
	}
	return out
}

// paneHeight leaves the title row, and the search row while typing.
func (h *Model) paneHeight() int {
	n := h.height - 1
	if h.typing || h.query != "" {
		n--
	}
	return n
}

// Update handles a key; it reports whether help closes.
func (h *Model) Update(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	km := h.ctx.Keys
	if h.typing {
		switch msg.String() {
		case "esc":
			h.typing, h.query = false, ""
			h.search.SetValue("")
			h.search.Blur()
			h.layout()
			return false, nil
		case "enter":
			h.typing = false
			h.search.Blur()
			h.layout()
			return false, nil
		}
		var cmd tea.Cmd
		h.search, cmd = h.search.Update(msg)
		h.query = h.search.Value()
		h.layout()
		return false, cmd
	}
	h.closing = false
	if cmd, ok := h.keys().Dispatch(msg); ok {
		return h.closing, cmd
	}
	h.pane.HandleKey(msg, km)
	return false, nil
}

// View draws help over the body.
func (h *Model) View() string {
	st := h.ctx.Styles
	more := ""
	if !h.pane.AtBottom() {
		more = " · more below: j/pgdn"
	}
	title := " " + st.Title.Render("Keys — "+h.title) + st.Muted.Render(" · / search · esc close"+more)
	lines := []string{common.Fit(title, h.width)}
	if h.typing || h.query != "" {
		lines = append(lines, common.Fit(" "+h.search.View(), h.width))
	}
	lines = append(lines, h.pane.View())
	return common.FitBlock(strings.Join(lines, "\n"), h.width, h.height)
}

// esc clears the search, or closes help when there is none.
var esc = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear the search, or close"))

// keys are help's own keys; any other scrolls the pane as it would any
// pane.
func (h *Model) keys() common.KeyTable {
	km := h.ctx.Keys
	closeHelp := func(tea.KeyPressMsg) tea.Cmd {
		h.closing = true
		return nil
	}
	return common.KeyTable{
		{Key: esc, Handler: func(tea.KeyPressMsg) tea.Cmd {
			if h.query == "" {
				h.closing = true
				return nil
			}
			h.query = ""
			h.search.SetValue("")
			h.layout()
			return nil
		}},
		{Key: km.Help, Handler: closeHelp},
		{Key: km.Quit, Handler: closeHelp},
		{Key: km.Search, Handler: func(tea.KeyPressMsg) tea.Cmd {
			h.typing = true
			h.search.SetValue(h.query)
			h.layout()
			return h.search.Focus()
		}},
		// The pane has no cursor here: a line down scrolls.
		{Key: km.Down, Handler: func(tea.KeyPressMsg) tea.Cmd {
			h.pane.ScrollTo(h.pane.Offset() + 1)
			return nil
		}},
		{Key: km.Up, Handler: func(tea.KeyPressMsg) tea.Cmd {
			h.pane.ScrollTo(max(h.pane.Offset()-1, 0))
			return nil
		}},
	}
}

// Bindings are help's keys: the key table's.
func (h *Model) Bindings() []key.Binding { return h.keys().Keys() }
