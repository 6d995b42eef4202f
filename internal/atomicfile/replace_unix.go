//go:build !windows

package atomicfile

import "os"

// replace renames tmp over path, which POSIX makes atomic. The directory is
// not synced after: a crash may bring the old file back, never a mix, and
// the state written through here is rebuilt from its journal (decisions.jsonl,
// appended and synced first) or re-read (the PR cache).
func replace(tmp, path string) error {
	return os.Rename(tmp, path)
}
