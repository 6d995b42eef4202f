package github

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/vetter-dev/vetter/github/rules"
	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/internal/prref"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/packet/source"
)

// Options say how a pull request is opened.
type Options struct {
	Config Config
	// CacheDir is the cache root; "" is $XDG_CACHE_HOME/vetter, else
	// ~/.cache/vetter.
	CacheDir string
	// Offline opens the newest cached copy without the network.
	Offline bool
	// LocalPacket is a packet folder or archive of the same work item
	// (--packet): its registry and logs are used, and its change.diff is
	// compared with the pull request's.
	LocalPacket string
	Now         func() time.Time
	// InPlace refreshes a cached head's folder file by file, rather than
	// swapping the folder: a workbench watching it reloads in place.
	InPlace bool
	// RefreshInto is the folder a workbench shows (with InPlace): when the
	// head moved, the new head is written to its own folder and into this
	// one too, so the screen says the head moved instead of going stale.
	RefreshInto string
	// FreshFor answers from the cache, without the network, when the PR
	// was read from GitHub less than this long ago (Fresh for the headless
	// commands; 0 always reads).
	FreshFor time.Duration
}

// readAtFile, beside a PR's cached heads, says when it was last read.
const readAtFile = "read-at"

// Fresh is how long a read of a pull request answers `vetter summary`,
// `--print` and the other headless commands without asking GitHub again: a
// script running several of them in a row reads the PR once, and a person
// coming back a minute later sees what changed. --refresh reads anyway.
const Fresh = time.Minute

// CachedAt is the newest cached packet folder of ref and when it was last
// read from GitHub (zero when that is unknown). The time is kept beside the
// folders, not in pr.json: a refresh that changed nothing leaves the folder
// alone, so a workbench watching it does not reload for a timestamp.
func CachedAt(root string, ref Ref) (dir string, at time.Time) {
	dir = Cached(root, ref)
	if dir == "" {
		return "", time.Time{}
	}
	if data, err := os.ReadFile(filepath.Join(prDir(root, ref), readAtFile)); err == nil {
		if at, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(data))); err == nil {
			return dir, at
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, packet.OriginFile))
	if err != nil {
		return dir, time.Time{}
	}
	var o packet.Origin
	if json.Unmarshal(data, &o) == nil {
		at, _ = time.Parse(time.RFC3339, o.FetchedAt)
	}
	return dir, at
}

// RefreshFailed is the status line of a cached copy whose refresh failed:
// what went wrong, and when what is shown was read.
func RefreshFailed(err error, readAt, now time.Time) string {
	when := "an earlier visit"
	if !readAt.IsZero() {
		readAt = readAt.In(now.Location())
		when = readAt.Format("15:04")
		if y, m, d := readAt.Date(); y != now.Year() || m != now.Month() || d != now.Day() {
			when = readAt.Format("Jan 2 15:04")
		}
	}
	if IsKind(err, KindNetwork) || IsKind(err, KindTimeout) {
		return "GitHub unreachable; showing what was read at " + when
	}
	return "refreshing from GitHub failed (" + err.Error() + "); showing what was read at " + when
}

// Opened is a pull request laid out as a packet folder.
type Opened struct {
	Ref       Ref
	Dir       string // the packet folder in the cache
	HeadSHA   string
	FromCache bool
	Data      *Data // nil when opened offline
}

// DefaultCacheDir is $XDG_CACHE_HOME/vetter, else ~/.cache/vetter.
func DefaultCacheDir() (string, error) {
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "vetter"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("finding the cache directory: %w", err)
	}
	return filepath.Join(home, ".cache", "vetter"), nil
}

// prDir is where one pull request's heads are cached.
func prDir(root string, ref Ref) string {
	return filepath.Join(root, orGitHub(ref.Host), ref.Owner, ref.Repo, fmt.Sprint(ref.Number))
}

// Cached returns the newest cached packet folder of ref, or "" when there is
// none.
func Cached(root string, ref Ref) string {
	base := prDir(root, ref)
	data, err := os.ReadFile(filepath.Join(base, "latest"))
	if err != nil {
		return ""
	}
	sha := strings.TrimSpace(string(data))
	if !commitid.Valid(sha) {
		return ""
	}
	dir := filepath.Join(base, sha)
	if _, err := os.Stat(filepath.Join(dir, packet.OriginFile)); err != nil {
		return ""
	}
	return dir
}

