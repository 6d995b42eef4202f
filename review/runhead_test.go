package review

import (
	"bytes"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/vetter-dev/vetter/internal/packettest"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/packet/source"
)

const (
	head1 = "1bb1c70f4285cf39d8ebaf61573f0095423d52b1" // the sample's head (round 1)
	head2 = "5e2f0c7a9d14b38e6f1a2c0b7d9e4a3f81c6b250" // round 2's head
)

// roundOf is what vetter would have recorded for a round: its head and the
// keys of the runs it saw first.
func roundOf(p *packet.Packet, seen map[string]bool) packet.Round {
	r := packet.Round{Head: p.Change.HeadSHA, Registry: RegistryKeys(p)}
	for _, run := range p.Registry.Runs {
		if k := packet.RunKey(run); !seen[k] {
			seen[k] = true
			r.Runs = append(r.Runs, k)
		}
	}
	return r
}

func currentCheck(t testing.TB, p *packet.Packet, name string) packet.GateCheck {
	t.Helper()
	for _, c := range Gate(p).Checks {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("the gate has no %s check", name)
	return packet.GateCheck{}
}

// Round 2 re-ran one recipe: the others still decide their rows with runs
// of round 1's head, and the gate says which and on what.
func TestEvidenceCurrentRounds(t *testing.T) {
	p1 := packet.LoadSample(packet.Options{})
	p2 := packettest.Round2(t)
	seen := map[string]bool{}
	r1 := roundOf(p1, seen)
	r2 := roundOf(p2, seen)
	if len(r2.Runs) != 1 {
		t.Fatalf("round 2 should bring one new run, found %d", len(r2.Runs))
	}

	p1.History = &packet.History{Rounds: []packet.Round{r1}}
	c := currentCheck(t, p1, CheckEvidenceCurrent)
	// Two logs print the head; the other two runs rest on the packet's word.
	if want := "2 of 4 proven on 1bb1c70; 2 on the packet's word"; !c.OK || c.Detail != want {
		t.Errorf("round 1: %+v, want ok with %q", c, want)
	}

	p2.History = &packet.History{Rounds: []packet.Round{r1, r2}}
	c = currentCheck(t, p2, CheckEvidenceCurrent)
	// In the evidence table's order: the plan's recipes, then the registry's.
	want := "02-lint, 03-python-unit-tests and 00-go-toolchain-setup last ran on 1bb1c70; the head is 5e2f0c7"
	if c.OK || c.Detail != want {
		t.Errorf("round 2: %+v, want failing with %q", c, want)
	}
	if Gate(p2).Ready {
		t.Error("round 2's gate is ready with stale evidence")
	}
	for seq, want := range map[int][2]string{
		1: {head1, HeadFromLog},        // its log lists 1bb1c70
		4: {head1, HeadFromOlderRound}, // unchanged in round 1's registry
		6: {head2, HeadFromRegistry},
	} {
		sha, src := RunHead(p2, runBySeq(t, p2, seq))
		if sha != want[0] || src != want[1] {
			t.Errorf("run %d head = %s (%s), want %s (%s)", seq, sha, src, want[0], want[1])
		}
	}
}

// The check is in the gate's list right after evidence-complete.
func TestEvidenceCurrentOrder(t *testing.T) {
	checks := Gate(packet.LoadSample(packet.Options{})).Checks
	for i, c := range checks {
		if c.Name == CheckEvidence {
			if i+1 >= len(checks) || checks[i+1].Name != CheckEvidenceCurrent {
				t.Fatalf("evidence-current does not follow evidence-complete: %+v", checks)
			}
			return
		}
	}
	t.Fatal("no evidence-complete check")
}

func runBySeq(t *testing.T, p *packet.Packet, seq int) *packet.Run {
	t.Helper()
	for _, r := range p.Registry.Runs {
		if r.Seq == seq {
			return r
		}
	}
	t.Fatalf("no run %d", seq)
	return nil
}

// headPacket is a packet of runs whose logs (by name) hold the given text,
// with the given head.
func headPacket(t *testing.T, head string, runs []*packet.Run, logs map[string]string) *packet.Packet {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, text := range logs {
		fsys["validation/logs/"+name] = &fstest.MapFile{Data: []byte(text)}
	}
	src := source.FromFS(fsys, source.KindEmbedded, "<test>")
	p := &packet.Packet{Change: packet.Change{HeadSHA: head}, Src: src, FS: fsys}
	for name := range logs {
		l, err := packet.OpenLog(src, "validation/logs/"+name)
		if err != nil {
			t.Fatal(err)
		}
		p.Logs = append(p.Logs, l)
	}
	for _, r := range runs {
		if r.Log != "" {
			r.Log = "validation/logs/" + r.Log
		}
	}
	p.Registry.Runs = runs
	p.Evidence = packet.BuildEvidence(nil, runs)
	return p
}

func TestRunHeadOrder(t *testing.T) {
	tests := []struct {
		name    string
		run     packet.Run
		log     string
		history []packet.Round
		commits []string // the pull request's, oldest first
		sha     string
		source  string
	}{
		{
			name: "head_sha wins over the log",
			run:  packet.Run{Recipe: "a", HeadSHA: head2},
			log:  "HEAD is now at 1bb1c70 upload: retry\n",
			sha:  head2, source: HeadFromRegistry,
		},
		{
			name:    "the log names a round's head",
			run:     packet.Run{Recipe: "a"},
			log:     "HEAD is now at 1bb1c70 upload: retry\n",
			history: []packet.Round{{Head: head1}, {Head: head2}},
			sha:     head1, source: HeadFromLog,
		},
		{
			name: "a SHA that is no head of the work item proves nothing",
			run:  packet.Run{Recipe: "a"},
			log:  "HEAD is now at 1bb1c70 upload: retry\n",
		},
		{
			name:    "a round not known to be older proves nothing",
			run:     packet.Run{Recipe: "a"},
			log:     "ok  \tgithub.com/acme/depot\t0.4s\nbase a8eb4ddc9266\n",
			history: []packet.Round{{Head: head1, Registry: []string{"KEY"}}, {Head: head2}},
		},
		{
			name: "nothing tells",
			run:  packet.Run{Recipe: "a"},
			log:  "all tests passed\n",
		},
		{
			name: "a 7-digit prefix names the head",
			run:  packet.Run{Recipe: "a"},
			log:  "checked out 5e2f0c7\n",
			sha:  head2, source: HeadFromLog,
		},
		{
			name: "a 6-digit prefix does not",
			run:  packet.Run{Recipe: "a"},
			log:  "checked out 5e2f0c\n",
		},
		{
			name: "a longer word that merely starts like the head does not",
			run:  packet.Run{Recipe: "a"},
			log:  "sha256 5e2f0c7a9d14b38e6f1a2c0b7d9e4a3f81c6b250aaaa\n",
		},
		{
			name:    "an old head is matched in full and upper case",
			run:     packet.Run{Recipe: "a"},
			log:     "HEAD=" + strings.ToUpper(head1) + ".\n",
			history: []packet.Round{{Head: head1}, {Head: head2}},
			sha:     head1, source: HeadFromLog,
		},
		{
			name:    "a listing of both heads is the newer one, by the pull request's commits",
			run:     packet.Run{Recipe: "a"},
			log:     "1bb1c70 upload: retry\n5e2f0c7 review round\n",
			commits: []string{head1, head2},
			sha:     head2, source: HeadFromLog,
		},
		{
			name:    "a listing of both heads in an unknown order proves nothing",
			run:     packet.Run{Recipe: "a"},
			log:     "From github.com:acme/depot\n   1bb1c70..5e2f0c7  feat -> origin/feat\nHEAD is now at 1bb1c70\n",
			history: []packet.Round{{Head: head1}, {Head: head2}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := tt.run
			run.Log = "r.log"
			p := headPacket(t, head2, []*packet.Run{&run}, map[string]string{"r.log": tt.log})
			if tt.history != nil {
				for i := range tt.history {
					for j, k := range tt.history[i].Registry {
						if k == "KEY" {
							tt.history[i].Registry[j] = RunContentKey(p, &run)
						}
					}
				}
				p.History = &packet.History{Rounds: tt.history}
			}
			if tt.commits != nil {
				p.Origin = &packet.Origin{}
				for _, c := range tt.commits {
					p.Origin.Commits = append(p.Origin.Commits, packet.OriginCommit{SHA: c})
				}
			}
			sha, source := RunHead(p, &run)
			if sha != tt.sha || source != tt.source {
				t.Errorf("RunHead = %q (%q), want %q (%q)", sha, source, tt.sha, tt.source)
			}
		})
	}
}

func TestEvidenceCurrentDetail(t *testing.T) {
	tests := []struct {
		name string
		runs []*packet.Run
		ok   bool
		want string
	}{
		{
			name: "nothing tells: passes and says so",
			runs: []*packet.Run{{Recipe: "01-unit", Status: packet.StatusValidated}, {Recipe: "02-lint", Status: packet.StatusValidated}},
			ok:   true, want: "0 of 2 proven on 5e2f0c7; 2 on the packet's word",
		},
		{
			name: "some tell",
			runs: []*packet.Run{{Recipe: "01-unit", Status: packet.StatusValidated, HeadSHA: head2[:9]}, {Recipe: "02-lint", Status: packet.StatusValidated}},
			ok:   true, want: "1 of 2 proven on 5e2f0c7; 1 on the packet's word",
		},
		{
			name: "grouped by SHA, in row order",
			runs: []*packet.Run{
				{Recipe: "01-unit", Status: packet.StatusValidated, HeadSHA: "ff62a64ac4c63e7d6b079d9826b805b3bc333d25"},
				{Recipe: "02-lint", Status: packet.StatusValidated, HeadSHA: head1},
				{Recipe: "03-py", Status: packet.StatusDispositioned, HeadSHA: "FF62A64"},
				{Recipe: "04-docs", Status: packet.StatusValidated, HeadSHA: head2},
			},
			want: "01-unit and 03-py last ran on ff62a64; 02-lint last ran on 1bb1c70; the head is 5e2f0c7",
		},
		{
			name: "a superseded run does not decide its row",
			runs: []*packet.Run{
				{Seq: 1, Recipe: "01-unit", Status: packet.StatusValidated, HeadSHA: head2},
				{Seq: 2, Recipe: "02-lint", Status: packet.StatusSuperseded, HeadSHA: head1},
				{Seq: 3, Recipe: "02-lint", Status: packet.StatusValidated, HeadSHA: head2},
			},
			ok: true, want: "2/2 runs tested the head",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := headPacket(t, head2, tt.runs, nil)
			c := currentCheck(t, p, CheckEvidenceCurrent)
			if c.OK != tt.ok || c.Detail != tt.want {
				t.Errorf("evidence-current = %v %q, want %v %q", c.OK, c.Detail, tt.ok, tt.want)
			}
		})
	}
}

