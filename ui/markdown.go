package ui

import (
	"fmt"
	"hash/fnv"
	"strings"
	"sync"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/styles"
)

// MaxRenderBytes is the longest document MarkdownCache renders.
const MaxRenderBytes = 1 << 20

// MarkdownCache renders packet documents with Glamour and keeps the
// results, keyed by document, width, background and the text itself, so a
// view re-renders only when one of them changes. It is safe for concurrent
// use: rendering belongs in a tea.Cmd, and a Glamour renderer is not safe to
// share, so each (width, style) has its own behind a lock.
type MarkdownCache struct {
	mu        sync.Mutex // guards everything below
	dark      bool
	noColor   bool
	renderers map[rendererKey]*lockedRenderer
	docs      *lru[mdKey, string]
}

type rendererKey struct {
	width int
	style string
}

type lockedRenderer struct {
	mu sync.Mutex
	tr *glamour.TermRenderer
}

type mdKey struct {
	doc   string
	width int
	dark  bool
	sum   uint64 // the text, so a reloaded document under the same key is re-rendered
}

// NewMarkdownCache returns a cache for a dark or light background; noColor
// renders without colour. capacity bounds the number of rendered documents
// kept (64 when <= 0).
func NewMarkdownCache(dark, noColor bool, capacity int) *MarkdownCache {
	if capacity <= 0 {
		capacity = 64
	}
	return &MarkdownCache{dark: dark, noColor: noColor,
		renderers: make(map[rendererKey]*lockedRenderer), docs: newLRU[mdKey, string](capacity)}
}

// SetDark switches the background the next renders are for.
func (c *MarkdownCache) SetDark(dark bool) {
	c.mu.Lock()
	c.dark = dark
	c.mu.Unlock()
}

// Render returns document key's text rendered at width. The text is
// sanitised before Glamour sees it, so no byte of the packet can reach the
// terminal as a sequence, and Glamour's output keeps only its SGR colours:
// its OSC 8 hyperlinks are dropped, because a packet must not plant a
// clickable link whose target differs from what is shown.
//
// A document longer than MaxRenderBytes is not rendered: Glamour takes
// about three seconds and a hundred times the document's size in memory per
// mebibyte, so a packet's 64 MiB document would exhaust the machine. The
// error says so; the screen keeps showing the source.
func (c *MarkdownCache) Render(key, text string, width int) (string, error) {
	if len(text) > MaxRenderBytes {
		return "", fmt.Errorf("%s is %d KiB, more than the %d KiB vetter renders as markdown; showing its source", Sanitize(key), len(text)>>10, MaxRenderBytes>>10)
	}
	width = max(width, 10)
	text = strings.ReplaceAll(text, "\r\n", "\n")
	h := fnv.New64a()
	_, _ = h.Write([]byte(text))

	c.mu.Lock()
	k := mdKey{doc: key, width: width, dark: c.dark, sum: h.Sum64()}
	if out, ok := c.docs.get(k); ok {
		c.mu.Unlock()
		return out, nil
	}
	r, err := c.renderer(width)
	c.mu.Unlock()
	if err != nil {
		return "", err
	}

	r.mu.Lock()
	// Glamour registers its code-block style in chroma's global registry on
	// its first render; NewHighlighter reads that registry.
	chromaRegistry.Lock()
	out, err := r.tr.Render(Sanitize(text))
	chromaRegistry.Unlock()
	r.mu.Unlock()
	if err != nil {
		return "", fmt.Errorf("rendering %s as markdown: %w", Sanitize(key), err)
	}
	out = KeepSGR(out)

	c.mu.Lock()
	c.docs.put(k, out)
	c.mu.Unlock()
	return out, nil
}

// renderer returns the renderer for width in the current style; c.mu is
// held.
func (c *MarkdownCache) renderer(width int) (*lockedRenderer, error) {
	name, cfg := styles.LightStyle, styles.LightStyleConfig
	switch {
	case c.noColor:
		name, cfg = styles.NoTTYStyle, styles.NoTTYStyleConfig
	case c.dark:
		name, cfg = styles.DarkStyle, styles.DarkStyleConfig
	}
	rk := rendererKey{width: width, style: name}
	if r, ok := c.renderers[rk]; ok {
		return r, nil
	}
	tr, err := glamour.NewTermRenderer(
		glamour.WithStyles(cfg),
		glamour.WithWordWrap(width),
	)
	if err != nil {
		return nil, fmt.Errorf("making a markdown renderer %d wide: %w", width, err)
	}
	r := &lockedRenderer{tr: tr}
	c.renderers[rk] = r
	return r, nil
}