// cacheRoot is dir, the cache root asked for, or else DefaultCacheDir.
func cacheRoot(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	return DefaultCacheDir()
}

// Open reads the pull request and writes it as a packet folder in the cache
// (host/owner/repo/number/head-sha), replacing that folder whole only once
// everything was read: a failure leaves what was there before.
func Open(ctx context.Context, ref Ref, opts Options) (*Opened, error) {
	root, err := cacheRoot(opts.CacheDir)
	if err != nil {
		return nil, err
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	if opts.FreshFor > 0 && opts.LocalPacket == "" && !opts.Offline {
		if dir, at := CachedAt(root, ref); dir != "" && !at.IsZero() && now().Sub(at) < opts.FreshFor && now().Sub(at) >= 0 {
			return &Opened{Ref: ref, Dir: dir, HeadSHA: filepath.Base(dir), FromCache: true}, nil
		}
	}
	if opts.Offline {
		dir := Cached(root, ref)
		if dir == "" {
			return nil, fmt.Errorf("%s is not in the cache (%s): open it once without --offline", ref, prDir(root, ref))
		}
		return &Opened{Ref: ref, Dir: dir, HeadSHA: filepath.Base(dir), FromCache: true}, nil
	}
	c, err := NewClient(opts.Config.orHost(ref.Host))
	if err != nil {
		return nil, err
	}
	// --timeout bounds the whole read, both rounds.
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	etags := filepath.Join(prDir(root, ref), "etags.json")
	c.loadCache(etags)
	// Every page the last visit read is asked again at once, with its ETag:
	// a refresh of an unchanged PR is one round of 304s, not one round per
	// page, check and compare that the answers lead to.
	c.prefetch(ctx, c.cachedKeys())
	d, err := c.Fetch(ctx, ref)
	if err != nil {
		return nil, err
	}
	b, err := Build(d, opts.LocalPacket)
	if err != nil {
		return nil, err
	}
	if err := c.FetchAfter(ctx, d, b.packetHead); err != nil {
		if b.local != nil {
			b.local.Close()
		}
		return nil, err
	}
	b.addAfter(d)
	b.askPins(ctx, c)
	b.origin.FetchedAt = now().UTC().Format(time.RFC3339)
	dir := filepath.Join(prDir(root, ref), d.Pull.Head.SHA)
	write := b.write
	if opts.InPlace {
		write = b.update
	}
	if opts.InPlace && opts.RefreshInto != "" && opts.RefreshInto != dir {
		if err := b.write(dir); err != nil {
			return nil, err
		}
		dir = opts.RefreshInto
	}
	// A refresh that changed nothing leaves the folder as it is: nothing
	// to reload, and no files written and synced for nothing.
	if !b.same(dir) {
		if err := write(dir); err != nil {
			return nil, err
		}
	}
	latest := filepath.Join(prDir(root, ref), "latest")
	if old, err := os.ReadFile(latest); err != nil || string(old) != d.Pull.Head.SHA+"\n" {
		if err := writeAtomic(latest, []byte(d.Pull.Head.SHA+"\n")); err != nil {
			return nil, fmt.Errorf("writing the cache pointer for %s: %w", ref, err)
		}
	}
	c.saveUsed(etags)
	// Losing it costs one read more: not an error.
	_ = writeAtomic(filepath.Join(prDir(root, ref), readAtFile), []byte(now().UTC().Format(time.RFC3339Nano)+"\n"))
	return &Opened{Ref: ref, Dir: dir, HeadSHA: d.Pull.Head.SHA, Data: d}, nil
}

// OpenFirst lays out a pull request that is not cached yet from what its
// first screen needs (FetchFirst: the pull request, its comments and its
// diff), with Origin.Pending naming the parts not read: the checks, the
// threads and the compare. It writes no read-at time, so nothing takes the
// folder for a fresh read; Open with InPlace and RefreshInto set to the
// folder reads the rest into it, after which it is what Open alone writes.
func OpenFirst(ctx context.Context, ref Ref, opts Options) (*Opened, error) {
	root, err := cacheRoot(opts.CacheDir)
	if err != nil {
		return nil, err
	}
	c, err := NewClient(opts.Config.orHost(ref.Host))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	d, err := c.FetchFirst(ctx, ref)
	if err != nil {
		return nil, err
	}
	b, err := Build(d, opts.LocalPacket)
	if err != nil {
		return nil, err
	}
	// No compare yet: the local packet's diff is checked against the
	// head's, and closed.
	b.addAfter(d)
	b.origin.Pending = []string{packet.PendingCI, packet.PendingThreads, packet.PendingCompare}
	dir := filepath.Join(prDir(root, ref), d.Pull.Head.SHA)
	if err := b.write(dir); err != nil {
		return nil, err
	}
	if err := writeAtomic(filepath.Join(prDir(root, ref), "latest"), []byte(d.Pull.Head.SHA+"\n")); err != nil {
		return nil, fmt.Errorf("writing the cache pointer for %s: %w", ref, err)
	}
	// The full read behind asks these again with their ETags.
	c.saveUsed(filepath.Join(prDir(root, ref), "etags.json"))
	return &Opened{Ref: ref, Dir: dir, HeadSHA: d.Pull.Head.SHA, Data: d}, nil
}

func (c *Client) loadCache(path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		return
	}
	var m map[string]cachedResponse
	if json.Unmarshal(data, &m) == nil && m != nil {
		c.mu.Lock()
		c.cache = m
		c.mu.Unlock()
	}
}

