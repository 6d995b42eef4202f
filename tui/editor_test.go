package tui

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/tui/internal/screentest"

	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

// The editor's command line: read-only flags where the editor has them,
// the line, and the packet's path as one argument, never through a shell.
func TestEditorCommand(t *testing.T) {
	path := "/p/validation/logs/$(touch pwned) ;x.log"
	for _, c := range []struct {
		editor string
		want   []string
	}{
		{"", []string{"less", "+40", path}},
		{"vim", []string{"vim", "-R", "+40", path}},
		{"/usr/bin/nvim", []string{"/usr/bin/nvim", "-R", "+40", path}},
		{"nano", []string{"nano", "-v", "+40", path}},
		{"less -S", []string{"less", "-S", "+40", path}},
		{"code --wait", []string{"code", "--wait", "--goto", path + ":40"}},
		{"ed", []string{"ed", path}},
	} {
		cmd := editorCommand(c.editor, path, 40)
		if !reflect.DeepEqual(cmd.Args, c.want) {
			t.Errorf("%q: args %q, want %q", c.editor, cmd.Args, c.want)
		}
	}
}

// v opens only a file of a folder packet, inside it.
func TestEditorPacketFile(t *testing.T) {
	dir := sampleCopy(t, "p")
	p := loadCopy(t, dir)
	defer p.Close()
	got, err := packetFile(p, packet.ReviewFile)
	if err != nil || !filepath.IsAbs(got) || filepath.Base(got) != packet.ReviewFile {
		t.Fatalf("review.md: %q, %v", got, err)
	}
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"../secret", "link.md"} {
		if _, err := packetFile(p, rel); err == nil || !strings.Contains(err.Error(), "opening "+rel) {
			t.Errorf("%s: %v, want a refusal naming it", rel, err)
		}
	}
	sample := packet.LoadSample(packet.Options{})
	if _, err := packetFile(sample, packet.ReviewFile); err == nil {
		t.Error("the embedded sample has a file to open")
	}
}

// On the walk, v opens change.diff at the line that holds the finding's
// cited line; the command is an ExecProcess, not a message.
func TestEditorFromWalk(t *testing.T) { screentest.InBubble(t, testEditorFromWalk) }

func testEditorFromWalk(t *testing.T) {
	r, _ := newWalkRoot(t, false)
	pressKeys(r, "space")
	rel, line := r.editTarget()
	if rel != packet.DiffPath {
		t.Fatalf("walk: v opens %q", rel)
	}
	raw, err := os.ReadFile(filepath.Join(r.ctx.Packet.Path, packet.DiffPath))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	want := "+\t\t\tif ra, ok := retryAfter(se.RetryAfter); ok && ra > wait {"
	if line < 1 || line > len(lines) || lines[line-1] != want {
		t.Fatalf("change.diff:%d is %q, want the cited line 97", line, lines[max(min(line, len(lines)), 1)-1])
	}
	t.Setenv("VISUAL", "vim")
	_, cmd := r.Update(screentest.KeyMsg("v"))
	if cmd == nil {
		t.Fatal("v returns no command")
	}
	if _, isStatus := cmd().(common.StatusMsg); isStatus {
		t.Error("v on the walk says there is nothing to open")
	}
	var _ tea.Cmd = cmd
}
