// Package commitid holds the small facts about commit ids that every part of
// vetter asks: whether a string is one, whether two name the same commit, and
// how one is shortened for reading. A tool whose question is "did the head
// move?" must answer these one way everywhere.
package commitid

import (
	"regexp"
	"strings"
)

// MinPrefix is the shortest abbreviation compared by prefix: shorter ones
// are too likely to name more than one commit, so they must match whole.
const MinPrefix = 7

var hex = regexp.MustCompile(`^[0-9a-fA-F]{7,64}$`)

// Valid reports whether s is a commit id: 7 to 64 hex digits, nothing else.
func Valid(s string) bool { return hex.MatchString(s) }

// Same reports whether a and b name the same commit: after trimming spaces
// and ignoring case they are equal, or one is a prefix of the other of at
// least MinPrefix characters. An empty (unknown) SHA is the same as nothing,
// not even another unknown one: "could not tell" never counts as "did not
// move".
func Same(a, b string) bool {
	a, b = strings.ToLower(strings.TrimSpace(a)), strings.ToLower(strings.TrimSpace(b))
	if a == "" || b == "" {
		return false
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	return a == b || (len(a) >= MinPrefix && strings.HasPrefix(b, a))
}

// Unknown reports whether s names no commit at all (empty or blank).
func Unknown(s string) bool { return strings.TrimSpace(s) == "" }

// Short is a SHA as people read it in prose and on screen: 7 characters.
func Short(s string) string { return Abbrev(s, 7) }

// Long is a SHA shortened for a table or an export that a person may paste
// back into git: 12 characters, unlikely to be ambiguous in a large
// repository.
func Long(s string) string { return Abbrev(s, 12) }

// Abbrev keeps the first n bytes of s (a SHA is ASCII); s shorter than that
// is returned as it is.
func Abbrev(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
