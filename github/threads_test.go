package github

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/github/fakeapi"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/report"
)

// eachNode edits every comment node of the GraphQL threads the fake serves.
func eachNode(s *fakeapi.Server, edit func(n map[string]any)) {
	for _, t := range s.F.Threads {
		for _, n := range t.(map[string]any)["comments"].(map[string]any)["nodes"].([]any) {
			edit(n.(map[string]any))
		}
	}
}

// eachRESTComment edits every review comment the fake serves.
func eachRESTComment(s *fakeapi.Server, edit func(c map[string]any)) {
	for _, c := range s.F.RevComments {
		edit(c.(map[string]any))
	}
}

func threadFindings(p *packet.Packet) map[string]*packet.Finding {
	out := map[string]*packet.Finding{}
	for _, f := range p.Findings {
		if strings.HasPrefix(f.ID, "thread:") {
			out[f.ID] = f
		}
	}
	return out
}

// A GraphQL answer that names the threads but not their comments' authors
// and bodies: the REST review comments, joined by id, make them whole.
func TestThreadsWholeFromRESTWhenGraphQLLacksBodies(t *testing.T) {
	s, opts := newFake(t)
	eachNode(s, func(n map[string]any) { delete(n, "body"); delete(n, "author") })
	_, p := openFixture(t, s, opts)
	th := threadFindings(p)
	if len(th) != 3 {
		t.Fatalf("%d threads, want 3", len(th))
	}
	t2 := th["thread:PRRT_kwDOthread2"]
	if t2 == nil || t2.Source != "lintbot[bot]" || !strings.Contains(t2.Claim, "Returning ctx.Err() bare") ||
		t2.Evidence != "relay-agent[bot]: Fixed in 7e2d4b6: the error names the attempts." || !t2.Resolved {
		t.Errorf("thread 2 = %+v, want lintbot[bot]'s comment and the agent's reply from REST, resolved from GraphQL", t2)
	}
	for id, f := range th {
		if f.Source == "" || strings.TrimSpace(f.Claim) == "" {
			t.Errorf("%s has source %q and claim %q", id, f.Source, f.Claim)
		}
	}
}

// A reply GraphQL's first page of comments did not carry is joined from
// REST by in_reply_to_id.
func TestThreadRepliesJoinedFromREST(t *testing.T) {
	s, opts := newFake(t)
	for _, tr := range s.F.Threads {
		c := tr.(map[string]any)["comments"].(map[string]any)
		nodes := c["nodes"].([]any)
		c["nodes"] = nodes[:1]
	}
	_, p := openFixture(t, s, opts)
	if t2 := threadFindings(p)["thread:PRRT_kwDOthread2"]; t2 == nil || !strings.Contains(t2.Evidence, "relay-agent[bot]: Fixed in 7e2d4b6") {
		t.Errorf("thread 2 = %+v, want the reply REST has", t2)
	}
}

// A deleted account is null in both answers; GitHub shows it as ghost.
func TestDeletedAuthorIsGhost(t *testing.T) {
	s, opts := newFake(t)
	eachNode(s, func(n map[string]any) {
		if n["databaseId"] == float64(701) {
			n["author"] = nil
		}
	})
	eachRESTComment(s, func(c map[string]any) {
		if c["id"] == float64(701) {
			c["user"] = nil
		}
	})
	_, p := openFixture(t, s, opts)
	if t1 := threadFindings(p)["thread:PRRT_kwDOthread1"]; t1 == nil || t1.Source != "ghost" || !strings.Contains(t1.Claim, "channel is not drained") {
		t.Errorf("thread 1 = %+v, want it by ghost with its body", t1)
	}
}

// A thread with no body in either answer is shown nowhere and exported
// nowhere: it would be an empty inline comment.
func TestThreadWithoutBodyIsNeverExported(t *testing.T) {
	s, opts := newFake(t)
	eachNode(s, func(n map[string]any) {
		if n["databaseId"] == float64(703) {
			n["body"] = ""
		}
	})
	eachRESTComment(s, func(c map[string]any) {
		if c["id"] == float64(703) {
			c["body"] = ""
		}
	})
	_, p := openFixture(t, s, opts)
	th := threadFindings(p)
	if _, ok := th["thread:PRRT_kwDOthread3"]; ok || len(th) != 2 {
		t.Errorf("threads %v: the one without a body is still there", th)
	}
	for _, format := range report.ExportFormats {
		var b bytes.Buffer
		if err := report.Export(p, &b, format, report.ExportOptions{}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), "PRRT_kwDOthread3") {
			t.Errorf("the %s export carries the thread without a body", format)
		}
	}
}
