package commitid

import "testing"

// The cases the three former copies disagreed on are marked: one treated two
// empty SHAs as the same commit, one did not trim spaces.
func TestSame(t *testing.T) {
	const full = "0123456789abcdef0123456789abcdef01234567"
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{full, full, true},
		{full, full[:7], true},
		{full[:7], full, true},
		{full[:12], full[:7], true},
		{full, full[:6], false},          // too short to compare by prefix
		{full[:6], full[:6], true},       // but equal is equal
		{full, "0123456789ABCDEF", true}, // case
		{"", "", false},                  // disagreed: unknown is never the same
		{" ", "", false},                 // disagreed
		{"", full, false},
		{"  " + full + "\n", full[:7], true}, // disagreed: padding
		{full, "1123456", false},
		{"0123456x", "0123456y", false},
	} {
		if got := Same(c.a, c.b); got != c.want {
			t.Errorf("Same(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := Same(c.b, c.a); got != c.want {
			t.Errorf("Same(%q, %q) = %v, want %v (not symmetric)", c.b, c.a, got, c.want)
		}
	}
}

func TestShort(t *testing.T) {
	const full = "0123456789abcdef0123456789abcdef01234567"
	for _, c := range []struct{ in, short, long string }{
		{full, "0123456", "0123456789ab"},
		{"", "", ""},
		{"abc", "abc", "abc"},
		{full[:7], full[:7], full[:7]},
		{full[:12], full[:7], full[:12]},
	} {
		if got := Short(c.in); got != c.short {
			t.Errorf("Short(%q) = %q, want %q", c.in, got, c.short)
		}
		if got := Long(c.in); got != c.long {
			t.Errorf("Long(%q) = %q, want %q", c.in, got, c.long)
		}
	}
}

func TestValid(t *testing.T) {
	for s, want := range map[string]bool{
		"0123456": true, "012345": false, "ABCDEF0": true, "0123456g": false,
		"": false, " 0123456": false,
	} {
		if Valid(s) != want {
			t.Errorf("Valid(%q) = %v", s, !want)
		}
	}
}
