package compare

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
)

// copySampleTo writes the built-in sample to dir, with edit applied to
// each file's text.
func copySampleTo(t *testing.T, dir string, edit func(name, text string) string) {
	t.Helper()
	if err := os.CopyFS(dir, packet.SampleFS()); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{packet.ChangeFile, packet.ValidationFile} {
		p := filepath.Join(dir, name)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(edit(name, string(data))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A document identical in two rounds is not listed at all, whatever the
// packet's four required documents are: the round kept in the reviewer's
// state holds every document, and documents are compared by content. The
// one word added to a line of the report is the whole change listed.
func TestEarlierRoundKeepsEveryDocument(t *testing.T) {
	state := t.TempDir()
	r1, r2 := filepath.Join(t.TempDir(), "r1"), filepath.Join(t.TempDir(), "r2")
	copySampleTo(t, r1, func(_, s string) string { return s })
	const newHead = "2cc2c70f4285cf39d8ebaf61573f0095423d52b1"
	copySampleTo(t, r2, func(name, s string) string {
		if name == packet.ChangeFile {
			return strings.ReplaceAll(s, "1bb1c70f4285cf39d8ebaf61573f0095423d52b1", newHead)
		}
		return strings.Replace(s, "The reported symptom, CI jobs failing", "The reported symptom, CI jobs reliably failing", 1)
	})
	open := func(dir string) (*packet.Packet, *review.Store) {
		p, err := packet.Load(dir, packet.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		s, err := review.OpenStore(p, state)
		if err != nil {
			t.Fatal(err)
		}
		return p, s
	}
	open(r1)
	p2, s2 := open(r2)
	r, ok := s2.EarlierRoundKnown()
	if !ok {
		t.Fatal("the first round was not kept")
	}
	old, err := s2.LoadRound(r)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if old.Doc("compute-env.md") == nil {
		t.Fatal("the kept round has no compute-env.md")
	}
	c := Compare(old, p2)
	var report *DocumentDelta
	for i, d := range c.Documents {
		switch {
		case d.Status == DocAdded || d.Path == "compute-env.md":
			t.Errorf("%s is listed as %s; it is the same in both rounds", d.Path, d.Status)
		case d.Path == packet.ValidationFile:
			report = &c.Documents[i]
		}
	}
	if report == nil || len(report.Changes) != 1 || report.Changes[0].Added != "reliably" || report.Changes[0].Removed != "" {
		t.Fatalf("documents = %+v, want the report changed by the one word added", c.Documents)
	}
}
