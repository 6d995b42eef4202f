package packet

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Who decided: the global git user.email, never a repository's own (a
// packet folder may be a repository that names someone else).
func TestGlobalGitEmailIgnoresTheRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git on this machine")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\temail = ana@example.org\n"), 0o644)
	repo := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	if out, err := exec.Command("git", "-C", repo, "config", "user.email", "maintainer@forged.example").CombinedOutput(); err != nil {
		t.Fatalf("git config: %v %s", err, out)
	}
	t.Chdir(repo)
	if got := globalGitEmail(); got != "ana@example.org" {
		t.Errorf("globalGitEmail() = %q, want the global ana@example.org", got)
	}
}

// A packet with no work-item id is its own work item by its real path:
// opened through a link, it keeps the state it has under its own name.
func TestWorkItemWithoutAnIDIsItsRealPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p")
	if err := WriteSample(dir); err != nil {
		t.Fatal(err)
	}
	plan := filepath.Join(dir, PlanFile)
	os.Remove(plan) // no plan, no id
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip("no symbolic links here")
	}
	a, b := loadPacket(t, dir), loadPacket(t, link)
	if a.Plan.ID != "" {
		t.Fatalf("the packet still has an id: %q", a.Plan.ID)
	}
	if a.WorkItem() != b.WorkItem() {
		t.Errorf("through a link the packet is another work item: %+v vs %+v", a.WorkItem(), b.WorkItem())
	}
	other := filepath.Join(t.TempDir(), "q")
	WriteSample(other)
	os.Remove(filepath.Join(other, PlanFile))
	if c := loadPacket(t, other); c.WorkItem() == a.WorkItem() {
		t.Error("two packets without an id in two places share a work item")
	}
}
