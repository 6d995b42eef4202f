package report

import "testing"

// A note's "&amp;" must reach the pull request as the five characters it
// is, and "<" never as markup.
func TestMdCellEscapesAmpersandAndAngle(t *testing.T) {
	for in, want := range map[string]string{
		"use &amp; here":     "use &amp;amp; here",
		"a <b>bold</b> & co": "a &lt;b>bold&lt;/b> &amp; co",
		"x | y":              `x \| y`,
	} {
		if got := MdCell(in); got != want {
			t.Errorf("mdCell(%q) = %q, want %q", in, got, want)
		}
	}
}
