package rules

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vetter-dev/vetter/internal/hidden"
)

// Hidden characters. The table of what is hidden is packet's (HiddenClassOf),
// the one every output of vetter asks. Variation selectors are not in it on
// purpose (every emoji carries U+FE0F), so they are judged here by where
// they stand: after an emoji or a character that has variants they are what
// editors write; a run of them, or one after plain ASCII, is a payload
// (each selector encodes a byte, the trick of the 2025 "invisible" npm and
// VS Code extension malware).

func HasHiddenName(s string) bool {
	for _, r := range s {
		if hidden.Is(r) {
			return true
		}
	}
	return false
}

// VariationSelector reports U+FE00–FE0F and U+E0100–E01EF.
func VariationSelector(r rune) bool {
	return (r >= 0xFE00 && r <= 0xFE0F) || (r >= 0xE0100 && r <= 0xE01EF)
}

// HiddenInLine rates a line's hidden characters. Bidirectional controls are
// high anywhere (Trojan Source hides in comments). Tag characters, stray
// variation selectors and zero-width characters inside code are high: in a
// string or a name they carry a payload or make two names differ. The same
// in documentation or a comment is medium. A byte-order mark at the start
// of a file and a joiner or selector inside an emoji are what editors write.
//
// Text an AI agent reads as its instructions (AGENTS.md, CLAUDE.md,
// .cursorrules, prompt files) is read by a model, not a person: any hidden
// character there is high. Elsewhere, in prose or a comment, a run of tag
// characters or of variation selectors is high too: each one is an
// invisible copy of an ASCII letter or a byte ("ASCII smuggling"), so the
// run spells a message the reviewer never sees and a model or a decoder
// reads; a flag emoji's tag sequence (🏴 then tags then U+E007F) is what
// emoji keyboards write.
func HiddenInLine(s string, firstLine, prose bool) (id, title string, ok bool) {
	return HiddenInText(s, firstLine, prose, false)
}

func HiddenInText(s string, firstLine, prose, agent bool) (id, title string, ok bool) {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return "", "", false // the common case: plain ASCII
	}
	bidi, payload, marks, embeds, rtl := 0, 0, 0, 0, false
	var names []string
	add := func(n string) {
		for _, m := range names {
			if m == n {
				return
			}
		}
		names = append(names, n)
	}
	var prev rune
	vsRun, puaRun, breaks := 0, 0, 0
	tags, vsMax, inFlag := 0, 0, false
	for j, r := range s {
		if r == 0x1F3F4 {
			inFlag = true
		} else if inFlag && !(r >= 0xE0020 && r <= 0xE007F) {
			inFlag = false
		}
		// A run of private-use characters draws as nothing (or as boxes)
		// and is a byte a decoder recovers (codePointAt(0) - 0xE000, the
		// os-info-checker trick); one alone is an icon font's glyph.
		if PrivateUse(r) {
			puaRun++
			if puaRun == 4 {
				payload++
				add("private-use characters")
			}
			prev = r
			continue
		}
		puaRun = 0
		if r == 0x2028 || r == 0x2029 {
			breaks++
			prev = r
			continue
		}
		if VariationSelector(r) {
			vsRun++
			vsMax = max(vsMax, vsRun)
			if r >= 0xE0100 || vsRun > 1 || prev < 0x80 && !keycap(s[j:]) {
				payload++
				add("variation selectors")
			}
			prev = r
			continue
		}
		vsRun = 0
		if rightToLeft(r) {
			rtl = true
		}
		switch c := hidden.ClassOf(r); {
		case c == hidden.Bidi && (r == 0x200E || r == 0x200F || r == 0x061C):
			marks++
		case c == hidden.Bidi && r != 0x202D && r != 0x202E:
			embeds++
		case c == hidden.Bidi:
			bidi++
		case r == 0xFEFF && j == 0 && firstLine:
		case r == 0x200D && isEmojiPart(prev):
		case (r == 0x200B || r == 0x200C || r == 0x200D || r == 0x180E) && scriptLetter(prev) && scriptLetter(nextRune(s, j)):
			// Persian, Arabic and the Indic scripts write ZWNJ and ZWJ
			// between their letters as part of the spelling (کتاب‌ها), and
			// Mongolian its vowel separator; Thai, Lao, Khmer and Burmese,
			// written without spaces, mark word breaks with ZWSP.
		case c == hidden.Tag && inFlag:
			if r == 0xE007F {
				inFlag = false
			}
		case c == hidden.Tag:
			payload++
			tags++
			add(c.String())
		case r == 0x00AD && !prose:
			// A soft hyphen draws nothing unless a line breaks at it: the
			// shared table leaves it out for prose, where it is a
			// hyphenation hint, but inside code "ci" and "ci\u00AD" are two
			// strings that look the same, as with a zero-width space.
			payload++
			add(softHyphens)
		case HangulFiller(r):
			// A letter that draws nothing: JavaScript and Python take it
			// as a name, so "timeout,ㅤ" destructures one more parameter.
			payload++
			add(hangulName)
		case c != hidden.None:
			payload++
			add(c.String())
		}
		prev = r
	}
	// The marks (LRM, RLM, ALM) and embeddings in a line of right-to-left
	// text are how Arabic and Hebrew translations keep numbers and Latin
	// words in place; Trojan Source reorders code, which is not written so.
	switch {
	case !rtl:
		bidi += marks + embeds
	case embeds > 0 && bidi == 0:
		return "hidden-text", "bidirectional embeddings around right-to-left text", true
	}
	switch {
	case bidi > 0:
		return "hidden-bidi", "", true
	case breaks > 0 && !prose:
		return "hidden-linebreak", "", true
	case payload == 0:
		return "", "", false
	}
	names = orderNames(names)
	switch {
	case agent:
		return "hidden-instructions", strings.Join(names, " and ") + " hidden in text an AI agent reads as its instructions", true
	case (prose || CommentLine(s)) && (tags >= 2 || vsMax >= 4):
		return "hidden-instructions", strings.Join(names, " and ") + " spell text nobody sees in the line", true
	case prose || CommentLine(s):
		return "hidden-text", strings.Join(names, " and ") + " hidden in the line", true
	}
	return "hidden-payload", strings.Join(names, " and ") + " hidden inside code", true
}