func (c *Client) cachedKeys() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys := make([]string, 0, len(c.cache))
	for k := range c.cache {
		keys = append(keys, k)
	}
	return keys
}

// saveUsed keeps the ETags of what this visit read, and drops the rest (an
// older head's checks, pages a list no longer has), so the next visit asks
// again for exactly these.
func (c *Client) saveUsed(path string) {
	c.mu.Lock()
	for k := range c.cache {
		if !c.used[k] {
			delete(c.cache, k)
			c.dirty = true
		}
	}
	dirty := c.dirty
	c.mu.Unlock()
	if dirty {
		c.saveCache(path)
	}
}

// saveCache keeps the ETags for the next visit; losing it costs only a full
// read, so a failure is not reported.
func (c *Client) saveCache(path string) {
	c.mu.Lock()
	data, err := json.Marshal(c.cache)
	c.mu.Unlock()
	if err != nil {
		return
	}
	_ = writeAtomic(path, data)
}

// built is a packet laid out in memory before it is written.
type built struct {
	files      map[string][]byte // packet-relative path -> content
	origin     packet.Origin
	packetHead string
	local      *packet.Packet
	localPath  string
}

// trustedFor answers who may supply a packet's documents on a pull request:
// its author, or an account GitHub marks as OWNER, MEMBER or COLLABORATOR
// (rules.OkToTestCounts, the same rule as for /ok to test).
func trustedFor(author string) func(IssueComment) bool {
	return func(c IssueComment) bool {
		return c.User.Login == author || rules.OkToTestCounts(c.AuthorAssociation)
	}
}

