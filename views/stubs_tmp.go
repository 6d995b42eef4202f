package views

// Temporary stand-ins for the screens being written on other branches; each
// is deleted when its screen lands.

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

type stub struct {
	ctx  *Context
	id   ScreenID
	w, h int
}

func (s *stub) Init() tea.Cmd           { return nil }
func (s *stub) Update(tea.Msg) tea.Cmd  { return nil }
func (s *stub) View() string            { return fitBlock(s.id.String()+" (coming)", s.w, s.h) }
func (s *stub) SetSize(w, h int)        { s.w, s.h = w, h }
func (s *stub) Open(Target) tea.Cmd     { return nil }
func (s *stub) Here() Target            { return Target{Screen: s.id, File: -1, Hunk: -1, DiffLine: -1} }
func (s *stub) Status() string          { return "" }
func (s *stub) Bindings() []key.Binding { return nil }
func (s *stub) Search(string) int       { return 0 }
func (s *stub) NextMatch(int)           {}

func NewEvidence(ctx *Context) Screen { return &stub{ctx: ctx, id: ScreenEvidence} }
func NewLogs(ctx *Context) Screen     { return &stub{ctx: ctx, id: ScreenLogs} }
