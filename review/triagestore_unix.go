//go:build unix

package review

import (
	"fmt"
	"os"
	"syscall"
)

// lockDir holds an exclusive advisory lock on a folder while a store reads,
// merges and replaces triage.json, so two vetters saving at the same instant
// take turns instead of one overwriting the other between read and rename.
// Locking the folder itself leaves no lock file behind in the packet.
func lockDir(dir string) (func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// syncDir flushes a folder's entries, so a rename or a new file in it
// survives a power cut, not only the file's bytes.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("syncing the folder %s: %w", dir, err)
	}
	return nil
}

// openAppend opens a log for appending without following a symbolic link,
// so a link planted in an untrusted packet cannot redirect the write.
func openAppend(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW, privateMode)
}
