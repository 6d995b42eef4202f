package packet

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/internal/text"
)

// Registry run statuses (PACKET.md, "validation/registry.jsonl").
const (
	StatusValidated     = "validated"
	StatusFailing       = "failing"
	StatusDispositioned = "dispositioned"
	StatusSuperseded    = "superseded"
	StatusNA            = "n/a"
	StatusMissing       = "missing"
)

var knownStatus = map[string]bool{
	StatusValidated: true, StatusFailing: true, StatusDispositioned: true,
	StatusSuperseded: true, StatusNA: true,
}

// ParseRegistry reads validation/registry.jsonl: one JSON object a line. A line
// that is not a JSON object is a registry-parse problem and is skipped; a known
// field of the wrong type is a registry-field problem and is left empty, so one
// bad value never costs the rest of the run.
func ParseRegistry(data []byte) (Registry, []Problem) {
	reg := Registry{Present: true}
	var probs []Problem
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	lineNo := 0
	for len(data) > 0 {
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		lineNo++
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		run, lp := parseRun(line, lineNo)
		probs = append(probs, lp...)
		if run != nil {
			reg.Runs = append(reg.Runs, run)
		}
	}
	reg.Lines = lineNo
	// Runs are ordered by seq; the line keeps order stable among equal seqs.
	sort.SliceStable(reg.Runs, func(i, j int) bool { return reg.Runs[i].Seq < reg.Runs[j].Seq })
	return reg, probs
}

func parseRun(line []byte, lineNo int) (*Run, []Problem) {
	where := func(code, msg string, args ...any) Problem {
		return NewProblem(code, RegistryFile, lineNo, fmt.Sprintf(msg, args...))
	}
	var probs []Problem
	if !utf8.Valid(line) {
		probs = append(probs, where(CodeInvalidUTF8, "line %d is not valid UTF-8; invalid bytes are shown as \uFFFD", lineNo))
		line = bytes.ToValidUTF8(line, []byte("\uFFFD"))
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(line, &obj); err != nil || obj == nil {
		msg := "not a JSON object"
		if err != nil {
			msg = jsonErrorText(err)
		}
		return nil, append(probs, where(CodeRegistryParse, "line %d is not a registry entry: %s", lineNo, msg))
	}
	r := &Run{Seq: lineNo, Line: lineNo}
	str := func(name string, dst *string) {
		raw, ok := obj[name]
		if !ok || string(raw) == "null" {
			return
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			probs = append(probs, where(CodeRegistryField, "line %d: %q should be a string, found %s", lineNo, name, text.Clip(string(raw), 40)))
		}
	}
	integer := func(name string) *int64 {
		raw, ok := obj[name]
		if !ok || string(raw) == "null" {
			return nil
		}
		var f float64
		if err := json.Unmarshal(raw, &f); err != nil || f != float64(int64(f)) {
			probs = append(probs, where(CodeRegistryField, "line %d: %q should be a whole number, found %s", lineNo, name, text.Clip(string(raw), 40)))
			return nil
		}
		v := int64(f)
		return &v
	}
	str("recipe", &r.Recipe)
	str("status", &r.Status)
	str("command", &r.Command)
	str("log", &r.Log)
	str("started_at", &r.StartedAt)
	str("note", &r.Note)
	str("disposition", &r.Disposition)
	str("head_sha", &r.HeadSHA)
	if v := integer("seq"); v != nil {
		r.Seq = int(*v)
	}
	if v := integer("exit_code"); v != nil {
		c := int(*v)
		r.ExitCode = &c
	}
	r.DurationMs = integer("duration_ms")
	r.Status = strings.ToLower(strings.TrimSpace(r.Status))
	if r.Recipe == "" {
		probs = append(probs, where(CodeRegistryField, "line %d has no \"recipe\"; the run is listed under (no recipe)", lineNo))
		r.Recipe = "(no recipe)"
	}
	if r.HeadSHA = strings.TrimSpace(r.HeadSHA); r.HeadSHA != "" && !commitid.Valid(r.HeadSHA) {
		// The SHA is compared with the head and shown on screen; anything but
		// a hex commit id is dropped rather than half-trusted.
		probs = append(probs, where(CodeRegistryField, "line %d: \"head_sha\" should be a hex commit id (7 to 64 digits), found %q", lineNo, text.Clip(r.HeadSHA, 40)))
		r.HeadSHA = ""
	}
	if r.Status != "" && !knownStatus[r.Status] {
		probs = append(probs, where(CodeRegistryField, "line %d: status %q is not one of validated, failing, dispositioned, superseded, n/a", lineNo, text.Clip(r.Status, 40)))
	}
	for k, v := range obj {
		switch k {
		case "seq", "recipe", "status", "command", "log", "exit_code", "started_at", "duration_ms", "note", "disposition", "head_sha":
			continue
		}
		if r.Extra == nil {
			r.Extra = map[string]json.RawMessage{}
		}
		r.Extra[k] = v
	}
	return r, probs
}

// ExtraKeys returns the names of a run's unknown fields, sorted.
func (r *Run) ExtraKeys() []string {
	keys := make([]string, 0, len(r.Extra))
	for k := range r.Extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func jsonErrorText(err error) string {
	if se, ok := err.(*json.SyntaxError); ok {
		return fmt.Sprintf("invalid JSON at byte %d (%v)", se.Offset, se)
	}
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		return fmt.Sprintf("found a JSON %s, expected an object", te.Value)
	}
	return err.Error()
}
