package hostile

import "strings"

// MalformedRegistry is validation/registry.jsonl broken every way the issue
// lists, one way a line: a byte-order mark, CRLF endings, truncated JSON, an
// array, wrong types, invalid UTF-8, JSON that is not an object, nesting too
// deep to decode, and, last, one good line that must still count.
var MalformedRegistry = strings.Join([]string{
	"\xef\xbb\xbf" + `{"seq": 1, "recipe": "01-unit", "status": "validated", "log": "` + UnitLog + `", "exit_code": 0}` + "\r", // 1: BOM, CRLF
	`{"seq": 2, "recipe": "02-lint", "status": "valid`,                                                                         // 2: truncated
	`[1, 2, 3]`, // 3: an array
	`{"seq": "three", "recipe": 7, "status": ["validated"], "exit_code": "0", "duration_ms": true, "log": {"path": "x"}}`, // 4: wrong types
	`{"seq": 5, "recipe": "03-` + "\xff\xfe" + `", "status": "validated"}`,                                                // 5: invalid UTF-8
	`null`, // 6
	`42`,   // 7
	`{"seq": 8, "recipe": "04-deep", "note": ` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`, // 8: too deep
	``, // 9: blank
	`{"seq": 10, "recipe": "02-lint", "status": "validated", "log": "` + LintLog + `", "exit_code": 0}`, // 10: good
	`{"seq": 11, "recipe": "02-lint"`, // 11: truncated at the end of the file, no newline
}, "\n")

// MalformedDiff lies in its hunk counts, has a hunk before any file, garbage
// between files, a hunk header that cannot be read, a binary file, names
// quoted the way git quotes them, a rename, and a combined diff.
const MalformedDiff = `@@ -1,2 +1,2 @@
-orphan hunk before any file
+orphan hunk before any file!
diff --git a/internal/limit/bucket.go b/internal/limit/bucket.go
index 1111111..2222222 100644
--- a/internal/limit/bucket.go
+++ b/internal/limit/bucket.go
@@ -10,5 +10,9 @@ func (b *Bucket) Take(n int) bool {
 	b.mu.Lock()
-	if n > b.tokens {
+	if n > b.cap {
+		n = b.cap
+	}
this line is garbage between files
and so is this one
+looks like an added line but no hunk is open
diff --git "a/docs/with space.md" "b/docs/with space.md"
index 1111111..2222222 100644
--- "a/docs/with space.md"
+++ "b/docs/with space.md"
@@ -1 +1,3 @@
-old
+new
diff --git "a/docs/tab\there\303\251.md" "b/docs/tab\there\303\251.md"
new file mode 100644
--- /dev/null
+++ "b/docs/tab\there\303\251.md"
@@ -0,0 +1 @@
+quoted name with a tab and an octal é
diff --git a/assets/logo.png b/assets/logo.png
index 1111111..2222222 100644
Binary files a/assets/logo.png and b/assets/logo.png differ
diff --git a/assets/icon.png b/assets/icon.png
new file mode 100644
index 0000000..4444444
GIT binary patch
literal 12
TcmZ?wbhEHb6lDMc00;m8

literal 0
HcmV?d00001

diff --git a/old/name.go b/new/name.go
similarity 90%
rename from old/name.go
rename to new/name.go
@@ -1,1 +1,1 @@ not a number @@
-a
+b
@@ -x,y +z @@
+unreadable hunk header
diff --cc internal/merge.go
index 1111111,2222222..3333333
@@@ -1,1 -1,1 +1,1 @@@
- a
 -b
++c
diff --git a/internal/limit/last.go b/internal/limit/last.go
--- a/internal/limit/last.go
+++ b/internal/limit/last.go
@@ -1,3 +1,1 @@
-one
+two
\ No newline at end of file
`

// Malformed is the malformed class: the registry, the diff and the markdown
// are each broken in every way the issue lists, while enough stays readable
// for the screens to show something of everything.
func Malformed() Files {
	f := Base()
	f["validation/registry.jsonl"] = MalformedRegistry
	f["change.diff"] = MalformedDiff
	// An unterminated fence at the end of the plan, after the recipes.
	f["plan.md"] += "\n## Notes\n\n```go\nfunc never() {\n// the fence is never closed\n"
	// Two verdicts that disagree: the last one stands.
	f["change-validation.md"] = "# Validation — " + WorkItem + "\n\n" +
		"## Verdict: pass — " + Verdict + "\n\n" +
		"A later run failed.\n\n" +
		"## Investigation outcome: one run failed\n\n" +
		"## Verdict: FAIL — the lint run failed after all\n\n" +
		"```\n## Verdict: blocked — inside a fence, not a verdict\n```\n"
	// An assessment word that is neither sound nor needs_changes, and a
	// findings table with short rows, a long row, a row without a number and
	// an unknown severity.
	f["review.md"] = "# Review — " + WorkItem + "\n\n## Assessment: looks-great\n\n" +
		"## Findings\n\n" +
		"| # | file:line | Severity | Claim | Evidence |\n" +
		"|---|---|---|---|---|\n" +
		"| 1 | `" + CodeFile + ":12` | minor | A whole row. | `change.md:5` |\n" +
		"| 2 | `" + CodeFile + ":11` |\n" +
		"| three | x | nit | not a number | - |\n" +
		"| 4 | `" + CodeFile + ":13` | catastrophic | An unknown severity. | - | an extra cell | and another |\n" +
		"| 5\n" +
		"| 6 | `unterminated | nit | a backtick never closed | - |\n" +
		"\n## Findings\n\n| only | two |\n|---|---|\n| a | b |\n"
	return f
}
