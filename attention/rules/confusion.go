package rules

import (
	"regexp"
	"strings"
	"sync"
)

// Dependency confusion: with a second index in effect (--extra-index-url,
// --find-links), pip takes each name from whichever index offers the
// highest version. A name the extra index publishes that PyPI does not —
// a project's or vendor's own package — is then anyone's to register on
// PyPI with a higher version, and its install code runs on the runner (the
// PyTorch nightly's torchtriton, December 2022). A name pinned to one
// version (==, ===) or to hashes stays put; a name PyPI's real owners
// publish (torch, numpy) is not free to register.

// publicOnVendorIndexes are names that vendor indexes serve and that their
// own projects also publish on PyPI: taking them from either index gives
// the same owner's code.
var publicOnVendorIndexes = []string{"torch", "torchvision", "torchaudio", "torchtext", "torchdata", "torchrec", "torchao", "triton",
	"pytorch-triton", "xformers", "jax", "jaxlib", "tensorflow", "tensorflow-cpu", "tensorflow-gpu", "tf-nightly", "torch-scatter",
	"torch-sparse", "torch-cluster", "torch-spline-conv", "torch-geometric", "pyg-lib", "dgl", "onnxruntime", "onnxruntime-gpu",
	"cupy-cuda11x", "cupy-cuda12x", "paddlepaddle", "paddlepaddle-gpu", "mxnet", "flash-attn", "vllm", "bitsandbytes", "deepspeed",
	"intel-extension-for-pytorch", "oneccl-bind-pt", "nvidia-dali-cuda120", "tensorrt", "cuda-python", "numba", "llvmlite"}

var (
	extraIndexRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|\s)(?:--extra-index-url|--find-links|-f)(?:\s+|\s*=\s*)["']?(https?://[^\s"']+)`)
	})
	reqNameRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*(.*)$`)
	})
)

// ExtraIndex returns the URL of a second index a line adds to pip's
// (--extra-index-url, --find-links), or "".
func ExtraIndex(s string) string {
	if m := extraIndexRe().FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

// ConfusableName returns the name a requirement takes from whichever
// index offers the highest version: not pinned to one version or hashes,
// not a URL, and not a name its real owners publish on PyPI. req is one
// requirement (a requirements file's line, or an argument of pip install).
func ConfusableName(req string) string {
	req = strings.TrimSpace(req)
	if req == "" || strings.HasPrefix(req, "#") || strings.HasPrefix(req, "-") || strings.Contains(req, "--hash") ||
		strings.Contains(req, "://") || strings.Contains(req, "@") || strings.ContainsAny(req, "/\\$") {
		return ""
	}
	m := reqNameRe().FindStringSubmatch(req)
	if m == nil {
		return ""
	}
	spec := strings.TrimSpace(strings.SplitN(m[3], ";", 2)[0])
	spec = strings.TrimSpace(strings.SplitN(spec, "#", 2)[0])
	if strings.HasPrefix(spec, "==") && !strings.Contains(spec, "*") && !strings.Contains(spec, ",") || strings.HasPrefix(spec, "===") {
		return ""
	}
	if spec != "" && !strings.ContainsAny(spec[:1], "<>=!~") && !strings.HasPrefix(spec, "--pre") {
		return "" // not a requirement (prose, a key: value line)
	}
	if strings.HasSuffix(strings.ToLower(m[1]), ".txt") || strings.HasSuffix(strings.ToLower(m[1]), ".whl") || strings.HasSuffix(strings.ToLower(m[1]), ".tar.gz") {
		return ""
	}
	n := strings.NewReplacer("_", "-", ".", "-").Replace(strings.ToLower(m[1]))
	for _, k := range publicOnVendorIndexes {
		if n == k {
			return ""
		}
	}
	for _, k := range popularPyPI {
		if n == k {
			return ""
		}
	}
	if strings.HasPrefix(n, "nvidia-") {
		return "" // NVIDIA's CUDA wheels, published on PyPI by NVIDIA
	}
	return m[1]
}

// PipInstallNames returns the requirement arguments of a pip install
// command line that also adds a second index, with that index; nil when
// the line adds none.
func PipInstallNames(s string) (names []string, index string) {
	index = ExtraIndex(s)
	if index == "" {
		return nil, ""
	}
	f := strings.Fields(s)
	at := -1
	for i := 0; i+1 < len(f); i++ {
		// uv takes each name from the first index that has it: not here.
		if strings.HasSuffix(f[i], "pip") || strings.HasSuffix(f[i], "pip3") {
			if f[i+1] == "install" {
				at = i + 2
			} else if i+2 < len(f) && f[i+2] == "install" {
				at = i + 3
			}
			break
		}
	}
	if at < 0 {
		return nil, index
	}
	withArg := map[string]bool{"--extra-index-url": true, "--index-url": true, "-i": true, "--find-links": true, "-f": true, "-r": true,
		"--requirement": true, "-c": true, "--constraint": true, "--target": true, "-t": true, "--prefix": true, "--root": true,
		"--trusted-host": true, "--platform": true, "--python-version": true, "--only-binary": true, "--no-binary": true, "-e": true, "--editable": true}
	for i := at; i < len(f); i++ {
		w := strings.Trim(f[i], `"'`)
		switch {
		case w == "&&" || w == ";" || w == "|" || w == "||" || w == "\\":
			return names, index
		case withArg[w]:
			i++
		case strings.HasPrefix(w, "-"):
		default:
			if n := ConfusableName(w); n != "" {
				names = append(names, n)
			}
		}
	}
	return names, index
}

