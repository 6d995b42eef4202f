package tui

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

// helpModel is ?, so that no key has to be remembered: every key of the current screen first, then
// what works on a finding or a decision, then the global keys and the other
// screens' keys, in as many columns as fit, scrollable (it is a ui.Pane)
// and searchable: / keeps the keys whose name or description holds what is
// typed.
type helpModel struct {
	r        *Workbench
	pane     ui.Pane
	search   textinput.Model
	typing   bool
	query    string
	sections []helpSection
	width    int
	height   int
}

type helpSection struct {
	title string
	keys  []key.Binding
}

func newHelp(r *Workbench) *helpModel {
	h := &helpModel{r: r, pane: ui.NewPane(r.ctx.Styles), search: textinput.New()}
	h.pane.SetShowCursor(false)
	h.search.Prompt = "/"
	h.search.CharLimit = 64
	h.sections = r.helpSections()
	h.setSize(r.width, r.bodyHeight())
	return h
}

// movement are the keys every list and pane shares; the screens list them
// among their own, and help shows them once, under "Move".
func movement(k ui.KeyMap) []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Left, k.Right, k.HalfPageUp, k.HalfPageDown, k.PageUp, k.PageDown, k.Top, k.Bottom}
}

// mainKeys are the current screen's keys without the movement ones: what
// the status line and the top of help show. A screen on which findings are
// triaged has the triage keys first.
func (r *Workbench) mainKeys() []key.Binding {
	k := r.ctx.Keys
	var out []key.Binding
	seen := map[string]bool{}
	for _, b := range movement(k) {
		seen[b.Help().Key] = true
	}
	add := func(bs ...key.Binding) {
		for _, b := range bs {
			if b.Enabled() && !seen[b.Help().Key] {
				seen[b.Help().Key] = true
				out = append(out, b)
			}
		}
	}
	picking := false
	if _, ok := r.screens[r.active].(FindingPicker); ok {
		// The walk picks a finding only on a finding's step.
		w, isWalk := r.screens[r.active].(*Walk)
		picking = !isWalk || w.cur != ""
	}
	if picking {
		add(k.Accept, k.Dismiss, k.Defer)
		if r.active == common.ScreenFindings {
			add(k.Mark)
		}
	}
	add(r.screens[r.active].Bindings()...)
	if picking {
		add(k.Reopen, k.Note)
	}
	return out
}

// helpSections are the groups help shows, the current screen's first;
// a key already shown is not repeated.
func (r *Workbench) helpSections() []helpSection {
	k := r.ctx.Keys
	secs := []helpSection{{r.active.String(), r.mainKeys()}}
	if _, ok := r.screens[r.active].(FindingPicker); !ok {
		secs = append(secs, helpSection{"On a finding (findings, diff, walk)", []key.Binding{k.Accept, k.Dismiss, k.Defer, k.Reopen, k.Note, k.Mark}})
	}
	if r.active != common.ScreenDecision {
		secs = append(secs, helpSection{"On the decision screen", []key.Binding{k.OKToTest, k.Hold, k.RequestChanges}})
	}
	secs = append(secs,
		helpSection{"Everywhere", []key.Binding{k.Walk, k.Follow, k.Back, k.Copy, k.Edit, k.Search, k.NextMatch, k.PrevMatch, k.Palette, k.Help, k.Quit}},
		helpSection{"Screens", append(k.Screens()[:7:7], k.NextScreen, k.PrevScreen)},
		helpSection{"Move", movement(k)},
	)
	if r.active != common.ScreenDiff {
		secs = append(secs, helpSection{"On the diff", []key.Binding{k.NextHunk, k.PrevHunk, k.NextFile, k.PrevFile, k.NextAnchor, k.PrevAnchor, k.SideBySide, k.ToggleWrap}})
	}
	if r.active != common.ScreenLogs {
		secs = append(secs, helpSection{"On a log", []key.Binding{k.NextError, k.PrevError, k.GotoLine}})
	}
	seen := map[string]bool{}
	for i := range secs {
		var keep []key.Binding
		for _, b := range secs[i].keys {
			h := b.Help()
			id := h.Key + "\x00" + h.Desc
			if h.Key == "" || seen[id] {
				continue
			}
			seen[id] = true
			keep = append(keep, b)
		}
		secs[i].keys = keep
	}
	return secs
}

func (h *helpModel) setSize(w, ht int) {
	h.width, h.height = w, ht
	h.search.SetWidth(max(w-4, 10))
	h.layout()
}

// layout lays the sections out in columns for the width, keeping the keys
// that match the query.
func (h *helpModel) layout() {
	st := h.r.ctx.Styles
	q := strings.ToLower(h.query)
	var lines []string
	for _, s := range h.sections {
		var keys []key.Binding
		for _, b := range s.keys {
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
		lines = append(lines, " "+st.Subtitle.Render(s.title))
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
func (h *helpModel) paneHeight() int {
	n := h.height - 1
	if h.typing || h.query != "" {
		n--
	}
	return n
}

// update handles a key; it reports whether help closes.
func (h *helpModel) update(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	km := h.r.ctx.Keys
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
	switch {
	case msg.String() == "esc" && h.query != "":
		h.query = ""
		h.search.SetValue("")
		h.layout()
		return false, nil
	case msg.String() == "esc", key.Matches(msg, km.Help), key.Matches(msg, km.Quit):
		return true, nil
	case key.Matches(msg, km.Search):
		h.typing = true
		h.search.SetValue(h.query)
		h.layout()
		return false, h.search.Focus()
	case key.Matches(msg, km.Down):
		// The pane has no cursor here: a line down scrolls.
		h.pane.ScrollTo(h.pane.Offset() + 1)
		return false, nil
	case key.Matches(msg, km.Up):
		h.pane.ScrollTo(max(h.pane.Offset()-1, 0))
		return false, nil
	}
	h.pane.HandleKey(msg, km)
	return false, nil
}

// view draws help over the body.
func (h *helpModel) view() string {
	st := h.r.ctx.Styles
	more := ""
	if !h.pane.AtBottom() {
		more = " · more below: j/pgdn"
	}
	title := " " + st.Title.Render("Keys — "+h.r.active.String()) + st.Muted.Render(" · / search · esc close"+more)
	lines := []string{common.Fit(title, h.width)}
	if h.typing || h.query != "" {
		lines = append(lines, common.Fit(" "+h.search.View(), h.width))
	}
	lines = append(lines, h.pane.View())
	return common.FitBlock(strings.Join(lines, "\n"), h.width, h.height)
}

// openHelp shows help for the active screen.
func (r *Workbench) openHelp() {
	r.helpm = newHelp(r)
	r.showHelp = true
}

// helpKey gives a key to the open help.
func (r *Workbench) helpKey(msg tea.KeyPressMsg) tea.Cmd {
	done, cmd := r.helpm.update(msg)
	if done {
		r.showHelp, r.helpm = false, nil
	}
	return cmd
}

func (r *Workbench) helpView() string {
	if r.helpm == nil {
		r.helpm = newHelp(r)
	}
	return r.helpm.view()
}
