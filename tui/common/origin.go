package common

import (
	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/ui"
)

// OriginLines are what only the pull request can tell, for the overview and
// the decision screen: which commit the packet describes against the PR's
// head, what CI says, and who last said /ok to test. None for a plain packet.
func OriginLines(p *packet.Packet, st *ui.Styles) []string {
	o := p.Origin
	if o == nil {
		return nil
	}
	// Everything here came from the pull request: untrusted, sanitised.
	text := func(s string) string { return st.Line(s, st.Base) }
	heads := text(o.HeadLine())
	if o.Moved() {
		heads = st.Line(o.HeadLine(), st.Warn)
	}
	out := []string{st.Muted.Render("heads ") + heads}
	for _, c := range o.CommitsAfterPacket {
		out = append(out, st.Muted.Render("      after ")+text(commitid.Short(c.SHA)+" "+OneLine(firstLineOf(c.Message))))
	}
	ci := text(o.CI.CILine())
	if o.CI.Failure > 0 {
		ci = st.Line(o.CI.CILine(), st.Error)
	}
	out = append(out, st.Muted.Render("ci    ")+ci, st.Muted.Render("vet   ")+text(o.OkToTestLine()))
	return out
}

func firstLineOf(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
