package version

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	rev := "1bb1c70f4285cf39d8ebaf61573f0095423d52b1"
	info := func(v string, settings ...string) *debug.BuildInfo {
		bi := &debug.BuildInfo{Main: debug.Module{Path: "vetter", Version: v}}
		for i := 0; i+1 < len(settings); i += 2 {
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
		}
		return bi
	}
	for _, c := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"no build info", nil, "dev"},
		{"go test, go run, -buildvcs=false", info("(devel)"), "dev"},
		{"a release", info("v1.4.0", "vcs.revision", rev), "v1.4.0"},
		{"a checkout, clean", info("(devel)", "vcs.revision", rev, "vcs.modified", "false"), "dev+1bb1c70f4285"},
		{"a checkout, edited", info("(devel)", "vcs.revision", rev, "vcs.modified", "true"), "dev+1bb1c70f4285-dirty"},
		// Go 1.24+ stamps a pseudo-version on a checkout no tag names.
		{"a pseudo-version", info("v0.0.0-20261201140000-1bb1c70f4285+dirty", "vcs.revision", rev, "vcs.modified", "true"), "dev+1bb1c70f4285-dirty"},
		{"after a tag", info("v1.4.1-0.20261201140000-1bb1c70f4285", "vcs.revision", rev), "dev+1bb1c70f4285"},
	} {
		if got := fromBuildInfo(c.bi); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// A release's stamp wins over the build info, and the line names the
// commit, shortened.
func TestBuildStamped(t *testing.T) {
	b := Build("v9.8.7", "1bb1c70f4285cf39d8ebaf61573f0095423d52b1")
	if b.Version != "v9.8.7" || b.Line != "vetter v9.8.7 (commit 1bb1c70f4285)" {
		t.Errorf("Build = %+v", b)
	}
	if b := Build("v9.8.7", ""); b.Line != "vetter v9.8.7" {
		t.Errorf("without a commit: %+v", b)
	}
}