// Build lays out the packet from what was read: the documents from the
// comments, the diff, the registry from the evidence record (or from the
// local packet, whose logs come along), and pr.json.
func Build(d *Data, localPacket string) (*built, error) {
	b := &built{files: map[string][]byte{}}
	pr := d.Pull
	author := pr.User.Login
	trusted := trustedFor(author)
	docs := Documents(d.Comments, trusted)
	var ignored []string
	for n, dc := range Documents(d.Comments, func(c IssueComment) bool { return !trusted(c) }) {
		if _, ok := docs[n]; !ok || dc.CommentID > docs[n].CommentID {
			ignored = append(ignored, n+" by "+dc.Author)
		}
	}
	sort.Strings(ignored)
	names := make([]string, 0, len(docs))
	for n := range docs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		b.files[n] = []byte(docs[n].Text)
	}
	agent := readAgent(d, docs, trusted)
	for n, data := range agent.files {
		if _, ok := b.files[n]; !ok {
			b.files[n] = data
		}
	}
	at := d.where()
	url := d.htmlURL(at)
	var mismatch string
	if ch, ok := b.files[packet.ChangeFile]; ok {
		c, _ := packet.ParseChange(packet.ParseDocument(packet.ChangeFile, ch))
		b.packetHead = c.HeadSHA
		if c.URL != "" && !namesRef(at, c.URL) {
			mismatch = c.URL
		}
		// The work item is the repository in change.md's PR URL plus the
		// packet id: a change.md that names no URL gets the PR's.
		if c.URL == "" {
			b.files[packet.ChangeFile] = append(bytes.TrimRight(ch, "\n"), []byte("\n\nPR URL: "+url+"\n")...)
		}
	}
	o := packet.Origin{Kind: packet.OriginKindPR, URL: url, Owner: at.Owner, Repo: at.Repo, Number: at.Number, PacketURL: mismatch,
		Title: pr.Title, State: pr.State, Author: author, HeadSHA: pr.Head.SHA, BaseSHA: pr.Base.SHA, PacketHeadSHA: b.packetHead,
		CommitsAfterPacket: []packet.OriginCommit{}, OkToTest: []packet.OriginOkToTest{}, DiffNoPatch: d.DiffNoPatch,
		IgnoredDocuments: ignored, Cut: slices.Sorted(slices.Values(d.Cut))}
	o.CI = ciOf(d)
	for _, c := range d.Commits {
		o.Commits = append(o.Commits, packet.OriginCommit{SHA: c.SHA, Message: firstLineOf(c.Commit.Message)})
	}
	for _, ok := range OkToTests(d.Comments) {
		if !ok.Counts {
			continue
		}
		o.OkToTest = append(o.OkToTest, packet.OriginOkToTest{SHA: ok.SHA, By: ok.By, At: ok.At, Current: commitid.Same(ok.SHA, pr.Head.SHA)})
	}
	o.Threads = threadsOf(d, author)
	o.Rounds, o.Unrecognised, o.ChangeFromDescription = agent.rounds, agent.unknown, agent.fromDesc
	if agent.record != nil {
		// The record speaks for the head the PR had when it was posted;
		// with no document naming a head, that is the packet's head, and
		// what came after was not validated by the agent.
		head := recordHead(d.Commits, agent.record.CreatedAt)
		o.Record = originRecord(agent, head)
		if b.packetHead == "" && head != "" {
			b.packetHead, o.PacketHeadSHA, o.PacketHeadFrom = head, head, packet.PacketHeadFromRecord
		}
	}
	if localPacket != "" {
		lp, err := packet.Load(localPacket, packet.Options{})
		if err != nil {
			return nil, fmt.Errorf("reading the local packet %s given with --packet: %w", localPacket, err)
		}
		b.local, b.localPath = lp, localPacket
		if err := b.copyLocal(lp); err != nil {
			lp.Close()
			return nil, err
		}
	} else if agent.record != nil {
		b.files[packet.RegistryFile] = recordRegistry(agent.rec)
		o.EvidenceRecordOnly = true
	}
	b.files[packet.DiffPath] = []byte(d.Diff)
	b.origin = o
	return b, nil
}

// where is the pull request as the person named it and GitHub answered
// for it, never as the packet says: the host and number typed, the
// repository GitHub's base.repo names (the new name of a renamed one), and
// html_url when it is that same pull request.
func (d *Data) where() Ref {
	at := d.Ref
	if r := d.Pull.Base.Repo; r.Owner.Login != "" && r.Name != "" && prref.ValidName(r.Owner.Login) && prref.ValidName(r.Name) {
		at.Owner, at.Repo = r.Owner.Login, r.Name
	}
	return at
}

// URL is html_url when it names this pull request, else the address built
// from the reference.
func (d *Data) htmlURL(at Ref) string {
	if u, err := ParseRef(d.Pull.HTMLURL, at.Host, nil); err == nil && at.Same(u) {
		return d.Pull.HTMLURL
	}
	return at.URL()
}

