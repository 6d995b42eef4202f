package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/github/fakeapi"
)

// `vetter summary --json` on each shape the agent has posted, through the
// fake API, prints what github/testdata/agents/NAME/summary.golden.json
// pins (the cache path aside): the command and the package read a pull
// request through one code path.
func TestSummaryJSONOfEachAgentShape(t *testing.T) {
	names, _ := filepath.Glob("github/testdata/agents/*/summary.golden.json")
	if len(names) < 6 {
		t.Fatalf("%d agent-shape fixtures, want at least 6", len(names))
	}
	for _, golden := range names {
		dir := filepath.Dir(golden)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			pinned(t)
			_, url := fakeapi.ServeOverlay(t, "github/testdata/pr", dir, 2)
			t.Setenv("GITHUB_API_URL", url)
			t.Setenv("GITHUB_GRAPHQL_URL", "")
			t.Setenv("GH_TOKEN", "test-token")
			t.Setenv("GH_HOST", "")
			t.Setenv("XDG_CACHE_HOME", t.TempDir())
			t.Setenv("GH_CONFIG_DIR", t.TempDir())
			out, errOut, code := run(t, "summary", fixturePR, "--json")
			if code != 0 && code != 1 {
				t.Fatalf("summary --json exited %d: %s", code, errOut)
			}
			var got, want map[string]any
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("summary --json: %v\n%s", err, out)
			}
			data, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			// Where the cache is differs between runs, and the reviewer's
			// state (none here) is all the rest could differ by.
			for _, m := range []map[string]any{got, want} {
				delete(m["packet"].(map[string]any), "path")
			}
			for _, k := range []string{"verdict", "assessment", "evidence", "findings", "problems", "gate", "source"} {
				if !reflect.DeepEqual(got[k], want[k]) {
					g, _ := json.MarshalIndent(got[k], "", "  ")
					w, _ := json.MarshalIndent(want[k], "", "  ")
					t.Errorf("%s differs from %s:\n%s\nwant\n%s", k, golden, g, w)
				}
			}
			if strings.Contains(filepath.Base(dir), "september") {
				hidden := false
				for _, r := range got["evidence"].(map[string]any)["recipes"].([]any) {
					row := r.(map[string]any)
					if strings.Contains(row["note"].(string), "command not shown") {
						hidden = true
						if _, ok := row["command"]; ok {
							t.Errorf("a hidden command printed as %v", row["command"])
						}
					}
				}
				if !hidden {
					t.Error("no check says its command is not shown")
				}
			}
		})
	}
}
