package packet

import (
	"os"
	"testing"
)

func TestParseRegistryMixed(t *testing.T) {
	data, err := os.ReadFile("testdata/registry/mixed.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	reg, probs := ParseRegistry(data)
	if reg.Lines != 9 {
		t.Errorf("Lines = %d, want 9", reg.Lines)
	}
	type want struct {
		seq, line int
		recipe    string
		status    string
		exit      *int
	}
	zero, one := 0, 1
	wants := []want{
		{1, 1, "00-setup", "validated", &zero},
		{2, 2, "01-lint", "superseded", &one},
		{3, 4, "01-lint", "validated", nil},
		{5, 7, "(no recipe)", "weird", nil},
		{8, 8, "03-bad\uFFFD", "dispositioned", nil},
	}
	if len(reg.Runs) != len(wants) {
		t.Fatalf("got %d runs, want %d: %+v", len(reg.Runs), len(wants), reg.Runs)
	}
	for i, w := range wants {
		r := reg.Runs[i]
		if r.Seq != w.seq || r.Line != w.line || r.Recipe != w.recipe || r.Status != w.status {
			t.Errorf("run %d = seq %d line %d %q %q, want %+v", i, r.Seq, r.Line, r.Recipe, r.Status, w)
		}
		if (r.ExitCode == nil) != (w.exit == nil) || (r.ExitCode != nil && *r.ExitCode != *w.exit) {
			t.Errorf("run %d exit = %v, want %v", i, r.ExitCode, w.exit)
		}
	}
	if got := string(reg.Runs[0].Extra["runner"]); got != `"box-3"` {
		t.Errorf("unknown field runner = %s, want kept", got)
	}
	if reg.Runs[0].DurationMs == nil || *reg.Runs[0].DurationMs != 1200 {
		t.Errorf("duration_ms = %v", reg.Runs[0].DurationMs)
	}
	if reg.Runs[4].Disposition != "flaky" {
		t.Errorf("disposition = %q", reg.Runs[4].Disposition)
	}

	type key struct {
		code string
		line int
	}
	got := map[key]int{}
	for _, p := range probs {
		if p.File != RegistryFile {
			t.Errorf("problem in %q, want %s", p.File, RegistryFile)
		}
		got[key{p.Code, p.Line}]++
	}
	for _, k := range []key{
		{CodeRegistryField, 4}, // exit_code "0"
		{CodeRegistryParse, 5}, // an array
		{CodeRegistryParse, 6}, // truncated
		{CodeRegistryField, 7}, // recipe 7, no recipe, status weird
		{CodeInvalidUTF8, 8},
		{CodeRegistryField, 8}, // exit 1.5
		{CodeRegistryParse, 9}, // null
	} {
		if got[k] == 0 {
			t.Errorf("missing problem %v; got %v", k, got)
		}
	}
	if got[key{CodeRegistryField, 7}] != 3 {
		t.Errorf("line 7 should have 3 field problems, got %d", got[key{CodeRegistryField, 7}])
	}
}

func TestParseRegistryEmptyAndHuge(t *testing.T) {
	reg, probs := ParseRegistry(nil)
	if !reg.Present || len(reg.Runs) != 0 || len(probs) != 0 {
		t.Errorf("empty registry: %+v %v", reg, probs)
	}
	// A 2 MB line parses: the reader has no token limit.
	big := make([]byte, 0, 2<<20+100)
	big = append(big, `{"recipe":"r","note":"`...)
	for len(big) < 2<<20 {
		big = append(big, 'x')
	}
	big = append(big, `"}`...)
	reg, probs = ParseRegistry(big)
	if len(reg.Runs) != 1 || len(probs) != 0 || len(reg.Runs[0].Note) < 2<<20-30 {
		t.Errorf("2 MB line: %d runs, %v", len(reg.Runs), probs)
	}
}

func FuzzParseRegistry(f *testing.F) {
	f.Add([]byte(`{"seq":1,"recipe":"a","status":"validated","exit_code":0}` + "\n"))
	f.Add([]byte("\xef\xbb\xbf[1]\r\n{\"seq\":\"x\"}\n{\"recipe\":{}}"))
	f.Add([]byte(`{"recipe":"r","exit_code":1e300,"duration_ms":-1,"seq":9007199254740993}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		reg, probs := ParseRegistry(data)
		for _, r := range reg.Runs {
			if r.Recipe == "" || r.Line < 1 || r.Line > reg.Lines {
				t.Fatalf("bad run %+v (lines %d)", r, reg.Lines)
			}
		}
		for _, p := range probs {
			if p.Line < 1 || p.Line > reg.Lines || p.Message == "" {
				t.Fatalf("bad problem %+v", p)
			}
		}
	})
}
