package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// ColorKind says how an SGRColor is given.
type ColorKind uint8

const (
	// ColorDefault is the terminal's default colour (SGR 39 / 49).
	ColorDefault ColorKind = iota
	// ColorIndex is one of the 256 indexed colours; 0-15 are the terminal's
	// own palette (SGR 30-37, 90-97 and 38;5;n).
	ColorIndex
	// ColorRGB is a 24-bit colour (SGR 38;2;r;g;b).
	ColorRGB
)

// SGRColor is a colour a log asked for. The pane maps it onto vetter's
// styles; the log's bytes never reach the terminal.
type SGRColor struct {
	Kind    ColorKind
	Index   uint8
	R, G, B uint8
}

// Attr is the subset of SGR state vetter honours. Blink, reverse, conceal
// and the rest are dropped: they only make a log harder to read, and conceal
// would hide text from the reviewer.
type Attr struct {
	Fg, Bg    SGRColor
	Bold      bool
	Underline bool
}

// StyledSegment is sanitised text with the log's attributes at that point.
type StyledSegment struct {
	Segment
	Attr Attr
}

// TranslateSGR sanitises s like SanitizeSegments, and interprets its SGR
// sequences (ESC [ ... m) into attributes instead of showing them. Every
// other sequence is neutralised as a Control segment. Text whose foreground
// and background are the same or nearly so loses its background, so colour
// cannot hide it.
func TranslateSGR(s string) []StyledSegment {
	var (
		segs []StyledSegment
		attr Attr
		cur  strings.Builder
		run  = StyledSegment{} // kind and attributes of the run in cur
	)
	flush := func() {
		if cur.Len() > 0 {
			run.Text = cur.String()
			segs = append(segs, run)
			cur.Reset()
		}
	}
	for len(s) > 0 {
		t, n := nextToken(s)
		s = s[n:]
		if t.sgr {
			attr = applySGR(attr, t.raw[2:len(t.raw)-1])
			continue
		}
		k, a := t.segKind(), attr.visible()
		if k != run.Kind || a != run.Attr {
			flush()
			run = StyledSegment{Segment: Segment{Kind: k}, Attr: a}
		}
		if t.kind == tokText {
			cur.WriteString(t.raw)
		} else {
			writeVisible(&cur, t.raw)
		}
	}
	flush()
	return segs
}

// visible drops a background that would make the text unreadable.
func (a Attr) visible() Attr {
	if a.Fg.Kind != ColorDefault && a.Bg.Kind != ColorDefault && nearColor(a.Fg, a.Bg) {
		a.Bg = SGRColor{}
	}
	return a
}

// nearColor reports whether two colours are too close to read one on the
// other, comparing the xterm default palette for indexed colours.
func nearColor(a, b SGRColor) bool {
	ar, ag, ab := a.rgb()
	br, bg, bb := b.rgb()
	d := sq(ar-br) + sq(ag-bg) + sq(ab-bb)
	return d < 3*40*40
}

func sq(x int) int { return x * x }

func (c SGRColor) rgb() (r, g, b int) {
	if c.Kind == ColorRGB {
		return int(c.R), int(c.G), int(c.B)
	}
	r32, g32, b32, _ := ansi.IndexedColor(c.Index).RGBA()
	return int(r32 >> 8), int(g32 >> 8), int(b32 >> 8)
}

func indexColor(i int) SGRColor { return SGRColor{Kind: ColorIndex, Index: uint8(i)} }

