package tui

// The screens against hostile packets (docs/security.md): whatever
// a packet holds, the workbench draws no escape sequence but the SGR its own
// styles make, no control character but newline, no C1 control, no
// bidirectional or zero-width character and no invalid UTF-8; it shows a
// visible placeholder where something was neutralised; and the rest of the
// packet still shows.

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/vetter-dev/vetter/hostile"
	"github.com/vetter-dev/vetter/internal/hidden"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/packet/source"
	"github.com/vetter-dev/vetter/tui/common"
	"github.com/vetter-dev/vetter/tui/internal/screentest"
)

// unsafeIn returns what in a rendered frame could act on a terminal or hide
// text, at most a few findings, each with its byte offset and context.
func unsafeIn(s string) []string {
	var out []string
	add := func(i int, what string) {
		if len(out) < 5 {
			out = append(out, fmt.Sprintf("%s at byte %d: %q", what, i, s[max(i-16, 0):min(i+24, len(s))]))
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			j := i + 1
			if j < len(s) && s[j] == '[' {
				j++
				for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
					j++
				}
				if j < len(s) && s[j] == 'm' {
					i = j + 1
					continue
				}
			}
			add(i, "escape sequence other than SGR")
			i++
		case c == '\n':
			i++
		case c < 0x20 || c == 0x7f:
			add(i, fmt.Sprintf("control character %#02x", c))
			i++
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && n == 1:
				add(i, "invalid UTF-8")
			case r >= 0x80 && r <= 0x9f:
				add(i, fmt.Sprintf("C1 control %U", r))
			case hiddenRune(r):
				add(i, fmt.Sprintf("hidden character %U", r))
			}
			i += n
		}
	}
	return out
}

// hiddenRune is every character the sanitiser shows as a marker: packet's
// hidden table, which check reports from too, and the corpus's own list of
// them, so a character dropped from the table still fails here.
func hiddenRune(r rune) bool {
	return hidden.Is(r) || slices.Contains(hostile.HiddenRunes, r)
}

// frames is what a walk through the workbench drew, by where it was.
type frames struct {
	names []string
	views []string
}

func (f *frames) add(name, view string) {
	f.names = append(f.names, name)
	f.views = append(f.views, view)
}

// text is every frame with styles stripped, for looking for what shows.
func (f *frames) text() string {
	var b strings.Builder
	for i, v := range f.views {
		fmt.Fprintf(&b, "===== %s\n%s\n", f.names[i], ansi.Strip(v))
	}
	return b.String()
}

// check fails on anything unsafe in any frame, and writes the frames to
// $VETTER_HOSTILE_DUMP/<name>.txt when that is set, for a person to read.
func (f *frames) check(t *testing.T, name string) {
	t.Helper()
	for i, v := range f.views {
		for _, bad := range unsafeIn(v) {
			t.Errorf("%s: %s: %s", name, f.names[i], bad)
		}
	}
	if dir := os.Getenv("VETTER_HOSTILE_DUMP"); dir != "" {
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, name+".txt"), []byte(f.text()), 0o644)
	}
}

// hostileRoot builds the workbench on p at 120×40, dark, as vetter does.
func hostileRoot(p *packet.Packet) *Workbench {
	r := NewWorkbench(common.NewContext(p, true, false), Options{ForceTheme: "dark"})
	drive(r, r.Init())
	_, cmd := r.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	drive(r, cmd)
	return r
}

