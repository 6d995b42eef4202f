// Package common is what every screen shares and nothing more: the Context
// handed to each screen (size-independent state: the packet, styles, key map,
// caches), the Screen interface, where a screen can lead (Target), the
// messages the workbench routes, the one error message, and the helpers that
// fit text to cells. Screens import it; it imports no screen.
package common

import (
	"sync"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/compare"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/ui"
)

// Context is what every screen shares: the packet, the styles, the key map
// and the render caches. There is no package-level mutable state; the root
// builds one Context and hands the same pointer to every screen.
type Context struct {
	Packet      *packet.Packet
	Styles      *ui.Styles
	Keys        ui.KeyMap
	Markdown    *ui.MarkdownCache
	Highlighter *ui.Highlighter
	Dark        bool
	NoColor     bool

	// Store saves triage and gate decisions; nil (with StoreErr) when they
	// cannot be saved, which the screens say.
	Store    *review.Store
	StoreErr error
	// User is who decides, when set (tests); otherwise Who asks.
	User string
	Now  func() time.Time
	// who is packet.CurrentUser, asked once: it may start git, which
	// the first screen must not wait for.
	who func() string

	// Since compares this packet with an earlier round of itself (vetter
	// --since OLD NEW); nil when there is none, and screen 8 is hidden.
	Since *compare.Comparison
	// SinceLoading is the earlier round being read (Since.Init): screen 8
	// is there already and says so, so a key typed at once is not lost.
	SinceLoading string

	// PostOkToTest posts "/ok to test <sha>" to the pull request the packet
	// came from, after checking its head is still sha, and returns the
	// comment's address; nil when there is nowhere to post (a plain packet).
	PostOkToTest func(sha string) (string, error)

	// AsyncHighlight lets the diff draw new lines uncoloured and colour them
	// in a command, so a key never waits for syntax highlighting. The
	// workbench sets it; tests leave it off to draw every frame complete.
	AsyncHighlight bool

	// Work runs the screens' CPU-heavy commands, one P fewer at a time than
	// there are, so the keys and the frames never wait for a P; the App
	// sets it, and nil (tests) limits nothing.
	Work *ui.Background

	// awaitedLogs are the logs a person waits to see indexed (G, a line far
	// past the index): their index keeps its background slot instead of
	// handing it to other work between blocks. Kept here, not in the logs
	// screen, because a reload builds a new screen while the old one's job
	// goes on indexing the same log.
	awaitedLogs sync.Map // *packet.Log -> struct{}
}

// HurryIndex marks l's index as waited for.
func (c *Context) HurryIndex(l *packet.Log) { c.awaitedLogs.Store(l, struct{}{}) }

// Hurried reports whether a person waits for l's index.
func (c *Context) Hurried(l *packet.Log) bool {
	_, ok := c.awaitedLogs.Load(l)
	return ok
}

// NewContext builds the shared context for a packet.
func NewContext(p *packet.Packet, dark, noColor bool) *Context {
	st := ui.NewStyles(dark, noColor)
	return &Context{
		Packet: p, Styles: st, Keys: ui.DefaultKeyMap(),
		Markdown:    ui.NewMarkdownCache(dark, noColor, 64),
		Highlighter: ui.NewHighlighter(st),
		Dark:        dark, NoColor: noColor,
		Now: time.Now, who: sync.OnceValue(packet.CurrentUser),
	}
}

// Who names the person deciding: User when set, else packet.CurrentUser,
// asked the first time a decision is recorded (or by the workbench's
// background work after the first frame), not when the context is built:
// it may run git, a process the first screen would wait for.
func (c *Context) Who() string {
	if c.User != "" || c.who == nil {
		return c.User
	}
	return c.who()
}

// SetDark rebuilds the styles and caches for a dark or light background.
// Screens keep the same *Context, so they draw with the new styles at once.
func (c *Context) SetDark(dark bool) {
	c.Dark = dark
	c.Styles = ui.NewStyles(dark, c.NoColor)
	c.Markdown.SetDark(dark)
	c.Highlighter = ui.NewHighlighter(c.Styles)
}

// ScreenID names a screen; the numbers are the keys that switch to them.
type ScreenID int

const (
	ScreenOverview ScreenID = iota
	ScreenDocs
	ScreenDiff
	ScreenFindings
	ScreenEvidence
	ScreenLogs
	ScreenDecision
	ScreenSince
	ScreenWalk // the guided walk (walk.go): no tab, reached with W
	ScreenCount
)

