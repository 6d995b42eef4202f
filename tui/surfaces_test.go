package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/report"
	"github.com/vetter-dev/vetter/review"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/tui/internal/screentest"
	"github.com/vetter-dev/vetter/tui/screens/decision"
)

// gateSays is what one surface shows of the gate: ready or not, and the
// mark of each check it lists by name (✓ holds, ✗ fails, ! informs without
// holding the gate). A surface that shows only the failing checks lists
// those (✗).
type gateSays struct {
	ready bool
	marks map[string]string
}

func (g gateSays) String() string {
	names := slices.Sorted(maps.Keys(g.marks))
	var b strings.Builder
	fmt.Fprintf(&b, "ready=%v", g.ready)
	for _, n := range names {
		fmt.Fprintf(&b, " %s%s", g.marks[n], n)
	}
	return b.String()
}

// markOf is the mark every surface gives a check, written out here rather
// than taken from GateCheck.Mark, so that the test does not share a
// mistake with the code it checks.
func markOf(c packet.GateCheck) string {
	switch {
	case c.OK && c.Unproven:
		return "?"
	case c.OK:
		return "✓"
	case c.Info:
		return "!"
	}
	return "✗"
}

// randomScreenReview gives p a random reviewer's state and origin, in place,
// as a save or a reload leaves them: triage of every finding (some made on
// another text of it), decisions for its head and for others, rounds seen,
// the high attention items marked reviewed, a pull request's CI (check runs
// and commit statuses, required or not, failing, pending) and an error in
// the packet.
func randomScreenReview(p *packet.Packet, rng *rand.Rand, others []string, high []packet.Attention, problems []packet.Problem) {
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	states := []string{packet.TriageOpen, packet.TriageAccepted, packet.TriageDismissed, packet.TriageDeferred, packet.TriageAccepted, packet.TriageAccepted}
	st := &packet.TriageState{Version: 1, Findings: map[string]*packet.Decision{}}
	for _, f := range p.Findings {
		switch rng.IntN(10) {
		case 0: // untouched
		case 1: // decided on another text of the finding: stale
			st.Findings[f.ID] = &packet.Decision{State: packet.TriageAccepted, Fingerprint: "0000000000000000", Time: at}
		default:
			st.Findings[f.ID] = &packet.Decision{State: states[rng.IntN(len(states))], Fingerprint: packet.Fingerprint(f), Time: at}
		}
	}
	heads := append([]string{p.Change.HeadSHA}, others...)
	words := []string{review.DecisionOkToTest, review.DecisionHold, review.DecisionRequestChanges}
	for i := range rng.IntN(4) {
		sha := heads[rng.IntN(len(heads))]
		d := &packet.GateDecision{Decision: words[rng.IntN(len(words))], SHA: sha, User: "ana", Time: at.Add(time.Duration(i+1) * time.Minute)}
		if st.Heads == nil {
			st.Heads = map[string]*packet.GateDecision{}
		}
		st.Heads[strings.ToLower(sha)] = d
		st.Gate = d
	}
	p.Triage = st
	p.History = &packet.History{}
	for _, h := range others {
		if rng.IntN(2) == 0 {
			r := packet.Round{Head: h}
			for _, k := range review.RegistryKeys(p) {
				if rng.IntN(3) > 0 {
					r.Registry = append(r.Registry, k)
				}
			}
			p.History.Rounds = append(p.History.Rounds, r)
		}
	}
	p.Reviewed = map[string]packet.ReviewMark{}
	for _, a := range high {
		if rng.IntN(3) > 0 {
			p.Reviewed[a.Key] = packet.ReviewMark{User: "ana", Time: at}
		}
	}
	p.Origin = nil
	if rng.IntN(3) > 0 {
		var checks []packet.CICheck
		ciStates := []string{packet.CISuccess, packet.CIFailure, packet.CISkipped, packet.CIPending, packet.CIOther, packet.CISuccess}
		var required []string
		for i := range rng.IntN(6) {
			name := fmt.Sprintf("check-%d", i)
			if rng.IntN(4) == 0 {
				name = "jenkins/required-build" // a status and a check run of one name
			}
			kind := packet.CIKindCheckRun
			if rng.IntN(2) == 0 {
				kind = packet.CIKindStatus
			}
			checks = append(checks, packet.CICheck{Name: name, Kind: kind, State: ciStates[rng.IntN(len(ciStates))]})
			if rng.IntN(2) == 0 {
				required = append(required, name)
			}
		}
		head := p.Change.HeadSHA
		p.Origin = &packet.Origin{Kind: packet.OriginKindPR, Owner: "acme", Repo: "depot", Number: 42, HeadSHA: head, PacketHeadSHA: head,
			CI: packet.NewOriginCI(checks, required, rng.IntN(2) == 0)}
	}
	p.Problems = slices.Clone(problems)
	if rng.IntN(4) == 0 {
		p.Problems = append(p.Problems, packet.Problem{Code: "random-error", Severity: packet.SevError, File: packet.ReviewFile, Message: "a random error"})
	}
}

