package github

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
)

// folderFiles reads a packet folder, pr.json's fetched_at aside.
func folderFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if rel == packet.OriginFile {
			var o map[string]any
			if err := json.Unmarshal(data, &o); err != nil {
				return err
			}
			delete(o, "fetched_at")
			data, _ = json.Marshal(o)
		}
		out[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func gateCheck(p *packet.Packet, name string) packet.GateCheck {
	for _, c := range review.Gate(p).Checks {
		if c.Name == name {
			return c
		}
	}
	return packet.GateCheck{}
}

// The first screen of a pull request not cached reads the pull request,
// its comments and its diff only; what rests on the parts not read says
// "not read yet", and the gate is not ready on them. The full read into the
// same folder then leaves exactly what a one-shot read writes.
func TestOpenFirstThenTheRestIsTheOneShotRead(t *testing.T) {
	s, opts := newFake(t)
	o, err := OpenFirst(context.Background(), fixtureRef, opts)
	if err != nil {
		t.Fatalf("OpenFirst: %v", err)
	}
	for path, n := range s.ByPath {
		if strings.Contains(path, "check-runs") || strings.Contains(path, "/status") || strings.Contains(path, "graphql") ||
			strings.Contains(path, "/compare/") || strings.Contains(path, "/reviews") || strings.HasSuffix(path, "/pulls/42/comments") || strings.HasSuffix(path, "/commits") {
			t.Errorf("the first screen asked %s (%d times)", path, n)
		}
	}
	p, err := packet.Load(o.Dir, packet.Options{OriginRoot: opts.CacheDir})
	if err != nil {
		t.Fatal(err)
	}
	if p.Plan.ID != "ACME-77" {
		t.Error("the first screen lacks the packet's documents")
	}
	if len(p.Origin.Threads) != 0 || !p.Origin.IsPending(packet.PendingThreads) {
		t.Errorf("threads %d, pending %v", len(p.Origin.Threads), p.Origin.Pending)
	}
	for _, name := range []string{packet.CheckCI, review.CheckFindingsTriaged, packet.CheckPacketCurrent} {
		if c := gateCheck(p, name); c.OK || !strings.Contains(c.Detail, "not read yet") {
			t.Errorf("gate check %s while pending: %v %q, want not ready, not read yet", name, c.OK, c.Detail)
		}
	}
	if review.Gate(p).Ready {
		t.Error("the gate is ready on parts not read")
	}
	said := false
	for _, pr := range p.Problems {
		said = said || (pr.Code == packet.CodeOriginPending && strings.Contains(pr.Message, "the head's checks"))
	}
	if !said {
		t.Error("no problem says what is still being read")
	}
	p.Close()
	// Nothing takes the staged folder for a fresh read.
	if _, at := CachedAt(opts.CacheDir, fixtureRef); !at.IsZero() {
		t.Errorf("the staged folder has a read time %v", at)
	}

	// The rest, as the workbench's refresh reads it.
	rest := opts
	rest.InPlace, rest.RefreshInto = true, o.Dir
	if _, err := Open(context.Background(), fixtureRef, rest); err != nil {
		t.Fatalf("the rest: %v", err)
	}
	oneShot := opts
	oneShot.CacheDir = t.TempDir()
	whole, err := Open(context.Background(), fixtureRef, oneShot)
	if err != nil {
		t.Fatal(err)
	}
	got, want := folderFiles(t, o.Dir), folderFiles(t, whole.Dir)
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s after the staged read differs from the one-shot read's:\n%s\nwant\n%s", name, got[name], w)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s is left from the staged read", name)
		}
	}
	p, err = packet.Load(o.Dir, packet.Options{OriginRoot: opts.CacheDir})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if len(p.Origin.Pending) != 0 || len(p.Origin.Threads) == 0 {
		t.Errorf("after the rest: pending %v, %d threads", p.Origin.Pending, len(p.Origin.Threads))
	}
}
