package main

// One notion of hidden text, so that no surface can miss a character
// another flags: what check reports, what the text
// and JSON outputs write and what the screen draws all come from packet's
// hidden table (packet/hidden.go). The screen's side is
// TestHostileHiddenScreens in tui/hostile_test.go.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/cli/cmdutil"
	"github.com/vetter-dev/vetter/hostile"
	"github.com/vetter-dev/vetter/internal/hidden"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/report"
)

// oneOfEachClass is a character of every class, as the hidden corpus holds
// it, with its visible escape and its JSON escape.
var oneOfEachClass = []struct {
	class       hidden.Class
	r           rune
	text, jsonE string
}{
	{hidden.Bidi, 0x202E, "<U+202E>", `\u202e`},
	{hidden.ZeroWidth, 0x200B, "<U+200B>", `\u200b`},
	{hidden.InvisibleOperator, 0x2062, "<U+2062>", `\u2062`},
	{hidden.Tag, 0xE0041, "<U+E0041>", `\udb40\udc41`},
}

// rawHidden returns the first hidden character in out, by packet's table
// and by the corpus's own list (so a character dropped from the table still
// fails here), or -1.
func rawHidden(out string) rune {
	for _, r := range out {
		if hidden.Is(r) || slices.Contains(hostile.HiddenRunes, r) {
			return r
		}
	}
	return -1
}

func TestHiddenCheckReportsEveryClass(t *testing.T) {
	dir := writeClass(t, hostile.Hidden())
	probs, _ := checkJSON(t, dir)
	files := map[string]int{ // file: the line holding every hidden rune
		"change.md": 15, "review.md": 5, "plan.md": 11, "validation/registry.jsonl": 1,
	}
	for file, line := range files {
		for _, c := range oneOfEachClass {
			found := false
			for _, p := range probs {
				if p.Code == packet.CodeHiddenCharacters && p.File == file && strings.Contains(p.Message, " "+c.class.String()+",") {
					found = true
					if p.Line != line {
						t.Errorf("%s: %s first at line %d, want %d", file, c.class, p.Line, line)
					}
				}
			}
			if !found {
				t.Errorf("check does not report the %s in %s", c.class, file)
			}
		}
	}
	// The diff: the Trojan Source line for the bidirectional controls, the
	// new file's body for the tags and operators.
	wantPlaces(t, probs, where{packet.CodeHiddenCharacters, "change.diff", 12}, where{packet.CodeHiddenCharacters, "change.diff", 21})
	out, _, _ := run(t, "check", dir)
	for _, c := range oneOfEachClass {
		if !strings.Contains(out, "change.md holds ") || !strings.Contains(out, c.class.String()) {
			t.Errorf("check's text does not name the %s:\n%s", c.class, out)
		}
	}
}

