package rules

import "github.com/vetter-dev/vetter/packet"

// Kind says why an item needs a vetter's look.
type Kind = packet.AttentionKind

// The kinds of items.
const (
	KindCIFile        Kind = "ci-file"
	KindBuildFile     Kind = "build-file"
	KindDependency    Kind = "dependency"
	KindTestConfig    Kind = "test-config"
	KindScript        Kind = "script"
	KindGoGenerate    Kind = "go-generate"
	KindDownload      Kind = "download"
	KindExecute       Kind = "execute"
	KindNetwork       Kind = "network"
	KindDecodeExec    Kind = "decode-exec"
	KindCredential    Kind = "credential"
	KindHiddenUnicode Kind = "hidden-unicode"
	// KindRunner is the runner itself: registering one, writing into its
	// action cache or tool cache, caches and artifacts that cross workflows.
	KindRunner Kind = "runner"
)

// Severities.
const (
	High   = packet.AttentionHigh
	Medium = packet.AttentionMedium
	Low    = packet.AttentionLow
)

func StatusVerb(f *packet.DiffFile) string {
	switch f.Status {
	case packet.StatusAdded:
		return "added"
	case packet.StatusDeleted:
		return "deleted"
	case packet.StatusRenamed:
		return "renamed"
	case packet.StatusCopied:
		return "copied"
	}
	if f.ModeOnly {
		return "mode changed"
	}
	return "changed"
}

// Lower1 is a severity one step down: high to medium, anything else to low.
func Lower1(sev string) string {
	if sev == High {
		return Medium
	}
	return Low
}