// countingReader is a log's contents that counts the bytes read from it.
type countingReader struct {
	data []byte
	read atomic.Int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := bytes.NewReader(c.data).ReadAt(p, off)
	c.read.Add(int64(n))
	return n, err
}

// A huge log is searched at its two ends only, once however often the gate
// asks, and a head printed in its middle is not seen.
func TestRunHeadReadsLogEndsOnce(t *testing.T) {
	const size = 8 << 20
	data := bytes.Repeat([]byte("=== RUN   TestX\n--- PASS: TestX (0.00s)\n"), size/40)
	copy(data[len(data)/2:], "HEAD is now at 1bb1c70\n")
	tail := "git rev-parse HEAD\n" + head2 + "\n[exit 0 after 1.0s]\n"
	data = append(data, tail...)
	cr := &countingReader{data: data}
	l := &packet.Log{Path: "validation/logs/big.log", Size: int64(len(data)), R: cr}
	run := &packet.Run{Recipe: "01-unit", Status: packet.StatusValidated, Log: l.Path}
	p := &packet.Packet{Change: packet.Change{HeadSHA: head2}, Logs: []*packet.Log{l}}
	p.Registry.Runs = []*packet.Run{run}
	p.Evidence = packet.BuildEvidence(nil, p.Registry.Runs)
	p.History = &packet.History{Rounds: []packet.Round{{Head: head1}, {Head: head2}}}

	for range 3 {
		if sha, src := RunHead(p, run); sha != head2 || src != HeadFromLog {
			t.Fatalf("RunHead = %s (%s), want the head from the log's last lines", sha, src)
		}
		Gate(p)
	}
	// A new History (the store opened) asks again without reading again.
	p.History = &packet.History{Rounds: []packet.Round{{Head: head2}}}
	if c := currentCheck(t, p, CheckEvidenceCurrent); !c.OK || c.Detail != "1/1 runs tested the head" {
		t.Errorf("evidence-current = %+v", c)
	}
	if got := cr.read.Load(); got != 2*logHeadWindow {
		t.Errorf("read %d bytes of a %d-byte log, want its two %d-byte ends once", got, len(data), logHeadWindow)
	}
}

