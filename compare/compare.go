package compare

import (
	"github.com/vetter-dev/vetter/internal/commitid"
	"github.com/vetter-dev/vetter/internal/text"
	"github.com/vetter-dev/vetter/packet"
	"github.com/vetter-dev/vetter/review"
)

// Comparison is what changed between two rounds of one packet: the packet a
// reviewer saw last time and the one the pipeline sent back. It is built
// once by Compare and printed as text, markdown or JSON.
type Comparison struct {
	Old  RoundState `json:"old"`
	New  RoundState `json:"new"`
	Head HeadChange `json:"head"`
	// Change is the interdiff of the two change.diffs.
	Change Interdiff `json:"change"`
	// Documents lists every document added, removed or changed;
	// DocumentsUnchanged counts the rest.
	Documents          []DocumentDelta `json:"documents"`
	DocumentsUnchanged int             `json:"documents_unchanged"`
	Registry           RegistryDelta   `json:"registry"`
	Findings           FindingsDelta   `json:"findings"`
}

// RoundState is one round at a glance: the before or the after.
type RoundState struct {
	Path           string   `json:"path"`
	ID             string   `json:"id"`
	Title          string   `json:"title"`
	HeadSHA        string   `json:"head_sha"`
	Verdict        string   `json:"verdict"`
	VerdictSummary string   `json:"verdict_summary,omitempty"`
	Assessment     string   `json:"assessment"`
	Validated      int      `json:"validated"`
	Total          int      `json:"total"`
	Findings       int      `json:"findings"`
	GateReady      bool     `json:"gate_ready"`
	GateFailing    []string `json:"gate_failing,omitempty"`
}

// HeadChange says whether the head moved, and what became of the gate
// decision the old round recorded.
type HeadChange struct {
	Old   string `json:"old"`
	New   string `json:"new"`
	Moved bool   `json:"moved"`
	// Decision is the old round's gate decision, if one was recorded;
	// DecisionStands is whether it was made for the new head.
	Decision       *packet.GateDecision `json:"decision,omitempty"`
	DecisionStands bool                 `json:"decision_stands"`
	// Note says it in a sentence for people.
	Note string `json:"note,omitempty"`
}

// Document delta statuses.
const (
	DocAdded   = "added"
	DocRemoved = "removed"
	DocChanged = "changed"
)

// DocumentDelta is one document added, removed or changed between rounds.
type DocumentDelta struct {
	Path     string `json:"path"`
	Status   string `json:"status"` // added, removed, changed
	OldLines int    `json:"old_lines"`
	NewLines int    `json:"new_lines"`
	// Changes are the word-level differences of a changed document, each at
	// the line of the new document where it lands.
	Changes []WordChange `json:"changes,omitempty"`
	// WhitespaceOnly says the text differs in spacing or wrapping alone.
	WhitespaceOnly bool `json:"whitespace_only,omitempty"`
}

// RegistryDelta is what changed in validation/registry.jsonl and the
// evidence table derived from it.
type RegistryDelta struct {
	Added   []RunDelta    `json:"added"`
	Removed []RunDelta    `json:"removed"`
	Changed []RunDelta    `json:"changed"`
	Recipes []RecipeDelta `json:"recipes"`
}

// RunDelta is one registry run, matched across rounds by seq, recipe and log.
type RunDelta struct {
	Seq      int    `json:"seq"`
	Recipe   string `json:"recipe"`
	Log      string `json:"log,omitempty"`
	Status   string `json:"status"` // in the new round; the old one's for a removed run
	ExitCode *int   `json:"exit_code,omitempty"`
	// OldStatus and OldExitCode are set for a changed run.
	OldStatus   string `json:"old_status,omitempty"`
	OldExitCode *int   `json:"old_exit_code,omitempty"`
	// Line is the run's line in the registry of the round it is shown from.
	Line int `json:"line"`
}

