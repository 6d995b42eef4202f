package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Soft wrap breaks between words, so words read whole; only a word longer than the
// row is cut inside.
func TestWrapRowsBetweenWords(t *testing.T) {
	line := "The disposition is right about the cause and understates the cost of waiving it."
	rows := wrapRows(line, 20)
	words := map[string]bool{}
	for _, w := range strings.Fields(line) {
		words[w] = true
	}
	for _, r := range rows {
		if ansi.StringWidth(r) > 20 {
			t.Errorf("row %q is wider than 20", r)
		}
		for _, w := range strings.Fields(ansi.Strip(r)) {
			if !words[w] {
				t.Errorf("row %q cuts a word (%q)", r, w)
			}
		}
	}
	long := strings.Repeat("x", 45)
	if rows := wrapRows(long, 20); len(rows) != 3 {
		t.Errorf("a 45-cell word in rows of 20: %q", rows)
	}
	styled := "\x1b[31m" + line + "\x1b[m"
	for _, r := range wrapRows(styled, 20) {
		if !strings.HasSuffix(r, "\x1b[m") {
			t.Errorf("styled row %q does not close its style", r)
		}
	}
}
