package packet

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/vetter-dev/vetter/internal/text"
)

// knownPacketNames are names that can only mean a packet file: a citation of
// one of them that is not in the packet is unresolved, not external.
var knownPacketNames = map[string]bool{
	PlanFile: true, ChangeFile: true, DiffPath: true, ValidationFile: true,
	ReviewFile: true, TriageFile: true, "compute-env.md": true,
}

// resolve decides where a citation points (PACKET.md, "Citations"): a packet
// file first, then a file of the diff, then outside the packet. ix, when not
// nil, finds diff files by path for a caller resolving many citations.
func (p *Packet) resolve(c *Citation, ix *diffIndex) {
	c.Kind, c.Target, c.Resolved, c.Note = "", "", false, ""
	c.DiffFile, c.DiffHunk, c.DiffLine = -1, -1, -1
	name := cleanPacketPath(c.Path)
	if name == "" {
		p.unresolved(c, "the citation names no file")
		return
	}
	if c.Suffix {
		p.resolveSuffix(c, name, ix)
		return
	}
	if p.resolvePacketFile(c, name) {
		return
	}
	if p.looksLikePacketPath(name) {
		p.unresolved(c, "no such file in the packet")
		return
	}
	if p.resolveDiff(c, name, ix) {
		return
	}
	c.Kind, c.Target, c.Resolved = CiteExternal, name, true
}

// resolvePacketFile resolves a citation of a document, the registry or a log.
func (p *Packet) resolvePacketFile(c *Citation, name string) bool {
	if d := p.Doc(name); d != nil {
		p.citeLines(c, CitePacket, d.Path, len(d.Lines), d.Path)
		return true
	}
	if name == DiffPath && p.Diff != nil {
		p.citeLines(c, CitePacket, DiffPath, p.Diff.Lines, "change.diff")
		return true
	}
	if name == RegistryFile && p.Registry.Present {
		p.citeLines(c, CiteRegistry, RegistryFile, p.Registry.Lines, "the registry")
		return true
	}
	if l := p.Log(name); l != nil {
		p.resolveLog(c, l)
		return true
	}
	// A bare log name ("x.log") names a log by its base name.
	if !strings.Contains(name, "/") && strings.HasSuffix(name, ".log") {
		for _, l := range p.Logs {
			if path.Base(l.Path) == name {
				p.resolveLog(c, l)
				return true
			}
		}
	}
	return false
}

// resolveLog checks the cited lines only once the log is indexed: before
// that LineCount is the lines seen so far, and a later line is not past the end.
func (p *Packet) resolveLog(c *Citation, l *Log) {
	if c.Line > 0 && l.Indexed() {
		p.citeLines(c, CiteLog, l.Path, l.LineCount(), l.Path)
		return
	}
	c.Kind, c.Target, c.Resolved = CiteLog, l.Path, true
}

// citeLines points c at target, a file of n lines, the one rule for every
// kind of file a citation can name: resolved unless a cited line is past
// the end, which the note says naming the file as what.
func (p *Packet) citeLines(c *Citation, kind CitationKind, target string, n int, what string) {
	c.Kind, c.Target = kind, target
	if c.Line > n || c.EndLine > n {
		p.unresolvedAt(c, what+" has "+text.PluralOf(n, "line", "lines"))
		return
	}
	c.Resolved = true
}

// resolveSuffix resolves "…tail" citations: the one packet file whose path
// ends with tail, else a diff file that does.
func (p *Packet) resolveSuffix(c *Citation, tail string, ix *diffIndex) {
	for _, l := range p.Logs {
		if strings.HasSuffix(l.Path, tail) {
			p.resolveLog(c, l)
			return
		}
	}
	for _, d := range p.Docs {
		if strings.HasSuffix(d.Path, tail) {
			p.resolvePacketFile(c, d.Path)
			return
		}
	}
	if p.Diff != nil {
		for _, f := range p.Diff.Files {
			if strings.HasSuffix(f.Path(), tail) && p.resolveDiff(c, f.Path(), ix) {
				return
			}
		}
	}
	p.unresolved(c, fmt.Sprintf("no packet file ends with %q", tail))
}

