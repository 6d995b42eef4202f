package rules

import "strings"

// cacheSavers are the actions that save a cache when the job ends (or when
// the step runs): what the job left under the cached paths is what the next
// run that restores the key gets. A value names the input that turns the
// cache on; "" saves always.
var cacheSavers = map[string]string{
	"actions/cache": "", "actions/cache/save": "", "swatinem/rust-cache": "", "gradle/actions/setup-gradle": "",
	"actions/setup-node": "cache", "actions/setup-python": "cache", "actions/setup-java": "cache",
	"actions/setup-go": "cache", "actions/setup-dotnet": "cache", "ruby/setup-ruby": "bundler-cache",
	"astral-sh/setup-uv": "enable-cache", "pnpm/action-setup": "cache", "oven-sh/setup-bun": "cache",
}

// CacheSaves reports whether a step that uses ref (without its @version)
// saves a cache; input returns the step's with: value for a key, "" when
// it has none.
func CacheSaves(ref string, input func(key string) string) bool {
	key, ok := cacheSavers[strings.ToLower(ref)]
	if !ok || key == "" {
		return ok
	}
	v := strings.ToLower(strings.Trim(strings.TrimSpace(input(key)), `"'`))
	return v != "" && v != "false" && v != "none"
}
