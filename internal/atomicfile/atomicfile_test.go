package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFileReplacesWholeWithItsMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "triage.json")
	if err := os.WriteFile(path, []byte("old contents, longer than the new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "new" {
		t.Fatalf("contents %q, %v; want new", got, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("mode %o, want 600 (the temporary file's, not the old file's)", perm)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the folder holds %d entries after the replace, want only triage.json", len(entries))
	}
}

func TestCleanupLeavesTheTargetAsItWas(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "triage.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := Create(path, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(p.Name()) != dir || !strings.HasPrefix(filepath.Base(p.Name()), TempPrefix(path)) {
		t.Errorf("temporary file %s is not beside %s with prefix %s", p.Name(), path, TempPrefix(path))
	}
	if _, err := p.WriteString("half a wri"); err != nil {
		t.Fatal(err)
	}
	p.Cleanup() // the write failed half-way, say
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("target %q after a cleanup, want old", got)
	}
	if _, err := os.Stat(p.Name()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temporary file still there after Cleanup: %v", err)
	}
	p.Cleanup() // twice is harmless
}

func TestCommitCreatesAMissingTarget(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rounds.json")
	p, err := Create(path, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Cleanup()
	if _, err := p.WriteString("{}"); err != nil {
		t.Fatal(err)
	}
	if err := p.Commit(); err != nil {
		t.Fatal(err)
	}
	p.Cleanup() // after Commit: must not remove the committed file
	if got, err := os.ReadFile(path); err != nil || string(got) != "{}" {
		t.Errorf("contents %q, %v", got, err)
	}
}

func TestCreateInAMissingFolderFails(t *testing.T) {
	if _, err := Create(filepath.Join(t.TempDir(), "no", "such", "x.json"), 0o600); err == nil {
		t.Fatal("Create in a missing folder succeeded")
	}
}