// addAfter adds what the compare of the packet's head and the PR head read,
// and checks a local packet's diff against the PR's at the packet's head.
func (b *built) addAfter(d *Data) {
	if d.PacketDiff != "" {
		b.files[packet.DiffPath] = []byte(d.PacketDiff)
	}
	if d.AfterDiff != "" || len(d.After) > 0 {
		b.files[packet.AfterPacketDiff] = []byte(d.AfterDiff)
	}
	for _, c := range d.After {
		b.origin.CommitsAfterPacket = append(b.origin.CommitsAfterPacket, packet.OriginCommit{SHA: c.SHA, Message: c.Commit.Message})
	}
	if len(d.After) > 0 {
		b.files[packet.AfterPacketDoc] = afterDoc(b.packetHead, d)
	}
	b.origin.PacketHeadMissing = d.PacketHeadMissing
	// The commit change.diff shows: the packet's head when its compare was
	// read (or the heads agree), else the PR head whose diff stands in.
	b.origin.DiffSHA = d.Pull.Head.SHA
	if d.PacketDiff != "" {
		b.origin.DiffSHA = b.packetHead
	}
	b.origin.CompareFailed = d.CompareFailed
	if b.local != nil {
		b.origin.DiffMismatch = diffMismatch(b.local.Diff, b.files[packet.DiffPath])
		// The local packet's own diff is the one its findings cite.
		if data, _, err := source.ReadCapped(b.local.FS, packet.DiffPath, packet.DiffLimit); err == nil {
			b.files[packet.DiffPath] = data
			if commitid.Valid(b.packetHead) {
				b.origin.DiffSHA = b.packetHead
			}
		}
		b.local.Close()
		b.local = nil
	}
}

// afterDoc writes the commits after the packet and their diff as markdown,
// in a fence longer than any run of backticks in the diff.
func afterDoc(packetHead string, d *Data) []byte {
	var s strings.Builder
	fmt.Fprintf(&s, "# After the packet — %s..%s\n\n", commitid.Short(packetHead), commitid.Short(d.Pull.Head.SHA))
	fmt.Fprintf(&s, "The packet describes %s; the pull request's head is %s. What came after:\n\n", commitid.Short(packetHead), commitid.Short(d.Pull.Head.SHA))
	for _, c := range d.After {
		msg, _, _ := strings.Cut(strings.TrimSpace(c.Commit.Message), "\n")
		fmt.Fprintf(&s, "- `%s` %s\n", commitid.Short(c.SHA), msg)
	}
	if len(d.AfterNoDiff) > 0 {
		fmt.Fprintf(&s, "\nGitHub showed no patch for: %s\n", strings.Join(d.AfterNoDiff, ", "))
	}
	fence := "```"
	for strings.Contains(d.AfterDiff, fence) {
		fence += "`"
	}
	fmt.Fprintf(&s, "\n%sdiff\n%s", fence, d.AfterDiff)
	if !strings.HasSuffix(d.AfterDiff, "\n") {
		s.WriteByte('\n')
	}
	s.WriteString(fence + "\n")
	return []byte(s.String())
}

// copyLocal takes the registry and logs from a local packet.
func (b *built) copyLocal(lp *packet.Packet) error {
	return fs.WalkDir(lp.FS, "validation", func(name string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return fmt.Errorf("reading %s in the local packet %s: %w", name, b.localPath, err)
		}
		if e.IsDir() || !e.Type().IsRegular() {
			return nil
		}
		f, err := lp.FS.Open(name)
		if err != nil {
			return fmt.Errorf("reading %s in the local packet %s: %w", name, b.localPath, err)
		}
		defer f.Close()
		data, err := io.ReadAll(io.LimitReader(f, 1<<30))
		if err != nil {
			return fmt.Errorf("reading %s in the local packet %s: %w", name, b.localPath, err)
		}
		b.files[name] = data
		return nil
	})
}

