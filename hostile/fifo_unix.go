//go:build unix

package hostile

import (
	"errors"
	"syscall"
)

var errNoFIFO = errors.New("named pipes are not supported here")

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