// visitAll visits every screen and what each shows of the packet: every
// document rendered and as source, every diff file unified and side by
// side, wrapped and scrolled sideways, the findings and their detail, the
// evidence, every log from top to bottom, the decision screen, the palette
// and help. It presses no key that writes (triage, decisions).
func visitAll(r *Workbench) *frames {
	f := &frames{}
	shot := func(name string) { f.add(name, r.Render()) }
	p := r.ctx.Packet

	pressKeys(r, "1")
	shot("overview")
	pressKeys(r, "j", "j", "j")
	shot("overview j")
	pressKeys(r, "ctrl+d", "ctrl+d") // the problems further down
	shot("overview ctrl+d")

	pressKeys(r, "2")
	for i := range p.Docs {
		shot(fmt.Sprintf("documents %d rendered", i))
		pressKeys(r, "r")
		shot(fmt.Sprintf("documents %d source", i))
		pressKeys(r, "r", "}")
	}

	pressKeys(r, "3")
	files := 1
	if p.Diff != nil {
		files = max(len(p.Diff.Files), 1)
	}
	for i := range files {
		shot(fmt.Sprintf("diff file %d", i))
		pressKeys(r, "s")
		shot(fmt.Sprintf("diff file %d side by side", i))
		pressKeys(r, "s", "w")
		shot(fmt.Sprintf("diff file %d wrapped", i))
		pressKeys(r, "w", "]", "l", "l", "l")
		shot(fmt.Sprintf("diff file %d scrolled right", i))
		pressKeys(r, "}")
	}

	pressKeys(r, "4")
	shot("findings")
	pressKeys(r, "j")
	shot("findings j")
	pressKeys(r, "enter")
	shot("findings enter")
	pressKeys(r, "backspace", "4", "G")
	shot("findings last")

	pressKeys(r, "5")
	shot("evidence")
	pressKeys(r, "j", "enter")
	shot("evidence enter")

	pressKeys(r, "6")
	shot("logs")
	for i, l := range p.Logs {
		if i == 8 {
			break // a packet of 10,000 logs: the first few show the pattern
		}
		_, cmd := r.Update(common.FollowMsg{To: common.Target{Screen: common.ScreenLogs, Path: l.Path, File: -1, Hunk: -1, DiffLine: -1}})
		drive(r, cmd)
		shot(fmt.Sprintf("log %d", i))
		pressKeys(r, "G")
		shot(fmt.Sprintf("log %d bottom", i))
		pressKeys(r, "w")
		shot(fmt.Sprintf("log %d wrapped", i))
		pressKeys(r, "w", "l", "l", "l")
		shot(fmt.Sprintf("log %d scrolled right", i))
		pressKeys(r, "h", "h", "h", "g")
	}

	pressKeys(r, "7")
	shot("decision")
	pressKeys(r, "j", "j")
	shot("decision j")

	pressKeys(r, "ctrl+p")
	shot("palette")
	pressKeys(r, "esc", "?")
	shot("help")
	pressKeys(r, "esc")
	return f
}

// loadDir writes files into a fresh folder and loads it as vetter would.
func loadDir(t *testing.T, files hostile.Files) *packet.Packet {
	t.Helper()
	dir := t.TempDir()
	if err := files.Write(dir); err != nil {
		t.Fatal(err)
	}
	return loadPath(t, dir)
}

func loadPath(t *testing.T, path string) *packet.Packet {
	t.Helper()
	p, err := packet.Load(path, packet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// mustShow fails for each want missing from the walk's text.
func mustShow(t *testing.T, f *frames, wants ...string) {
	t.Helper()
	all := f.text()
	for _, w := range wants {
		if !strings.Contains(all, w) {
			t.Errorf("no screen shows %q", w)
		}
	}
}

func TestHostileEscapeScreens(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		files := hostile.Escape()
		if runtime.GOOS != "windows" {
			for k, v := range hostile.EscapeNames() {
				files[k] = v
			}
		}
		p := loadDir(t, files)
		f := visitAll(hostileRoot(p))
		f.check(t, "escape")
		// Every family is drawn as a placeholder, so the reviewer sees it was there.
		mustShow(t, f,
			"␛[2J", "␛]0;PWNED-T0␇", "␛]2;PWNED-T2␛\\", "␛]52;c;", "␛]8;;https://evil.invalid/PWNED",
			"␛P+q544e␛\\", "␛_Gf=100", "␛^private", "␛Xstring", "⟦0x9B⟧2J", "⟦U+009B⟧31m",
			"⟦U+009D⟧0;PWNED-C1⟦U+009C⟧", "bel␇bs␈vt␋ff␌so␎si␏nul␀", "del␡", "␛[6n", "␛[c", "␛]11;?␇",
			"␛]2;PWNED-TU", "␛Pqunterminated",
			// in a diff file name, the branch, the URL, a finding cell, a log
			"evil␛]0;PWNED-N␇", "fix/burst-cap␛[2J", "pull/7␛]8;;", "␛_Gf=100;AAAA␛\\", "␛]0;PWNED-LOG␇",
		)
		if runtime.GOOS != "windows" {
			// Names that are attacks show neutralised in the lists.
			mustShow(t, f, "notes␛]0;PWNED-F␇␛[2J⟦U+009B⟧1m.md", "name␛]0;PWNED-F␇␛[2J⟦U+009B⟧1m.log")
		}
		// The rest of the packet still shows.
		mustShow(t, f, "pass", hostile.Verdict, "sound", hostile.HeadSHA, "2/2 validated", "[exit 0 after 1.2 s]")
		// A progress bar shows what the terminal would have shown last, marked
		// as overwritten.
		all := f.text()
		if !strings.Contains(all, "␍ progress 100% done") || strings.Contains(all, "progress  50%") {
			t.Errorf("the carriage-return progress bar is not resolved to its last state and marked")
		}
	})
}

