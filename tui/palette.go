package tui

import (
	"fmt"
	"path"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/ui"
)

// paletteModel is ctrl+p: one input that fuzzy-finds any document heading,
// diff file, finding, recipe or log and goes there.
type paletteModel struct {
	ctx           *common.Context
	input         textinput.Model
	items         []paletteItem
	names         paletteNames
	matches       []int // indexes into items, best first
	cursor        int
	width, height int
}

type paletteItem struct {
	kind   string
	label  string
	target common.Target
}

type paletteNames []paletteItem

func (p paletteNames) String(i int) string { return p[i].label }
func (p paletteNames) Len() int            { return len(p) }

func newPalette(ctx *common.Context) *paletteModel {
	m := &paletteModel{ctx: ctx, input: textinput.New()}
	m.input.Prompt = "› "
	m.input.Placeholder = "heading, file, finding, recipe or log"
	m.input.CharLimit = 200
	m.items = paletteItems(ctx)
	m.names = paletteNames(m.items)
	m.filter()
	return m
}

func paletteItems(ctx *common.Context) []paletteItem {
	p := ctx.Packet
	none := common.Target{File: -1, Hunk: -1, DiffLine: -1}
	var items []paletteItem
	for _, d := range p.Docs {
		t := none
		t.Screen, t.Path = common.ScreenDocs, d.Path
		items = append(items, paletteItem{"doc", d.Path, t})
		for _, h := range d.Headings {
			t := none
			t.Screen, t.Path, t.Line = common.ScreenDocs, d.Path, h.Line
			items = append(items, paletteItem{"heading", d.Path + " › " + common.OneLine(h.Text), t})
		}
	}
	if p.Diff != nil {
		for i, f := range p.Diff.Files {
			t := none
			t.Screen, t.File, t.Path = common.ScreenDiff, i, f.Path()
			items = append(items, paletteItem{"file", f.Path(), t})
		}
	}
	for _, f := range p.Findings {
		t := none
		t.Screen, t.Finding = common.ScreenFindings, f.ID
		items = append(items, paletteItem{"finding", fmt.Sprintf("#%d %s %s — %s", f.Number, f.Severity, f.Location, common.ClipTo(common.OneLine(f.Claim), 80)), t})
	}
	for _, row := range p.Evidence.Rows {
		t := none
		t.Screen, t.Recipe = common.ScreenEvidence, row.Recipe
		items = append(items, paletteItem{"recipe", row.Recipe + " " + row.Status, t})
	}
	for _, l := range p.Logs {
		t := none
		t.Screen, t.Path = common.ScreenLogs, l.Path
		items = append(items, paletteItem{"log", path.Base(l.Path), t})
	}
	return items
}

func (m *paletteModel) setSize(w, h int) {
	m.width, m.height = w, h
	m.input.SetWidth(max(w-6, 10))
}

func (m *paletteModel) focus() tea.Cmd { return m.input.Focus() }

func (m *paletteModel) filter() {
	q := strings.TrimSpace(m.input.Value())
	m.matches = m.matches[:0]
	if q == "" {
		for i := range m.items {
			m.matches = append(m.matches, i)
		}
	} else {
		for _, r := range fuzzy.FindFrom(q, m.names) {
			m.matches = append(m.matches, r.Index)
		}
	}
	m.cursor = min(m.cursor, max(len(m.matches)-1, 0))
}

// update returns the chosen target (or nil) and whether the palette closes.
func (m *paletteModel) update(msg tea.KeyPressMsg) (*common.Target, bool, tea.Cmd) {
	switch msg.String() {
	case "esc", "ctrl+p":
		return nil, true, nil
	case "enter":
		if len(m.matches) == 0 {
			return nil, true, nil
		}
		t := m.items[m.matches[m.cursor]].target
		return &t, true, nil
	case "down", "ctrl+n", "ctrl+j":
		m.cursor = min(m.cursor+1, max(len(m.matches)-1, 0))
		return nil, false, nil
	case "up", "ctrl+k":
		m.cursor = max(m.cursor-1, 0)
		return nil, false, nil
	}
	var cmd tea.Cmd
	before := m.input.Value()
	m.input, cmd = m.input.Update(msg)
	if m.input.Value() != before {
		m.cursor = 0
		m.filter()
	}
	return nil, false, cmd
}

func (m *paletteModel) view() string {
	st := m.ctx.Styles
	lines := []string{st.Title.Render("Go to"), m.input.View(), ""}
	rows := m.height - len(lines)
	start := 0
	if m.cursor >= rows {
		start = m.cursor - rows + 1
	}
	for i := start; i < len(m.matches) && len(lines) < m.height; i++ {
		it := m.items[m.matches[i]]
		line := st.Muted.Render(fmt.Sprintf("%-8s ", it.kind)) + st.Text(ui.SanitizeLine(it.label), st.Base)
		if i == m.cursor {
			line = st.Selection.Render("▌") + line
		} else {
			line = " " + line
		}
		lines = append(lines, line)
	}
	if len(m.matches) == 0 {
		lines = append(lines, st.Muted.Render("  no match"))
	}
	return common.FitBlock(strings.Join(lines, "\n"), m.width, m.height)
}
