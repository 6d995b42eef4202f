package packet

// Repository plumbing that is not a line of code: binary files nobody can
// read in the diff, and symbolic links, whose one "line" is where they point.

import (
	"path"
	"strings"
)

// appendPlumbing adds the whole-file items of binaries and symlinks.
func appendPlumbing(out []Attention, f *DiffFile, fi int) []Attention {
	if f.Status == StatusDeleted {
		return out
	}
	if f.Binary {
		if b := runnableBinary(f.Path()); b != "" {
			it := fileItem(f, fi, AttentionBuildFile, AttentionHigh, b+" "+statusVerb(f))
			it.Rule, it.Why = "binary-executable", "a program or library nobody can read in the diff, which the build or tests can load and run"
			return append(out, it)
		}
		it := fileItem(f, fi, AttentionBuildFile, AttentionMedium, "binary file "+statusVerb(f))
		it.Rule, it.Why = "binary-file", "its content cannot be read in the diff; check what reads it"
		return append(out, it)
	}
	if f.NewMode != "120000" || f.OldMode == "120000" {
		return out
	}
	target := symlinkTarget(f)
	it := fileItem(f, fi, AttentionBuildFile, AttentionMedium, "symbolic link added")
	it.Rule, it.Why = "symlink", "a tool that follows it reads or writes where it points, not the file it seems to be"
	if symlinkEscapes(f.Path(), target) {
		it.Severity, it.Title = AttentionHigh, "symbolic link points outside the repository ("+target+")"
		it.Why = "a build or test that reads or uploads the file reads the runner's own " + target + " instead"
	}
	return append(out, it)
}

// symlinkTarget is the one added line of a symlink's diff: where it points.
func symlinkTarget(f *DiffFile) string {
	for _, h := range f.Hunks {
		if h == nil {
			continue
		}
		for _, l := range h.Lines {
			if l.Kind == LineAdded {
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
