package review

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/internal/packettest"
	"github.com/vetter-dev/vetter/packet"
)

// itemPacket writes the sample with its id replaced by id and its pull
// request's address by url ("" for none).
func itemPacket(t *testing.T, name, id, url string) *packet.Packet {
	t.Helper()
	dir := packettest.SampleDir(t, name)
	for _, n := range []string{packet.PlanFile, packet.ChangeFile, packet.ReviewFile, packet.ValidationFile} {
		path := filepath.Join(dir, n)
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		text := strings.ReplaceAll(string(data), "ACME-4812", id)
		if url == "" {
			text = strings.ReplaceAll(text, "MR URL: https://github.com/acme/depot/pull/2318", "")
		} else {
			text = strings.ReplaceAll(text, "https://github.com/acme/depot/pull/2318", url)
		}
		os.WriteFile(path, []byte(text), 0o644)
	}
	p := load(t, dir)
	if p.Plan.ID != id {
		t.Fatalf("the packet's id is %q, want %q", p.Plan.ID, id)
	}
	return p
}

// One id in two repositories is two work items, whichever way the pull
// request's address is written; one repository written two ways is one.
func TestWorkItemTellsRepositoriesApart(t *testing.T) {
	forms := []struct{ name, a, b, sameAsA string }{
		{"github", "https://github.com/teamA/svc/pull/7", "https://github.com/teamB/other/pull/7", "https://github.com/TeamA/SVC/pull/7/"},
		{"files tab", "https://github.com/teamA/svc/pull/7/files", "https://github.com/teamB/other/pull/7/files", "https://github.com/teamA/svc/pull/7"},
		{"www", "https://www.github.com/teamA/svc/pull/7", "https://www.github.com/teamB/other/pull/7", "https://github.com/teamA/svc/pull/7"},
		{"http", "http://github.com/teamA/svc/pull/7", "http://github.com/teamB/other/pull/7", "https://github.com/teamA/svc/pull/7"},
		{"enterprise", "https://ghe.corp.example/teamA/svc/pull/7", "https://ghe.corp.example/teamB/other/pull/7", "https://GHE.corp.example/teamA/svc/pull/7/commits"},
		{"enterprise port", "https://ghe.corp.example:8443/teamA/svc/pull/7", "https://ghe.corp.example:8443/teamB/other/pull/7", "https://ghe.corp.example:8443/teamA/svc/pull/7"},
		{"enterprise vs github", "https://ghe.corp.example/teamA/svc/pull/7", "https://github.com/teamA/svc/pull/7", "https://ghe.corp.example/teamA/svc/pull/7/files"},
		{"gitlab", "https://gitlab.com/teamA/svc/-/merge_requests/7", "https://gitlab.com/teamB/other/-/merge_requests/7", "https://gitlab.com/teamA/svc/-/merge_requests/7/diffs"},
		{"gitlab subgroup", "https://gitlab.corp.example/teamA/sub/svc/-/merge_requests/7", "https://gitlab.corp.example/teamA/other/svc/-/merge_requests/7", "https://gitlab.corp.example/teamA/sub/svc/-/merge_requests/7"},
	}
	for _, f := range forms {
		t.Run(f.name, func(t *testing.T) {
			state := t.TempDir()
			a := itemPacket(t, "a", "DYN-3726", f.a)
			b := itemPacket(t, "b", "DYN-3726", f.b)
			again := itemPacket(t, "again", "DYN-3726", f.sameAsA)
			wa, wb := a.WorkItem(), b.WorkItem()
			if wa.Dir == wb.Dir {
				t.Fatalf("%s and %s share a record (%s)", f.a, f.b, wa.Dir)
			}
			if wa.Unbound || wb.Unbound {
				t.Errorf("a packet with a repository is marked as not tied to one")
			}
			if again.WorkItem().Dir != wa.Dir {
				t.Errorf("%s and %s are one pull request but two records", f.a, f.sameAsA)
			}
			sa := openStoreIn(t, a, state)
			if _, _, err := sa.Decide(DecisionHold, "hold on A", "ana", "", t0); err != nil {
				t.Fatal(err)
			}
			mustSet(t, sa, []string{"2"}, packet.TriageAccepted, "", "ana", t0)
			openStoreIn(t, b, state)
			if g := b.Triage.Gate; g != nil {
				t.Errorf("the hold made on %s shows on %s: %+v", f.a, f.b, g)
			}
			if st, _, _ := TriageOf(b, b.Finding("review.md#2")); st != packet.TriageOpen {
				t.Errorf("the triage made on %s shows on %s: %s", f.a, f.b, st)
			}
		})
	}
}