// Recipe changes between rounds.
const (
	RecipeNewlyValidated = "newly-validated" // now validated or dispositioned, was not
	RecipeNewlyFailing   = "newly-failing"   // now failing, was not
	RecipeAdded          = "added"           // a row only the new round has
	RecipeRemoved        = "removed"         // a row only the old round has
	RecipeStatusChanged  = "status-changed"  // any other change of status
	RecipeRerun          = "rerun"           // same status, from a different latest run
)

// RecipeDelta is one row of the evidence table that changed.
type RecipeDelta struct {
	Recipe    string `json:"recipe"`
	Change    string `json:"change"`
	OldStatus string `json:"old_status,omitempty"`
	NewStatus string `json:"new_status,omitempty"`
	// OldSeq and NewSeq are the seq of the latest run each round counts.
	OldSeq int `json:"old_seq,omitempty"`
	NewSeq int `json:"new_seq,omitempty"`
}

// FindingsDelta sorts the findings of both rounds by id.
type FindingsDelta struct {
	New       []FindingDelta `json:"new"`
	Resolved  []FindingDelta `json:"resolved"`
	Changed   []FindingDelta `json:"changed"`
	Unchanged []FindingDelta `json:"unchanged"`
}

// FindingDelta is one finding and the triage it had in the old round.
type FindingDelta struct {
	ID       string `json:"id"`
	Number   int    `json:"number"`
	Severity string `json:"severity"`
	Location string `json:"location"`
	Claim    string `json:"claim"`
	// Line is its row in review.md: the new round's, or the old one's when
	// the finding is resolved.
	Line int `json:"line"`
	// OldSeverity and OldLocation are set on a changed finding when they differ.
	OldSeverity string `json:"old_severity,omitempty"`
	OldLocation string `json:"old_location,omitempty"`
	// Triage is the decision the finding had in the old round (open when
	// none); empty for a new finding. TriageStale says that decision was
	// already stale in the old round.
	Triage      string `json:"triage,omitempty"`
	TriageStale bool   `json:"triage_stale,omitempty"`
	TriageNote  string `json:"triage_note,omitempty"`
	// Changes are the word-level differences of a changed finding, by cell.
	Changes []WordChange `json:"changes,omitempty"`
}

// Compare computes what changed from old to new. Neither packet is
// modified; both may be partial (missing files simply compare as absent).
func Compare(old, new *packet.Packet) Comparison {
	c := Comparison{
		Old:    roundState(old),
		New:    roundState(new),
		Head:   compareHead(old, new),
		Change: CompareDiffs(old.Diff, new.Diff),
	}
	c.Documents, c.DocumentsUnchanged = compareDocs(old, new)
	c.Registry = compareRegistry(old, new)
	c.Findings = compareFindings(old, new)
	return c
}

func roundState(p *packet.Packet) RoundState {
	g := review.Gate(p)
	rs := RoundState{
		Path: p.Path, ID: p.Plan.ID, Title: p.Plan.Title, HeadSHA: p.Change.HeadSHA,
		Verdict: p.Verdict.Value, VerdictSummary: p.Verdict.Summary, Assessment: p.Assessment.Value,
		Validated: p.Evidence.Validated, Total: p.Evidence.Total, Findings: len(p.Findings),
		GateReady: g.Ready,
	}
	for _, ch := range g.Checks {
		if !ch.OK && !ch.Info {
			rs.GateFailing = append(rs.GateFailing, ch.Name)
		}
	}
	return rs
}

