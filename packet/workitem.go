package packet

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/vetter-dev/vetter/internal/prref"
)

// WorkItem is what a reviewer's state is kept under: the work item a packet
// is a round of, not the place it was opened from. Two rounds of one work
// item, each in its own folder or archive, share it; the packet itself never
// holds it.
type WorkItem struct {
	// Key is the identity: the repository from the change's pull request URL
	// when it names one, plus the packet id; with no id, the packet's real
	// path (symbolic links resolved).
	Key string
	// Dir is the folder name under <state>/vetter/: readable, then a hash of
	// Key so no byte of the packet becomes a path.
	Dir string
}

// WorkItem names the work item this packet is a round of.
func (p *Packet) WorkItem() WorkItem {
	repo := ""
	if pr, ok := p.PullRequest(); ok {
		// GitHub treats owner and repository names without regard to case.
		repo = strings.ToLower("github.com/" + pr.Owner + "/" + pr.Repo)
	}
	id := strings.TrimSpace(p.Plan.ID)
	var key, label string
	switch {
	case p.prKey() != "":
		// A pull request is its own work item, whether or not its agent
		// posted a plan with an id: triage and decisions follow it from
		// head to head. The id, when there is one, names the folder.
		key, label = p.prKey(), id
		if !safeID.MatchString(label) {
			label = "PR-" + strconv.Itoa(p.Origin.Number)
		}
	case id != "":
		key, label = "item\x00"+repo+"\x00"+id, id
	case p.Source == KindEmbedded:
		key, label = "embedded\x00"+p.Path, "sample"
	default:
		where := p.Path
		if abs, err := filepath.Abs(where); err == nil {
			where = abs
		}
		if real, err := filepath.EvalSymlinks(where); err == nil {
			where = real
		}
		key, label = "path\x00"+where, "packet"
	}
	sum := sha256.Sum256([]byte(key))
	h := hex.EncodeToString(sum[:])[:16]
	if !safeID.MatchString(label) {
		label = "packet"
	}
	return WorkItem{Key: key, Dir: label + "-" + h}
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
	if strings.ContainsFunc(e, func(r rune) bool { return r < 0x20 || r == 0x7f || IsHidden(r) }) {
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