// Every output that carries the packet's text carries each hidden character
// escaped: <U+XXXX> in text, \uXXXX in JSON (a surrogate pair for a tag),
// and never raw.
func TestHiddenEscapedInEveryOutput(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("VETTER_USER", "tester@example.invalid")
	dir := writeClass(t, hostile.Hidden())
	base := writeClass(t, hostile.Base())
	type output struct {
		args []string
		json bool // JSON keeps the text, escaped
	}
	outputs := []output{
		{[]string{"summary", dir}, false},
		{[]string{"summary", "--markdown", dir}, false},
		{[]string{"--print", dir}, false},
		{[]string{"summary", "--json", dir}, true},
		{[]string{"triage", "--list", dir}, false},
		{[]string{"triage", "--list", "--json", dir}, true},
		{[]string{"compare", base, dir}, false},
		{[]string{"compare", "--markdown", base, dir}, false},
		{[]string{"compare", "--json", base, dir}, true},
	}
	// The exports are read by people elsewhere (a pull request, code
	// scanning, reviewdog): every format, JSON ones included, escapes
	// visibly inside its text fields.
	for _, f := range report.ExportFormats {
		outputs = append(outputs, output{[]string{"export", "--format", f, dir}, false})
	}
	for _, o := range outputs {
		name := strings.Join(o.args[:len(o.args)-1], " ")
		if o.args[0] == "compare" {
			name = strings.Join(o.args[:len(o.args)-2], " ")
		}
		out, errOut, code := run(t, o.args...)
		if code == 2 {
			t.Errorf("%s: exit 2: %s", name, errOut)
			continue
		}
		cliSafe(t, name, out+errOut)
		if r := rawHidden(out + errOut); r >= 0 {
			t.Errorf("%s writes %U raw", name, r)
		}
		// Each class shows in the output's escape; the triage list shows
		// only the finding's location, whose one hidden rune is U+200B.
		for _, c := range oneOfEachClass {
			if name == "triage --list" && c.r != 0x200B {
				continue
			}
			want := c.text
			if o.json {
				want = c.jsonE
			}
			if !strings.Contains(out, want) {
				t.Errorf("%s does not show the %s as %s", name, c.class, want)
			}
		}
		if o.json || (o.args[0] == "export" && o.args[2] != report.FormatMarkdown) {
			if err := validJSON(out); err != nil {
				t.Errorf("%s: not JSON: %v", name, err)
			}
		}
	}
	// JSON keeps the text exactly: the finding's claim decodes back to
	// its tag characters and invisible operators.
	js, _, _ := run(t, "summary", "--json", dir)
	if s := decodeStrings(t, js); !strings.Contains(s, "x\U000E0001x\U000E0041x\U000E007Fx") || !strings.Contains(s, "x\u2061x\u2062x") {
		t.Errorf("summary --json does not carry the hidden characters exactly")
	}
	// An export written to a file is escaped as on standard output.
	file := filepath.Join(t.TempDir(), "review.sarif")
	if _, errOut, code := run(t, "export", "--format", report.FormatSARIF, "-o", file, dir); code != 0 {
		t.Fatalf("export -o: exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if r := rawHidden(string(b)); r >= 0 || !bytes.Contains(b, []byte("<U+E0041>")) {
		t.Errorf("export -o writes %U raw, or no <U+E0041>", r)
	}
}

// validJSON checks out is one JSON value or, for rdjsonl, one a line.
func validJSON(out string) error {
	if json.Valid([]byte(out)) {
		return nil
	}
	for i, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !json.Valid([]byte(l)) {
			return fmt.Errorf("line %d: %q", i+1, l)
		}
	}
	return nil
}

// decodeStrings returns every string in the JSON document js, decoded, one
// a line.
func decodeStrings(t *testing.T, js string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			b.WriteString(v + "\n")
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	return b.String()
}

// escapeJSONText leaves a JSON document meaning what it meant, with nothing
// a terminal acts on and nothing hidden left raw.
func FuzzEscapeJSONText(f *testing.F) {
	f.Add("plain")
	f.Add("tag \U000E0041\U000E007F, bidi \u202E, zero \u200B, op \u2062, c1 \u0085, del \x7f, é世😀")
	f.Add("\xff\xfe invalid")
	f.Fuzz(func(t *testing.T, s string) {
		var buf bytes.Buffer
		if err := cmdutil.WriteJSON(&buf, map[string]string{"k": s}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		var back map[string]string
		if err := json.Unmarshal([]byte(out), &back); err != nil {
			t.Fatalf("not JSON: %v: %q", err, out)
		}
		var want map[string]string
		raw, _ := json.Marshal(map[string]string{"k": s})
		json.Unmarshal(raw, &want)
		if back["k"] != want["k"] {
			t.Errorf("decodes to %q, want %q", back["k"], want["k"])
		}
		for _, r := range out {
			if r == 0x7f || (r >= 0x80 && r <= 0x9f) || hidden.Is(r) {
				t.Fatalf("%U raw in %q", r, out)
			}
		}
	})
}

// A byte that is not UTF-8 in encoded JSON (another encoder's) is written as
// \ufffd, never raw.
func TestEscapeJSONTextInvalidByte(t *testing.T) {
	got := string(cmdutil.EscapeJSONText([]byte("{\"k\": \"a\xffb\u202e\"}")))
	if want := `{"k": "a\ufffdb\u202e"}`; got != want {
		t.Errorf("escapeJSONText = %q, want %q", got, want)
	}
}
