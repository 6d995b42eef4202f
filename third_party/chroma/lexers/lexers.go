package lexers

import (
	"embed"
	"io/fs"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

//go:embed embedded
var embedded embed.FS

// GlobalLexerRegistry is the global LexerRegistry of Lexers.
//
// vetter patch: the embedded lexers are parsed and registered on the first
// call of one of this package's functions, not at init, where parsing ~280
// XML definitions cost every program that imports chroma ~7 ms of start-up
// whether it highlights or not. Code that reads GlobalLexerRegistry directly,
// or tokenises a lexer variable (lexers.Go) before any function here ran,
// sees only the lexers written in Go.
var GlobalLexerRegistry = chroma.NewLexerRegistry()

var (
	embeddedOnce sync.Once
	// initialised is set by init, after every package-level lexer is built.
	initialised bool
	// early are the lexers the package's initialisers registered, registered
	// again after the embedded ones so that they replace them as before.
	early []chroma.Lexer
	// analysers are the package's init functions that set analysers on
	// embedded lexers, run once those are registered.
	analysers []func(*chroma.LexerRegistry)
)

// afterEmbedded runs f on the registry once the embedded lexers are in it.
func afterEmbedded(f func(*chroma.LexerRegistry)) { analysers = append(analysers, f) }

func init() { initialised = true }

// registry registers the embedded lexers once, then the early ones again,
// in the order the registry was built in before.
func registry() *chroma.LexerRegistry {
	embeddedOnce.Do(func() {
		paths, err := fs.Glob(embedded, "embedded/*.xml")
		if err != nil {
			panic(err)
		}
		for _, path := range paths {
			GlobalLexerRegistry.Register(chroma.MustNewXMLLexer(embedded, path))
		}
		for _, l := range early {
			GlobalLexerRegistry.Register(l)
		}
		for _, f := range analysers {
			f(GlobalLexerRegistry)
		}
		early, analysers = nil, nil
	})
	return GlobalLexerRegistry
}

// Names of all lexers, optionally including aliases.
func Names(withAliases bool) []string {
	return registry().Names(withAliases)
}

// Aliases of all the lexers, and skip those lexers who do not have any aliases,
// or show their name instead
func Aliases(skipWithoutAliases bool) []string {
	return registry().Aliases(skipWithoutAliases)
}

// Get a Lexer by name, alias or file extension.
//
// Note that this if there isn't an exact match on name or alias, this will
// call Match(), so it is not efficient.
func Get(name string) chroma.Lexer {
	return registry().Get(name)
}

// MatchMimeType attempts to find a lexer for the given MIME type.
func MatchMimeType(mimeType string) chroma.Lexer {
	return registry().MatchMimeType(mimeType)
}

// Match returns the first lexer matching filename.
//
// Note that this iterates over all file patterns in all lexers, so it's not
// particularly efficient.
func Match(filename string) chroma.Lexer {
	return registry().Match(filename)
}

// Register a Lexer with the global registry.
func Register(lexer chroma.Lexer) chroma.Lexer {
	if !initialised {
		// A package initialiser: keep the order, embedded lexers first.
		lexer.SetRegistry(GlobalLexerRegistry)
		early = append(early, lexer)
		return lexer
	}
	return registry().Register(lexer)
}

// Analyse text content and return the "best" lexer..
func Analyse(text string) chroma.Lexer {
	return registry().Analyse(text)
}

// PlaintextRules is used for the fallback lexer as well as the explicit
// plaintext lexer.
func PlaintextRules() chroma.Rules {
	return chroma.Rules{
		"root": []chroma.Rule{
			{`.+`, chroma.Text, nil},
			{`\n`, chroma.Text, nil},
		},
	}
}

// Fallback lexer if no other is found.
var Fallback chroma.Lexer = chroma.MustNewLexer(&chroma.Config{
	Name:      "fallback",
	Filenames: []string{"*"},
	Priority:  -1,
}, PlaintextRules)