// rightToLeft reports a letter of a script written right to left (Hebrew,
// Arabic, Syriac, Thaana, NKo and their presentation forms).
func rightToLeft(r rune) bool {
	return r >= 0x0590 && r <= 0x07FF || r >= 0x0860 && r <= 0x08FF || r >= 0xFB1D && r <= 0xFDFF || r >= 0xFE70 && r <= 0xFEFC
}

// scriptLetter reports a letter or combining mark of a script other than
// Latin, Greek or Cyrillic (where a joiner is spelling, not a hidden byte).
func scriptLetter(r rune) bool {
	return r >= 0x0590 && (unicode.IsLetter(r) || unicode.IsMark(r)) && !unicode.In(r, unicode.Latin, unicode.Greek, unicode.Cyrillic) && !HangulFiller(r)
}

// nextRune is the rune after the one at byte j of s, or 0.
func nextRune(s string, j int) rune {
	_, size := utf8.DecodeRuneInString(s[j:])
	r, _ := utf8.DecodeRuneInString(s[j+size:])
	if r == utf8.RuneError {
		return 0
	}
	return r
}

// PrivateUse reports the private-use areas: the BMP's and planes 15 and 16.
func PrivateUse(r rune) bool {
	return r >= 0xE000 && r <= 0xF8FF || r >= 0xF0000 && r <= 0x10FFFD
}

const softHyphens = "soft hyphens"

const hangulName = "blank letters (Hangul fillers, invisible separators)"

// HangulFiller reports the letters and marks that render as nothing: the
// Hangul fillers, which are identifier characters, the Mongolian vowel
// separator, the combining grapheme joiner and the Khmer inherent vowels.
func HangulFiller(r rune) bool {
	return r == 0x3164 || r == 0x115F || r == 0x1160 || r == 0xFFA0 || r == 0x180E || r == 0x034F || r == 0x17B4 || r == 0x17B5
}

// keycap reports a selector that starts a keycap sequence ("1️⃣").
func keycap(rest string) bool {
	_, n := utf8.DecodeRuneInString(rest)
	r, _ := utf8.DecodeRuneInString(rest[n:])
	return r == 0x20E3
}

func isEmojiPart(r rune) bool {
	return r >= 0x1F000 || (r >= 0x2600 && r <= 0x27BF) || r == 0xFE0F || (r >= 0x1F3FB && r <= 0x1F3FF)
}

// ASCIILower appends s to dst with ASCII letters lower-cased; other bytes are
// kept, so offsets match s.
func ASCIILower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// orderNames lists the classes found in the order check reports them, the
// variation selectors (not in packet's table) last.
func orderNames(found []string) []string {
	var out []string
	for _, c := range hidden.Classes {
		for _, n := range found {
			if n == c.String() {
				out = append(out, n)
			}
		}
	}
	// Names that are no class of the shared table (variation selectors,
	// private-use runs, Hangul fillers, soft hyphens) follow in the order
	// found: listing them by hand once dropped private-use runs, leaving a
	// title that named nothing.
	for _, n := range found {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// Confusable reports Cyrillic and Greek letters that are drawn like Latin
// ones (а е о р с у х і ј ѕ, Α Β Ε Η Ι Κ Μ Ν Ο Ρ Τ Χ ...).
func Confusable(r rune) bool {
	switch r {
	case 'а', 'е', 'о', 'р', 'с', 'у', 'х', 'і', 'ј', 'ѕ', 'ԁ', 'ԛ', 'ԝ', 'һ', 'ӏ', 'ү', 'ԍ',
		'А', 'В', 'Е', 'К', 'М', 'Н', 'О', 'Р', 'С', 'Т', 'Х', 'І', 'Ј', 'Ѕ', 'Ү',
		'Α', 'Β', 'Ε', 'Ζ', 'Η', 'Ι', 'Κ', 'Μ', 'Ν', 'Ο', 'Ρ', 'Τ', 'Υ', 'Χ', 'ο', 'ν', 'ρ', 'ι', 'κ':
		return true
	}
	return false
}

// MixedScriptWord returns the first word of s (letters, digits, _ . - and
// /, as in names, hosts and paths) that mixes ASCII letters with letters of
// another script drawn the same: "requеsts" with a Cyrillic е is another
// package, "gіthub.com" another host, while the reviewer reads the
// familiar name. A word all in one script (Russian or Greek text) is
// ordinary.
func MixedScriptWord(s string) string {
	start, latin, other := -1, false, false
	for i, r := range s + " " {
		word := r == '_' || r == '.' || r == '-' || r == '/' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || Confusable(r)
		if word {
			if start < 0 {
				start = i
			}
			latin = latin || r < utf8.RuneSelf && (r|0x20) >= 'a' && (r|0x20) <= 'z'
			other = other || Confusable(r)
			continue
		}
		if start >= 0 && latin && other {
			return s[start:i]
		}
		start, latin, other = -1, false, false
	}
	return ""
}
