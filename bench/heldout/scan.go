package main

import (
	"github.com/vetter-dev/vetter/attention"
	"github.com/vetter-dev/vetter/packet"
)

// scan runs the scanner under measurement on one case's diff.
func scan(data []byte) []item {
	d, _ := packet.ParseDiff(data)
	var out []item
	for _, a := range attention.Scan(d) {
		out = append(out, item{Path: a.Path, Rule: a.Rule, Severity: a.Severity, Title: a.Title, Why: a.Why, Line: a.NewLine, Source: a.Source})
	}
	return out
}
