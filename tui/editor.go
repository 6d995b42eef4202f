package tui

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/packet/source"
	"github.com/vetter-dev/vetter/report"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/tui/screens/walk"
)

// editKey is v: the packet file the selection cites, opened at its line in
// $VISUAL or $EDITOR (less when neither is set), read-only where the editor
// has a flag for it; vetter comes back when the editor exits.
func (r *Workbench) editKey() tea.Cmd {
	rel, line := r.editTarget()
	if rel == "" {
		return func() tea.Msg { return common.StatusMsg{Text: "nothing here cites a packet file to open"} }
	}
	path, err := packetFile(r.ctx.Packet, rel)
	if err != nil {
		return common.ReportError(err)
	}
	editor := os.Getenv("VISUAL")
	if strings.TrimSpace(editor) == "" {
		editor = os.Getenv("EDITOR")
	}
	cmd := editorCommand(editor, path, line)
	name := filepath.Base(cmd.Path)
	return tea.ExecProcess(cmd, func(err error) tea.Msg {
		if err != nil {
			return common.ErrorMsg{Err: fmt.Errorf("opening %s in %s: %w", rel, name, err)}
		}
		return common.StatusMsg{Text: fmt.Sprintf("back from %s (%s:%d)", name, rel, line)}
	})
}

// editTarget is the packet file and 1-based line the active screen cites:
// a log line, a document line, or for a line of the diff the line of
// change.diff that holds it. "" when there is none.
func (r *Workbench) editTarget() (string, int) {
	p := r.ctx.Packet
	here := r.screens[r.active].Here()
	switch r.active {
	case common.ScreenWalk:
		if c := r.screens[common.ScreenWalk].(*walk.Walk).Place(); c != nil {
			return citationFile(p, c)
		}
	case common.ScreenFindings:
		f := p.Finding(here.Finding)
		if f == nil {
			return "", 0
		}
		if here.Line > 0 && here.Line <= len(f.Citations) {
			return citationFile(p, &f.Citations[here.Line-1])
		}
		if c := report.DiffLocation(p, f); c != nil {
			return citationFile(p, c)
		}
		return packet.ReviewFile, f.Line
	case common.ScreenEvidence:
		if here.Path != "" && here.Line > 0 {
			return here.Path, here.Line
		}
		// A recipe's row: the line of its latest run.
		for _, row := range p.Evidence.Rows {
			if row.Recipe == here.Recipe && row.Latest != nil && row.Latest.Line > 0 {
				return packet.RegistryFile, row.Latest.Line
			}
		}
	case common.ScreenLogs, common.ScreenDocs:
		if here.Path != "" {
			return here.Path, max(here.Line, 1)
		}
	case common.ScreenDiff:
		return packet.DiffPath, changeDiffLine(p, here.File, here.Hunk, here.DiffLine)
	}
	return "", 0
}

// citationFile is where a citation is in the packet's files.
func citationFile(p *packet.Packet, c *packet.Citation) (string, int) {
	switch c.Kind {
	case packet.CiteDiff, packet.CiteDiffFile:
		return packet.DiffPath, changeDiffLine(p, c.DiffFile, c.DiffHunk, c.DiffLine)
	case packet.CitePacket, packet.CiteLog, packet.CiteRegistry:
		return c.Target, max(c.Line, 1)
	}
	return "", 0
}

// changeDiffLine is the 1-based line of change.diff that holds a diff
// line: the hunk's @@ line plus the lines before it in the hunk, each
// "\ No newline at end of file" marker included. A file alone is its
// "diff --git" line.
func changeDiffLine(p *packet.Packet, file, hunk, line int) int {
	if p.Diff == nil || file < 0 || file >= len(p.Diff.Files) {
		return 1
	}
	f := p.Diff.Files[file]
	if hunk < 0 || hunk >= len(f.Hunks) {
		return max(f.Line, 1)
	}
	h := f.Hunks[hunk]
	n := h.Line
	for i := 0; i < line && i < len(h.Lines); i++ {
		n++
		if h.Lines[i].NoNewline {
			n++
		}
	}
	if line >= 0 {
		n++
	}
	return n
}

// packetFile is the file on disk for a packet-relative path, refused when
// the packet is not a folder (an archive has no file to open) or when the
// path, symbolic links followed, leaves the packet: the packet is
// untrusted, and nothing outside it is opened.
func packetFile(p *packet.Packet, rel string) (string, error) {
	if p.Source != source.KindDir {
		return "", fmt.Errorf("opening %s: the packet is a %s, not a folder: there is no file to open", rel, p.Source)
	}
	root, err := filepath.Abs(p.Path)
	if err != nil {
		return "", fmt.Errorf("opening %s: %w", rel, err)
	}
	if root, err = filepath.EvalSymlinks(root); err != nil {
		return "", fmt.Errorf("opening %s: %w", rel, err)
	}
	full, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return "", fmt.Errorf("opening %s: %w", rel, err)
	}
	if in, err := filepath.Rel(root, full); err != nil || in == ".." || strings.HasPrefix(in, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("opening %s: it leads outside the packet (%s)", rel, full)
	}
	if fi, err := os.Stat(full); err != nil {
		return "", fmt.Errorf("opening %s: %w", rel, err)
	} else if !fi.Mode().IsRegular() {
		return "", errors.New("opening " + rel + ": not a regular file")
	}
	return full, nil
}

// editorCommand builds the editor's command line without a shell: the
// editor setting is split on spaces ("code --wait"), and the path, which
// comes from the packet, is one argument. It is absolute, so a file named
// "-c" or "+!sh" can never read as an option or a command. Editors with a
// read-only mode get it: vim -R, nano -v; less is read-only already.
func editorCommand(editor, path string, line int) *exec.Cmd {
	fields := strings.Fields(editor)
	if len(fields) == 0 {
		fields = []string{"less"}
	}
	args := append([]string(nil), fields[1:]...)
	at := "+" + strconv.Itoa(max(line, 1))
	switch strings.TrimSuffix(filepath.Base(fields[0]), ".exe") {
	case "vim", "nvim", "vi", "view", "gvim", "mvim", "vimx":
		args = append(args, "-R", at)
	case "nano":
		args = append(args, "-v", at)
	case "less", "more", "most", "emacs", "emacsclient", "kak", "micro":
		args = append(args, at)
	case "code", "codium", "subl", "zed":
		// These take the line after the path: path:line.
		return exec.Command(fields[0], append(args, "--goto", path+":"+strconv.Itoa(max(line, 1)))...)
	case "hx", "helix":
		return exec.Command(fields[0], append(args, path+":"+strconv.Itoa(max(line, 1)))...)
	}
	return exec.Command(fields[0], append(args, path)...)
}
