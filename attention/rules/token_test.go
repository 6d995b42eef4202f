package rules

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestTokenReachesCode(t *testing.T) {
	for _, c := range []struct {
		job  string
		want bool
	}{
		{"steps:\n  - uses: actions/checkout@v4\n  - run: npm test", true},
		{"steps:\n  - uses: actions/checkout@v4\n    with:\n      persist-credentials: false\n  - run: npm test", false},
		{"steps:\n  - env:\n      GH_TOKEN: ${{ github.token }}\n    run: make release", true},
		{"steps:\n  - env:\n      GH_TOKEN: ${{ github.token }}\n    run: gh pr create --fill\n  - run: make", false},
		{"steps:\n  - uses: ./.github/actions/x\n    with:\n      token: ${{ secrets.GITHUB_TOKEN }}", true},
		{"uses: org/repo/.github/workflows/x.yml@main", true},
	} {
		var root, job yaml.Node
		if err := yaml.Unmarshal([]byte("on: push"), &root); err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal([]byte(c.job), &job); err != nil {
			t.Fatal(err)
		}
		if got := TokenReachesCode(root.Content[0], job.Content[0]); got != c.want {
			t.Errorf("TokenReachesCode(%q) = %v, want %v", c.job, got, c.want)
		}
	}
}