// The log's colours are translated, and text drawn in its background's
// colour gets a background a reader can see it on.
func TestHostileEscapeLogColours(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		p := loadDir(t, hostile.Escape())
		st := common.NewContext(p, true, false).Styles
		l := p.Log(hostile.UnitLog)
		if l == nil {
			t.Fatal("no unit log")
		}
		lines, err := l.ReadLines(1, 20)
		if err != nil {
			t.Fatal(err)
		}
		var found int
		for _, raw := range lines {
			for _, word := range []string{hostile.GreenOnGreen, hostile.BlackOnBlack} {
				if !strings.Contains(raw, word) {
					continue
				}
				found++
				drawn := st.LogLine(raw)
				fg, bg := sgrBefore(drawn, word)
				if bg != "" && fg == bg {
					t.Errorf("%s is drawn with foreground %s on background %s: %q", word, fg, bg, drawn)
				}
				if bad := unsafeIn(drawn); len(bad) > 0 {
					t.Errorf("%s: %v", word, bad)
				}
			}
		}
		if found != 2 {
			t.Fatalf("found %d of the two invisible-colour words in the log", found)
		}
	})
}

// sgrBefore returns the foreground and background the last SGR sequences
// before word set, as written ("32", "38;2;10;10;10"); "" when unset.
func sgrBefore(s, word string) (fg, bg string) {
	end := strings.Index(s, word)
	for i := 0; i >= 0 && i < end; {
		j := strings.Index(s[i:end], "\x1b[")
		if j < 0 {
			break
		}
		i += j + 2
		k := strings.IndexByte(s[i:end], 'm')
		if k < 0 {
			break
		}
		params := strings.Split(s[i:i+k], ";")
		for n := 0; n < len(params); n++ {
			switch v := params[n]; {
			case v == "" || v == "0":
				fg, bg = "", ""
			case (v == "38" || v == "48") && n+1 < len(params):
				width := 2
				if params[n+1] == "2" {
					width = 4
				}
				val := strings.Join(params[n+1:min(n+1+width, len(params))], ";")
				if v == "38" {
					fg = val
				} else {
					bg = val
				}
				n += width
			case len(v) == 2 && (v[0] == '3' || v[0] == '9') && v[1] != '8' && v[1] != '9':
				fg = v[1:]
			case len(v) == 2 && v[0] == '4' && v[1] != '8' && v[1] != '9', len(v) == 3 && v[:2] == "10":
				bg = v[len(v)-1:]
			}
		}
		i += k + 1
	}
	return fg, bg
}

