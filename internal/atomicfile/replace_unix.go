//go:build !windows

package atomicfile

import (
	"os"
	"path/filepath"
)

// replace renames tmp over path, which POSIX makes atomic, and then syncs
// the directory: the rename is an entry in it, and until the directory is
// on the disk a crash can bring the old entry back.
func replace(tmp, path string) error {
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
