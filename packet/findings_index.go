package packet

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"strconv"
	"strings"
)

// Fingerprint identifies a finding's content: location, severity, claim and
// evidence with runs of white space folded, so re-wrapping the table does not
// make a decision stale but changing what it says does.
func Fingerprint(f *Finding) string {
	// The parts folded into one buffer, each ended by a zero byte, and
	// hashed at once: the same bytes as hashing them one by one, without a
	// slice of words per part (the gate and the store ask this of every
	// finding of a big packet before its first screen).
	buf := make([]byte, 0, len(f.Location)+len(f.Severity)+len(f.Claim)+len(f.Evidence)+4)
	for _, part := range []string{f.Location, f.Severity, f.Claim, f.Evidence} {
		buf = appendFolded(buf, part)
		buf = append(buf, 0)
	}
	sum := sha256.Sum256(buf)
	return hex.EncodeToString(sum[:8])
}

// FingerprintOf is Fingerprint(f), read from what was made when the packet
// was read for its own findings: the gate asks it of every finding, on
// every screen that shows the gate.
func (p *Packet) FingerprintOf(f *Finding) string {
	if c, ok := p.fingerprintOf[f]; ok && c.made(f) {
		return c.fp
	}
	return Fingerprint(f)
}

// fingerprinted is a finding's fingerprint with the text it was made from.
type fingerprinted struct {
	location, severity, claim, evidence, fp string
}

func fingerprintedOf(f *Finding) fingerprinted {
	return fingerprinted{f.Location, f.Severity, f.Claim, f.Evidence, Fingerprint(f)}
}

// made reports whether c was made from f's text as it is now (comparing
// strings that share their bytes costs no more than their lengths).
func (c fingerprinted) made(f *Finding) bool {
	return c.location == f.Location && c.severity == f.Severity && c.claim == f.Claim && c.evidence == f.Evidence
}

// upstream is the state of a finding the reviewer has not decided on: a
// thread resolved on the origin is resolved there; anything else is open.
func Upstream(f *Finding) string {
	if f.Resolved {
		return TriageResolved
	}
	return TriageOpen
}

// ResolvedLine says who resolved a thread on the origin: "resolved on
// GitHub by sam", "" when it is not resolved.
func (f *Finding) ResolvedLine() string {
	if !f.Resolved {
		return ""
	}
	if f.ResolvedBy == "" {
		return "resolved on GitHub"
	}
	return "resolved on GitHub by " + f.ResolvedBy
}

// ThreadState is a thread's state on its origin in a few words: "resolved
// on GitHub by sam, outdated"; "" for a finding that is no thread or has
// neither state.
func (f *Finding) ThreadState() string {
	var parts []string
	if l := f.ResolvedLine(); l != "" {
		parts = append(parts, l)
	}
	if f.Outdated {
		parts = append(parts, "outdated")
	}
	return strings.Join(parts, ", ")
}

// byFingerprint is the decision made on a finding with this content under
// any number, the latest when there are several. It only reads the index
// (reindex builds it where a state is put in place), so screens and
// background commands may ask at once.
func (st *TriageState) ByFingerprint(fp string) *Decision {
	if st.fpIndex != nil {
		return st.fpIndex[fp]
	}
	var best *Decision
	for _, d := range st.Findings {
		if d != nil && d.Fingerprint == fp && (best == nil || d.Time.After(best.Time)) {
			best = d
		}
	}
	return best
}

// reindex builds the fingerprint index of the decisions; it is called where
// a state is made (read, cloned, saved) and before anyone else sees it.
func (st *TriageState) Reindex() {
	st.fpIndex = make(map[string]*Decision, len(st.Findings))
	for _, d := range st.Findings {
		if d == nil {
			continue
		}
		if old := st.fpIndex[d.Fingerprint]; old == nil || d.Time.After(old.Time) {
			st.fpIndex[d.Fingerprint] = d
		}
	}
}

// fingerprintOwner reports whether another of the packet's findings than
// id has this content.
func (p *Packet) FingerprintOwner(fp, id string) bool {
	if p.fingerprints != nil {
		owner, ok := p.fingerprints[fp]
		return ok && owner != id
	}
	for _, f := range p.Findings {
		if f.ID != id && Fingerprint(f) == fp {
			return true
		}
	}
	return false
}

// indexFingerprints records which finding has which content once they are
// read.
func (p *Packet) indexFingerprints() {
	p.fingerprints = make(map[string]string, len(p.Findings))
	p.fingerprintOf = make(map[*Finding]fingerprinted, len(p.Findings))
	p.byID = make(map[string]*Finding, len(p.Findings))
	p.byNumber = make(map[int]*Finding, len(p.Findings))
	made := bothCores(p.Findings, fingerprintedOf)
	for i, f := range p.Findings {
		c := made[i]
		p.fingerprints[c.fp] = f.ID
		p.fingerprintOf[f] = c
		p.byID[f.ID] = f
		if _, ok := p.byNumber[f.Number]; !ok {
			p.byNumber[f.Number] = f
		}
	}
}

// shippedDecisions reports a triage.json or decisions.jsonl found in the
// packet. The packet is written by the automation under review, so what it
// says a reviewer decided is ignored: the reviewer's decisions live in the
// reviewer's state directory only (OpenStore).
func (p *Packet) shippedDecisions() {
	p.indexFingerprints()
	p.Triage = &TriageState{Version: 1, Findings: map[string]*Decision{}}
	// Listed, not opened: a link that leads outside the packet does not
	// resolve, and is the packet speaking for the reviewer all the same.
	top := map[string]fs.FileMode{}
	if entries, err := fs.ReadDir(p.FS, "."); err == nil {
		for _, e := range entries {
			top[e.Name()] = e.Type()
		}
	}
	for _, n := range []string{TriageFile, DecisionsFile, RoundsFile, ReviewedFile} {
		mode, listed := top[n]
		_, err := fs.Stat(p.FS, n)
		switch {
		case listed && mode&fs.ModeSymlink != 0:
			p.problem(CodePacketShipsDecisions, n, 0, "the packet carries its own triage as a link ("+n+"); vetter neither follows nor reads it")
		case listed || err == nil:
			p.problem(CodePacketShipsDecisions, n, 0, "the packet carries its own triage; vetter ignores it ("+n+")")
		}
	}
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
	if p.byNumber != nil {
		return p.byNumber[n]
	}
	for _, f := range p.Findings {
		if f.Number == n {
			return f
		}
	}
	return nil
}

// compareFindingIDs orders "review.md#2" before "review.md#10".
func CompareFindingIDs(a, b string) int {
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
