package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/cli/go-gh/v2/pkg/jq"
	"github.com/cli/go-gh/v2/pkg/template"
	"github.com/spf13/cobra"

	"github.com/vetter-dev/vetter/packet"
)

// jsonFormat is gh's pair of flags for JSON output, on every command that
// has --json: --jq EXPR filters the JSON through jq (go-gh's pkg/jq, gojq)
// and --template TMPL formats it with a Go template and gh's helpers
// (go-gh's pkg/template: tablerow, timeago, color, join, pluck, ...).
type jsonFormat struct {
	jq, template string
}

func (f *jsonFormat) addFlags(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&f.jq, "jq", "q", "", "with --json: filter the JSON with a jq expression")
	cmd.Flags().StringVarP(&f.template, "template", "t", "", "with --json: format the JSON with a Go template (gh's template helpers)")
}

func (f *jsonFormat) set() bool { return f.jq != "" || f.template != "" }

// check is the usage rule, as gh's: --jq and --template need --json, and
// not both.
func (f *jsonFormat) check(cmd string, asJSON bool) error {
	switch {
	case f.jq != "" && f.template != "":
		return fmt.Errorf("%s: --jq and --template are exclusive", cmd)
	case f.set() && !asJSON:
		return fmt.Errorf("%s: --jq and --template go with --json", cmd)
	}
	return nil
}

// write prints v as --json prints it, or through --jq or --template. What
// jq and the template print can be any string of the packet raw (jq -r
// style), so it goes through the same sanitiser as every text output: no
// byte from the packet acts on the terminal.
func (f *jsonFormat) write(w io.Writer, v any) error {
	if !f.set() {
		return writeJSON(w, v)
	}
	var raw bytes.Buffer
	enc := json.NewEncoder(&raw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	var out bytes.Buffer
	if f.jq != "" {
		if err := jq.Evaluate(&raw, &out, f.jq); err != nil {
			return fmt.Errorf("--jq: %w", err)
		}
	} else {
		t := template.New(&out, 80, false)
		if err := t.Parse(f.template); err != nil {
			return fmt.Errorf("--template: %w", err)
		}
		if err := t.Execute(&raw); err != nil {
			return fmt.Errorf("--template: %w", err)
		}
		if err := t.Flush(); err != nil {
			return err
		}
	}
	return writeSanitized(w, func(b io.Writer) { b.Write(out.Bytes()) })
}

// gateExitStatus is summary --exit-status, gh pr checks' convention: 0 when
// the gate is ready, 1 when it is not, 8 when it is ready but a check of the
// pull request's CI that counts is still pending (its result may yet hold
// the gate).
func gateExitStatus(p *packet.Packet, g packet.Gate) int {
	switch {
	case !g.Ready:
		return 1
	case p.CIPending() > 0:
		return 8
	}
	return 0
}
