// Package hidden is vetter's one list of the characters that change what
// text says without being seen (bidirectional controls, zero-width
// characters, invisible operators, tag characters), how every output
// writes them, and the scan that counts them, with control sequences and
// invalid UTF-8, in a piece of packet text.
package hidden

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Class is a kind of character that changes what text says without being
// seen. table below is vetter's one list of them: the audit (Scan, check's
// hidden-characters problems), the screen's sanitiser (ui.Sanitize draws
// them as ⟦U+XXXX⟧), the text outputs (Escape) and the JSON outputs all
// ask it, so no output can show what check did not report, or the other
// way round.
type Class uint8

const (
	// None is every character outside the table.
	None Class = iota
	// Bidi are the bidirectional controls that reorder what a reader
	// sees (Trojan Source, CVE-2021-42574).
	Bidi
	// ZeroWidth are the zero-width characters that make two
	// equal-looking strings differ.
	ZeroWidth
	// InvisibleOperator are the invisible mathematical operators,
	// zero-width like the above but rarer, so easy to forget.
	InvisibleOperator
	// Tag are the tag characters: an invisible copy of ASCII, used to
	// smuggle text (instructions to a model, say) past a reader.
	Tag

	// NumClasses counts the classes, None included: the length of an array
	// indexed by Class.
	NumClasses = iota
)

// Classes lists the classes in the order check reports them.
var Classes = []Class{Bidi, ZeroWidth, InvisibleOperator, Tag}

// String is the class's name, plural, as messages use it.
func (c Class) String() string {
	switch c {
	case Bidi:
		return "bidirectional controls"
	case ZeroWidth:
		return "zero-width characters"
	case InvisibleOperator:
		return "invisible operators"
	case Tag:
		return "tag characters"
	}
	return "visible characters"
}

// Ranges names the class's code points, as messages and docs write them.
func (c Class) Ranges() string {
	var parts []string
	for _, h := range table {
		if h.class != c {
			continue
		}
		if h.lo == h.hi {
			parts = append(parts, CodePoint(h.lo))
		} else {
			parts = append(parts, CodePoint(h.lo)+"–"+CodePoint(h.hi))
		}
	}
	return strings.Join(parts, ", ")
}

// table is every hidden character, by range, in code-point order.
// Variation selectors and the soft hyphen are left out on purpose: they
// change how a neighbour is drawn or where a line breaks, not what it says,
// and every emoji carries U+FE0F.
var table = []struct {
	lo, hi rune
	class  Class
}{
	{0x061C, 0x061C, Bidi},              // ARABIC LETTER MARK
	{0x200B, 0x200D, ZeroWidth},         // ZERO WIDTH SPACE, NON-JOINER, JOINER
	{0x200E, 0x200F, Bidi},              // LEFT-TO-RIGHT and RIGHT-TO-LEFT MARK
	{0x202A, 0x202E, Bidi},              // embeddings, pop, overrides
	{0x2060, 0x2060, ZeroWidth},         // WORD JOINER
	{0x2061, 0x2064, InvisibleOperator}, // FUNCTION APPLICATION .. INVISIBLE PLUS
	{0x2066, 0x2069, Bidi},              // isolates and their pop
	{0xFEFF, 0xFEFF, ZeroWidth},         // ZERO WIDTH NO-BREAK SPACE (byte-order mark)
	{0xE0000, 0xE007F, Tag},             // TAG characters (E0000 is unassigned, still invisible)
}

// ClassOf returns r's class in the table, or None.
func ClassOf(r rune) Class {
	// Most text never reaches the table: everything below U+061C, and the
	// wide gap between U+FEFF and the tags, are rejected in two compares.
	if r < 0x061C || (r > 0xFEFF && r < 0xE0000) || r > 0xE007F {
		return None
	}
	for _, h := range table {
		if r < h.lo {
			return None
		}
		if r <= h.hi {
			return h.class
		}
	}
	return None
}

// Is reports whether r is in the hidden table: a character that
// changes what a reader sees without being seen.
func Is(r rune) bool { return ClassOf(r) != None }

// CodePoint is r as U+XXXX: uppercase hex, at least four digits.
func CodePoint(r rune) string {
	h := strings.ToUpper(strconv.FormatUint(uint64(r), 16))
	if len(h) < 4 {
		h = strings.Repeat("0", 4-len(h)) + h
	}
	return "U+" + h
}

// Escape returns s with every hidden character written as <U+XXXX>
// (uppercase hex, four to six digits), the form every text output uses: a
// terminal, a pull-request comment and a code-scanning alert show it as it
// is. Everything else, invalid bytes included, is kept as it was.
func Escape(s string) string {
	i := index(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for len(s[i:]) > 0 {
		r, n := utf8.DecodeRuneInString(s[i:])
		if n > 1 && Is(r) {
			b.WriteByte('<')
			b.WriteString(CodePoint(r))
			b.WriteByte('>')
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// index returns the byte offset of s's first hidden character, or -1.
func index(s string) int {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if Is(r) {
			return i
		}
		i += n
	}
	return -1
}

// AppendJSONEscape appends r as JSON writes an escaped character: \uXXXX in
// lowercase hex, as encoding/json writes its own escapes, and a surrogate
// pair (\udb40\udc41 for U+E0041) for a character beyond U+FFFF, which one
// \u escape cannot hold.
func AppendJSONEscape(b []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	u := func(b []byte, c rune) []byte {
		return append(b, '\\', 'u', hex[c>>12&0xf], hex[c>>8&0xf], hex[c>>4&0xf], hex[c&0xf])
	}
	if r > 0xFFFF {
		hi, lo := utf16.EncodeRune(r)
		return u(u(b, hi), lo)
	}
	return u(b, r)
}

// Runes returns every character of the table, in order, for tests
// that check an output agrees with it.
func Runes() []rune {
	var rs []rune
	for _, h := range table {
		for r := h.lo; r <= h.hi; r++ {
			rs = append(rs, r)
		}
	}
	return rs
}
