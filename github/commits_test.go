package github

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/vetter-dev/vetter/attention"
	"github.com/vetter-dev/vetter/packet"
)

// The client is what the attention scan asks about pinned actions.
var _ attention.CommitChecker = (*Client)(nil)

// repoAPI answers the three documented endpoints CommitInRepo reads, for
// acme/setup: two branches and a tag, and comparisons in which main holds
// the old commit and nothing holds the fork's.
func repoAPI(t *testing.T, requests *atomic.Int32) *httptest.Server {
	const (
		mainHead = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		tagHead  = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
		old      = "cccccccccccccccccccccccccccccccccccccccc"
	)
	ref := func(name, sha string) map[string]any {
		return map[string]any{"name": name, "commit": map[string]any{"sha": sha, "url": "https://api.github.invalid/x"}}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.Header.Get("Authorization") == "" {
			t.Errorf("%s sent without the token", r.URL.Path)
		}
		w.Header().Set("Content-Type", "application/json")
		switch p := r.URL.EscapedPath(); {
		case p == "/repos/acme/setup/branches":
			json.NewEncoder(w).Encode([]any{ref("main", mainHead), ref("release/v1", mainHead)})
		case p == "/repos/acme/setup/tags":
			json.NewEncoder(w).Encode([]any{map[string]any{"name": "v1.0.0", "commit": map[string]any{"sha": tagHead}, "zipball_url": "x", "tarball_url": "x", "node_id": "x"}})
		case strings.HasPrefix(p, "/repos/acme/setup/compare/"):
			base, head, _ := strings.Cut(strings.TrimPrefix(p, "/repos/acme/setup/compare/"), "...")
			switch {
			case head == old && (base == "main" || base == "release/v1"):
				json.NewEncoder(w).Encode(map[string]any{"status": "behind", "ahead_by": 0, "behind_by": 3})
			case head == old:
				json.NewEncoder(w).Encode(map[string]any{"status": "diverged", "ahead_by": 2, "behind_by": 5})
			default:
				w.WriteHeader(404)
				json.NewEncoder(w).Encode(map[string]any{"message": "Not Found", "documentation_url": "https://docs.github.com/rest/commits/commits#compare-two-commits"})
			}
		default:
			w.WriteHeader(404)
			json.NewEncoder(w).Encode(map[string]any{"message": "Not Found"})
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestCommitInRepo(t *testing.T) {
	var n atomic.Int32
	srv := repoAPI(t, &n)
	c, err := NewClient(Config{Host: "github.com", Token: "test-token", APIURL: srv.URL + "/", Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		sha  string
		want bool
		// requests is how many the answer costs: the two lists, then one
		// comparison per branch or tag until one holds the commit.
		requests int32
	}{
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", true, 2},  // a branch's head
		{"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", true, 2},  // a tag's commit
		{"cccccccccccccccccccccccccccccccccccccccc", true, 3},  // in main's history
		{"dddddddddddddddddddddddddddddddddddddddd", false, 5}, // a fork's commit: in no history
	} {
		n.Store(0)
		got, err := c.CommitInRepo(ctx, "acme", "setup", tc.sha)
		if err != nil {
			t.Fatalf("%s: %v", tc.sha, err)
		}
		if got != tc.want {
			t.Errorf("%s: in repository %v, want %v", tc.sha, got, tc.want)
		}
		if n.Load() != tc.requests {
			t.Errorf("%s: %d requests, want %d", tc.sha, n.Load(), tc.requests)
		}
	}
	if _, err := c.CommitInRepo(ctx, "acme", "gone", "dddddddddddddddddddddddddddddddddddddddd"); !IsKind(err, KindNotFound) {
		t.Errorf("a repository that does not exist: got %v, want a not-found error", err)
	}
}

// Reading a pull request asks about the actions its diff pins, and the scan
// of the packet written from it rates a fork's commit an impostor.
func TestPinsAskedWhileReading(t *testing.T) {
	var n atomic.Int32
	srv := repoAPI(t, &n)
	c, err := NewClient(Config{Host: "github.com", Token: "test-token", APIURL: srv.URL + "/", Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	diff := "diff --git a/.github/workflows/ci.yml b/.github/workflows/ci.yml\n--- a/.github/workflows/ci.yml\n+++ b/.github/workflows/ci.yml\n@@ -5,1 +5,3 @@\n     steps:\n" +
		"+      - uses: acme/setup@cccccccccccccccccccccccccccccccccccccccc # v1\n" +
		"+      - uses: acme/setup@dddddddddddddddddddddddddddddddddddddddd # v1\n"
	b := &built{files: map[string][]byte{packet.DiffPath: []byte(diff)}}
	b.askPins(context.Background(), c)
	var pins []attention.Pin
	if err := json.Unmarshal(b.files[attention.PinsFile], &pins); err != nil || len(pins) != 2 {
		t.Fatalf("pins.json %q (%v), want two answers", b.files[attention.PinsFile], err)
	}
	if !pins[0].InRepo || pins[1].InRepo || pins[0].Error != "" || pins[1].Error != "" {
		t.Errorf("answers %+v: want the first in acme/setup, the second not", pins)
	}

	d, _ := packet.ParseDiff([]byte(diff))
	p := &packet.Packet{Diff: d, FS: fstest.MapFS{attention.PinsFile: {Data: b.files[attention.PinsFile]}}}
	var rules []string
	for _, a := range attention.ScanPacket(p, d) {
		if a.Hunk >= 0 {
			rules = append(rules, fmt.Sprintf("%d %s %s", a.NewLine, a.Severity, a.Rule))
		}
	}
	if want := []string{"7 high gha-impostor-commit"}; !slices.Equal(rules, want) {
		t.Errorf("scan with the answers: %q, want %q (the repository's own commit needs no look)", rules, want)
	}
}
