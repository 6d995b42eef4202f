package rules

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// The CI systems other than GitHub Actions: where each reads its pipeline
// from, and the keys whose values its runner runs as shell with the
// project's CI variables and tokens. A system is known by its files; its
// keys are the ones every system shares (script, commands, run …) and its
// own (Travis's before_deploy, AppVeyor's on_finish, Cirrus's *_script).

// ciSystem is one CI system.
type ciSystem struct {
	noun string
	// is knows the system's files when their names are not a list
	// (Jenkinsfile, Jenkinsfile.release, deploy.jenkinsfile).
	is func(p string) bool
	// names are base names (lower case); dirs are folders whose YAML files
	// are the system's (a script beside them is a script); prefixes and
	// suffixes match YAML base names.
	names, dirs, prefixes, suffixes []string
	// keys are the system's own script keys, beyond ciSharedKeys;
	// keySuffix matches a key by its end (Cirrus: any *_script).
	keys      []string
	keySuffix string
	// itemScripts: every "- name: value" list item is a script (sourcehut's
	// tasks, Screwdriver's steps name each script by its key).
	itemScripts bool
	// splice is the form in which the system writes a value into a
	// script's text before the shell reads it, for the values whoever
	// opens a pull request chooses: its branch name, its title, a commit
	// message. A pushed branch's name (pushed by someone who can write) and
	// an author's name, which pipelines write into git config, are not
	// among them.
	splice string
	re     func() *regexp.Regexp
	spRe   func() *regexp.Regexp
	// agents is set for the systems whose jobs run on machines the
	// project keeps (Jenkins, Buildkite, Drone and Woodpecker agents): a
	// machine that keeps what a job leaves for the jobs after it.
	agents bool
	// prTrigger matches a line of the file that has the pipeline build
	// pull requests from outside the project; secrets a line that hands
	// the pipeline secrets (secret groups, signing, a password
	// parameter). Only the systems whose file, not the server, decides
	// both have them. unit is the depth of the key that names one
	// pipeline of several in the file (Codemagic's workflows: name:), 0
	// when the file is one.
	prTrigger, secrets string
	unit               int
	prRe, secRe        func() *regexp.Regexp
}

// ciSharedKeys are the script keys most systems share.
var ciSharedKeys = []string{"script", "before_script", "after_script", "run", "command", "commands", "cmd", "cmds", "bash", "sh",
	"pwsh", "powershell", "inlineScript", "install", "before_install", "after_success", "build_script", "test_script"}

