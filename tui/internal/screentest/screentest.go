// Package screentest holds what the screens' tests share: golden frames
// (plain and styled), the keys a terminal sends, running a screen's
// commands to the end, and the packets the tests load. It is imported by
// tests only.
package screentest

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/charmbracelet/x/ansi"

	"github.com/vetter-dev/vetter/bench"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/tui/common"
)

// registered by x/exp/golden (teatest imports it), so it is looked up rather
// than defined twice.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files under testdata/")
	}
}

// Golden compares got (ANSI stripped, trailing spaces kept) with
// testdata/<name>.golden, and the frame with its styles with
// testdata/<name>.styled.golden (GoldenStyled), rewriting them under -update.
func Golden(t *testing.T, name, got string) {
	t.Helper()
	CompareGolden(t, name, filepath.Join("testdata", name+".golden"), ansi.Strip(got))
	// Every golden frame is kept with its styles too, so that a colour
	// regression on any screen fails, not only on the frames where colour
	// carries the meaning.
	GoldenStyled(t, name, got)
}

// CompareGolden compares got with the file at path, rewriting it under
// -update.
func CompareGolden(t *testing.T, name, path, got string) {
	t.Helper()
	if updating() {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading %s: %v (run with -update to create it)", path, err)
	}
	if string(want) != got {
		t.Errorf("%s differs from %s:\n--- want\n%s\n--- got\n%s", name, path, want, got)
	}
}

// CheckSize asserts a view is exactly w×h cells.
func CheckSize(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Fatalf("view has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Fatalf("line %d is %d cells wide, want %d: %q", i+1, got, w, ansi.Strip(l))
		}
	}
}

// GoldenStyled is golden with the styles kept, for the frames where colour
// carries meaning: testdata/<name>.styled.golden holds the frame with each
// escape written "\e" so it reads in an editor. The profile is pinned by
// what the screens draw: Lip Gloss writes its full-colour SGR and the
// program, not the screen, downsamples it for the terminal, so a frame is
// the same on every machine and a changed colour, a lost style or a
// placeholder drawn plain fails here.
func GoldenStyled(t *testing.T, name, got string) {
	t.Helper()
	CompareGolden(t, name, filepath.Join("testdata", name+".styled.golden"), strings.ReplaceAll(got, "\x1b", `\e`))
}

// KeyMsg builds the key press a terminal would send for a key name, for
// every screen's tests: "j", "enter", "esc", "tab", "shift+tab", "backspace",
// "space", "up", "down", "pgup", "pgdown", "ctrl+d".
func KeyMsg(k string) tea.KeyPressMsg {
	if m, ok := namedKeys[k]; ok {
		return m
	}
	if rest, ok := strings.CutPrefix(k, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: rune(rest[0]), Mod: tea.ModCtrl}
	}
	r := []rune(k)
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

// namedKeys are the keys keyMsg knows by name rather than by the text they
// type.
var namedKeys = map[string]tea.KeyPressMsg{
	"enter":     {Code: tea.KeyEnter},
	"esc":       {Code: tea.KeyEscape},
	"tab":       {Code: tea.KeyTab},
	"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift},
	"backspace": {Code: tea.KeyBackspace},
	"space":     {Code: tea.KeySpace, Text: " "},
	"up":        {Code: tea.KeyUp},
	"down":      {Code: tea.KeyDown},
	"left":      {Code: tea.KeyLeft},
	"right":     {Code: tea.KeyRight},
	"pgdown":    {Code: tea.KeyPgDown},
	"pgup":      {Code: tea.KeyPgUp},
}

// Expand returns the commands of a batch or a sequence. A sequence's order
// is not kept: no test here depends on it, and the screens do not send one.
func Expand(msg tea.Msg) ([]tea.Cmd, bool) {
	if b, ok := msg.(tea.BatchMsg); ok {
		return b, true
	}
	// tea.Sequence's message is unexported: a slice of commands by shape.
	v := reflect.ValueOf(msg)
	if v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeFor[tea.Cmd]() {
		out := make([]tea.Cmd, v.Len())
		for i := range out {
			out[i] = v.Index(i).Interface().(tea.Cmd)
		}
		return out, true
	}
	return nil, false
}

// RunScreen runs a screen's command, and everything it leads to, to the
// end on the test's goroutine, for tests of one screen without the
// workbench: the screen's own messages (epochBound) go back to it, the
// rest (a FollowMsg, a StatusMsg) are returned, in order. A tick is run
// too, and sleeps its interval: the screens tick only while they index.
func RunScreen(s interface{ Update(tea.Msg) tea.Cmd }, cmd tea.Cmd) []tea.Msg {
	var out []tea.Msg
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 10000 {
			panic("the screen's commands never settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		if cmds, ok := Expand(msg); ok {
			queue = append(queue, cmds...)
			continue
		}
		switch msg.(type) {
		case nil:
		case common.EpochBound:
			queue = append(queue, s.Update(msg))
		default:
			out = append(out, msg)
		}
	}
	return out
}

