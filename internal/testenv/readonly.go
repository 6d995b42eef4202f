package testenv

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// chmodReadOnly takes away write permission from dir and everything in it,
// giving it back when the test ends so the folder can be removed.
func chmodReadOnly(t testing.TB, dir string) {
	t.Helper()
	type saved struct {
		path string
		mode fs.FileMode
	}
	var undo []saved
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink == 0 {
			undo = append(undo, saved{path, fi.Mode().Perm()})
		}
		return nil
	})
	for i := len(undo) - 1; i >= 0; i-- {
		os.Chmod(undo[i].path, undo[i].mode&^0o222)
	}
	t.Cleanup(func() {
		for _, s := range undo {
			os.Chmod(s.path, s.mode)
		}
	})
}
