package common

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// ClipPath shortens a location ("docs/guides/deploy/vllm-configuration.mdx:228")
// to w cells by dropping directories from the middle: the first directory,
// the file's name and the line number are what a vetter compares, so they
// are the last to go ("docs/…/vllm-configuration.mdx:228"). Only when the
// name and line alone do not fit is the name cut, from its start, keeping
// the line number whole.
func ClipPath(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	// The line suffix (":228", ":97-98") is never cut.
	loc, suffix := s, ""
	if i := strings.LastIndexByte(s, ':'); i > 0 && i < len(s)-1 && strings.Trim(s[i+1:], "0123456789-") == "" {
		loc, suffix = s[:i], s[i:]
	}
	parts := strings.Split(loc, "/")
	if len(parts) > 2 {
		// Keep the first directory and as many trailing parts as fit.
		for keep := len(parts) - 2; keep >= 1; keep-- {
			c := parts[0] + "/…/" + strings.Join(parts[len(parts)-keep:], "/") + suffix
			if ansi.StringWidth(c) <= w {
				return c
			}
		}
	}
	if len(parts) > 1 {
		c := "…/" + parts[len(parts)-1] + suffix
		if ansi.StringWidth(c) <= w {
			return c
		}
	}
	name := parts[len(parts)-1]
	room := w - ansi.StringWidth(suffix) - 1
	if room < 1 {
		// Not even the line fits: the line is what matters most.
		return ansi.Truncate(suffix, w, "")
	}
	return "…" + ansi.TruncateLeft(name, ansi.StringWidth(name)-room, "") + suffix
}
