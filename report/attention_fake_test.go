package report

import (
	"path"
	"strings"

	"github.com/vetter-dev/vetter/packet"
)

// The attention scan is the attention package; these tests register a small
// stand-in instead: enough items to test how
// the gate, the summary, the exports and the review marks treat them. The
// rules themselves are tested in the attention package.
func init() { packet.RegisterAttentionScanner(fakeAttentionScan) }

func fakeAttentionScan(_ *packet.Packet, d *packet.Diff) []packet.Attention {
	var out []packet.Attention
	for fi, f := range d.Files {
		p := f.Path()
		if strings.HasPrefix(p, ".github/workflows/") {
			out = append(out, packet.Attention{Kind: "ci-file", Rule: "ci-workflow", Title: "CI workflow " + path.Base(p), Why: "a workflow runs on the runners",
				Path: p, File: fi, Hunk: -1, Line: -1, Severity: packet.AttentionMedium, Key: "ci-workflow|" + p + "|file"})
		}
		for hi, h := range f.Hunks {
			for li, l := range h.Lines {
				if l.Kind != packet.LineAdded {
					continue
				}
				rule := ""
				switch {
				case strings.Contains(l.Text, "head.sha"):
					rule = "gha-untrusted-checkout"
				case strings.Contains(l.Text, "pull_request_target"):
					rule = "gha-privileged-trigger"
				case strings.Contains(l.Text, "| sh"):
					rule = "download-and-run"
				}
				if rule != "" {
					out = append(out, packet.Attention{Kind: "ci-file", Rule: rule, Title: rule, Why: "why " + rule, Path: p, File: fi, Hunk: hi, Line: li,
						NewLine: l.New, Text: l.Text, Severity: packet.AttentionHigh, Key: rule + "|" + p + "|" + l.Text})
				}
			}
		}
	}
	// High first, as the scan returns them.
	var sorted []packet.Attention
	for _, sev := range []string{packet.AttentionHigh, packet.AttentionMedium} {
		for _, a := range out {
			if a.Severity == sev {
				sorted = append(sorted, a)
			}
		}
	}
	return sorted
}
