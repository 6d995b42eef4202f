package ui

import (
	"math/rand"
	"strings"
	"testing"
	"testing/quick"
	"unicode/utf8"

	"github.com/vetter-dev/vetter/internal/hidden"
)

func TestSanitize(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"plain ascii with tab and newline", "hello\tworld\n", "hello\tworld\n"},
		{"utf8 text kept", "naïve 漢字 🙂 \uFFFD", "naïve 漢字 🙂 \uFFFD"},
		{"csi clear screen", "a\x1b[2Jb", "a␛[2Jb"},
		{"csi sgr shown, not obeyed", "\x1b[31mred\x1b[0m", "␛[31mred␛[0m"},
		{"csi private mode", "\x1b[?1049h", "␛[?1049h"},
		{"csi cut short by a control", "\x1b[12\x07x", "␛[12␇x"},
		{"csi unterminated at end", "\x1b[12;", "␛[12;"},
		{"osc title bel", "\x1b]0;pwned\x07after", "␛]0;pwned␇after"},
		{"osc hyperlink st", "\x1b]8;;http://e.test\x1b\\click\x1b]8;;\x1b\\", "␛]8;;http://e.test␛\\click␛]8;;␛\\"},
		{"osc unterminated", "\x1b]52;c;Zm9v", "␛]52;c;Zm9v"},
		{"osc stops at newline", "\x1b]0;a\nnext", "␛]0;a\nnext"},
		{"osc with 8-bit st", "\x1b]0;t\x9cz", "␛]0;t⟦0x9C⟧z"},
		{"dcs", "\x1bPq#0;2;0;0;0\x1b\\", "␛Pq#0;2;0;0;0␛\\"},
		{"apc", "\x1b_Gf=100;AAAA\x1b\\", "␛_Gf=100;AAAA␛\\"},
		{"pm", "\x1b^private\x1b\\", "␛^private␛\\"},
		{"sos", "\x1bXstart\x1b\\", "␛Xstart␛\\"},
		{"lone esc at end", "a\x1b", "a␛"},
		{"lone esc before text", "\x1b\x01", "␛␁"},
		{"esc reset", "\x1bc", "␛c"},
		{"esc charset", "\x1b(B", "␛(B"},
		{"esc then non-ascii", "\x1bé", "␛é"},
		{"c1 csi rune", "\u009b2J", "⟦U+009B⟧2J"},
		{"c1 osc rune", "\u009d0;t\u009c", "⟦U+009D⟧0;t⟦U+009C⟧"},
		{"c1 nel rune", "a\u0085b", "a⟦U+0085⟧b"},
		{"raw 8-bit csi", "\x9b2J", "⟦0x9B⟧2J"},
		{"raw 8-bit osc bel", "\x9d0;t\x07x", "⟦0x9D⟧0;t␇x"},
		{"c0 controls", "\x00\x01\x07\x08\x0b\x0c\x0d\x1f", "␀␁␇␈␋␌␍␟"},
		{"del", "a\x7fb", "a␡b"},
		{"cr kept visible", "50%\r60%", "50%␍60%"},
		{"rlo", "\u202Eevil", "⟦U+202E⟧evil"},
		{"all bidi embeddings", "\u202A\u202B\u202C\u202D", "⟦U+202A⟧⟦U+202B⟧⟦U+202C⟧⟦U+202D⟧"},
		{"bidi isolates", "\u2066\u2067\u2068\u2069", "⟦U+2066⟧⟦U+2067⟧⟦U+2068⟧⟦U+2069⟧"},
		{"marks", "\u200E\u200F\u061C", "⟦U+200E⟧⟦U+200F⟧⟦U+061C⟧"},
		{"zero width", "a\u200Bb\u200Cc\u200Dd\u2060e\uFEFF", "a⟦U+200B⟧b⟦U+200C⟧c⟦U+200D⟧d⟦U+2060⟧e⟦U+FEFF⟧"},
		{"tag characters", "ok\U000E0041\U000E007F", "ok⟦U+E0041⟧⟦U+E007F⟧"},
		{"invalid bytes", "a\xff\xfeb", "a\uFFFD\uFFFDb"},
		{"truncated utf8", "\xe4\xb8", "\uFFFD\uFFFD"},
		{"overlong", "\xc0\xaf", "\uFFFD\uFFFD"},
		{"surrogate half", "\xed\xa0\xbf", "\uFFFD\uFFFD\uFFFD"},
		{"hidden inside osc", "\x1b]0;\u202E\x07", "␛]0;⟦U+202E⟧␇"},
		{"invalid inside osc", "\x1b]0;\xff\x07", "␛]0;\uFFFD␇"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Sanitize(tt.in)
			if got != tt.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
			}
			checkSafe(t, got)
			if joined := joinSegments(SanitizeSegments(tt.in)); joined != got {
				t.Errorf("segments join to %q, Sanitize gives %q", joined, got)
			}
		})
	}
}