// diffMismatch names the files whose hunks differ between the local packet's
// diff and the PR's (added or missing files included).
func diffMismatch(local *packet.Diff, prDiff []byte) []string {
	remote, _ := packet.ParseDiff(prDiff)
	body := func(d *packet.Diff) map[string]string {
		out := map[string]string{}
		if d == nil {
			return out
		}
		for _, f := range d.Files {
			var s strings.Builder
			for _, h := range f.Hunks {
				fmt.Fprintf(&s, "@@%d,%d %d,%d\n", h.OldStart, h.OldLines, h.NewStart, h.NewLines)
				for _, l := range h.Lines {
					s.WriteByte(byte(l.Kind))
					s.WriteString(l.Text)
					s.WriteByte('\n')
				}
			}
			out[f.Path()] = s.String()
		}
		return out
	}
	a, r := body(local), body(remote)
	var out []string
	for p, s := range a {
		if rs, ok := r[p]; !ok || rs != s {
			out = append(out, p)
		}
	}
	for p := range r {
		if _, ok := a[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// ghost is the login GitHub shows for a deleted account (an author that
// both APIs answer as null).
const ghost = "ghost"

// threadNote is one comment of a thread with both answers joined.
type threadNote struct{ by, body string }

// threadsOf turns other accounts' review threads into origin threads. Each
// comment is joined by its id across both answers: GraphQL says which
// thread it is in and whether that is resolved or outdated, REST carries
// the same comment's author and body, so an answer that lacks one (or a
// thread the first GraphQL page of comments does not reach) still gives the
// whole thread. Review comments in no GraphQL thread (an API that returned
// none) become threads of their own, their replies joined to them. A thread
// whose opening comment has no body in either answer is left out: there is
// nothing to show or to export.
func threadsOf(d *Data, author string) []packet.OriginThread {
	rest := make(map[int64]ReviewComment, len(d.ReviewComments))
	for _, c := range d.ReviewComments {
		rest[c.ID] = c
	}
	// root follows in_reply_to_id to the comment that opened the thread.
	root := func(id int64) int64 {
		for range len(rest) {
			c, ok := rest[id]
			if !ok || c.InReplyToID == 0 {
				break
			}
			id = c.InReplyToID
		}
		return id
	}
	used := map[int64]bool{}
	// replies are the REST comments answering rootID that no GraphQL node
	// carried, in the order GitHub lists them.
	replies := func(rootID int64) []threadNote {
		var out []threadNote
		for _, c := range d.ReviewComments {
			if !used[c.ID] && c.ID != rootID && root(c.ID) == rootID {
				used[c.ID] = true
				out = append(out, threadNote{by: loginOr(c.User.Login), body: c.Body})
			}
		}
		return out
	}
	var out []packet.OriginThread
	add := func(ot packet.OriginThread, notes []threadNote) {
		var kept []threadNote
		for _, n := range notes {
			if strings.TrimSpace(n.body) != "" {
				kept = append(kept, n)
			}
		}
		if len(notes) == 0 || strings.TrimSpace(notes[0].body) == "" || notes[0].by == author {
			return
		}
		ot.Source, ot.Body = notes[0].by, notes[0].body
		withBadge(&ot)
		for _, n := range kept[1:] {
			ot.Replies = append(ot.Replies, packet.OriginReply{By: n.by, Body: n.body})
		}
		out = append(out, ot)
	}
	for _, t := range d.Threads {
		var notes []threadNote
		var first ReviewComment
		for i, n := range t.Comments.Nodes {
			c, ok := rest[n.DatabaseID]
			if n.DatabaseID == 0 {
				ok = false
			}
			by, body := n.Author.Login, n.Body
			if by == "" && ok {
				by = c.User.Login
			}
			if strings.TrimSpace(body) == "" && ok {
				body = c.Body
			}
			if i == 0 && ok {
				first = c
			}
			used[n.DatabaseID] = true
			notes = append(notes, threadNote{by: loginOr(by), body: body})
		}
		if len(t.Comments.Nodes) > 0 && t.Comments.Nodes[0].DatabaseID != 0 {
			notes = append(notes, replies(t.Comments.Nodes[0].DatabaseID)...)
		}
		path, line := t.Path, t.Line
		if line == 0 {
			line = t.OrigLine
		}
		if path == "" {
			path, line = first.Path, first.lineOr()
		}
		ot := packet.OriginThread{ID: t.ID, Path: path, Line: line, StartLine: t.StartLine,
			Resolved: t.IsResolved, Outdated: t.IsOutdated}
		if t.ResolvedBy != nil {
			ot.ResolvedBy = loginOr(t.ResolvedBy.Login)
		}
		add(ot, notes)
	}
	for _, c := range d.ReviewComments {
		if used[c.ID] || root(c.ID) != c.ID {
			continue
		}
		used[c.ID] = true
		notes := append([]threadNote{{by: loginOr(c.User.Login), body: c.Body}}, replies(c.ID)...)
		add(packet.OriginThread{ID: fmt.Sprint(c.ID), Path: c.Path, Line: c.lineOr(), StartLine: c.StartLine, Outdated: c.Line == 0 && c.OriginalLine > 0}, notes)
	}
	return out
}

// loginOr is the account's login, or ghost for one GitHub answers as null.
func loginOr(login string) string {
	if login == "" {
		return ghost
	}
	return login
}

// write lays the packet out in a fresh folder beside dir and swaps it in, so
// dir is either the old packet or the new one, never half of each.
func (b *built) write(dir string) error {
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, cacheDirMode); err != nil {
		return fmt.Errorf("creating the cache folder %s: %w", parent, err)
	}
	tmp, err := os.MkdirTemp(parent, ".new-")
	if err != nil {
		return fmt.Errorf("creating the cache folder in %s: %w", parent, err)
	}
	fail := func(err error) error {
		os.RemoveAll(tmp)
		return err
	}
	origin, err := json.MarshalIndent(b.origin, "", "  ")
	if err != nil {
		return fail(fmt.Errorf("encoding %s: %w", packet.OriginFile, err))
	}
	b.files[packet.OriginFile] = append(origin, '\n')
	for name, data := range b.files {
		p := filepath.Join(tmp, filepath.FromSlash(name))
		if !strings.HasPrefix(p, tmp+string(filepath.Separator)) {
			return fail(fmt.Errorf("writing %s: the name leaves the packet folder", name))
		}
		if err := os.MkdirAll(filepath.Dir(p), cacheDirMode); err != nil {
			return fail(fmt.Errorf("writing %s in the cache: %w", name, err))
		}
		if err := os.WriteFile(p, data, cacheFileMode); err != nil {
			return fail(fmt.Errorf("writing %s in the cache: %w", name, err))
		}
	}
	old := dir + ".old"
	os.RemoveAll(old)
	if err := os.Rename(dir, old); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fail(fmt.Errorf("replacing the cached packet %s: %w", dir, err))
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.Rename(old, dir)
		return fail(fmt.Errorf("replacing the cached packet %s: %w", dir, err))
	}
	os.RemoveAll(old)
	return nil
}

// same reports whether dir already holds exactly the packet b would write,
// pr.json's fetched_at aside.
func (b *built) same(dir string) bool {
	var n int
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		n++
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if rel == packet.OriginFile {
			var o packet.Origin
			if json.Unmarshal(data, &o) != nil {
				return errDiffers
			}
			o.FetchedAt = b.origin.FetchedAt
			if !reflect.DeepEqual(o, b.origin) {
				return errDiffers
			}
			return nil
		}
		if want, ok := b.files[rel]; !ok || !bytes.Equal(want, data) {
			return errDiffers
		}
		return nil
	})
	_, hasOrigin := b.files[packet.OriginFile]
	files := len(b.files)
	if !hasOrigin {
		files++
	}
	return err == nil && n == files
}

