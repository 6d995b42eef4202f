package cmdutil

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/vetter-dev/vetter/internal/hidden"
	"github.com/vetter-dev/vetter/ui"
)

// Say prints a line for people through the sanitiser.
func Say(w io.Writer, format string, args ...any) {
	WriteSanitized(w, func(b io.Writer) { fmt.Fprintf(b, format+"\n", args...) })
}

// SanitizedErr is err's text with nothing in it that acts on a terminal.
func SanitizedErr(err error) string { return ui.Sanitize(err.Error()) }

// WriteSanitized runs write into a buffer and prints it line by line through
// the sanitiser, so no byte from the packet acts on the terminal. Hidden
// characters (packet's hidden table) are written as <U+XXXX>, the form every
// text output shares, so a comment pasted into a pull request shows them too;
// the screen's ⟦U+XXXX⟧ markers are for the screen.
func WriteSanitized(w io.Writer, write func(io.Writer)) error {
	var buf bytes.Buffer
	write(&buf)
	out := bufio.NewWriter(w)
	sc := bufio.NewScanner(&buf)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<30)
	for sc.Scan() {
		out.WriteString(ui.Sanitize(hidden.Escape(sc.Text())))
		out.WriteByte('\n')
	}
	return out.Flush()
}

// WriteJSON writes v as indented JSON through EscapeJSONText.
func WriteJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(EscapeJSONText(buf.Bytes()))
	return err
}

// Report is what summary and compare print, in the three forms both offer.
type Report interface {
	WriteText(io.Writer)
	WriteMarkdown(io.Writer)
}

// WriteReport prints r as JSON, as a Markdown comment or as text, the
// last two sanitised.
func WriteReport(w io.Writer, r Report, asJSON, asMarkdown bool) error {
	switch {
	case asJSON:
		return WriteJSON(w, r)
	case asMarkdown:
		return WriteSanitized(w, r.WriteMarkdown)
	default:
		return WriteSanitized(w, r.WriteText)
	}
}

// EscapeJSONText escapes, inside encoded JSON, every character a terminal
// could act on or that hides text: DEL, the C1 controls and packet's hidden
// table, which encoding/json leaves raw (it escapes C0 itself). The escapes
// are lowercase \uXXXX, as encoding/json writes its own, and a surrogate pair
// for a tag character (\udb40\udc41 for U+E0041), so a JSON reader gets the
// text exactly and a terminal sees only ASCII. Every JSON vetter prints
// passes through here.
func EscapeJSONText(js []byte) []byte {
	var out []byte
	done := 0 // js[:done] is in out
	for i := 0; i < len(js); {
		c := js[i]
		if c < utf8.RuneSelf && c != 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRune(js[i:])
		// A byte that is not UTF-8 (encoding/json never writes one, another
		// encoder might) becomes \ufffd, as encoding/json writes it.
		if r == 0x7f || (r >= 0x80 && r <= 0x9f) || hidden.Is(r) || (r == utf8.RuneError && n == 1) {
			out = append(out, js[done:i]...)
			out = hidden.AppendJSONEscape(out, r)
			done = i + n
		}
		i += n
	}
	if out == nil {
		return js
	}
	return append(out, js[done:]...)
}