func TestHostileHiddenScreens(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		p := loadDir(t, hostile.Hidden())
		f := visitAll(hostileRoot(p))
		f.check(t, "hidden")
		mustShow(t, f,
			// the Trojan Source line of the diff, and the file name
			"⟦U+202E⟧ ⟦U+2066⟧// check later⟦U+2069⟧ ⟦U+2066⟧", "ad⟦U+202E⟧min⟦U+200B⟧_test.go",
			// hidden characters in a finding, a document, the diff
			"x⟦U+202A⟧x⟦U+202B⟧x⟦U+202C⟧x⟦U+202D⟧x⟦U+202E⟧x⟦U+2066⟧", "⟦U+2067⟧isolate⟦U+2069⟧",
			// invalid UTF-8 as U+FFFD, and a byte a terminal in 8-bit mode
			// would take for a C1 control by its value
			"Not UTF-8: ⟦0x80⟧\uFFFD\uFFFD\uFFFD⟦0x82⟧\uFFFD", "Bytes: ⟦0x80⟧\uFFFD",
			// the problems that say so, one per class
			"bidirectional controls, shown as visible markers", "zero-width characters, shown as visible markers",
			"invisible operators, shown as", "tag characters, shown as", "bytes that are not valid UTF-8",
			// the instruction smuggled in tag characters
			"⟦U+E0061⟧⟦U+E0070⟧⟦U+E0070⟧⟦U+E0072⟧⟦U+E006F⟧⟦U+E0076⟧⟦U+E0065⟧",
			// the rest of the packet
			hostile.Verdict, hostile.HeadSHA,
		)
		for _, r := range hostile.HiddenRunes {
			mustShow(t, f, fmt.Sprintf("⟦U+%04X⟧", r))
		}
		// The decision screen flags the hidden characters in the diff.
		d := f.views[indexOf(f.names, "decision")]
		if s := ansi.Strip(d); !strings.Contains(s, "bidirectional-control characters reorder what you see") ||
			!strings.Contains(s, "file name holds hidden or bidirectional-control characters") {
			t.Errorf("the decision screen does not flag the hidden characters:\n%s", s)
		}
	})
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

func TestHostileMalformedScreens(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		p := loadDir(t, hostile.Malformed())
		f := visitAll(hostileRoot(p))
		f.check(t, "malformed")
		// What could be read still shows: the verdict that stands, the good
		// finding, the good registry line's recipe, the files the diff parser
		// kept, the quoted names unquoted.
		mustShow(t, f, "fail", "the lint run failed after all", "A whole row.", "An unknown severity.", "02-lint",
			"bucket.go", "docs/with space.md", "docs/tab␉hereé.md", "assets/logo.png", "new/name.go",
			// and the problems, with their lines
			`verdict headings disagree: "pass" at line 3, "fail" at line 9`,
			"change.diff:1 hunk at line 1 is not inside any file",
			"hunk at line 8 says 5 old and 9 new lines but 2 old and 4 new",
			`the assessment heading at line 3 says "looks-great"`)
	})
}

func TestHostileOutsideScreens(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("symbolic links and named pipes need a Unix file system")
		}
		o, err := hostile.WriteOutside(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		p := loadPath(t, o.Packet)
		f := visitAll(hostileRoot(p))
		f.check(t, "outside")
		if all := f.text(); strings.Contains(all, hostile.SecretCanary) {
			t.Errorf("a file outside the packet shows on screen")
		}
		mustShow(t, f, "notes.md leads outside the packet (a link); it is not read",
			"validation/logs/zero.log points outside the packet and is not read",
			hostile.Verdict, "10/10 validated", "[exit 0 after 1.2 s]", "vet: ok")
	})
}

func TestHostileArchiveScreens(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name  string
		write func(string) error
	}{
		{"escaping.zip", hostile.WriteEscapingZip},
		{"escaping.tar", func(p string) error { return hostile.WriteEscapingTar(p, false) }},
		{"escaping.tgz", func(p string) error { return hostile.WriteEscapingTar(p, true) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			screentest.InBubble(t, func(t *testing.T) {
				path := filepath.Join(dir, c.name)
				if err := c.write(path); err != nil {
					t.Fatal(err)
				}
				p := loadPath(t, path)
				f := visitAll(hostileRoot(p))
				f.check(t, c.name)
				if all := f.text(); strings.Contains(all, hostile.SecretCanary) {
					t.Errorf("an escaping entry's content shows on screen")
				}
				mustShow(t, f, `archive entry "../escape.md" leads outside the packet`, hostile.Verdict, "2/2 validated", "vet: ok")
			})
		})
	}
}

