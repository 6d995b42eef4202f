package main

import (
	"strings"
	"testing"
)

// Run by gh as the extension gh-vetter, the usage lines, the help and the
// examples say `gh vetter`, as the user types it; run as vetter, they say
// vetter.
func TestHelpAsGHExtension(t *testing.T) {
	help := func(exe string, args ...string) (string, string) {
		var out, errb strings.Builder
		f := testFactory(&out, &errb)
		f.Executable = exe
		cmd := newRootCmd(f)
		cmd.SetArgs(args)
		err := cmd.ExecuteContext(t.Context())
		if err != nil {
			return out.String(), err.Error()
		}
		return out.String(), ""
	}
	out, _ := help("gh vetter", "triage", "--help")
	for _, want := range []string{"Usage:\n  gh vetter triage PACKET [FINDING-ID...] [flags]", "\n  gh vetter triage PACKET 2 --accept", "$XDG_STATE_HOME/vetter/"} {
		if !strings.Contains(out, want) {
			t.Errorf("gh vetter triage --help lacks %q:\n%s", want, out)
		}
	}
	if out, _ := help("gh vetter", "--help"); !strings.Contains(out, "Usage:\n  gh vetter [PACKET | DIR] [flags]\n  gh vetter [command]") {
		t.Errorf("gh vetter --help:\n%s", out)
	}
	if _, err := help("gh vetter", "check"); !strings.Contains(err, "`gh vetter sample DIR` writes one") {
		t.Errorf("gh vetter check without PACKET: %q", err)
	}
	out, _ = help("vetter", "triage", "--help")
	if strings.Contains(out, "gh vetter") || !strings.Contains(out, "\n  vetter triage PACKET 2 --accept") {
		t.Errorf("vetter triage --help:\n%s", out)
	}
}
