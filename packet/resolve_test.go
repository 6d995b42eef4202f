package packet

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/internal/text"
)

// Every kind of file a citation can name is resolved by the one rule: the
// last line resolves, a span past it does not but keeps its target, and the
// note names the file and its length.
func TestResolveTextPastTheEnd(t *testing.T) {
	p := LoadSample(Options{})
	if len(p.Logs) == 0 || !p.Logs[0].Indexed() || p.Diff == nil || !p.Registry.Present {
		t.Fatal("the sample has no indexed log, diff or registry to cite")
	}
	doc := p.Doc("change-validation.md")
	if doc == nil {
		t.Fatal("the sample has no change-validation.md")
	}
	log := p.Logs[0]
	for _, tc := range []struct {
		name, target, what string
		kind               CitationKind
		n                  int
	}{
		{doc.Path, doc.Path, doc.Path, CitePacket, len(doc.Lines)},
		{DiffPath, DiffPath, "change.diff", CitePacket, p.Diff.Lines},
		{RegistryFile, RegistryFile, "the registry", CiteRegistry, p.Registry.Lines},
		{log.Path, log.Path, log.Path, CiteLog, log.LineCount()},
	} {
		last := p.ResolveText(fmt.Sprintf("%s:%d", tc.name, tc.n))
		if !last.Resolved || last.Kind != tc.kind || last.Target != tc.target {
			t.Errorf("%s:%d: kind %s target %q resolved %v (%s), want %s %q resolved", tc.name, tc.n,
				last.Kind, last.Target, last.Resolved, last.Note, tc.kind, tc.target)
		}
		past := p.ResolveText(fmt.Sprintf("%s:%d-%d", tc.name, tc.n, tc.n+1))
		want := tc.what + " has " + text.PluralOf(tc.n, "line", "lines")
		if past.Resolved || past.Kind != CiteUnresolved || past.Target != tc.target || !strings.Contains(past.Note, want) {
			t.Errorf("%s:%d-%d: kind %s target %q resolved %v note %q, want unresolved %q saying %q", tc.name, tc.n, tc.n+1,
				past.Kind, past.Target, past.Resolved, past.Note, tc.target, want)
		}
	}
}
