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
// vetter patch: the embedded styles are parsed on the first call of one of
// this package's functions, not at init, where parsing ~75 XML files cost
// every program that imports chroma ~7 ms of start-up. Until then Registry
// holds only the fallback; code that reads it directly sees what was
// registered so far. The compatibility variables (styles.Monokai, ...) are
// gone with it: they needed every style at init.
var Registry = map[string]*chroma.Style{}

// Fallback style. Reassign to change the default fallback style.
var Fallback = func() *chroma.Style {
	s := mustParseEmbedded("swapoff.xml")
	Registry[strings.ToLower(s.Name)] = s
	return s
}()

var embeddedOnce sync.Once

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
	loadEmbedded()
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
	loadEmbedded()
	if style, ok := Registry[strings.ToLower(name)]; ok {
		return style
	}
	return Fallback
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
	counterpart, ok := Registry[style.Counterpart]
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
