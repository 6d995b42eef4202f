package packet

// BuildEvidence derives the evidence table (PACKET.md, "The evidence table"):
// one row per recipe in the union of the plan's recipes and the registry's,
// in plan order then registry order. A recipe's status is that of its latest
// run that is not superseded; missing when the plan names it and no run exists.
func BuildEvidence(planned []string, runs []*Run) Evidence {
	var ev Evidence
	byRecipe := map[string]*EvidenceRow{}
	add := func(recipe string, isPlanned bool) *EvidenceRow {
		if row, ok := byRecipe[recipe]; ok {
			row.Planned = row.Planned || isPlanned
			return row
		}
		row := &EvidenceRow{Recipe: recipe, Planned: isPlanned}
		byRecipe[recipe] = row
		ev.Rows = append(ev.Rows, row)
		return row
	}
	for _, r := range planned {
		add(r, true)
	}
	for _, run := range runs {
		row := add(run.Recipe, false)
		row.Runs = append(row.Runs, run)
		if run.Status != StatusSuperseded {
			row.Latest = run // runs arrive in seq order, so the last one wins
		}
	}
	for _, row := range ev.Rows {
		switch {
		case row.Latest != nil:
			row.Status = row.Latest.Status
			if row.Status == "" {
				row.Status = "unknown"
			}
		case len(row.Runs) > 0:
			row.Status = StatusSuperseded // every run was superseded and none replaced it
		default:
			row.Status = StatusMissing
		}
		if row.Status == StatusValidated || row.Status == StatusDispositioned {
			ev.Validated++
		}
	}
	ev.Total = len(ev.Rows)
	return ev
}

// Row returns the evidence row of a recipe, or nil.
func (e Evidence) Row(recipe string) *EvidenceRow {
	for _, r := range e.Rows {
		if r.Recipe == recipe {
			return r
		}
	}
	return nil
}

// Complete reports whether every planned recipe is validated or dispositioned
// and no recipe at all, planned or not, is failing.
func (e Evidence) Complete() bool {
	for _, r := range e.Rows {
		if r.Status == StatusFailing {
			return false
		}
		if r.Planned && r.Status != StatusValidated && r.Status != StatusDispositioned {
			return false
		}
	}
	return true
}
