//go:build windows

package atomicfile

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// replace moves tmp over path with MoveFileEx and MOVEFILE_REPLACE_EXISTING,
// a replacement of the target in one step on the same volume (the temporary
// file is beside the target, so it is); like the rename on Unix, a crash may
// bring the old file back, never a mix.
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
		err = windows.MoveFileEx(from, to, windows.MOVEFILE_REPLACE_EXISTING)
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
