package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
)

// The reviewdog diagnostic format (rdjson's Diagnostic, one per line).
type rdDiagnostic struct {
	Message  string      `json:"message"`
	Location *rdLocation `json:"location,omitempty"`
	Severity string      `json:"severity"`
	Source   rdSource    `json:"source"`
	Code     rdCode      `json:"code"`
}

type rdLocation struct {
	Path  string   `json:"path"`
	Range *rdRange `json:"range,omitempty"`
}

type rdRange struct {
	Start rdPosition `json:"start"`
	End   rdPosition `json:"end"`
}

type rdPosition struct {
	Line int `json:"line"`
}

type rdSource struct {
	Name string `json:"name"`
}

type rdCode struct {
	Value string `json:"value"`
}

func rdSeverity(severity string) string {
	switch severity {
	case "blocker", "major":
		return "ERROR"
	case "minor":
		return "WARNING"
	}
	return "INFO"
}

// ExportRDJSONL writes one reviewdog diagnostic a line for every finding that
// was not dismissed, other reviewers' threads aside (reviewdog would post
// them again as vetter's). The message starts with the Conventional Comments label
// of its severity; the triage, when there is one, follows the claim. A
// finding that does not land in the diff has no location, and reviewdog
// reports it without one or filters it out, as its mode says.
func ExportRDJSONL(p *packet.Packet, w io.Writer) error {
	for _, e := range exportFindings(p) {
		if e.state == packet.TriageDismissed || e.f.OtherReviewers() {
			continue
		}
		msg := conventionalLabel(e.f.Severity) + ": " + text.OneLine(e.f.Claim)
		if t := e.triageSentence(); t != "" {
			msg += "\n\nTriage: " + t
		}
		d := rdDiagnostic{Message: msg, Severity: rdSeverity(e.f.Severity),
			Source: rdSource{Name: "vetter"}, Code: rdCode{Value: e.f.ID}}
		if c := e.loc; c != nil {
			d.Location = &rdLocation{Path: c.Target}
			if c.Line > 0 {
				end := max(c.EndLine, c.Line)
				d.Location.Range = &rdRange{Start: rdPosition{c.Line}, End: rdPosition{end}}
			}
		}
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(d); err != nil {
			return fmt.Errorf("writing rdjsonl for %s: %w", e.f.ID, err)
		}
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
	}
	return nil
}
