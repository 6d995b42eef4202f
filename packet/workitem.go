package packet

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/vetter-dev/vetter/internal/hidden"
	"github.com/vetter-dev/vetter/internal/prref"
	"github.com/vetter-dev/vetter/packet/source"
)

// WorkItem is what a reviewer's state is kept under: the work item a packet
// is a round of, not the place it was opened from. Two rounds of one work
// item, each in its own folder or archive, share it; the packet itself never
// holds it.
type WorkItem struct {
	// Key is the identity: the forge host, owner and repository of the
	// change's pull request (or merge request), however its address is
	// spelled, plus the packet id. With an id and no repository, the id and
	// a hash of the plan and change as first seen (Unbound); with no id, the
	// packet's real path (symbolic links resolved).
	Key string
	// Dir is the folder name under <state>/vetter/: readable, then a hash of
	// Key so no byte of the packet becomes a path.
	Dir string
	// Unbound says the packet names no repository, so its triage is kept
	// for this packet only: another packet with the same id is another work
	// item.
	Unbound bool
	// Former is the folder earlier vetters kept this work item's state in
	// (under the id alone, before repositories were told apart), or "";
	// the store moves it to Dir the first time it opens the work item.
	Former string
}

// UnboundNote is what the screens say of an Unbound work item.
const UnboundNote = "not tied to a repository: triage is kept for this packet only"

// WorkItem names the work item this packet is a round of.
func (p *Packet) WorkItem() WorkItem {
	id := strings.TrimSpace(p.Plan.ID)
	repo, hasRepo := p.repository()
	var w WorkItem
	var label string
	switch {
	case p.prKey() != "":
		// A pull request is its own work item, whether or not its agent
		// posted a plan with an id: triage and decisions follow it from
		// head to head. The id, when there is one, names the folder.
		w.Key, label = p.prKey(), id
		if !safeID.MatchString(label) {
			label = "PR-" + strconv.Itoa(p.Origin.Number)
		}
	case id != "" && hasRepo:
		w.Key, label = "item\x00"+repo+"\x00"+id, id
		if !strings.HasPrefix(repo, "github.com/") {
			// Before every address form was read, this work item was
			// kept under its id alone.
			w.Former = WorkItemDir("item\x00\x00"+id, id)
		}
	case id != "":
		w.Key, label, w.Unbound = "content\x00"+id+"\x00"+p.contentHash(), id, true
		w.Former = WorkItemDir("item\x00\x00"+id, id)
	case p.Source == source.KindEmbedded:
		w.Key, label = "embedded\x00"+p.Path, "sample"
	default:
		where := p.Path
		if abs, err := filepath.Abs(where); err == nil {
			where = abs
		}
		if real, err := filepath.EvalSymlinks(where); err == nil {
			where = real
		}
		w.Key, label = "path\x00"+where, "packet"
	}
	w.Dir = WorkItemDir(w.Key, label)
	return w
}

// workItemDir is a key's folder name: the label when it is a plain id, then
// a hash of the key.
func WorkItemDir(key, label string) string {
	sum := sha256.Sum256([]byte(key))
	h := hex.EncodeToString(sum[:])[:16]
	if !safeID.MatchString(label) {
		label = "packet"
	}
	return label + "-" + h
}

// repository is "host/owner/repo" of the change's pull or merge request,
// lower case (forges treat these names without regard to case), from any
// address form vetter reads.
func (p *Packet) repository() (string, bool) {
	r, ok := prref.ParseAnyURL(p.Change.URL)
	if !ok {
		return "", false
	}
	return strings.ToLower(r.HostOr() + "/" + r.Owner + "/" + r.Repo), true
}

// contentHash is a hash of the plan and the change as read: what makes a
// packet with no repository this packet and no other.
func (p *Packet) contentHash() string {
	h := sha256.New()
	for _, n := range []string{PlanFile, ChangeFile} {
		if d := p.Doc(n); d != nil {
			h.Write([]byte(d.Text))
		}
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// CurrentUser names the person deciding: $VETTER_USER, else the email of
// the user's global git configuration, else $USER, else the account name.
// Only the global configuration is asked: a repository's own .git/config
// (a packet folder may be one) must not name the reviewer.
func CurrentUser() string {
	if v := strings.TrimSpace(os.Getenv("VETTER_USER")); v != "" {
		return v
	}
	if e := gitUserEmail(); e != "" {
		return e
	}
	if v := strings.TrimSpace(os.Getenv("USER")); v != "" {
		return v
	}
	return accountName()
}

var gitEmail = sync.OnceValue(globalGitEmail)

// globalGitEmail asks git for the user's global user.email.
func globalGitEmail() string {
	git, err := exec.LookPath("git")
	if err != nil {
		return ""
	}
	cmd := exec.Command(git, "config", "--global", "--get", "user.email")
	// Run from the home folder with no repository discovery, so no
	// repository's configuration is read.
	if home, err := os.UserHomeDir(); err == nil {
		cmd.Dir = home
	}
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CEILING_DIRECTORIES=/")
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	e := strings.TrimSpace(string(out))
	if strings.ContainsFunc(e, func(r rune) bool { return r < 0x20 || r == 0x7f || hidden.Is(r) }) {
		return ""
	}
	return e
}

// gitUserEmail is the global git user.email, asked once.
func gitUserEmail() string { return gitEmail() }

// prKey is the work-item key of a packet read from a pull request (its
// host, owner, repository and number); "" for any other packet. A folder's
// change.md naming a PR is only the folder's word, so it keys nothing.
func (p *Packet) prKey() string {
	o := p.Origin
	if o == nil || o.Kind != OriginKindPR || o.Owner == "" || o.Repo == "" || o.Number <= 0 {
		return ""
	}
	ref := prref.Ref{Owner: o.Owner, Repo: o.Repo, Number: o.Number}
	if r, ok := prref.ParseURL(o.URL); ok {
		ref.Host = r.Host
	}
	return strings.ToLower("pr\x00"+ref.HostOr()+"/"+ref.Owner+"/"+ref.Repo) + "#" + strconv.Itoa(ref.Number)
}

// accountName is the operating system's name for the user, the last resort
// of CurrentUser.
func accountName() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return "unknown"
}

var safeID = regexp.MustCompile(`^[A-Z][A-Z0-9]+-[0-9]+$`)
