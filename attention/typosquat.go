package attention

// Typosquats: a new dependency named a letter or two away from a package
// nearly every project installs (rules.SquatOf) is rated by where it is added.

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/vetter-dev/vetter/attention/provenance"
	"github.com/vetter-dev/vetter/attention/rules"
	"github.com/vetter-dev/vetter/packet"
)

var depLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*"(@?[\w.-]+(?:/[\w.-]+)?)"\s*:\s*"([^"]*)"`)
})

var reqLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*["']?([A-Za-z0-9][\w.-]*)\s*(?:\[[^\]]*\])?\s*(?:[<>=!~;@,"']|$)`)
})

// typosquats rates the dependencies a change adds by their names.
func (fs *fileScan) typosquats(ecosystem string) {
	if fs.added == nil {
		fs.index()
	}
	for n := range fs.added {
		s := fs.text[n]
		var name string
		switch ecosystem {
		case "npm":
			m := depLine().FindStringSubmatch(s)
			if m == nil || !fs.inDependencyBlock(n) {
				continue
			}
			name = m[1]
			if target, ok := strings.CutPrefix(m[2], "npm:"); ok {
				// An alias installs target under the name.
				if at := strings.LastIndexByte(target, '@'); at > 0 {
					target = target[:at]
				}
				if rules.SquatOf(target, "npm") == "" && rules.RenameImitates(name, target, "npm") {
					fs.report(n, hit{id: "source-switched", title: "installs " + target + " under the name " + name + " (an npm alias)"})
					continue
				}
				if scope, rest, ok := strings.Cut(strings.TrimPrefix(name, "@"), "/"); ok && strings.HasPrefix(name, "@") && strings.EqualFold(target, scope+"-"+rest) {
					// types-react for @types/react: how a scope's owner ships a
					// pre-release, but an unscoped name is anyone's to register.
					fs.report(n, hit{id: "source-switched", severity: rules.Medium, title: "installs " + target + ", an unscoped package named after the scope, under the name " + name + " (an npm alias)",
						why: "only the scope's owner publishes under " + name + "; anyone may have registered " + target + ": check who publishes it"})
					continue
				}
				name = target
			}
		case "pypi":
			t := strings.TrimSpace(s)
			if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "-") || strings.Contains(t, "=") && !strings.ContainsAny(t, "<>!~") && !strings.Contains(t, "==") {
				continue
			}
			m := reqLine().FindStringSubmatch(s)
			if m == nil {
				continue
			}
			name = m[1]
		}
		if k := rules.SquatOf(name, ecosystem); k != "" {
			fs.report(n, squatHit("adds the package "+name, name, k))
		}
	}
}

// squatHit is the look-alike item for a name judged to imitate the
// well-known name k: high where the name takes a typosquat's form, medium
// where it is only a name near k, as real projects' names often are
// (provenance.NearOnly).
func squatHit(what, name, k string) hit {
	if provenance.NearOnly(name, k) {
		return hit{id: "lookalike-source", severity: rules.Medium, title: what + ", a name near " + k,
			why: "could be a look-alike of " + k + ": the names are a plain letter apart, as real projects' names often are, not in a typosquat's forms (letters swapped or doubled, a digit for a letter); check it is the package you mean"}
	}
	return hit{id: "lookalike-source", title: what + ", a look-alike of " + k}
}

// inDependencyBlock reports a package.json line inside one of the blocks
// that name packages to install.
func (fs *fileScan) inDependencyBlock(n int) bool { return fs.inJSONBlock(n, depBlock) }

// inJSONBlock reports a line of a JSON object whose key is one block
// accepts, the nearest opening key above it that the diff shows.
func (fs *fileScan) inJSONBlock(n int, block func(string) bool) bool {
	depth := 0 // objects closed above the line, between it and its own
	for k := n - 1; k > 0 && k >= n-200; k-- {
		t, ok := fs.text[k]
		if !ok {
			return false
		}
		net := strings.Count(t, "{") - strings.Count(t, "}")
		switch {
		case net < 0:
			depth -= net
		case net > 0 && depth >= net:
			depth -= net
		case net > 0:
			i := strings.LastIndex(t, ":")
			if i < 0 || !strings.HasSuffix(strings.TrimSpace(t), "{") {
				return false
			}
			return block(strings.Trim(strings.TrimSpace(t[:i]), `"`))
		}
	}
	return false
}