// Generated generates a packet by spec in a temporary folder and loads it
// with opts; it is closed when the test or benchmark ends.
func Generated(tb testing.TB, spec bench.Spec, opts packet.Options) *packet.Packet {
	tb.Helper()
	dir := tb.TempDir()
	if err := bench.Generate(dir, spec); err != nil {
		tb.Fatalf("generating a packet in %s: %v", dir, err)
	}
	p, err := packet.Load(dir, opts)
	if err != nil {
		tb.Fatalf("loading the generated packet from %s: %v", dir, err)
	}
	tb.Cleanup(func() { p.Close() })
	return p
}

func Sample(t testing.TB) *common.Context {
	t.Helper()
	return common.NewContext(packet.LoadSample(packet.Options{}), true, false)
}

var sgrRe = regexp.MustCompile(`^\x1b\[[0-9;:]*m`)

// OnlySGR fails when s holds an escape sequence other than SGR, or a
// control character other than newline.
func OnlySGR(t *testing.T, s string) {
	t.Helper()
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 0x1b:
			m := sgrRe.FindString(s[i:])
			if m == "" {
				t.Fatalf("non-SGR escape at byte %d: %q", i, s[i:min(i+12, len(s))])
			}
			i += len(m) - 1
		case c < 0x20 && c != '\n', c == 0x7f:
			t.Fatalf("control byte %#x at %d", c, i)
		}
	}
	if strings.ContainsRune(s, '\u009b') {
		t.Fatalf("C1 CSI in the view")
	}
}

// InBubble runs a test's body in a synctest bubble. A bubble must end with
// no goroutine left, and its fake clock moves only while the body is
// blocked: so the body ends by letting an hour of fake time pass (no real
// time), in which what was left waiting for time (a tick, a blinking
// cursor, the regexp2 timeout clock Chroma starts) fires into a buffer no
// one reads, and ends.
func InBubble(t *testing.T, f func(t *testing.T)) {
	synctest.Test(t, func(t *testing.T) {
		defer time.Sleep(time.Hour)
		f(t)
	})
}

// SampleScreen is one screen alone on the shared sample at w×h, its first
// commands run to completion.
func SampleScreen[S interface {
	Init() tea.Cmd
	Update(tea.Msg) tea.Cmd
	SetSize(w, h int)
}](w, h int, open func(*common.Context) S) (S, *common.Context) {
	ctx := common.NewContext(packet.LoadSample(packet.Options{}), true, false)
	s := open(ctx)
	s.SetSize(w, h)
	RunScreen(s, s.Init())
	return s, ctx
}

// FollowTarget returns the one FollowMsg among msgs.
func FollowTarget(t *testing.T, msgs []tea.Msg) common.Target {
	t.Helper()
	for _, m := range msgs {
		if f, ok := m.(common.FollowMsg); ok {
			return f.To
		}
	}
	t.Fatalf("no FollowMsg among %#v", msgs)
	return common.Target{}
}

// ManyFindings is a packet of 2,000 findings over 1,000 files, its logs
// small: what the findings screen and the walk are measured on.
var ManyFindings = bench.Spec{Files: 1000, LinesPerFile: 200, Findings: 2000, LogBytes: 1 << 10}

// BigDiff generates bench.Big's diff and findings (with a small log:
// the diff screen never reads it) and loads it.
func BigDiff(b *testing.B) *packet.Packet {
	b.Helper()
	spec := bench.Big
	spec.LogBytes = 1 << 10
	p := Generated(b, spec, packet.Options{})
	if n := len(p.Diff.Files); n != spec.Files {
		b.Fatalf("big packet has %d files, want %d", n, spec.Files)
	}
	return p
}

// Press sends keys ("j", "enter", "ctrl+d", "pgdown", ...) to a screen and
// returns the last command, not run.
func Press(s interface{ Update(tea.Msg) tea.Cmd }, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		cmd = s.Update(KeyMsg(k))
	}
	return cmd
}

// Opens is the sequence a style opens with (common.SGROf), failing the test
// when the style draws no escape.
func Opens(t *testing.T, st lipgloss.Style) string {
	t.Helper()
	s := common.SGROf(st)
	if s == "" {
		t.Fatal("the style draws no escape")
	}
	return s
}
