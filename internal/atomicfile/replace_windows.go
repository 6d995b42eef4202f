//go:build windows

package atomicfile

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// replace moves tmp over path with MoveFileEx. MOVEFILE_REPLACE_EXISTING
// makes it a replacement of the target in one step on the same volume
// (the temporary file is beside the target, so it is), and
// MOVEFILE_WRITE_THROUGH returns only once the move is on the disk: the
// counterpart of syncing the directory after a rename on Unix. Windows has
// no directory handle to sync.
//
// A file another process holds open without FILE_SHARE_DELETE (another
// vetter reading the same triage.json, a virus scanner) refuses to be
// replaced for as long as it is open; such reads are short, so the move is
// tried again for about a second before the error is returned.
func replace(tmp, path string) error {
	from, err := windows.UTF16PtrFromString(tmp)
	if err != nil {
		return err
	}
	to, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return err
	}
	wait := 5 * time.Millisecond
	for attempt := 0; ; attempt++ {
		err = windows.MoveFileEx(from, to, windows.MOVEFILE_REPLACE_EXISTING|windows.MOVEFILE_WRITE_THROUGH)
		if err == nil {
			return nil
		}
		busy := errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION)
		if !busy || attempt == 8 {
			return &os.LinkError{Op: "replace", Old: tmp, New: path, Err: err}
		}
		time.Sleep(wait)
		wait *= 2
	}
}
