package attention

// Repository plumbing that is not a line of code: binary files nobody can
// read in the diff, and symbolic links, whose one "line" is where they point.

import (
	"github.com/vetter-dev/vetter/attention/rules"
	"github.com/vetter-dev/vetter/packet"

	"path"
	"strings"
)

// appendPlumbing adds the whole-file items of binaries and symlinks.
func appendPlumbing(out []Item, fs *fileScan) []Item {
	f := fs.f
	if f.Status == packet.StatusDeleted {
		return out
	}
	if f.Binary {
		if b := rules.RunnableBinary(f.Path()); b != "" {
			it := fs.fileItem("binary-executable")
			it.Title = b + " " + rules.StatusVerb(f)
			return append(out, it)
		}
		it := fs.fileItem("binary-file")
		it.Title = "binary file " + rules.StatusVerb(f)
		return append(out, it)
	}
	if f.NewMode != "120000" || f.OldMode == "120000" {
		return out
	}
	target := symlinkTarget(f)
	it := fs.fileItem("symlink")
	if symlinkEscapes(f.Path(), target) {
		it = fs.fileItem("symlink-escape")
		it.Title = "symbolic link points outside the repository (" + target + ")"
		it.Why = "a build or test that reads or uploads the file reads the runner's own " + target + " instead"
	}
	return append(out, it)
}

// symlinkTarget is the one added line of a symlink's diff: where it points.
func symlinkTarget(f *packet.DiffFile) string {
	for _, h := range f.Hunks {
		if h == nil {
			continue
		}
		for _, l := range h.Lines {
			if l.Kind == packet.LineAdded {
				return l.Text
			}
		}
	}
	return ""
}

// symlinkEscapes reports a target outside the repository: absolute, in the
// home folder, or climbing above the root.
func symlinkEscapes(link, target string) bool {
	if target == "" {
		return false
	}
	if strings.HasPrefix(target, "/") || strings.HasPrefix(target, "~") || strings.HasPrefix(target, "$") ||
		(len(target) > 1 && target[1] == ':') {
		return true
	}
	return strings.HasPrefix(path.Clean(path.Join(path.Dir(link), target)), "..")
}
