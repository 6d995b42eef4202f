package attention

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/vetter-dev/vetter/attention/rules"
)

// docs/packet-format.md lists every rule of the registry, and no other.
func TestDocsListEveryRule(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "docs", "packet-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\| (high|medium|low) \\|").FindAllStringSubmatch(string(data), -1) {
		listed[m[1]] = true
		if rules.ByID(m[1]) == nil {
			t.Errorf("docs list %s, which is no rule", m[1])
		}
	}
	for _, r := range rules.All() {
		if !listed[r.ID] {
			t.Errorf("docs do not list the rule %s", r.ID)
		}
	}
}
