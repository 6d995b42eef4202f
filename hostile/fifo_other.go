//go:build !unix

package hostile

import "errors"

var errNoFIFO = errors.New("named pipes are not supported here")

func mkfifo(string) error { return errNoFIFO }