// genericHostWords are the parts of an index's host that name no project.
var genericHostWords = map[string]bool{"download": true, "downloads": true, "packages": true, "package": true, "pkgs": true, "pypi": true,
	"repo": true, "repos": true, "files": true, "www": true, "simple": true, "wheels": true, "whl": true, "mirror": true, "cache": true,
	"build": true, "index": true, "cdn": true, "dl": true, "org": true, "com": true, "net": true, "io": true, "dev": true, "ai": true,
	"cloud": true, "example": true, "invalid": true, "internal": true, "artifactory": true, "nexus": true, "storage": true, "googleapis": true}

// VendorName reports a name of the extra index's own project: it carries
// the word the index's host is named for (torchtriton on pytorch.org,
// acme-utils on pypi.acme.dev), or starts with a name that project
// publishes on PyPI without being one. Such a name is what the extra index
// exists to serve, and the one PyPI may not hold; a name from elsewhere
// (a docs theme beside a torch index) is PyPI's own.
func VendorName(name, index string) bool {
	n := strings.NewReplacer("_", "", "-", "", ".", "").Replace(strings.ToLower(name))
	host := index
	if i := strings.Index(host, "://"); i >= 0 {
		host = host[i+3:]
	}
	host, _, _ = strings.Cut(host, "/")
	host, _, _ = strings.Cut(host, ":")
	for _, w := range strings.FieldsFunc(strings.ToLower(host), func(r rune) bool { return r == '.' || r == '-' }) {
		if genericHostWords[w] || len(w) < 3 {
			continue
		}
		if strings.Contains(n, w) || len(w) > 6 && strings.Contains(n, strings.TrimPrefix(w, "py")) {
			return true
		}
	}
	for _, k := range publicOnVendorIndexes {
		if len(k) >= 4 && strings.HasPrefix(n, strings.ReplaceAll(k, "-", "")) {
			return true
		}
	}
	return false
}

// Confusion is the title of a dependency-confusion item for name taken
// beside the index idx (on host), and whether it is high: a name of the
// index's own project, which PyPI may not hold. Another name (medium) is
// most likely its real owners' package on PyPI; why says so.
func Confusion(name, idx, host string) (title, why string, high bool) {
	title = "takes " + name + ", unpinned, from whichever index offers the highest version: PyPI or " + host
	if VendorName(name, idx) {
		return title, "", true
	}
	return title, "pip takes it from whichever index offers the highest version; the name is not one of " + host + "'s own project, so PyPI most likely holds its real owners' package: pin it, or check who publishes it there", false
}