// A word cut at the window's edge may be the start of a longer one (a
// digest), so it does not count.
func TestHexWordsWindowEdges(t *testing.T) {
	var got []string
	add := func(w string) { got = append(got, w) }
	hexWords([]byte("1bb1c70f x DEADBEEF1 zz 5e2f0c7a9 abcdef 123456g7"), true, true, add)
	if strings.Join(got, " ") != "deadbeef1 5e2f0c7a9" {
		t.Errorf("words = %q, want the uncut hex words of 7 to 40 digits", got)
	}
}

func TestParseRegistryHeadSHA(t *testing.T) {
	reg, probs := packet.ParseRegistry([]byte(`{"seq": 1, "recipe": "a", "head_sha": "` + head2 + `"}
{"seq": 2, "recipe": "b", "head_sha": "not-a-sha"}
{"seq": 3, "recipe": "c", "head_sha": 5}
`))
	if got := reg.Runs[0].HeadSHA; got != head2 {
		t.Errorf("run 1 head_sha = %q", got)
	}
	if _, ok := reg.Runs[0].Extra["head_sha"]; ok {
		t.Error("head_sha is kept as an unknown field too")
	}
	if reg.Runs[1].HeadSHA != "" || reg.Runs[2].HeadSHA != "" {
		t.Errorf("bad head_sha values kept: %q, %q", reg.Runs[1].HeadSHA, reg.Runs[2].HeadSHA)
	}
	lines := map[int]bool{}
	for _, pr := range probs {
		if pr.Code == packet.CodeRegistryField && strings.Contains(pr.Message, "head_sha") {
			lines[pr.Line] = true
		}
	}
	if !lines[2] || !lines[3] || len(lines) != 2 {
		t.Errorf("head_sha problems on lines %v, want 2 and 3; all: %+v", lines, probs)
	}
}