var errDiffers = errors.New("differs")

// update writes into an existing folder the files whose content changed,
// each by atomic replacement; a folder not there yet is written whole.
func (b *built) update(dir string) error {
	if _, err := os.Stat(dir); err != nil {
		return b.write(dir)
	}
	origin, err := json.MarshalIndent(b.origin, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding %s: %w", packet.OriginFile, err)
	}
	// fetched_at changes on every visit; it alone is no reason to reload.
	b.files[packet.OriginFile] = append(origin, '\n')
	if old, err := os.ReadFile(filepath.Join(dir, packet.OriginFile)); err == nil {
		var o packet.Origin
		if json.Unmarshal(old, &o) == nil {
			o.FetchedAt = b.origin.FetchedAt
			if same, err := json.MarshalIndent(o, "", "  "); err == nil && bytes.Equal(append(same, '\n'), b.files[packet.OriginFile]) {
				delete(b.files, packet.OriginFile)
			}
		}
	}
	for name, data := range b.files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, data) {
			continue
		}
		if err := writeAtomic(p, data); err != nil {
			return fmt.Errorf("refreshing %s in the cache: %w", name, err)
		}
	}
	return nil
}

// The cache holds what the API answered with the reviewer's token: threads
// of a private repository, its diff and its logs. Like the reviewer's state
// it is the user's alone.
const (
	cacheDirMode  = 0o700
	cacheFileMode = 0o600
)

func writeAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), cacheDirMode); err != nil {
		return err
	}
	// A temporary file of its own beside the target: two saves at once (the
	// queue's fill and the save when the screen ends) never share one.
	// Everything written here is a cache that a crash costs only a fresh
	// read of, so the file is renamed into place without renameio's fsync,
	// which on a busy disk cost a cold open tens of milliseconds (it flushes
	// the packet folder just written along with it).
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), cacheFileMode)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// firstLineOf is a commit message's subject.
func firstLineOf(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}
