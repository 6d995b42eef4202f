// Package version is `vetter version` and how a build learns its version.
package version

import (
	"fmt"
	"regexp"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/vetter-dev/vetter/cli/factory"
)

// NewCmdVersion is `vetter version`: what --version prints too.
func NewCmdVersion(f *factory.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print vetter's version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, args []string) {
			fmt.Fprintln(f.IO.Out, f.Build.Line)
		},
	}
}

// Build is the build's version and the line `vetter version` prints. A
// release stamps version and commit at link time (.goreleaser.yaml), which
// holds whatever the build's VCS stamping (-buildvcs=false, a source
// archive without .git); otherwise the version comes from the build info.
func Build(version, commit string) factory.Build {
	if version == "" {
		bi, _ := debug.ReadBuildInfo()
		version = fromBuildInfo(bi)
	}
	line := "vetter " + version
	if commit != "" {
		c := commit
		if len(c) > 12 {
			c = c[:12]
		}
		line += " (commit " + c + ")"
	}
	return factory.Build{Version: version, Line: line}
}

// pseudoVersion matches the version Go stamps on a build of a checkout that
// no tag names exactly ("v0.0.0-20261201140000-1bb1c70f4285+dirty").
var pseudoVersion = regexp.MustCompile(`-(?:[0-9a-z.]+\.)?[0-9]{14}-[0-9a-f]{12}(?:\+dirty)?$`)

// fromBuildInfo is the module's version when the build names a release
// (go install vetter@v1.2.3), else dev+<revision>[-dirty] from the VCS
// stamp of a build in a checkout, else dev: go test, go run and builds with
// -buildvcs=false (as .ci/run does) carry no revision.
func fromBuildInfo(bi *debug.BuildInfo) string {
	if bi == nil {
		return "dev"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" && !pseudoVersion.MatchString(v) {
		return v
	}
	var rev string
	var dirty bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		return "dev+" + rev + "-dirty"
	}
	return "dev+" + rev
}