func compareHead(old, new *packet.Packet) HeadChange {
	h := HeadChange{Old: old.Change.HeadSHA, New: new.Change.HeadSHA}
	// Two rounds that both name no head did not move: there is nothing to
	// compare, and the note below says so.
	h.Moved = !commitid.Same(h.Old, h.New) && !(commitid.Unknown(h.Old) && commitid.Unknown(h.New))
	switch {
	case h.Old == "" && h.New == "":
		h.Note = "neither round names a head SHA"
	case h.Old == "":
		h.Note = "the old round named no head SHA; the new head is " + commitid.Long(h.New)
	case h.New == "":
		h.Note = "the new round names no head SHA; the old head was " + commitid.Long(h.Old)
	case h.Moved:
		h.Note = "the head moved from " + commitid.Long(h.Old) + " to " + commitid.Long(h.New) +
			": any decision made for " + commitid.Long(h.Old) + " no longer stands"
	default:
		h.Note = "the head did not move"
	}
	if old.Triage == nil || old.Triage.Gate == nil {
		return h
	}
	d := *old.Triage.Gate
	h.Decision = &d
	h.DecisionStands = h.New != "" && commitid.Same(d.SHA, h.New)
	switch {
	case h.DecisionStands:
		h.Note += "; the " + d.Decision + " decision for " + commitid.Long(d.SHA) + " stands"
	case commitid.Same(d.SHA, h.Old) || commitid.Unknown(d.SHA) && commitid.Unknown(h.Old):
		h.Note += "; the " + d.Decision + " decision recorded for " + commitid.Long(d.SHA) + " no longer stands: decide again for the new head"
	default:
		h.Note += "; the " + d.Decision + " decision on record was for " + commitid.Long(text.OrDash(d.SHA)) + ", neither round's head"
	}
	return h
}

func compareDocs(old, new *packet.Packet) ([]DocumentDelta, int) {
	out := []DocumentDelta{}
	unchanged := 0
	oldDocs, newDocs := map[string]*packet.Document{}, map[string]bool{}
	for _, d := range old.Docs {
		oldDocs[d.Path] = d
	}
	for _, nd := range new.Docs {
		newDocs[nd.Path] = true
		od := oldDocs[nd.Path]
		switch {
		case od == nil:
			out = append(out, DocumentDelta{Path: nd.Path, Status: DocAdded, NewLines: len(nd.Lines)})
		case od.Text == nd.Text:
			unchanged++
		default:
			dd := DocumentDelta{Path: nd.Path, Status: DocChanged, OldLines: len(od.Lines), NewLines: len(nd.Lines),
				Changes: WordDiff(od.Text, nd.Text)}
			dd.WhitespaceOnly = len(dd.Changes) == 0
			out = append(out, dd)
		}
	}
	for _, od := range old.Docs {
		if !newDocs[od.Path] {
			out = append(out, DocumentDelta{Path: od.Path, Status: DocRemoved, OldLines: len(od.Lines)})
		}
	}
	return out, unchanged
}

type runKey struct {
	seq         int
	recipe, log string
}

func keyOf(r *packet.Run) runKey { return runKey{r.Seq, r.Recipe, r.Log} }

func runDelta(r *packet.Run) RunDelta {
	return RunDelta{Seq: r.Seq, Recipe: r.Recipe, Log: r.Log, Status: r.Status, ExitCode: r.ExitCode, Line: r.Line}
}

