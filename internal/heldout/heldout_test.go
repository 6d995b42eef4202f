// Package heldout checks the shape of the held-out runner-abuse corpus under
// testdata/heldout: that every case is a well-formed unified diff and that the
// lines the labels point at are lines the change adds. It knows nothing about
// vetter's scanner on purpose: the corpus must stay independent of the rules it
// measures, so this check uses its own minimal diff reader rather than the
// packet's.
package heldout

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// corpusDirs lists every held-out set that must stay well-formed; a spent set
// stays here so that the figures once measured on it can be reproduced.
var corpusDirs = []string{"attention-v1", "attention-v2", "attention-v3", "attention-v4", "attention-v5", "attention-v6", "attention-v7", "attention-v8", "attention-v9", "attention-v10", "attention-v11", "attention-v12", "attention-v13", "attention-v14", "attention-v15", "attention-v16"}

type label struct {
	ID                 string `json:"id"`
	Kind               string `json:"kind"`
	File               string `json:"file"`
	BadLines           []int  `json:"bad_lines"`
	SourceLines        []int  `json:"source_lines"`
	MostSuspiciousLine int    `json:"most_suspicious_line"`
	Category           string `json:"category"`
	Incident           string `json:"incident"`
	Reference          string `json:"reference"`
	Note               string `json:"note"`
}

var categories = map[string]bool{
	"exfiltration": true, "decode-exec": true, "invisible-code": true,
	"runner-takeover": true, "build-time-exec": true, "code-provenance": true,
	"persistence": true, "other": true,
}

// minimumSize holds, per set, the sizes its README promises; a set that shrinks
// below them no longer supports the figures reported on it.
var minimumSize = map[string]struct{ malicious, benign int }{
	"attention-v1":  {malicious: 45, benign: 35},
	"attention-v2":  {malicious: 55, benign: 20},
	"attention-v3":  {malicious: 60, benign: 35},
	"attention-v4":  {malicious: 45, benign: 32},
	"attention-v5":  {malicious: 57, benign: 34},
	"attention-v6":  {malicious: 68, benign: 36},
	"attention-v7":  {malicious: 58, benign: 35},
	"attention-v8":  {malicious: 58, benign: 36},
	"attention-v9":  {malicious: 45, benign: 32},
	"attention-v10": {malicious: 50, benign: 35},
	"attention-v11": {malicious: 50, benign: 35},
	"attention-v12": {malicious: 46, benign: 32},
	"attention-v13": {malicious: 50, benign: 32},
	"attention-v14": {malicious: 46, benign: 32},
	"attention-v15": {malicious: 50, benign: 35},
	"attention-v16": {malicious: 46, benign: 35},
}

// invisibleFrom names the first set whose invisible-code cases promise that
// every bad line really carries an invisible character; earlier sets made no
// such promise in their READMEs.
var invisibleFrom = map[string]bool{"attention-v4": true, "attention-v5": true, "attention-v6": true, "attention-v7": true, "attention-v8": true, "attention-v9": true, "attention-v10": true, "attention-v11": true, "attention-v12": true, "attention-v13": true, "attention-v14": true, "attention-v15": true, "attention-v16": true}

// isInvisible reports whether r renders as nothing (or as a blank) in an
// ordinary editor while still being part of the text: format characters, the
// line and paragraph separators (a line end to JavaScript, not to a diff),
// variation selectors, tag characters, private-use code points and the Hangul
// fillers that are valid in identifiers.
func isInvisible(r rune) bool {
	switch {
	case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r):
		return true
	case r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0100 && r <= 0xE01EF:
		return true
	case r >= 0xE000 && r <= 0xF8FF:
		return true
	case r == 0x115F || r == 0x1160 || r == 0x3164 || r == 0xFFA0:
		return true
	}
	return false
}