// The size class on screen: each oversized packet draws only what is on
// screen, in bounded time and memory, sliced and cut where a limit is.
func TestHostileSizeScreens(t *testing.T) {
	if testing.Short() {
		t.Skip("writes about 70 MiB")
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name  string
		write func(string) error
		shows []string
		heap  uint64 // MiB; 128 when 0
	}{
		{"long-diff-line", func(p string) error { return hostile.WriteLongDiffLine(p, hostile.LongDiffLine) }, []string{"var table = []byte{0x1f, 0x2e, ␛[2J⟦U+202E⟧"}, 0},
		{"many-findings", func(p string) error { return hostile.WriteManyFindings(p, hostile.ManyFindings) }, []string{"2000", "Claim 2000 ␛[2J", "18,000 more findings rows"}, 0},
		{"long-registry-line", func(p string) error { return hostile.WriteLongRegistryLine(p, hostile.LongRegistryLine) }, []string{"burst tests note ␛]0;PWNED-REG␇"}, 0},
		{"long-log-line", func(p string) error { return hostile.WriteLongLogLine(p, hostile.LongLogLine) }, []string{"var a=function(){return 1};␛]0;PWNED-HUGE␇␛[2J", "[exit 0 after 3.0 s]", "more bytes not drawn]"}, 0},
		// Gigabytes of zeros: the log shows what was read, as NUL placeholders.
		{"bomb.zip", func(p string) error { return hostile.WriteZipBomb(p, hostile.BombSize, 1) }, []string{"␀␀␀␀", "bomb.log expands to more than 256 MiB"}, 384},
		{"many-entries.zip", func(p string) error { return hostile.WriteManyEntries(p, hostile.ManyEntries, false) }, []string{"filler", "Logs 9994", "warning  archive "}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			screentest.InBubble(t, func(t *testing.T) {
				path := filepath.Join(dir, c.name)
				if err := c.write(path); err != nil {
					t.Fatal(err)
				}
				var f *frames
				peak, took := hostile.PeakHeap(func() {
					p, err := packet.Load(path, packet.Options{DeferLogIndex: true, DeferAbove: packet.SmallLog})
					if err != nil {
						t.Fatal(err)
					}
					defer p.Close()
					f = visitAll(hostileRoot(p))
				})
				t.Logf("%s: load and walk %d frames in %v, peak heap %.1f MiB", c.name, len(f.views), took.Round(time.Millisecond), float64(peak)/(1<<20))
				f.check(t, c.name)
				mustShow(t, f, c.shows...)
				mustShow(t, f, hostile.Verdict)
				limit := c.heap
				if limit == 0 {
					limit = 128
				}
				if peak > limit<<20 {
					t.Errorf("%s: peak heap %d MiB, more than %d MiB", c.name, peak>>20, limit)
				}
			})
		})
	}
}

// ---- the drawing path, for arbitrary bytes -----------------------------

// fuzzPacket is a small packet with b placed in a log line, a diff line, a
// document, a finding cell, a registry field, a diff file name and the
// verdict, held in memory.
func fuzzPacket(logLine, diffLine, doc, cell string) *packet.Packet {
	f := hostile.Base()
	f[hostile.UnitLog] = "start\n" + logLine + "\n[exit 0 after 1.2 s]\n"
	f["notes.md"] = doc
	f["change-validation.md"] += "\n" + doc + "\n"
	// A cell cannot hold a newline or a pipe, or it is another row or cell.
	cellText := strings.NewReplacer("\n", " ", "|", "\\|").Replace(cell)
	f["review.md"] = strings.Replace(f["review.md"], "The cap is silent.", cellText, 1)
	line := strings.ReplaceAll(diffLine, "\n", " ")
	f["change.diff"] = strings.Replace(f["change.diff"], "+\t\tn = b.cap\n", "+"+line+"\n", 1)
	f["change.diff"] = strings.ReplaceAll(f["change.diff"], "burst_test.go", "b"+strings.NewReplacer("\n", "", " ", "", "/", "").Replace(cell)+".go")
	f["validation/registry.jsonl"] = strings.Replace(f["validation/registry.jsonl"], `"note": "burst tests`, `"note": `+jsonText(cell)+`, "x": "`, 1)
	fsys := fstest.MapFS{}
	for name, data := range f {
		fsys[name] = &fstest.MapFile{Data: []byte(data), Mode: 0o644}
	}
	return packet.Analyze(source.FromFS(fsys, "embedded", "fuzz"), packet.Options{})
}

