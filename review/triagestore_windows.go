//go:build windows

package review

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// lockFile is the file lockDir locks on Windows, in the store's folder
// (under the state directory, never in a packet).
const lockFile = ".vetter-lock"

// lockDir holds an exclusive lock while a store reads, merges and replaces
// triage.json, as flock on the folder does on Unix. Windows cannot lock a
// directory handle, so the lock is a byte range of a file in the folder;
// LockFileEx without LOCKFILE_FAIL_IMMEDIATELY waits for the other vetter's
// turn, and the lock goes when the holder's handle closes, even if it is
// killed.
func lockDir(dir string) (func(), error) {
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR|os.O_CREATE, privateMode)
	if err != nil {
		return nil, err
	}
	h := windows.Handle(f.Fd())
	var whole windows.Overlapped
	if err := windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &whole); err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	return func() {
		windows.UnlockFileEx(h, 0, 1, 0, &whole)
		f.Close()
	}, nil
}

// openAppend opens a log for appending, refusing a symbolic link (Windows
// has no O_NOFOLLOW; the check and the open are not one step, but the
// store's folder is the reviewer's own, under the lock).
func openAppend(name string) (*os.File, error) {
	if fi, err := os.Lstat(name); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s is a symbolic link; vetter will not append to it", name)
	}
	return os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, privateMode)
}

// syncDir does nothing on Windows, where a folder cannot be opened to be
// synced; NTFS journals its renames itself.
func syncDir(dir string) error { return nil }