func sameExit(a, b *int) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func compareRegistry(old, new *packet.Packet) RegistryDelta {
	rd := RegistryDelta{Added: []RunDelta{}, Removed: []RunDelta{}, Changed: []RunDelta{}, Recipes: []RecipeDelta{}}
	byKey := map[runKey][]*packet.Run{}
	for _, r := range old.Registry.Runs {
		byKey[keyOf(r)] = append(byKey[keyOf(r)], r)
	}
	matched := map[*packet.Run]bool{}
	for _, nr := range new.Registry.Runs {
		k := keyOf(nr)
		var or *packet.Run
		if rs := byKey[k]; len(rs) > 0 {
			or, byKey[k] = rs[0], rs[1:]
		}
		if or == nil {
			rd.Added = append(rd.Added, runDelta(nr))
			continue
		}
		matched[or] = true
		if or.Status != nr.Status || !sameExit(or.ExitCode, nr.ExitCode) {
			d := runDelta(nr)
			d.OldStatus, d.OldExitCode = or.Status, or.ExitCode
			rd.Changed = append(rd.Changed, d)
		}
	}
	for _, or := range old.Registry.Runs {
		if !matched[or] {
			rd.Removed = append(rd.Removed, runDelta(or))
		}
	}

	passing := func(s string) bool { return s == packet.StatusValidated || s == packet.StatusDispositioned }
	latestSeq := func(row *packet.EvidenceRow) int {
		if row.Latest == nil {
			return 0
		}
		return row.Latest.Seq
	}
	oldRows, newRows := map[string]*packet.EvidenceRow{}, map[string]bool{}
	for _, row := range old.Evidence.Rows {
		oldRows[row.Recipe] = row
	}
	for _, nrow := range new.Evidence.Rows {
		newRows[nrow.Recipe] = true
		orow := oldRows[nrow.Recipe]
		d := RecipeDelta{Recipe: nrow.Recipe, NewStatus: nrow.Status, NewSeq: latestSeq(nrow)}
		if orow == nil {
			d.Change = RecipeAdded
			rd.Recipes = append(rd.Recipes, d)
			continue
		}
		d.OldStatus, d.OldSeq = orow.Status, latestSeq(orow)
		switch {
		case orow.Status == nrow.Status && d.OldSeq == d.NewSeq:
			continue
		case orow.Status == nrow.Status:
			d.Change = RecipeRerun
		case passing(nrow.Status) && !passing(orow.Status):
			d.Change = RecipeNewlyValidated
		case nrow.Status == packet.StatusFailing:
			d.Change = RecipeNewlyFailing
		default:
			d.Change = RecipeStatusChanged
		}
		rd.Recipes = append(rd.Recipes, d)
	}
	for _, orow := range old.Evidence.Rows {
		if !newRows[orow.Recipe] {
			rd.Recipes = append(rd.Recipes, RecipeDelta{Recipe: orow.Recipe, Change: RecipeRemoved,
				OldStatus: orow.Status, OldSeq: latestSeq(orow)})
		}
	}
	return rd
}

func findingDelta(f *packet.Finding) FindingDelta {
	return FindingDelta{ID: f.ID, Number: f.Number, Severity: f.Severity, Location: f.Location, Claim: f.Claim, Line: f.Line}
}

// withOldTriage records the decision a finding had in the old round.
func withOldTriage(d FindingDelta, old *packet.Packet, of *packet.Finding) FindingDelta {
	state, stale, dec := review.TriageOf(old, of)
	d.Triage, d.TriageStale = state, stale
	if dec != nil && state != packet.TriageOpen {
		d.TriageNote = dec.Note
	}
	return d
}

func compareFindings(old, new *packet.Packet) FindingsDelta {
	fd := FindingsDelta{New: []FindingDelta{}, Resolved: []FindingDelta{}, Changed: []FindingDelta{}, Unchanged: []FindingDelta{}}
	oldByID, inNew := map[string]*packet.Finding{}, map[string]bool{}
	for _, f := range old.Findings {
		if _, dup := oldByID[f.ID]; !dup {
			oldByID[f.ID] = f
		}
	}
	for _, nf := range new.Findings {
		inNew[nf.ID] = true
		of := oldByID[nf.ID]
		switch {
		case of == nil:
			fd.New = append(fd.New, findingDelta(nf))
		case packet.Fingerprint(of) == packet.Fingerprint(nf):
			fd.Unchanged = append(fd.Unchanged, withOldTriage(findingDelta(nf), old, of))
		default:
			d := withOldTriage(findingDelta(nf), old, of)
			if of.Severity != nf.Severity {
				d.OldSeverity = of.Severity
			}
			if of.Location != nf.Location {
				d.OldLocation = of.Location
			}
			for _, cell := range []struct{ name, a, b string }{
				{"location", of.Location, nf.Location}, {"severity", of.Severity, nf.Severity},
				{"claim", of.Claim, nf.Claim}, {"evidence", of.Evidence, nf.Evidence},
			} {
				for _, wc := range WordDiff(cell.a, cell.b) {
					wc.Field, wc.Line, wc.EndLine, wc.OldLine = cell.name, 0, 0, 0
					d.Changes = append(d.Changes, wc)
				}
			}
			fd.Changed = append(fd.Changed, d)
		}
	}
	for _, of := range old.Findings {
		if !inNew[of.ID] {
			fd.Resolved = append(fd.Resolved, withOldTriage(findingDelta(of), old, of))
		}
	}
	return fd
}