func TestSanitizeSegments(t *testing.T) {
	got := SanitizeSegments("a\x1b[2Jb\u202Ec\xff\xfe\x07\x1b]0;x\x07d")
	want := []Segment{
		{"a", Plain}, {"␛[2J", Control}, {"b", Plain}, {"⟦U+202E⟧", Hidden},
		{"c", Plain}, {"\uFFFD\uFFFD", Invalid}, {"␇␛]0;x␇", Control}, {"d", Plain},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d segments %q, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("segment %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if SanitizeSegments("") != nil {
		t.Errorf("empty input should give no segments")
	}
}

func TestReport(t *testing.T) {
	tests := []struct {
		in                        string
		controls, hidden, invalid int
	}{
		{"plain\ttext\n", 0, 0, 0},
		{"\x1b[31mred\x1b[0m", 2, 0, 0},
		{"\x1b]0;title\x07\x07", 2, 0, 0},
		{"\u202Eabc\u200B", 0, 2, 0},
		{"\xff\xfe", 0, 0, 2},
		{"\x9b2J\u009b", 2, 0, 0},
		{"a\rb\x7f", 2, 0, 0},
	}
	for _, tt := range tests {
		c, h, i := Report(tt.in)
		if c != tt.controls || h != tt.hidden || i != tt.invalid {
			t.Errorf("Report(%q) = %d,%d,%d want %d,%d,%d", tt.in, c, h, i, tt.controls, tt.hidden, tt.invalid)
		}
	}
}

func TestExpandTabs(t *testing.T) {
	tests := []struct {
		in   string
		tab  int
		want string
	}{
		{"no tabs", 4, "no tabs"},
		{"\t", 4, "    "},
		{"a\tb", 4, "a   b"},
		{"abcd\te", 4, "abcd    e"},
		{"ab\t\tc", 4, "ab      c"},
		{"漢\tx", 4, "漢  x"},
		{"\x1b[31mab\x1b[m\tc", 4, "\x1b[31mab\x1b[m  c"},
		{"abc\nd\te", 4, "abc\nd   e"},
		{"a\tb", 0, "a   b"},
		{"a\tb", 8, "a       b"},
	}
	for _, tt := range tests {
		if got := ExpandTabs(tt.in, tt.tab); got != tt.want {
			t.Errorf("ExpandTabs(%q, %d) = %q, want %q", tt.in, tt.tab, got, tt.want)
		}
	}
}

func TestKeepSGR(t *testing.T) {
	in := "\x1b[1;31mtitle\x1b[0m \x1b]8;id=1;http://e.test\x1b\\link\x1b]8;;\x1b\\ \x1b[2J\r"
	want := "\x1b[1;31mtitle\x1b[0m link ␍"
	if got := KeepSGR(in); got != want {
		t.Errorf("KeepSGR = %q, want %q", got, want)
	}
}

func TestTranslateSGR(t *testing.T) {
	idx := func(i uint8) SGRColor { return SGRColor{Kind: ColorIndex, Index: i} }
	rgb := func(r, g, b uint8) SGRColor { return SGRColor{Kind: ColorRGB, R: r, G: g, B: b} }
	seg := func(text string, k SegKind, a Attr) StyledSegment {
		return StyledSegment{Segment: Segment{Text: text, Kind: k}, Attr: a}
	}
	tests := []struct {
		name string
		in   string
		want []StyledSegment
	}{
		{"plain", "hello", []StyledSegment{seg("hello", Plain, Attr{})}},
		{"basic fg and reset", "\x1b[31mred\x1b[0m plain", []StyledSegment{
			seg("red", Plain, Attr{Fg: idx(1)}), seg(" plain", Plain, Attr{})}},
		{"empty params reset", "\x1b[1mb\x1b[mn", []StyledSegment{
			seg("b", Plain, Attr{Bold: true}), seg("n", Plain, Attr{})}},
		{"bright fg and bg", "\x1b[92;104mx", []StyledSegment{seg("x", Plain, Attr{Fg: idx(10), Bg: idx(12)})}},
		{"bg 40-47", "\x1b[33;44mx", []StyledSegment{seg("x", Plain, Attr{Fg: idx(3), Bg: idx(4)})}},
		{"256", "\x1b[38;5;200;48;5;17mx", []StyledSegment{seg("x", Plain, Attr{Fg: idx(200), Bg: idx(17)})}},
		{"truecolor", "\x1b[38;2;1;2;3mx", []StyledSegment{seg("x", Plain, Attr{Fg: rgb(1, 2, 3)})}},
		{"truecolor colon with colourspace", "\x1b[38:2::250:128:0mx", []StyledSegment{seg("x", Plain, Attr{Fg: rgb(250, 128, 0)})}},
		{"256 colon", "\x1b[48:5:52mx", []StyledSegment{seg("x", Plain, Attr{Bg: idx(52)})}},
		{"bold underline and off", "\x1b[1;4mx\x1b[22my\x1b[24mz", []StyledSegment{
			seg("x", Plain, Attr{Bold: true, Underline: true}), seg("y", Plain, Attr{Underline: true}), seg("z", Plain, Attr{})}},
		{"default fg bg", "\x1b[31;42mx\x1b[39my\x1b[49mz", []StyledSegment{
			seg("x", Plain, Attr{Fg: idx(1), Bg: idx(2)}), seg("y", Plain, Attr{Bg: idx(2)}), seg("z", Plain, Attr{})}},
		{"ignored attributes: reverse, conceal, blink", "\x1b[5;7;8mx", []StyledSegment{seg("x", Plain, Attr{})}},
		{"malformed extended colour ignored", "\x1b[38;5mx\x1b[38;2;1mx\x1b[38;5;999mx", []StyledSegment{seg("xxx", Plain, Attr{})}},
		{"huge number ignored", "\x1b[99999999999mx", []StyledSegment{seg("x", Plain, Attr{})}},
		{"same fg and bg drops bg", "\x1b[30;40mhidden", []StyledSegment{seg("hidden", Plain, Attr{Fg: idx(0)})}},
		{"near fg and bg drops bg", "\x1b[38;2;10;10;10;48;2;14;12;10mhidden", []StyledSegment{seg("hidden", Plain, Attr{Fg: rgb(10, 10, 10)})}},
		{"256 equal to rgb", "\x1b[38;5;196;48;2;255;0;0mhidden", []StyledSegment{seg("hidden", Plain, Attr{Fg: idx(196)})}},
		{"other csi neutralised", "\x1b[2Jx", []StyledSegment{seg("␛[2J", Control, Attr{}), seg("x", Plain, Attr{})}},
		{"private sgr-looking neutralised", "\x1b[?31mx", []StyledSegment{seg("␛[?31m", Control, Attr{}), seg("x", Plain, Attr{})}},
		{"8-bit csi m not obeyed", "\u009b31mx", []StyledSegment{seg("⟦U+009B⟧31m", Control, Attr{}), seg("x", Plain, Attr{})}},
		{"osc neutralised with colour kept", "\x1b[31m\x1b]0;t\x07x", []StyledSegment{
			seg("␛]0;t␇", Control, Attr{Fg: idx(1)}), seg("x", Plain, Attr{Fg: idx(1)})}},
		{"hidden and invalid", "\u202E\xff", []StyledSegment{seg("⟦U+202E⟧", Hidden, Attr{}), seg("\uFFFD", Invalid, Attr{})}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := TranslateSGR(tt.in)
			if len(got) != len(tt.want) {
				t.Fatalf("TranslateSGR(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("segment %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestOverstrike(t *testing.T) {
	tests := []struct {
		name, in, want string
		over           bool
	}{
		{"no cr", "abc", "abc", false},
		{"trailing cr", "abc\r", "abc", false},
		{"leading cr", "\rabc", "abc", false},
		{"crlf lines", "a\r\nb", "a\nb", false},
		{"progress", "10%\r20%\r30%", "30%", true},
		{"shorter overwrite keeps tail", "downloading\rdone", "doneloading", true},
		{"erase to end", "downloading\r\x1b[Kdone", "done", true},
		{"erase whole line", "downloading\r\x1b[2Kok", "ok", true},
		{"column move", "abcdef\r\x1b[3GX", "abXdef", true},
		{"cursor forward", "abcdef\r\x1b[2CX", "abXdef", true},
		{"narrow over wide", "漢字\rx", "x 字", true},
		{"wide over narrow", "ab\rx漢", "x漢", true},
		{"wide over half of wide", "a漢\r字", "字 ", true},
		{"tab advances without erasing", "abcdefgh\r\tX", "abcdXfgh", true},
		{"colour stays with cells", "\x1b[31mred\x1b[0m\rX", "X\x1b[0;31med\x1b[0m", true},
		{"colour of the overwrite", "abc\r\x1b[1;32mX\x1b[0m", "\x1b[0;1;32mX\x1b[0mbc", true},
		{"other sequence kept at its column", "abc\r\x1b]0;t\x07X", "\x1b]0;t\x07Xbc", true},
		{"combining mark joins its cell", "e\u0301x\rE", "Ex", true},
		{"hostile column count bounded", "a\r\x1b[99999999GX", "a", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, over := Overstrike(tt.in)
			if tt.name == "hostile column count bounded" {
				if len(got) > 1<<17 || !strings.HasPrefix(got, "a") {
					t.Fatalf("Overstrike(%q) gave %d bytes", tt.in, len(got))
				}
				return
			}
			if got != tt.want || over != tt.over {
				t.Errorf("Overstrike(%q) = %q, %v; want %q, %v", tt.in, got, over, tt.want, tt.over)
			}
		})
	}
}

// TestSanitizeProperty feeds random byte strings drawn mostly from the
// bytes that matter to a terminal and checks the safety invariants.
func TestSanitizeProperty(t *testing.T) {
	alphabet := []string{"\x1b", "[", "]", "P", "_", "^", "X", "\\", "\x07", "\x9b", "\x9c", "\x9d",
		"\xc2\x9b", "\xc2\x9d", "\r", "\n", "\t", "\x00", "\x7f", "m", ";", "2", "3", "8", "5",
		"a", "漢", "\u202E", "\u200B", "\xff", "\xe4\xb8", "\U000E0041", "\xed\xa0\x80"}
	cfg := &quick.Config{MaxCount: 3000, Rand: rand.New(rand.NewSource(1))}
	prop := func(picks []uint8) bool {
		var b strings.Builder
		for _, p := range picks {
			b.WriteString(alphabet[int(p)%len(alphabet)])
		}
		checkAll(t, b.String())
		return !t.Failed()
	}
	if err := quick.Check(prop, cfg); err != nil {
		t.Error(err)
	}
	// Plain random bytes too.
	if err := quick.Check(func(b []byte) bool { checkAll(t, string(b)); return !t.Failed() }, cfg); err != nil {
		t.Error(err)
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{
		"", "plain", "\x1b[2J", "\x1b]0;t\x07", "\x1b]8;;u\x1b\\x", "\x1bPq\x1b\\", "\x9b31m",
		"\u009b2J", "\u202Eabc", "\xff\xfe", "a\rb\x1b[K", "\x1b[38;2;1;2;3;48;5;9mx", "漢字\r🙂",
		"\x1b[38:2::1:2:3m", "\x1b", "\x1b[", "\x1b]", "\t\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkAll(t, s)
	})
}

// checkAll checks every entry point that turns untrusted text into
// drawable text.
func checkAll(t *testing.T, s string) {
	t.Helper()
	got := Sanitize(s)
	checkSafe(t, got)
	if Sanitize(got) != got {
		t.Errorf("Sanitize not idempotent on %q", s)
	}
	if j := joinSegments(SanitizeSegments(s)); j != got {
		t.Errorf("segments %q differ from Sanitize %q for %q", j, got, s)
	}
	c, h, i := Report(s)
	if (c+h+i == 0) != (got == s) {
		t.Errorf("Report(%q) = %d,%d,%d but Sanitize changed=%v", s, c, h, i, got != s)
	}
	for _, seg := range TranslateSGR(s) {
		checkSafe(t, seg.Text)
	}
	shown, _ := Overstrike(s)
	for _, seg := range TranslateSGR(shown) {
		checkSafe(t, seg.Text)
	}
	checkOnlySGR(t, KeepSGR(s))
	checkSafe(t, ExpandTabs(got, 4))
}

// checkSafe fails unless s is valid UTF-8 with no ESC, no C0 but tab and
// newline, no DEL, no C1 and no hidden character.
func checkSafe(t *testing.T, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("not valid UTF-8: %q", s)
	}
	for _, r := range s {
		switch {
		case r == 0x1b:
			t.Fatalf("ESC in %q", s)
		case r < 0x20 && r != '\t' && r != '\n':
			t.Fatalf("C0 %#x in %q", r, s)
		case r == 0x7f:
			t.Fatalf("DEL in %q", s)
		case r >= 0x80 && r <= 0x9f:
			t.Fatalf("C1 %#x in %q", r, s)
		case isHidden(r):
			t.Fatalf("hidden %U in %q", r, s)
		}
	}
}

// checkOnlySGR fails unless every ESC in s starts an SGR sequence and s has
// no other control but tab and newline.
func checkOnlySGR(t *testing.T, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("not valid UTF-8: %q", s)
	}
	for len(s) > 0 {
		tok, n := nextToken(s)
		if tok.kind != tokText && !tok.sgr {
			t.Fatalf("non-SGR %q in output", tok.raw)
		}
		s = s[n:]
	}
}

func joinSegments(segs []Segment) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteString(s.Text)
	}
	return b.String()
}

// hostileLines are lines built to cause quadratic work in the sanitiser.
func hostileLines() map[string]string {
	return map[string]string{
		"escs":          strings.Repeat("\x1b", 1<<20),
		"csis":          strings.Repeat("\x1b[2J", 1<<18),
		"colour flips":  strings.Repeat("\x1b[31ma\x1b[32mb", 1<<17),
		"erase storm":   "x\x1b[4000C" + strings.Repeat("\r\x1b[4000C\x1b[1K", 1<<15),
		"pending storm": strings.Repeat("\r\x1b[A", 1<<17) + "x",
		"pre storm":     strings.Repeat("\rX\x1b[A", 1<<17),
		"mark storm":    "ab" + strings.Repeat("\r\x1b[1C\u0301", 1<<16),
	}
}

// TestHostileLinesStayCheap draws each hostile line through every path. A
// quadratic regression on these megabyte lines takes hours, so it fails by
// the test binary's timeout rather than by a wall-clock bound that a loaded
// machine could miss; BenchmarkHostileLines gives the figure.
func TestHostileLinesStayCheap(t *testing.T) {
	for name, in := range hostileLines() {
		t.Run(name, func(t *testing.T) { checkAll(t, in) })
	}
}

func BenchmarkHostileLines(b *testing.B) {
	for name, in := range hostileLines() {
		b.Run(strings.ReplaceAll(name, " ", "-"), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				SanitizeSegments(in)
				TranslateSGR(in)
			}
		})
	}
}

// The screen marks exactly the characters of packet's hidden table: each
// one as its ⟦U+XXXX⟧ marker, of kind Hidden, and counted by Report.
func TestSanitizeMarksTheHiddenTable(t *testing.T) {
	for _, r := range hidden.Runes() {
		in := "a" + string(r) + "b"
		want := "a⟦" + strings.Trim(hidden.Escape(string(r)), "<>") + "⟧b"
		if got := Sanitize(in); got != want {
			t.Errorf("Sanitize(%U) = %q, want %q", r, got, want)
		}
		if _, hidden, _ := Report(in); hidden != 1 {
			t.Errorf("Report(%U) counts %d hidden", r, hidden)
		}
		segs := SanitizeSegments(in)
		if len(segs) != 3 || segs[1].Kind != Hidden {
			t.Errorf("SanitizeSegments(%U) = %v", r, segs)
		}
	}
	// Just outside the table is plain text.
	for _, r := range []rune{0x2065, 0x206A, 0xFE0F, 0xE0080} {
		if s := string(r); Sanitize(s) != s {
			t.Errorf("Sanitize(%U) = %q, want it kept", r, Sanitize(s))
		}
	}
}
