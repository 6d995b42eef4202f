package ui

import (
	"image/color"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Palette is the handful of semantic colour tokens every style is built
// from. Views that need a raw colour take it from here; no view spells a
// colour itself. Under NO_COLOR every token is nil.
type Palette struct {
	Accent, Muted, Text             color.Color
	Added, Removed                  color.Color // foreground of +/- lines
	AddedBg, RemovedBg              color.Color // background of +/- lines
	AddedEmphasis, RemovedEmphasis  color.Color // background of the changed words
	Blocker, Major, Minor, Nit      color.Color
	OK, Warn, Error, Info           color.Color
	Selection, Placeholder, Border  color.Color
	BadgeText                       color.Color // text on a coloured badge
	GutterText, CursorLine, Surface color.Color
}

// BadgeStyles are the small labelled boxes (severity, status, gate).
type BadgeStyles struct {
	Blocker, Major, Minor, Nit lipgloss.Style
	OK, Warn, Error, Info      lipgloss.Style
	Neutral                    lipgloss.Style
}

// Styles is every style vetter draws with, built once from a Palette for
// the terminal's background and handed to every view.
type Styles struct {
	Dark    bool
	NoColor bool
	Palette Palette

	Base, Accent, Muted, Title, Subtitle lipgloss.Style

	Added, Removed                 lipgloss.Style // whole +/- lines
	AddedEmphasis, RemovedEmphasis lipgloss.Style // the changed words inside them
	HunkHeader, FileHeader         lipgloss.Style

	Blocker, Major, Minor, Nit lipgloss.Style // severity words
	OK, Warn, Error, Info      lipgloss.Style

	Selection   lipgloss.Style // the selected row of a list
	Cursor      lipgloss.Style // the cursor marker in a pane
	Placeholder lipgloss.Style // neutralised controls and hidden characters
	Match       lipgloss.Style // search matches
	Highlight   lipgloss.Style // a highlighted range (a cited line span)

	Gutter, GutterCursor lipgloss.Style // line numbers

	Border, BorderFocused lipgloss.Style // panes and panels

	StatusBar, HelpKey, HelpDesc lipgloss.Style

	Badge BadgeStyles

	// logColor maps the 16 colours a log names to what is drawn; the rest
	// of the 256 and 24-bit colours are drawn as given.
	logColor [16]color.Color
}

// NewStyles builds the styles for a dark or light background. noColor
// (NO_COLOR set, or the user asked) leaves out every colour and keeps only
// bold, reverse and underline, so nothing is lost that colour alone said.
func NewStyles(dark, noColor bool) *Styles {
	st := &Styles{Dark: dark, NoColor: noColor}
	if noColor {
		st.buildMono()
	} else {
		st.Palette = newPalette(dark)
		st.buildColor()
	}
	for i := range st.logColor {
		st.logColor[i] = ansi.BasicColor(uint8(i))
	}
	st.Base = lipgloss.NewStyle()
	st.HelpKey = st.Accent
	st.HelpDesc = st.Muted
	return st
}

func newPalette(dark bool) Palette {
	ld := lipgloss.LightDark(dark)
	c := lipgloss.Color
	return Palette{
		Accent:          ld(c("#2f5fb3"), c("#7aa2f7")),
		Muted:           ld(c("#6b7080"), c("#8a8fa3")),
		Text:            ld(c("#1f2328"), c("#d5d9e5")),
		Added:           ld(c("#1a7f37"), c("#9ece6a")),
		Removed:         ld(c("#cf222e"), c("#f7768e")),
		AddedBg:         ld(c("#e6ffec"), c("#1d3324")),
		RemovedBg:       ld(c("#ffebe9"), c("#3f1f25")),
		AddedEmphasis:   ld(c("#abf2bc"), c("#2f6b3a")),
		RemovedEmphasis: ld(c("#ffcecb"), c("#8a2f3c")),
		Blocker:         ld(c("#b3001e"), c("#ff5f6d")),
		Major:           ld(c("#bc4c00"), c("#ff9e64")),
		Minor:           ld(c("#8a6a00"), c("#e0af68")),
		Nit:             ld(c("#5a6275"), c("#7dcfff")),
		OK:              ld(c("#1a7f37"), c("#9ece6a")),
		Warn:            ld(c("#9a6700"), c("#e0af68")),
		Error:           ld(c("#cf222e"), c("#f7768e")),
		Info:            ld(c("#0969da"), c("#7dcfff")),
		Selection:       ld(c("#cfe0ff"), c("#2d3f76")),
		Placeholder:     ld(c("#8250df"), c("#d19cff")),
		Border:          ld(c("#c8ced6"), c("#3b4261")),
		BadgeText:       ld(c("#ffffff"), c("#1a1b26")),
		GutterText:      ld(c("#8c959f"), c("#565f89")),
		CursorLine:      ld(c("#eef2fb"), c("#232a40")),
		Surface:         ld(c("#f6f8fa"), c("#1f2335")),
	}
}

func (st *Styles) buildColor() {
	p := st.Palette
	fg := func(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	st.Accent = fg(p.Accent)
	st.Muted = fg(p.Muted)
	st.Title = fg(p.Accent).Bold(true)
	st.Subtitle = fg(p.Text).Bold(true)

	st.Added = fg(p.Added).Background(p.AddedBg)
	st.Removed = fg(p.Removed).Background(p.RemovedBg)
	st.AddedEmphasis = fg(p.Added).Background(p.AddedEmphasis).Bold(true)
	st.RemovedEmphasis = fg(p.Removed).Background(p.RemovedEmphasis).Bold(true)
	st.HunkHeader = fg(p.Info)
	st.FileHeader = fg(p.Text).Bold(true)

	st.Blocker = fg(p.Blocker).Bold(true)
	st.Major = fg(p.Major).Bold(true)
	st.Minor = fg(p.Minor)
	st.Nit = fg(p.Nit)
	st.OK = fg(p.OK)
	st.Warn = fg(p.Warn)
	st.Error = fg(p.Error).Bold(true)
	st.Info = fg(p.Info)

	st.Selection = lipgloss.NewStyle().Background(p.Selection).Bold(true)
	st.Cursor = fg(p.Accent).Bold(true)
	st.Placeholder = fg(p.Placeholder)
	st.Match = lipgloss.NewStyle().Foreground(p.BadgeText).Background(p.Warn)
	st.Highlight = fg(p.Accent)

	st.Gutter = fg(p.GutterText)
	st.GutterCursor = fg(p.Accent).Bold(true)

	st.Border = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(p.Border)
	st.BorderFocused = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(p.Accent)
	st.StatusBar = lipgloss.NewStyle().Foreground(p.Text).Background(p.Surface)

	badge := func(bg color.Color) lipgloss.Style {
		return lipgloss.NewStyle().Foreground(p.BadgeText).Background(bg).Bold(true).Padding(0, 1)
	}
	st.Badge = BadgeStyles{
		Blocker: badge(p.Blocker), Major: badge(p.Major), Minor: badge(p.Minor), Nit: badge(p.Nit),
		OK: badge(p.OK), Warn: badge(p.Warn), Error: badge(p.Error), Info: badge(p.Info),
		Neutral: badge(p.Muted),
	}
}

// buildMono is the NO_COLOR theme: emphasis by weight, underline and
// reverse video only.
func (st *Styles) buildMono() {
	plain := lipgloss.NewStyle()
	bold := plain.Bold(true)
	under := plain.Underline(true)
	rev := plain.Reverse(true)
	st.Accent = bold
	st.Muted = plain
	st.Title = bold
	st.Subtitle = bold

	st.Added, st.Removed = plain, plain // the +/- prefix carries the meaning
	st.AddedEmphasis = under
	st.RemovedEmphasis = rev
	st.HunkHeader = bold
	st.FileHeader = bold

	st.Blocker = bold.Reverse(true)
	st.Major = bold
	st.Minor = under
	st.Nit = plain
	st.OK = bold
	st.Warn = bold
	st.Error = bold.Reverse(true)
	st.Info = plain

	st.Selection = rev
	st.Cursor = bold
	st.Placeholder = rev
	st.Match = rev
	st.Highlight = bold

	st.Gutter = plain
	st.GutterCursor = bold

	st.Border = plain.Border(lipgloss.RoundedBorder())
	st.BorderFocused = plain.Border(lipgloss.ThickBorder())
	st.StatusBar = rev

	badge := rev.Padding(0, 1)
	st.Badge = BadgeStyles{
		Blocker: badge.Bold(true), Major: badge.Bold(true), Minor: badge, Nit: badge,
		OK: badge, Warn: badge.Bold(true), Error: badge.Bold(true), Info: badge, Neutral: badge,
	}
}

// Severity returns the style of a finding's severity word; unknown words
// (ranked below nit) are muted.
func (st *Styles) Severity(word string) lipgloss.Style {
	switch strings.ToLower(strings.TrimSpace(word)) {
	case "blocker":
		return st.Blocker
	case "major":
		return st.Major
	case "minor":
		return st.Minor
	case "nit":
		return st.Nit
	}
	return st.Muted
}

// SeverityBadge draws a severity word as a badge. The word is sanitised
// because it comes from the packet.
func (st *Styles) SeverityBadge(word string) string {
	w := Sanitize(strings.ToLower(strings.TrimSpace(word)))
	var s lipgloss.Style
	switch w {
	case "blocker":
		s = st.Badge.Blocker
	case "major":
		s = st.Badge.Major
	case "minor":
		s = st.Badge.Minor
	case "nit":
		s = st.Badge.Nit
	default:
		s = st.Badge.Neutral
	}
	return s.Render(w)
}

// Status returns the style for a status word: ok/pass/validated/sound/
// ready, warn/dispositioned/n/a/deferred, error/fail/failing/missing/
// blocked/needs_changes; a problem's severity (error, warning, info) and an
// attention item's (high, medium, low) too; anything else is muted.
func (st *Styles) Status(word string) lipgloss.Style {
	switch strings.ToLower(strings.TrimSpace(word)) {
	case "ok", "pass", "validated", "sound", "ready", "accepted", "ok-to-test":
		return st.OK
	case "warn", "warning", "dispositioned", "n/a", "deferred", "hold", "superseded", "medium":
		return st.Warn
	case "error", "fail", "failing", "missing", "blocked", "needs_changes", "request-changes", "high":
		return st.Error
	case "info", "low":
		return st.Info
	}
	return st.Muted
}

// HelpStyles styles the bubbles help view from the same tokens.
func (st *Styles) HelpStyles() help.Styles {
	return help.Styles{
		Ellipsis:       st.Muted,
		ShortKey:       st.HelpKey,
		ShortDesc:      st.HelpDesc,
		ShortSeparator: st.Muted,
		FullKey:        st.HelpKey,
		FullDesc:       st.HelpDesc,
		FullSeparator:  st.Muted,
	}
}

// Text sanitises untrusted s and draws its placeholders in the Placeholder
// style; the rest is drawn with base. This is how a view draws a packet
// string that carries no colour of its own.
func (st *Styles) Text(s string, base lipgloss.Style) string {
	segs := SanitizeSegments(s)
	if len(segs) == 1 && segs[0].Kind == Plain {
		return renderInline(base, segs[0].Text)
	}
	var b strings.Builder
	for _, seg := range segs {
		if seg.Kind == Plain {
			b.WriteString(renderInline(base, seg.Text))
		} else {
			b.WriteString(renderInline(st.Placeholder, seg.Text))
		}
	}
	return b.String()
}

// Line is Text for a string drawn on one line (a title, a branch, a
// path): a tab or newline in it would move the cursor instead of drawing,
// so they are placeholders too (␉, ␤), in the Placeholder style.
func (st *Styles) Line(s string, base lipgloss.Style) string {
	if !strings.ContainsAny(s, "\t\n") {
		return st.Text(s, base)
	}
	var b strings.Builder
	for _, seg := range SanitizeSegments(s) {
		if seg.Kind != Plain {
			b.WriteString(renderInline(st.Placeholder, lineControls.Replace(seg.Text)))
			continue
		}
		rest := seg.Text
		for rest != "" {
			i := strings.IndexAny(rest, "\t\n")
			if i < 0 {
				b.WriteString(renderInline(base, rest))
				break
			}
			b.WriteString(renderInline(base, rest[:i]))
			b.WriteString(renderInline(st.Placeholder, lineControls.Replace(rest[i:i+1])))
			rest = rest[i+1:]
		}
	}
	return b.String()
}

// renderInline renders s line by line so lipgloss does not pad lines to a
// common width or turn tabs into a fixed run of spaces.
func renderInline(s lipgloss.Style, text string) string {
	if text == "" {
		return ""
	}
	if !strings.Contains(text, "\n") {
		return s.Inline(true).TabWidth(lipgloss.NoTabConversion).Render(text)
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = s.Inline(true).TabWidth(lipgloss.NoTabConversion).Render(l)
		}
	}
	return strings.Join(lines, "\n")
}

// RenderSGR draws segments from TranslateSGR with vetter's own styles: the
// log's colours become lipgloss colours (the 16 basic ones stay the
// terminal's palette), placeholders use the Placeholder style, and tabs are
// expanded to 4-column stops across segments. Under NoColor only bold and
// underline survive.
func (st *Styles) RenderSGR(segs []StyledSegment) string {
	var b strings.Builder
	col := 0
	for _, seg := range segs {
		text := seg.Text
		if strings.ContainsAny(text, "\t\n") {
			text, col = expandTabsFrom(text, col, 4)
		} else {
			col += ansi.StringWidth(text)
		}
		if seg.Kind != Plain {
			b.WriteString(renderInline(st.Placeholder, text))
			continue
		}
		sgr := st.attrSGR(seg.Attr)
		if sgr == "" {
			b.WriteString(text)
			continue
		}
		for i, line := range strings.Split(text, "\n") {
			if i > 0 {
				b.WriteByte('\n')
			}
			if line != "" {
				b.WriteString(sgr)
				b.WriteString(line)
				b.WriteString(ansi.ResetStyle)
			}
		}
	}
	return b.String()
}

// LogLine turns one raw log line into drawable text: carriage returns
// resolved, colours translated, everything else neutralised. A line that
// overwrote itself (a progress bar) shows its last state after a ␍ marker,
// so the reviewer knows there was text a terminal would have hidden.
func (st *Styles) LogLine(raw string) string {
	shown, overwritten := Overstrike(raw)
	out := st.RenderSGR(TranslateSGR(shown))
	if overwritten {
		out = st.Placeholder.Render("␍") + " " + out
	}
	return out
}

// LogLineText is the text LogLine draws, without its styles: what a person
// copying the line expects, the ␍ marker of an overwritten line included.
func LogLineText(raw string) string {
	shown, overwritten := Overstrike(raw)
	var b strings.Builder
	if overwritten {
		b.WriteString("␍ ")
	}
	for _, seg := range TranslateSGR(shown) {
		b.WriteString(seg.Text)
	}
	return b.String()
}

// attrSGR is the SGR sequence that draws a log's attributes ("" for none).
// It is built directly rather than through lipgloss, which would style an
// underlined run one character at a time.
func (st *Styles) attrSGR(a Attr) string {
	var s ansi.Style
	if a.Bold {
		s = s.Bold()
	}
	if a.Underline {
		s = s.Underline(true)
	}
	if !st.NoColor {
		if c := st.sgrColor(a.Fg); c != nil {
			s = s.ForegroundColor(c)
		}
		if c := st.sgrColor(a.Bg); c != nil {
			s = s.BackgroundColor(c)
		}
	}
	if len(s) == 0 {
		return ""
	}
	return s.String()
}

func (st *Styles) sgrColor(c SGRColor) color.Color {
	switch c.Kind {
	case ColorIndex:
		if c.Index < 16 {
			return st.logColor[c.Index]
		}
		return ansi.IndexedColor(c.Index)
	case ColorRGB:
		return color.RGBA{R: c.R, G: c.G, B: c.B, A: 0xff}
	}
	return nil
}
