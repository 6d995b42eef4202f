package hostile

import "strings"

// HiddenRunes are the characters that change what text says without being
// seen: the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
// U+2066–U+2069) and the zero-width ones.
var HiddenRunes = []rune{
	0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
	0x2066, 0x2067, 0x2068, 0x2069,
	0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF,
}

// Invalid is a run of bytes that are not UTF-8: a lone continuation byte,
// an overlong encoding, a cut sequence, and 0xFF.
const Invalid = "\x80\xc0\xaf\xe2\x82\xff"

// TrojanLine is the Trojan Source attack (CVE-2021-42574): in an editor it
// reads as a comment and an if, but the compiler sees the override
// characters reorder the tokens so the check is commented out.
const TrojanLine = "\tif access != \"user\u202E \u2066// check later\u2069 \u2066\" {"

// allHidden is every hidden rune in one string, each between letters.
func allHidden() string {
	var b strings.Builder
	for _, r := range HiddenRunes {
		b.WriteString("x")
		b.WriteRune(r)
	}
	return b.String() + "x"
}

// HiddenName is the diff's second file name: "admin" with a right-to-left
// override, so a terminal would draw the tail reversed, and a zero-width
// space that makes two equal-looking names differ.
const HiddenName = "internal/limit/ad\u202Emin\u200B_test.go"

// Hidden is the hidden-characters class: bidirectional and zero-width
// characters in diff lines, a diff file name, finding cells and a document,
// and invalid UTF-8 in a document, the diff, the registry and a log.
func Hidden() Files {
	h := allHidden()
	s := slots{
		planBody:     "\nEvery hidden character: " + h + "\nNot UTF-8: " + Invalid + "\n",
		reviewBody:   " " + h,
		findingLoc:   "\u200B",
		findingClaim: " The check reads \u202Eenilno\u202C but is " + h,
		findingEv:    " Bytes: " + Invalid,
		findingExtra: "\u2067isolate\u2069",
		diffName:     HiddenName,
		diffLine:     TrojanLine,
		diffNewLine:  "var _ = \"" + h + Invalid + "\"",
		regNote:      " \u202Edesrever " + Invalid,
		unitLog:      "hidden: " + h + "\ninvalid: " + Invalid + "\n",
	}
	return build(s)
}
