package cmdutil

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/cli/go-gh/v2/pkg/jq"
	"github.com/cli/go-gh/v2/pkg/template"
	"github.com/spf13/cobra"
)

// JSONFormat is gh's pair of flags for JSON output, on every command that
// has --json: --jq EXPR filters the JSON through jq (go-gh's pkg/jq, gojq)
// and --template TMPL formats it with a Go template and gh's helpers
// (go-gh's pkg/template: tablerow, timeago, color, join, pluck, ...).
type JSONFormat struct {
	jq, template string
}

// AddFlags adds --jq and --template to cmd.
func (f *JSONFormat) AddFlags(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&f.jq, "jq", "q", "", "with --json: filter the JSON with a jq expression")
	cmd.Flags().StringVarP(&f.template, "template", "t", "", "with --json: format the JSON with a Go template (gh's template helpers)")
}

// Set says whether --jq or --template was given.
func (f *JSONFormat) Set() bool { return f.jq != "" || f.template != "" }

// Check is the usage rule, as gh's: --jq and --template need --json, and
// not both.
func (f *JSONFormat) Check(cmd string, asJSON bool) error {
	switch {
	case f.jq != "" && f.template != "":
		return fmt.Errorf("%s: --jq and --template are exclusive", cmd)
	case f.Set() && !asJSON:
		return fmt.Errorf("%s: --jq and --template go with --json", cmd)
	}
	return nil
}

// Write prints v as --json prints it, or through --jq or --template. What
// jq and the template print can be any string of the packet raw (jq -r
// style), so it goes through the same sanitiser as every text output: no
// byte from the packet acts on the terminal.
func (f *JSONFormat) Write(w io.Writer, v any) error {
	if !f.Set() {
		return WriteJSON(w, v)
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
	return WriteSanitized(w, func(b io.Writer) { b.Write(out.Bytes()) })
}
