// Package ui is the kit every vetter screen shares: the sanitiser that stands
// between packet bytes and the terminal, the theme, the key map, the
// virtualised text pane, the markdown cache and the syntax highlighter.
package ui

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/vetter-dev/vetter/internal/hidden"
)

// SegKind says what a piece of sanitised text stood for in the input.
type SegKind uint8

const (
	// Plain is text that was safe to draw as it was.
	Plain SegKind = iota
	// Control is a neutralised escape sequence or control character, drawn
	// as visible placeholders (␛[2J, ␇, ⟦U+009B⟧).
	Control
	// Hidden is a character of packet's hidden table (bidirectional
	// control, zero-width, invisible operator, tag) drawn as a marker such
	// as ⟦U+202E⟧.
	Hidden
	// Invalid is a byte that is not valid UTF-8, drawn as U+FFFD.
	Invalid
)

// String names the kind for test failures and debugging.
func (k SegKind) String() string {
	switch k {
	case Plain:
		return "plain"
	case Control:
		return "control"
	case Hidden:
		return "hidden"
	case Invalid:
		return "invalid"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Segment is a run of sanitised text of one kind, so a caller can draw the
// placeholders in a muted style while the text keeps its own.
type Segment struct {
	Text string
	Kind SegKind
}

// Sanitize returns s made safe to draw: every escape sequence, control
// character, bidirectional or zero-width character and invalid byte is
// replaced by a visible placeholder. Tab and newline are kept. Every string
// derived from a packet passes through here (or SanitizeSegments or
// TranslateSGR) before it is drawn.
func Sanitize(s string) string {
	if isSafeASCII(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for len(s) > 0 {
		t, n := nextToken(s)
		s = s[n:]
		if t.kind == tokText {
			b.WriteString(t.raw)
			continue
		}
		writeVisible(&b, t.raw)
	}
	return b.String()
}

// lineControls shows the two controls Sanitize keeps as placeholders too.
var lineControls = strings.NewReplacer("\t", "␉", "\n", "␤")

// SanitizeLine is Sanitize for text drawn as one line, such as a file name
// in a list or a status line: there a tab or a newline would move the
// cursor instead of drawing (and shift or split the line), so they show as
// placeholders like every other control.
func SanitizeLine(s string) string {
	s = Sanitize(s)
	if strings.ContainsAny(s, "\t\n") {
		s = lineControls.Replace(s)
	}
	return s
}

// SanitizeSegments is Sanitize split into runs by kind, adjacent runs of the
// same kind merged.
func SanitizeSegments(s string) []Segment {
	if isSafeASCII(s) {
		if s == "" {
			return nil
		}
		return []Segment{{Text: s, Kind: Plain}}
	}
	var (
		segs []Segment
		cur  strings.Builder
		kind SegKind
	)
	for len(s) > 0 {
		t, n := nextToken(s)
		s = s[n:]
		// Runs are built in one buffer: appending token by token to the
		// last segment would be quadratic on a line of a million ESCs.
		if k := t.segKind(); k != kind {
			if cur.Len() > 0 {
				segs = append(segs, Segment{Text: cur.String(), Kind: kind})
				cur.Reset()
			}
			kind = k
		}
		if t.kind == tokText {
			cur.WriteString(t.raw)
		} else {
			writeVisible(&cur, t.raw)
		}
	}
	if cur.Len() > 0 {
		segs = append(segs, Segment{Text: cur.String(), Kind: kind})
	}
	return segs
}

// Report counts what Sanitize would neutralise in s: escape sequences and
// control characters (a whole sequence counts once), hidden characters and
// invalid bytes. The packet's problems (control-sequences, hidden-characters,
// invalid-utf8) can be computed from it.
func Report(s string) (controls, hidden, invalid int) {
	if isSafeASCII(s) {
		return 0, 0, 0
	}
	for len(s) > 0 {
		t, n := nextToken(s)
		s = s[n:]
		switch t.kind {
		case tokSeq:
			controls++
		case tokHidden:
			hidden++
		case tokInvalid:
			invalid++
		}
	}
	return controls, hidden, invalid
}

// KeepSGR is for the output of vetter's own renderers (Glamour, Chroma,
// lipgloss), whose input was sanitised already: their SGR sequences are
// kept, every other sequence (an OSC 8 hyperlink) is dropped, and any stray
// control character is shown as Sanitize shows it.
func KeepSGR(s string) string {
	if isSafeASCII(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for len(s) > 0 {
		t, n := nextToken(s)
		s = s[n:]
		switch {
		case t.kind == tokText || t.sgr:
			b.WriteString(t.raw)
		case t.kind == tokSeq && (t.raw[0] == 0x1b || t.raw[0] >= 0x80):
			// dropped: a sequence the renderer added, not text
		default:
			writeVisible(&b, t.raw)
		}
	}
	return b.String()
}

// ExpandTabs replaces each tab with spaces up to the next multiple of tab
// columns (4 when tab <= 0). Columns are counted in terminal cells, ignoring
// escape sequences, so it works on styled text and on wide characters; each
// newline starts a new line at column 0.
func ExpandTabs(s string, tab int) string {
	if tab <= 0 {
		tab = 4
	}
	if !strings.Contains(s, "\t") {
		return s
	}
	out, _ := expandTabsFrom(s, 0, tab)
	return out
}

// expandTabsFrom expands tabs in s as if it started at column col, and
// returns the column after it.
func expandTabsFrom(s string, col, tab int) (string, int) {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
			col = 0
		}
		for ci, chunk := range strings.Split(line, "\t") {
			if ci > 0 {
				n := tab - col%tab
				b.WriteString(strings.Repeat(" ", n))
				col += n
			}
			b.WriteString(chunk)
			col += ansi.StringWidth(chunk)
		}
	}
	return b.String(), col
}

// isSafeASCII reports whether s is printable ASCII, tabs and newlines only:
// the common case, which needs no copy.
func isSafeASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 0x20 && c != '\t' && c != '\n') || c >= 0x7f {
			return false
		}
	}
	return true
}

