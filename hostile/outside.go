package hostile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// SecretCanary is the content of every file outside the packet that the
// outside class tries to reach: it must never show anywhere.
const SecretCanary = "SECRET-CANARY-7f3a"

// Outside describes a written escape-from-the-packet class.
type Outside struct {
	Packet string // the packet folder
	Secret string // the folder beside it holding what must not be read
	// FIFO is the named pipe inside validation/logs, "" when the platform
	// has none.
	FIFO string
}

// Registry lines of the outside class that name logs outside the packet, by
// what they try; line numbers are 1-based lines of validation/registry.jsonl.
type OutsideRun struct {
	Line int
	Log  string
	Why  string
}

// OutsideRuns lists the registry runs WriteOutside adds after the base's two;
// secretAbs is the absolute path of the secret log.
func OutsideRuns(secretAbs string) []OutsideRun {
	return []OutsideRun{
		{3, "../secret/secret.log", "climbs with .."},
		{4, secretAbs, "absolute path"},
		{5, "/dev/zero", "a device, by absolute path"},
		{6, "validation/logs/../../../secret/secret.log", ".. in the middle"},
		{7, `validation\..\..\secret\secret.log`, "backslashes and .."},
		{8, "C:/Windows/win.ini", "a drive letter"},
		{9, "validation/logs/link-abs.log", "a symbolic link to an absolute path"},
		{10, "validation/logs/fifo.log", "a named pipe"},
	}
}

// Symlinks of the outside class: packet-relative name → target, where
// "$SECRET" stands for the secret folder's absolute path.
var OutsideLinks = map[string]string{
	"validation/logs/link-rel.log":   "../../../secret/secret.log",
	"validation/logs/link-abs.log":   "$SECRET/secret.log",
	"validation/logs/zero.log":       "/dev/zero",
	"validation/logs/linkdir-rel":    "../../../secret/logs",
	"validation/logs/linkdir-abs":    "$SECRET/logs",
	"validation/logs/loop.log":       "loop.log",
	"validation/logs/inside-ok.log":  "../../change.md", // stays inside: allowed
	"notes.md":                       "../secret/secret.md",
	"compute-env.md":                 "$SECRET/secret.md",
	"validation/logs/deep/climb.log": "../../../../secret/secret.log",
}

// WriteOutside writes the escape-from-the-packet class under dir: the base
// packet in dir/packet, with registry runs naming logs by "..", absolute
// paths, a device and a pipe, symbolic links to files and folders outside,
// and a named pipe among the logs; what they aim at lives in dir/secret.
// Symbolic links and the pipe need a Unix file system.
func WriteOutside(dir string) (Outside, error) {
	o := Outside{Packet: filepath.Join(dir, "packet"), Secret: filepath.Join(dir, "secret")}
	secret := Files{
		"secret.log":      SecretCanary + " log\n[exit 0]\n",
		"secret.md":       "# " + SecretCanary + "\n",
		"logs/inside.log": SecretCanary + " in a folder\n",
	}
	if err := secret.Write(o.Secret); err != nil {
		return o, err
	}
	secretAbs, err := filepath.Abs(o.Secret)
	if err != nil {
		return o, err
	}
	f := Base()
	var reg strings.Builder
	reg.WriteString(f["validation/registry.jsonl"])
	for _, r := range OutsideRuns(filepath.Join(secretAbs, "secret.log")) {
		fmt.Fprintf(&reg, `{"seq": %d, "recipe": "0%d-outside", "status": "validated", "log": %q, "exit_code": 0}`+"\n", r.Line, r.Line, r.Log)
	}
	f["validation/registry.jsonl"] = reg.String()
	if err := f.Write(o.Packet); err != nil {
		return o, err
	}
	for name, target := range OutsideLinks {
		target = strings.ReplaceAll(target, "$SECRET", secretAbs)
		dst := filepath.Join(o.Packet, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return o, err
		}
		if err := os.Symlink(filepath.FromSlash(target), dst); err != nil {
			return o, fmt.Errorf("linking %s to %s: %w", dst, target, err)
		}
	}
	fifo := filepath.Join(o.Packet, "validation", "logs", "fifo.log")
	if err := mkfifo(fifo); err == nil {
		o.FIFO = fifo
	} else if err != errNoFIFO {
		return o, fmt.Errorf("making the pipe %s: %w", fifo, err)
	}
	return o, nil
}
