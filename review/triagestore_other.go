//go:build !unix && !windows

package review

import (
	"fmt"
	"os"
)

// lockDir is a no-op where flock is unavailable: the reread-and-merge before
// each save still keeps another writer's decisions, only the instant between
// reading and renaming is unguarded.
func lockDir(dir string) (func(), error) { return func() {}, nil }

// syncDir does nothing where a folder cannot be synced portably.
func syncDir(dir string) error { return nil }

// openAppend opens a log for appending, refusing a symbolic link.
func openAppend(name string) (*os.File, error) {
	if fi, err := os.Lstat(name); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s is a symbolic link; vetter will not append to it", name)
	}
	return os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, privateMode)
}