// String is the screen's name on the tab bar.
func (s ScreenID) String() string {
	switch s {
	case ScreenOverview:
		return "Overview"
	case ScreenDocs:
		return "Documents"
	case ScreenDiff:
		return "Diff"
	case ScreenFindings:
		return "Findings"
	case ScreenEvidence:
		return "Evidence"
	case ScreenLogs:
		return "Logs"
	case ScreenDecision:
		return "Decision"
	case ScreenSince:
		return "Since"
	case ScreenWalk:
		return "Walk"
	}
	return "?"
}

// Target is a place in the packet a screen can open: where a citation, a
// finding, an evidence row or a problem leads, and where history returns to.
// Only the fields of its screen are meaningful.
type Target struct {
	Screen ScreenID

	// Documents and logs: the path and the 1-based line range (0 = none).
	Path          string
	Line, EndLine int

	// Diff: the file, hunk and line index in Diff.Files[File].Hunks[Hunk].Lines
	// (-1 = none). Line above, when set without Hunk, is a new-side line number.
	File, Hunk, DiffLine int

	// Findings: the finding id (review.md#N).
	Finding string

	// Evidence: the recipe.
	Recipe string

	// Offset restores a scroll position when going back (top line of the view).
	Offset int
}

// FollowMsg asks the root to open a target, remembering where we were so
// backspace can return.
type FollowMsg struct{ To Target }

func (FollowMsg) WorkbenchMsg() {}

// Follow returns a command that sends FollowMsg.
func Follow(t Target) tea.Cmd {
	return func() tea.Msg { return FollowMsg{To: t} }
}

// StatusMsg shows a transient message on the status line.
type StatusMsg struct{ Text string }

func (StatusMsg) WorkbenchMsg() {}

// StaleMsg says the packet on screen is older than its origin may be (a
// refresh failed); it stays on the status line, beside the transient
// messages, until the workbench closes.
type StaleMsg struct{ Text string }

func (StaleMsg) WorkbenchMsg() {}

// ErrorMsg is the one error message type: it is shown on the status line.
type ErrorMsg struct{ Err error }

func (ErrorMsg) WorkbenchMsg() {}

// ReportError returns a command that reports err.
func ReportError(err error) tea.Cmd {
	return func() tea.Msg { return ErrorMsg{Err: err} }
}

// Screen is one of the workbench's screens. It is small on purpose: the root
// routes keys and messages, history and overlays; a screen draws itself and
// moves within itself.
type Screen interface {
	// Init starts any background work (rendering, indexing).
	Init() tea.Cmd
	// Update handles a message routed to this screen.
	Update(msg tea.Msg) tea.Cmd
	// View draws exactly the screen's body at its size.
	View() string
	// SetSize gives the body's size in cells.
	SetSize(width, height int)
	// Open goes to a target on this screen.
	Open(t Target) tea.Cmd
	// Here is where the screen is now, for history.
	Here() Target
	// Status is where you are, for the status line ("file 2/6 · line 40/312").
	Status() string
	// Bindings are the keys that do something here now, for help and hints.
	Bindings() []key.Binding
	// Search finds a query in the screen's current pane and moves to the first
	// match at or after the cursor; it returns how many lines match.
	Search(query string) int
	// NextMatch moves to the next (dir 1) or previous (dir -1) match.
	NextMatch(dir int)
}

// Ptr-free helpers used by several screens.

// TargetForCitation turns a resolved citation into where it leads.
func TargetForCitation(c packet.Citation) (Target, bool) {
	switch c.Kind {
	case packet.CitePacket:
		return Target{Screen: ScreenDocs, Path: c.Target, Line: c.Line, EndLine: c.EndLine, File: -1, Hunk: -1, DiffLine: -1}, true
	case packet.CiteRegistry:
		return Target{Screen: ScreenEvidence, Path: c.Target, Line: c.Line, EndLine: c.EndLine, File: -1, Hunk: -1, DiffLine: -1}, true
	case packet.CiteLog:
		return Target{Screen: ScreenLogs, Path: c.Target, Line: c.Line, EndLine: c.EndLine, File: -1, Hunk: -1, DiffLine: -1}, true
	case packet.CiteDiff:
		return Target{Screen: ScreenDiff, Path: c.Target, Line: c.Line, EndLine: c.EndLine, File: c.DiffFile, Hunk: c.DiffHunk, DiffLine: c.DiffLine}, true
	case packet.CiteDiffFile:
		return Target{Screen: ScreenDiff, Path: c.Target, Line: c.Line, EndLine: c.EndLine, File: c.DiffFile, Hunk: -1, DiffLine: -1}, true
	}
	return Target{}, false
}