// synthLog is a log of any size made of one repeated line, read without
// holding it, so a benchmark can stand a 1 GiB log in for the scale bench's.
type synthLog struct {
	size int64
	line []byte
	read atomic.Int64
}

func (s *synthLog) ReadAt(p []byte, off int64) (int, error) {
	if off >= s.size {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), s.size-off))
	for i := range n {
		p[i] = s.line[(off+int64(i))%int64(len(s.line))]
	}
	s.read.Add(int64(n))
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// The gate on a packet whose deciding run has a 1 GiB log: the first Gate
// reads the log's two ends, later ones nothing.
func BenchmarkGateEvidenceCurrent(b *testing.B) {
	newPacket := func() (*packet.Packet, *synthLog) {
		sl := &synthLog{size: 1 << 30, line: []byte("--- PASS: TestUploadStores (0.01s) at 1bb1c70\n")}
		l := &packet.Log{Path: "validation/logs/big.log", Size: sl.size, R: sl}
		p := &packet.Packet{Change: packet.Change{HeadSHA: head2}, Logs: []*packet.Log{l}}
		p.Registry.Runs = []*packet.Run{{Seq: 1, Recipe: "01-unit", Status: packet.StatusValidated, Log: l.Path}}
		p.Evidence = packet.BuildEvidence(nil, p.Registry.Runs)
		p.History = &packet.History{Rounds: []packet.Round{{Head: head1}, {Head: head2}}}
		return p, sl
	}
	b.Run("first", func(b *testing.B) {
		var read int64
		for b.Loop() {
			p, sl := newPacket()
			if c := currentCheck(b, p, CheckEvidenceCurrent); c.OK {
				b.Fatalf("evidence-current = %+v, want failing on 1bb1c70", c)
			}
			read += sl.read.Load()
		}
		b.ReportMetric(float64(read)/float64(b.N), "log-bytes-read/op")
	})
	b.Run("cached", func(b *testing.B) {
		p, _ := newPacket()
		Gate(p)
		for b.Loop() {
			Gate(p)
		}
	})
}
