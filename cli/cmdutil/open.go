package cmdutil

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/vetter-dev/vetter/cli/factory"
	"github.com/vetter-dev/vetter/github"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/ui"
)

// Read says how a PACKET given as a pull request is read.
type Read int

const (
	// ReadFresh reads the pull request from GitHub: the commands that
	// decide, triage, export or post.
	ReadFresh Read = iota
	// ReadRecent lets a read less than github.Fresh old answer (summary
	// and --print, which only report); --refresh reads anyway.
	ReadRecent
	// ReadCachedFirst opens a cached copy at once and leaves its refresh
	// to the caller: the workbench, which reloads when the folder changes.
	ReadCachedFirst
)

// Load loads the packet named by args, or the built-in sample. A path that
// cannot be read as a packet at all is exit status 2.
func Load(ctx context.Context, f *factory.Factory, args []string, read Read, opts packet.Options) (*packet.Packet, error) {
	p, _, err := LoadCachedFirst(ctx, f, args, read, opts)
	return p, err
}

// LoadCachedFirst is Load, and for a cached copy opened first
// (ReadCachedFirst) the refresh that reads the pull request into it: it
// says what failed, "" when nothing did.
func LoadCachedFirst(ctx context.Context, f *factory.Factory, args []string, read Read, opts packet.Options) (*packet.Packet, func() string, error) {
	if len(args) == 0 {
		return packet.LoadSample(opts), nil, nil
	}
	path, refresh, err := resolve(ctx, f, args[0], read)
	if err != nil {
		fmt.Fprintln(f.IO.ErrOut, "vetter:", ui.Sanitize(err.Error()))
		return nil, nil, ExitError{2}
	}
	opts.OriginRoot = f.CacheDir()
	p, err := packet.Load(path, opts)
	if err != nil {
		fmt.Fprintln(f.IO.ErrOut, "vetter:", ui.Sanitize(err.Error()))
		return nil, nil, ExitError{2}
	}
	return p, refresh, nil
}