// referencesFrom names the sets whose READMEs promise checkable references: a
// malicious case cites a public address, a benign case names the repository,
// path and commit it was copied from.
var referencesFrom = map[string]bool{"attention-v5": true, "attention-v6": true, "attention-v7": true, "attention-v8": true, "attention-v9": true, "attention-v10": true, "attention-v11": true, "attention-v12": true, "attention-v13": true, "attention-v14": true, "attention-v15": true, "attention-v16": true}

var (
	publicAddress   = regexp.MustCompile(`^https://\S+$`)
	upstreamFileRef = regexp.MustCompile(`^[\w.-]+/[\w.-]+ \S+ at [0-9a-f]{40}( \(excerpt: lines \d+-\d+ of the file\))?$`)
)

func corpusRoot(t *testing.T, name string) string {
	t.Helper()
	set := "heldout"
	if tuningSets[name] {
		set = "tuning"
	}
	dir := filepath.Join("..", "..", "testdata", set, name)
	if _, err := os.Stat(filepath.Join(dir, "cases.jsonl")); err != nil {
		t.Fatalf("held-out corpus %s: %v", name, err)
	}
	return dir
}

func readLabels(t *testing.T, dir string) []label {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "cases.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []label
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			t.Errorf("cases.jsonl:%d: blank line", n)
			continue
		}
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		var l label
		if err := dec.Decode(&l); err != nil {
			t.Errorf("cases.jsonl:%d: %v", n, err)
			continue
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// fileDiff is what the checker needs from one file's diff: its path on the new
// side, the new-side numbers of added lines, and of every line a hunk shows.
type fileDiff struct {
	newPath string
	added   map[int]bool
	shown   map[int]bool
	text    map[int]string
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

func atoi(s string, def int) int {
	if s == "" {
		return def
	}
	n, _ := strconv.Atoi(s)
	return n
}

// parseUnified reads a git-style unified diff and verifies that every hunk's
// line counts match its body, that hunks do not overlap, and that the headers
// are in the order git prints them.
func parseUnified(text string) ([]fileDiff, error) {
	if !strings.HasSuffix(text, "\n") {
		return nil, fmt.Errorf("diff does not end with a newline")
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var files []fileDiff
	i := 0
	for i < len(lines) {
		if !strings.HasPrefix(lines[i], "diff --git a/") {
			return nil, fmt.Errorf("line %d: want 'diff --git', got %q", i+1, lines[i])
		}
		i++
		for i < len(lines) && !strings.HasPrefix(lines[i], "--- ") {
			h := lines[i]
			if !(strings.HasPrefix(h, "index ") || strings.HasPrefix(h, "new file mode ") ||
				strings.HasPrefix(h, "deleted file mode ") || strings.HasPrefix(h, "old mode ") ||
				strings.HasPrefix(h, "new mode ") || strings.HasPrefix(h, "similarity index ") ||
				strings.HasPrefix(h, "rename from ") || strings.HasPrefix(h, "rename to ")) {
				return nil, fmt.Errorf("line %d: unexpected extended header %q", i+1, h)
			}
			i++
		}
		if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "+++ ") {
			return nil, fmt.Errorf("line %d: missing ---/+++ pair", i+1)
		}
		newPath := strings.TrimPrefix(lines[i+1], "+++ ")
		if newPath != "/dev/null" {
			if !strings.HasPrefix(newPath, "b/") {
				return nil, fmt.Errorf("line %d: +++ path %q lacks b/", i+2, newPath)
			}
			newPath = strings.TrimPrefix(newPath, "b/")
		}
		i += 2
		fd := fileDiff{newPath: newPath, added: map[int]bool{}, shown: map[int]bool{}, text: map[int]string{}}
		lastOldEnd, lastNewEnd := 0, 0
		hunks := 0
		for i < len(lines) && strings.HasPrefix(lines[i], "@@") {
			m := hunkHeader.FindStringSubmatch(lines[i])
			if m == nil {
				return nil, fmt.Errorf("line %d: bad hunk header %q", i+1, lines[i])
			}
			oldStart, oldCount := atoi(m[1], 0), atoi(m[2], 1)
			newStart, newCount := atoi(m[3], 0), atoi(m[4], 1)
			// An empty side names the line before it, so it may be 0.
			if (oldCount > 0 && oldStart < 1) || (newCount > 0 && newStart < 1) {
				return nil, fmt.Errorf("line %d: hunk starts before line 1", i+1)
			}
			if oldStart < lastOldEnd || newStart < lastNewEnd {
				return nil, fmt.Errorf("line %d: hunk overlaps or precedes the previous one", i+1)
			}
			i++
			oldLine, newLine := oldStart, newStart
			if newCount == 0 {
				newLine = newStart + 1
			}
			if oldCount == 0 {
				oldLine = oldStart + 1
			}
			seenOld, seenNew := 0, 0
			for i < len(lines) && (seenOld < oldCount || seenNew < newCount) {
				l := lines[i]
				switch {
				case strings.HasPrefix(l, `\`):
					// "\ No newline at end of file" belongs to the line before.
				case strings.HasPrefix(l, " ") || l == "":
					fd.shown[newLine] = true
					seenOld++
					seenNew++
					oldLine++
					newLine++
				case strings.HasPrefix(l, "-"):
					seenOld++
					oldLine++
				case strings.HasPrefix(l, "+"):
					fd.added[newLine] = true
					fd.shown[newLine] = true
					fd.text[newLine] = l[1:]
					seenNew++
					newLine++
				default:
					return nil, fmt.Errorf("line %d: %q is not a hunk body line", i+1, l)
				}
				i++
			}
			if seenOld != oldCount || seenNew != newCount {
				return nil, fmt.Errorf("hunk at %s: counts -%d +%d, body has -%d +%d",
					m[0], oldCount, newCount, seenOld, seenNew)
			}
			for i < len(lines) && strings.HasPrefix(lines[i], `\`) {
				i++
			}
			if i < len(lines) && !strings.HasPrefix(lines[i], "@@") && !strings.HasPrefix(lines[i], "diff --git ") {
				return nil, fmt.Errorf("line %d: hunk %s has more body lines than its counts", i+1, m[0])
			}
			lastOldEnd, lastNewEnd = oldStart+oldCount, newStart+newCount
			hunks++
		}
		if hunks == 0 {
			return nil, fmt.Errorf("diff for %s has no hunks", newPath)
		}
		files = append(files, fd)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("empty diff")
	}
	return files, nil
}

func TestParseUnifiedRejectsWrongCounts(t *testing.T) {
	good := "diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1,2 +1,3 @@\n a\n+b\n c\n"
	fds, err := parseUnified(good)
	if err != nil {
		t.Fatalf("well-formed diff rejected: %v", err)
	}
	if !fds[0].added[2] || fds[0].added[1] || fds[0].added[3] {
		t.Fatalf("added lines = %v, want only 2", fds[0].added)
	}
	for name, bad := range map[string]string{
		"short body":   "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,4 @@\n a\n+b\n c\n",
		"long body":    "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n a\n+b\n",
		"no +++":       "diff --git a/x b/x\n--- a/x\n@@ -1 +1 @@\n a\n",
		"bad header":   "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @\n a\n",
		"overlap":      "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n b\n@@ -2 +2 @@\n b\n",
		"no newline":   "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n a",
		"junk in body": "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n*b\n",
	} {
		if _, err := parseUnified(bad); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestHeldOutCorpusIsWellFormed(t *testing.T) {
	for _, name := range corpusDirs {
		t.Run(name, func(t *testing.T) { checkCorpus(t, name) })
	}
}

func checkCorpus(t *testing.T, name string) {
	dir := corpusRoot(t, name)
	labels := readLabels(t, dir)
	seen := map[string]bool{}
	kinds := map[string]int{}
	malCats := map[string]int{}
	for _, l := range labels {
		where := l.ID
		if l.ID == "" || seen[l.ID] {
			t.Errorf("%q: empty or duplicate id", l.ID)
			continue
		}
		seen[l.ID] = true
		kinds[l.Kind]++
		if !categories[l.Category] {
			t.Errorf("%s: unknown category %q", where, l.Category)
		}
		if l.File == "" || l.Reference == "" || l.Note == "" || l.Incident == "" {
			t.Errorf("%s: file, incident, reference and note are required", where)
		}
		if referencesFrom[name] {
			if l.Kind == "malicious" && !publicAddress.MatchString(l.Reference) {
				t.Errorf("%s: reference %q is not a public address", where, l.Reference)
			}
			if l.Kind == "benign" && !upstreamFileRef.MatchString(l.Reference) {
				t.Errorf("%s: reference %q does not name owner/repo, path and commit", where, l.Reference)
			}
		}
		var marked []int
		switch l.Kind {
		case "malicious":
			malCats[l.Category]++
			if len(l.BadLines) == 0 || l.MostSuspiciousLine != 0 {
				t.Errorf("%s: a malicious case has bad_lines and no most_suspicious_line", where)
			}
			marked = l.BadLines
		case "benign":
			if len(l.BadLines) != 0 || len(l.SourceLines) != 0 || l.MostSuspiciousLine <= 0 {
				t.Errorf("%s: a benign case has a most_suspicious_line and no bad or source lines", where)
			}
			marked = []int{l.MostSuspiciousLine}
		default:
			t.Errorf("%s: kind %q", where, l.Kind)
			continue
		}
		raw, err := os.ReadFile(filepath.Join(dir, "cases", l.ID+".diff"))
		if err != nil {
			t.Errorf("%s: %v", where, err)
			continue
		}
		if !utf8.Valid(raw) {
			t.Errorf("%s: diff is not UTF-8", where)
			continue
		}
		fds, err := parseUnified(string(raw))
		if err != nil {
			t.Errorf("%s: %v", where, err)
			continue
		}
		var fd *fileDiff
		for i := range fds {
			if fds[i].newPath == l.File {
				fd = &fds[i]
			}
		}
		if fd == nil {
			t.Errorf("%s: file %q is not in the diff", where, l.File)
			continue
		}
		for _, n := range marked {
			if !fd.added[n] {
				t.Errorf("%s: line %d is not an added line of %s", where, n, l.File)
			}
		}
		if invisibleFrom[name] && l.Kind == "malicious" && l.Category == "invisible-code" {
			carried := false
			for _, n := range l.BadLines {
				carried = carried || strings.IndexFunc(fd.text[n], isInvisible) >= 0
			}
			if !carried {
				t.Errorf("%s: no bad line carries an invisible character", where)
			}
		}
		for _, n := range l.SourceLines {
			if !fd.shown[n] {
				t.Errorf("%s: source line %d is not shown in the diff of %s", where, n, l.File)
			}
		}
	}

	entries, err := os.ReadDir(filepath.Join(dir, "cases"))
	if err != nil {
		t.Fatal(err)
	}
	var stray []string
	for _, e := range entries {
		if !seen[strings.TrimSuffix(e.Name(), ".diff")] || !strings.HasSuffix(e.Name(), ".diff") {
			stray = append(stray, e.Name())
		}
	}
	sort.Strings(stray)
	if len(stray) > 0 {
		t.Errorf("case files without a label: %v", stray)
	}
	want, ok := minimumSize[name]
	if !ok {
		t.Errorf("no minimum size recorded for %s", name)
	}
	if kinds["malicious"] < want.malicious || kinds["benign"] < want.benign {
		t.Errorf("corpus has %d malicious and %d benign cases, want at least %d and %d",
			kinds["malicious"], kinds["benign"], want.malicious, want.benign)
	}
	// A set promising no malicious case (benign cases only, for calibrating
	// against false alarms) need not cover every category.
	for c := range categories {
		if want.malicious > 0 && c != "other" && malCats[c] == 0 {
			t.Errorf("no malicious case in category %s", c)
		}
	}
}
