// Package atomicfile replaces a file's contents whole: a reader, or a run
// killed half-way, sees the old contents or the new ones, never a mix. The
// new contents go to a temporary file beside the target (same directory, so
// same file system, and never $TMPDIR, where a killed run would leave them
// for anyone to read), are flushed to the disk, and the temporary file is
// then renamed over the target in one step, which Windows spells
// differently (replace_unix.go, replace_windows.go).
package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Pending is the temporary file that replaces path when committed. Write to
// its File; Commit or Cleanup it, and Cleanup after Commit is harmless, so
// `defer p.Cleanup()` is the usual pattern.
type Pending struct {
	*os.File
	path string
	done bool
}

// TempPrefix is how every temporary file for path begins: "." and path's
// base name. A folder's owner may remove files with this prefix left by a
// killed run, while holding whatever lock keeps live writers out.
func TempPrefix(path string) string { return "." + filepath.Base(path) }

// Create opens a new temporary file beside path with mode perm (not
// narrowed by the umask: the caller says exactly who may read it).
func Create(path string, perm fs.FileMode) (*Pending, error) {
	f, err := os.CreateTemp(filepath.Dir(path), TempPrefix(path)+"*")
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return &Pending{File: f, path: path}, nil
}

// Commit flushes the temporary file to the disk, closes it and puts it in
// place of path.
func (p *Pending) Commit() error {
	if err := p.Sync(); err != nil {
		return err
	}
	if err := p.Close(); err != nil {
		return err
	}
	if err := replace(p.Name(), p.path); err != nil {
		return err
	}
	p.done = true
	return nil
}

// Cleanup closes and removes the temporary file unless it was committed.
func (p *Pending) Cleanup() {
	if p.done {
		return
	}
	p.Close()
	os.Remove(p.Name())
	p.done = true
}

// WriteFile replaces path with data, mode perm.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	p, err := Create(path, perm)
	if err != nil {
		return err
	}
	defer p.Cleanup()
	if _, err := p.Write(data); err != nil {
		return err
	}
	return p.Commit()
}
