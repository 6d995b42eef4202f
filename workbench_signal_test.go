//go:build linux

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/creack/pty"
)

// termios reads the pseudo-terminal's modes (master and slave share them).
func termios(t *testing.T, f *os.File) syscall.Termios {
	t.Helper()
	var tio syscall.Termios
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&tio))); errno != 0 {
		t.Fatalf("reading the terminal's modes: %v", errno)
	}
	return tio
}

// ptyReader hands a pseudo-terminal's output to the test as it comes, so the
// test waits on the program's own bytes rather than on a clock.
type ptyReader struct {
	chunks chan []byte
	buf    bytes.Buffer
}

func readPTY(f *os.File) *ptyReader {
	r := &ptyReader{chunks: make(chan []byte, 64)}
	go func() {
		defer close(r.chunks)
		for {
			b := make([]byte, 4096)
			n, err := f.Read(b)
			if n > 0 {
				r.chunks <- b[:n]
			}
			if err != nil {
				return // EIO once the program has exited and closed its side
			}
		}
	}()
	return r
}

// until reads until the output holds s; false at the end of the output or
// when the program has written nothing for the deadline (a hung program).
func (r *ptyReader) until(s string, deadline time.Duration) bool {
	return r.read(func() bool { return strings.Contains(r.buf.String(), s) }, false, deadline)
}

// rest reads to the end of the output.
func (r *ptyReader) rest(deadline time.Duration) bool {
	return r.read(func() bool { return false }, true, deadline)
}

// read takes output until done holds (true), the output ends (atEnd), or
// nothing comes for the deadline (false).
func (r *ptyReader) read(done func() bool, atEnd bool, deadline time.Duration) bool {
	for !done() {
		select {
		case b, ok := <-r.chunks:
			if !ok {
				return atEnd
			}
			r.buf.Write(b)
		case <-time.After(deadline):
			return false
		}
	}
	return true
}

// A signal that ends the workbench (a closed terminal window, an ssh drop,
// kill, kill -INT, kill -QUIT) restores the terminal before vetter exits
// with 128+signal: the main screen, the cursor shown, mouse reporting off,
// echo and line editing back on.
func TestSignalsRestoreTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vetter and runs it in a pseudo-terminal")
	}
	bin := buildVetter(t)
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT, syscall.SIGQUIT} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(bin, "--theme", "dark")
			cmd.Env = append(os.Environ(), "TERM=xterm-256color", "XDG_STATE_HOME="+t.TempDir(), "VETTER_USER=ana")
			ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
			if err != nil {
				t.Skipf("no pseudo-terminal can be opened here: %v", err)
			}
			defer ptmx.Close()
			defer cmd.Process.Kill()
			out := readPTY(ptmx)
			if !out.until("Overview", 20*time.Second) {
				t.Fatalf("the workbench did not draw its first screen:\n%q", out.buf.String())
			}
			// The mode vetter runs in, which the signal must undo.
			if tio := termios(t, ptmx); tio.Lflag&(syscall.ECHO|syscall.ICANON) != 0 {
				t.Fatalf("echo or line editing still on while the workbench runs: lflag %#x", tio.Lflag)
			}
			for _, on := range []string{"\x1b[?1049h", "\x1b[?25l", "\x1b[?1002h"} {
				if !strings.Contains(out.buf.String(), on) {
					t.Fatalf("the workbench never wrote %q; the test would prove nothing", on)
				}
			}
			before := out.buf.Len()

			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			var werr error
			select {
			case werr = <-exited:
			case <-time.After(20 * time.Second):
				t.Fatalf("vetter did not exit on %v", sig)
			}
			out.rest(5 * time.Second)
			after := out.buf.String()[before:]

			var ee *exec.ExitError
			if !errors.As(werr, &ee) || ee.ExitCode() != 128+int(sig) {
				t.Errorf("exit after %v: %v, want status %d", sig, werr, 128+int(sig))
			}
			for _, want := range []struct{ seq, what string }{
				{"\x1b[?1049l", "leave the alternate screen"},
				{"\x1b[?25h", "show the cursor"},
				{"\x1b[?1002l", "stop mouse button reporting"},
				{"\x1b[?1003l", "stop mouse motion reporting"},
				{"\x1b[?1006l", "stop SGR mouse reports"},
			} {
				if !strings.Contains(after, want.seq) {
					t.Errorf("after %v vetter did not %s (%q); it wrote %q", sig, want.what, want.seq, after)
				}
			}
			if tio := termios(t, ptmx); tio.Lflag&syscall.ECHO == 0 || tio.Lflag&syscall.ICANON == 0 {
				t.Errorf("after %v echo or line editing is still off: lflag %#x", sig, tio.Lflag)
			}
		})
	}
}
