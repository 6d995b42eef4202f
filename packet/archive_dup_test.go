package packet

import (
	"archive/zip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/packet/source"
)

func writeDupZip(t *testing.T, files [][2]string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.zip")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := zip.NewWriter(f)
	for _, nf := range files {
		e, err := w.Create(nf[0])
		if err != nil {
			t.Fatal(err)
		}
		e.Write([]byte(nf[1]))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

func sampleEntries(t *testing.T) [][2]string {
	t.Helper()
	dir := packetSampleDir(t, "s")
	var out [][2]string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, path)
			data, _ := os.ReadFile(path)
			out = append(out, [2]string{filepath.ToSlash(rel), string(data)})
		}
		return nil
	})
	return out
}

// Two entries with one name, or with names that differ only in case, make
// the packet depend on the tool that unpacks it: refused, saying which.
func TestArchiveDuplicateEntriesRefused(t *testing.T) {
	for _, c := range []struct{ name, extra string }{
		{"duplicate", ReviewFile},
		{"case twin", "REVIEW.md"},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := append(sampleEntries(t), [2]string{c.extra, "# Review\n\n## Assessment: sound\n"})
			_, err := Load(writeDupZip(t, files), Options{})
			if err == nil || !errors.Is(err, source.ErrNotAPacket) || !errors.Is(err, source.ErrDuplicate) || !strings.Contains(err.Error(), "archive-duplicate-entry") {
				t.Fatalf("an archive with %s twice opened: %v", c.extra, err)
			}
		})
	}
	// The sample itself opens.
	if _, err := Load(writeDupZip(t, sampleEntries(t)), Options{}); err != nil {
		t.Fatalf("the sample as a zip: %v", err)
	}
}

// Two thousand entries with one complaint are twenty complaints and a count.
func TestArchiveProblemsAggregated(t *testing.T) {
	files := sampleEntries(t)
	for i := range 2000 {
		files = append(files, [2]string{fmt.Sprintf("../escape-%d", i), "x"})
	}
	p, err := Load(writeDupZip(t, files), Options{})
	if err != nil {
		t.Fatal(err)
	}
	n, summary := 0, ""
	for _, pr := range p.Problems {
		if pr.Code == CodeArchiveUnsafeEntry {
			n++
			summary = pr.Message
		}
	}
	if n != 21 || !strings.Contains(summary, "1,980 more archive entries") {
		t.Errorf("%d archive-unsafe-entry problems, the last %q", n, summary)
	}
}

// A triage.json in the packet that is a link out of it is reported, not
// passed over because it does not resolve.
func TestPacketTriageLinkReported(t *testing.T) {
	dir := packetSampleDir(t, "p")
	if err := os.Symlink("/nonexistent/triage.json", filepath.Join(dir, TriageFile)); err != nil {
		t.Skip("no symbolic links here")
	}
	p := loadPacket(t, dir)
	if !hasProblem(p, CodePacketShipsDecisions, TriageFile, 0) {
		t.Errorf("a triage.json link out of the packet was not reported: %+v", p.Problems)
	}
}