var (
	summaryGate  = regexp.MustCompile(`(?m)^Gate        (READY|NOT READY)$`)
	summaryCheck = regexp.MustCompile(`(?m)^  ([✓✗!?]) (\S+)`)
	// A screen's check row: a selection bar or spaces, the mark, the name.
	screenCheck = regexp.MustCompile(`(?m)^[▌ ]\s+([✓✗!?]) ([a-z][a-z-]+)\s`)
	overGate    = regexp.MustCompile(`(?m)^ Gate  +(ready|not ready)  `)
	decideGate  = regexp.MustCompile(`(?m)^ Gate +(ready|not ready) *$`)
	walkGate    = regexp.MustCompile(`(?m)^ Gate +(ready|not ready: (.*?)) *$`)
	statusGate  = regexp.MustCompile(`Decision +gate (ready|not ready) ·`)
)

// checkMarks reads the check rows a surface draws.
func checkMarks(re *regexp.Regexp, s string) map[string]string {
	out := map[string]string{}
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		out[m[2]] = m[1]
	}
	return out
}

// screensSay renders the review on every surface a person reads the gate
// on and reads back what each shows: the summary as `summary` and
// `--print` print it, the summary's JSON as `summary --json` prints it, the
// walk's gate step, the overview, the decision screen and its status line.
func screensSay(t *testing.T, r *Workbench) map[string]gateSays {
	t.Helper()
	p := r.ctx.Packet
	out := map[string]gateSays{}

	s := report.Summarize(p)
	var b bytes.Buffer
	s.WriteText(&b)
	text := b.String()
	loc := summaryGate.FindStringSubmatchIndex(text)
	if loc == nil {
		t.Fatalf("the summary has no gate line:\n%s", text)
	}
	// The gate's section: its line, then its checks up to a blank line.
	section, _, _ := strings.Cut(text[loc[0]:], "\n\n")
	out["summary and --print"] = gateSays{ready: text[loc[2]:loc[3]] == "READY", marks: checkMarks(summaryCheck, section)}
	var m []string

	js, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Gate struct {
			Ready  bool `json:"ready"`
			Checks []packet.GateCheck
		} `json:"gate"`
	}
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	j := gateSays{ready: back.Gate.Ready, marks: map[string]string{}}
	for _, c := range back.Gate.Checks {
		j.marks[c.Name] = markOf(c)
	}
	out["summary --json"] = j

	screen := func(keys ...string) string {
		pressKeys(r, keys...)
		return ansi.Strip(r.Render())
	}
	// The walk's first step says the gate in a line: ready, or the checks
	// that fail.
	walk := screen("W")
	if m = walkGate.FindStringSubmatch(walk); m == nil || r.Active() != common.ScreenWalk {
		t.Fatalf("the walk's gate step has no gate line (on %v):\n%s", r.Active(), walk)
	}
	w := gateSays{ready: m[1] == "ready", marks: map[string]string{}}
	if m[2] != "" {
		for _, n := range strings.Split(m[2], ", ") {
			w.marks[n] = "✗"
		}
	}
	out["walk"] = w

	over := screen("1")
	if m = overGate.FindStringSubmatch(over); m == nil {
		t.Fatalf("the overview has no gate line:\n%s", over)
	}
	out["overview"] = gateSays{ready: m[1] == "ready", marks: checkMarks(screenCheck, over)}

	dec := screen("7")
	if m = decideGate.FindStringSubmatch(dec); m == nil {
		t.Fatalf("the decision screen has no gate line:\n%s", dec)
	}
	out["decision"] = gateSays{ready: m[1] == "ready", marks: checkMarks(screenCheck, dec)}
	if m = statusGate.FindStringSubmatch(dec); m == nil {
		t.Fatalf("the decision screen's status line has no gate:\n%s", dec)
	}
	out["status line"] = gateSays{ready: m[1] == "ready"}
	return out
}

