package report

import (
	"fmt"
	"io"

	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
)

// SummarySource is the "source" object of `vetter summary --json`.
type SummarySource struct {
	Kind               string                  `json:"kind"`
	URL                string                  `json:"url"`
	Owner              string                  `json:"owner"`
	Repo               string                  `json:"repo"`
	Number             int                     `json:"number"`
	HeadSHA            string                  `json:"head_sha"`
	PacketHeadSHA      string                  `json:"packet_head_sha"`
	CommitsAfterPacket []packet.OriginCommit   `json:"commits_after_packet"`
	CI                 packet.OriginCI         `json:"ci"`
	OkToTest           []packet.OriginOkToTest `json:"ok_to_test"`
	// Line is the sentence people read about the heads.
	Line string `json:"-"`
}

func summarySource(p *packet.Packet) *SummarySource {
	o := p.Origin
	if o == nil {
		return nil
	}
	s := &SummarySource{Kind: o.Kind, URL: o.URL, Owner: o.Owner, Repo: o.Repo, Number: o.Number,
		HeadSHA: o.HeadSHA, PacketHeadSHA: o.PacketHeadSHA, CommitsAfterPacket: o.CommitsAfterPacket,
		CI: o.CI, OkToTest: o.OkToTest, Line: o.HeadLine()}
	if s.CommitsAfterPacket == nil {
		s.CommitsAfterPacket = []packet.OriginCommit{}
	}
	if s.OkToTest == nil {
		s.OkToTest = []packet.OriginOkToTest{}
	}
	if s.CI.Failing == nil {
		s.CI.Failing = []string{}
	}
	return s
}

func (s *SummarySource) writeText(w io.Writer) {
	if s == nil {
		return
	}
	fmt.Fprintf(w, "  source    %s/%s#%d (%s)\n", s.Owner, s.Repo, s.Number, s.Kind)
	fmt.Fprintf(w, "  heads     %s\n", s.Line)
	for _, c := range s.CommitsAfterPacket {
		fmt.Fprintf(w, "            after: %s %s\n", commitid.Short(c.SHA), text.Clip(packet.FirstLine(c.Message), 90))
	}
	fmt.Fprintf(w, "  ci        %s\n", s.CI.CILine())
	o := &packet.Origin{HeadSHA: s.HeadSHA, OkToTest: s.OkToTest}
	fmt.Fprintf(w, "  vetting   %s\n", o.OkToTestLine())
}

// threadState is "  by lintbot[bot], resolved, outdated" for a summary line.
func threadState(f SummaryFinding) string {
	s := "  by " + f.Source
	if f.Resolved != nil && *f.Resolved {
		s += ", resolved"
		if f.ResolvedBy != "" {
			s += " by " + f.ResolvedBy
		}
	}
	if f.Outdated != nil && *f.Outdated {
		s += ", outdated"
	}
	return s
}

// writeMarkdownRows adds the pull request's rows to the summary comment.
func (s *SummarySource) writeMarkdownRows(w io.Writer) {
	if s == nil {
		return
	}
	fmt.Fprintf(w, "| Pull request head | %s |\n", MdCell(s.Line))
	for _, c := range s.CommitsAfterPacket {
		fmt.Fprintf(w, "| After the packet | `%s` %s |\n", MdCell(commitid.Short(c.SHA)), MdCell(packet.FirstLine(c.Message)))
	}
	fmt.Fprintf(w, "| CI | %s |\n", MdCell(s.CI.CILine()))
	o := &packet.Origin{HeadSHA: s.HeadSHA, OkToTest: s.OkToTest}
	fmt.Fprintf(w, "| Vetting | %s |\n", MdCell(o.OkToTestLine()))
}
