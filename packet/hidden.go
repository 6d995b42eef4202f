package packet

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// HiddenClass is a kind of character that changes what text says without
// being seen. hiddenTable below is vetter's one list of them: the audit
// (ScanText, check's hidden-characters problems), the screen's sanitiser
// (ui.Sanitize draws them as ⟦U+XXXX⟧), the text outputs (EscapeHidden) and
// the JSON outputs all ask it, so no output can show what check did not
// report, or the other way round.
type HiddenClass uint8

const (
	// NotHidden is every character outside the table.
	NotHidden HiddenClass = iota
	// HiddenBidi are the bidirectional controls that reorder what a reader
	// sees (Trojan Source, CVE-2021-42574).
	HiddenBidi
	// HiddenZeroWidth are the zero-width characters that make two
	// equal-looking strings differ.
	HiddenZeroWidth
	// HiddenInvisibleOperator are the invisible mathematical operators,
	// zero-width like the above but rarer, so easy to forget.
	HiddenInvisibleOperator
	// HiddenTag are the tag characters: an invisible copy of ASCII, used to
	// smuggle text (instructions to a model, say) past a reader.
	HiddenTag

	numHiddenClasses = iota
)

// HiddenClasses lists the classes in the order check reports them.
var HiddenClasses = []HiddenClass{HiddenBidi, HiddenZeroWidth, HiddenInvisibleOperator, HiddenTag}

// String is the class's name, plural, as messages use it.
func (c HiddenClass) String() string {
	switch c {
	case HiddenBidi:
		return "bidirectional controls"
	case HiddenZeroWidth:
		return "zero-width characters"
	case HiddenInvisibleOperator:
		return "invisible operators"
	case HiddenTag:
		return "tag characters"
	}
	return "visible characters"
}

// Ranges names the class's code points, as messages and docs write them.
func (c HiddenClass) Ranges() string {
	var parts []string
	for _, h := range hiddenTable {
		if h.class != c {
			continue
		}
		if h.lo == h.hi {
			parts = append(parts, codePoint(h.lo))
		} else {
			parts = append(parts, codePoint(h.lo)+"–"+codePoint(h.hi))
		}
	}
	return strings.Join(parts, ", ")
}

// hiddenTable is every hidden character, by range, in code-point order.
// Variation selectors and the soft hyphen are left out on purpose: they
// change how a neighbour is drawn or where a line breaks, not what it says,
// and every emoji carries U+FE0F.
var hiddenTable = []struct {
	lo, hi rune
	class  HiddenClass
}{
	{0x061C, 0x061C, HiddenBidi},              // ARABIC LETTER MARK
	{0x200B, 0x200D, HiddenZeroWidth},         // ZERO WIDTH SPACE, NON-JOINER, JOINER
	{0x200E, 0x200F, HiddenBidi},              // LEFT-TO-RIGHT and RIGHT-TO-LEFT MARK
	{0x202A, 0x202E, HiddenBidi},              // embeddings, pop, overrides
	{0x2060, 0x2060, HiddenZeroWidth},         // WORD JOINER
	{0x2061, 0x2064, HiddenInvisibleOperator}, // FUNCTION APPLICATION .. INVISIBLE PLUS
	{0x2066, 0x2069, HiddenBidi},              // isolates and their pop
	{0xFEFF, 0xFEFF, HiddenZeroWidth},         // ZERO WIDTH NO-BREAK SPACE (byte-order mark)
	{0xE0000, 0xE007F, HiddenTag},             // TAG characters (E0000 is unassigned, still invisible)
}

// HiddenClassOf returns r's class in the table, or NotHidden.
func HiddenClassOf(r rune) HiddenClass {
	// Most text never reaches the table: everything below U+061C, and the
	// wide gap between U+FEFF and the tags, are rejected in two compares.
	if r < 0x061C || (r > 0xFEFF && r < 0xE0000) || r > 0xE007F {
		return NotHidden
	}
	for _, h := range hiddenTable {
		if r < h.lo {
			return NotHidden
		}
		if r <= h.hi {
			return h.class
		}
	}
	return NotHidden
}

// IsHidden reports whether r is in the hidden table: a character that
// changes what a reader sees without being seen.
func IsHidden(r rune) bool { return HiddenClassOf(r) != NotHidden }

// codePoint is r as U+XXXX: uppercase hex, at least four digits.
func codePoint(r rune) string {
	h := strings.ToUpper(strconv.FormatUint(uint64(r), 16))
	if len(h) < 4 {
		h = strings.Repeat("0", 4-len(h)) + h
	}
	return "U+" + h
}

// EscapeHidden returns s with every hidden character written as <U+XXXX>
// (uppercase hex, four to six digits), the form every text output uses: a
// terminal, a pull-request comment and a code-scanning alert show it as it
// is. Everything else, invalid bytes included, is kept as it was.
func EscapeHidden(s string) string {
	i := indexHidden(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for len(s[i:]) > 0 {
		r, n := utf8.DecodeRuneInString(s[i:])
		if n > 1 && IsHidden(r) {
			b.WriteByte('<')
			b.WriteString(codePoint(r))
			b.WriteByte('>')
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// indexHidden returns the byte offset of s's first hidden character, or -1.
func indexHidden(s string) int {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if IsHidden(r) {
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

// HiddenRunes returns every character of the table, in order, for tests
// that check an output agrees with it.
func HiddenRunes() []rune {
	var rs []rune
	for _, h := range hiddenTable {
		for r := h.lo; r <= h.hi; r++ {
			rs = append(rs, r)
		}
	}
	return rs
}
