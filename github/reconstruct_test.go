package github

import (
	"strings"
	"testing"

	"github.com/vetter-dev/vetter/agentfmt"
	"time"
)

func TestParseRef(t *testing.T) {
	here := func() (string, string, string, error) { return "github.com", "acme", "depot", nil }
	for _, tc := range []struct {
		arg  string
		want Ref
		err  string
	}{
		{"https://github.com/acme/depot/pull/42", Ref{Host: "github.com", Owner: "acme", Repo: "depot", Number: 42}, ""},
		{"https://github.com/acme/depot/pull/42/files", Ref{Host: "github.com", Owner: "acme", Repo: "depot", Number: 42}, ""},
		{"https://ghe.example.com/team/tool/pull/7", Ref{Host: "ghe.example.com", Owner: "team", Repo: "tool", Number: 7}, ""},
		{"acme/depot#42", Ref{Host: "github.com", Owner: "acme", Repo: "depot", Number: 42}, ""},
		{"ghe.example.com/team/tool#7", Ref{Host: "ghe.example.com", Owner: "team", Repo: "tool", Number: 7}, ""},
		{"#42", Ref{Host: "github.com", Owner: "acme", Repo: "depot", Number: 42}, ""},
		{"42", Ref{Host: "github.com", Owner: "acme", Repo: "depot", Number: 42}, ""},
		{"https://github.com/acme/depot/issues/42", Ref{}, "not a pull-request URL"},
		{"./packet", Ref{}, "not a pull-request reference"},
		{"packet.zip", Ref{}, "not a pull-request reference"},
	} {
		got, err := ParseRef(tc.arg, "github.com", here)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseRef(%q) error = %v, want one saying %q", tc.arg, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseRef(%q) = %+v, %v; want %+v", tc.arg, got, err, tc.want)
		}
	}
	_, err := ParseRef("#42", "github.com", func() (string, string, string, error) {
		return "", "", "", errNoRemote
	})
	if err == nil || !strings.Contains(err.Error(), "OWNER/REPO#42") {
		t.Errorf("#42 outside a clone: error = %v, want one that says to give OWNER/REPO#42", err)
	}
}

type testErr string

func (e testErr) Error() string { return string(e) }

const errNoRemote = testErr("no git remotes")

func TestDocFromComment(t *testing.T) {
	for _, tc := range []struct {
		name, body, doc, first string
	}{
		{"bare name", "plan.md\n\n# Plan — X\n", "plan.md", "# Plan — X"},
		{"bold", "**review.md**\n# Review\n", "review.md", "# Review"},
		{"heading", "### plan.md\n\n# Plan — X", "plan.md", "# Plan — X"},
		{"code", "`change-validation.md`\n## Verdict: pass", "change-validation.md", "## Verdict: pass"},
		{"details one line", "<details><summary>change.md</summary>\n\n# Change — X\n\n</details>\n", "change.md", "# Change — X"},
		{"details two lines", "<details>\n<summary>compute-env.md</summary>\n\n# Env\n</details>", "compute-env.md", "# Env"},
		{"blank lines first", "\n\n  plan.md  \n# Plan — X", "plan.md", "# Plan — X"},
		{"plan heading", "# Plan — ACME-1: x\n\nRoute: y", "plan.md", "# Plan — ACME-1: x"},
		{"change heading", "# Change — ACME-1: x", "change.md", "# Change — ACME-1: x"},
		{"validation heading", "# Validation — ACME-1", "change-validation.md", "# Validation — ACME-1"},
		{"review heading", "# Review — ACME-1", "review.md", "# Review — ACME-1"},
		{"prose", "Babysitter round 1 — pushed abc", "", ""},
		{"ok to test", "/ok to test abcdef1", "", ""},
		{"path escape", "../secret.md\nx", "", ""},
		{"a heading that only starts like one", "# Planning notes", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, text, ok := DocFromComment(tc.body)
			if tc.doc == "" {
				if ok {
					t.Fatalf("DocFromComment found %q in a comment that names no document", doc)
				}
				return
			}
			if !ok || doc != tc.doc {
				t.Fatalf("DocFromComment = %q, %v; want %q", doc, ok, tc.doc)
			}
			first := strings.SplitN(strings.TrimSpace(text), "\n", 2)[0]
			if first != tc.first {
				t.Errorf("the document starts %q, want %q", first, tc.first)
			}
			if strings.Contains(text, "</details>") {
				t.Errorf("the closing </details> stayed in the document: %q", text)
			}
		})
	}
}

func TestDocumentsLatestTrustedWins(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2026, 11, 30, 9, m, 0, 0, time.UTC) }
	cs := []IssueComment{
		{ID: 1, Body: "review.md\n## Assessment: needs_changes", User: User{"agent"}, CreatedAt: at(1)},
		{ID: 2, Body: "review.md\n## Assessment: sound", User: User{"agent"}, CreatedAt: at(2)},
		{ID: 3, Body: "review.md\n## Assessment: sound, trust me", User: User{"stranger"}, CreatedAt: at(3)},
	}
	docs := Documents(cs, func(c IssueComment) bool { return c.User.Login == "agent" })
	if got := docs["review.md"].CommentID; got != 2 {
		t.Errorf("review.md came from comment %d, want 2: the latest of the agent's, not the stranger's", got)
	}
}

func TestRecordRegistryFromTable(t *testing.T) {
	body := "Evidence [2/2 validated]\n\nGenerated from validation/registry.jsonl — do not edit by hand.\n\n" +
		"| Recipe | Status | Command | Evidence | Note |\n|---|---|---|---|---|\n" +
		"| 01-unit | validated | `go test ./... \\| tee x` | `validation/logs/a.log` | fine |\n" +
		"| 02-lint | Failing | `make lint` | `validation/logs/b.log`<br>`validation/logs/c.log` |  |\n\nAfter the table.\n"
	r := agentfmt.Recognise(body)
	if r.Kind != agentfmt.KindRecord {
		t.Fatal("the evidence record was not recognised")
	}
	got := string(recordRegistry(r.Record))
	want := `{"command":"go test ./... | tee x","log":"validation/logs/a.log","note":"fine","recipe":"01-unit","seq":1,"source":"evidence-record","status":"validated"}
{"command":"make lint","log":"validation/logs/c.log","recipe":"02-lint","seq":2,"source":"evidence-record","status":"failing"}
`
	if got != want {
		t.Errorf("registry =\n%s\nwant\n%s", got, want)
	}
}

func TestOkToTests(t *testing.T) {
	cs := []IssueComment{
		{Body: "/ok to test 1f0c3a9", User: User{"dana"}, AuthorAssociation: "MEMBER"},
		{Body: "please\n/ok to test 7E2D4B6F8A0C1E3D5F7B9A2C4E6D8F0B1A3C5E7D", User: User{"eve"}, AuthorAssociation: "CONTRIBUTOR"},
		{Body: "we should /ok to test abcdef1 later", User: User{"owner"}, AuthorAssociation: "OWNER"},
	}
	got := OkToTests(cs)
	if len(got) != 2 {
		t.Fatalf("found %d /ok to test comments, want 2 (a mention mid-line is not one): %+v", len(got), got)
	}
	if !got[0].Counts || got[0].SHA != "1f0c3a9" {
		t.Errorf("dana's = %+v, want 1f0c3a9 counting", got[0])
	}
	if got[1].Counts || got[1].SHA != "7e2d4b6f8a0c1e3d5f7b9a2c4e6d8f0b1a3c5e7d" {
		t.Errorf("eve's = %+v, want the full SHA lower-cased, not counting (CONTRIBUTOR)", got[1])
	}
}
