package report

import (
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/vetter-dev/vetter/packet"
)

// SARIF's partialFingerprints.primaryLocationLineHash is how GitHub code
// scanning follows an alert from one commit to the next: a hash of the text
// starting at the alert's line, not its line number. GitHub's upload action
// (github/codeql-action, upload-sarif) computes it for results that lack it
// when it has the repository checked out; vetter computes it the same way
// where it knows the file's whole text, so an upload through the API, with
// no action in between, tracks alerts too.
//
// The hash of line n is a rolling polynomial hash (base 37, wrapping at 64
// bits) of the first lineHashWindow characters from the start of line n,
// reading on into the following lines: spaces and tabs are skipped, every
// line ending (\r\n, \r, \n) counts as one \n, the end of the text is one
// character 0xFFFF, and zeros pad the last lines' windows. Characters are
// UTF-16 code units, as JavaScript counts them. Equal hashes are told apart
// by a count: "<hex>:1", "<hex>:2", ... in line order.

const (
	lineHashWindow = 100
	lineHashBase   = 37
	lineHashEOF    = 0xFFFF
)

// LineHashes returns the primaryLocationLineHash of every line of text;
// line n's is at index n-1. A text ending in a line break has one more,
// empty, line after it, as the upload action counts.
func LineHashes(text string) []string {
	var (
		window    [lineHashWindow]uint64
		startLine [lineHashWindow]int // the line starting at that window slot, 0 for none
		hash      uint64
		slot      int
		line      int
		lineStart = true
		prevCR    bool
		seen      = map[uint64]int{}
		out       []string
	)
	// dropOut is base^window: what the character leaving the window
	// weighs by the time it leaves.
	dropOut := uint64(1)
	for range lineHashWindow {
		dropOut *= lineHashBase
	}
	emit := func() {
		seen[hash]++
		out = append(out, strconv.FormatUint(hash, 16)+":"+strconv.Itoa(seen[hash]))
		startLine[slot] = 0
	}
	push := func(c uint64) {
		leaving := window[slot]
		window[slot] = c
		hash = lineHashBase*hash + c - dropOut*leaving
		slot = (slot + 1) % lineHashWindow
	}
	take := func(c uint16) {
		if c == ' ' || c == '\t' || (prevCR && c == '\n') {
			prevCR = false
			return
		}
		prevCR = c == '\r'
		if prevCR {
			c = '\n'
		}
		// The slot about to be overwritten started a line a window ago:
		// the hash now covers that line's window.
		if startLine[slot] != 0 {
			emit()
		}
		if lineStart {
			lineStart = false
			line++
			startLine[slot] = line
		}
		if c == '\n' {
			lineStart = true
		}
		push(uint64(c))
	}
	for _, c := range utf16.Encode([]rune(text)) {
		take(c)
	}
	take(lineHashEOF)
	for range lineHashWindow {
		if startLine[slot] != 0 {
			emit()
		}
		push(0)
	}
	return out
}

// addedFileText is the whole text of a file the diff adds (status A, or a
// new path from /dev/null) as it is at the head: its added lines with their
// endings. ok is false for any other file: the diff has only hunks of it,
// and a hash of part of a file is not the hash code scanning computes.
func addedFileText(f *packet.DiffFile) (string, bool) {
	if f.Status != packet.StatusAdded && !(f.OldPath == "" && f.NewPath != "") || f.Binary {
		return "", false
	}
	var b strings.Builder
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			if l.Kind != packet.LineAdded {
				return "", false
			}
			b.WriteString(l.Text)
			if l.NoNewline {
				continue
			}
			if l.CR {
				b.WriteByte('\r')
			}
			b.WriteByte('\n')
		}
	}
	return b.String(), true
}
