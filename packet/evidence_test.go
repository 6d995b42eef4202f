package packet

import (
	"reflect"
	"testing"
)

func TestBuildEvidence(t *testing.T) {
	one := 1
	runs := []*Run{
		{Seq: 1, Recipe: "00-setup", Status: StatusValidated},
		{Seq: 2, Recipe: "01-lint", Status: StatusFailing, ExitCode: &one},
		{Seq: 3, Recipe: "01-lint", Status: StatusValidated},
		{Seq: 4, Recipe: "02-unit", Status: StatusValidated},
		{Seq: 5, Recipe: "02-unit", Status: StatusSuperseded}, // superseded later never wins
		{Seq: 6, Recipe: "03-e2e", Status: StatusDispositioned},
		{Seq: 7, Recipe: "05-bench", Status: StatusSuperseded},
		{Seq: 8, Recipe: "06-docs", Status: StatusNA},
	}
	ev := BuildEvidence([]string{"01-lint", "02-unit", "03-e2e", "04-gpu"}, runs)
	type row struct {
		Recipe, Status string
		Planned        bool
		Runs           int
	}
	var got []row
	for _, r := range ev.Rows {
		got = append(got, row{r.Recipe, r.Status, r.Planned, len(r.Runs)})
	}
	want := []row{
		{"01-lint", StatusValidated, true, 2},
		{"02-unit", StatusValidated, true, 2},
		{"03-e2e", StatusDispositioned, true, 1},
		{"04-gpu", StatusMissing, true, 0},
		{"00-setup", StatusValidated, false, 1},
		{"05-bench", StatusSuperseded, false, 1},
		{"06-docs", StatusNA, false, 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows:\n got %+v\nwant %+v", got, want)
	}
	if ev.Validated != 4 || ev.Total != 7 {
		t.Errorf("validated %d/%d, want 4/7", ev.Validated, ev.Total)
	}
	if ev.Complete() {
		t.Error("Complete() with 04-gpu missing")
	}
	if ev.Row("02-unit").Latest.Seq != 4 {
		t.Errorf("latest of 02-unit = %d, want 4", ev.Row("02-unit").Latest.Seq)
	}
}

func TestEvidenceCompleteFailingUnplanned(t *testing.T) {
	ev := BuildEvidence([]string{"a"}, []*Run{{Seq: 1, Recipe: "a", Status: StatusValidated}, {Seq: 2, Recipe: "b", Status: StatusFailing}})
	if ev.Complete() {
		t.Error("a failing recipe, even unplanned, leaves the evidence incomplete")
	}
	ev = BuildEvidence([]string{"a"}, []*Run{{Seq: 1, Recipe: "a", Status: StatusValidated}, {Seq: 2, Recipe: "b", Status: StatusDispositioned}})
	if !ev.Complete() || ev.Validated != 2 {
		t.Errorf("complete=%v validated=%d", ev.Complete(), ev.Validated)
	}
}
