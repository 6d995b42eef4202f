package packet

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Fingerprint identifies a finding's content: location, severity, claim and
// evidence with runs of white space folded, so re-wrapping the table does not
// make a decision stale but changing what it says does.
func Fingerprint(f *Finding) string {
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	h := sha256.New()
	for _, part := range []string{f.Location, f.Severity, f.Claim, f.Evidence} {
		h.Write([]byte(norm(part)))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// TriageOf returns a finding's triage state and whether the decision is stale
// (made on a finding whose text has changed since). A stale decision counts as
// untriaged until it is confirmed again.
func (p *Packet) TriageOf(f *Finding) (state string, stale bool, d *Decision) {
	if p.Triage == nil || p.Triage.Findings == nil {
		return TriageOpen, false, nil
	}
	d = p.Triage.Findings[f.ID]
	if d == nil || d.State == "" {
		return TriageOpen, false, d
	}
	return d.State, d.Fingerprint != Fingerprint(f), d
}

// Triaged reports whether a finding has a current (not stale, not open) decision.
func (p *Packet) Triaged(f *Finding) bool {
	state, stale, _ := p.TriageOf(f)
	return state != TriageOpen && !stale
}

// readTriage reads triage.json from dir when given, else from the packet.
func (p *Packet) readTriage(dir string) {
	var data []byte
	var err error
	where := TriageFile
	if dir != "" {
		where = filepath.Join(dir, TriageFile)
		data, err = os.ReadFile(where)
	} else {
		data, _, err = ReadCapped(p.FS, TriageFile, DocLimit)
	}
	p.Triage = &TriageState{Version: 1, Findings: map[string]*Decision{}, Where: where}
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err == nil {
		var st TriageState
		if err = json.Unmarshal(data, &st); err == nil {
			if st.Findings == nil {
				st.Findings = map[string]*Decision{}
			}
			st.Where = where
			p.Triage = &st
			return
		}
	}
	p.problem(CodeTriageUnreadable, TriageFile, 0, fmt.Sprintf("reading %s: %v; decisions start empty", where, err))
}

// LookupFinding finds a finding by a reference a person types: "review.md#2",
// "#2" or "2". It returns nil when there is no such finding.
func (p *Packet) LookupFinding(ref string) *Finding {
	ref = strings.TrimSpace(ref)
	if f := p.Finding(ref); f != nil {
		return f
	}
	num := strings.TrimPrefix(strings.TrimPrefix(ref, ReviewFile), "#")
	n, err := strconv.Atoi(num)
	if err != nil || num == "" || num[0] == '+' || num[0] == '-' {
		return nil
	}
	for _, f := range p.Findings {
		if f.Number == n {
			return f
		}
	}
	return nil
}

// compareFindingIDs orders "review.md#2" before "review.md#10".
func compareFindingIDs(a, b string) int {
	na, oka := idNumber(a)
	nb, okb := idNumber(b)
	if oka && okb && na != nb {
		return na - nb
	}
	return strings.Compare(a, b)
}

func idNumber(id string) (int, bool) {
	_, num, ok := strings.Cut(id, "#")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(num)
	return n, err == nil
}