// The screens agree with the gate: for random reviews (triage, decisions
// for this head and others, rounds seen, high items reviewed, a pull
// request's CI with failing required checks and commit statuses, errors in
// the packet), computed once as the gate, every surface shows the same
// readiness and the same mark for every check it lists: the summary
// (`summary`, `--print`), its JSON (`summary --json`), the walk's gate step
// (the failing checks), the overview, the decision screen (every check)
// and the status line (readiness). The state changes as a save changes
// it, and the screens learn of it as they do then (TriageChangedMsg).
func TestScreensAgreeWithTheGate(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(20, 21))
		seen := map[string]int{}
		reviews := 0
		for _, tc := range []struct {
			name string
			load func(t *testing.T) *packet.Packet
			n    int
		}{
			{"dyn-3726 round 1", func(t *testing.T) *packet.Packet {
				return loadCopy(t, filepath.Join("..", "testdata", "dyn-3726", "round1"))
			}, 300},
			// The sample with a workflow diff: high attention items, so the
			// attention-reviewed check informs (!) when some are not reviewed.
			{"sample with a workflow", func(t *testing.T) *packet.Packet {
				dir := sampleCopy(t, "p")
				if err := os.WriteFile(filepath.Join(dir, "change.diff"), []byte(attentionDiff), 0o644); err != nil {
					t.Fatal(err)
				}
				return loadCopy(t, dir)
			}, 200},
		} {
			p := tc.load(t)
			ctx := common.NewContext(p, true, false)
			r := NewWorkbench(ctx, Options{ForceTheme: "dark"})
			drive(r, r.Init())
			// Tall and wide enough that every check is on screen.
			r.Update(tea.WindowSizeMsg{Width: 160, Height: 60})
			pressKeys(r, "7") // the decision screen scans the diff
			var high []packet.Attention
			for _, a := range r.screens[common.ScreenDecision].(*decision.Decision).Attention() {
				if a.Severity == packet.AttentionHigh {
					high = append(high, a)
				}
			}
			problems := slices.Clone(p.Problems)
			others := []string{"eececad6a70e5217727a5cc8f7d4930148034530", "5e2f0c7a9d14b38e6f1a2c0b7d9e4a3f81c6b250"}
			for i := range tc.n {
				randomScreenReview(p, rng, others, high, problems)
				_, cmd := r.Update(common.TriageChangedMsg{})
				drive(r, cmd)
				g := review.Gate(p)
				want := gateSays{ready: g.Ready, marks: map[string]string{}}
				for _, c := range g.Checks {
					want.marks[c.Name] = markOf(c)
				}
				var failing []string
				for _, c := range g.Checks {
					if want.marks[c.Name] == "!" {
						seen["a check informs"]++
					}
				}
				failing = review.FailingChecks(g)
				seen[fmt.Sprintf("ready=%v", g.Ready)]++
				if p.Origin != nil && slices.Contains(failing, packet.CheckCI) {
					seen["ci fails"]++
				}
				if slices.Contains(failing, review.CheckPacketValid) {
					seen["packet-valid fails"]++
				}
				for name, got := range screensSay(t, r) {
					ok := got.ready == want.ready
					switch name {
					case "walk":
						ok = ok && slices.Equal(slices.Sorted(maps.Keys(got.marks)), slices.Sorted(slices.Values(failing)))
					case "status line":
					default:
						ok = ok && maps.Equal(got.marks, want.marks)
					}
					if !ok {
						t.Fatalf("%s, review %d: %s shows %v; the gate is %v", tc.name, i, name, got, want)
					}
				}
				reviews++
			}
		}
		// The reviews reach a ready gate and a gate held by each kind of
		// check this test is about.
		for _, k := range []string{"ready=true", "ready=false", "a check informs", "ci fails", "packet-valid fails"} {
			if seen[k] == 0 {
				t.Errorf("no review had %s: %v", k, seen)
			}
		}
		t.Logf("%d reviews: %v", reviews, seen)
	})
}