// manifestDeps rates the dependencies a Cargo, Python, Maven, Ruby or NuGet
// manifest, or an import map, adds (rules.ManifestDeps): a look-alike name, a crate
// built under another crate's name, an import sent to a URL.
func (fs *fileScan) manifestDeps(kind string) {
	eco := map[string]string{"cargo": "cargo", "pyproject": "pypi", "conda": "pypi", "maven": "maven", "gem": "gem", "nuget": "nuget"}[kind]
	for _, d := range rules.ManifestDeps(kind, fs.numberedText()) {
		if _, added := fs.added[d.N]; !added {
			continue
		}
		if kind == "flake" {
			fs.flakeInput(d)
			continue
		}
		if d.Channel {
			if k := rules.SquatOf(d.Name, "conda-channel"); k != "" {
				fs.report(d.N, hit{id: "lookalike-source", title: "installs conda packages from the channel " + d.Name + ", a look-alike of " + k})
			}
			continue
		}
		switch k := rules.SquatOf(d.Name, eco); {
		case d.Source != "":
			fs.importURL(d)
		case k != "":
			fs.report(d.N, squatHit("adds the package "+d.Name, d.Name, k))
		case d.As != "" && (rules.RenameImitates(d.As, d.Name, eco) || fs.wasPlain(d.N, d.As)):
			fs.report(d.N, hit{id: "source-switched", title: "builds the crate " + d.Name + " under the name " + d.As})
		}
	}
}

// wasPlain reports a removed line of the hunk that declared the crate name
// under its own name: the name now stands for another crate.
func (fs *fileScan) wasPlain(n int, name string) bool {
	for _, old := range fs.removedNear(n) {
		if rules.PlainCrate(old, name) {
			return true
		}
	}
	return false
}

// importURL rates an import map's entry: a name mapped to a URL loads that
// URL's code wherever the name is imported, as a dependency given by URL
// does. Deno's and JSR's registries and the npm CDNs serve modules at
// versioned paths and are not a place of their own.
func (fs *fileScan) importURL(d rules.Dep) {
	h := provenance.HostOf(d.Source)
	switch k := cmp.Or(provenance.Lookalike(h, provenance.ModuleHosts), provenance.LookalikeHost(h)); {
	case provenance.HostIn(h, provenance.ModuleHosts) || provenance.LoopbackOnly(d.Source) || provenance.PinnedScriptURL(d.Source):
	case h == "raw.githubusercontent.com" || h == "github.com" || h == "gist.githubusercontent.com":
		fs.report(d.N, hit{id: "dependency-url", severity: rules.Medium, title: "maps the import " + d.Name + " to a file of a GitHub repository",
			why: "every import of the name loads that file's code; a tag or branch can move, so read whose repository it is and what ref it names"})
	case k != "":
		fs.report(d.N, hit{id: "lookalike-source", title: "maps " + d.Name + " to code on " + h + ", a look-alike of " + k})
	default:
		fs.report(d.N, hit{id: "dependency-url", title: "maps the import " + d.Name + " to code on " + h,
			why: "every import of the name loads that URL's code when the program or its tests run; the diff does not show it, and whoever runs the host decides it"})
	}
}

// flakeInput rates a Nix flake input taken from a forge by owner/repo: an
// owner a letter off a well-known one, or the same repository moved to
// another owner. nix build and nix develop evaluate and build what the
// input holds.
func (fs *fileScan) flakeInput(d rules.Dep) {
	owner, repo, _ := strings.Cut(d.Name, "/")
	if k := provenance.LookalikeOwner(owner); k != "" {
		fs.report(d.N, hit{id: "lookalike-source", title: "takes the flake input " + d.Name + " from " + owner + ", a look-alike of " + k})
		return
	}
	for _, old := range fs.removedNear(d.N) {
		for _, o := range rules.ManifestDeps("flake", []rules.NumLine{{N: 1, Text: old}}) {
			if wo, wr, _ := strings.Cut(o.Name, "/"); strings.EqualFold(wr, repo) && !strings.EqualFold(wo, owner) {
				fs.report(d.N, hit{id: "source-switched", title: "switches the flake input " + repo + " from " + o.Name + " to " + d.Name})
				return
			}
		}
	}
}

// goImports rates a Go file's added imports of a module path that is a
// look-alike of a well-known one. It reads the hunks' added lines as they
// are, without indexing the file, as nearly every file of a change is Go.
func (fs *fileScan) goImports() {
	for hi, h := range fs.f.Hunks {
		if h == nil {
			continue
		}
		for li, l := range h.Lines {
			if l.Kind != packet.LineAdded {
				continue
			}
			if p := rules.GoImport(l.Text); p != "" {
				if k := rules.SquatOf(p, "go"); k != "" {
					fs.put(loc{hi, li}, hit{id: "lookalike-source", title: "imports " + p + ", from a look-alike of the module " + k, parsed: true})
				}
			}
		}
	}
}

