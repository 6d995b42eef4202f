package attention

import (
	"testing"

	"github.com/vetter-dev/vetter/attention/rules"
)

// The decision screen's attention items name the classes a line hides; a
// byte-order mark opening a file and a joiner inside an emoji stay quiet.
func TestHiddenInLineNamesClasses(t *testing.T) {
	for _, tt := range []struct {
		line     string
		first    bool
		id, want string
	}{
		{"x := \"\u202E\"", false, "hidden-bidi", ""},
		// In a comment a hidden character is medium; a run of tag
		// characters spells text, and inside code it can carry a payload.
		{"// x" + "\U000E0061", false, "hidden-text", "tag characters hidden in the line"},
		{"// " + "\U000E0061\U000E0070", false, "hidden-instructions", "tag characters spell text nobody sees in the line"},
		{"a\u2062b\u200Bc", false, "hidden-payload", "zero-width characters and invisible operators hidden inside code"},
		{"s := 'x\uFE01\uFE02'", false, "hidden-payload", "variation selectors hidden inside code"},
		// A run of private-use characters is named, alone or beside another
		// kind: the title once dropped the name and read " hidden inside code".
		{"const s = '\uE001\uE002\uE003\uE004'", false, "hidden-payload", "private-use characters hidden inside code"},
		{"const s = '\uE001\uE002\uE003\uE004\uFE01\uFE02'", false, "hidden-payload", "private-use characters and variation selectors hidden inside code"},
		{"\uFEFFpackage x", true, "", ""},
		{"👩\u200D💻", false, "", ""},
		{"ok := \"👍\uFE0F\"", false, "", ""},
	} {
		id, title, ok := rules.HiddenInLine(tt.line, tt.first, false)
		if id != tt.id || title != tt.want || ok != (tt.id != "") {
			t.Errorf("rules.HiddenInLine(%q) = %q, %q, %v; want %q, %q", tt.line, id, title, ok, tt.id, tt.want)
		}
	}
}
