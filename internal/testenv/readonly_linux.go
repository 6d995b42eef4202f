package testenv

import (
	"os"
	"syscall"
	"testing"
)

// ReadOnly makes dir read-only for the rest of the test, as a read-only
// disk would be: for a user by taking away every write permission, and for
// root, whom permissions do not stop, by mounting dir over itself read-only.
// The test is skipped when neither can be done.
func ReadOnly(t testing.TB, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		chmodReadOnly(t, dir)
		return
	}
	if err := syscall.Mount(dir, dir, "", syscall.MS_BIND|syscall.MS_REC, ""); err != nil {
		t.Skipf("cannot make %s read-only here (bind mount: %v)", dir, err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	if err := syscall.Mount("", dir, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY, ""); err != nil {
		t.Skipf("cannot make %s read-only here (remount: %v)", dir, err)
	}
	if f, err := os.CreateTemp(dir, "probe"); err == nil {
		f.Close()
		t.Fatalf("%s is still writable after mounting it read-only", dir)
	}
}