// tokKind classifies one step of the scanner.
type tokKind uint8

const (
	tokText    tokKind = iota // a run of printable, valid UTF-8 (tab and newline included)
	tokSeq                    // an escape sequence or a single control character
	tokHidden                 // one bidirectional or zero-width rune
	tokInvalid                // one byte that is not valid UTF-8
)

// token is one step of the scanner over untrusted text; raw is the input
// bytes it covers.
type token struct {
	kind tokKind
	raw  string
	// sgr marks a well-formed 7-bit Select Graphic Rendition sequence
	// (ESC [ digits ; : m), the only sequence TranslateSGR interprets.
	sgr bool
}

func (t token) segKind() SegKind {
	switch t.kind {
	case tokSeq:
		return Control
	case tokHidden:
		return Hidden
	case tokInvalid:
		return Invalid
	}
	return Plain
}

// nextToken scans the first token of a non-empty s and returns it with its
// length in bytes. The grammar follows ECMA-48 closely enough that whatever a
// terminal would take as one sequence is one token here, and anything it
// would act on is never in a tokText.
func nextToken(s string) (token, int) {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c >= 0x20 && c != 0x7f) || c == '\t' || c == '\n' {
				i++
				continue
			}
			break
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || isC1(r) || isHidden(r) {
			break
		}
		i += n
	}
	if i > 0 {
		return token{kind: tokText, raw: s[:i]}, i
	}
	c := s[0]
	if c == 0x1b {
		return scanEscape(s)
	}
	if c < utf8.RuneSelf {
		return token{kind: tokSeq, raw: s[:1]}, 1
	}
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && n == 1 {
		if c >= 0x80 && c <= 0x9f {
			// A raw 8-bit C1 byte: a terminal in 8-bit mode would act on it.
			return scanC1(s, c, 1)
		}
		return token{kind: tokInvalid, raw: s[:1]}, 1
	}
	if isC1(r) {
		return scanC1(s, byte(r), n)
	}
	return token{kind: tokHidden, raw: s[:n]}, n
}

// scanEscape scans a sequence that starts with ESC.
func scanEscape(s string) (token, int) {
	if len(s) < 2 {
		return token{kind: tokSeq, raw: s}, len(s)
	}
	switch s[1] {
	case '[':
		end, done := csiEnd(s, 2)
		t := token{kind: tokSeq, raw: s[:end]}
		t.sgr = done && s[end-1] == 'm' && isSGRParams(s[2:end-1])
		return t, end
	case ']':
		end := stringEnd(s, 2)
		return token{kind: tokSeq, raw: s[:end]}, end
	case 'P', 'X', '^', '_':
		end := stringEnd(s, 2)
		return token{kind: tokSeq, raw: s[:end]}, end
	}
	// ESC, intermediates (0x20-0x2f), a final byte (0x30-0x7e): e.g. ESC c,
	// ESC ( B. Anything else leaves the ESC alone; what follows is scanned
	// as ordinary input.
	j := 1
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
		j++
	}
	if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7e {
		return token{kind: tokSeq, raw: s[:j+1]}, j + 1
	}
	return token{kind: tokSeq, raw: s[:1]}, 1
}

