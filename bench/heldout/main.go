// Command heldout measures the attention scan on a held-out corpus
// (testdata/heldout/attention-v1 by default): the figures the runner-abuse
// issue asks for, on cases written by someone who never read the rules.
//
//	go run ./bench/heldout [-dir DIR] [-cases]
//
// It prints, for the malicious cases, how many get a high item within one
// line of a labelled bad line and how many exactly on one; for the benign
// files, how many get a high item on their most suspicious line (exactly,
// and within one line) and how many get a high item anywhere. -cases lists
// every case with the high items it got: read it only once the rules are
// frozen, and never change a rule for what it shows.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
)

func main() {
	dir := flag.String("dir", filepath.Join("testdata", "heldout", "attention-v1"), "the held-out corpus")
	list := flag.Bool("cases", false, "list every case with its high items")
	flag.Parse()
	cases, err := load(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "heldout:", err)
		os.Exit(2)
	}
	r := measure(cases, scan)
	r.write(os.Stdout, *list)
}

// label is one line of cases.jsonl.
type label struct {
	ID                 string `json:"id"`
	Kind               string `json:"kind"`
	File               string `json:"file"`
	BadLines           []int  `json:"bad_lines"`
	SourceLines        []int  `json:"source_lines"`
	MostSuspiciousLine int    `json:"most_suspicious_line"`
	Category           string `json:"category"`
	Incident           string `json:"incident"`
}

// hcase is a labelled case and its diff.
type hcase struct {
	label
	diff []byte
}

// item is what the harness needs of a scan's item.
type item struct {
	Path, Rule, Severity, Title, Why string
	Line, Source                     int // new-side line; 0 for a whole-file item
}

func load(dir string) ([]hcase, error) {
	f, err := os.Open(filepath.Join(dir, "cases.jsonl"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []hcase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var l label
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("cases.jsonl: %v", err)
		}
		data, err := os.ReadFile(filepath.Join(dir, "cases", l.ID+".diff"))
		if err != nil {
			return nil, err
		}
		out = append(out, hcase{l, data})
	}
	return out, sc.Err()
}

// result holds the figures and, per case, the high items it got.
type result struct {
	malicious, near, exact            int
	benign, onLine, nearLine, anyHigh int
	missed, alarmed                   []string
	highs                             map[string][]item
	byID                              map[string]hcase
}

func measure(cases []hcase, scan func([]byte) []item) result {
	r := result{highs: map[string][]item{}, byID: map[string]hcase{}}
	for _, c := range cases {
		r.byID[c.ID] = c
		var highs []item
		for _, it := range scan(c.diff) {
			if it.Severity == "high" {
				highs = append(highs, it)
			}
		}
		r.highs[c.ID] = highs
		near := func(want int, slack int) bool {
			for _, h := range highs {
				if h.Path == c.File && h.Line > 0 && h.Line >= want-slack && h.Line <= want+slack {
					return true
				}
			}
			return false
		}
		switch c.Kind {
		case "malicious":
			r.malicious++
			n, e := false, false
			for _, b := range c.BadLines {
				n = n || near(b, 1)
				e = e || near(b, 0)
			}
			if n {
				r.near++
			} else {
				r.missed = append(r.missed, c.ID)
			}
			if e {
				r.exact++
			}
		case "benign":
			r.benign++
			if near(c.MostSuspiciousLine, 0) {
				r.onLine++
			}
			if near(c.MostSuspiciousLine, 1) {
				r.nearLine++
			}
			if len(highs) > 0 {
				r.anyHigh++
				r.alarmed = append(r.alarmed, c.ID)
			}
		}
	}
	return r
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func (r result) write(w io.Writer, list bool) {
	fmt.Fprintf(w, "malicious %d: high within one line of a bad line %d (%.1f%%), exactly on one %d (%.1f%%)\n",
		r.malicious, r.near, pct(r.near, r.malicious), r.exact, pct(r.exact, r.malicious))
	fmt.Fprintf(w, "benign %d: high on the most suspicious line %d (within one line %d), high anywhere %d\n",
		r.benign, r.onLine, r.nearLine, r.anyHigh)
	if !list {
		return
	}
	ids := make([]string, 0, len(r.byID))
	for id := range r.byID {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	fmt.Fprintf(w, "missed: %v\nbenign with a high item: %v\n", r.missed, r.alarmed)
	for _, id := range ids {
		c := r.byID[id]
		fmt.Fprintf(w, "%s (%s, %s) %s bad %v source %v suspicious %d\n", id, c.Kind, c.Category, c.File, c.BadLines, c.SourceLines, c.MostSuspiciousLine)
		for _, h := range r.highs[id] {
			src := ""
			if h.Source > 0 {
				src = fmt.Sprintf(" (data from line %d)", h.Source)
			}
			fmt.Fprintf(w, "    high %s:%d %s: %s%s — %s\n", h.Path, h.Line, h.Rule, h.Title, src, h.Why)
		}
	}
}