// resolveDiff resolves a citation of a file in change.diff, anchored to the
// diff line when the cited line lies in a hunk of the new side. A path that is
// a tail of exactly one diff path at a "/" boundary also matches, since prose
// often shortens a path it gave in full just before.
func (p *Packet) resolveDiff(c *Citation, name string, ix *diffIndex) bool {
	if p.Diff == nil {
		return false
	}
	fi := ix.fileIndex(p.Diff, name)
	if fi < 0 {
		match := -1
		for i, f := range p.Diff.Files {
			if strings.HasSuffix(f.Path(), "/"+name) {
				if match >= 0 {
					return false // ambiguous: leave it external
				}
				match = i
			}
		}
		if match < 0 {
			return false
		}
		fi = match
	}
	f := p.Diff.Files[fi]
	c.Target, c.Resolved, c.DiffFile = f.Path(), true, fi
	c.Kind = CiteDiffFile
	if c.Line > 0 {
		if _, hi, li, in := ix.locate(p.Diff, f.Path(), c.Line); in {
			c.Kind, c.DiffHunk, c.DiffLine = CiteDiff, hi, li
		}
	}
	return true
}

// looksLikePacketPath reports whether a path can only mean a packet file.
func (p *Packet) looksLikePacketPath(name string) bool {
	if knownPacketNames[name] || strings.HasPrefix(name, "validation/") {
		return true
	}
	return !strings.Contains(name, "/") && strings.HasSuffix(name, ".log")
}

func (p *Packet) unresolved(c *Citation, note string) {
	c.Kind, c.Resolved, c.Note = CiteUnresolved, false, note
	if c.Target == "" {
		c.Target = cleanPacketPath(c.Path)
	}
}

// unresolvedAt marks a citation whose file exists but whose lines do not.
func (p *Packet) unresolvedAt(c *Citation, note string) {
	target := c.Target
	p.unresolved(c, fmt.Sprintf("line %s is past the end (%s)", lineSpan(c.Line, c.EndLine), note))
	c.Target = target
}

func lineSpan(a, b int) string {
	if b > a {
		return fmt.Sprintf("%d-%d", a, b)
	}
	return fmt.Sprint(a)
}

// ResolveText resolves a citation written by a person or a script ("change-
// validation.md:269", "validation/logs/x.log:40-52", "…4d5c.log",
// "path/in/diff.go:120") as the documents' citations are resolved.
func (p *Packet) ResolveText(s string) Citation {
	c := Citation{Text: s, DiffFile: -1, DiffHunk: -1, DiffLine: -1}
	s = strings.TrimSpace(s)
	for _, pre := range []string{"…", "..."} {
		if strings.HasPrefix(s, pre) && !strings.HasPrefix(s, "../") {
			s, c.Suffix = strings.TrimPrefix(s, pre), true
		}
	}
	c.Path = s
	if i := strings.LastIndexByte(s, ':'); i > 0 {
		a, b, ok := parseSpan(s[i+1:])
		if ok {
			c.Path, c.Line, c.EndLine = s[:i], a, b
		}
	}
	p.resolve(&c, nil)
	return c
}

// parseSpan parses "12" or "12-20" (also with an en dash).
func parseSpan(s string) (a, b int, ok bool) {
	s = strings.ReplaceAll(s, "–", "-")
	lo, hi, isRange := strings.Cut(s, "-")
	a, err := strconv.Atoi(lo)
	if err != nil || a <= 0 {
		return 0, 0, false
	}
	b = a
	if isRange {
		if b, err = strconv.Atoi(hi); err != nil || b < a {
			return 0, 0, false
		}
	}
	return a, b, true
}