// scanC1 scans a sequence introduced by a C1 control c that took n bytes.
func scanC1(s string, c byte, n int) (token, int) {
	end := n
	switch c {
	case 0x9b: // CSI
		end, _ = csiEnd(s, n)
	case 0x9d, 0x90, 0x98, 0x9e, 0x9f: // OSC, DCS, SOS, PM, APC
		end = stringEnd(s, n)
	}
	return token{kind: tokSeq, raw: s[:end]}, end
}

// csiEnd returns where a control sequence whose parameters start at i ends,
// and whether it ended with a final byte. Parameter and intermediate bytes
// are 0x20-0x3f, the final byte 0x40-0x7e; anything else cuts it short.
func csiEnd(s string, i int) (end int, done bool) {
	for j := i; j < len(s); j++ {
		b := s[j]
		if b >= 0x20 && b <= 0x3f {
			continue
		}
		if b >= 0x40 && b <= 0x7e {
			return j + 1, true
		}
		return j, false
	}
	return len(s), false
}

// stringEnd returns where a command string (OSC, DCS, SOS, PM, APC) whose
// body starts at i ends: after BEL, ESC \ or ST (0x9c), or before ESC or a C0
// control that would abort it. An unterminated string runs to the end of s.
func stringEnd(s string, i int) int {
	for j := i; j < len(s); {
		b := s[j]
		switch {
		case b == 0x07:
			return j + 1
		case b == 0x1b:
			if j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
			return j
		case b < 0x20 && b != '\t':
			return j
		case b < utf8.RuneSelf:
			j++
		default:
			r, n := utf8.DecodeRuneInString(s[j:])
			if (r == utf8.RuneError && n == 1 && b == 0x9c) || r == 0x9c {
				return j + n
			}
			j += n
		}
	}
	return len(s)
}

// isSGRParams reports whether p holds only SGR parameters: digits and the
// separators ; and :, no private markers or intermediates.
func isSGRParams(p string) bool {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if (c < '0' || c > '9') && c != ';' && c != ':' {
			return false
		}
	}
	return true
}

func isC1(r rune) bool { return r >= 0x80 && r <= 0x9f }

// isHidden reports runes that change how text reads without being seen:
// packet's hidden table (packet/hidden.go), the one check reports from, so
// the screen marks exactly what the audit and the text outputs do.
func isHidden(r rune) bool { return hidden.Is(r) }

// writeVisible writes raw with every control, hidden rune and invalid byte
// replaced by its placeholder; printable characters are kept as they are.
func writeVisible(b *strings.Builder, raw string) {
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\t' || c == '\n':
			b.WriteByte(c)
			i++
		case c < 0x20:
			b.WriteRune(0x2400 + rune(c)) // Control Pictures: ␛ ␇ ␍ ...
			i++
		case c == 0x7f:
			b.WriteRune('␡')
			i++
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			i++
		default:
			r, n := utf8.DecodeRuneInString(raw[i:])
			switch {
			case r == utf8.RuneError && n == 1 && c <= 0x9f:
				b.WriteString("⟦0x")
				b.WriteString(strings.ToUpper(strconv.FormatUint(uint64(c), 16)))
				b.WriteString("⟧")
			case r == utf8.RuneError && n == 1:
				b.WriteRune(utf8.RuneError)
			case isC1(r) || isHidden(r):
				writeMarker(b, r)
			default:
				b.WriteString(raw[i : i+n])
			}
			i += n
		}
	}
}

// writeMarker writes ⟦U+XXXX⟧ for r.
func writeMarker(b *strings.Builder, r rune) {
	h := strings.ToUpper(strconv.FormatUint(uint64(r), 16))
	b.WriteString("⟦U+")
	if len(h) < 4 {
		b.WriteString(strings.Repeat("0", 4-len(h)))
	}
	b.WriteString(h)
	b.WriteString("⟧")
}