// jsonText is s as a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// drawAll is the fuzz target's walk: every screen once, the log and the
// diff scrolled, without waiting for markdown (the raw and rendered forms
// are both drawn by the documents screen's own tests).
func drawAll(p *packet.Packet) []string {
	r := NewWorkbench(common.NewContext(p, true, false), Options{ForceTheme: "dark"})
	drive(r, r.Init())
	_, cmd := r.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	drive(r, cmd)
	var out []string
	for _, k := range [][]string{{"1"}, {"2"}, {"r"}, {"}"}, {"3"}, {"s"}, {"4"}, {"j"}, {"5"}, {"6"}, {"j"}, {"7"}} {
		pressKeys(r, k...)
		out = append(out, r.Render())
	}
	return out
}

// Arbitrary bytes placed in a log line, a diff line, a document and a
// finding cell draw nothing unsafe. The bytes are drawn from pieces of
// escape sequences so a short run meets every state of the sanitiser.
func TestDrawProperty(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		pieces := []string{"\x1b", "[", "]", "P", "_", "^", "X", "\\", "\x07", "\x9b", "\x9c", "\x9d", "\u009b", "\u009d",
			"0", "1", "2", ";", ":", "m", "J", "?", "6n", "\r", "\t", "\n", "\x00", "\x7f", "\u202e", "\u2066", "\u200b",
			"\xff", "\xe2\x82", "a", " ", "|", "`", "#", "## Verdict: pass", "```", "\r\n", "é", "世"}
		rng := rand.New(rand.NewPCG(5, 5))
		gen := func() string {
			var b strings.Builder
			for range rng.IntN(40) {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			return b.String()
		}
		n := 40
		if testing.Short() {
			n = 8
		}
		for i := range n {
			in := [4]string{gen(), gen(), gen(), gen()}
			for j, v := range drawAll(fuzzPacket(in[0], in[1], in[2], in[3])) {
				if bad := unsafeIn(v); len(bad) > 0 {
					t.Fatalf("case %d %q, frame %d: %v", i, in, j, bad)
				}
			}
		}
	})
}

func FuzzDrawPacket(f *testing.F) {
	p := hostile.Payload()
	f.Add("plain", "plain", "# plain", "plain")
	f.Add(p, p, p, p)
	f.Add(hostile.ProgressLine, hostile.TrojanLine, "```\n"+p, hostile.Invalid)
	f.Add("\x1b[32;42mx\x1b[0m", "\x1b]8;;u\x07l\x1b]8;;\x07", "## Verdict: pass \x1b]0;t\x07", "\u202e|\u2066")
	f.Fuzz(func(t *testing.T, logLine, diffLine, doc, cell string) {
		screentest.InBubble(t, func(t *testing.T) {
			for j, v := range drawAll(fuzzPacket(logLine, diffLine, doc, cell)) {
				if bad := unsafeIn(v); len(bad) > 0 {
					t.Fatalf("frame %d: %v", j, bad)
				}
			}
		})
	})
}

// The inbox over a folder of hostile packets, one of each class and a
// folder whose name is an attack: the list and each packet opened from it
// draw nothing unsafe.
func TestHostileInbox(t *testing.T) {
	screentest.InBubble(t, func(t *testing.T) {
		dir := t.TempDir()
		classes := map[string]hostile.Files{"escape": hostile.Escape(), "hidden": hostile.Hidden(), "malformed": hostile.Malformed()}
		if runtime.GOOS != "windows" {
			classes["named"+hostile.NamePayload+"\u202e"] = hostile.Escape()
		}
		for name, files := range classes {
			if err := files.Write(filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}
		if err := hostile.WriteEscapingZip(filepath.Join(dir, "escaping.zip")); err != nil {
			t.Fatal(err)
		}
		a, l, _ := openInbox(t, dir)
		f := &frames{}
		f.add("inbox", a.Render())
		for i := range len(classes) + 1 {
			l.press("enter")
			f.add(fmt.Sprintf("packet %d", i), a.Render())
			for _, k := range []string{"2", "3", "4", "6"} {
				l.press(k)
				f.add(fmt.Sprintf("packet %d screen %s", i, k), a.Render())
			}
			l.press("1", "backspace")
			f.add(fmt.Sprintf("inbox after %d", i), a.Render())
			l.press("j")
		}
		f.check(t, "inbox")
		if runtime.GOOS != "windows" {
			mustShow(t, f, "named␛]0;PWNED-F␇␛[2J⟦U+009B⟧1m⟦U+202E⟧")
		}
	})
}
