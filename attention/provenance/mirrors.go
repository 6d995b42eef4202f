package provenance

import (
	"regexp"
	"strings"
	"sync"
)

var (
	// imageMirrorRe is a container engine's registry mirror, in Docker's
	// daemon.json or dockerd's flag, containerd's and BuildKit's TOML, or
	// containers' registries.conf.
	imageMirrorRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`"registry-mirrors"\s*:\s*\[\s*"([^"]+)"|--registry-mirror[= ]["']?([^\s"']+)|\b(?:mirrors|endpoint)\s*=\s*\[\s*"([^"]+)"`)
	})
	insecureRegistryRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`"insecure-registries"\s*:\s*\[\s*"([^"]+)"|--insecure-registry[= ]["']?([^\s"']+)|\binsecure\s*=\s*true\b|\bhttp\s*=\s*true\b|\bplain-http\s*=\s*true\b`)
	})
)

// ImageMirror returns the mirror a line sends every image pull through
// ("" for none), and whether the line lets the engine pull without TLS.
func ImageMirror(line string) (mirror string, insecure bool) {
	if !strings.Contains(line, "mirror") && !strings.Contains(line, "endpoint") && !strings.Contains(line, "insecure") && !strings.Contains(line, "http") {
		return "", false
	}
	if m := imageMirrorRe().FindStringSubmatch(line); m != nil {
		mirror = strings.Join(m[1:], "")
	}
	return mirror, insecureRegistryRe().MatchString(line)
}