// resolve turns a PACKET argument into a path packet.Load reads: a path
// that exists is itself; a pull-request reference is read from GitHub (or
// the cache) into a packet folder.
func resolve(ctx context.Context, f *factory.Factory, arg string, read Read) (path string, refresh func() string, err error) {
	if _, statErr := os.Stat(arg); statErr == nil {
		return arg, nil, nil
	}
	ref, err := parseRef(f, arg)
	if errors.Is(err, github.ErrNotARef) {
		return arg, nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	opts := github.Options{Config: f.GitHubConfig(ref.Host), Offline: f.PR.Offline, LocalPacket: f.PR.LocalPacket}
	if read == ReadRecent && !f.PR.Refresh {
		opts.FreshFor = github.Fresh
	}
	if read == ReadCachedFirst && !f.PR.Offline {
		// The cached copy is on screen at once; the workbench starts the
		// refresh once it has loaded it (the two would only slow each
		// other), and says on the status line when it failed, with when
		// the copy was read.
		if dir, at, refreshInto := CachedFirst(ctx, f.CacheDir(), ref, opts); dir != "" {
			return dir, func() string {
				if err := refreshInto(); err != nil {
					return github.RefreshFailed(err, at, f.Clock())
				}
				return ""
			}, nil
		}
	}
	o, err := github.Open(ctx, ref, opts)
	if err != nil {
		return "", nil, err
	}
	return o.Dir, nil, nil
}

// parseRef reads a pull-request reference: its address, [HOST/]OWNER/REPO#N,
// or #N in a clone. github.ErrNotARef says arg is none of these: a path.
func parseRef(f *factory.Factory, arg string) (github.Ref, error) {
	return github.ParseRef(arg, github.DefaultHost(), func() (host, owner, repo string, err error) {
		r, err := f.CurrentRepo()
		return r.Host, r.Owner, r.Repo, err
	})
}

// PullRequest is the pull request a PACKET argument names, found without
// asking GitHub: a reference as typed, or a packet folder vetter built from
// a pull request (in its cache). ok is false for a packet of its own, whose
// change.md may name an address: that is the packet's word, and never
// chooses where vetter sends the person. A path that cannot be read as a
// packet is exit status 2, as for Load.
func PullRequest(ctx context.Context, f *factory.Factory, arg string) (ref github.Ref, ok bool, err error) {
	if _, statErr := os.Stat(arg); statErr != nil {
		ref, err := parseRef(f, arg)
		if err == nil {
			return ref, true, nil
		}
		if !errors.Is(err, github.ErrNotARef) {
			fmt.Fprintln(f.IO.ErrOut, "vetter:", ui.Sanitize(err.Error()))
			return github.Ref{}, false, ExitError{2}
		}
	}
	p, err := Load(ctx, f, []string{arg}, ReadFresh, packet.Options{})
	if err != nil {
		return github.Ref{}, false, err
	}
	defer p.Close()
	ref, ok = PRRef(p)
	return ref, ok, nil
}

// CachedFirst is how a pull request opens when a person is waiting for it:
// the newest cached copy of ref at once, if there is one (dir, read at
// at), and refresh, which reads the pull request into that folder in
// place; a workbench watching the folder reloads when something changed.
// dir is "" when nothing is cached.
func CachedFirst(ctx context.Context, cacheDir string, ref github.Ref, opts github.Options) (dir string, at time.Time, refresh func() error) {
	if cacheDir == "" {
		return "", time.Time{}, nil
	}
	dir, at = github.CachedAt(cacheDir, ref)
	if dir == "" {
		return "", time.Time{}, nil
	}
	opts.InPlace, opts.RefreshInto, opts.FreshFor = true, dir, 0
	return dir, at, func() error {
		_, err := github.Open(ctx, ref, opts)
		return err
	}
}

// LoadReviewed loads the packet named by args (or the built-in sample) with
// the reviewer's state of its work item: triage, the gate decision and the
// rounds seen, from the state directory (never from the packet).
func LoadReviewed(ctx context.Context, f *factory.Factory, args []string, read Read) (*packet.Packet, *review.Store, error) {
	p, err := Load(ctx, f, args, read, packet.Options{})
	if err != nil {
		return nil, nil, err
	}
	s, err := openStore(f, p)
	if err != nil {
		p.Close()
		return nil, nil, err
	}
	if u := s.Unsaved(); u != "" {
		// Reading needs no writing: the command carries on, and says what
		// the disk would not keep.
		fmt.Fprintln(f.IO.ErrOut, "vetter:", ui.Sanitize("the state disk refused a write: "+u))
	}
	return p, s, nil
}

func openStore(f *factory.Factory, p *packet.Packet) (*review.Store, error) {
	dir, err := f.StateDir()
	if err != nil {
		return nil, err
	}
	return review.OpenStore(p, dir)
}

// OpenStore loads the packet, read fresh, and binds its triage store, for
// a command that records a decision. A packet that cannot be read is exit
// status 2.
func OpenStore(ctx context.Context, f *factory.Factory, path string) (*packet.Packet, *review.Store, error) {
	p, s, err := LoadReviewed(ctx, f, []string{path}, ReadFresh)
	if err != nil {
		return nil, nil, err
	}
	if r := s.Repaired(); r != "" {
		Say(f.IO.ErrOut, "vetter: %s", r)
	}
	return p, s, nil
}

// ReportMerge says when a write merged with another vetter's on the same
// work item.
func ReportMerge(stderr io.Writer, rep review.MergeReport) {
	if rep.Merged() {
		Say(stderr, "vetter: %s", rep.String())
	}
}

// LoadRound loads one round of a comparison with its triage decisions,
// which may live outside the packet (an archive's are under the state
// directory); "sample" names the built-in sample. A pull request opens
// from the cache when it is there: an earlier round is what was read then.
// A triage file that cannot be read is a warning: the comparison still
// shows the rounds, with their decisions as the packet carried them.
func LoadRound(ctx context.Context, f *factory.Factory, arg string, read Read) (*packet.Packet, error) {
	var p *packet.Packet
	if arg == "sample" {
		p = packet.LoadSample(packet.Options{})
	} else {
		var err error
		if p, err = Load(ctx, f, []string{arg}, read, packet.Options{}); err != nil {
			return nil, err
		}
	}
	if _, err := openStore(f, p); err != nil {
		fmt.Fprintln(f.IO.ErrOut, "vetter: compare:", ui.Sanitize(err.Error()))
	}
	return p, nil
}
