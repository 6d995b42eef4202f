package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/vetter-dev/vetter/internal/hidden"
	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
)

// SummaryAttention is one attention item as `summary --json` gives it, in
// the decision screen's order (high first, then diff order).
type SummaryAttention struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	File     string `json:"file"`
	// Line is the new-side line number; 0 for an item about the whole file.
	Line int    `json:"line"`
	Why  string `json:"why"`
	// Text is the added line, as it is; "" for a whole-file item.
	Text string `json:"text"`
	// Title says what was found, for people.
	Title    string `json:"title"`
	Reviewed bool   `json:"reviewed,omitempty"`
	// Source is the line the data came from, for an item found by following
	// data within the file (downloaded there, run here); SourceText is it.
	Source     int    `json:"source,omitempty"`
	SourceText string `json:"source_text,omitempty"`
}

func summaryAttention(p *packet.Packet) []SummaryAttention {
	items := p.Attention()
	out := make([]SummaryAttention, 0, len(items))
	for _, a := range items {
		_, reviewed := p.Reviewed[a.Key]
		out = append(out, SummaryAttention{Rule: a.Rule, Severity: a.Severity, File: a.Path, Line: a.NewLine,
			Why: a.Why, Text: a.Text, Title: a.Title, Reviewed: reviewed, Source: a.Source, SourceText: a.SourceText})
	}
	return out
}

func attentionCounts(items []SummaryAttention) (high, medium, low int) {
	for _, a := range items {
		switch a.Severity {
		case packet.AttentionHigh:
			high++
		case packet.AttentionMedium:
			medium++
		default:
			low++
		}
	}
	return
}

// highItems is what the text and markdown forms list one by one, the high
// items, and how many of them the reviewer marked reviewed.
func highItems(items []SummaryAttention) (high []SummaryAttention, reviewed int) {
	for _, a := range items {
		if a.Severity != packet.AttentionHigh {
			continue
		}
		high = append(high, a)
		if a.Reviewed {
			reviewed++
		}
	}
	return high, reviewed
}

func (a SummaryAttention) where() string {
	if a.Line > 0 {
		return fmt.Sprintf("%s:%d", a.File, a.Line)
	}
	return a.File
}

// writeAttentionText lists the high items for a terminal: where, the rule
// and what it found, why it matters, and the line quoted.
func writeAttentionText(w io.Writer, items []SummaryAttention) {
	h, m, l := attentionCounts(items)
	fmt.Fprintf(w, "Attention   %d high, %d medium, %d low", h, m, l)
	if h > 0 {
		fmt.Fprint(w, " (high ones below; the decision screen lists all)")
	}
	fmt.Fprintln(w)
	high, _ := highItems(items)
	for _, a := range high {
		mark := " "
		if a.Reviewed {
			mark = "✓"
		}
		fmt.Fprintf(w, "  %s %-40s %s: %s\n", mark, text.Clip(hidden.Escape(a.where()), 40), a.Rule, text.Clip(text.OneLine(a.Title), 80))
		fmt.Fprintf(w, "      why: %s\n", text.Clip(text.OneLine(a.Why), 110))
		if a.Text != "" {
			fmt.Fprintf(w, "      > %s\n", text.Clip(hidden.Escape(strings.TrimSpace(a.Text)), 110))
		}
		if a.Source > 0 {
			fmt.Fprintf(w, "      data from line %d: %s\n", a.Source, text.Clip(hidden.Escape(strings.TrimSpace(a.SourceText)), 96))
		}
	}
}

// writeAttentionMarkdown lists the high items as a checklist: ticked when
// the reviewer marked the item reviewed.
func writeAttentionMarkdown(w io.Writer, items []SummaryAttention) {
	h, m, l := attentionCounts(items)
	high, reviewed := highItems(items)
	fmt.Fprintf(w, "#### What a vetter must look at: %d high (%d reviewed), %d medium, %d low\n\n", h, reviewed, m, l)
	if h == 0 {
		fmt.Fprint(w, "No high item in the diff.\n\n")
		return
	}
	for _, a := range high {
		box := " "
		if a.Reviewed {
			box = "x"
		}
		fmt.Fprintf(w, "- [%s] %s `%s` — %s (`%s`): %s\n", box, mdCode(a.where()), MdCell(a.Rule), MdCell(a.Title), MdCell(a.Severity), MdCell(a.Why))
		if a.Text != "" {
			fmt.Fprintf(w, "  %s\n", mdCode(text.Clip(strings.TrimSpace(a.Text), 200)))
		}
		if a.Source > 0 {
			fmt.Fprintf(w, "  data from line %d: %s\n", a.Source, mdCode(text.Clip(strings.TrimSpace(a.SourceText), 200)))
		}
	}
	fmt.Fprintln(w)
}

// mdCode is s as a markdown code span, whatever backticks it holds.
func mdCode(s string) string {
	s = text.OneLine(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || len(fence) > 1 {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}