// applySGR returns a after the SGR parameters p (the bytes between ESC [ and
// m). Both the ; and the : forms of extended colours are understood;
// malformed or unknown parameters are ignored.
func applySGR(a Attr, p string) Attr {
	fields := strings.Split(p, ";")
	for k := 0; k < len(fields); k++ {
		sub := strings.Split(fields[k], ":")
		code := sgrNumber(sub[0])
		switch {
		case code == 0:
			a = Attr{}
		case code == 1:
			a.Bold = true
		case code == 22:
			a.Bold = false
		case code == 4:
			a.Underline = len(sub) < 2 || sgrNumber(sub[1]) != 0
		case code == 24:
			a.Underline = false
		case code >= 30 && code <= 37:
			a.Fg = indexColor(code - 30)
		case code >= 90 && code <= 97:
			a.Fg = indexColor(code - 90 + 8)
		case code == 39:
			a.Fg = SGRColor{}
		case code >= 40 && code <= 47:
			a.Bg = indexColor(code - 40)
		case code >= 100 && code <= 107:
			a.Bg = indexColor(code - 100 + 8)
		case code == 49:
			a.Bg = SGRColor{}
		case code == 38 || code == 48:
			var c SGRColor
			var ok bool
			if len(sub) > 1 {
				c, ok = extendedColor(sub[1:], true)
			} else {
				var used int
				c, ok, used = extendedColorFields(fields[k+1:])
				k += used
			}
			if !ok {
				continue
			}
			if code == 38 {
				a.Fg = c
			} else {
				a.Bg = c
			}
		}
	}
	return a
}

// extendedColorFields reads 5;n or 2;r;g;b from the fields after 38 or 48
// and says how many it used.
func extendedColorFields(f []string) (SGRColor, bool, int) {
	if len(f) == 0 {
		return SGRColor{}, false, 0
	}
	switch sgrNumber(f[0]) {
	case 5:
		if len(f) < 2 {
			return SGRColor{}, false, len(f)
		}
		c, ok := extendedColor(f[:2], false)
		return c, ok, 2
	case 2:
		if len(f) < 4 {
			return SGRColor{}, false, len(f)
		}
		c, ok := extendedColor(f[:4], false)
		return c, ok, 4
	}
	return SGRColor{}, false, 1
}

// extendedColor reads 5 n or 2 [colourspace] r g b. The colon form may carry
// a colour-space id before the components.
func extendedColor(f []string, colon bool) (SGRColor, bool) {
	switch sgrNumber(f[0]) {
	case 5:
		if len(f) < 2 {
			return SGRColor{}, false
		}
		n := sgrNumber(f[1])
		if n < 0 || n > 255 {
			return SGRColor{}, false
		}
		return indexColor(n), true
	case 2:
		comp := f[1:]
		if colon && len(comp) >= 4 {
			comp = comp[1:]
		}
		if len(comp) < 3 {
			return SGRColor{}, false
		}
		var v [3]uint8
		for i := range v {
			n := sgrNumber(comp[i])
			if n < 0 || n > 255 {
				return SGRColor{}, false
			}
			v[i] = uint8(n)
		}
		return SGRColor{Kind: ColorRGB, R: v[0], G: v[1], B: v[2]}, true
	}
	return SGRColor{}, false
}

// sgrNumber parses one parameter; empty means 0 and anything unparseable or
// absurdly large is -1.
func sgrNumber(s string) int {
	if s == "" {
		return 0
	}
	if len(s) > 6 {
		return -1
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

// encodeSGR writes a as one SGR sequence that restates the whole state.
func encodeSGR(b *strings.Builder, a Attr) {
	b.WriteString("\x1b[0")
	if a.Bold {
		b.WriteString(";1")
	}
	if a.Underline {
		b.WriteString(";4")
	}
	writeColor(b, a.Fg, 30, 90, 38)
	writeColor(b, a.Bg, 40, 100, 48)
	b.WriteByte('m')
}

func writeColor(b *strings.Builder, c SGRColor, base, bright, ext int) {
	switch {
	case c.Kind == ColorIndex && c.Index < 8:
		b.WriteString(";" + strconv.Itoa(base+int(c.Index)))
	case c.Kind == ColorIndex && c.Index < 16:
		b.WriteString(";" + strconv.Itoa(bright+int(c.Index)-8))
	case c.Kind == ColorIndex:
		b.WriteString(";" + strconv.Itoa(ext) + ";5;" + strconv.Itoa(int(c.Index)))
	case c.Kind == ColorRGB:
		b.WriteString(";" + strconv.Itoa(ext) + ";2;" + strconv.Itoa(int(c.R)) + ";" +
			strconv.Itoa(int(c.G)) + ";" + strconv.Itoa(int(c.B)))
	}
}
