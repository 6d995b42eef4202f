package packet

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/vetter-dev/vetter/packet/source"
)

// The built-in sample packet, so `vetter` with no argument shows the whole tool.
//
//go:embed sample
var sampleFiles embed.FS

// SamplePath is how the embedded sample is named to people.
const SamplePath = "<built-in sample>"

// SampleFS returns the sample packet's files, rooted at the packet.
func SampleFS() fs.FS {
	sub, err := fs.Sub(sampleFiles, "sample")
	if err != nil {
		panic(err) // the embed pattern above guarantees the folder exists
	}
	return sub
}

// LoadSample loads the built-in sample packet.
func LoadSample(opts Options) *Packet {
	return Analyze(source.FromFS(SampleFS(), "embedded", SamplePath), opts)
}

// WriteSample writes the sample packet's files under dir, creating it; it
// refuses to overwrite existing files.
func WriteSample(dir string) error {
	return fs.WalkDir(SampleFS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := fs.ReadFile(SampleFS(), name)
		if err != nil {
			return fmt.Errorf("reading sample %s: %w", name, err)
		}
		f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return fmt.Errorf("writing %s: %w", dst, err)
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			return fmt.Errorf("writing %s: %w", dst, err)
		}
		return f.Close()
	})
}
