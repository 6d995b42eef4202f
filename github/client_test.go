package github

import (
	"context"
	"testing"
)

func TestEndpoints(t *testing.T) {
	for _, tc := range []struct {
		name          string
		cfg           Config
		rest, graphql string
	}{
		{"github.com", Config{Host: "github.com", Token: "t"}, "https://api.github.com/", "https://api.github.com/graphql"},
		{"enterprise", Config{Host: "ghe.example.com", Token: "t"}, "https://ghe.example.com/api/v3/", "https://ghe.example.com/api/graphql"},
		{"actions", Config{Host: "github.com", Token: "t", APIURL: "http://127.0.0.1:8080"}, "http://127.0.0.1:8080/", "http://127.0.0.1:8080/graphql"},
		{"proxy with both", Config{Host: "ghe.example.com", Token: "t", APIURL: "https://proxy.internal/api/v3/", GraphQLURL: "https://proxy.internal/api/graphql"},
			"https://proxy.internal/api/v3/", "https://proxy.internal/api/graphql"},
	} {
		c, err := NewClient(tc.cfg)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if c.rest != tc.rest || c.graphql != tc.graphql {
			t.Errorf("%s: REST %s GraphQL %s, want %s and %s", tc.name, c.rest, c.graphql, tc.rest, tc.graphql)
		}
	}
}

func TestFromEnv(t *testing.T) {
	t.Setenv("GH_HOST", "")
	t.Setenv("GH_TOKEN", "from-env")
	t.Setenv("GITHUB_API_URL", "http://127.0.0.1:9/api")
	t.Setenv("GITHUB_GRAPHQL_URL", "")
	t.Setenv("GH_CONFIG_DIR", t.TempDir())
	cfg := Config{Host: "github.com"}.FromEnv()
	if cfg.Token != "from-env" || cfg.APIURL != "http://127.0.0.1:9/api" || cfg.GraphQLURL != "" {
		t.Errorf("FromEnv = %+v", cfg)
	}
	c, err := NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if c.graphql != "http://127.0.0.1:9/api/graphql" {
		t.Errorf("GITHUB_GRAPHQL_URL unset: GraphQL goes to %s, want GITHUB_API_URL/graphql", c.graphql)
	}
}

// An enterprise proxy's base URL carries a path: every request goes under it,
// the token with it.
func TestAPIURLWithAPath(t *testing.T) {
	s, opts := newFake(t)
	base := opts.Config.APIURL
	opts.Config.APIURL, opts.Config.GraphQLURL = base+"/api/v3", base+"/api/graphql"
	if _, err := Open(context.Background(), fixtureRef, opts); err != nil {
		t.Fatal(err)
	}
	if s.ByPath["/api/v3/repos/acme/depot/pulls/42"] == 0 || s.ByPath["/api/graphql"] == 0 {
		t.Errorf("requests did not go under the base paths: %v", s.ByPath)
	}
	for p := range s.ByPath {
		if len(p) < 5 || p[:5] != "/api/" {
			t.Errorf("a request went to %s, outside the base URL", p)
		}
	}
}
