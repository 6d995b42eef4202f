//go:build !linux

package testenv

import (
	"os"
	"testing"
)

// ReadOnly makes dir read-only for the rest of the test by taking away
// every write permission; as root, whom that does not stop, the test is
// skipped.
func ReadOnly(t testing.TB, dir string) {
	t.Helper()
	if os.Geteuid() == 0 {
		t.Skip("permissions do not stop root, and a read-only mount is Linux's here")
	}
	chmodReadOnly(t, dir)
}
