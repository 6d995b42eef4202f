package ui

import (
	"image/color"
	"path"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	chromastyles "github.com/alecthomas/chroma/v2/styles"
	"github.com/charmbracelet/x/ansi"
)

// Highlighter colours single lines of source by file name with Chroma. A
// line is tokenised on its own, without the lines around it: a multi-line
// string may be coloured wrongly, which is the price of drawing only what is
// on screen. Results are cached by (file, text). It is safe for concurrent
// use.
type Highlighter struct {
	st *Styles

	mu    sync.Mutex // guards the maps and the cache
	style *chroma.Style
	text  chroma.Colour // the style's plain-text colour, left to the terminal
	sgr   map[chroma.TokenType]string
	cache *lru[hlKey, string]
}

// maxHighlightBytes is the longest line worth tokenising.
const maxHighlightBytes = 4096

type hlKey struct{ file, text string }

// chromaRegistry guards chroma's global style registry, which glamour
// writes while rendering (it registers its code-block style) and
// NewHighlighter's lookup reads.
var chromaRegistry sync.Mutex

// NewHighlighter returns a highlighter matching st's background; under
// NoColor it only sanitises.
func NewHighlighter(st *Styles) *Highlighter {
	name := "github"
	if st.Dark {
		name = "github-dark"
	}
	chromaRegistry.Lock()
	s := chromastyles.Get(name)
	chromaRegistry.Unlock()
	return &Highlighter{
		st:    st,
		style: s,
		text:  s.Get(chroma.Text).Colour,
		sgr:   make(map[chroma.TokenType]string),
		cache: newLRU[hlKey, string](4096),
	}
}

// Line returns text (one line of file, untrusted) sanitised, tabs expanded
// to 4-column stops, and coloured. A line holding neutralised controls or
// hidden characters is not coloured, so its placeholders stand out.
func (h *Highlighter) Line(file, text string) string {
	if len(text) > maxHighlightBytes {
		// A minified or generated line: colouring it costs more than it helps.
		return h.st.RenderSGR(plainSegments(SanitizeSegments(text)))
	}
	k := hlKey{file: file, text: text}
	h.mu.Lock()
	if out, ok := h.cache.get(k); ok {
		h.mu.Unlock()
		return out
	}
	h.mu.Unlock()

	out := h.render(file, text)

	h.mu.Lock()
	h.cache.put(k, out)
	h.mu.Unlock()
	return out
}

// Quick returns what Line would when that is cheap — the line is cached,
// too long to colour, not plain text, under NoColor, or of a file known to
// have no lexer — and done true. Otherwise it returns the line sanitised,
// tabs expanded and uncoloured (the same text and width Line will give) and
// done false: a screen can draw that at once and colour it when Line has run
// in the background. Tokenising is what makes a new screen of a diff slow.
func (h *Highlighter) Quick(file, text string) (out string, done bool) {
	if !h.Pending(file, text) {
		return h.Line(file, text), true
	}
	segs := SanitizeSegments(strings.TrimRight(text, "\n"))
	return ExpandTabs(segs[0].Text, tabWidth), false
}

// Pending reports whether Line would have to tokenise text: what Quick
// leaves for later.
func (h *Highlighter) Pending(file, text string) bool {
	if len(text) > maxHighlightBytes || h.st.NoColor {
		return false
	}
	h.mu.Lock()
	_, cached := h.cache.get(hlKey{file: file, text: text})
	h.mu.Unlock()
	v, known := lexerCache.Load(lexerKey(file))
	if cached || (known && v == nil) {
		return false
	}
	segs := SanitizeSegments(strings.TrimRight(text, "\n"))
	return len(segs) == 1 && segs[0].Kind == Plain
}

func (h *Highlighter) render(file, text string) string {
	text = strings.TrimRight(text, "\n")
	segs := SanitizeSegments(text)
	if len(segs) != 1 || segs[0].Kind != Plain {
		return h.st.RenderSGR(plainSegments(segs))
	}
	clean := ExpandTabs(segs[0].Text, tabWidth)
	if h.st.NoColor {
		return clean
	}
	lexer := h.lexer(file)
	if lexer == nil {
		return clean
	}
	it, err := lexer.Tokenise(nil, clean)
	if err != nil {
		return clean
	}
	var b strings.Builder
	b.Grow(len(clean) * 2)
	for tok := it(); tok != chroma.EOF; tok = it() {
		v := strings.TrimRight(tok.Value, "\n")
		if v == "" {
			continue
		}
		if v != tok.Value || strings.Contains(v, "\n") {
			v = strings.ReplaceAll(v, "\n", " ")
		}
		pre := h.tokenSGR(tok.Type)
		if pre == "" {
			b.WriteString(v)
			continue
		}
		b.WriteString(pre)
		b.WriteString(v)
		b.WriteString(ansi.ResetStyle)
	}
	// Lexers may rewrite whitespace; never show something other than the
	// line itself.
	if ansi.Strip(b.String()) != clean {
		return clean
	}
	return b.String()
}

// plainSegments gives sanitised segments default attributes, for RenderSGR.
func plainSegments(segs []Segment) []StyledSegment {
	out := make([]StyledSegment, len(segs))
	for i, s := range segs {
		out[i] = StyledSegment{Segment: s}
	}
	return out
}

// lexerCache holds the lexer chosen for each base name (nil: plain text),
// for every Highlighter: choosing one matches the name against the globs of
// all ~250 of chroma's lexers, milliseconds a name, and a theme change or a
// reload makes a new Highlighter for the same files. Lexers keep no state
// between calls, so one may serve them all, as chroma's own registry does.
var lexerCache sync.Map // string → chroma.Lexer or nil

// lexer returns the lexer for file's name, or nil for plain text.
func (h *Highlighter) lexer(file string) chroma.Lexer {
	base := lexerKey(file)
	if v, ok := lexerCache.Load(base); ok {
		l, _ := v.(chroma.Lexer)
		return l
	}
	l := lexers.Match(base)
	if l == nil {
		lexerCache.Store(base, nil)
		return nil
	}
	l = chroma.Coalesce(l)
	v, _ := lexerCache.LoadOrStore(base, l)
	l, _ = v.(chroma.Lexer)
	return l
}

// lexerKey is the name lexers are chosen and cached by: the base name.
func lexerKey(file string) string { return path.Base(strings.ReplaceAll(file, "\\", "/")) }

// tokenSGR is the SGR sequence that starts a token of type t ("" for plain).
func (h *Highlighter) tokenSGR(t chroma.TokenType) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s, ok := h.sgr[t]; ok {
		return s
	}
	e := h.style.Get(t)
	var s ansi.Style
	if e.Colour.IsSet() && e.Colour != h.text {
		s = s.ForegroundColor(color.RGBA{R: e.Colour.Red(), G: e.Colour.Green(), B: e.Colour.Blue(), A: 0xff})
	}
	if e.Bold == chroma.Yes {
		s = s.Bold()
	}
	if e.Italic == chroma.Yes {
		s = s.Italic(true)
	}
	if e.Underline == chroma.Yes {
		s = s.Underline(true)
	}
	out := ""
	if len(s) > 0 {
		out = s.String()
	}
	h.sgr[t] = out
	return out
}
