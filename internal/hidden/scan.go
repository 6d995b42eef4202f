package hidden

import "unicode/utf8"

// Flags says what a piece of packet text hides or would do to a terminal.
type Flags struct {
	Controls int // escape sequences and control characters (other than tab, newline, CR)
	Hidden   int // characters of the hidden table (hidden.go), every class
	Invalid  int // bytes that are not UTF-8

	// HiddenBy is Hidden by class (indexed by Class), and FirstHidden
	// each class's first character, so check can say which kind of hidden
	// text a file holds and show one.
	HiddenBy    [NumClasses]int
	FirstHidden [NumClasses]rune
}

// Scan counts what a string hides or would do to a terminal.
func Scan(s string) Flags {
	var f Flags
	for i := 0; i < len(s); {
		// Eight bytes at a time while they are printable ASCII, the common
		// case: the scan covers every line of a packet's documents and diff
		// on load, and byte by byte it was a sixth of loading a big packet.
		if i+8 <= len(s) && plainASCII8(s[i:i+8]) {
			i += 8
			continue
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f {
				f.Controls++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			f.Invalid++
		case r >= 0x80 && r <= 0x9f:
			f.Controls++
		default:
			if c := ClassOf(r); c != None {
				f.Hidden++
				if f.HiddenBy[c] == 0 {
					f.FirstHidden[c] = r
				}
				f.HiddenBy[c]++
			}
		}
		i += size
	}
	return f
}

// plainASCII8 reports whether the eight bytes of s are all printable ASCII
// (0x20-0x7e); it may say false for some that are, never true for others.
func plainASCII8(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	_ = s[7] // one bounds check; the loads combine into one
	w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	high := w & highs                   // a byte of 0x80 or more
	low := (w - 0x20*ones) & ^w & highs // a byte below 0x20 (or a false alarm)
	del := w ^ 0x7f*ones                // a zero byte where w held DEL
	del = (del - ones) & ^del & highs
	return high|low|del == 0
}

// Plain reports whether s is printable ASCII, tabs and line breaks only,
// where Scan finds nothing; it may say false for some such text,
// never true for other. It is Scan's answer for most lines of a
// packet without the counts: the diff's 200,000 lines pass here on the
// first screen's path.
func Plain(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if !plainASCII8(s[i:i+8]) && !plainBytes(s[i:i+8]) {
			return false
		}
	}
	return plainBytes(s[i:])
}

// plainBytes is Plain byte by byte.
func plainBytes(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c >= 0x7f {
			return false
		}
	}
	return true
}
