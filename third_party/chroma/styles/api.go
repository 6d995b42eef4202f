package styles

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

//go:embed *.xml
var embedded embed.FS

// Registry of Styles.
//
// vetter patch: the embedded styles are parsed when first needed, not at
// init, where parsing ~75 XML files cost every program that imports chroma
// ~7 ms of start-up: Get parses the one file named after the style it is
// asked for, Names all of them; an embedded style never replaces one
// registered with Register. Until then Registry holds only the fallback and
// what was registered; code that reads it directly sees only that. The
// compatibility variables (styles.Monokai, ...) are gone with it: they
// needed every style at init.
var Registry = map[string]*chroma.Style{}

// Fallback style. Reassign to change the default fallback style.
var Fallback = func() *chroma.Style {
	s := mustParseEmbedded("swapoff.xml")
	Registry[strings.ToLower(s.Name)] = s
	return s
}()

var embeddedOnce sync.Once

// loadNamed registers the embedded style in name.xml when that file holds
// the style called name (as most do), and reports whether it did.
func loadNamed(name string) bool {
	if strings.ContainsAny(name, "/\\") {
		return false
	}
	r, err := embedded.Open(name + ".xml")
	if err != nil {
		return false
	}
	defer r.Close()
	style, err := chroma.NewXMLStyle(r)
	if err != nil || strings.ToLower(style.Name) != name {
		return false
	}
	Registry[name] = style
	return true
}

// loadEmbedded registers every embedded style not registered yet, once.
func loadEmbedded() {
	embeddedOnce.Do(func() {
		files, err := fs.ReadDir(embedded, ".")
		if err != nil {
			panic(err)
		}
		for _, file := range files {
			if file.IsDir() {
				continue
			}
			style := mustParseEmbedded(file.Name())
			if name := strings.ToLower(style.Name); Registry[name] == nil {
				Registry[name] = style
			}
		}
	})
}

func mustParseEmbedded(name string) *chroma.Style {
	r, err := embedded.Open(name)
	if err != nil {
		panic(err)
	}
	defer r.Close()
	style, err := chroma.NewXMLStyle(r)
	if err != nil {
		panic(err)
	}
	return style
}

// Register a chroma.Style.
func Register(style *chroma.Style) *chroma.Style {
	Registry[strings.ToLower(style.Name)] = style
	return style
}

// Names of all available styles.
func Names() []string {
	loadEmbedded()
	out := []string{}
	for name := range Registry {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Get named style, or Fallback.
func Get(name string) *chroma.Style {
	if style, ok := lookup(name); ok {
		return style
	}
	return Fallback
}

// lookup finds a registered style, parsing its embedded file if need be.
// Like Register, it may write Registry.
func lookup(name string) (*chroma.Style, bool) {
	name = strings.ToLower(name)
	if style, ok := Registry[name]; ok {
		return style, true
	}
	if !loadNamed(name) {
		loadEmbedded()
	}
	style, ok := Registry[name]
	return style, ok
}

// GetForMode returns the named style if it already matches mode, otherwise its
// registered counterpart if one exists and matches mode. If neither matches,
// the originally-requested style is returned (or Fallback if the name is
// unknown), so callers always get something usable.
func GetForMode(name string, mode chroma.Mode) *chroma.Style {
	style := Get(name)
	if style.Mode() == mode {
		return style
	}
	if style.Counterpart == "" {
		return style
	}
	counterpart, ok := lookup(style.Counterpart)
	if !ok || counterpart.Mode() != mode {
		return style
	}
	return counterpart
}

// RegisterPair links two styles as light/dark counterparts of each other.
//
// Both styles are also registered if they are not already present.
func RegisterPair(a, b *chroma.Style) {
	Register(a)
	Register(b)
	a.Counterpart = strings.ToLower(b.Name)
	b.Counterpart = strings.ToLower(a.Name)
}
