// Package hostile builds packets that attack the person reviewing them
// (the threat model of docs/security.md): escape sequences aimed at the terminal,
// characters that hide what the text says, names that lead outside the
// packet, inputs sized to exhaust the machine, and malformed files.
//
// The small, portable classes (escape, hidden, malformed) are committed under
// testdata/hostile/ by `go run ./hostile/gen -out testdata/hostile`, so a
// person can open them; the tests regenerate them and check the committed copy
// is current. Everything platform-bound (symbolic links, pipes, names holding
// control characters) or large (gigabyte archives, 64 MiB lines) is written
// into a test's temporary folder at test time and never committed.
package hostile

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Class names: one committed folder each under testdata/hostile/.
const (
	ClassEscape    = "escape"
	ClassHidden    = "hidden"
	ClassMalformed = "malformed"
)

// Committed lists the classes written by `hostile/gen` into testdata/hostile.
func Committed() map[string]Files {
	return map[string]Files{
		ClassEscape:    Escape(),
		ClassHidden:    Hidden(),
		ClassMalformed: Malformed(),
	}
}

// Files is a packet as packet-relative names and their bytes (a string may
// hold any bytes).
type Files map[string]string

// Names returns the file names in order.
func (f Files) Names() []string {
	names := make([]string, 0, len(f))
	for n := range f {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Write writes the files under dir, creating folders as needed.
func (f Files) Write(dir string) error {
	for _, n := range f.Names() {
		dst := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("writing hostile packet file %s: %w", dst, err)
		}
		if err := os.WriteFile(dst, []byte(f[n]), 0o644); err != nil {
			return fmt.Errorf("writing hostile packet file %s: %w", dst, err)
		}
	}
	return nil
}

// Clone returns a copy that can be changed without touching f.
func (f Files) Clone() Files {
	out := make(Files, len(f))
	for k, v := range f {
		out[k] = v
	}
	return out
}

// Well-known names of the packets built here.
const (
	UnitLog = "validation/logs/2026-03-01T10-00-00.000Z-bash-u1t0.log"
	LintLog = "validation/logs/2026-03-01T10-02-00.000Z-bash-l1n7.log"
	// CodeFile is the file the base packet's diff changes.
	CodeFile = "internal/limit/bucket.go"
	// Verdict is the base packet's verdict summary, which every class keeps
	// so a test can see the rest of the packet still shows.
	Verdict = "bursts are no longer dropped"
	// WorkItem is the base packet's work-item id.
	WorkItem = "HOST-7"
	HeadSHA  = "4c1d2e3f405162738495a6b7c8d9e0f1a2b3c4d5"
	BaseSHA  = "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432"
)

// slots are what each class puts into the base packet's fields. Each is
// written as it is; an empty slot leaves the field clean.
type slots struct {
	title, route, planBody  string
	branch, url, changeBody string
	outcome, verdict        string
	reviewBody              string
	findingLoc              string // goes before ":12" in finding 1's location
	findingClaim, findingEv string
	findingExtra            string // the Notes column
	severity2               string // finding 2's severity cell
	diffName                string // the second file of the diff (new file)
	diffLine                string // an added line of the first file
	diffNewLine             string // the body of the second file
	regCommand, regNote     string // JSON-escaped already
	regExtra                string // JSON-escaped: value of an unknown field
	unitLog                 string // appended to the unit log before its exit line
}

// Base is a small, sound packet: a plan with two recipes, a one-hunk diff,
// both runs validated, a pass verdict and a sound review with two findings.
func Base() Files { return build(slots{}) }

func build(s slots) Files {
	diffName := "internal/limit/burst_test.go"
	if s.diffName != "" {
		diffName = s.diffName
	}
	newBody := "package limit\n"
	if s.diffNewLine != "" {
		newBody += s.diffNewLine + "\n"
	}
	newLines := strings.Split(strings.TrimSuffix(newBody, "\n"), "\n")
	var diff strings.Builder
	fmt.Fprintf(&diff, "diff --git a/%s b/%s\n", CodeFile, CodeFile)
	diff.WriteString("index 1111111..2222222 100644\n")
	fmt.Fprintf(&diff, "--- a/%s\n+++ b/%s\n", CodeFile, CodeFile)
	added := []string{"\tif n > b.cap {", "\t\tn = b.cap", "\t}"}
	if s.diffLine != "" {
		added = append(added, s.diffLine)
	}
	fmt.Fprintf(&diff, "@@ -10,4 +10,%d @@ func (b *Bucket) Take(n int) bool {\n", 4+len(added)-1)
	diff.WriteString(" \tb.mu.Lock()\n")
	diff.WriteString(" \tdefer b.mu.Unlock()\n")
	diff.WriteString("-\tif n > b.tokens {\n")
	for _, l := range added {
		diff.WriteString("+" + l + "\n")
	}
	diff.WriteString(" \tb.refill()\n")
	fmt.Fprintf(&diff, "diff --git a/%s b/%s\nnew file mode 100644\nindex 0000000..3333333\n--- /dev/null\n+++ b/%s\n", diffName, diffName, diffName)
	fmt.Fprintf(&diff, "@@ -0,0 +1,%d @@\n", len(newLines))
	for _, l := range newLines {
		diff.WriteString("+" + l + "\n")
	}

	f := Files{
		"plan.md": "# Plan — " + WorkItem + ": token bucket drops bursts" + s.title + "\n\n" +
			"Route: implementation" + s.route + "\nTemplate: bugfix\nEngine: go\n\n" +
			"## Intent\n\nA burst larger than the bucket is refused whole instead of being capped.\n" + s.planBody + "\n" +
			"## Validation strategy\n\n```validation-recipes\n01-unit\n02-lint\n```\n",
		"change.md": "# Change — " + WorkItem + "\n\n## Commit\n\n" +
			"Branch `fix/burst-cap" + s.branch + "`, branched from `main` at `" + BaseSHA + "`.\n\n" +
			"**`" + HeadSHA + "`** — limit: cap a burst at the bucket's size\n\n" +
			"PR URL: https://example.invalid/pull/7" + s.url + "\n\n" +
			"## What changed\n\n`Take` caps `n` at the capacity (`" + CodeFile + ":12`).\n" + s.changeBody,
		"change-validation.md": "# Validation — " + WorkItem + "\n\n" +
			"## Investigation outcome: the cap holds" + s.outcome + "\n\n" +
			"The unit run (`" + UnitLog + ":2`) covers a burst of twice the capacity.\n\n" +
			"## Verdict: pass — " + Verdict + s.verdict + "\n",
		"review.md": "# Review — " + WorkItem + "\n\n## Assessment: sound\n\n" +
			"The change is small and tested." + s.reviewBody + "\n\n## Findings\n\n" +
			"| # | file:line | Severity | Claim | Evidence | Notes |\n" +
			"|---|---|---|---|---|---|\n" +
			"| 1 | `" + CodeFile + s.findingLoc + ":12` | minor | The cap is silent." + s.findingClaim +
			" | See `" + UnitLog + ":2`." + s.findingEv + " | " + s.findingExtra + " |\n" +
			"| 2 | `" + CodeFile + ":11` | nit" + s.severity2 + " | `n` could be named. | `change.md:5` | |\n",
		"validation/registry.jsonl": `{"seq": 1, "recipe": "01-unit", "status": "validated", "command": "go test ./...` + s.regCommand +
			`", "log": "` + UnitLog + `", "exit_code": 0, "duration_ms": 1200, "note": "burst tests` + s.regNote +
			`", "runner": "sandbox-1` + s.regExtra + `"}` + "\n" +
			`{"seq": 2, "recipe": "02-lint", "status": "validated", "command": "go vet ./...", "log": "` + LintLog + `", "exit_code": 0, "duration_ms": 800}` + "\n",
		UnitLog: "=== RUN   TestBurst\n--- PASS: TestBurst (0.00s)\nok  \texample.invalid/limit\t0.2s\n" + s.unitLog + "[exit 0 after 1.2 s]\n",
		LintLog: "vet: ok\n[exit 0 after 0.8 s]\n",
	}
	f["change.diff"] = diff.String()
	return f
}