var ciSystems = []*ciSystem{
	{noun: "GitLab CI config", names: []string{".gitlab-ci.yml", ".gitlab-ci.yaml"}, dirs: []string{".gitlab/ci/"},
		suffixes: []string{".gitlab-ci.yml", ".gitlab-ci.yaml"},
		// a runner's hooks run before the job fetches the sources
		keys: []string{"pre_get_sources_script", "post_get_sources_script"}},
	{noun: "CircleCI config", dirs: []string{".circleci/"}},
	{noun: "Jenkinsfile", is: Jenkinsfile, agents: true,
		// Groovy's string interpolation in a double-quoted sh step (\$ escapes)
		// (${env.X}, ${env['X']}, $X); the display name is the author's own text
		splice: `(?:^|[^\\])\$\{?\s*(?:env\s*(?:\.\s*|\[\s*['"]|\.getProperty\(\s*['"]))?CHANGE_(?:TITLE|BRANCH|AUTHOR_DISPLAY_NAME)\b`},
	{noun: "Azure Pipelines config", dirs: []string{".azure-pipelines/", ".azuredevops/", ".pipelines/", "eng/pipelines/", "eng/common/templates/"}, prefixes: []string{"azure-pipelines"},
		// macros $(Name) and template expressions are replaced in the text
		// (variable names are any case)
		splice: `(?i)\$\(\s*(?:System\.PullRequest\.SourceBranch(?:Name)?|Build\.SourceVersionMessage)\s*\)` +
			`|\$\{\{\s*variables(?:\.|\[')(?:System\.PullRequest\.SourceBranch|Build\.SourceVersionMessage)`},
	{noun: "Buildkite pipeline", agents: true, dirs: []string{".buildkite/"}, names: []string{"buildkite.yml", "buildkite.yaml", ".buildkite.yml", ".buildkite.yaml"},
		// the agent interpolates $VAR when it uploads the pipeline ($$ escapes)
		splice: `(?:^|[^$])\$\{?BUILDKITE_MESSAGE\b`},
	{noun: "Travis CI config", names: []string{".travis.yml"},
		keys: []string{"before_deploy", "after_deploy", "after_failure", "before_cache"}},
	{noun: "AppVeyor config", names: []string{"appveyor.yml", ".appveyor.yml"},
		keys: []string{"ps", "init", "before_build", "after_build", "before_test", "after_test", "before_package", "after_package",
			"before_deploy", "deploy_script", "after_deploy", "on_success", "on_failure", "on_finish"}},
	{noun: "Bitbucket Pipelines config", names: []string{"bitbucket-pipelines.yml"}, keys: []string{"after-script"}},
	{noun: "Drone config", agents: true, names: []string{".drone.yml", ".drone.yaml"},
		// ${VAR} is substituted before the step runs ($$ escapes)
		splice: `(?:^|[^$])\$\{(?:DRONE_COMMIT_MESSAGE|DRONE_SOURCE_BRANCH|DRONE_PULL_REQUEST_TITLE)\b`},
	{noun: "Woodpecker CI config", agents: true, names: []string{".woodpecker.yml", ".woodpecker.yaml"}, dirs: []string{".woodpecker/"},
		splice: `(?:^|[^$])\$\{(?:CI_COMMIT_MESSAGE|CI_COMMIT_TITLE|CI_COMMIT_SOURCE_BRANCH|CI_COMMIT_PULL_REQUEST_TITLE)\b`},
	{noun: "Cloud Build config", names: []string{"cloudbuild.yaml", "cloudbuild.yml"}, dirs: []string{".cloudbuild/"}, prefixes: []string{"cloudbuild"},
		// a step's args are its entrypoint's: bash -c takes a script
		keys: []string{"args"}},
	{noun: "Cirrus CI config", names: []string{".cirrus.yml", ".cirrus.yaml"}, keySuffix: "_script"},
	{noun: "AWS CodeBuild buildspec", prefixes: []string{"buildspec"}, keys: []string{"finally"}},
	{noun: "Semaphore pipeline", dirs: []string{".semaphore/"}},
	{noun: "Codefresh pipeline", names: []string{"codefresh.yml", "codefresh.yaml"}, dirs: []string{".codefresh/"}},
	{noun: "Harness pipeline", dirs: []string{".harness/"}},
	{noun: "Tekton pipeline", dirs: []string{".tekton/"},
		// Pipelines as Code fills {{ }} from the pull request's event
		splice: `\{\{\s*(?:source_branch|body\.[\w.]*?(?:title|body|ref|message|label|name)|headers\.[\w-]+)\s*\}\}`},
	{noun: "sourcehut build manifest", names: []string{".build.yml", ".build.yaml"}, dirs: []string{".builds/"}, itemScripts: true},
	{noun: "Bitrise config", names: []string{"bitrise.yml", "bitrise.yaml"}, keys: []string{"content"}},
	{noun: "Codemagic config", names: []string{"codemagic.yaml", "codemagic.yml"},
		// events: [push, pull_request], or - pull_request under events:
		prTrigger: `^\s*events\s*:\s*\[[^\]]*\bpull_request\b|^\s*-\s*pull_request\s*$`,
		// environment groups hold a workflow's secure variables; signing
		// and the stores' integrations its certificates and API keys
		secrets: `^\s*(?:groups|ios_signing|android_signing|app_store_connect|google_play)\s*:`, unit: 1},
	{noun: "TeamCity Kotlin DSL", is: TeamCityDSL,
		// the pull requests feature for every author, or a VCS root whose
		// branch spec takes GitHub's pull request refs (anyone's)
		prTrigger: `\bfilterAuthorRole\s*=\s*[\w.]*\bEVERYBODY\b|\bbranchSpec\s*=.*\+:\s*refs/pull/`,
		// a password parameter, a parameter set to a stored secure value
		// or named as a token: the build's own parameters, not the token
		// the pull requests feature or a VCS root fetches with
		// (authType = token { token = "credentialsJSON:…" })
		secrets: `\bpassword\s*\(\s*"|\bparam\s*\(\s*"[^"]*"\s*,\s*"(?:credentialsJSON:|%vault:)|\bparam\(\s*"(?:env\.)?\w*(?:TOKEN|SECRET|PASSWORD|_KEY)\w*"`},
	{noun: "Screwdriver config", names: []string{"screwdriver.yaml", "screwdriver.yml"}, itemScripts: true},
	{noun: "Buddy pipeline", names: []string{"buddy.yml", "buddy.yaml"}, dirs: []string{".buddy/"}, keys: []string{"execute_commands", "setup_commands"}},
	{noun: "Bamboo Specs", names: []string{"bamboo.yml", "bamboo.yaml"}, dirs: []string{"bamboo-specs/"}, keys: []string{"scripts"}},
	{noun: "OneDev build spec", names: []string{".onedev-buildspec.yml", ".onedev-buildspec.yaml"}},
}

func init() {
	for _, s := range ciSystems {
		s.re = sync.OnceValue(func() *regexp.Regexp { return ciKeyRe(s) })
		if s.splice != "" {
			s.spRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(s.splice) })
		}
		if s.prTrigger != "" {
			s.prRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(s.prTrigger) })
			s.secRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(s.secrets) })
		}
	}
}