// With an id and no repository, a packet is its own work item: another
// packet claiming the id is another, and the overview can say so.
func TestWorkItemWithoutARepositoryIsThisPacket(t *testing.T) {
	a := itemPacket(t, "a", "DYN-3726", "")
	b := hostileClaimOf(t, a)
	wa, wb := a.WorkItem(), b.WorkItem()
	if !wa.Unbound || wa.Dir == wb.Dir {
		t.Errorf("unbound %v; dirs %s and %s", wa.Unbound, wa.Dir, wb.Dir)
	}
	if again := load(t, a.Path); again.WorkItem().Dir != wa.Dir {
		t.Errorf("the same packet opened again is another work item")
	}
}

// hostileClaimOf writes a packet with p's id and no repository, and a plan
// of its own.
func hostileClaimOf(t *testing.T, p *packet.Packet) *packet.Packet {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "claim")
	packettest.CopyTree(t, p.Path, dir)
	plan := filepath.Join(dir, packet.PlanFile)
	data, _ := os.ReadFile(plan)
	os.WriteFile(plan, append(data, []byte("\nA plan of its own.\n")...), 0o644)
	return load(t, dir)
}

// A record an earlier vetter kept under the id alone moves, the first time
// the work item opens, to the work item's own folder, with what it holds;
// the person is told; a second repository with the id starts afresh.
func TestFormerRecordMovesToTheNewKey(t *testing.T) {
	state := t.TempDir()
	a := itemPacket(t, "a", "DYN-3726", "https://ghe.corp.example/teamA/svc/pull/7")
	former := filepath.Join(state, "vetter", packet.WorkItemDir("item\x00\x00DYN-3726", "DYN-3726"))
	if err := os.MkdirAll(former, 0o700); err != nil {
		t.Fatal(err)
	}
	fp := packet.Fingerprint(a.Finding("review.md#2"))
	triage := `{"version":1,"findings":{"review.md#2":{"state":"accepted","time":"2026-08-01T10:00:00Z","user":"ana","fingerprint":"` + fp + `"}},` +
		`"gate":{"decision":"hold","sha":"1bb1c70","time":"2026-08-01T10:01:00Z","gate_ready":false}}`
	os.WriteFile(filepath.Join(former, packet.TriageFile), []byte(triage), 0o600)
	os.WriteFile(filepath.Join(former, packet.DecisionsFile), []byte(`{"time":"2026-08-01T10:01:00Z","decision":"hold","sha":"1bb1c70","gate_ready":false}`+"\n"), 0o600)

	s := openStoreIn(t, a, state)
	if filepath.Dir(s.Where()) != filepath.Join(state, "vetter", a.WorkItem().Dir) {
		t.Fatalf("the store is at %s", s.Where())
	}
	if exists(former) {
		t.Errorf("the former folder is still there")
	}
	if st, _, _ := TriageOf(a, a.Finding("review.md#2")); st != packet.TriageAccepted {
		t.Errorf("finding 2 is %s after the move, want accepted", st)
	}
	if g := a.Triage.Gate; g == nil || g.Decision != DecisionHold {
		t.Errorf("the gate decision did not move: %+v", g)
	}
	if !strings.Contains(s.Repaired(), "id alone") {
		t.Errorf("the move was silent: %q", s.Repaired())
	}
	b := itemPacket(t, "b", "DYN-3726", "https://ghe.corp.example/teamB/other/pull/7")
	openStoreIn(t, b, state)
	if b.Triage.Gate != nil {
		t.Errorf("the second repository got the moved record too")
	}
}
