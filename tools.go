//go:build tools

// Package main pins the modules vetter is about to use so that go mod tidy
// keeps them while the code that imports them is still being written.
package main

import (
	_ "charm.land/bubbles/v2/key"
	_ "charm.land/bubbletea/v2"
	_ "charm.land/glamour/v2"
	_ "charm.land/lipgloss/v2"
	_ "github.com/alecthomas/chroma/v2"
	_ "github.com/bluekeyes/go-gitdiff/gitdiff"
	_ "github.com/charmbracelet/x/ansi"
	_ "github.com/charmbracelet/x/exp/golden"
	_ "github.com/charmbracelet/x/exp/teatest/v2"
	_ "github.com/google/renameio/v2"
	_ "github.com/sahilm/fuzzy"
	_ "github.com/sergi/go-diff/diffmatchpatch"
	_ "github.com/spf13/cobra"
)