// ciKeyRe is the pattern of a line that opens one of the system's scripts:
// its key, and the value on the line.
func ciKeyRe(s *ciSystem) *regexp.Regexp {
	keys := append(append([]string{}, ciSharedKeys...), s.keys...)
	for i, k := range keys {
		keys[i] = regexp.QuoteMeta(k)
	}
	alt := strings.Join(keys, "|")
	if s.keySuffix != "" {
		alt += `|[A-Za-z0-9_-]+` + regexp.QuoteMeta(s.keySuffix)
	}
	if s.itemScripts {
		return regexp.MustCompile(`^(\s*)(?:(?:-\s+)?(?:` + alt + `)|-\s+[A-Za-z0-9_.-]+)\s*:(?:\s+|$)(.*)$`)
	}
	return regexp.MustCompile(`^(\s*)(?:-\s+)?(?:` + alt + `)\s*:\s*(.*)$`)
}

var ciSharedRe = sync.OnceValue(func() *regexp.Regexp { return ciKeyRe(&ciSystem{}) })

// ciSystemOf returns the CI system whose pipeline p is, or nil; lb is its
// base name in lower case.
func ciSystemOf(p, lb string) *ciSystem {
	yamlFile := strings.HasSuffix(lb, ".yml") || strings.HasSuffix(lb, ".yaml")
	for _, s := range ciSystems {
		if s.is != nil && s.is(p) {
			return s
		}
		if slices.Contains(s.names, lb) {
			return s
		}
		if !yamlFile {
			continue
		}
		for _, d := range s.dirs {
			if strings.HasPrefix(p, d) || strings.Contains(p, "/"+d) {
				return s
			}
		}
		for _, x := range s.prefixes {
			if strings.HasPrefix(lb, x) {
				return s
			}
		}
		for _, x := range s.suffixes {
			if strings.HasSuffix(lb, x) {
				return s
			}
		}
	}
	return nil
}

// CIScriptKey is the pattern of a line that opens a script in the CI file
// at p: the key (group 1 its indentation) and the value on its line (group
// 2). A file of no known system (a Taskfile) gets the keys systems share.
func CIScriptKey(p string) *regexp.Regexp {
	if s := ciSystemOf(p, strings.ToLower(path.Base(p))); s != nil {
		return s.re()
	}
	return ciSharedRe()
}

// CISplice returns, for the CI file at p, what finds the value a script
// line has the CI system write into its text from the pull request (its
// branch name, title, commit message) before the shell reads it, or ""
// for none: whoever opens the pull request then writes shell code. It is
// nil for a system that writes none.
func CISplice(p string) func(line string) string {
	sys := ciSystemOf(p, strings.ToLower(path.Base(p)))
	if sys == nil || sys.spRe == nil {
		return nil
	}
	re := sys.spRe()
	return func(line string) string {
		if m := re.FindString(line); m != "" {
			return m[strings.IndexAny(m, "${"):]
		}
		return ""
	}
}

// CIPullRequestSecrets returns, for the CI file at p, the patterns of a
// line that has the pipeline build others' pull requests and of a line
// that hands it secrets, and the depth of the key that names one pipeline
// of the file's several (0: the file is one); nil for a system whose
// server, not its file, decides them.
func CIPullRequestSecrets(p string) (trigger, secrets *regexp.Regexp, unit int) {
	sys := ciSystemOf(p, strings.ToLower(path.Base(p)))
	if sys == nil || sys.prRe == nil {
		return nil, nil, 0
	}
	return sys.prRe(), sys.secRe(), sys.unit
}

// TeamCityDSL reports a TeamCity project's Kotlin settings (.teamcity/
// settings.kts and the files beside it): the server compiles and runs them
// to build its pipeline, and their script steps are shell.
func TeamCityDSL(p string) bool {
	return strings.HasSuffix(p, ".kts") && (strings.HasPrefix(p, ".teamcity/") || strings.Contains(p, "/.teamcity/"))
}

// CIOwnAgents reports a CI file whose jobs run on machines the project
// keeps: a container handed their host changes the agent itself.
func CIOwnAgents(p string) bool {
	sys := ciSystemOf(p, strings.ToLower(path.Base(p)))
	return sys != nil && sys.agents
}

// ShellCScript returns the script of a command given as a YAML flow list,
// ["sh", "-c", "script"] or a step's args ['-c', 'script']: the element
// after a shell's -c (or cmd's /c), which the shell runs as a script.
func ShellCScript(flow string) (string, bool) {
	var items []string
	if yaml.Unmarshal([]byte(flow), &items) != nil {
		return "", false
	}
	for i, it := range items[:max(len(items)-1, 0)] {
		switch it {
		case "-c", "-lc", "-ec", "-xc", "-ce", "-cx", "/c", "/C", "-Command", "-command":
			return items[i+1], true
		}
	}
	return "", false
}