// forgeOwners rates the forge owners that added lines name (in a URL, a git
// source, github:owner/repo, an image on GitHub's registry), whatever the
// file: an owner that is a near-copy of the one the line replaced, a
// letter off one the rest of the file names, or a near-copy of a
// well-known one takes the code from whoever registered the look-alike.
// An owner the file already names elsewhere is the project's own choice,
// a fork it uses, and stays quiet; so is a word added to an owner the file
// names, as organisations name their own families so (tailscale-dev).
func (fs *fileScan) forgeOwners(lines []numbered) {
	// Nearly every file names a URL: the file is indexed only when one is
	// worth a look.
	if len(lines) == 0 {
		return
	}
	type named struct {
		n   int // new-side line; 0 for a removed line
		ref provenance.ForgeRef
	}
	var all []named
	if slices.ContainsFunc(lines, func(l numbered) bool { return provenance.ForgeRefs(l.text) != nil }) {
		if fs.added == nil {
			fs.index()
		}
		// Only a file whose added lines name a forge owner is read whole.
		for n, s := range fs.text {
			for _, r := range provenance.ForgeRefs(s) {
				all = append(all, named{n, r})
			}
		}
		for _, h := range fs.f.Hunks {
			if h == nil {
				continue
			}
			for _, l := range h.Lines {
				if l.Kind == packet.LineRemoved {
					for _, r := range provenance.ForgeRefs(l.Text) {
						all = append(all, named{0, r})
					}
				}
			}
		}
		// Map order is random; the model a title names should not be.
		slices.SortStableFunc(all, func(a, b named) int { return a.n - b.n })
	}
	for _, l := range lines {
		for _, h := range provenance.URLHosts(l.text) {
			if k := provenance.ImitatingURLHost(h); k != "" {
				if fs.added == nil {
					fs.index()
				}
				fs.report(l.n, hit{id: "lookalike-source", title: "takes code from " + h + ", a look-alike of " + k})
			}
		}
	refs:
		for _, r := range provenance.ForgeRefs(l.text) {
			for _, o := range all {
				if o.n != l.n && o.ref.Family == r.Family && o.ref.Owner == r.Owner {
					continue refs
				}
			}
			for _, old := range fs.removedNear(l.n) {
				for _, o := range provenance.ForgeRefs(old) {
					if o.Family == r.Family && provenance.Imitates(r.Owner, o.Owner) {
						fs.report(l.n, hit{id: "source-switched", title: "switches " + o.Name() + " to " + r.Name() + ", an owner that is a look-alike of " + o.Owner})
						continue refs
					}
				}
			}
			for _, o := range all {
				if o.n != l.n && o.ref.Family == r.Family && provenance.NearOwner(r.Owner, o.ref.Owner) {
					fs.report(l.n, hit{id: "lookalike-source", title: "takes " + r.Name() + " from an owner that is a look-alike of " + o.ref.Owner + ", whom the file names for " + o.ref.Name()})
					continue refs
				}
			}
			// Docker Hub's accounts are not GitHub's (rustlang publishes
			// the Rust images): the publishers' own list judges them.
			if k := provenance.ImitatedOwner(r.Owner); k != "" && r.Family != "docker.io" {
				h := hit{id: "lookalike-source", title: "takes " + r.Name() + " from an owner that is a look-alike of " + k}
				if provenance.NearOnly(r.Owner, k) {
					h = hit{id: "lookalike-source", severity: rules.Medium, title: "takes " + r.Name() + " from " + r.Owner + ", an owner whose name is near " + k,
						why: "could be a look-alike of " + k + ": the names are a plain letter apart, as the names of real, different organisations often are, not in a look-alike's forms (letters swapped, a digit for a letter, the owner's name with a word added); check it is the owner you mean"}
				}
				fs.report(l.n, h)
			}
		}
	}
}

// ownerSwitches pairs each run of removed lines with the run of added lines
// that replaces it, line by line where the runs are as long, and rates a
// pair that changed only an owner, to a letter-level copy of it: whatever
// the file, the name stays and the code behind it moves.
func (fs *fileScan) ownerSwitches() {
	for hi, h := range fs.f.Hunks {
		if h == nil {
			continue
		}
		lines := h.Lines
		for i := 0; i < len(lines); {
			if lines[i].Kind != packet.LineRemoved {
				i++
				continue
			}
			r := i
			for i < len(lines) && lines[i].Kind == packet.LineRemoved {
				i++
			}
			a := i
			for i < len(lines) && lines[i].Kind == packet.LineAdded {
				i++
			}
			if i-a != a-r {
				continue
			}
			for k := range a - r {
				if from, to := provenance.OwnerSwitch(lines[r+k].Text, lines[a+k].Text); to != "" {
					fs.put(loc{hi, a + k}, hit{id: "source-switched", title: "switches the owner " + from + " to " + to + ", a look-alike of it", parsed: true})
				}
			}
		}
	}
}
